/* brute_force.c - every ray against every triangle (see brute_force.h). */
#include "brute_force.h"

#include <math.h>
#include <pthread.h>

#include "intersect.h"

typedef struct bf_job {
    const sc_frame_params *p;
    const float *positions;
    const uint32_t *indices;
    uint32_t num_triangles;
    uint32_t first_row, row_step;
    sc_hit *out;
} bf_job;

static int finite_vertex(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static void *bf_rows(void *arg)
{
    const bf_job *j = arg;
    const sc_frame_params *p = j->p;
    for (uint32_t y = j->first_row; y < p->height; y += j->row_step) {
        for (uint32_t x = 0; x < p->width; ++x) {
            float dir[3];
            sc_pixel_ray_dir(p, x, y, dir);
            sc_ray ray;
            sc_ray_setup(&ray, p->eye, dir);
            sc_hit best = {SC_NO_HIT, INFINITY, 0.0f, 0.0f};
            for (uint32_t t = 0; t < j->num_triangles; ++t) {
                const uint32_t *f = j->indices + 3 * (size_t)t;
                const float *a = j->positions + 3 * (size_t)f[0];
                const float *b = j->positions + 3 * (size_t)f[1];
                const float *c = j->positions + 3 * (size_t)f[2];
                if (!finite_vertex(a) || !finite_vertex(b) || !finite_vertex(c)) continue;
                if (p->cull_back_faces && sc_tri_backfacing(p->eye, a, b, c)) continue;
                float th, u, v;
                if (sc_intersect(&ray, a, b, c, p->near_plane, p->far_plane, &th, &u, &v) &&
                    sc_hit_better(th, t, best.depth, best.tri)) {
                    best.tri = t;
                    best.depth = th;
                    best.u = u;
                    best.v = v;
                }
            }
            j->out[(size_t)y * p->width + x] = best;
        }
    }
    return NULL;
}

void sc_brute_force(const sc_frame_params *p, const float *positions, const uint32_t *indices, uint32_t num_triangles,
                    uint32_t num_threads, sc_hit *out)
{
    enum { BF_MAX_THREADS = 32 };
    if (num_threads < 1) num_threads = 1;
    if (num_threads > BF_MAX_THREADS) num_threads = BF_MAX_THREADS;
    bf_job jobs[BF_MAX_THREADS];
    pthread_t th[BF_MAX_THREADS];
    uint32_t started = 0;
    for (uint32_t i = 0; i < num_threads; ++i)
        jobs[i] = (bf_job){p, positions, indices, num_triangles, i, num_threads, out};
    for (uint32_t i = 1; i < num_threads; ++i) {
        if (pthread_create(&th[i], NULL, bf_rows, &jobs[i]) != 0) break;
        started = i;
    }
    /* Rows of threads that could not start are done here. */
    bf_rows(&jobs[0]);
    for (uint32_t i = started + 1; i < num_threads; ++i) bf_rows(&jobs[i]);
    for (uint32_t i = 1; i <= started; ++i) pthread_join(th[i], NULL);
}
