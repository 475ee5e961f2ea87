/* fuzz_render_desc.c - libFuzzer target: the renderer's API on the CPU backend with decoded
 * descriptors (sc_renderer_desc, sc_camera_desc, sc_deform_desc, sc_shading_desc, sc_frame_desc) and
 * small meshes. Every call must return a status (no crash, no undefined behaviour, no hang), and a
 * frame that succeeds must give hits on the mesh's own triangles.
 *
 * Input format (fuzz/make_corpus.py writes the same; keep both in step, and only ever append to the
 * tables below so that the committed regression cases keep their meaning):
 *   a sequence of operations, each one byte (op % OP_COUNT, or 0xFF: the lights, op_lights) and its
 *   fields; missing bytes read as 0.
 *   A float field is a tag byte t: t >> 5 in 0..3: a small value ((t & 31) - 16) * 2^(2 (t >> 5) - 3);
 *   4: k_special_floats[t & 31]; 5..7: the next 4 bytes as IEEE bits (little-endian).
 * Each input starts from the same state: a 32x32 CPU renderer (one per process, one thread) with a
 * tetrahedron, a camera looking at it, no deformation, default shading. OP_CREATE replaces it for the
 * rest of the input with a renderer made from a decoded desc (destroyed at the end of the input). */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    SCF_MAX_OPS = 24,        /* operations per input */
    SCF_MAX_RENDERS = 6,     /* frames per input */
    SCF_MAX_DIM = 64,        /* decoded target sizes: 0..64, or one that the grid must refuse */
    SCF_MAX_VERTS = 64,
    SCF_MAX_TRIS = 128,
    SCF_BASE_SIZE = 32
};

typedef enum scf_op {
    OP_CREATE = 0, OP_MESH, OP_CAMERA, OP_DEFORM, OP_SHADING, OP_RESIZE, OP_RENDER, OP_READ, OP_COUNT
} scf_op;

/* ---- decoding ---- */

typedef struct scf_bytes {
    const uint8_t *p, *end;
} scf_bytes;

static uint8_t take_u8(scf_bytes *b) { return b->p < b->end ? *b->p++ : 0; }

static uint32_t take_raw32(scf_bytes *b)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= (uint32_t)take_u8(b) << (8 * i);
    return v;
}

static const float k_special_floats[32] = {
    0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX,
    FLT_MIN, 1e-45f, 1e-9f, 6e-8f, 1e38f, 3e38f, -3e38f, 1e30f,
    -1e30f, 1e-30f, 1e-6f, 3.14159f, 3.1416f, 1e20f, 16777216.0f, 2147483648.0f,
    4294967296.0f, 1e10f, -1e10f, 0.5f, 1.0f, -1.0f, 1000.0f, 1e-20f};

static float take_float(scf_bytes *b)
{
    uint8_t t = take_u8(b);
    unsigned kind = t >> 5, low = t & 31u;
    if (kind < 4) return (float)((int)low - 16) * ldexpf(1.0f, 2 * (int)kind - 3);
    if (kind == 4) return k_special_floats[low];
    uint32_t bits = take_raw32(b);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void take_float3(scf_bytes *b, float v[3])
{
    for (int i = 0; i < 3; ++i) v[i] = take_float(b);
}

/* A target dimension: 0..SCF_MAX_DIM, or (tag >= 224) one so large that no tile size fits it in the
 * grid's key bits, which must be refused before anything is allocated. */
static uint32_t take_dim(scf_bytes *b)
{
    static const uint32_t k_huge[8] = {0u, (1u << 27) + 1u, 1u << 28, 1u << 30, 0x7FFFFFFFu, 0x80000000u,
                                       0xFFFFFFFEu, 0xFFFFFFFFu};
    uint8_t t = take_u8(b);
    return t < 224 ? t % (SCF_MAX_DIM + 1) : k_huge[t & 7];
}

static uint32_t take_tile_size(scf_bytes *b)
{
    static const uint32_t k_odd[8] = {33u, 64u, 1024u, 0x80000000u, 0xFFFFFFFFu, 0u, 1u, 32u};
    uint8_t t = take_u8(b);
    return t < 224 ? t % 40 : k_odd[t & 7];
}

static uint32_t take_slabs(scf_bytes *b)
{
    static const uint32_t k_odd[8] = {1024u, 1025u, 2048u, 1023u, 513u, 0x80000000u, 0xFFFFFFFFu, 0u};
    uint8_t t = take_u8(b);
    return t < 224 ? t % 65 : k_odd[t & 7];
}

/* Reference capacities: small ones, and (tag >= 192) ones no 32-bit reference index can use, which
 * must be refused or fail cleanly, never wrap a size. */
static size_t take_ref_capacity(scf_bytes *b)
{
    static const uint64_t k_huge[8] = {1ull << 62, (1ull << 62) + 1, 1ull << 63, UINT64_MAX, UINT64_MAX - 1,
                                       UINT64_MAX / 4 + 1, 1ull << 61, 1ull << 32};
    uint8_t t = take_u8(b);
    if (t < 192) return (size_t)t * 37u;
    uint64_t v = k_huge[t & 7];
    return v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

static sc_backend take_backend(scf_bytes *b)
{
    /* Mostly the CPU backend (the one this build has); the default; the CUDA backend (not built here:
     * UNSUPPORTED); values that are no sc_backend (INVALID_ARGUMENT). */
    static const int k_backends[8] = {SC_BACKEND_CPU, SC_BACKEND_CPU, SC_BACKEND_CPU, SC_BACKEND_DEFAULT,
                                      SC_BACKEND_CUDA, SC_BACKEND_COUNT, 1000, -1};
    return (sc_backend)k_backends[take_u8(b) & 7];
}

static uint32_t take_threads(scf_bytes *b)
{
    static const uint32_t k_threads[8] = {1u, 1u, 1u, 1u, 2u, 2u, 0u, 0xFFFFFFFFu};
    return k_threads[take_u8(b) & 7];
}

/* ---- the renderer under test ---- */

enum { SCF_MAX_CELLS = 1 << 16 }; /* grid cells (tiles x slabs) a frame may have: keeps it in milliseconds */

/* Halves a small target size until its grid has at most SCF_MAX_CELLS cells; sizes the grid must
 * refuse, and tile sizes or slab counts out of range, are left as they are. tile and slabs as
 * given to sc_renderer_create (0: default). */
static void fit_grid(uint32_t *w, uint32_t *h, uint32_t tile, uint32_t slabs)
{
    if (tile == 0) tile = 8;
    if (slabs == 0) slabs = 16;
    if (*w > SCF_MAX_DIM || *h > SCF_MAX_DIM || tile > SC_MAX_TILE_SIZE || slabs > SC_MAX_SLABS) return;
    while ((uint64_t)((*w + tile - 1) / tile) * ((*h + tile - 1) / tile) * slabs > SCF_MAX_CELLS) {
        *w = (*w + 1) / 2;
        *h = (*h + 1) / 2;
    }
}

typedef struct scf_state {
    sc_renderer *r;
    uint32_t tile, slabs;    /* as the renderer was created with */
    uint32_t width, height;  /* the last size the renderer accepted */
    int mesh_known;          /* the last set_mesh succeeded: verts is the renderer's vertex count */
    uint32_t verts;
    int renders;
    int shadows;             /* the shadows option in force (op_lights) */
} scf_state;

static void call_ok(sc_status s, const char *call)
{
    scf_check_status(s, call);
    SCF_CHECK(s == SC_OK, "%s failed on the base state: %s", call, sc_last_error());
}

/* The per-process renderer, reset to the base state. */
static sc_renderer *base_renderer(void)
{
    static sc_renderer *r;
    if (!r) {
        sc_renderer_desc d;
        memset(&d, 0, sizeof d);
        d.backend = SC_BACKEND_CPU;
        d.width = d.height = SCF_BASE_SIZE;
        d.num_threads = 1;
        call_ok(sc_renderer_create(&d, &r), "sc_renderer_create");
    }
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const uint32_t idx[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    const sc_mesh_data mesh = {pos, 4, idx, 4};
    sc_camera_desc cam;
    memset(&cam, 0, sizeof cam);
    cam.eye[0] = 1.5f; cam.eye[1] = 1.2f; cam.eye[2] = 2.5f;
    cam.target[0] = 0.3f; cam.target[1] = 0.3f; cam.target[2] = 0.3f;
    sc_clear_error();
    call_ok(sc_renderer_resize(r, SCF_BASE_SIZE, SCF_BASE_SIZE), "sc_renderer_resize");
    call_ok(sc_renderer_set_mesh(r, &mesh), "sc_renderer_set_mesh");
    call_ok(sc_renderer_set_camera(r, &cam), "sc_renderer_set_camera");
    call_ok(sc_renderer_set_deform(r, NULL), "sc_renderer_set_deform");
    call_ok(sc_renderer_set_shading(r, NULL), "sc_renderer_set_shading");
    const sc_render_options none = {0, 0, 0, 0};
    call_ok(sc_renderer_set_options(r, &none), "sc_renderer_set_options");
    call_ok(sc_renderer_set_lights(r, NULL, 0), "sc_renderer_set_lights");
    return r;
}

static void op_create(scf_state *st, sc_renderer **fresh, scf_bytes *b)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = take_backend(b);
    d.width = take_dim(b);
    d.height = take_dim(b);
    d.tile_size = take_tile_size(b);
    d.num_slabs = take_slabs(b);
    uint8_t flags = take_u8(b);
    d.cull_back_faces = flags & 1;
    d.flat_shading = (flags >> 1) & 1;
    /* Bit 2: the caller's vertex order kept (both orders render the same, so inputs written before
     * the bit had a meaning keep theirs). */
    d.vertex_order = (flags >> 2) & 1 ? SC_VERTEX_ORDER_KEEP : SC_VERTEX_ORDER_FIRST_USE;
    d.num_threads = take_threads(b);
    d.initial_ref_capacity = take_ref_capacity(b);
    fit_grid(&d.width, &d.height, d.tile_size, d.num_slabs);
    sc_renderer *r = NULL;
    sc_clear_error();
    sc_status s = sc_renderer_create(&d, &r);
    scf_check_status(s, "sc_renderer_create");
    if (s != SC_OK) {
        SCF_CHECK(r == NULL, "sc_renderer_create failed but returned a renderer");
        return;
    }
    SCF_CHECK(r != NULL, "sc_renderer_create succeeded with no renderer");
    SCF_CHECK(sc_renderer_backend(r) == SC_BACKEND_CPU, "backend %d without CUDA", (int)sc_renderer_backend(r));
    sc_renderer_destroy(*fresh);
    *fresh = r;
    st->r = r;
    st->tile = d.tile_size;
    st->slabs = d.num_slabs;
    st->width = d.width;
    st->height = d.height;
    st->mesh_known = 0;
}

static void op_mesh(scf_state *st, scf_bytes *b)
{
    uint32_t nv = take_u8(b) % (SCF_MAX_VERTS + 1), nt = take_u8(b) % (SCF_MAX_TRIS + 1);
    float *pos = malloc(3 * (size_t)nv * sizeof(float) + 1);
    uint32_t *idx = malloc(3 * (size_t)nt * sizeof(uint32_t) + 1);
    SCF_CHECK(pos && idx, "out of memory");
    for (uint32_t i = 0; i < 3 * nv; ++i) pos[i] = take_float(b);
    for (uint32_t i = 0; i < 3 * nt; ++i) {
        uint8_t t = take_u8(b);
        idx[i] = t < 240 ? (nv ? t % nv : 0u) : take_raw32(b);
    }
    const sc_mesh_data mesh = {nv ? pos : NULL, nv, nt ? idx : NULL, nt};
    sc_clear_error();
    sc_status s = sc_renderer_set_mesh(st->r, &mesh);
    scf_check_status(s, "sc_renderer_set_mesh");
    st->mesh_known = s == SC_OK;
    st->verts = nv;
    free(pos);
    free(idx);
}

static void op_camera(scf_state *st, scf_bytes *b)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    take_float3(b, c.eye);
    take_float3(b, c.target);
    take_float3(b, c.up);
    c.fovy = take_float(b);
    c.near_plane = take_float(b);
    c.far_plane = take_float(b);
    sc_clear_error();
    scf_check_status(sc_renderer_set_camera(st->r, &c), "sc_renderer_set_camera");
}

/* sc_deform_desc is 4-byte words only (floats and the noise seed), so it is decoded word by word in
 * the order of its fields: a deformer added to it is fuzzed with no change here. Each float is a
 * tagged float; the seed, the one integer, is its raw 4 bytes. */
_Static_assert(sizeof(sc_deform_desc) % 4 == 0, "sc_deform_desc is 4-byte fields");

static void op_deform(scf_state *st, scf_bytes *b)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    int none = (take_u8(b) & 7) == 0;
    unsigned char *words = (unsigned char *)&d;
    for (size_t at = 0; at < sizeof d; at += 4) {
        if (at == offsetof(sc_deform_desc, noise.seed)) {
            const uint32_t seed = take_raw32(b);
            memcpy(words + at, &seed, 4);
        } else {
            const float f = take_float(b);
            memcpy(words + at, &f, 4);
        }
    }
    sc_clear_error();
    scf_check_status(sc_renderer_set_deform(st->r, none ? NULL : &d), "sc_renderer_set_deform");
}

static void op_shading(scf_state *st, scf_bytes *b)
{
    sc_shading_desc s;
    memset(&s, 0, sizeof s);
    uint8_t t = take_u8(b);
    int none = (t & 7) == 0;
    s.mode = (sc_view_mode)((int)((t >> 3) % (SC_VIEW_MODE_COUNT + 3)) - 1); /* -1 .. COUNT + 1 */
    take_float3(b, s.light_dir);
    s.ambient = take_float(b);
    take_float3(b, s.albedo);
    take_float3(b, s.background_bottom);
    take_float3(b, s.background_top);
    s.heat_max = take_float(b);
    sc_clear_error();
    scf_check_status(sc_renderer_set_shading(st->r, none ? NULL : &s), "sc_renderer_set_shading");
}

static void op_resize(scf_state *st, scf_bytes *b)
{
    uint32_t w = take_dim(b), h = take_dim(b);
    fit_grid(&w, &h, st->tile, st->slabs);
    sc_clear_error();
    sc_status s = sc_renderer_resize(st->r, w, h);
    scf_check_status(s, "sc_renderer_resize");
    if (s == SC_OK) {
        st->width = w;
        st->height = h;
    }
}

/* Stats, hits and positions of the last frame, checked against the frame's own numbers. The hit
 * count is checked only right after a frame: a resize since then changes the target, not the stats
 * (and the per-process renderer keeps the stats of an earlier input's frame). */
static void read_results(scf_state *st, int after_frame)
{
    SCF_CHECK((uint64_t)st->width * st->height <= SCF_MAX_DIM * SCF_MAX_DIM, "a %ux%u target was accepted",
              st->width, st->height);
    size_t pixels = (size_t)st->width * st->height;
    sc_frame_stats stats;
    sc_clear_error();
    sc_status s = sc_renderer_stats(st->r, &stats);
    scf_check_status(s, "sc_renderer_stats");
    sc_hit *hits = malloc(pixels * sizeof(sc_hit) + 1);
    SCF_CHECK(hits != NULL, "out of memory");
    sc_clear_error();
    sc_status sh = sc_renderer_read_hits(st->r, hits);
    scf_check_status(sh, "sc_renderer_read_hits");
    if (s == SC_OK && sh == SC_OK) {
        SCF_CHECK(!after_frame || stats.hit_pixels <= pixels, "%llu hit pixels of %zu",
                  (unsigned long long)stats.hit_pixels, pixels);
        SCF_CHECK(stats.triangles <= UINT32_MAX, "%llu triangles", (unsigned long long)stats.triangles);
        scf_check_hits(hits, pixels, (uint32_t)stats.triangles);
        SCF_CHECK(stats.shadow_rays_blocked <= stats.shadow_receivers, "%llu shadow rays blocked of %llu",
                  (unsigned long long)stats.shadow_rays_blocked, (unsigned long long)stats.shadow_receivers);
    }
    free(hits);
    uint8_t *mask = malloc(pixels + 1);
    SCF_CHECK(mask != NULL, "out of memory");
    sc_clear_error();
    scf_check_status(sc_renderer_read_shadows(st->r, mask), "sc_renderer_read_shadows");
    free(mask);
    if (st->mesh_known) {
        float *pos = malloc(3 * (size_t)st->verts * sizeof(float) + 1);
        SCF_CHECK(pos != NULL, "out of memory");
        sc_clear_error();
        scf_check_status(sc_renderer_read_positions(st->r, st->verts ? pos : NULL), "sc_renderer_read_positions");
        free(pos);
    }
}

static void op_render(scf_state *st, scf_bytes *b)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = take_float(b);
    uint8_t flags = take_u8(b);
    float *pos = NULL;
    if ((flags & 1) && st->mesh_known) {
        pos = malloc(3 * (size_t)st->verts * sizeof(float) + 1);
        SCF_CHECK(pos != NULL, "out of memory");
        for (uint32_t i = 0; i < 3 * st->verts; ++i) pos[i] = take_float(b);
        f.positions = pos;
    }
    uint8_t *rgba = NULL;
    if (flags & 2) {
        size_t row = 4 * (size_t)st->width;
        switch ((flags >> 2) & 3) {
        case 0: f.rgba_pitch = 0; break;
        case 1: f.rgba_pitch = row; break;
        case 2: f.rgba_pitch = row + 1 + take_u8(b) % 16; break;
        default: f.rgba_pitch = row ? row - 1 : 0; break; /* too small: refused */
        }
        size_t pitch = f.rgba_pitch ? f.rgba_pitch : row;
        rgba = malloc(pitch * st->height + 1);
        SCF_CHECK(rgba != NULL, "out of memory");
        f.rgba = rgba;
    }
    if (flags & 16) f.surface = 1ull + take_u8(b);
    if (flags & 32) { /* per-frame options before the frame: cull = bit 6, flat = bit 7, stage times
                         with both */
        sc_render_options o = {(flags >> 6) & 1, (flags >> 7) & 1, st->shadows, (flags >> 6) & (flags >> 7) & 1};
        sc_clear_error();
        scf_check_status(sc_renderer_set_options(st->r, &o), "sc_renderer_set_options");
    }
    sc_clear_error();
    sc_status s = sc_renderer_render(st->r, &f);
    scf_check_status(s, "sc_renderer_render");
    if (s == SC_OK && pos && st->verts) { /* the caller's positions come back as given, in its order */
        float *back = malloc(3 * (size_t)st->verts * sizeof(float));
        SCF_CHECK(back != NULL, "out of memory");
        sc_clear_error();
        scf_check_status(sc_renderer_read_positions(st->r, back), "sc_renderer_read_positions");
        SCF_CHECK(memcmp(back, pos, 3 * (size_t)st->verts * sizeof(float)) == 0,
                  "the positions read back are not the caller's of the frame");
        free(back);
    }
    free(pos);
    free(rgba);
    if (s == SC_OK) read_results(st, 1);
}

/* Lights (op byte 0xFF): count 0 .. SC_MAX_LIGHTS + 1, each light's type byte, position, direction,
 * colour, intensity and a no_shadows bit, then the shadows option (bit 0 of the last byte): lights
 * with decoded fields are checked (a bad one refused, naming the field) and later frames cast their
 * shadows. */
static void op_lights(scf_state *st, scf_bytes *b)
{
    sc_light_desc lights[SC_MAX_LIGHTS + 1];
    memset(lights, 0, sizeof lights);
    const uint32_t count = take_u8(b) % (SC_MAX_LIGHTS + 2);
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t t = take_u8(b);
        lights[i].type = (sc_light_type)((int)(t % 4) - 1); /* -1 .. 2: the two types and two bad ones */
        take_float3(b, lights[i].position);
        take_float3(b, lights[i].direction);
        take_float3(b, lights[i].color);
        lights[i].intensity = take_float(b);
        lights[i].no_shadows = (t >> 2) & 1;
    }
    sc_clear_error();
    scf_check_status(sc_renderer_set_lights(st->r, count ? lights : NULL, count), "sc_renderer_set_lights");
    st->shadows = take_u8(b) & 1;
    sc_render_options o;
    sc_clear_error();
    scf_check_status(sc_renderer_get_options(st->r, &o), "sc_renderer_get_options");
    o.shadows = st->shadows;
    sc_clear_error();
    scf_check_status(sc_renderer_set_options(st->r, &o), "sc_renderer_set_options");
}

static void run_ops(scf_state *st, sc_renderer **fresh, scf_bytes *b)
{
    for (int n = 0; n < SCF_MAX_OPS && b->p < b->end; ++n) {
        const uint8_t op = take_u8(b);
        if (op == 0xFF) { /* appended after the table below: earlier inputs keep their meaning but for 0xFF */
            op_lights(st, b);
            continue;
        }
        switch ((scf_op)(op % OP_COUNT)) {
        case OP_CREATE: op_create(st, fresh, b); break;
        case OP_MESH: op_mesh(st, b); break;
        case OP_CAMERA: op_camera(st, b); break;
        case OP_DEFORM: op_deform(st, b); break;
        case OP_SHADING: op_shading(st, b); break;
        case OP_RESIZE: op_resize(st, b); break;
        case OP_RENDER:
            if (st->renders++ < SCF_MAX_RENDERS) op_render(st, b);
            break;
        case OP_READ: read_results(st, 0); break;
        default: break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scf_init();
    scf_bytes b = {data, data + size};
    scf_state st = {base_renderer(), 0, 0, SCF_BASE_SIZE, SCF_BASE_SIZE, 1, 4, 0, 0};
    sc_renderer *fresh = NULL;
    run_ops(&st, &fresh, &b);
    sc_renderer_destroy(fresh);
    return 0;
}
