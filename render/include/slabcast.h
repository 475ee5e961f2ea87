/* slabcast.h - the slabcast renderer: ray casting of deforming triangle meshes over a frustum grid
 * of W/T x H/T screen tiles x S depth slabs, built every frame with the split library.
 *
 * Conventions:
 *  - Opaque handle (sc_renderer), descriptor structs whose zero fields mean "default" (initialise
 *    with {0}). Every call returns an sc_status; details in sc_last_error() (sc_status.h).
 *  - Backends: SC_BACKEND_CPU (plain C, threads over tiles, runs anywhere, the reference) and
 *    SC_BACKEND_CUDA (NVIDIA GPU). Buffers given to a renderer live where its backend computes:
 *    host memory for the CPU backend, device memory for the CUDA backend.
 *  - Image layout: row 0 is the BOTTOM row (OpenGL convention), pixels RGBA8, row pitch in bytes.
 *    Pixel (x, y) is sampled by one ray through its centre (x + 0.5, y + 0.5).
 *  - Depth: view depth (distance along the camera's viewing axis), the same measure for triangle
 *    depths, slab bounds and hits. A hit counts when near <= depth <= far; equal depths go to the
 *    lower triangle id, so every backend gives the same image.
 *  - Plain C; no CUDA types except cudaStream_t, declared here as the CUDA runtime declares it. */
#ifndef SLABCAST_H
#define SLABCAST_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"
#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUstream_st *cudaStream_t;

typedef struct sc_renderer sc_renderer;

enum {
    SC_NO_HIT = 0xFFFFFFFFu,     /* sc_hit.tri of a pixel whose ray hits nothing */
    SC_MAX_TILE_SIZE = 32,       /* tile edge in pixels, 1 .. SC_MAX_TILE_SIZE */
    SC_MAX_SLABS = 1024,         /* depth slabs, 1 .. SC_MAX_SLABS */
    SC_MAX_LIGHTS = 4            /* lights of a frame (sc_renderer_set_lights) */
};

typedef enum sc_backend {
    SC_BACKEND_DEFAULT = 0,      /* the CUDA backend when built and a device is present, else CPU */
    SC_BACKEND_CPU,
    SC_BACKEND_CUDA,
    SC_BACKEND_COUNT             /* the number of sc_backend values (not a backend) */
} sc_backend;

/* How the grid is built every frame (sc_renderer_desc.binning). Both ways give the same grid: every
 * (tile, slab) cell holds the same references, so the hits, images and counters (references, tests,
 * early exits) are the same; the ray cast and shade are the same code. The second way exists to
 * measure what the split library buys over the binning of tile renderers such as Gaussian splatting. */
typedef enum sc_binning {
    SC_BINNING_SPLIT = 0,        /* the split library: references grouped by tile (multisplit), then
                                    each tile's by slab (segmented split) */
    SC_BINNING_RADIX_SORT        /* CUDA backend only (the CPU backend: UNSUPPORTED at create): one key
                                    per reference, cell = tile << slab_bits | slab, sorted with CUB's
                                    DeviceRadixSort over exactly those bits, then each cell's range from
                                    the sorted keys. Stage times: emit (the keys, and the buffer's unused
                                    tail padded: CUB takes its item count from the host, so the sort runs
                                    over the whole reference capacity), tile_split (the sort),
                                    slab_split (the cells' ranges and the tiles' offsets) */
} sc_binning;

/* The order in which the renderer keeps the mesh's vertices in its own buffers
 * (sc_renderer_desc.vertex_order). The choice is invisible to the caller: triangles keep their ids
 * and corner order, and every vertex-indexed array the API takes or gives (sc_frame_desc.positions,
 * sc_renderer_read_positions, sc_renderer_copy_positions) is in the caller's vertex order whatever
 * the choice; the hits (triangle, u, v, depth) and images are the same, bit for bit. */
typedef enum sc_vertex_order {
    SC_VERTEX_ORDER_FIRST_USE = 0, /* renumbered in the order the triangles first use them (vertices
                                      no triangle uses last, in the caller's order), so the vertices
                                      of nearby triangles lie near each other in memory, for the
                                      reads of a triangle's corners (project, the shadow pass) and
                                      of the one-rings (the hit pixels' smooth normals). Costs at
                                      sc_renderer_set_mesh one pass over the indices and a host copy
                                      of the mesh (16 bytes a vertex, 12 a triangle, freed on return);
                                      while the mesh is set, 4 bytes a vertex for the permutation
                                      (CUDA: device memory, and a staging buffer of at most 12 MiB for
                                      sc_renderer_read_positions); caller positions, read_positions and
                                      copy_positions go through the permutation. A mesh already in
                                      this order is kept as given and costs none of this */
    SC_VERTEX_ORDER_KEEP           /* the caller's order, as given */
} sc_vertex_order;

typedef struct sc_renderer_desc {
    sc_backend backend;
    uint32_t width, height;      /* target size in pixels, >= 1 */
    uint32_t tile_size;          /* tile edge in pixels; 0: 8 */
    uint32_t num_slabs;          /* depth slabs S; 0: 16 */
    int cull_back_faces;         /* initial sc_render_options.cull_back_faces */
    int flat_shading;            /* initial sc_render_options.flat_shading */
    int stage_times;             /* initial sc_render_options.stage_times */
    uint32_t num_threads;        /* CPU backend: worker threads; 0: one per online core */
    size_t initial_ref_capacity; /* triangle-tile references before the first grow, at most 2^32 - 2;
                                    0: automatic */
    cudaStream_t stream;         /* CUDA backend: the stream of every call; NULL: default stream */
    size_t host_memory_limit;    /* CPU backend: bytes its buffers (mesh, grid, pixels, references)
                                    may take; 0: half of the machine's physical memory */
    sc_binning binning;          /* how the grid is built; 0: SC_BINNING_SPLIT. INVALID_ARGUMENT when
                                    not an sc_binning */
    sc_vertex_order vertex_order; /* the vertices' order inside the renderer (invisible to the
                                    caller); 0: SC_VERTEX_ORDER_FIRST_USE. INVALID_ARGUMENT when not
                                    an sc_vertex_order */
} sc_renderer_desc;

/* Camera: look-at + perspective (cglm conventions: right-handed, looking down -z in view space). */
typedef struct sc_camera_desc {
    float eye[3];
    float target[3];             /* must differ from eye */
    float up[3];                 /* 0,0,0: (0, 1, 0) */
    float fovy;                  /* vertical field of view in radians, (0, pi); 0: 60 degrees */
    float near_plane;            /* > 0; 0: 0.01 */
    float far_plane;             /* > near; 0: 1000 */
} sc_camera_desc;

/* Deformation: every effect is a function of the rest position (and rest normal) and time, applied
 * in the order pulse, noise (both along the rest normal), twist, bend, wave. An effect with amount 0
 * is off. Lengths are in units
 * of the rest mesh's bounding radius R (so defaults suit any mesh scale), centred on the rest
 * mesh's bounding-box centre C. Frequencies are in cycles per second of the frame time. */
typedef struct sc_twist_desc {
    float amount;                /* twist angle in radians between C and a point R away along axis */
    float axis[3];               /* 0: (0, 1, 0) */
    float frequency;             /* 0: 0.25 Hz; angle = amount * sin(2 pi f t) */
} sc_twist_desc;

typedef struct sc_bend_desc {
    float amount;                /* bend angle in radians over a length R along axis */
    float axis[3];               /* the direction that bends; 0: (0, 1, 0) */
    float direction[3];          /* the way it bends, made orthogonal to axis; 0: (1, 0, 0) */
    float frequency;             /* 0: 0.2 Hz; angle = amount * sin(2 pi f t) */
} sc_bend_desc;

typedef struct sc_wave_desc {
    float amount;                /* amplitude, in units of R */
    float direction[3];          /* the direction the wave travels; 0: (1, 0, 0) */
    float displacement[3];       /* the direction points move; 0: (0, 1, 0) */
    float wavelength;            /* in units of R; 0: 0.5 */
    float frequency;             /* 0: 0.5 Hz */
} sc_wave_desc;

typedef struct sc_pulse_desc {
    float amount;                /* displacement along the rest normal, in units of R */
    float frequency;             /* 0: 0.5 Hz; offset = amount * sin(2 pi f t + phase) */
    float spatial_frequency;     /* phase = 2 pi * this * |p - C| / R; 0: 1 */
} sc_pulse_desc;

typedef struct sc_noise_desc {
    float amount;                /* displacement along the rest normal, in units of R */
    float scale;                 /* noise cells per R; 0: 4 */
    float speed;                 /* noise-space drift per second, in cells; 0: 0.5 */
    uint32_t seed;
} sc_noise_desc;

/* The deformation effects, in the order of sc_deform_desc's fields (their names: sc_deformer_name). */
typedef enum sc_deformer {
    SC_DEFORMER_TWIST = 0,
    SC_DEFORMER_BEND,
    SC_DEFORMER_WAVE,
    SC_DEFORMER_PULSE,
    SC_DEFORMER_NOISE,
    SC_DEFORMER_COUNT
} sc_deformer;

typedef struct sc_deform_desc {
    sc_twist_desc twist;
    sc_bend_desc bend;
    sc_wave_desc wave;
    sc_pulse_desc pulse;
    sc_noise_desc noise;
} sc_deform_desc;

typedef enum sc_view_mode {
    SC_VIEW_SHADED = 0,          /* Lambert + ambient, one directional light, background gradient */
    SC_VIEW_TRIANGLE_ID,         /* a colour per triangle id */
    SC_VIEW_NORMALS,             /* shading normal as (n + 1) / 2 */
    SC_VIEW_DEPTH,               /* near (white) to far (black) over the frame's depth range */
    SC_VIEW_TILE_HEAT,           /* triangles referenced per tile, log scale */
    SC_VIEW_SLAB,                /* slab index of the hit triangle */
    SC_VIEW_TESTS_HEAT,          /* ray-triangle tests of the pixel, log scale */
    SC_VIEW_SHADOW,              /* lit / shadowed per light: dark blue-grey where every light is
                                    blocked, plus a colour per light that reaches the pixel (light 0
                                    warm white, 1 sky blue, 2 pink, 3 green, shared among the lights);
                                    with shadows off every hit pixel shows as lit */
    SC_VIEW_SHADOW_TESTS,        /* shadow-ray tests of the pixel over all lights, log scale */
    SC_VIEW_MODE_COUNT
} sc_view_mode;

typedef struct sc_shading_desc {
    sc_view_mode mode;
    float light_dir[3];          /* direction the light travels, world space; 0: (-0.4, -0.8, -0.45).
                                    Used only while no lights are set (sc_renderer_set_lights): then
                                    it is one directional light of colour 1 without shadows */
    float ambient;               /* 0: 0.15; negative: no ambient */
    float albedo[3];             /* 0: (0.85, 0.8, 0.72) */
    float background_bottom[3];  /* background gradient; all 0: (0.10, 0.11, 0.14) */
    float background_top[3];     /* all 0: (0.32, 0.36, 0.45) */
    float heat_max;              /* count shown as the hottest colour; 0: per-mode default */
} sc_shading_desc;

/* Options of every frame from the next one on, changed at any time with sc_renderer_set_options
 * (no re-creation, no mesh upload; sc_renderer_desc holds their initial values). */
typedef struct sc_render_options {
    int cull_back_faces;         /* nonzero: drop triangles facing away (front = counter-clockwise) */
    int flat_shading;            /* nonzero: face normals instead of smooth per-vertex normals */
    int shadows;                 /* nonzero: shadow rays for every light set with shadows (see
                                    sc_light_desc); 0: lights shade unshadowed, no shadow pass runs */
    int stage_times;             /* nonzero: sc_frame_stats.stage_ms measured on the CUDA backend (an
                                    event recorded at each stage boundary, a few microseconds of a
                                    frame in all); 0: the frame is timed as a whole (frame_ms), its
                                    stage_ms are 0. The CPU backend times its stages either way */
} sc_render_options;

/* Lights (sc_renderer_set_lights). Shading with lights set: ambient + (1 - ambient) x the sum over
 * lights of color x intensity x max(0, n . l) x visible, n the shading normal turned towards the
 * viewer, l the unit vector from the hit point towards the light, visible 0 when the pixel is in
 * shadow for that light (below) and 1 otherwise.
 *
 * Shadows: the contract. For the hit point of a pixel (its hit triangle a, b, c with the hit's
 * barycentric weights) and a light with shadows, the shadow ray is defined in render/core/shadow.h
 * with every float operation written out (no contraction), shared by both backends:
 *  - origin: the point a + u (b - a) + v (c - a), moved off the triangle's plane along its unit
 *    geometric normal, to the side the light is on, by SC_SHADOW_OFFSET_REL (2^-16) times the largest
 *    absolute coordinate of a, b and c (Waechter and Binder, "A Fast and Robust Method for Avoiding
 *    Self-Intersection", Ray Tracing Gems, 2019: the hit point's rounding error scales with the
 *    magnitude of the coordinates, so the offset does too; here the triangle's coordinates set it,
 *    which keeps it scale invariant and a few hundred ulps small, so contact shadows stay);
 *  - direction: light position - origin (point light; t = 1 at the light) or minus the light's
 *    direction, unit (directional);
 *  - tmin = 0; tmax = 1 - 2^-12 for a point light (a blocker within 1/4096 of the distance to the light
 *    does not count: the light has that much size), +inf for a directional light.
 * The pixel is in shadow for the light when some triangle other than its hit triangle, not dropped
 * by the frame (a non-finite vertex; with cull_back_faces the culling does NOT apply to casters: a
 * back face seen from the eye still casts), hits the shadow ray under the watertight ray-triangle test
 * (render/core/intersect.h) with tmin <= t <= tmax. Both backends give exactly this, pixel for pixel;
 * the tests check it against a brute force that shares only those two headers. A closed mesh does not
 * leak light through shared edges or vertices (the watertight test). */
typedef enum sc_light_type {
    SC_LIGHT_POINT = 0,          /* at position, shining every way */
    SC_LIGHT_DIRECTIONAL         /* infinitely far: parallel rays travelling along direction */
} sc_light_type;

typedef struct sc_light_desc {
    sc_light_type type;
    float position[3];           /* SC_LIGHT_POINT: world position */
    float direction[3];          /* SC_LIGHT_DIRECTIONAL: the way the light travels; must not be 0 */
    float color[3];              /* all 0: (1, 1, 1) */
    float intensity;             /* >= 0; 0: 1 */
    int no_shadows;              /* nonzero: this light casts no shadows (it shades as if unblocked) */
} sc_light_desc;

/* Per-pixel result of the ray cast. depth is the view depth; u and v are the barycentric weights
 * of the triangle's second and third vertex (the first has 1 - u - v). tri == SC_NO_HIT: no hit,
 * depth = +inf, u = v = 0. */
typedef struct sc_hit {
    uint32_t tri;
    float depth;
    float u, v;
} sc_hit;

/* One frame. */
typedef struct sc_frame_desc {
    float time;                  /* seconds; drives the deformation */
    /* Optional: this frame's deformed positions (vertex_count x 3 floats, backend memory, in the
     * order of the mesh's vertices as given to sc_renderer_set_mesh), used instead of the
     * deformation effects. CUDA: a pointer that is not device memory is INVALID_ARGUMENT. */
    const float *positions;
    /* Output image, backend memory (host for CPU, device for CUDA), width x height RGBA8 pixels,
     * row 0 at the bottom. NULL: no image (the hit buffer is still computed). */
    void *rgba;
    size_t rgba_pitch;           /* bytes per row; 0: width * 4 */
    /* CUDA backend: a cudaSurfaceObject_t of an RGBA8 array to write instead of rgba; 0: none. */
    unsigned long long surface;
} sc_frame_desc;

typedef enum sc_stage {
    SC_STAGE_DEFORM = 0,         /* deformed positions */
    SC_STAGE_NORMALS,            /* 0 ms on both backends: no stage computes per-vertex normals any
                                    more; shade computes the smooth normals of the hit pixels only,
                                    from the hit triangle's vertices' one-rings, and its time holds
                                    that cost. Kept so stage indices, tables and JSON keep their
                                    places */
    SC_STAGE_PROJECT,            /* clip, cull, bounds, tile counts, nearest depth */
    SC_STAGE_REDUCE,             /* frame min / max depth */
    SC_STAGE_SCAN,               /* frame totals: slab range, reference count against the capacity */
    SC_STAGE_EMIT,               /* one reference per (triangle, tile) */
    SC_STAGE_TILE_SPLIT,         /* multisplit of references by tile */
    SC_STAGE_SLAB_SPLIT,         /* segmented split of each tile's references by slab */
    SC_STAGE_RAYCAST,
    SC_STAGE_SHADOW_RECEIVERS,   /* shadow pass, all lights: hit points into light space, the light
                                    grids fitted to them, receivers grouped by light tile (multisplit) */
    SC_STAGE_SHADOW_EMIT,        /* one caster reference per (triangle, light tile holding receivers) */
    SC_STAGE_SHADOW_SPLIT,       /* casters grouped by light tile (multisplit), then by light-space
                                    depth slab (segmented split) */
    SC_STAGE_SHADOW_CAST,        /* shadow rays, slabs from the light on (CUDA: with more than one light
                                    with shadows, the three stages above time the first light and this
                                    one holds the whole passes of the others) */
    SC_STAGE_SHADE,
    SC_STAGE_COUNT
} sc_stage;

typedef struct sc_frame_stats {
    double stage_ms[SC_STAGE_COUNT]; /* time per stage of the frame (CUDA: GPU time, CUDA events, with
                                        sc_render_options.stage_times set; 0 without) */
    double frame_ms;                 /* the frame from the deform to the end of shade (CUDA: GPU time;
                                        CPU: as total_ms) */
    double total_ms;                 /* host time of the sc_renderer_render call (CUDA: enqueueing
                                        the frame, a capacity grow included; CPU: the whole frame,
                                        grow-and-redo included) */
    uint64_t triangles;              /* triangles of the mesh */
    uint64_t visible_triangles;      /* triangles binned to at least one tile */
    uint64_t references;             /* (triangle, tile) references */
    uint64_t ray_triangle_tests;     /* for each slab of each tile, its references times the tile's
                                        rays still live in it (the same on both backends, and per
                                        pixel in the "tests" view); the ray casts test a triangle only
                                        against the rays through the pixels it may cover, fewer */
    uint64_t ray_tests_performed;    /* the ray-triangle tests the ray cast ran: a triangle against
                                        the live rays through the pixels its bounds may cover (CPU:
                                        its binning bounds; CUDA tiles of 8 x 8 or less: its pixel
                                        box, after the slab's live rays; larger tiles, their
                                        quadrants' live rays; the overflow fallback, every live
                                        ray): at most ray_triangle_tests, and at least one a hit
                                        pixel. The work the ray cast's floor counts */
    uint64_t tiles;                  /* tiles of the grid */
    uint64_t tiles_exited_early;     /* tiles that stopped before a later non-empty slab */
    uint64_t hit_pixels;
    uint32_t capacity_grows;         /* CPU: times this frame grew a buffer and was redone. CUDA:
                                        grows of the reference buffer just before this frame (an
                                        earlier frame overflowed it) */
    uint32_t overflow_passes;        /* CUDA: 0, or when this frame's references overflowed the
                                        buffer, the passes over tile ranges in which the device
                                        binned and ray cast it instead (exact image; tests counted
                                        without slabs, no early exits) */
    float depth_min, depth_max;      /* the frame's slab range: nearest depths of visible triangles */
    /* The shadow pass (all lights with shadows; 0 when shadows are off). */
    uint32_t shadow_lights;          /* lights whose shadow rays were cast */
    uint32_t light_views;            /* light-space grids built: 1 per directional light, 1 to 6 cube
                                        faces (those holding receivers) per point light */
    uint64_t shadow_receivers;       /* shadow rays: hit pixels x lights with shadows */
    uint64_t shadow_references;      /* (triangle, light tile) caster references */
    uint64_t shadow_ray_tests;       /* shadow ray-triangle tests */
    uint64_t shadow_rays_blocked;    /* shadow rays that found a blocker (pixels in shadow, per light) */
    uint64_t shadow_rays_early;      /* shadow rays decided before the last non-empty slab of their tile:
                                        blocked, or every caster left is behind them */
    uint32_t shadow_overflow_passes; /* CUDA: 1 when this frame's caster references overflowed the
                                        buffer and the shadows were cast without the grid's slabs
                                        (exact; the buffer grows before a later frame); CPU: 0 */
    uint64_t frame;                  /* the frame's number: 1 for the renderer's first successful
                                        sc_renderer_render, counting every one since; 0: no frame */
} sc_frame_stats;

/* The grid in force (sc_renderer_get_grid): the target, the tile size and slab count with their
 * defaults resolved, and the tiles that cover the target. */
typedef struct sc_grid_info {
    uint32_t width, height;          /* target size in pixels */
    uint32_t tile_size;              /* tile edge in pixels, 1 .. SC_MAX_TILE_SIZE */
    uint32_t num_slabs;              /* depth slabs, 1 .. SC_MAX_SLABS */
    uint32_t tiles_x, tiles_y;       /* tiles across and up: ceil(width / tile_size), ... */
} sc_grid_info;

/* Validation. Every call checks what it is given before it changes anything; a rejected call leaves
 * the renderer as it was (still usable) and returns INVALID_ARGUMENT with a message naming the
 * field, e.g. "sc_renderer_set_deform: deform.twist.amount is NaN". Every float of every descriptor
 * must be finite (no NaN, no infinity); the per-field rules are next to the fields and calls.
 *
 * Memory. Every size computed from the caller's values (target size x tiles x slabs, reference
 * capacities, vertex and triangle counts) is overflow-checked, and the buffers it needs are checked
 * before they are allocated: on the CPU backend against sc_renderer_desc.host_memory_limit (default:
 * half of the physical memory), on the CUDA backend against the device's free memory
 * (cudaMemGetInfo). A request over the bound fails with OUT_OF_MEMORY and a message that says how
 * much it needs, for what, and what to lower (e.g. a 2048x2048 target in 1-pixel tiles with 1024
 * slabs needs 16 GiB of cell offsets: lower the slab count or raise the tile size).
 *
 * Waiting for the device (CUDA backend; the CPU backend does each call's work in the call and has
 * none outstanding afterwards). These calls never wait for the device: sc_renderer_render (except
 * when three frames are already in flight or a buffer grows, see there), sc_renderer_poll_stats,
 * sc_renderer_set_camera, sc_renderer_set_deform, sc_renderer_set_shading, sc_renderer_set_options,
 * sc_renderer_get_options, sc_renderer_get_grid, sc_renderer_backend, and sc_renderer_set_grid
 * with the grid in force. These wait for the frames in flight: sc_renderer_stats,
 * sc_renderer_read_hits, sc_renderer_read_positions, sc_renderer_set_mesh, sc_renderer_resize,
 * sc_renderer_set_grid with another grid, sc_renderer_destroy. */

/* Creates a renderer. Errors: INVALID_ARGUMENT (size 0, tile size or slab count out of range, grid
 * too large for 32-bit reference keys, initial_ref_capacity above 2^32 - 2, a binning or vertex_order
 * that is not of its enum), UNSUPPORTED (CUDA
 * backend not built: "built without CUDA"; or no device), OUT_OF_MEMORY (the grid's buffers exceed the memory bound). */
sc_status sc_renderer_create(const sc_renderer_desc *desc, sc_renderer **out);
/* Destroys a renderer; NULL is ignored. */
void sc_renderer_destroy(sc_renderer *r);
/* The backend in use (never SC_BACKEND_DEFAULT). */
sc_backend sc_renderer_backend(const sc_renderer *r);

/* Copies the mesh (rest pose). Rejects out-of-range indices (INVALID_ARGUMENT, naming the first bad
 * triangle). A vertex with a non-finite coordinate is allowed: unused, it does not matter; the
 * triangles that use it are dropped (never binned, never hit, no part of any normal), and one
 * SC_LOG_WARNING line says how many. The default view and the deformation's centre and radius come
 * from the vertices of the triangles kept. Zero-area triangles are kept (they are never hit). An
 * empty mesh (0 triangles) is valid and renders the background. The vertices are kept in the order
 * sc_renderer_desc.vertex_order says (the caller sees the order given either way). OUT_OF_MEMORY
 * when the mesh's copies exceed the memory bound; also when the host has no room for the reordered
 * copy (SC_VERTEX_ORDER_FIRST_USE), which leaves the renderer as it was. */
sc_status sc_renderer_set_mesh(sc_renderer *r, const sc_mesh_data *mesh);
/* INVALID_ARGUMENT: a non-finite field, eye == target, up parallel to the view direction, fovy not
 * in (0, pi) (or so small that 1 / tan(fovy / 2) overflows), near_plane <= 0, far_plane <= near. */
sc_status sc_renderer_set_camera(sc_renderer *r, const sc_camera_desc *camera);
/* NULL: none. INVALID_ARGUMENT: a non-finite field (amounts, axes, directions, frequencies, ...). */
sc_status sc_renderer_set_deform(sc_renderer *r, const sc_deform_desc *deform);
/* NULL: defaults. INVALID_ARGUMENT: an unknown mode, a non-finite field, heat_max < 0. */
sc_status sc_renderer_set_shading(sc_renderer *r, const sc_shading_desc *shading);
/* Sets the options of the frames rendered from now on. They take effect with the next
 * sc_renderer_render and cost no allocation, no upload and no wait (CUDA: the next frames' constants
 * carry them; a change of shadows re-records each frame graph once, on the host). A frame
 * rendered with an option toggled is the same, pixel for pixel, as one from a renderer created with
 * it. INVALID_ARGUMENT: NULL. */
sc_status sc_renderer_set_options(sc_renderer *r, const sc_render_options *options);
/* Sets the lights of the frames rendered from now on: count lights (0 .. SC_MAX_LIGHTS) from lights
 * (NULL when count is 0). count 0: the shading's single light_dir (no shadows), as before any call.
 * Shadows are cast for the lights without no_shadows while sc_render_options.shadows is on. Costs no
 * allocation and no wait (CUDA: a change in which lights cast shadows re-records each frame graph
 * once, on the host; the first frame with shadows allocates the shadow pass's buffers, waiting for the
 * frames in flight). INVALID_ARGUMENT naming the field (e.g. "sc_renderer_set_lights:
 * lights[1].direction is 0"): count above SC_MAX_LIGHTS, an unknown type, a non-finite field, a zero
 * direction of a directional light, a negative intensity or colour. */
sc_status sc_renderer_set_lights(sc_renderer *r, const sc_light_desc *lights, uint32_t count);
/* The lights in force, defaults resolved (directions unit); *count: how many (out needs room for
 * SC_MAX_LIGHTS). */
sc_status sc_renderer_get_lights(const sc_renderer *r, sc_light_desc *out, uint32_t *count);
/* The options in force. */
sc_status sc_renderer_get_options(const sc_renderer *r, sc_render_options *out);
/* Changes the target size; the grid follows. INVALID_ARGUMENT as for create. CUDA: waits for the
 * frames in flight. */
sc_status sc_renderer_resize(sc_renderer *r, uint32_t width, uint32_t height);
/* Changes the tile size and slab count of the frames rendered from now on (0: the default of each,
 * as for sc_renderer_desc), without re-creating the renderer or uploading the mesh again; the target
 * size, mesh, camera, deformation, shading and options stay. A frame rendered after the change has
 * the hits (exact, as every frame) and, in every view mode, the pixels of a renderer created with
 * that grid. The same grid as in force: nothing happens (no wait). Otherwise only the grid's buffers
 * are re-sized (CPU: host; CUDA: device, after waiting for the frames in flight, and each frame
 * graph is captured again, on the host, before its next frame); the hit buffer is empty until the
 * next frame. On failure the previous grid stays in force and the renderer renders with it.
 * Errors: INVALID_ARGUMENT (tile size or slab count out of range, grid too large for 32-bit
 * reference keys: the messages of sc_renderer_create, naming this call), OUT_OF_MEMORY (the grid's
 * buffers exceed the memory bound), CUDA. */
sc_status sc_renderer_set_grid(sc_renderer *r, uint32_t tile_size, uint32_t num_slabs);
/* The grid in force (defaults resolved). Never waits. */
sc_status sc_renderer_get_grid(const sc_renderer *r, sc_grid_info *out);

/* Renders one frame. CPU: on return the frame is done; when its references overflow the buffer, the
 * buffer grows and the frame is redone. CUDA: the frame is enqueued on the renderer's stream and the
 * call returns without waiting for the device (it waits only when three frames are already in
 * flight, or to grow a buffer); the output is complete once the stream reaches it (work enqueued
 * later on the stream, or sc_renderer_stats / read_hits, sees it done). A
 * frame whose references overflow the buffer is still rendered exactly, on the device in passes
 * (sc_frame_stats.overflow_passes), and the buffer grows before a later frame. Errors:
 * INVALID_ARGUMENT (no mesh set, bad pitch, time not finite), OUT_OF_MEMORY (the references of the
 * frame exceed 2^32 - 2 or the memory bound), CUDA. */
sc_status sc_renderer_render(sc_renderer *r, const sc_frame_desc *frame);

/* Results of the last frame rendered. CUDA: waits for the frames in flight. */
sc_status sc_renderer_stats(sc_renderer *r, sc_frame_stats *out);
/* Results of the most recent frame that has finished, without waiting for the device: the call a
 * viewer makes every frame for its on-screen numbers. *available = 1 and *out that frame's stats,
 * the same values sc_renderer_stats gives once that frame is the last one (out->frame says which
 * frame it is: a frame already reported is reported again until a later one finishes); or
 * *available = 0 and *out zero when no frame has finished since the renderer was created or since
 * the last change of mesh or grid (sc_renderer_set_mesh, sc_renderer_set_grid with another grid,
 * sc_renderer_resize): a frame rendered before such a change is never reported. CPU: every frame is
 * finished when sc_renderer_render returns, so this is the last frame's stats (as
 * sc_renderer_stats; none after a frame that failed). CUDA: asks the ring of frames in flight whether each has finished
 * (cudaEventQuery), never waits; right after a frame is enqueued this is usually an earlier frame.
 * Errors: INVALID_ARGUMENT (NULL), CUDA (a frame failed on the device). */
sc_status sc_renderer_poll_stats(sc_renderer *r, sc_frame_stats *out, int *available);
/* Copies the hit buffer (width x height, row 0 at the bottom) to HOST memory. */
sc_status sc_renderer_read_hits(const sc_renderer *r, sc_hit *out);
/* Copies the last frame's shadow mask (width x height bytes, row 0 at the bottom) to HOST memory:
 * bit i of a pixel is 1 when the pixel is in shadow for light i (the contract above); 0 for pixels
 * without a hit, lights without shadows, and every pixel while shadows are off. CUDA: waits for the
 * frames in flight. */
sc_status sc_renderer_read_shadows(const sc_renderer *r, uint8_t *out);
/* Copies this frame's deformed positions (vertex_count x 3, in the order of the mesh's vertices as
 * given to sc_renderer_set_mesh, whatever sc_renderer_desc.vertex_order) to HOST memory. */
sc_status sc_renderer_read_positions(const sc_renderer *r, float *out);
/* Copies this frame's deformed positions (vertex_count x 3 floats, in the order of the mesh's
 * vertices as given to sc_renderer_set_mesh) into BACKEND memory (host for the CPU backend, device for
 * CUDA, e.g. a GL buffer mapped into CUDA), with no trip through the host. CPU: done on return.
 * CUDA: a device-to-device copy (a gather, when the renderer's vertex order is not the caller's)
 * enqueued on the renderer's stream after the frames rendered; the call never waits: dst holds the
 * positions once the stream reaches the copy (work enqueued later on that stream sees them; the host
 * may wait with cudaStreamSynchronize or sc_renderer_stats), and the next frame rendered does not
 * change them. Errors: INVALID_ARGUMENT (NULL, no mesh, no frame rendered since the mesh, size or
 * grid last changed; CUDA: dst is not device memory), CUDA. */
sc_status sc_renderer_copy_positions(const sc_renderer *r, float *dst);

/* Names. Each enum's values have one name, which programs, logs and help texts take from here:
 * view modes "shaded", "id", "normals", "depth", "tiles", "slab", "tests", "shadow", "shadow-tests";
 * backends "auto" (SC_BACKEND_DEFAULT), "cpu", "cuda" ("gpu" is read as "cuda" too); deformers "twist",
 * "bend", "wave", "pulse", "noise". A name function
 * gives NULL for a value that is not of its enum; a from_name function returns 1 and sets *out when the
 * name is one of them, else 0 with *out unchanged (an unknown name is the caller's to report: nothing
 * is logged or recorded as the last error). Every value from 0 to the enum's count - 1
 * (SC_VIEW_MODE_COUNT, SC_BACKEND_COUNT, SC_DEFORMER_COUNT) has a name, so a program lists them by
 * counting and never writes a list of its own. */
const char *sc_view_mode_name(sc_view_mode mode);
int sc_view_mode_from_name(const char *name, sc_view_mode *out);
/* What a view mode shows, in a few words for key lists and help texts ("triangles per tile"); NULL
 * for a value that is not an sc_view_mode. */
const char *sc_view_mode_description(sc_view_mode mode);
const char *sc_backend_name(sc_backend backend);
int sc_backend_from_name(const char *name, sc_backend *out);
const char *sc_deformer_name(sc_deformer deformer);
int sc_deformer_from_name(const char *name, sc_deformer *out);
/* A stage's short name in tables, logs and JSON keys ("deform", "project", "shadow-recv", ...; the
 * frame's own column is the caller's); NULL for a value that is not an sc_stage. */
const char *sc_stage_name(sc_stage stage);

/* Deformers by value, so a program turns any of them on without naming its descriptor: the field of
 * *deform that turns a deformer on and sets its strength (deform->twist.amount, ...); NULL for a NULL
 * deform or a value that is not an sc_deformer. */
float *sc_deform_amount(sc_deform_desc *deform, sc_deformer deformer);
/* An amount at which the deformer's motion is plain to see and leaves the mesh recognisable (twist:
 * 0.9 radians; the displacements: a few hundredths of R). The programs' --deform sets it, times their
 * --deform-amount. 0 for a value that is not an sc_deformer. */
float sc_deformer_typical_amount(sc_deformer deformer);
/* How far from the rest mesh's centre C, in units of its radius R, the deformation can move a point
 * that lies within R of C (a bound, not the maximum reached; at least 1): for a caller that fits a
 * volume around the deformed mesh (a shadow map's frustum, a bounding sphere) without reading its
 * positions back. NULL deform: 1 (no deformation). */
double sc_deform_reach(const sc_deform_desc *deform);
/* Whether the deformer moves points along the mesh's rest normal, so that a frame with it on reads the
 * rest normals besides the rest positions: 1 or 0 (for a program's model of a frame's memory traffic);
 * -1 for a value that is not an sc_deformer. */
int sc_deformer_reads_normals(sc_deformer deformer);

/* What a backend is and whether it runs here, for programs to ask instead of knowing (which backend
 * to offer, where their buffers must live, what the device is). */
enum { SC_BACKEND_INFO_TEXT = 256 };
typedef enum sc_memory_space {
    SC_MEMORY_HOST = 0,          /* host memory (malloc'd or pinned) */
    SC_MEMORY_DEVICE             /* CUDA device memory of the current device */
} sc_memory_space;
typedef struct sc_backend_info {
    sc_backend backend;          /* the backend described: SC_BACKEND_DEFAULT is resolved to the backend
                                    it picks on this machine */
    const char *name;            /* sc_backend_name(backend) */
    int built;                   /* compiled into this library */
    int available;               /* sc_renderer_create can use it on this machine */
    char unavailable_reason[SC_BACKEND_INFO_TEXT]; /* why not ("" when available) */
    /* Where the caller's buffers live: sc_frame_desc.rgba and .positions, sc_renderer_copy_positions'
     * destination. The read_* calls always copy to host memory. */
    sc_memory_space buffer_memory;
    int asynchronous;            /* render returns before the frame is done: frames queue on the device,
                                    and frames rendered back to back overlap (0: each frame is done in
                                    its render call) */
    int device_timed;            /* sc_frame_stats.frame_ms and stage_ms are measured on the device (GPU
                                    events), not by the host's clock (0: host time; frame_ms as total_ms) */
    int surfaces;                /* writes CUDA surfaces (sc_frame_desc.surface: GL textures by interop) */
    int radix_binning;           /* builds the grid by radix sort too (SC_BINNING_RADIX_SORT) */
    uint32_t worker_threads;     /* CPU: host threads a renderer uses by default (one per core); else 0 */
    char device[SC_BACKEND_INFO_TEXT]; /* what it runs on: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79 GiB)",
                                          "host: 16 threads"; "" when not available */
    char device_name[SC_BACKEND_INFO_TEXT]; /* the device's own name alone, "NVIDIA H100 80GB HBM3", for a
                                               program to show; "" for a backend that runs on the host,
                                               or when not available */
    /* Which code path runs: CUDA: "hopper" (a GPU of compute capability 9.0 or newer: the 9..16-pixel
     * tiles as thread-block clusters, the split library's programmatic dependent launch) or "portable"
     * (older GPUs from sm_75, or SLABCAST_CUDA_PORTABLE=1 in the environment when the renderer is
     * created: the same results by kernels without those features); CPU: "host"; "" when not
     * available. A static string. */
    const char *code_path;
} sc_backend_info;

/* Fills *out for backend (SC_BACKEND_DEFAULT: the one sc_renderer_create would pick). Never fails
 * for a backend that is not built or not available: it says so in *out. INVALID_ARGUMENT for a value
 * that is not an sc_backend or a NULL out. Cheap after the first call for CUDA (the device query is
 * the driver's). */
sc_status sc_backend_get_info(sc_backend backend, sc_backend_info *out);

/* The hardware limits a backend's stages run against, measured on its own device, for a program that
 * compares its frames with them (slabcast-bench's floor, docs/BENCH.md). Each is the median of
 * several timed runs after warm-up runs. */
typedef struct sc_device_limits {
    double copy_gbs;             /* copy bandwidth: bytes read + bytes written per second / 1e9, one
                                    buffer copied into another, each far larger than the caches (CUDA:
                                    cudaMemcpyAsync device to device; CPU: memcpy over the worker
                                    threads) */
    double ray_tests_per_s;      /* ray-triangle tests per second of intersect.h's watertight test (the
                                    ray cast's and the shadow cast's), every operand in registers: the
                                    test's own rate, without the loads of a cast (CUDA: the whole GPU;
                                    CPU: the worker threads) */
    double ray_hit_fraction;     /* hits / tests of those runs (most tests miss, as in a ray cast) */
    double copy_ms, ray_ms;      /* the median time of one copy and of one run of tests */
    uint64_t copy_bytes;         /* bytes one copy reads (as many are written) */
    uint64_t ray_tests;          /* tests of one run */
    uint32_t runs;               /* timed runs of each, after warm-up runs */
    uint32_t threads;            /* CPU: worker threads; CUDA: threads of the test kernel's launch */
} sc_device_limits;

/* Measures *out on the backend's device (SC_BACKEND_DEFAULT: the one sc_renderer_create would pick).
 * num_threads: the CPU backend's worker threads, as sc_renderer_desc.num_threads (0: one per online
 * core); ignored by a device backend. Takes a fraction of a second to a few seconds; allocates its
 * buffers (two of 256 MiB, device memory for CUDA) and frees them before it returns; the CUDA backend
 * runs on a stream of its own and waits for it. Errors: INVALID_ARGUMENT (out NULL, a value that is not
 * an sc_backend), UNSUPPORTED (the backend is not built or does not run here: the message says why),
 * OUT_OF_MEMORY (the buffers), CUDA. */
sc_status sc_backend_measure_limits(sc_backend backend, uint32_t num_threads, sc_device_limits *out);

/* Colour legends. The colour scale of the view mode in force (sc_renderer_set_shading), for a legend
 * drawn beside the image: the range of values, how they map onto the colours, and the colour of any
 * value, computed by the same per-pixel code the backends shade with, so a legend cannot drift from
 * the image. Both calls read the front end's state only: they never wait for the device. */
typedef struct sc_view_legend {
    sc_view_mode mode;               /* the view mode in force */
    int has_scale;                   /* 0: the mode has no numeric colour scale (shaded, triangle id,
                                        normals); the other fields are then 0 */
    float min_value, max_value;      /* the values at the cold and hot ends: tiles: 0 .. heat max
                                        references per tile; tests: 0 .. heat max tests per pixel;
                                        slab: 0 .. num_slabs - 1; depth: 0 (nearest, white) .. 1
                                        (farthest, black), the hit's place in the frame's depth range
                                        (sc_frame_stats.depth_min .. depth_max) */
    int log_scale;                   /* 1: a value's place on the scale is log2(1 + v) / log2(1 + max)
                                        (tiles, tests); 0: linear */
    int discrete;                    /* 1: integer classes (slab index), one colour each */
    const char *classes;             /* discrete scales: what a class is, plural ("slabs"), for a
                                        caption such as "16 slabs"; NULL otherwise (a static string) */
    const char *quantity;            /* what the colours show, e.g. "triangles per tile",
                                        "ray-triangle tests per pixel", "slab of the hit"; never NULL
                                        (a static string) */
} sc_view_legend;

/* The legend of the view mode in force; heat maxima with their defaults resolved (shading.heat_max
 * 0: 1024 references per tile, 256 tests per pixel). INVALID_ARGUMENT: r or out NULL. */
sc_status sc_renderer_get_view_legend(const sc_renderer *r, sc_view_legend *out);
/* The colour (bytes R, G, B, A) the renderer gives `value` in the view mode in force: exactly the
 * bytes of a pixel with that value in the image (tiles: the references of its tile; tests: its
 * ray-triangle tests; slab: the slab of its hit; depth: its place in the frame's depth range, as
 * sc_view_legend says). Values beyond the scale take the colour of its end (heat values above the
 * max are the hottest); in the slab mode a value takes the colour of its class floor(value), clamped
 * to 0 .. num_slabs - 1. INVALID_ARGUMENT: r or rgba NULL, value NaN or infinite, or a view mode
 * without a scale (has_scale 0). */
sc_status sc_renderer_view_color(const sc_renderer *r, float value, uint8_t rgba[4]);

/* ---- Shares of a mesh: sort-last rendering over several renderers ----
 * A mesh too large for one renderer, or held by the ranks of a simulation, is rendered by several
 * renderers, each with a share of its triangles (sc_renderer_set_mesh_share). Each renders its share
 * at full resolution; sc_hits_composite merges their hits: per pixel the nearer hit, at equal depth
 * the lower triangle id, the rule of one renderer. So the composite of the shares' hits equals the
 * hits of one renderer given the whole mesh, pixel for pixel (triangle, depth, u, v), when every
 * share has the same camera, size, culling and frame time and deforms in the whole mesh's frame
 * (sc_share_desc.frame_*; or the frames' positions come from the caller). */
typedef struct sc_share_desc {
    /* The whole mesh's ids of this share's triangles, strictly ascending, one per triangle of the
     * share's mesh, each below SC_NO_HIT (copied); NULL: first_triangle, first_triangle + 1, ...
     * sc_renderer_read_hits returns these ids. */
    const uint32_t *triangle_ids;
    uint32_t first_triangle;
    /* Nonzero: the deformers, the default view and the default light use frame_center and
     * frame_radius (the whole mesh's rest centre and radius, sc_mesh_frame) instead of the share's
     * own bounds; they must be finite, the radius > 0. */
    int has_frame;
    float frame_center[3];
    float frame_radius;
    /* The whole mesh's ids this share owns: owned_first .. owned_first + owned_count - 1 (0 count:
     * every triangle of the share). A share may hold triangles it does not own (a halo: the
     * triangles around its own that its vertices' smooth normals need, sc_mesh_share_make_halo); its
     * hit keys (sc_renderer_hit_keys) count only its own, and it resolves and shades only the pixels
     * whose winning triangle it owns, so each pixel has one owner. owned_first + owned_count must not
     * pass SC_NO_HIT. */
    uint32_t owned_first;
    uint32_t owned_count;
} sc_share_desc;

/* sc_renderer_set_mesh of a share of a larger mesh (share NULL: the whole mesh, as set_mesh).
 * INVALID_ARGUMENT as set_mesh, and: triangle ids not strictly ascending or not below SC_NO_HIT
 * (naming the first bad one), first_triangle + triangle_count past SC_NO_HIT, a bad frame. */
sc_status sc_renderer_set_mesh_share(sc_renderer *r, const sc_mesh_data *mesh, const sc_share_desc *share);
/* The rest centre and radius a renderer computes for a whole mesh (for sc_share_desc's frame).
 * INVALID_ARGUMENT: a NULL argument, an index out of range. */
sc_status sc_mesh_frame(const sc_mesh_data *mesh, float center[3], float *radius);

/* A share of a mesh made by sc_mesh_share_make: its own vertices and indices (mesh) and the share's
 * description (share: first_triangle and the whole mesh's frame). */
typedef struct sc_mesh_share {
    sc_mesh_data mesh;
    sc_share_desc share;
    float *positions;                /* owned: the vertices the share's triangles use, in first-use order */
    uint32_t *indices;               /* owned */
    uint32_t *triangle_ids;          /* owned: share.triangle_ids of a share with a halo; else NULL */
} sc_mesh_share;
/* Share `part` of `parts` of a mesh: its triangles first_triangle = floor(n * part / parts) up to
 * floor(n * (part + 1) / parts) (n the mesh's triangles: every triangle in exactly one share, the
 * counts within one of each other), the vertices they use, the whole mesh's frame. Free with
 * sc_mesh_share_free. INVALID_ARGUMENT: NULL arguments, parts 0, part >= parts, an index out of
 * range; OUT_OF_MEMORY. */
sc_status sc_mesh_share_make(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out);
void sc_mesh_share_free(sc_mesh_share *share);
/* The same share with its halo: besides its own triangles (as sc_mesh_share_make cuts them, which
 * it owns: share.owned_first, share.owned_count), every triangle of the mesh that uses one of their
 * vertices, all in the whole mesh's order (share.triangle_ids, ascending). Each vertex of an owned
 * triangle then has its whole one-ring in the share, so the owner's smooth normals, and so its
 * shaded pixels, are those of one renderer of the whole mesh (sc_renderer_shade_keys). The halo's
 * triangles are ray cast by both shares, with the same hits. Deformers that move points along the
 * rest normals (pulse, noise: sc_deformer_reads_normals) read normals of the halo's outer vertices
 * that lack their whole one-rings, so with them a share's triangles near its border deform unlike
 * the whole mesh's (as without a halo). Errors as sc_mesh_share_make. */
sc_status sc_mesh_share_make_halo(const sc_mesh_data *mesh, uint32_t parts, uint32_t part, sc_mesh_share *out);

/* acc[i] = the better of acc[i] and part[i] for i < count (host memory): the hit with the smaller
 * depth, at equal depth the lower triangle id; a pixel without a hit (SC_NO_HIT) loses to any hit.
 * Composite the hits of every share (sc_renderer_read_hits) into one buffer, in any order.
 * INVALID_ARGUMENT: acc or part NULL with count > 0. */
sc_status sc_hits_composite(sc_hit *acc, const sc_hit *part, uint64_t count);

/* ---- Hit keys: the composite on the device ----
 * A pixel's hit as one 64-bit key: the depth's bits above the whole mesh's triangle id. A hit's depth
 * is positive, so the smaller key is the better hit (nearer; at equal depth the lower id), and a pixel
 * without a hit is SC_HIT_KEY_NONE, the largest: the composite of the shares' hits is the elementwise
 * minimum of their keys (a reduction such as ncclAllReduce with ncclMin over ncclUint64 computes it
 * too). A frame of several shares, all on the device:
 *   1. each share renders (sc_renderer_render, rgba NULL) and writes its keys (sc_renderer_hit_keys);
 *   2. the keys are composited (sc_hit_keys_composite_device) into the winners;
 *   3. each share shades the pixels whose winner it owns (sc_renderer_shade_keys; the first also the
 *      pixels without a hit), and gives their u, v (sc_renderer_resolve_keys) over the hits that
 *      sc_hits_from_keys_device made from the winners.
 * The image and hits are those of one renderer of the whole mesh, pixel for pixel, under the
 * conditions of the shares above, with halo shares (sc_mesh_share_make_halo) for smooth shading, in
 * the view modes shaded, id and normals, shadows off. sc_renderer_group does all of it for one
 * process; with NCCL, sc_renderer_composite_nccl does it across processes. */
#define SC_HIT_KEY_NONE UINT64_MAX

/* Writes the key of each pixel of r's last frame (width x height, row 0 at the bottom) into keys,
 * BACKEND memory: the whole mesh's ids, SC_HIT_KEY_NONE for no hit and for a hit on a triangle the
 * share does not own (sc_share_desc.owned_*). CUDA: enqueued on the renderer's stream after the frames
 * rendered; never waits, never allocates; keys holds them once the stream reaches the kernel. CPU
 * backend: UNSUPPORTED (sc_renderer_read_hits and sc_hits_composite are its composite).
 * INVALID_ARGUMENT: NULL, no frame rendered since the mesh, size or grid was set. Buffers must be
 * device memory of the renderer's device (or of a peer it may access); others fail on the stream. */
sc_status sc_renderer_hit_keys(const sc_renderer *r, uint64_t *keys);
/* acc[i] = min(acc[i], part[i]) for i < count, device memory, enqueued on stream (NULL: the default
 * stream) of the current device; no wait, no allocation. acc and part may be the same buffer.
 * INVALID_ARGUMENT: NULL buffers with count > 0; UNSUPPORTED: built without CUDA. */
sc_status sc_hit_keys_composite_device(uint64_t *acc, const uint64_t *part, uint64_t count, cudaStream_t stream);
/* The same in host memory: the reference of the device composite. */
sc_status sc_hit_keys_composite(uint64_t *acc, const uint64_t *part, uint64_t count);
/* hits[i] from keys[i], device memory, on stream: tri and depth from the key, u = v = 0 (the owners
 * fill them in: sc_renderer_resolve_keys); a pixel without a hit: tri SC_NO_HIT, depth +inf.
 * INVALID_ARGUMENT: NULL buffers with count > 0; UNSUPPORTED: built without CUDA. */
sc_status sc_hits_from_keys_device(sc_hit *hits, const uint64_t *keys, uint64_t count, cudaStream_t stream);
/* For each pixel whose winner (winners: width x height keys, device memory) is a triangle r owns and
 * r's own hit there: hits[pixel] = r's hit (whole mesh id, depth, u, v); other pixels are left as they
 * are. CUDA only, enqueued on r's stream, no wait. INVALID_ARGUMENT as sc_renderer_hit_keys. */
sc_status sc_renderer_resolve_keys(const sc_renderer *r, const uint64_t *winners, sc_hit *hits);
/* Shades, as r's last frame would have, the pixels whose winner r owns (r's own hit there) into rgba
 * (device memory, width x height RGBA8, pitch bytes a row, 0: width * 4), and with `background`
 * nonzero also the pixels without a hit; other pixels are left as they are. The triangle-id view
 * colours by the whole mesh's id. CUDA only, enqueued on r's stream, no wait. INVALID_ARGUMENT as
 * sc_renderer_hit_keys, a pitch below width * 4; UNSUPPORTED: a view mode other than shaded,
 * triangle id and normals (the others show per-renderer data: tiles, slabs, tests, the depth range),
 * or shadows on (a share cannot see the other shares' casters). */
sc_status sc_renderer_shade_keys(const sc_renderer *r, const uint64_t *winners, void *rgba, size_t pitch,
                                 int background);

/* ---- Renderer groups: one process, several renderers, one image ----
 * A group splits a mesh into halo shares (sc_mesh_share_make_halo), one renderer (CUDA backend) per
 * share, each on a device of a list (one device may hold several shares), and renders every frame
 * as "Hit keys" above says: the shares render and write their keys, the keys are composited on the
 * display device (the first share's), the winners go back to each share's device, each owner shades
 * its pixels, and the images are merged on the display device. Between devices keys and images move
 * by cudaMemcpyPeerAsync (peer access is enabled where the devices allow it); a share on the display
 * device reads and writes the display device's buffers in place (SC_GROUP_COPY_ALWAYS: copied like a
 * share of another device, so that one device runs the path of several). The image and hits equal
 * one renderer's of the whole mesh pixel for pixel under the conditions of "Hit keys". */
typedef struct sc_renderer_group sc_renderer_group;

enum {
    SC_GROUP_MAX_SHARES = 64,    /* shares of a group, 1 .. SC_GROUP_MAX_SHARES */
    SC_GROUP_COPY_ALWAYS = 1     /* sc_group_desc.flags: copy keys, winners and images between shares
                                    on the display device too, as between devices */
};

typedef struct sc_group_desc {
    /* Every share's renderer: backend SC_BACKEND_DEFAULT or SC_BACKEND_CUDA, size, grid, options.
     * stream: the display device's stream (the first share's; NULL: the group creates one, see
     * sc_renderer_group_stream); the other shares get streams of their own. */
    sc_renderer_desc renderer;
    uint32_t shares;             /* 0: one per entry of devices (one when devices is NULL) */
    const int *devices;          /* CUDA device ordinals, count device_count; share i runs on
                                    devices[i % device_count]; repeats allowed; NULL: the current device */
    uint32_t device_count;
    uint32_t flags;              /* SC_GROUP_* */
} sc_group_desc;

/* What a group's last frame took (sc_renderer_group_stats; waits for it). */
typedef struct sc_group_stats {
    double frame_ms;             /* display device's stream: from the frame's start to the merged image
                                    (device time, CUDA events) */
    double composite_ms;         /* ... the keys' copies and composite (after every share's keys are done) */
    uint64_t bytes_moved;        /* bytes copied between shares' buffers a frame (keys, winners, images) */
    uint32_t shares;             /* shares of the group */
    uint32_t devices;            /* distinct devices they run on */
    uint64_t triangles;          /* the whole mesh's */
    uint64_t triangles_max;      /* the largest share's, halo included */
} sc_group_stats;

/* Creates the group's renderers and buffers on their devices (peer access enabled where possible).
 * Errors: INVALID_ARGUMENT (shares above SC_GROUP_MAX_SHARES, a device ordinal not present, a backend
 * other than CUDA or default, the renderer descriptor's own errors), UNSUPPORTED (built without CUDA, no
 * device), OUT_OF_MEMORY, CUDA. Every call leaves the caller's current device as it was. */
sc_status sc_renderer_group_create(const sc_group_desc *desc, sc_renderer_group **out);
void sc_renderer_group_destroy(sc_renderer_group *g);
/* The mesh in halo shares (sc_mesh_share_make_halo), one per renderer. Errors as set_mesh. */
sc_status sc_renderer_group_set_mesh(sc_renderer_group *g, const sc_mesh_data *mesh);
/* As the sc_renderer_ calls, for every share. */
sc_status sc_renderer_group_set_camera(sc_renderer_group *g, const sc_camera_desc *camera);
sc_status sc_renderer_group_set_deform(sc_renderer_group *g, const sc_deform_desc *deform);
sc_status sc_renderer_group_set_shading(sc_renderer_group *g, const sc_shading_desc *shading);
sc_status sc_renderer_group_set_options(sc_renderer_group *g, const sc_render_options *options);
/* One frame: time, and rgba (device memory of the display device, row 0 at the bottom) with its
 * pitch, or NULL (the hits alone); positions and surface must be 0 (INVALID_ARGUMENT). Enqueued
 * without waiting (each share's sc_renderer_render may wait as it does alone) and without
 * allocation; the image is complete once the display stream (sc_renderer_group_stream) reaches the
 * frame's end. UNSUPPORTED: a view mode or shadows sc_renderer_shade_keys refuses. */
sc_status sc_renderer_group_render(sc_renderer_group *g, const sc_frame_desc *frame);
/* The composited hits of the last frame (width x height, host memory); waits. */
sc_status sc_renderer_group_read_hits(sc_renderer_group *g, sc_hit *out);
/* The last frame's times and sizes; waits. INVALID_ARGUMENT: no frame rendered. */
sc_status sc_renderer_group_stats(sc_renderer_group *g, sc_group_stats *out);
/* The display device's stream, on which each frame ends (NULL for a NULL group). */
cudaStream_t sc_renderer_group_stream(const sc_renderer_group *g);
/* Share i's renderer (its stats, its hits), or NULL when i is not a share; share i's device in
 * *device when device is not NULL. Calls on it must be made with that device current. */
sc_renderer *sc_renderer_group_share(const sc_renderer_group *g, uint32_t i, int *device);

#ifdef __cplusplus
}
#endif
#endif /* SLABCAST_H */
