/* mesh_subdivide.c - midpoint subdivision: each triangle becomes four, the midpoint of an edge is one
 * vertex shared by the triangles on both sides (so a closed mesh stays closed and watertight). */
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sc_report.h"

typedef struct edge_table {
    uint64_t *keys;   /* (lo << 32 | hi) + 1; 0 = empty */
    uint32_t *values; /* midpoint vertex */
    size_t mask;
} edge_table;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* The midpoint vertex of edge (a, b): found, or appended to positions at *next. */
static uint32_t midpoint(edge_table *t, float *positions, uint32_t *next, uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t key = (((uint64_t)lo << 32) | hi) + 1;
    size_t i = (size_t)mix64(key) & t->mask;
    while (t->keys[i] != 0) {
        if (t->keys[i] == key) return t->values[i];
        i = (i + 1) & t->mask;
    }
    uint32_t v = (*next)++;
    for (int k = 0; k < 3; ++k) positions[3 * (size_t)v + k] = 0.5f * (positions[3 * (size_t)lo + k] + positions[3 * (size_t)hi + k]);
    t->keys[i] = key;
    t->values[i] = v;
    return v;
}

static sc_status subdivide_once(const sc_mesh *in, sc_mesh *out)
{
    memset(out, 0, sizeof *out);
    uint64_t tris = (uint64_t)in->triangle_count * 4;
    uint64_t max_verts = (uint64_t)in->vertex_count + (uint64_t)in->triangle_count * 3; /* every edge new */
    if (tris >= UINT32_MAX / 3 || max_verts >= UINT32_MAX)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_subdivide_midpoint: %llu triangles would overflow 32-bit indices",
                       (unsigned long long)tris);
    size_t cap = 1;
    while (cap < 2 * (size_t)in->triangle_count * 3 / 2 + 16) cap <<= 1; /* load <= 0.5 for E ~ 1.5 T */
    edge_table t = {calloc(cap, sizeof(uint64_t)), malloc(cap * sizeof(uint32_t)), cap - 1};
    out->positions = malloc((size_t)max_verts * 3 * sizeof(float));
    out->indices = malloc((size_t)tris * 3 * sizeof(uint32_t));
    if (!t.keys || !t.values || !out->positions || !out->indices) {
        free(t.keys);
        free(t.values);
        sc_mesh_free(out);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_mesh_subdivide_midpoint: out of host memory for %llu triangles",
                       (unsigned long long)tris);
    }
    memcpy(out->positions, in->positions, (size_t)in->vertex_count * 3 * sizeof(float));
    uint32_t next = in->vertex_count;
    uint32_t *o = out->indices;
    for (uint32_t f = 0; f < in->triangle_count; ++f) {
        const uint32_t *v = in->indices + 3 * (size_t)f;
        uint32_t m01 = midpoint(&t, out->positions, &next, v[0], v[1]);
        uint32_t m12 = midpoint(&t, out->positions, &next, v[1], v[2]);
        uint32_t m20 = midpoint(&t, out->positions, &next, v[2], v[0]);
        /* Same winding as the parent: three corners, then the middle. */
        const uint32_t tri[12] = {v[0], m01, m20, m01, v[1], m12, m20, m12, v[2], m01, m12, m20};
        memcpy(o, tri, sizeof tri);
        o += 12;
    }
    free(t.keys);
    free(t.values);
    out->vertex_count = next;
    out->triangle_count = (uint32_t)tris;
    float *shrunk = realloc(out->positions, (size_t)next * 3 * sizeof(float));
    if (shrunk || next == 0) out->positions = shrunk;
    return SC_OK;
}

sc_status sc_mesh_subdivide_midpoint(const sc_mesh *in, uint32_t levels, sc_mesh *out)
{
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_subdivide_midpoint: NULL output mesh");
    if (!in || (in->triangle_count && (!in->indices || !in->positions)))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_subdivide_midpoint: NULL mesh");
    uint64_t final_tris = in->triangle_count;
    for (uint32_t l = 0; l < levels && final_tris; ++l) {
        final_tris *= 4;
        if (final_tris >= UINT32_MAX / 3)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                           "sc_mesh_subdivide_midpoint: %u triangles subdivided %u times overflow 32-bit indices",
                           in->triangle_count, levels);
    }
    for (uint64_t i = 0; i < 3 * (uint64_t)in->triangle_count; ++i)
        if (in->indices[i] >= in->vertex_count)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_subdivide_midpoint: triangle %llu has vertex index %u >= %u",
                           (unsigned long long)(i / 3), in->indices[i], in->vertex_count);
    sc_mesh cur = {0};
    const sc_mesh *src = in;
    for (uint32_t l = 0; l < levels; ++l) {
        sc_mesh next;
        sc_status st = subdivide_once(src, &next);
        sc_mesh_free(&cur);
        if (st != SC_OK) return st;
        cur = next;
        src = &cur;
    }
    if (levels == 0) {
        /* A copy, so the caller always owns *out independently of *in. */
        memset(&cur, 0, sizeof cur);
        cur.positions = malloc((size_t)in->vertex_count * 3 * sizeof(float) + 1);
        cur.indices = malloc((size_t)in->triangle_count * 3 * sizeof(uint32_t) + 1);
        if (!cur.positions || !cur.indices) {
            sc_mesh_free(&cur);
            return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_mesh_subdivide_midpoint: out of host memory");
        }
        if (in->vertex_count) memcpy(cur.positions, in->positions, (size_t)in->vertex_count * 3 * sizeof(float));
        if (in->triangle_count) memcpy(cur.indices, in->indices, (size_t)in->triangle_count * 3 * sizeof(uint32_t));
        cur.vertex_count = in->vertex_count;
        cur.triangle_count = in->triangle_count;
    }
    *out = cur;
    return SC_OK;
}
