/* brute_force_dense.c - boxed brute force for dense meshes (see brute_force_dense.h).
 * Two passes over the triangles: boxes (threads over triangle ranges, each with its own per-row
 * work histogram), then the rays (threads over contiguous row bands of about equal work, each
 * scanning every box and testing the pixels of its band). */
#include "brute_force_dense.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "intersect.h"

enum { BFD_MAX_THREADS = 64 };

/* A triangle's pixel box, inclusive; x0 > x1 when it is skipped. */
typedef struct bfd_box { int32_t x0, y0, x1, y1; } bfd_box;

typedef struct bfd_shared {
    const sc_frame_params *p;
    const float *positions;
    const uint32_t *indices;
    uint32_t num_triangles;
    bfd_box *boxes;
    sc_hit *out;
} bfd_shared;

typedef struct bfd_job {
    const bfd_shared *sh;
    uint32_t tri_begin, tri_end;  /* box pass */
    int64_t *row_work;            /* box pass: height + 1 entries, a difference array */
    uint32_t row_begin, row_end;  /* ray pass */
    sc_bfd_stats stats;
} bfd_job;

static int finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

/* The box of triangle t under the rule of brute_force_dense.h. */
static bfd_box bfd_triangle_box(const sc_frame_params *p, const float *a, const float *b, const float *c,
                                sc_bfd_stats *st)
{
    const bfd_box none = {0, 0, -1, -1};
    const bfd_box all = {0, 0, (int32_t)p->width - 1, (int32_t)p->height - 1};
    if (!finite3(a) || !finite3(b) || !finite3(c) || (p->cull_back_faces && sc_tri_backfacing(p->eye, a, b, c))) {
        st->skipped++;
        return none;
    }
    const float *v[3] = {a, b, c};
    const double kx = 0.5 * p->width * p->proj_x, ky = 0.5 * p->height * p->proj_y;
    double X[3], Y[3], W[3];
    double wmin = INFINITY, wmax = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        double d[3] = {(double)v[i][0] - p->eye[0], (double)v[i][1] - p->eye[1], (double)v[i][2] - p->eye[2]};
        double x = d[0] * p->right[0] + d[1] * p->right[1] + d[2] * p->right[2];
        double y = d[0] * p->up[0] + d[1] * p->up[1] + d[2] * p->up[2];
        W[i] = d[0] * p->forward[0] + d[1] * p->forward[1] + d[2] * p->forward[2];
        X[i] = x;
        Y[i] = y;
        wmin = fmin(wmin, W[i]);
        wmax = fmax(wmax, W[i]);
    }
    if (wmax < 0.5 * p->near_plane || wmin > 2.0 * p->far_plane) {
        st->skipped++;
        return none;
    }
    if (wmin <= p->near_plane / 16.0) {
        st->whole_screen++;
        return all;
    }
    double bx0 = INFINITY, bx1 = -INFINITY, by0 = INFINITY, by1 = -INFINITY, big = 0.0;
    for (int i = 0; i < 3; ++i) {
        const double px = 0.5 * p->width + kx * X[i] / W[i], py = 0.5 * p->height + ky * Y[i] / W[i];
        bx0 = fmin(bx0, px); bx1 = fmax(bx1, px);
        by0 = fmin(by0, py); by1 = fmax(by1, py);
        big = fmax(big, fmax(fabs(px), fabs(py)));
    }
    const double m = SC_BFD_MARGIN_PX + SC_BFD_MARGIN_REL * (big + fmax(kx, ky));
    /* Pixel centres x + 0.5 in [bx0 - m, bx1 + m], clamped to the target. */
    const double fx0 = fmax(ceil(bx0 - m - 0.5), 0.0), fx1 = fmin(floor(bx1 + m - 0.5), (double)p->width - 1);
    const double fy0 = fmax(ceil(by0 - m - 0.5), 0.0), fy1 = fmin(floor(by1 + m - 0.5), (double)p->height - 1);
    if (!(fx0 <= fx1 && fy0 <= fy1)) {
        st->skipped++;
        return none;
    }
    st->boxed++;
    return (bfd_box){(int32_t)fx0, (int32_t)fy0, (int32_t)fx1, (int32_t)fy1};
}

static void *bfd_box_pass(void *arg)
{
    bfd_job *j = arg;
    const bfd_shared *sh = j->sh;
    for (uint32_t t = j->tri_begin; t < j->tri_end; ++t) {
        const uint32_t *f = sh->indices + 3 * (size_t)t;
        bfd_box bx = bfd_triangle_box(sh->p, sh->positions + 3 * (size_t)f[0], sh->positions + 3 * (size_t)f[1],
                                      sh->positions + 3 * (size_t)f[2], &j->stats);
        sh->boxes[t] = bx;
        if (bx.x0 <= bx.x1) {
            j->row_work[bx.y0] += bx.x1 - bx.x0 + 1;
            j->row_work[bx.y1 + 1] -= bx.x1 - bx.x0 + 1;
        }
    }
    return NULL;
}

static void *bfd_ray_pass(void *arg)
{
    bfd_job *j = arg;
    const bfd_shared *sh = j->sh;
    const sc_frame_params *p = sh->p;
    const int32_t r0 = (int32_t)j->row_begin, r1 = (int32_t)j->row_end - 1;
    for (uint32_t y = j->row_begin; y < j->row_end; ++y)
        for (uint32_t x = 0; x < p->width; ++x) sh->out[(size_t)y * p->width + x] = (sc_hit){SC_NO_HIT, INFINITY, 0, 0};
    for (uint32_t t = 0; t < sh->num_triangles; ++t) {
        const bfd_box bx = sh->boxes[t];
        if (bx.x0 > bx.x1 || bx.y1 < r0 || bx.y0 > r1) continue;
        const uint32_t *f = sh->indices + 3 * (size_t)t;
        const float *a = sh->positions + 3 * (size_t)f[0], *b = sh->positions + 3 * (size_t)f[1];
        const float *c = sh->positions + 3 * (size_t)f[2];
        const int32_t y0 = bx.y0 > r0 ? bx.y0 : r0, y1 = bx.y1 < r1 ? bx.y1 : r1;
        for (int32_t y = y0; y <= y1; ++y)
            for (int32_t x = bx.x0; x <= bx.x1; ++x) {
                float dir[3];
                sc_pixel_ray_dir(p, (uint32_t)x, (uint32_t)y, dir);
                sc_ray ray;
                sc_ray_setup(&ray, p->eye, dir);
                float th, u, v;
                j->stats.ray_tests++;
                if (!sc_intersect(&ray, a, b, c, p->near_plane, p->far_plane, &th, &u, &v)) continue;
                sc_hit *h = &sh->out[(size_t)y * p->width + (size_t)x];
                if (sc_hit_better(th, t, h->depth, h->tri)) *h = (sc_hit){t, th, u, v};
            }
    }
    return NULL;
}

/* Runs fn over jobs[0..n), jobs 1.. on threads (those that cannot start run here). */
static void bfd_run(void *(*fn)(void *), bfd_job *jobs, uint32_t n)
{
    pthread_t th[BFD_MAX_THREADS];
    int started[BFD_MAX_THREADS] = {0};
    for (uint32_t i = 1; i < n; ++i) started[i] = pthread_create(&th[i], NULL, fn, &jobs[i]) == 0;
    fn(&jobs[0]);
    for (uint32_t i = 1; i < n; ++i) {
        if (started[i]) pthread_join(th[i], NULL);
        else fn(&jobs[i]);
    }
}

int sc_brute_force_dense(const sc_frame_params *p, const float *positions, const uint32_t *indices,
                         uint32_t num_triangles, uint32_t num_threads, sc_hit *out, sc_bfd_stats *stats)
{
    if (num_threads < 1) num_threads = 1;
    if (num_threads > BFD_MAX_THREADS) num_threads = BFD_MAX_THREADS;
    const uint32_t H = p->height;
    bfd_shared sh = {p, positions, indices, num_triangles, malloc(sizeof(bfd_box) * ((size_t)num_triangles + 1)), out};
    int64_t *work = calloc((size_t)num_threads * (H + 1), sizeof *work);
    bfd_job *jobs = calloc(num_threads, sizeof *jobs);
    if (!sh.boxes || !work || !jobs) {
        free(sh.boxes);
        free(work);
        free(jobs);
        return -1;
    }
    /* Boxes, and the work (pixels to test) of each row. */
    for (uint32_t i = 0; i < num_threads; ++i) {
        jobs[i].sh = &sh;
        jobs[i].tri_begin = (uint32_t)((uint64_t)num_triangles * i / num_threads);
        jobs[i].tri_end = (uint32_t)((uint64_t)num_triangles * (i + 1) / num_threads);
        jobs[i].row_work = work + (size_t)i * (H + 1);
    }
    bfd_run(bfd_box_pass, jobs, num_threads);
    int64_t total = 0, run = 0;
    for (uint32_t y = 0; y < H; ++y) {
        for (uint32_t i = 0; i < num_threads; ++i) run += work[(size_t)i * (H + 1) + y];
        work[y] = run + (int64_t)p->width; /* every row also clears its pixels */
        total += work[y];
    }
    /* Contiguous row bands of about total / num_threads work each. */
    sc_bfd_stats sum = {0};
    uint32_t row = 0;
    int64_t acc = 0;
    for (uint32_t i = 0; i < num_threads; ++i) {
        sum.boxed += jobs[i].stats.boxed;
        sum.whole_screen += jobs[i].stats.whole_screen;
        sum.skipped += jobs[i].stats.skipped;
        memset(&jobs[i].stats, 0, sizeof jobs[i].stats);
        jobs[i].row_begin = row;
        const int64_t goal = total * (int64_t)(i + 1) / (int64_t)num_threads;
        while (row < H && (acc < goal || i + 1 == num_threads)) acc += work[row++];
        jobs[i].row_end = row;
    }
    bfd_run(bfd_ray_pass, jobs, num_threads);
    for (uint32_t i = 0; i < num_threads; ++i) sum.ray_tests += jobs[i].stats.ray_tests;
    if (stats) *stats = sum;
    free(sh.boxes);
    free(work);
    free(jobs);
    return 0;
}
