/* shadow_cpu.c - the shadow pass on the CPU (render/core/shadow.h has the method and the contract):
 * for each light with shadows, the hit pixels' shadow rays (receivers) mapped into the light's views,
 * the light grids fitted to them, receivers grouped by light tile and casters (every finite triangle)
 * binned to the tiles holding receivers and to the slab of their light-space depth key (counting
 * sorts by tile, then by (tile, slab) cell, with the plain-C loops the split library's references
 * use), then each tile's rays against its casters, slabs from the light on, each ray stopping at its
 * first blocker or at the first slab beyond it. The casters share the eye grid's reference buffers
 * (free once the eye ray cast is done), so a frame whose caster references exceed them answers
 * SC_ERROR_CAPACITY like the eye grid and is redone after the front end grows them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "intersect.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "shadow.h"
#include "sizes.h"

enum { NO_TILE = 0xFFFFFFFFu, ROWS_PER_TASK = 16, SHADOW_ALL_VIEWS = (1u << SC_SHADOW_MAX_VIEWS) - 1u };
_Static_assert(SC_SHADOW_MAX_VIEWS <= 8, "a byte holds a triangle's views");

/* The pass's working state, kept in sc_cpu_state from the first frame with shadows on (no allocation
 * per frame: the task counts follow the mesh, a worker's image buffer grows to its largest tile). */
struct sc_cpu_shadow_work {
    /* This light's. */
    sc_cpu_state *st;
    const sc_frame_params *p;
    sc_shadow_grid g;
    uint32_t light;                /* index: bit of the mask */
    sc_shadow_bounds bounds[SC_CPU_MAX_THREADS];
    uint64_t rays[SC_CPU_MAX_THREADS];
    uint64_t tests[SC_CPU_MAX_THREADS], blocked[SC_CPU_MAX_THREADS], early[SC_CPU_MAX_THREADS];
    int out_of_memory;
    /* Kept. */
    uint32_t *task_counts;         /* caster references per triangle task (task_cap entries) */
    size_t task_cap;
    uint8_t *tri_views;            /* per triangle: the views its count found references in (bit per
                                      view), so the emit visits only those (tri_cap entries) */
    size_t tri_cap;
    sc_shadow_image *images[SC_CPU_MAX_THREADS]; /* per worker: the images of a tile's casters */
    size_t image_cap[SC_CPU_MAX_THREADS];
};
typedef struct sc_cpu_shadow_work shadow_ctx;

static const float *vertex(const sc_cpu_state *st, uint32_t tri, int k)
{
    return st->positions + 3 * (size_t)st->indices[3 * (size_t)tri + k];
}

static int finite_tri(const float *a, const float *b, const float *c)
{
    for (int k = 0; k < 3; ++k)
        if (!isfinite(a[k]) || !isfinite(b[k]) || !isfinite(c[k])) return 0;
    return 1;
}

/* Receivers of rows [y0, y1): the shadow ray's origin and depth, the bounds per view. */
static void receivers_rows(void *arg, uint32_t task, uint32_t worker)
{
    shadow_ctx *c = arg;
    sc_cpu_state *st = c->st;
    const sc_frame_params *p = c->p;
    const uint32_t y0 = task * ROWS_PER_TASK, y1 = y0 + ROWS_PER_TASK < p->height ? y0 + ROWS_PER_TASK : p->height;
    for (size_t px = (size_t)y0 * p->width; px < (size_t)y1 * p->width; ++px) {
        st->shadow_tile[px] = NO_TILE;
        const sc_hit h = st->hits[px];
        if (h.tri == SC_NO_HIT) continue;
        c->rays[worker] += 1;
        float org[3], dir[3], tmax;
        sc_shadow_ray(&c->g.light, vertex(st, h.tri, 0), vertex(st, h.tri, 1), vertex(st, h.tri, 2), h.u, h.v, org,
                      dir, &tmax);
        sc_shadow_receiver r;
        if (!sc_shadow_receiver_of(&c->g, org, &r)) continue; /* a zero direction: blocked by nothing */
        float *o = st->shadow_org + 4 * px;
        o[0] = org[0]; o[1] = org[1]; o[2] = org[2]; o[3] = r.w;
        st->shadow_tile[px] = r.view; /* the view until the grid is fitted */
        sc_shadow_bounds_add(&c->bounds[worker], &r, org);
    }
}

/* Receivers' light tiles, once the grid is fitted. */
static void receiver_tiles_rows(void *arg, uint32_t task, uint32_t worker)
{
    (void)worker;
    shadow_ctx *c = arg;
    sc_cpu_state *st = c->st;
    const sc_frame_params *p = c->p;
    const uint32_t y0 = task * ROWS_PER_TASK, y1 = y0 + ROWS_PER_TASK < p->height ? y0 + ROWS_PER_TASK : p->height;
    for (size_t px = (size_t)y0 * p->width; px < (size_t)y1 * p->width; ++px) {
        if (st->shadow_tile[px] == NO_TILE) continue;
        sc_shadow_receiver r;
        (void)sc_shadow_receiver_of(&c->g, st->shadow_org + 4 * px, &r);
        st->shadow_tile[px] = sc_shadow_tile_of(&c->g, &r);
    }
}

/* The caster references of triangle t in the views of bit mask vmask, one at a time: caster_refs_begin,
 * then caster_refs_next until it returns 0. Per view in order, the tiles of its span, rows then
 * columns, that hold receivers the caster is not behind; none for a triangle with a non-finite
 * coordinate (no caster). */
typedef struct caster_refs {
    const shadow_ctx *c;
    const float *a, *b, *v2;
    uint32_t vmask, view, tx, ty, slab;
    int in_view;                   /* 1: (tx, ty) is the next tile of view's span to look at */
    sc_shadow_image im;
    sc_shadow_span span;
} caster_refs;

static void caster_refs_begin(caster_refs *it, const shadow_ctx *c, uint32_t t, uint32_t vmask)
{
    it->c = c;
    it->a = vertex(c->st, t, 0);
    it->b = vertex(c->st, t, 1);
    it->v2 = vertex(c->st, t, 2);
    it->vmask = finite_tri(it->a, it->b, it->v2) ? vmask : 0u;
    it->view = 0;
    it->in_view = 0;
}

/* The next reference: its tile, slab and view; 0 when there is none. */
static int caster_refs_next(caster_refs *it, uint32_t *tile, uint32_t *slab, uint32_t *view)
{
    const shadow_ctx *c = it->c;
    for (;;) {
        if (it->in_view) {
            const sc_shadow_view *vw = &c->g.views[it->view];
            while (it->ty <= it->span.ty1) {
                const uint32_t tx = it->tx, ty = it->ty;
                if (tx == it->span.tx1) {
                    it->tx = it->span.tx0;
                    ++it->ty;
                } else {
                    ++it->tx;
                }
                const uint32_t t = vw->base + ty * vw->gx + tx;
                if (!(it->im.key <= c->st->shadow_tile_wmax[t])) continue; /* behind its receivers */
                *tile = t;
                *slab = it->slab;
                *view = it->view;
                return 1;
            }
            it->in_view = 0;
            ++it->view;
        }
        for (; it->view < SC_SHADOW_MAX_VIEWS; ++it->view) {
            if (!(it->vmask >> it->view & 1u)) continue;
            const sc_shadow_view *vw = &c->g.views[it->view];
            if (!sc_shadow_caster_image(&c->g, it->view, it->a, it->b, it->v2, &it->im)) continue;
            if (!sc_shadow_span_of(&c->g, vw, &it->im, &it->span)) continue;
            it->slab = sc_shadow_slab_of(&c->g, vw, it->im.key);
            it->tx = it->span.tx0;
            it->ty = it->span.ty0;
            it->in_view = 1;
            break;
        }
        if (!it->in_view) return 0;
    }
}

static void count_casters(void *arg, uint32_t task, uint32_t worker)
{
    (void)worker;
    shadow_ctx *c = arg;
    const uint32_t t0 = task * SC_CPU_TRIANGLES_PER_TASK;
    const uint32_t t1 = t0 + SC_CPU_TRIANGLES_PER_TASK < c->p->num_triangles ? t0 + SC_CPU_TRIANGLES_PER_TASK
                                                                            : c->p->num_triangles;
    uint32_t n = 0;
    for (uint32_t t = t0; t < t1; ++t) {
        uint32_t seen = 0, tile, slab, view;
        caster_refs it;
        caster_refs_begin(&it, c, t, SHADOW_ALL_VIEWS);
        while (caster_refs_next(&it, &tile, &slab, &view)) {
            seen |= 1u << view;
            ++n;
        }
        c->tri_views[t] = (uint8_t)seen;
    }
    c->task_counts[task] = n;
}

static void emit_casters(void *arg, uint32_t task, uint32_t worker)
{
    (void)worker;
    shadow_ctx *c = arg;
    sc_cpu_state *st = c->st;
    const uint32_t t0 = task * SC_CPU_TRIANGLES_PER_TASK;
    const uint32_t t1 = t0 + SC_CPU_TRIANGLES_PER_TASK < c->p->num_triangles ? t0 + SC_CPU_TRIANGLES_PER_TASK
                                                                            : c->p->num_triangles;
    size_t at = c->task_counts[task]; /* the task's first reference (scanned) */
    const uint32_t bits = c->g.tile_bits;
    for (uint32_t t = t0; t < t1; ++t) {
        const uint32_t views = c->tri_views[t];
        if (views == 0) continue; /* no reference in the count: none here either */
        uint32_t tile, slab, view;
        caster_refs it;
        caster_refs_begin(&it, c, t, views);
        while (caster_refs_next(&it, &tile, &slab, &view)) {
            st->ref_keys[at] = tile | slab << bits;
            st->ref_values[at] = t;
            ++at;
        }
    }
}

/* The rays of one light tile against its casters, slabs from the light on. A caster is tested
 * against a ray only when the ray's light coordinates lie in its image (sc_shadow_image_holds). */
static void cast_tile(void *arg, uint32_t tile, uint32_t worker)
{
    shadow_ctx *c = arg;
    sc_cpu_state *st = c->st;
    const uint32_t r0 = st->shadow_recv_offsets[tile], r1 = st->shadow_recv_offsets[tile + 1];
    if (r0 == r1) return;
    const uint32_t S = c->g.num_slabs;
    const uint32_t *cells = st->shadow_cell_offsets + (size_t)tile * S;
    const uint32_t view = sc_shadow_view_of_tile(&c->g, tile);
    if (view >= SC_SHADOW_MAX_VIEWS) return; /* a tile no view uses holds no receiver */
    const sc_shadow_view *vw = &c->g.views[view];
    const uint32_t n = cells[S] - cells[0];
    if (c->image_cap[worker] < n) {
        sc_shadow_image *im = realloc(c->images[worker], n * sizeof *im);
        if (!im) {
            c->out_of_memory = 1;
            return;
        }
        c->images[worker] = im;
        c->image_cap[worker] = n;
    }
    sc_shadow_image *images = c->images[worker];
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t tri = st->ref_values[cells[0] + i];
        if (!sc_shadow_caster_image(&c->g, view, vertex(st, tri, 0), vertex(st, tri, 1), vertex(st, tri, 2),
                                    &images[i]))
            images[i].x0 = images[i].y0 = INFINITY; /* holds nothing (never the case for a binned caster) */
    }
    uint32_t last_nonempty = 0;
    for (uint32_t k = 0; k < S; ++k)
        if (cells[k + 1] > cells[k]) last_nonempty = k + 1;
    const uint8_t bit = (uint8_t)(1u << c->light);
    for (uint32_t r = r0; r < r1; ++r) {
        const uint32_t px = st->shadow_recv[r];
        const float *o = st->shadow_org + 4 * (size_t)px;
        const uint32_t hit_tri = st->hits[px].tri;
        sc_shadow_receiver rec;
        (void)sc_shadow_receiver_of(&c->g, o, &rec);
        float dir[3];
        const float tmax = sc_shadow_ray_dir(&c->g.light, o, dir);
        sc_ray ray;
        sc_ray_setup(&ray, o, dir);
        const uint32_t end = sc_shadow_slab_end(&c->g, vw, o[3]);
        uint32_t tests = 0, blocked = 0, k = 0;
        for (; k < end && !blocked; ++k)
            for (uint32_t i = cells[k]; i < cells[k + 1]; ++i) {
                const uint32_t tri = st->ref_values[i];
                if (tri == hit_tri || !sc_shadow_image_holds(&images[i - cells[0]], rec.u, rec.v)) continue;
                ++tests;
                float t, u, v;
                if (sc_intersect(&ray, vertex(st, tri, 0), vertex(st, tri, 1), vertex(st, tri, 2), 0.0f, tmax, &t, &u,
                                 &v)) {
                    blocked = 1;
                    break;
                }
            }
        if (blocked) st->shadow_mask[px] |= bit;
        st->shadow_tests[px] += tests;
        c->tests[worker] += tests;
        c->blocked[worker] += blocked;
        c->early[worker] += k < last_nonempty;
    }
}

/* Exclusive scan in place; returns the total (64-bit: a reference count may pass 2^32). */
static uint64_t scan_u32(uint32_t *v, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t x = v[i];
        v[i] = (uint32_t)sum;
        sum += x;
    }
    return sum;
}

/* Receivers grouped by light tile: a counting sort of the hit pixels by tile. */
static void group_receivers(sc_cpu_state *st, const sc_frame_params *p, uint32_t num_tiles)
{
    uint32_t *off = st->shadow_recv_offsets;
    memset(off, 0, ((size_t)num_tiles + 2) * sizeof *off);
    const size_t pixels = (size_t)p->width * p->height;
    for (size_t px = 0; px < pixels; ++px)
        if (st->shadow_tile[px] != NO_TILE) off[st->shadow_tile[px] + 1] += 1;
    for (uint32_t t = 0; t < num_tiles; ++t) off[t + 1] += off[t];
    float *wmax = st->shadow_tile_wmax;
    for (uint32_t t = 0; t < num_tiles; ++t) wmax[t] = -INFINITY;
    for (size_t px = 0; px < pixels; ++px)
        if (st->shadow_tile[px] != NO_TILE) wmax[st->shadow_tile[px]] = fmaxf(wmax[st->shadow_tile[px]], st->shadow_org[4 * px + 3]);
    uint32_t *cursor = st->shadow_cursor;
    memcpy(cursor, off, (size_t)num_tiles * sizeof *cursor);
    for (size_t px = 0; px < pixels; ++px)
        if (st->shadow_tile[px] != NO_TILE) st->shadow_recv[cursor[st->shadow_tile[px]]++] = (uint32_t)px;
}

/* Casters grouped by (tile, slab) cell: a stable counting sort of the triangle ids by cell into
 * ref_values (through its tmp buffer), and the cell offsets. */
static void group_casters(sc_cpu_state *st, const sc_shadow_grid *g, size_t n)
{
    const uint32_t S = g->num_slabs;
    const size_t cells = (size_t)g->num_tiles * S;
    uint32_t *off = st->shadow_cell_offsets;
    memset(off, 0, (cells + 1) * sizeof *off);
    const uint32_t tile_mask = (1u << g->tile_bits) - 1u;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t key = st->ref_keys[i];
        off[(size_t)(key & tile_mask) * S + (key >> g->tile_bits) + 1] += 1;
    }
    for (size_t k = 0; k < cells; ++k) off[k + 1] += off[k];
    uint32_t *cursor = st->shadow_cell_cursor;
    memcpy(cursor, off, cells * sizeof *cursor);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t key = st->ref_keys[i];
        st->ref_values_tmp[cursor[(size_t)(key & tile_mask) * S + (key >> g->tile_bits)]++] = st->ref_values[i];
    }
    if (n) memcpy(st->ref_values, st->ref_values_tmp, n * sizeof *st->ref_values);
}

/* The per-pixel and per-tile buffers of the shadow pass, allocated with the first frame that has
 * shadows (and again after a resize), counted against the memory bound. */
static sc_status shadow_buffers(sc_cpu_state *st, const sc_frame_params *p, uint32_t G)
{
    const size_t pixels = (size_t)p->width * p->height;
    if (st->shadow_pixels >= pixels && st->shadow_cell_offsets && st->shadow_grid == G) return SC_OK;
    const size_t tiles = (size_t)G * G;
    const size_t cells = tiles * SC_SHADOW_SLABS;
    /* mask 1, tests 4, origin 16, tile 4, receiver list 4 bytes a pixel; below 2^40 for 32-bit sizes. */
    const size_t bytes = pixels * 29 + (3 * tiles + 2 + 2 * cells + 1) * sizeof(uint32_t);
    SC_TRY(sc_cpu_check_memory(st, st->shadow_bytes, bytes, "renderer",
                               "the shadow pass's per-pixel buffers", "lower the target size"));
    sc_cpu_free_shadows(st);
    st->shadow_mask = calloc(pixels ? pixels : 1, 1);
    st->shadow_tests = calloc(pixels ? pixels : 1, sizeof(uint32_t));
    st->shadow_org = malloc((pixels ? pixels : 1) * 4 * sizeof(float));
    st->shadow_tile = malloc((pixels ? pixels : 1) * sizeof(uint32_t));
    st->shadow_recv = malloc((pixels ? pixels : 1) * sizeof(uint32_t));
    st->shadow_recv_offsets = malloc((tiles + 2) * sizeof(uint32_t));
    st->shadow_cursor = malloc(tiles * sizeof(uint32_t));
    st->shadow_cell_offsets = malloc((cells + 1) * sizeof(uint32_t));
    st->shadow_cell_cursor = malloc(cells * sizeof(uint32_t));
    st->shadow_tile_wmax = malloc(tiles * sizeof(float));
    if (!st->shadow_mask || !st->shadow_tests || !st->shadow_org || !st->shadow_tile || !st->shadow_recv ||
        !st->shadow_recv_offsets || !st->shadow_cursor || !st->shadow_cell_offsets || !st->shadow_cell_cursor || !st->shadow_tile_wmax) {
        sc_cpu_free_shadows(st);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for the shadow pass of a %ux%u target",
                       p->width, p->height);
    }
    st->shadow_pixels = pixels;
    st->shadow_bytes = bytes;
    st->shadow_grid = G;
    return SC_OK;
}

void sc_cpu_free_shadows(sc_cpu_state *st)
{
    free(st->shadow_mask); free(st->shadow_tests); free(st->shadow_org); free(st->shadow_tile);
    free(st->shadow_recv); free(st->shadow_recv_offsets); free(st->shadow_cursor);
    free(st->shadow_cell_offsets); free(st->shadow_cell_cursor); free(st->shadow_tile_wmax);
    st->shadow_mask = NULL; st->shadow_tests = NULL; st->shadow_org = NULL;
    st->shadow_tile = st->shadow_recv = st->shadow_recv_offsets = st->shadow_cursor = NULL;
    st->shadow_cell_offsets = st->shadow_cell_cursor = NULL;
    st->shadow_tile_wmax = NULL;
    st->shadow_pixels = 0;
    st->shadow_bytes = 0;
    st->shadow_grid = 0;
}

/* The work state with room for tri_tasks task counts and num_triangles triangles' views. */
static sc_status shadow_work(sc_cpu_state *st, uint32_t tri_tasks, uint32_t num_triangles, shadow_ctx **out)
{
    if (!st->shadow_work && !(st->shadow_work = calloc(1, sizeof *st->shadow_work)))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for the shadow pass");
    shadow_ctx *c = st->shadow_work;
    if (c->task_cap < (size_t)tri_tasks + 1) {
        uint32_t *t = realloc(c->task_counts, ((size_t)tri_tasks + 1) * sizeof *t);
        if (!t) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for the shadow pass");
        c->task_counts = t;
        c->task_cap = (size_t)tri_tasks + 1;
    }
    if (c->tri_cap < (size_t)num_triangles + 1) {
        uint8_t *v = realloc(c->tri_views, (size_t)num_triangles + 1);
        if (!v) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for the shadow pass");
        c->tri_views = v;
        c->tri_cap = (size_t)num_triangles + 1;
    }
    *out = c;
    return SC_OK;
}

void sc_cpu_free_shadow_work(sc_cpu_state *st)
{
    shadow_ctx *c = st->shadow_work;
    if (!c) return;
    for (int w = 0; w < SC_CPU_MAX_THREADS; ++w) free(c->images[w]);
    free(c->task_counts);
    free(c->tri_views);
    free(c);
    st->shadow_work = NULL;
}

/* Starts light li of the frame: this light's fields cleared, the kept buffers left. */
static void start_light(shadow_ctx *c, sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s,
                        uint32_t li, uint32_t G)
{
    c->st = st;
    c->p = p;
    c->light = li;
    c->out_of_memory = 0;
    sc_shadow_grid_init(&c->g, &s->lights[li], s->center, G, SC_SHADOW_SLABS);
    for (int w = 0; w < SC_CPU_MAX_THREADS; ++w) {
        sc_shadow_bounds_clear(&c->bounds[w]);
        c->rays[w] = c->tests[w] = c->blocked[w] = c->early[w] = 0;
    }
}

sc_status sc_cpu_shadows(sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s, size_t *refs_needed,
                         sc_frame_stats *stats, double *stage_ms)
{
    const size_t pixels = (size_t)p->width * p->height;
    const uint32_t G = sc_shadow_grid_size(p->num_triangles);
    const uint32_t tri_tasks = (p->num_triangles + SC_CPU_TRIANGLES_PER_TASK - 1) / SC_CPU_TRIANGLES_PER_TASK;
    shadow_ctx *c = NULL;
    if (s->shadow_lights) {
        SC_TRY(shadow_buffers(st, p, G));
        SC_TRY(shadow_work(st, tri_tasks, p->num_triangles, &c));
    }
    if (st->shadow_pixels >= pixels && st->shadow_mask) { /* no bit of an earlier frame stays */
        memset(st->shadow_mask, 0, pixels);
        memset(st->shadow_tests, 0, pixels * sizeof(uint32_t));
    }
    if (!c) return SC_OK;
    uint32_t *task_counts = c->task_counts;
    const uint32_t row_tasks = (p->height + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
    for (uint32_t li = 0; li < s->num_lights; ++li) {
        if (!s->lights[li].shadows) continue;
        double t = sc_now_ms(), t2;
        start_light(c, st, p, s, li, G);
        sc_cpu_parallel_for(st->threads, row_tasks, receivers_rows, c);
        sc_shadow_bounds b;
        sc_shadow_bounds_clear(&b);
        for (int w = 0; w < SC_CPU_MAX_THREADS; ++w) sc_shadow_bounds_merge(&b, &c->bounds[w]);
        sc_shadow_grid_fit(&c->g, &b);
        for (int k = 0; k < SC_SHADOW_MAX_VIEWS; ++k) stats->light_views += c->g.views[k].active;
        sc_cpu_parallel_for(st->threads, row_tasks, receiver_tiles_rows, c);
        group_receivers(st, p, c->g.num_tiles);
        for (int w = 0; w < SC_CPU_MAX_THREADS; ++w) stats->shadow_receivers += c->rays[w];
        t2 = sc_now_ms(); stage_ms[0] += t2 - t; t = t2;

        sc_cpu_parallel_for(st->threads, tri_tasks, count_casters, c);
        const uint64_t total = scan_u32(task_counts, tri_tasks);
        stats->shadow_references += total;
        if (total > st->ref_capacity) {
            *refs_needed = (size_t)total;
            return SC_ERROR_CAPACITY; /* internal: the front end grows and calls again */
        }
        sc_cpu_parallel_for(st->threads, tri_tasks, emit_casters, c);
        t2 = sc_now_ms(); stage_ms[1] += t2 - t; t = t2;
        group_casters(st, &c->g, (size_t)total);
        t2 = sc_now_ms(); stage_ms[2] += t2 - t; t = t2;
        sc_cpu_parallel_for(st->threads, c->g.num_tiles, cast_tile, c);
        if (c->out_of_memory) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for the shadow cast");
        for (int w = 0; w < SC_CPU_MAX_THREADS; ++w) {
            stats->shadow_ray_tests += c->tests[w];
            stats->shadow_rays_blocked += c->blocked[w];
            stats->shadow_rays_early += c->early[w];
        }
        stats->shadow_lights += 1;
        t2 = sc_now_ms(); stage_ms[3] += t2 - t;
    }
    return SC_OK;
}
