/* vertex_order_cases.c - the seeded scenes of the vertex-order tests and the reference first-use
 * order (vertex_order_cases.h). A scene is a base mesh (a height field or the built-in knot,
 * subdivided) plus extra vertices no triangle uses, numbered for the caller by a seeded permutation:
 * shuffled, reversed, extras inserted among the base vertices, or the first-use order itself. */
#include "vertex_order_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sctest.h"

typedef enum vo_numbering { VO_SHUFFLE, VO_REVERSE, VO_INSERT, VO_FIRST_USE } vo_numbering;

void vo_first_use_ref(const sc_mesh_data *m, uint32_t *new_of_old)
{
    const uint32_t V = m->vertex_count;
    uint8_t *seen = calloc((size_t)V + 1, 1);
    if (!seen) {
        sct_fail(__FILE__, __LINE__, "out of memory for the reference order of %u vertices", V);
        for (uint32_t v = 0; v < V; ++v) new_of_old[v] = v;
        return;
    }
    uint32_t next = 0;
    for (size_t i = 0; i < 3 * (size_t)m->triangle_count; ++i)
        if (!seen[m->indices[i]]) {
            seen[m->indices[i]] = 1;
            new_of_old[m->indices[i]] = next++;
        }
    for (uint32_t v = 0; v < V; ++v)
        if (!seen[v]) new_of_old[v] = next++;
    free(seen);
}

/* A z = f(x, y) height field of nx x ny vertices over [-1, 1]^2, two triangles a cell, plus one
 * vertex at +inf used by two triangles on the grid's edge (both dropped by the renderer). */
static int height_field(uint32_t nx, uint32_t ny, sc_mesh *out)
{
    memset(out, 0, sizeof *out);
    const uint32_t V = nx * ny + 1, T = 2 * (nx - 1) * (ny - 1) + 2;
    out->positions = malloc(3 * sizeof(float) * V);
    out->indices = malloc(3 * sizeof(uint32_t) * T);
    if (!out->positions || !out->indices) return -1;
    for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) {
            float *p = out->positions + 3 * (size_t)(j * nx + i);
            p[0] = -1.0f + 2.0f * (float)i / (float)(nx - 1);
            p[1] = -1.0f + 2.0f * (float)j / (float)(ny - 1);
            p[2] = 0.3f * sinf(3.0f * p[0]) * cosf(2.0f * p[1]) + 0.1f * p[0] * p[1];
        }
    float *inf = out->positions + 3 * (size_t)(V - 1);
    inf[0] = 0.0f; inf[1] = INFINITY; inf[2] = 0.0f;
    uint32_t *t = out->indices;
    for (uint32_t j = 0; j + 1 < ny; ++j)
        for (uint32_t i = 0; i + 1 < nx; ++i) {
            const uint32_t a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            *t++ = a; *t++ = b; *t++ = d;
            *t++ = a; *t++ = d; *t++ = c;
        }
    *t++ = 0; *t++ = 1; *t++ = V - 1;
    *t++ = nx; *t++ = V - 1; *t++ = 0;
    out->vertex_count = V;
    out->triangle_count = T;
    return 0;
}

/* The built-in knot at `resolution`, subdivided once (midpoint vertices appended: far from
 * first-use order). */
static int subdivided_knot(uint32_t resolution, sc_mesh *out)
{
    sc_mesh knot;
    memset(out, 0, sizeof *out);
    if (sc_mesh_default(resolution, &knot) != SC_OK) return -1;
    const sc_status s = sc_mesh_subdivide_midpoint(&knot, 1, out);
    sc_mesh_free(&knot);
    return s == SC_OK ? 0 : -1;
}

/* The caller's numbering of base (its vertices) with `extra` unused vertices of the given
 * positions: slot_of[i] for base vertex i (i < base->vertex_count) and for extra i - that. */
static void numbering(vo_numbering how, const sc_mesh *base, uint32_t n, sct_rng *rng, uint32_t *slot_of)
{
    for (uint32_t i = 0; i < n; ++i) slot_of[i] = i;
    if (how == VO_REVERSE) {
        for (uint32_t i = 0; i < n; ++i) slot_of[i] = n - 1 - i;
    } else if (how == VO_SHUFFLE) {
        for (uint32_t i = n; i > 1; --i) {
            const uint32_t j = sct_rng_below(rng, i), s = slot_of[i - 1];
            slot_of[i - 1] = slot_of[j];
            slot_of[j] = s;
        }
    } else if (how == VO_INSERT) { /* base in its order, each extra at a seeded place among them */
        const uint32_t nb = base->vertex_count;
        uint8_t *taken = calloc(n, 1);
        if (!taken) {
            sct_fail(__FILE__, __LINE__, "out of memory for a numbering of %u vertices", n);
            return;
        }
        for (uint32_t e = nb; e < n; ++e) {
            uint32_t s = sct_rng_below(rng, n);
            while (taken[s]) s = (s + 1) % n;
            taken[s] = 1;
            slot_of[e] = s;
        }
        for (uint32_t i = 0, s = 0; i < nb; ++i, ++s) {
            while (taken[s]) ++s;
            slot_of[i] = s;
        }
        free(taken);
    } else { /* VO_FIRST_USE: the base's first-use order, extras after it */
        const sc_mesh_data md = sc_mesh_view(base);
        vo_first_use_ref(&md, slot_of);
    }
}

/* out: base renumbered by `how` with the extra vertices, its triangles shuffled unless in first-use
 * order (each triangle's corners as in base). */
static int number_scene(const sc_mesh *base, const float *extra, uint32_t extras, vo_numbering how, sct_rng *rng,
                        sc_mesh *out)
{
    const uint32_t nb = base->vertex_count, n = nb + extras, T = base->triangle_count;
    memset(out, 0, sizeof *out);
    uint32_t *slot_of = malloc(sizeof(uint32_t) * n + 1), *tri_order = malloc(sizeof(uint32_t) * T + 1);
    out->positions = malloc(3 * sizeof(float) * n + 1);
    out->indices = malloc(3 * sizeof(uint32_t) * T + 1);
    if (!slot_of || !tri_order || !out->positions || !out->indices) {
        free(slot_of);
        free(tri_order);
        return -1;
    }
    numbering(how, base, n, rng, slot_of);
    for (uint32_t i = 0; i < n; ++i)
        memcpy(out->positions + 3 * (size_t)slot_of[i], i < nb ? base->positions + 3 * (size_t)i : extra + 3 * (size_t)(i - nb),
               3 * sizeof(float));
    for (uint32_t t = 0; t < T; ++t) tri_order[t] = t;
    for (uint32_t t = T; how == VO_SHUFFLE && t > 1; --t) {
        const uint32_t j = sct_rng_below(rng, t), s = tri_order[t - 1];
        tri_order[t - 1] = tri_order[j];
        tri_order[j] = s;
    }
    for (uint32_t t = 0; t < T; ++t)
        for (int k = 0; k < 3; ++k)
            out->indices[3 * (size_t)t + k] = slot_of[base->indices[3 * (size_t)tri_order[t] + k]];
    out->vertex_count = n;
    out->triangle_count = T;
    free(slot_of);
    free(tri_order);
    return 0;
}

int vo_scene_make(int k, uint64_t seed, sc_mesh *out, const char **name)
{
    static const char *const names[] = {"lone_unused_vertex", "one_triangle_reversed", "shuffled_height_field",
                                        "subdivided_knot_with_extras", "height_field_in_order", "large_knot"};
    /* Unused vertices: a NaN one (non-finite), one at 3e38 and a finite one far away (neither may move
     * the framing), and a quiet NaN with a payload (its bits must come back as given). */
    uint32_t payload_nan_bits = 0x7fc12345u;
    float payload_nan;
    memcpy(&payload_nan, &payload_nan_bits, sizeof payload_nan);
    const float extra[] = {NAN, 0.0f, 1.0f, 3e38f, -3e38f, 0.0f, 40.0f, -40.0f, 40.0f, 0.5f, payload_nan, -0.5f};
    sct_rng rng;
    sct_rng_seed(&rng, seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(k + 1)));
    *name = names[k];
    sc_mesh base;
    memset(&base, 0, sizeof base);
    memset(out, 0, sizeof *out);
    int rc = 0;
    switch (k) {
    case 0: rc = number_scene(&base, extra, 1, VO_SHUFFLE, &rng, out); break;
    case 1: {
        float tri[9] = {-1, -1, 0, 1, -1, 0.2f, 0, 1, -0.1f};
        uint32_t idx[3] = {0, 1, 2};
        base.positions = tri;
        base.indices = idx;
        base.vertex_count = 3;
        base.triangle_count = 1;
        rc = number_scene(&base, extra, 1, VO_REVERSE, &rng, out);
        memset(&base, 0, sizeof base); /* not owned */
        break;
    }
    case 2:
        rc = height_field(29 + sct_rng_below(&rng, 5), 19 + sct_rng_below(&rng, 5), &base);
        if (rc == 0) rc = number_scene(&base, extra, 4, VO_SHUFFLE, &rng, out);
        break;
    case 3:
        rc = subdivided_knot(9, &base);
        if (rc == 0) rc = number_scene(&base, extra, 4, VO_INSERT, &rng, out);
        break;
    case 4:
        rc = height_field(23, 17, &base);
        if (rc == 0) rc = number_scene(&base, extra, 4, VO_FIRST_USE, &rng, out);
        break;
    default: /* VO_SCENE_LARGE: 4M triangles, about 2.1M vertices */
        rc = subdivided_knot(512, &base);
        if (rc == 0) rc = number_scene(&base, extra, 4, VO_INSERT, &rng, out);
        break;
    }
    sc_mesh_free(&base);
    if (rc != 0) {
        sct_fail(__FILE__, __LINE__, "scene %s: cannot build it: %s", names[k], sc_last_error());
        sc_mesh_free(out);
        return -1;
    }
    return 0;
}
