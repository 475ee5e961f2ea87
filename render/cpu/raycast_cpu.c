/* raycast_cpu.c - the ray cast on the CPU: one tile at a time (tiles spread over threads), one ray
 * per pixel centre, slabs front to back, with the rules of raycast.h (the per-triangle test, the
 * tie rule, the early exit after each slab). Done rays test no more triangles; the tile stops when
 * all its rays are done. A triangle is tested against the rays through the pixels whose centres it
 * may cover only (sc_tri_setup.px0 .., kept by emit); the tests counter still counts every reference
 * of a slab for each ray live in it, the definition both backends share; the performed counter counts
 * the tests run. */
#include <math.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "intersect.h"
#include "raycast.h"
#include "render_tuning.h"

typedef struct raycast_ctx {
    sc_cpu_state *st;
    const sc_frame_params *p;
    uint64_t tests[SC_CPU_MAX_THREADS];
    uint64_t performed[SC_CPU_MAX_THREADS];
    uint64_t exited[SC_CPU_MAX_THREADS];
    uint64_t hits[SC_CPU_MAX_THREADS];
} raycast_ctx;

enum { TILE_PIXELS_MAX = SC_MAX_TILE_SIZE * SC_MAX_TILE_SIZE };

static void raycast_tile(void *arg, uint32_t tile, uint32_t worker)
{
    raycast_ctx *c = arg;
    const sc_frame_params *p = c->p;
    sc_cpu_state *st = c->st;
    const uint32_t tx = tile % p->tiles_x, ty = tile / p->tiles_x;
    const uint32_t x0 = tx * p->tile_size, y0 = ty * p->tile_size;
    const uint32_t w = (p->width - x0) < p->tile_size ? p->width - x0 : p->tile_size;
    const uint32_t h = (p->height - y0) < p->tile_size ? p->height - y0 : p->tile_size;
    const uint32_t npix = w * h;

    sc_ray rays[TILE_PIXELS_MAX];
    sc_ray_best best[TILE_PIXELS_MAX];
    uint32_t tests[TILE_PIXELS_MAX];
    unsigned char done[TILE_PIXELS_MAX];
    for (uint32_t i = 0; i < npix; ++i) {
        float dir[3];
        sc_pixel_ray_dir(p, x0 + i % w, y0 + i / w, dir);
        sc_ray_setup(&rays[i], p->eye, dir);
        best[i] = sc_ray_best_none();
        tests[i] = 0;
        done[i] = 0;
    }

    const uint32_t *cells = st->cell_offsets + ((size_t)tile << p->slab_bits);
    uint32_t last_nonempty = 0;
    for (uint32_t k = 0; k < p->num_slabs; ++k)
        if (cells[k + 1] > cells[k]) last_nonempty = k;

    uint32_t remaining = npix;
    uint64_t tile_tests = 0, tile_performed = 0;
    for (uint32_t k = 0; k < p->num_slabs; ++k) {
        if (remaining == 0) {
            if (k <= last_nonempty && cells[last_nonempty + 1] > cells[last_nonempty]) c->exited[worker] += 1;
            break;
        }
        for (uint32_t r = cells[k]; r < cells[k + 1]; ++r) {
            const uint32_t tri = st->ref_values[r];
            const uint32_t *f = st->indices + 3 * (size_t)tri;
            const float *a = st->positions + 3 * (size_t)f[0];
            const float *b = st->positions + 3 * (size_t)f[1];
            const float *cc = st->positions + 3 * (size_t)f[2];
            /* Only the tile's rays through the pixels whose centres the triangle may cover: no other
             * ray can hit it (classify.h; the bound the binning rests on). */
            const uint32_t *px = st->tri_pixels + 4 * (size_t)tri;
            const uint32_t bx0 = px[0], bx1 = px[1], by0 = px[2], by1 = px[3];
            const uint32_t cx0 = bx0 > x0 ? bx0 - x0 : 0, cy0 = by0 > y0 ? by0 - y0 : 0;
            const uint32_t cx1 = bx1 - x0 < w - 1 ? bx1 - x0 : w - 1, cy1 = by1 - y0 < h - 1 ? by1 - y0 : h - 1;
            for (uint32_t ry = cy0; ry <= cy1; ++ry)
                for (uint32_t i = ry * w + cx0; i <= ry * w + cx1; ++i)
                    if (!done[i]) {
                        sc_ray_test_triangle(&rays[i], a, b, cc, tri, p->near_plane, p->far_plane, &best[i]);
                        ++tile_performed;
                    }
        }
        /* The counter: every reference of the slab for every ray live in it (a ray is done only at a
         * slab's end), as the CUDA backend counts, whichever pairs the bounds skipped. */
        for (uint32_t i = 0; i < npix; ++i)
            if (!done[i]) tests[i] += cells[k + 1] - cells[k];
        const float bound = sc_slab_bound(p, k + 1);
        for (uint32_t i = 0; i < npix; ++i)
            if (!done[i] && sc_ray_finished(best[i].t, bound)) {
                done[i] = 1;
                --remaining;
            }
    }

    uint64_t tile_hits = 0;
    for (uint32_t i = 0; i < npix; ++i) {
        size_t px = (size_t)(y0 + i / w) * p->width + (x0 + i % w);
        sc_hit *o = &st->hits[px];
        o->tri = best[i].tri;
        o->depth = best[i].t;
        o->u = best[i].u;
        o->v = best[i].v;
        st->tests[px] = tests[i];
        tile_tests += tests[i];
        tile_hits += best[i].tri != SC_NO_HIT;
    }
    c->tests[worker] += tile_tests;
    c->performed[worker] += tile_performed;
    c->hits[worker] += tile_hits;
}

void sc_cpu_raycast(sc_cpu_state *st, const sc_frame_params *p, sc_cpu_counters *out)
{
    raycast_ctx c = {.st = st, .p = p};
    sc_cpu_parallel_for(st->threads, p->num_tiles, raycast_tile, &c);
    out->ray_triangle_tests = 0;
    out->ray_tests_performed = 0;
    out->tiles_exited_early = 0;
    out->hit_pixels = 0;
    for (int i = 0; i < SC_CPU_MAX_THREADS; ++i) {
        out->ray_triangle_tests += c.tests[i];
        out->ray_tests_performed += c.performed[i];
        out->tiles_exited_early += c.exited[i];
        out->hit_pixels += c.hits[i];
    }
}
