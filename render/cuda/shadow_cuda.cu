/* shadow_cuda.cu - the shadow pass on the GPU (render/core/shadow.h has the method and the contract;
 * the CPU backend's shadow_cpu.c computes the same masks). Per light with shadows, on the renderer's
 * stream with no host round trip:
 *  1. receivers: every hit pixel's shadow ray origin and light-space depth (sc_shadow_ray), its view,
 *     and per view the bounds of the receivers' light coordinates (a warp, then a block reduces them,
 *     then one atomic per view and bound, floats as order-preserving integers); its threads also zero
 *     the per-tile words the later kernels count into (and the first light's masks);
 *  2. setup (the receivers kernel's last block, one thread): the light's grid fitted to those bounds
 *     (sc_shadow_grid_fit: the views with receivers share G^2 tiles) and its primary view;
 *  3. receiver keys: the receivers compacted as (light tile, pixel) pairs and per tile their count
 *     and the depth of its deepest receiver; the split library's multisplit groups them by light tile
 *     from those counts (receiver offsets per tile);
 *  3b. vertices (the same launch's later blocks): every vertex's light coordinates in the primary
 *     view (the one with most receivers);
 *  4. emit: every finite triangle, for each view its image covers (the primary view's from its
 *     vertices' light coordinates, the others' projected from its vertices), appends one reference
 *     per tile of its span whose deepest receiver is not in front of it (key = its cell, tile << slab_bits |
 *     slab; value = the reference's index) and the reference's record (triangle, vertex indices,
 *     image), in one visit per triangle, staged in shared memory in triangle order (a block scan
 *     and one 64-bit atomic per block place them); references past the capacity are not written;
 *  5. finalize (the emit's last block, one thread): the reference count against the capacity: the
 *     count the split reads, or an overflow (the split reads nothing, the fallback below casts);
 *  6. one multisplit groups the references by cell (tile by tile, slabs from the light on in each)
 *     into the eye grid's reference buffers, free once the eye ray cast is done (counting them in the
 *     emit instead cost the emit more than it saved the split: neighbouring casters share cells, and
 *     their atomics meet);
 *  7. cast: a warp per 32 receivers in light tile order, a tile's receivers against 32 of its
 *     casters at a time; a caster's record and vertices are gathered once per round, a ray is tested
 *     only against casters whose image holds its light coordinates and whose slab it needs, and it
 *     stops at its first blocker;
 *  8. overflow fallback (only when 5 found an overflow): a warp per triangle visits the tiles it
 *     covers and tests their receivers directly (exact, no slabs), setting mask bits with atomics.
 * The mask byte of a pixel holds bit i for light i; shadow tests per pixel add up over lights. */
#include <cub/block/block_scan.cuh>
#include <math.h>
#include <string.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_cuda_arch.h"
#include "sc_report.h"
#include "shadow.h"
#include "split.h"

static_assert((uint64_t)SC_SHADOW_GRID_MAX * SC_SHADOW_GRID_MAX * SC_SHADOW_SLABS <=
                  (uint64_t)SPLIT_MAX_WIDE_BUCKETS,
              "the cells of the largest light grid are buckets of one wide multisplit");

static_assert(SC_SHADOW_GRID_MIN % 2 == 0, "G^2 tiles a multiple of 4: the per-tile words zero as 16-byte groups");

enum {
    SH_CAST_WARPS = SC_CUDA_SHADOW_CAST_WARPS,
    SH_EMIT = SC_CUDA_SHADOW_EMIT_THREADS,
    SH_PIXEL_THREADS = 256,
    SH_VIEWS = SC_SHADOW_MAX_VIEWS,
    SH_NO_VIEW = 0xFFFFFFFFu,
    SH_BIG_SPAN = 64, /* a caster's view spanning more tiles is visited by its emit block together */
    SH_BIG = 32       /* ... of those, at most this many per block (the rest by their own thread) */
};

/* Floats as unsigned integers in the same order (for atomicMax): min x is max ~ord(x); 0 is below
 * every encoded value, so zeroed memory is an empty bound. */
__device__ static inline uint32_t sh_ord(float f)
{
    const uint32_t b = __float_as_uint(f);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

__device__ static inline float sh_unord(uint32_t o)
{
    return __uint_as_float((o & 0x80000000u) ? (o & 0x7FFFFFFFu) : ~o);
}

/* Sum of v over the warp, in every lane. */
__device__ static inline unsigned long long sh_warp_sum(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    return v;
}

/* Adds v (every thread's) to *dst with one atomic per warp. */
__device__ static inline void sh_add(unsigned long long *dst, unsigned long long v)
{
    v = sh_warp_sum(v);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(dst, v);
}

__device__ static inline const float *sh_vertex(const float *pos, const uint32_t *idx, uint32_t tri, int k)
{
    return pos + 3 * (size_t)idx[3 * (size_t)tri + k];
}

/* The frame's grid of light li before the fit: light, centre, axes. */
__device__ static inline void sh_grid_init(const sc_cuda_frame_consts *fc, uint32_t li, sc_shadow_grid *g)
{
    const sc_shade_params *s = &fc->shade.s;
    sc_shadow_grid_init(g, &s->lights[li], s->center, sc_shadow_grid_size(fc->p.num_triangles), SC_SHADOW_SLABS);
}

/* The light's grid into shared memory, copied by the block's threads (a grid is about 600 bytes: a
 * copy per thread in registers or local memory costs more than the kernel's own work). Ends with a
 * barrier: every thread of the block must call it. */
__device__ static inline void sh_load_grid(const sc_shadow_grid *src, sc_shadow_grid *dst)
{
    static_assert(sizeof(sc_shadow_grid) % 4 == 0, "a grid is whole words");
    const uint32_t *s = (const uint32_t *)src;
    uint32_t *d = (uint32_t *)dst;
    for (uint32_t i = threadIdx.x; i < sizeof(sc_shadow_grid) / 4; i += blockDim.x) d[i] = s[i];
    __syncthreads();
}

/* 2. The light's grid fitted to the bounds of its receivers, by the receivers kernel's last block
 * (every block's atomics done): its threads unpack the bounds (read through volatile, past any cached
 * copy) into shared memory, one thread fits the block's shared copy of the grid (initialised for the
 * same light: only the views change), and the threads copy it out. Shared memory, not a thread's
 * local copy: the fit is a chain of a few hundred dependent accesses of a 600-byte struct. */
__device__ static void sh_setup(sc_shadow_grid *grid, sc_shadow_bounds *b, sc_cuda_shadow_light *L,
                                sc_cuda_globals *g)
{
    enum { NB = SC_CUDA_SHADOW_BOUNDS };
    for (uint32_t k = threadIdx.x; k < SH_VIEWS * NB; k += blockDim.x) {
        const uint32_t v = k / NB, f = k % NB;
        const uint32_t x = ((const volatile uint32_t *)L->bounds[v])[f];
        const bool has = ((const volatile uint32_t *)L->bounds[v])[7] != 0;
        const float lo = has ? sh_unord(~x) : INFINITY, hi = has ? sh_unord(x) : -INFINITY;
        switch (f) {
        case 0: b->u0[v] = lo; break;
        case 1: b->u1[v] = hi; break;
        case 2: b->v0[v] = lo; break;
        case 3: b->v1[v] = hi; break;
        case 4: b->w0[v] = lo; break;
        case 5: b->w1[v] = hi; break;
        case 6: b->ext[v] = has ? sh_unord(x) : 0.0f; break;
        case 7: b->count[v] = x; break;
        default: /* 8 .. 13: the origins' box, low and high per axis */
            if ((f - 8) % 2 == 0) b->box0[(f - 8) / 2][v] = lo;
            else b->box1[(f - 8) / 2][v] = hi;
            break;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        sc_shadow_grid_fit(grid, b);
        uint32_t primary = 0, views = 0;
        for (uint32_t v = 0; v < SH_VIEWS; ++v) {
            views += b->count[v] != 0;
            if (b->count[v] > b->count[primary]) primary = v;
        }
        L->primary = primary;
        g->light_views += views;
        g->shadow_lights += 1;
    }
    __syncthreads();
    const uint32_t *src = (const uint32_t *)grid;
    uint32_t *dst = (uint32_t *)&L->grid;
    for (uint32_t i = threadIdx.x; i < sizeof(sc_shadow_grid) / 4; i += blockDim.x) dst[i] = src[i];
}

/* Whether this block is the last of the grid to pass here (one counter per kernel and light, zero at
 * the start of the pass); orders the block's earlier global writes and atomics before the count.
 * Every thread of the block must call it. */
__device__ static inline bool sh_last_block(uint32_t *done)
{
    __shared__ bool s_last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        s_last = atomicAdd(done, 1u) == gridDim.x - 1;
        if (s_last) __threadfence();
    }
    __syncthreads();
    return s_last;
}

/* What the receivers kernel zeroes for the pass (the launch's threads share it out): the per-tile
 * words the keys kernel counts into, and for the frame's first light with shadows the pixels' masks
 * and shadow-test counts. */
typedef struct sh_zero_job {
    uint4 *words;        /* 16-byte groups of per-tile words */
    size_t groups;
    uint8_t *mask;       /* NULL: not the first light */
    uint32_t *tests;
} sh_zero_job;

/* 1. Receivers: origin and depth per hit pixel (org), view (keys), the bounds per view. A warp whose
 * receivers share one view (the usual case) reduces its bounds first (one shared atomic per bound and
 * warp instead of per receiver: the block's receivers all hit the same few words). The last block
 * fits the light's grid to the bounds (2). */
__global__ void __launch_bounds__(SH_PIXEL_THREADS)
sc_shadow_receivers_kernel(const sc_cuda_frame_consts *__restrict__ fc, uint32_t li, sc_cuda_shadow_light *L,
                           sc_cuda_globals *g, const sc_hit *hits, const float *pos, const uint32_t *idx,
                           float4 *org_out, uint32_t *view_out, uint32_t pixels, sh_zero_job zero)
{
    enum { NB = SC_CUDA_SHADOW_BOUNDS, COUNT = 7 };
    __shared__ uint32_t s_b[SH_VIEWS][NB]; /* as sc_cuda_shadow_light.bounds */
    __shared__ sc_shadow_grid grid;
    if (threadIdx.x < SH_VIEWS * NB) (&s_b[0][0])[threadIdx.x] = 0;
    if (threadIdx.x == 0) sh_grid_init(fc, li, &grid);
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = tid; i < zero.groups; i += stride) zero.words[i] = make_uint4(0, 0, 0, 0);
    __syncthreads();
    const uint32_t px = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t view = SH_NO_VIEW;
    uint32_t b[NB]; /* this lane's receiver's bounds as order-preserving words (0: none) */
    for (int k = 0; k < NB; ++k) b[k] = 0;
    unsigned long long rays = 0;
    if (px < pixels) {
        if (zero.mask) {
            zero.mask[px] = 0;
            zero.tests[px] = 0;
        }
        const sc_hit h = hits[px];
        if (h.tri != SC_NO_HIT) {
            rays = 1;
            float org[3], dir[3], tmax;
            sc_shadow_ray(&grid.light, sh_vertex(pos, idx, h.tri, 0), sh_vertex(pos, idx, h.tri, 1),
                          sh_vertex(pos, idx, h.tri, 2), h.u, h.v, org, dir, &tmax);
            sc_shadow_receiver r;
            if (sc_shadow_receiver_of(&grid, org, &r)) {
                view = r.view;
                org_out[px] = make_float4(org[0], org[1], org[2], r.w);
                b[0] = ~sh_ord(r.u); b[1] = sh_ord(r.u);
                b[2] = ~sh_ord(r.v); b[3] = sh_ord(r.v);
                b[4] = ~sh_ord(r.w); b[5] = sh_ord(r.w);
                b[6] = sh_ord(r.ext); b[COUNT] = 1;
                for (int k = 0; k < 3; ++k) {
                    b[8 + 2 * k] = ~sh_ord(org[k]);
                    b[9 + 2 * k] = sh_ord(org[k]);
                }
            }
        }
        view_out[px] = view;
    }
    sh_add(&g->shadow_receivers, rays);
    const uint32_t has = __ballot_sync(0xFFFFFFFFu, view != SH_NO_VIEW);
    if (has) {
        const uint32_t lead = __ffs(has) - 1, lead_view = __shfl_sync(0xFFFFFFFFu, view, lead);
        bool merged = false;
#if __CUDA_ARCH__ >= 800
        if (__ballot_sync(0xFFFFFFFFu, view == lead_view) == has) { /* one view: reduce over the warp */
            for (int k = 0; k < NB; ++k) {
                const uint32_t x = k == COUNT ? __popc(has) : __reduce_max_sync(0xFFFFFFFFu, b[k]);
                if ((threadIdx.x & 31) == lead) b[k] = x;
            }
            merged = true;
        }
#endif
        if (view != SH_NO_VIEW && (!merged || (threadIdx.x & 31) == lead)) {
            uint32_t *sb = s_b[view];
            for (int k = 0; k < NB; ++k) {
                if (k == COUNT) atomicAdd(&sb[k], b[k]);
                else atomicMax(&sb[k], b[k]);
            }
        }
    }
    __syncthreads();
    if (threadIdx.x < SH_VIEWS * NB) {
        const uint32_t v = threadIdx.x / NB, k = threadIdx.x % NB, x = s_b[v][k];
        if (s_b[v][COUNT] != 0) {
            if (k == COUNT) atomicAdd(&L->bounds[v][COUNT], x);
            else atomicMax(&L->bounds[v][k], x);
        }
    }
    if (sh_last_block(&L->receivers_done)) {
        __shared__ sc_shadow_bounds s_bounds;
        sh_setup(&grid, &s_bounds, L, g);
    }
}

/* 3b. Vertex i's light coordinates in the light's primary view (sc_shadow_vertex_coords; NaN for a
 * vertex with a non-finite coordinate): the emit builds the primary view's images of the casters from
 * them instead of projecting each triangle's corners. */
__device__ static inline void sh_vertex_light(const sc_shadow_grid &grid, uint32_t primary, const float *pos, uint32_t i,
                                              float4 *out)
{
    const float p[3] = {pos[3 * (size_t)i], pos[3 * (size_t)i + 1], pos[3 * (size_t)i + 2]};
    float c[4] = {NAN, NAN, NAN, NAN};
    if (isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])) sc_shadow_vertex_coords(&grid, primary, p, c);
    out[i] = make_float4(c[0], c[1], c[2], c[3]);
}

/* 3. The receivers, compacted (a block's with one atomic): key = light tile, value = pixel; per light
 * tile its receivers (counts: the split's bucket counts), the depth of its farthest receiver
 * (tile_wmax) and the bounds of its receivers' light coordinates (tile_box: ~u0, u1, ~v0, v1), as
 * order-preserving integers (0: no receiver). views: the receivers kernel's view per pixel
 * (SH_NO_VIEW: no receiver). The blocks from key_blocks on compute the vertices' light coordinates
 * (3b) instead: both need only the fitted grid. */
__global__ void __launch_bounds__(SH_PIXEL_THREADS)
sc_shadow_receiver_keys_kernel(sc_cuda_shadow_light *L, const float4 *org, const uint32_t *views, uint32_t *keys,
                               uint32_t *values, uint32_t *tile_wmax, uint32_t *tile_box, uint32_t *counts,
                               uint32_t pixels, uint32_t key_blocks, const float *pos, uint32_t num_vertices,
                               float4 *vlight)
{
    __shared__ sc_shadow_grid s_grid;
    __shared__ uint32_t s_count, s_base;
    if (threadIdx.x == 0) s_count = 0;
    sh_load_grid(&L->grid, &s_grid);
    if (blockIdx.x >= key_blocks) {
        const uint32_t i = (blockIdx.x - key_blocks) * blockDim.x + threadIdx.x;
        if (i < num_vertices) sh_vertex_light(s_grid, L->primary, pos, i, vlight);
        return;
    }
    const uint32_t px = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    uint32_t key = 0, w = 0, b[4] = {0, 0, 0, 0};
    int is = 0;
    if (px < pixels && views[px] != SH_NO_VIEW) {
        const float4 o = org[px];
        const float p[3] = {o.x, o.y, o.z};
        sc_shadow_receiver r;
        if (sc_shadow_receiver_of(&s_grid, p, &r)) {
            key = sc_shadow_tile_of(&s_grid, &r);
            w = sh_ord(r.w);
            b[0] = ~sh_ord(r.u);
            b[1] = sh_ord(r.u);
            b[2] = ~sh_ord(r.v);
            b[3] = sh_ord(r.v);
            is = 1;
        }
    }
    /* Per tile the warp's receivers reduced first (a warp's pixels fall in a few tiles): one set of
     * atomics per tile and warp. */
    for (uint32_t left = __ballot_sync(0xFFFFFFFFu, is); left;) {
        const uint32_t lead = __ffs(left) - 1, lead_key = __shfl_sync(0xFFFFFFFFu, key, lead);
        const bool in = is && key == lead_key;
        const uint32_t grp = __ballot_sync(0xFFFFFFFFu, in);
        left &= ~grp;
        uint32_t m[5];
        m[0] = in ? w : 0u;
        for (int k = 0; k < 4; ++k) m[k + 1] = in ? b[k] : 0u;
        for (int k = 0; k < 5; ++k) {
#if __CUDA_ARCH__ >= 800
            m[k] = __reduce_max_sync(0xFFFFFFFFu, m[k]);
#else
            for (int o = 16; o > 0; o >>= 1) {
                const uint32_t x = __shfl_xor_sync(0xFFFFFFFFu, m[k], o);
                m[k] = x > m[k] ? x : m[k];
            }
#endif
        }
        if (lane == lead) {
            atomicAdd(&counts[lead_key], (uint32_t)__popc(grp));
            atomicMax(&tile_wmax[lead_key], m[0]);
            uint32_t *box = tile_box + 4 * (size_t)lead_key;
            for (int k = 0; k < 4; ++k) atomicMax(&box[k], m[k + 1]);
        }
    }
    /* The block's receivers take one range of the compacted list (one global atomic per block: the
     * counter is the same word for the whole grid), each warp its part of it. */
    const uint32_t m = __ballot_sync(0xFFFFFFFFu, is);
    uint32_t woff = 0;
    if (lane == 0 && m) woff = atomicAdd(&s_count, (uint32_t)__popc(m));
    woff = __shfl_sync(0xFFFFFFFFu, woff, 0);
    __syncthreads();
    if (threadIdx.x == 0) s_base = s_count ? atomicAdd(&L->receivers, s_count) : 0u;
    __syncthreads();
    if (is) {
        const uint32_t at = s_base + woff + __popc(m & ((1u << lane) - 1u));
        keys[at] = key;
        values[at] = px;
    }
}

/* One view's part of a caster's references: the tile span of its image and its slab. */
typedef struct sh_caster_view {
    sc_shadow_span s;
    uint32_t view, slab;
} sh_caster_view;

/* Per light tile what the receivers' keys kernel gathered: the farthest receiver's depth and the
 * receivers' light coordinate bounds. */
typedef struct sh_tile_receivers {
    const uint32_t *wmax;
    const uint4 *box;
} sh_tile_receivers;

/* Whether a caster with image im may block a receiver of tile `tile`: its key is not beyond the
 * tile's farthest receiver (wmax 0 for a tile without receivers decodes to NaN: no) and its image
 * meets the bounds of the tile's receivers' light coordinates (a receiver it blocks lies in it). */
__device__ static inline bool sh_tile_may_block(const sh_tile_receivers &tr, uint32_t tile, const sc_shadow_image &im)
{
    if (!(im.key <= sh_unord(tr.wmax[tile]))) return false;
    const uint4 b = tr.box[tile];
    return im.x1 >= sh_unord(~b.x) && im.x0 <= sh_unord(b.y) && im.y1 >= sh_unord(~b.z) && im.y0 <= sh_unord(b.w);
}

/* fn(tile, slab, image) for each tile of a view's span that holds a receiver the caster may block,
 * rows then columns (the CPU's order; the order does not matter). */
template <typename F>
__device__ static inline void sh_visit_span(const sc_shadow_grid &grid, const sh_tile_receivers &tr,
                                            const sc_shadow_image &im, const sh_caster_view &cv, F fn)
{
    const sc_shadow_view &vw = grid.views[cv.view];
    for (uint32_t ty = cv.s.ty0; ty <= cv.s.ty1; ++ty)
        for (uint32_t tx = cv.s.tx0; tx <= cv.s.tx1; ++tx) {
            const uint32_t tile = vw.base + ty * vw.gx + tx;
            if (sh_tile_may_block(tr, tile, im)) fn(tile, cv.slab, im);
        }
}

/* Whether every coordinate of a triangle is finite (the frame drops the others as casters). */
__device__ static inline bool sh_finite_triangle(const float *a, const float *b, const float *c)
{
    for (int k = 0; k < 3; ++k)
        if (!isfinite(a[k]) || !isfinite(b[k]) || !isfinite(c[k])) return false;
    return true;
}

/* Visits the references of triangle (a, b, c): fn(tile, slab, image) for each tile of its spans that
 * holds a receiver it may block, views in order. a, b, c are the caller's copies (registers). */
template <typename F>
__device__ static inline void sh_visit_caster(const sc_shadow_grid &grid, const sh_tile_receivers &tr, const float *a,
                                              const float *b, const float *c, F fn)
{
    if (!sh_finite_triangle(a, b, c)) return;
    for (uint32_t view = 0; view < SH_VIEWS; ++view) {
        sc_shadow_image im;
        sh_caster_view cv;
        if (!sc_shadow_caster_image(&grid, view, a, b, c, &im)) continue;
        if (!sc_shadow_span_of(&grid, &grid.views[view], &im, &cv.s)) continue;
        cv.view = view;
        cv.slab = sc_shadow_slab_of(&grid, &grid.views[view], im.key);
        sh_visit_span(grid, tr, im, cv, fn);
    }
}

/* Triangle t's vertices into registers. */
__device__ static inline void sh_load_triangle(const float *pos, const uint32_t *idx, uint32_t t, float v[9])
{
    for (int k = 0; k < 3; ++k) {
        const float *p = sh_vertex(pos, idx, t, k);
        v[3 * k] = p[0];
        v[3 * k + 1] = p[1];
        v[3 * k + 2] = p[2];
    }
}

/* A caster's image in the primary view from its vertices' light coordinates q (sc_shadow_vertex_coords);
 * -1 when a vertex is clipped (a point light's w < wc for some but not all: the caller projects the
 * triangle itself), else whether it has an image there. */
__device__ static inline int sh_primary_image(const sc_shadow_grid &grid, const sc_shadow_view &vw, const float4 q[3],
                                              sc_shadow_image *im)
{
    const float x0 = fminf(fminf(q[0].x, q[1].x), q[2].x), x1 = fmaxf(fmaxf(q[0].x, q[1].x), q[2].x);
    const float y0 = fminf(fminf(q[0].y, q[1].y), q[2].y), y1 = fmaxf(fmaxf(q[0].y, q[1].y), q[2].y);
    const float w0 = fminf(fminf(q[0].z, q[1].z), q[2].z);
    const float D = fmaxf(fmaxf(q[0].w, q[1].w), q[2].w);
    if (grid.light.type != SC_LIGHT_POINT) {
        float e = 0.0f;
        for (int k = 0; k < 3; ++k)
            e = fmaxf(e, sc_shadow_size_bound(0, fabsf(q[k].z), SC_FADD(fabsf(q[k].x), fabsf(q[k].y))));
        return sc_shadow_dir_image(&vw, x0, x1, y0, y1, w0, D, e, im);
    }
    const int in = (q[0].z >= vw.wc) + (q[1].z >= vw.wc) + (q[2].z >= vw.wc);
    if (in == 0) return 0;
    if (in < 3) return -1;
    const float big = fmaxf(fmaxf(fabsf(x0), fabsf(x1)), fmaxf(fabsf(y0), fabsf(y1)));
    const float wmax = fmaxf(fmaxf(q[0].z, q[1].z), q[2].z);
    return sc_shadow_point_image(&vw, x0, x1, y0, y1, w0, big, D, sc_shadow_size_bound(1, wmax, big), im);
}

/* The emit's visit of triangle t: fn(tile, slab, image) as sh_visit_caster, the primary view's image
 * from the vertices' light coordinates q (NaN: a non-finite triangle, no references), the other views'
 * (and a clipped caster's) from its vertices, gathered only then. A view's span of more than
 * SH_BIG_SPAN tiles is offered to big(view, image) first: when it takes it (true), the thread does
 * not visit it. */
template <typename F, typename B>
__device__ static inline void sh_visit_emit(const sc_shadow_grid &grid, const sh_tile_receivers &tr, uint32_t primary,
                                            const float4 q[3], const float *pos, const uint32_t vi[3], F fn, B big)
{
    if (isnan(q[0].w) || isnan(q[1].w) || isnan(q[2].w)) return;
    float v[9];
    bool have_v = false;
    for (uint32_t view = 0; view < SH_VIEWS; ++view) {
        const sc_shadow_view &vw = grid.views[view];
        if (!vw.active) continue;
        sc_shadow_image im;
        int got = view == primary ? sh_primary_image(grid, vw, q, &im) : -1;
        if (got < 0) {
            if (!have_v) {
                for (int k = 0; k < 3; ++k)
                    for (int j = 0; j < 3; ++j) v[3 * k + j] = pos[3 * (size_t)vi[k] + j];
                have_v = true;
            }
            got = sc_shadow_caster_image(&grid, view, v, v + 3, v + 6, &im);
        }
        if (!got) continue;
        sh_caster_view cv;
        if (!sc_shadow_span_of(&grid, &vw, &im, &cv.s)) continue;
        cv.view = view;
        cv.slab = sc_shadow_slab_of(&grid, &vw, im.key);
        const uint32_t area = (cv.s.tx1 - cv.s.tx0 + 1) * (cv.s.ty1 - cv.s.ty0 + 1);
        if (area > SH_BIG_SPAN && big(cv, im)) continue; /* the block visits it together */
        sh_visit_span(grid, tr, im, cv, fn);
    }
}

/* 5. The references against the capacity: the count the cells' split reads, or an overflow (the
 * split reads nothing, the fallback casts). One thread, once every emit block has taken its range. */
__device__ static void sh_finalize(sc_cuda_shadow_light *L, sc_cuda_globals *g, size_t capacity)
{
    const unsigned long long n = *(volatile unsigned long long *)&L->cursor;
    L->overflow = n > capacity;
    L->split_count = n > capacity ? 0u : (uint32_t)n;
    g->shadow_references += n;
    if (n > g->shadow_references_max) g->shadow_references_max = n;
    if (n > capacity) g->shadow_overflow = 1;
}

/* A reference in the emit's shared stage: its key and its 32-byte record (head, image box). */
__device__ static inline void sh_stage_ref(uint32_t *s_key, uint4 *s_rec, uint32_t slot, uint32_t key, uint4 head,
                                           uint4 box)
{
    s_key[slot] = key;
    s_rec[2 * slot] = head;
    s_rec[2 * slot + 1] = box;
}

/* Reference `at` of the light's list: key, its own index as the value, its record. */
__device__ static inline void sh_write_ref(uint32_t *keys, uint32_t *values, uint4 *recs, unsigned long long at,
                                           uint32_t key, uint4 head, uint4 box)
{
    static_assert(SC_CUDA_SHADOW_REC_WORDS == 8, "a record is two 16-byte words");
    keys[at] = key;
    values[at] = (uint32_t)at;
    recs[2 * at] = head;
    recs[2 * at + 1] = box;
}

/* For the lanes of m (which all call it), consecutive places from *counter: one atomic per warp; the
 * calling lane's place. */
template <typename T> __device__ static inline T sh_claim(T *counter, uint32_t m)
{
    const uint32_t lane = threadIdx.x & 31u, leader = __ffs(m) - 1;
    T first = 0;
    if (lane == leader) first = atomicAdd(counter, (T)__popc(m));
    return __shfl_sync(m, first, leader) + (T)__popc(m & ((1u << lane) - 1u));
}

/* 4. Caster references of every triangle (key = cell = tile << slab_bits | slab, value = the
 * reference's own index), each with its record (triangle, vertex indices and image in the tile's
 * view: what the cast needs, so it neither gathers the indices nor computes the image again), in one
 * visit per triangle and in triangle order: a thread's first SH_SLOTS references go to its own slots
 * in shared memory (no atomics), the rest to a shared overflow stage (a shared atomic per warp and
 * step) or, past that, straight to global memory (a global one). A view of a caster spanning more
 * than SH_BIG_SPAN tiles (a ground plane under the model spans them all) is visited by the whole
 * block after the triangles, a tile per thread (one thread would walk up to 10^5 tiles, an atomic
 * per reference). A block scan of the slots' counts
 * places them and one 64-bit atomic takes the block's range; none is written past the capacity. (Two
 * visits, counting then writing, took 0.072 ms for the dragon against 0.060; one shared stage in the
 * order of the atomics cost the cells' split more than the slots: their keys meet in fewer distinct
 * cells per warp.) The last block to take its range checks the count against the capacity (5). */
enum { SH_SLOTS = 2, SH_OVER = SH_EMIT };
__global__ void __launch_bounds__(SH_EMIT, SC_MIN_BLOCKS(SH_EMIT, SC_CUDA_SHADOW_EMIT_MIN_BLOCKS))
sc_shadow_emit_kernel(sc_cuda_shadow_light *L, sc_cuda_globals *g, const float *pos, const float4 *vlight,
                       const uint32_t *idx, uint32_t num_triangles, const uint32_t *tile_wmax, const uint4 *tile_box,
                       uint32_t *keys, uint32_t *values, uint4 *recs, size_t capacity)
{
    typedef cub::BlockScan<uint32_t, SH_EMIT> scan_t;
    __shared__ typename scan_t::TempStorage temp;
    __shared__ uint32_t s_key[SH_SLOTS * SH_EMIT + SH_OVER];
    __shared__ uint4 s_rec[2 * (SH_SLOTS * SH_EMIT + SH_OVER)];
    __shared__ uint32_t s_over, s_nbig;
    __shared__ uint4 s_big[SH_BIG][4]; /* head, image box, span, (image key, view, slab) */
    __shared__ unsigned long long s_base;
    __shared__ sc_shadow_grid grid;
    if (threadIdx.x == 0) s_over = s_nbig = 0;
    sh_load_grid(&L->grid, &grid);
    const sh_tile_receivers tr = {tile_wmax, tile_box};
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t primary = L->primary;
    uint32_t count = 0;
    if (t < num_triangles) {
        uint32_t vi[3];
        float4 q[3];
        for (int k = 0; k < 3; ++k) vi[k] = idx[3 * (size_t)t + k];
        for (int k = 0; k < 3; ++k) q[k] = vlight[vi[k]];
        const uint4 head = make_uint4(t, vi[0], vi[1], vi[2]);
        const uint32_t bits = grid.slab_bits;
        sh_visit_emit(grid, tr, primary, q, pos, vi, [&](uint32_t tile, uint32_t slab, const sc_shadow_image &im) {
            const uint32_t key = tile << bits | slab;
            const uint4 box = make_uint4(__float_as_uint(im.x0), __float_as_uint(im.x1), __float_as_uint(im.y0),
                                         __float_as_uint(im.y1));
            if (count < SH_SLOTS) {
                sh_stage_ref(s_key, s_rec, SH_SLOTS * threadIdx.x + count++, key, head, box);
                return;
            }
            const uint32_t m = __activemask();
            const uint32_t slot = sh_claim(&s_over, m);
            const uint32_t spill = __ballot_sync(m, slot >= SH_OVER);
            if (slot < SH_OVER) {
                sh_stage_ref(s_key, s_rec, SH_SLOTS * SH_EMIT + slot, key, head, box);
                return;
            }
            const unsigned long long at = sh_claim(&L->cursor, spill);
            if (at < capacity) sh_write_ref(keys, values, recs, at, key, head, box);
        }, [&](const sh_caster_view &cv, const sc_shadow_image &im) {
            const uint32_t e = atomicAdd(&s_nbig, 1u);
            if (e >= SH_BIG) return false;
            s_big[e][0] = head;
            s_big[e][1] = make_uint4(__float_as_uint(im.x0), __float_as_uint(im.x1), __float_as_uint(im.y0),
                                     __float_as_uint(im.y1));
            s_big[e][2] = make_uint4(cv.s.tx0, cv.s.ty0, cv.s.tx1, cv.s.ty1);
            s_big[e][3] = make_uint4(__float_as_uint(im.key), cv.view, cv.slab, 0u);
            return true;
        });
    }
    __syncthreads();
    /* The block's big spans: its threads take the tiles of each in turn, a warp's references placed
     * with one atomic. */
    const uint32_t nbig = min(s_nbig, (uint32_t)SH_BIG);
    for (uint32_t e = 0; e < nbig; ++e) {
        const uint4 head = s_big[e][0], box = s_big[e][1], span = s_big[e][2], ext = s_big[e][3];
        const sc_shadow_image im = {__uint_as_float(box.x), __uint_as_float(box.y), __uint_as_float(box.z),
                                    __uint_as_float(box.w), __uint_as_float(ext.x)};
        const sc_shadow_view &vw = grid.views[ext.y];
        const uint32_t w = span.z - span.x + 1, area = w * (span.w - span.y + 1);
        const uint32_t slab_key = ext.z;
        for (uint32_t i0 = 0; i0 < area; i0 += SH_EMIT) {
            const uint32_t i = i0 + threadIdx.x;
            uint32_t tile = 0;
            bool take = false;
            if (i < area) {
                tile = vw.base + (span.y + i / w) * vw.gx + span.x + i % w;
                take = sh_tile_may_block(tr, tile, im);
            }
            const uint32_t m = __ballot_sync(0xFFFFFFFFu, take);
            if (!take) continue;
            const unsigned long long at = sh_claim(&L->cursor, m); /* the lanes of m, all of them */
            if (at < capacity) sh_write_ref(keys, values, recs, at, tile << grid.slab_bits | slab_key, head, box);
        }
    }
    uint32_t excl, total;
    scan_t(temp).ExclusiveSum(count, excl, total); /* s_over is final (the barrier above) */
    const uint32_t over = min(s_over, (uint32_t)SH_OVER);
    if (threadIdx.x == 0) s_base = total + over ? atomicAdd(&L->cursor, (unsigned long long)(total + over)) : 0ull;
    if (sh_last_block(&L->emit_done) && threadIdx.x == 0) sh_finalize(L, g, capacity); /* every block's range taken */
    const unsigned long long base = s_base;
    for (uint32_t j = 0; j < count; ++j) {
        const unsigned long long at = base + excl + j;
        const uint32_t slot = SH_SLOTS * threadIdx.x + j;
        if (at >= capacity) break;
        sh_write_ref(keys, values, recs, at, s_key[slot], s_rec[2 * slot], s_rec[2 * slot + 1]);
    }
    for (uint32_t i = threadIdx.x; i < over; i += SH_EMIT) {
        const unsigned long long at = base + total + i;
        const uint32_t slot = SH_SLOTS * SH_EMIT + i;
        if (at >= capacity) break;
        sh_write_ref(keys, values, recs, at, s_key[slot], s_rec[2 * slot], s_rec[2 * slot + 1]);
    }
}

/* A receiver of the cast, as its warp's lanes read it (shared memory): first the 16 bytes every lane
 * reads for every caster (one load), then the ray, read only to test it. */
typedef struct __align__(16) sh_cast_ray {
    float u, v;
    uint32_t hit_tri;
    uint32_t stop;   /* its casters end here: the first reference of the first slab it does not need */
    sc_ray ray;
    float tmax;
} sh_cast_ray;

/* The ray cast's reference stream of a warp, read ahead: the record of reference i (head: triangle
 * and vertex indices, box: the image's bounds) a round before it is tested, its index in the split's
 * order two rounds before. */
typedef struct sh_cast_stream {
    uint32_t id_next2;  /* the reference index of lane's caster two rounds on (SH_NO_ID: none) */
    uint4 head_next, box_next;
} sh_cast_stream;

enum { SH_NO_ID = 0xFFFFFFFFu, SH_PAIRS = 64 };

/* A warp's shared state in the cast: its receivers, the round's casters' vertices, the queue of
 * (receiver, caster) pairs to test, and per receiver whether it is blocked, by which reference first
 * found, and its tests. */
typedef struct sh_cast_warp {
    sh_cast_ray rays[32];
    float cv[32][9];               /* the round's casters' vertices, lane by lane */
    uint32_t pairs[SH_PAIRS];      /* ring of receiver << 5 | caster lane */
    uint32_t blocker[32];          /* the least blocking reference found (SH_NO_ID: none) */
    uint32_t tests[32];
    uint32_t blocked;              /* bit j: receiver j is in shadow */
} sh_cast_warp;

/* Tests the n <= 32 queued pairs from ring position head, a lane each, against the round's casters
 * (references i0 + lane). Pairs of a receiver already blocked before the batch are dropped. Every
 * lane of the warp calls it. */
__device__ static inline void sh_cast_flush(sh_cast_warp *w, uint32_t head, uint32_t n, uint32_t i0, uint32_t lane)
{
    __syncwarp();
    const uint32_t blocked = w->blocked;
    uint32_t pr = 0;
    if (lane < n) pr = w->pairs[(head + lane) & (SH_PAIRS - 1)];
    __syncwarp();
    const uint32_t j = pr >> 5, c = pr & 31u;
    if (lane < n && !(blocked >> j & 1u)) {
        atomicAdd(&w->tests[j], 1u);
        const sc_ray ray = w->rays[j].ray;
        const float *v = w->cv[c];
        float t, u, b;
        if (sc_intersect(&ray, v, v + 3, v + 6, 0.0f, w->rays[j].tmax, &t, &u, &b)) {
            atomicOr(&w->blocked, 1u << j);
            atomicMin(&w->blocker[j], i0 + c);
        }
    }
    __syncwarp();
}

/* 7. The shadow rays: a warp per 32 receivers in light tile order (a lane each). The references of
 * the warp's tiles are one range of the cells' split (tile by tile, slabs from the light on in each;
 * tiles strictly between the warp's first and last hold no receiver, so no reference), and the warp
 * walks it 32 at a time: each lane reads one caster's record (triangle, vertex indices, image: the
 * emit's), read ahead a round, and gathers its vertices into shared memory. For each receiver not
 * yet blocked whose own range [its tile's first reference, its stop) meets the round, the casters in
 * that range whose image holds its light coordinates and which are not its own triangle are queued as
 * (receiver, caster) pairs; 32 queued pairs are tested at once, a lane each (so the ray tests keep the
 * warp's lanes busy however few candidates a receiver has). A receiver is done at a blocker or past
 * its stop. */
__global__ void __launch_bounds__(SH_CAST_WARPS * 32)
sc_shadow_cast_kernel(const sc_cuda_shadow_light *__restrict__ L, uint32_t li, sc_cuda_globals *g,
                      const uint32_t *recv_px, const float4 *org, const sc_hit *hits, const uint32_t *cells_all,
                      const uint32_t *ref_ids, const uint4 *recs, const float *pos, uint8_t *mask, uint32_t *tests_px)
{
    /* The grid is launched for every pixel; blocks past the receivers leave before loading anything. */
    if (L->overflow || blockIdx.x * (SH_CAST_WARPS * 32) >= L->receivers) return;
    __shared__ sc_shadow_grid grid;
    __shared__ sh_cast_warp s_warps[SH_CAST_WARPS];
    sh_load_grid(&L->grid, &grid);
    const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t r = (blockIdx.x * SH_CAST_WARPS + warp) * 32 + lane;
    const bool mine = r < L->receivers;
    if (!__any_sync(0xFFFFFFFFu, mine)) return;
    sh_cast_warp *w = &s_warps[warp];
    const uint32_t S = grid.num_slabs;
    uint32_t px = 0, start = 0, stop = 0, end = 0;
    const uint32_t *cells = cells_all;
    w->blocker[lane] = SH_NO_ID;
    w->tests[lane] = 0;
    if (lane == 0) w->blocked = 0;
    if (mine) {
        px = recv_px[r];
        const float4 o = org[px];
        const float orig[3] = {o.x, o.y, o.z};
        sc_shadow_receiver rec;
        (void)sc_shadow_receiver_of(&grid, orig, &rec);
        cells = cells_all + ((size_t)sc_shadow_tile_of(&grid, &rec) << grid.slab_bits);
        const uint32_t w_end = sc_shadow_slab_end(&grid, &grid.views[rec.view], o.w);
        start = cells[0];
        stop = cells[w_end < S ? w_end : S];
        end = cells[S];
        float dir[3];
        sh_cast_ray *R = &w->rays[lane];
        R->tmax = sc_shadow_ray_dir(&grid.light, orig, dir);
        sc_ray_setup(&R->ray, orig, dir);
        R->u = rec.u;
        R->v = rec.v;
        R->hit_tri = hits[px].tri;
        R->stop = stop;
    }
    uint32_t pending = __ballot_sync(0xFFFFFFFFu, mine && stop > start);
    /* The warp's range: its first receiver's tile's first reference (the receivers are in tile order)
     * up to the farthest stop. */
    const uint32_t lo = __shfl_sync(0xFFFFFFFFu, start, 0);
#if __CUDA_ARCH__ >= 800
    const uint32_t hi = __reduce_max_sync(0xFFFFFFFFu, stop);
#else
    uint32_t hi = stop;
    for (int o = 16; o > 0; o >>= 1) {
        const uint32_t x = __shfl_xor_sync(0xFFFFFFFFu, hi, o);
        hi = x > hi ? x : hi;
    }
#endif
    __syncwarp();
    sh_cast_stream st;
    st.head_next = make_uint4(SC_NO_HIT, 0, 0, 0);
    st.box_next = make_uint4(0, 0, 0, 0);
    if (pending && lo + lane < hi) {
        const uint4 *rec = recs + (SC_CUDA_SHADOW_REC_WORDS / 4) * (size_t)ref_ids[lo + lane];
        st.head_next = rec[0];
        st.box_next = rec[1];
    }
    st.id_next2 = pending && lo + 32 + lane < hi ? ref_ids[lo + 32 + lane] : SH_NO_ID;
    const uint32_t below = (1u << lane) - 1u;
    uint32_t head = 0; /* the pair ring's first queued entry */
    for (uint32_t i0 = lo; i0 < hi && pending; i0 += 32) {
        const uint32_t i = i0 + lane;
        const bool have = i < hi;
        const uint32_t tri = st.head_next.x;
        const float x0 = __uint_as_float(st.box_next.x), x1 = __uint_as_float(st.box_next.y);
        const float y0 = __uint_as_float(st.box_next.z), y1 = __uint_as_float(st.box_next.w);
        if (have) {
            const uint32_t vi[3] = {st.head_next.y, st.head_next.z, st.head_next.w};
            for (int k = 0; k < 3; ++k) {
                const float *q = pos + 3 * (size_t)vi[k];
                w->cv[lane][3 * k] = q[0];
                w->cv[lane][3 * k + 1] = q[1];
                w->cv[lane][3 * k + 2] = q[2];
            }
        }
        if (st.id_next2 != SH_NO_ID) {
            const uint4 *rec = recs + (SC_CUDA_SHADOW_REC_WORDS / 4) * (size_t)st.id_next2;
            st.head_next = rec[0];
            st.box_next = rec[1];
        }
        st.id_next2 = i + 64 < hi ? ref_ids[i + 64] : SH_NO_ID;
        /* The receivers whose range meets this round (a run of lanes: the ranges follow the lanes). */
        const uint32_t meets = __ballot_sync(0xFFFFFFFFu, start < i0 + 32 && stop > i0);
        uint32_t queued = 0;
        for (uint32_t p = pending & meets; p; p &= p - 1) {
            const uint32_t j = __ffs(p) - 1;
            const uint4 q = *(const uint4 *)&w->rays[j]; /* u, v, hit_tri, stop */
            const uint32_t first = __shfl_sync(0xFFFFFFFFu, start, j);
            const float ru = __uint_as_float(q.x), rv = __uint_as_float(q.y);
            const bool cand = have && i >= first && i < q.w && tri != q.z && x0 <= ru && ru <= x1 && y0 <= rv &&
                              rv <= y1;
            const uint32_t cm = __ballot_sync(0xFFFFFFFFu, cand);
            if (!cm) continue;
            if (cand) w->pairs[(head + queued + __popc(cm & below)) & (SH_PAIRS - 1)] = j << 5 | lane;
            queued += __popc(cm);
            if (queued >= 32) {
                sh_cast_flush(w, head, 32, i0, lane);
                head = (head + 32) & (SH_PAIRS - 1);
                queued -= 32;
            }
        }
        if (queued) sh_cast_flush(w, head, queued, i0, lane);
        head = (head + queued) & (SH_PAIRS - 1);
        __syncwarp();
        pending &= ~w->blocked;
        pending &= ~__ballot_sync(0xFFFFFFFFu, stop <= i0 + 32); /* rays whose casters end here */
        __syncwarp(); /* the round's casters are read before the next round's are written */
    }
    __syncwarp();
    unsigned long long n_tests = 0, n_blocked = 0, n_early = 0;
    if (mine) {
        const uint32_t blocker = w->blocker[lane], tests = w->tests[lane];
        /* Decided early: the tile holds casters in a slab past the last one the ray read (up to its
         * blocker's slab, or its stop). */
        uint32_t done_at = stop;
        if (blocker != SH_NO_ID) {
            uint32_t k = 1;
            while (k < S && cells[k] <= blocker) ++k;
            done_at = cells[k];
        }
        const bool blocked = blocker != SH_NO_ID;
        if (blocked) mask[px] |= (uint8_t)(1u << li);
        tests_px[px] += tests;
        n_tests = tests;
        n_blocked = blocked;
        n_early = done_at < end;
    }
    sh_add(&g->shadow_tests, n_tests);
    sh_add(&g->shadow_blocked, n_blocked);
    sh_add(&g->shadow_early, n_early);
}

/* 8. After an overflow: a warp per triangle tests the receivers of every tile it covers directly. */
__global__ void __launch_bounds__(256)
sc_shadow_fallback_kernel(const sc_cuda_shadow_light *__restrict__ L, uint32_t li, sc_cuda_globals *g,
                          const uint32_t *recv_off, const uint32_t *tile_wmax, const uint4 *tile_box,
                          const uint32_t *recv_px, const float4 *org,
                          const sc_hit *hits, const float *pos, const uint32_t *idx, uint32_t num_triangles,
                          uint32_t *mask_words, uint32_t *tests_px)
{
    if (!L->overflow) return;
    __shared__ sc_shadow_grid grid;
    sh_load_grid(&L->grid, &grid);
    const sh_tile_receivers tr = {tile_wmax, tile_box};
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t warps = gridDim.x * (blockDim.x / 32);
    unsigned long long n_tests = 0, n_blocked = 0;
    for (uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < num_triangles; t += warps) {
        float v9[9];
        sh_load_triangle(pos, idx, t, v9);
        const float *a = v9, *b = v9 + 3, *c = v9 + 6;
        sh_visit_caster(grid, tr, a, b, c, [&](uint32_t tile, uint32_t, const sc_shadow_image &im) {
            for (uint32_t r = recv_off[tile] + lane; r < recv_off[tile + 1]; r += 32) {
                const uint32_t px = recv_px[r];
                if (hits[px].tri == t) continue;
                const uint32_t word = px >> 2, bit = 1u << (8 * (px & 3u) + li);
                if (mask_words[word] & bit) continue; /* already blocked */
                const float4 o = org[px];
                const float orig[3] = {o.x, o.y, o.z};
                sc_shadow_receiver rec;
                (void)sc_shadow_receiver_of(&grid, orig, &rec);
                if (!sc_shadow_image_holds(&im, rec.u, rec.v)) continue;
                float dir[3];
                const float tmax = sc_shadow_ray_dir(&grid.light, orig, dir);
                sc_ray ray;
                sc_ray_setup(&ray, orig, dir);
                atomicAdd(&tests_px[px], 1u);
                ++n_tests;
                float tt, u, v;
                if (sc_intersect(&ray, a, b, c, 0.0f, tmax, &tt, &u, &v))
                    n_blocked += !(atomicOr(&mask_words[word], bit) & bit);
            }
        });
    }
    sh_add(&g->shadow_tests, n_tests);
    sh_add(&g->shadow_blocked, n_blocked);
}

/* ---- Host side ---- */

/* A split of n (key, value) pairs by the key's bit field [start_bit, start_bit + bit_count), the record
 * count read on the device when count_dev is not NULL. */
static void pairs_split_desc(size_t n, uint32_t *keys_in, uint32_t *values_in, uint32_t *keys_out, uint32_t *values_out,
                             uint32_t start_bit, uint32_t bit_count, uint32_t *offsets, const uint32_t *count_dev,
                             split_desc *d)
{
    memset(d, 0, sizeof *d);
    d->key_type = SPLIT_KEY_U32;
    d->n = n;
    d->keys_in = keys_in;
    d->values_in = values_in;
    d->keys_out = keys_out;
    d->values_out = values_out;
    d->buckets.rule = SPLIT_BUCKETS_BITS;
    d->buckets.start_bit = start_bit;
    d->buckets.bit_count = bit_count;
    d->bucket_offsets = offsets;
    d->num_records_device = count_dev;
}

/* The receivers (light tile, pixel), compacted, by light tile: unstable, the receiver count read on
 * the device; only the pixels move. */
static void receiver_split_desc(const sc_cuda_state *st, const sc_shadow_grid_shape *shape, size_t pixels, uint32_t li,
                                split_desc *d)
{
    pairs_split_desc(pixels, st->recv_keys, st->recv_values[0], NULL, st->recv_values[1], 0, 0, st->recv_offsets,
                     &st->shadow_lights_dev[li].receivers, d);
    d->buckets.rule = SPLIT_BUCKETS_RANGE; /* the tile ids: no bucket past the last */
    d->buckets.num_buckets = shape->num_tiles;
    d->buckets.range_base = 0;
    d->buckets.range_delta = 1;
    d->bucket_counts = st->recv_counts; /* counted by the keys kernel */
    d->unstable = 1;
}

/* The casters by cell (tile << slab_bits | slab: tile by tile, slabs from the light on in each), the
 * references light li appended: unstable, only the reference indices move. */
static void caster_cell_split_desc(const sc_cuda_state *st, const sc_shadow_grid_shape *shape, uint32_t li,
                                   split_desc *d)
{
    pairs_split_desc(st->ref_capacity, st->ref_keys[0], st->ref_values[0], NULL, st->ref_values[1], 0, 0,
                     st->shadow_cells, &st->shadow_lights_dev[li].split_count, d);
    d->buckets.rule = SPLIT_BUCKETS_RANGE;
    d->buckets.num_buckets = shape->num_tiles << shape->slab_bits;
    d->buckets.range_base = 0;
    d->buckets.range_delta = 1;
    d->unstable = 1;
}

void sc_cuda_shadow_shape(const sc_cuda_state *st, sc_shadow_grid_shape *shape)
{
    const uint32_t G = sc_shadow_grid_size(st->num_triangles);
    shape->num_tiles = G * G;
    shape->tile_bits = 0;
    while ((1u << shape->tile_bits) <= shape->num_tiles) ++shape->tile_bits;
    shape->slab_bits = 0;
    while ((1u << shape->slab_bits) < SC_SHADOW_SLABS) ++shape->slab_bits;
}

sc_status sc_cuda_shadow_temp_bytes(const sc_cuda_state *st, size_t pixels, size_t *bytes)
{
    *bytes = 0;
    if (!st->recv_keys || st->ref_capacity == 0) return SC_OK;
    sc_shadow_grid_shape shape;
    sc_cuda_shadow_shape(st, &shape);
    split_desc d;
    size_t a = 0, b = 0;
    receiver_split_desc(st, &shape, pixels, 0, &d);
    SC_TRY(split_multisplit(NULL, &a, &d, NULL));
    caster_cell_split_desc(st, &shape, 0, &d);
    SC_TRY(split_multisplit(NULL, &b, &d, NULL));
    *bytes = a > b ? a : b;
    return SC_OK;
}

/* Stage boundaries of the first light with shadows are the stage marks; mark(i) records the end of
 * shadow stage i (0 .. 3). The later lights' passes fall in the cast stage. */
sc_status sc_cuda_shadows(sc_cuda_state *st, const sc_frame_params *p, uint32_t light_mask, cudaStream_t s,
                          sc_status (*mark)(void *ctx), void *mark_ctx)
{
    const uint32_t pixels = p->width * p->height;
    const uint32_t pix_blocks = (pixels + SH_PIXEL_THREADS - 1) / SH_PIXEL_THREADS;
    sc_shadow_grid_shape shape;
    sc_cuda_shadow_shape(st, &shape);
    const uint32_t cast_blocks = (pixels + SH_CAST_WARPS * 32 - 1) / (SH_CAST_WARPS * 32);
    int marks = 0;
    if (!light_mask) {
        if (st->shadow_mask) { /* no shadows this frame: no bit of an earlier one stays */
            SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_mask, 0, pixels, s));
            SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_tests, 0, (size_t)pixels * sizeof(uint32_t), s));
        }
    } else {
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_lights_dev, 0, SC_MAX_LIGHTS * sizeof(sc_cuda_shadow_light), s));
    }
    const uint32_t key_blocks = pix_blocks;
    const uint32_t vertex_blocks = p->num_triangles ? (st->num_vertices + SH_PIXEL_THREADS - 1) / SH_PIXEL_THREADS : 0;
    const uint32_t emit_blocks = p->num_triangles ? (p->num_triangles + SH_EMIT - 1) / SH_EMIT : 1;
    bool first = true;
    for (uint32_t li = 0; li < SC_MAX_LIGHTS; ++li) {
        if (!(light_mask >> li & 1u)) continue;
        sc_cuda_shadow_light *L = &st->shadow_lights_dev[li];
        split_desc d;
        size_t bytes = st->shadow_temp_bytes;
        /* The receivers kernel zeroes the per-tile words (and, for the first light, the masks) and its
         * last block fits the grid. */
        const sh_zero_job zero = {(uint4 *)st->shadow_tile_box, st->shadow_tile_words / 4, first ? st->shadow_mask : NULL,
                                  st->shadow_tests};
        first = false;
        sc_shadow_receivers_kernel<<<pix_blocks, SH_PIXEL_THREADS, 0, s>>>(
            st->consts, li, L, st->globals, st->hits, st->positions, st->indices, (float4 *)st->shadow_org,
            st->recv_values[1], pixels, zero);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_receivers_kernel");
        sc_shadow_receiver_keys_kernel<<<key_blocks + vertex_blocks, SH_PIXEL_THREADS, 0, s>>>(
            L, (const float4 *)st->shadow_org, st->recv_values[1], st->recv_keys, st->recv_values[0],
            st->shadow_tile_wmax, st->shadow_tile_box, st->recv_counts, pixels, key_blocks, st->positions,
            st->num_vertices, (float4 *)st->shadow_vlight);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_receiver_keys_kernel");
        receiver_split_desc(st, &shape, pixels, li, &d);
        SC_TRY(split_multisplit(st->shadow_temp, &bytes, &d, s));
        if (marks == 0) { SC_TRY(mark(mark_ctx)); ++marks; }

        sc_shadow_emit_kernel<<<emit_blocks, SH_EMIT, 0, s>>>(
            L, st->globals, st->positions, (const float4 *)st->shadow_vlight, st->indices, p->num_triangles,
            st->shadow_tile_wmax, (const uint4 *)st->shadow_tile_box, st->ref_keys[0], st->ref_values[0],
            (uint4 *)st->shadow_recs, st->ref_capacity);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_emit_kernel");
        if (marks == 1) { SC_TRY(mark(mark_ctx)); ++marks; }

        bytes = st->shadow_temp_bytes;
        caster_cell_split_desc(st, &shape, li, &d);
        SC_TRY(split_multisplit(st->shadow_temp, &bytes, &d, s));
        if (marks == 2) { SC_TRY(mark(mark_ctx)); ++marks; }

        sc_shadow_cast_kernel<<<cast_blocks, SH_CAST_WARPS * 32, 0, s>>>(
            L, li, st->globals, st->recv_values[1], (const float4 *)st->shadow_org, st->hits,
            st->shadow_cells, st->ref_values[1], (const uint4 *)st->shadow_recs, st->positions, st->shadow_mask,
            st->shadow_tests);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_cast_kernel");
        sc_shadow_fallback_kernel<<<st->shadow_fallback_blocks, 256, 0, s>>>(
            L, li, st->globals, st->recv_offsets, st->shadow_tile_wmax, (const uint4 *)st->shadow_tile_box,
            st->recv_values[1], (const float4 *)st->shadow_org,
            st->hits, st->positions, st->indices, p->num_triangles, (uint32_t *)st->shadow_mask, st->shadow_tests);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_fallback_kernel");
    }
    while (marks < 3) { SC_TRY(mark(mark_ctx)); ++marks; }
    return SC_OK;
}
