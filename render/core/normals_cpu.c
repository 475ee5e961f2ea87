/* normals_cpu.c - smooth per-vertex normals: the area-weighted sum of the faces around each vertex,
 * normalised. Accumulated serially in triangle order (deterministic), normalised in parallel. */
#include <math.h>
#include <string.h>

#include "cpu_parallel.h"
#include "normals_cpu.h"
#include "render_tuning.h"

typedef struct normalize_ctx {
    float *normals;
    uint32_t num_vertices;
} normalize_ctx;

static void normalize_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    normalize_ctx *c = arg;
    uint32_t v0 = item * SC_CPU_NORMALIZE_PER_TASK, v1 = v0 + SC_CPU_NORMALIZE_PER_TASK;
    if (v1 > c->num_vertices) v1 = c->num_vertices;
    for (uint32_t v = v0; v < v1; ++v) {
        float *n = c->normals + 3 * (size_t)v;
        float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l > 0.0f && isfinite(l)) {
            n[0] /= l; n[1] /= l; n[2] /= l;
        } else {
            n[0] = n[1] = n[2] = 0.0f;
        }
    }
}

void sc_cpu_vertex_normals(const float *pos, uint32_t num_vertices, const uint32_t *idx, uint32_t num_triangles,
                           uint32_t num_threads, float *normals)
{
    memset(normals, 0, sizeof(float) * 3 * (size_t)num_vertices);
    for (uint32_t t = 0; t < num_triangles; ++t) {
        const uint32_t *f = idx + 3 * (size_t)t;
        const float *a = pos + 3 * (size_t)f[0], *b = pos + 3 * (size_t)f[1], *c = pos + 3 * (size_t)f[2];
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        if (!isfinite(n[0]) || !isfinite(n[1]) || !isfinite(n[2])) continue;
        for (int k = 0; k < 3; ++k) {
            float *o = normals + 3 * (size_t)f[k];
            o[0] += n[0]; o[1] += n[1]; o[2] += n[2];
        }
    }
    normalize_ctx c = {normals, num_vertices};
    sc_cpu_parallel_for(num_threads, (num_vertices + SC_CPU_NORMALIZE_PER_TASK - 1) / SC_CPU_NORMALIZE_PER_TASK, normalize_chunk, &c);
}
