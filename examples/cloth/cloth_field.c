/* cloth_field.c - the signed distance field of the static model (cloth_field.h): exact point-triangle distances in
 * a band around the surface, a Euclidean distance transform beyond it, the sign from a flood fill of the
 * outside. Every step is a fixed loop over the triangles or nodes: the same mesh gives the same field. */
#include "cloth_field.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sub3(const float a[3], const float b[3], float out[3])
{
    for (int k = 0; k < 3; ++k) out[k] = a[k] - b[k];
}

static float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The point of triangle abc closest to p (Ericson, Real-Time Collision Detection, 5.1.5): by the
 * Voronoi region of p among the triangle's vertices, edges and face. */
static void closest_on_triangle(const float p[3], const float a[3], const float b[3], const float c[3], float out[3])
{
    float ab[3], ac[3], ap[3], bp[3], cp[3];
    sub3(b, a, ab), sub3(c, a, ac), sub3(p, a, ap);
    const float d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) { memcpy(out, a, 3 * sizeof(float)); return; }
    sub3(p, b, bp);
    const float d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) { memcpy(out, b, 3 * sizeof(float)); return; }
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        const float v = d1 / (d1 - d3);
        for (int k = 0; k < 3; ++k) out[k] = a[k] + v * ab[k];
        return;
    }
    sub3(p, c, cp);
    const float d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) { memcpy(out, c, 3 * sizeof(float)); return; }
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        const float w = d2 / (d2 - d6);
        for (int k = 0; k < 3; ++k) out[k] = a[k] + w * ac[k];
        return;
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; ++k) out[k] = b[k] + w * (c[k] - b[k]);
        return;
    }
    const float sum = va + vb + vc;
    if (!(sum > 0.0f)) { memcpy(out, a, 3 * sizeof(float)); return; } /* a degenerate triangle */
    const float v = vb / sum, w = vc / sum;
    for (int k = 0; k < 3; ++k) out[k] = a[k] + ab[k] * v + ac[k] * w;
}

/* Squared distance transform along one line of n values (Felzenszwalb and Huttenlocher, "Distance
 * Transforms of Sampled Functions", 2012): f[q] becomes min over r of f[r] + (q - r)^2. Scratch: v (n
 * ints), z (n + 1 doubles), g (n doubles). */
static void edt_line(double *f, size_t n, int *v, double *z, double *g)
{
    memcpy(g, f, n * sizeof *g);
    int k = 0;
    v[0] = 0;
    z[0] = -HUGE_VAL, z[1] = HUGE_VAL;
    for (int q = 1; q < (int)n; ++q) { /* the lower envelope of the parabolas; z[0] = -inf ends the loop */
        double s;
        for (;;) {
            const int r = v[k];
            s = ((g[q] + (double)q * q) - (g[r] + (double)r * r)) / (2.0 * (q - r));
            if (s > z[k]) break;
            --k;
        }
        ++k;
        v[k] = q, z[k] = s, z[k + 1] = HUGE_VAL;
    }
    k = 0;
    for (int q = 0; q < (int)n; ++q) {
        while (z[k + 1] < q) ++k;
        const double d = q - v[k];
        f[q] = d * d + g[v[k]];
    }
}

/* The transform of the whole grid, one axis after the other. */
static int edt_grid(double *f, const uint32_t dims[3])
{
    size_t most = dims[0];
    if (dims[1] > most) most = dims[1];
    if (dims[2] > most) most = dims[2];
    const size_t stride[3] = {1, dims[0], (size_t)dims[0] * dims[1]};
    int *v = malloc(most * sizeof *v);
    double *z = malloc((most + 1) * sizeof *z), *g = malloc(most * sizeof *g), *line = malloc(most * sizeof *line);
    const int ok = v && z && g && line;
    for (int axis = 0; ok && axis < 3; ++axis) {
        const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        for (uint32_t j = 0; j < dims[a2]; ++j)
            for (uint32_t i = 0; i < dims[a1]; ++i) {
                double *first = f + i * stride[a1] + j * stride[a2];
                for (uint32_t q = 0; q < dims[axis]; ++q) line[q] = first[q * stride[axis]];
                edt_line(line, dims[axis], v, z, g);
                for (uint32_t q = 0; q < dims[axis]; ++q) first[q * stride[axis]] = line[q];
            }
    }
    free(v), free(z), free(g), free(line);
    return ok;
}

int cloth_field_build(const sc_mesh_data *mesh, uint32_t resolution, uint32_t pad, cloth_field *field,
                      float **values, char *err, size_t err_size)
{
    *values = NULL;
    memset(field, 0, sizeof *field);
    if (mesh->triangle_count == 0 || resolution < 2) {
        snprintf(err, err_size, "collision field: the model has no triangles");
        return 0;
    }
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; ++i) {
        const float *p = mesh->positions + 3 * (size_t)mesh->indices[i];
        for (int k = 0; k < 3; ++k) lo[k] = fminf(lo[k], p[k]), hi[k] = fmaxf(hi[k], p[k]);
    }
    const float longest = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    if (!(longest > 0.0f) || !isfinite(longest)) {
        snprintf(err, err_size, "collision field: the model has no extent");
        return 0;
    }
    const float cell = longest / (float)resolution, band = 1.5f * cell, shell = 0.87f * cell; /* sqrt(3) / 2 */
    uint32_t dims[3];
    for (int k = 0; k < 3; ++k) {
        dims[k] = (uint32_t)ceilf((hi[k] - lo[k]) / cell) + 1 + 2 * pad;
        field->origin[k] = lo[k] - (float)pad * cell;
    }
    const size_t nodes = (size_t)dims[0] * dims[1] * dims[2], sy = dims[0], sz = (size_t)dims[0] * dims[1];
    float *dist = malloc(nodes * sizeof *dist);
    signed char *side = calloc(nodes, 1);     /* the side of its nearest triangle a node lies on */
    unsigned char *outside = calloc(nodes, 1);
    uint32_t *queue = malloc(nodes * sizeof *queue);
    double *edt = malloc(nodes * sizeof *edt);
    if (!dist || !side || !outside || !queue || !edt) {
        snprintf(err, err_size, "collision field: out of memory for %ux%ux%u nodes", dims[0], dims[1], dims[2]);
        free(dist), free(side), free(outside), free(queue), free(edt);
        return 0;
    }
    for (size_t i = 0; i < nodes; ++i) dist[i] = FLT_MAX;

    /* 1. Exact distances from every node within `band` of a triangle's box, and the side it lies on. */
    for (uint32_t t = 0; t < mesh->triangle_count; ++t) {
        const float *a = mesh->positions + 3 * (size_t)mesh->indices[3 * (size_t)t];
        const float *b = mesh->positions + 3 * (size_t)mesh->indices[3 * (size_t)t + 1];
        const float *c = mesh->positions + 3 * (size_t)mesh->indices[3 * (size_t)t + 2];
        float ab[3], ac[3], normal[3];
        sub3(b, a, ab), sub3(c, a, ac);
        normal[0] = ab[1] * ac[2] - ab[2] * ac[1];
        normal[1] = ab[2] * ac[0] - ab[0] * ac[2];
        normal[2] = ab[0] * ac[1] - ab[1] * ac[0];
        uint32_t first[3], last[3];
        int empty = 0;
        for (int k = 0; k < 3; ++k) {
            const float tlo = fminf(a[k], fminf(b[k], c[k])) - band, thi = fmaxf(a[k], fmaxf(b[k], c[k])) + band;
            const float f = fmaxf(ceilf((tlo - field->origin[k]) / cell), 0.0f);
            const float l = fminf(floorf((thi - field->origin[k]) / cell), (float)(dims[k] - 1));
            if (!(f <= l)) empty = 1;
            first[k] = empty ? 0 : (uint32_t)f, last[k] = empty ? 0 : (uint32_t)l;
        }
        if (empty) continue;
        for (uint32_t z = first[2]; z <= last[2]; ++z)
            for (uint32_t y = first[1]; y <= last[1]; ++y)
                for (uint32_t x = first[0]; x <= last[0]; ++x) {
                    const float p[3] = {field->origin[0] + (float)x * cell, field->origin[1] + (float)y * cell,
                                        field->origin[2] + (float)z * cell};
                    float q[3], d[3];
                    closest_on_triangle(p, a, b, c, q);
                    sub3(p, q, d);
                    const float len = sqrtf(dot3(d, d));
                    const size_t i = x + y * sy + z * sz;
                    if (len < dist[i]) {
                        dist[i] = len;
                        side[i] = dot3(d, normal) >= 0.0f ? 1 : -1;
                    }
                }
    }

    /* 2. The outside: nodes reached from the grid's border without crossing the surface's shell (nodes
     *    within half a cell diagonal of a triangle; a path between neighbouring nodes that crosses the
     *    surface passes through one). */
    size_t head = 0, tail = 0;
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x) {
                const int border =
                    x == 0 || y == 0 || z == 0 || x == dims[0] - 1 || y == dims[1] - 1 || z == dims[2] - 1;
                const size_t i = x + y * sy + z * sz;
                if (border && dist[i] > shell) outside[i] = 1, queue[tail++] = (uint32_t)i;
            }
    while (head < tail) {
        const size_t i = queue[head++];
        const uint32_t x = (uint32_t)(i % sy), y = (uint32_t)(i / sy % dims[1]), z = (uint32_t)(i / sz);
        const size_t next[6] = {x > 0 ? i - 1 : i, x + 1 < dims[0] ? i + 1 : i, y > 0 ? i - sy : i,
                                y + 1 < dims[1] ? i + sy : i, z > 0 ? i - sz : i, z + 1 < dims[2] ? i + sz : i};
        for (int k = 0; k < 6; ++k)
            if (!outside[next[k]] && dist[next[k]] > shell) outside[next[k]] = 1, queue[tail++] = (uint32_t)next[k];
    }

    /* 3. Beyond the band, the distance to the nearest node that has an exact one. */
    for (size_t i = 0; i < nodes; ++i) edt[i] = dist[i] < FLT_MAX ? 0.0 : 1e20;
    const int ok = edt_grid(edt, dims);
    if (ok) {
        for (size_t i = 0; i < nodes; ++i) {
            const float magnitude = dist[i] < FLT_MAX ? dist[i] : cell * (float)sqrt(edt[i]) + 0.5f * band;
            const int sign = outside[i] ? 1 : dist[i] <= shell ? side[i] : -1;
            dist[i] = (float)sign * magnitude;
        }
    } else {
        snprintf(err, err_size, "collision field: out of memory for the distance transform");
    }
    free(side), free(outside), free(queue), free(edt);
    if (!ok) {
        free(dist);
        return 0;
    }
    field->phi = dist;
    field->nx = dims[0], field->ny = dims[1], field->nz = dims[2];
    field->cell = cell;
    *values = dist;
    return 1;
}
