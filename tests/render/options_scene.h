/* options_scene.h - the scene and frame sequence of the per-frame options tests (culling and flat
 * shading toggled between frames, sc_renderer_set_options), shared by the CPU test and the GPU test.
 * Header-only (static functions). */
#ifndef SC_OPTIONS_SCENE_H
#define SC_OPTIONS_SCENE_H

#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "slabcast.h"

enum { OPT_W = 96, OPT_H = 72, OPT_FRAMES = 10 };

/* The options of frame i: every combination of culling and flat shading, in an order that turns each
 * option on and off several times, and repeats some (a frame with the options of the one before);
 * stage times toggled too (the CUDA backend's frame graph with or without its stage events). */
static const sc_render_options k_opt_sequence[OPT_FRAMES] = {
    {1, 1, 0, 1}, {0, 0, 0, 0}, {1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 0},
    {1, 1, 0, 0}, {0, 1, 0, 1}, {0, 0, 0, 1}, {1, 1, 0, 0}, {0, 0, 0, 0}};

/* The default knot, deformed (smooth normals change every frame), with triangles in front of it
 * that face away from the default camera (on +z): culling drops them, flat shading recolours the
 * knot. The caller frees with sc_mesh_free. */
static inline int options_scene(sc_mesh *out)
{
    sc_mesh knot;
    if (sc_mesh_default(16, &knot) != SC_OK) return 0;
    const uint32_t extra = 8;
    memset(out, 0, sizeof *out);
    out->vertex_count = knot.vertex_count + 3 * extra;
    out->triangle_count = knot.triangle_count + extra;
    out->positions = (float *)malloc(sizeof(float) * 3 * out->vertex_count);
    out->indices = (uint32_t *)malloc(sizeof(uint32_t) * 3 * out->triangle_count);
    memcpy(out->positions, knot.positions, sizeof(float) * 3 * knot.vertex_count);
    memcpy(out->indices, knot.indices, sizeof(uint32_t) * 3 * knot.triangle_count);
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (uint32_t v = 0; v < knot.vertex_count; ++v)
        for (int k = 0; k < 3; ++k) {
            const float x = knot.positions[3 * v + k];
            lo[k] = x < lo[k] ? x : lo[k];
            hi[k] = x > hi[k] ? x : hi[k];
        }
    const float s = 0.2f * (hi[0] - lo[0]), z = hi[2] + 0.1f * (hi[2] - lo[2]);
    for (uint32_t i = 0; i < extra; ++i) {
        const float cx = lo[0] + (hi[0] - lo[0]) * (0.1f + 0.1f * (float)i);
        const float cy = lo[1] + (hi[1] - lo[1]) * (0.2f + 0.08f * (float)i);
        /* Clockwise seen from +z: (x, y), (x, y + s), (x + s, y): the normal points to -z. */
        const float v[9] = {cx, cy, z, cx, cy + s, z, cx + s, cy, z};
        memcpy(out->positions + 3 * (knot.vertex_count + 3 * i), v, sizeof v);
        for (int k = 0; k < 3; ++k) out->indices[3 * (knot.triangle_count + i) + k] = knot.vertex_count + 3 * i + k;
    }
    sc_mesh_free(&knot);
    return 1;
}

/* A renderer of the scene on `backend` created with `options` (NULL on failure, reported). */
static inline sc_renderer *options_renderer(const sc_mesh *m, sc_backend backend, sc_render_options options)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = OPT_W;
    d.height = OPT_H;
    d.cull_back_faces = options.cull_back_faces;
    d.flat_shading = options.flat_shading;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create: %s", sc_last_error());
        return NULL;
    }
    sc_mesh_data md = sc_mesh_view(m);
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.6f;
    def.pulse.amount = 0.03f;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &def) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* The frame time of frame i. */
static inline float options_time(uint32_t i) { return 0.37f * (float)(i + 1); }

#endif /* SC_OPTIONS_SCENE_H */
