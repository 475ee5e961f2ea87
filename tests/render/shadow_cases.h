/* shadow_cases.h - the shadow tests' scenes and frame check, shared by the CPU test
 * (test_render_shadows.c) and the CUDA test (test_render_shadows_gpu.cu).
 *
 * A case is a mesh, a camera, up to SC_MAX_LIGHTS lights, the options and a frame time. The check
 * renders it, reads back the hits, the deformed positions and the shadow mask, and compares the
 * mask bit for bit with shadow_brute_force.h run on the renderer's own hits and positions (so a
 * backend's deformation need not match the host's), printing the first wrong pixels with the
 * light, the hit triangle and the blocker the reference found (with the tree and without it). It
 * also checks the shadow counters of sc_frame_stats against the mask. The case builders below pass
 * each case to a runner: the CPU test checks the CPU backend, the CUDA test the CUDA backend and
 * then the CPU backend on the same positions. */
#ifndef SC_SHADOW_CASES_H
#define SC_SHADOW_CASES_H

#include <stdint.h>

#include "sc_mesh.h"
#include "shadow_brute_force.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

struct shadow_case;

/* One frame rendered (and, by shadow_check_case, its reference). Host memory; shadow_frame_free. */
typedef struct shadow_frame {
    uint32_t width, height;
    sc_hit *hits;
    float *positions;                        /* the frame's deformed positions */
    uint8_t *mask;                           /* the renderer's shadow mask */
    uint8_t *ref;                            /* the reference's (NULL from shadow_render_case) */
    sc_light_params lights[SC_MAX_LIGHTS];   /* as the frame cast them (sc_sbf_lights_of) */
    uint32_t num_lights;
    sc_frame_stats stats;
    uint64_t hit_pixels;
    uint64_t wrong;                          /* (pixel, light) pairs where mask and ref differ */
    uint64_t in_shadow;                      /* (pixel, light) pairs in shadow in the reference */
} shadow_frame;

/* A case's own checks beyond the reference (run on the rendered frame). */
typedef void (*shadow_extra_check)(const struct shadow_case *c, const shadow_frame *f, const char *what);

typedef struct shadow_case {
    const char *name;
    const sc_mesh *mesh;
    uint32_t width, height;
    sc_camera_desc camera;                   /* eye == target: the renderer's default view */
    sc_light_desc lights[SC_MAX_LIGHTS];
    uint32_t num_lights;
    int shadows;                             /* sc_render_options.shadows */
    int cull;                                /* sc_render_options.cull_back_faces */
    sc_deform_desc deform;                   /* all 0: none */
    float time;
    size_t initial_ref_capacity;             /* 0: automatic */
    int expect_shadow;                       /* nonzero: the reference must have a pixel in shadow and
                                                a (pixel, light with shadows) pair lit, so the case
                                                tests something */
    shadow_extra_check extra;                /* NULL: none */
    const void *extra_data;
} shadow_case;

typedef void (*shadow_runner)(const shadow_case *c);

/* Worker threads for the references: the online cores (at most 64). */
uint32_t shadow_threads(void);

/* A renderer of `backend` set up for case c (NULL after an sctest failure). */
sc_renderer *shadow_renderer(sc_backend backend, const shadow_case *c);

/* Renders c's frame with r (positions: the frame's positions in r's memory, or NULL for the
 * deformation) and reads it back into *f (stats, hits, positions, mask, lights). 0, or -1 after an
 * sctest failure (f freed). */
int shadow_render(sc_renderer *r, const shadow_case *c, const float *positions, shadow_frame *f, const char *what);

/* shadow_renderer + shadow_render without the reference. */
int shadow_render_case(sc_backend backend, const shadow_case *c, const float *positions, shadow_frame *f);

/* Renders case c on `backend` and checks it against the reference (sctest failures for every wrong
 * pixel, wrong counter, a vacuous case and the case's extra check). A case with an initial reference
 * capacity renders and checks two frames on one renderer: the first overflows the small buffers, the
 * second runs on the grown ones and must not overflow. keep: the (last) frame, or NULL. 0 when it
 * was rendered and compared, -1 otherwise. */
int shadow_check_case(sc_backend backend, const shadow_case *c, const float *positions, shadow_frame *keep);

void shadow_frame_free(shadow_frame *f);

/* The cases. Each builds its scene and passes every frame to run. The model cases skip (sct_skip)
 * when the model is absent. */
void shadow_cases_reference_self_check(void);       /* the reference alone: tree vs exhaustive, a
                                                       quad over a plane */
void shadow_cases_small_point_lights(shadow_runner run);
void shadow_cases_small_far_lights(shadow_runner run);
void shadow_cases_small_deform_grow(shadow_runner run);
void shadow_cases_small_off(shadow_runner run);
void shadow_cases_no_leak_sphere(shadow_runner run);
void shadow_cases_no_leak_box(shadow_runner run);
void shadow_cases_bunny(shadow_runner run);
void shadow_cases_bunny_on_ground(shadow_runner run);
void shadow_cases_dragon(shadow_runner run, uint32_t width, uint32_t height);
void shadow_cases_knot(shadow_runner run, uint32_t width, uint32_t height);
/* The dragon subdivided twice (13.9M triangles), the program's camera and the bench's deformation,
 * the default light (framing centre + 3 x framing radius x normalize(1, 2, 1)). */
void shadow_cases_dragon14m(shadow_runner run, uint32_t width, uint32_t height);

/* Renders r's next frame (time 0) into rgba, HOST memory of w x h RGBA8 pixels, the backend's way.
 * 0, or -1 after an sctest failure. */
typedef int (*shadow_render_rgba)(sc_renderer *r, uint32_t w, uint32_t h, uint8_t *rgba);

/* The view modes on the small scene with three lights: SC_VIEW_SHADOW gives one colour per mask,
 * distinct masks distinct colours (shadows off: every hit pixel the colour of mask 0);
 * SC_VIEW_SHADOW_TESTS renders, shows more than one colour and has a log-scale legend (CPU: its
 * per-pixel counts sum to stats.shadow_ray_tests); SC_VIEW_SHADED gives every pixel in shadow for
 * every light the one ambient colour, and no hit pixel is darker. */
void shadow_check_view_modes(sc_backend backend, shadow_render_rgba render_rgba);

/* sc_renderer_set_lights's validation and resolution on a renderer of `backend`. */
void shadow_check_light_api(sc_backend backend);

#ifdef __cplusplus
}
#endif

#endif /* SC_SHADOW_CASES_H */
