/* shadow_cuda.cu - the shadow pass on the GPU (render/core/shadow.h has the method and the contract;
 * the CPU backend's shadow_cpu.c computes the same masks). Per light with shadows, on the renderer's
 * stream with no host round trip:
 *  1. receivers: every hit pixel's shadow ray origin and light-space depth (sc_shadow_ray), its view,
 *     and per view the bounds of the receivers' light coordinates (a block reduces in shared memory,
 *     then one atomic per view and bound, floats as order-preserving integers);
 *  2. setup (one thread): the light's grid fitted to those bounds (sc_shadow_grid_fit);
 *  3. receiver keys: each receiver's light tile (the sentinel bucket for the others) and per tile the
 *     depth of its deepest receiver, then the split library's multisplit groups the pixels by light
 *     tile (receiver offsets per tile);
 *  4. emit: every finite triangle, for each view its image covers, appends one reference per tile
 *     of its span whose deepest receiver is not in front of it (key = tile | slab << tile_bits, value =
 *     triangle), with a block scan and one 64-bit atomic per block; references past the capacity are
 *     not written;
 *  5. finalize (one thread): the reference count against the capacity: the count the splits read,
 *     or an overflow (the splits read nothing, the fallback below casts);
 *  6. the split library groups the references by light tile (multisplit) and each tile's by slab
 *     (segmented split) into the eye grid's reference buffers, free once the eye ray cast is done;
 *  7. cast: each reference's image in its tile's view (a thread per reference), then a thread per
 *     shadow ray in light tile order (a warp's rays share their tile's casters), slabs from the light
 *     on: a caster is tested only when the ray's light coordinates lie in its image, and a ray stops
 *     at its first blocker or at the first slab whose near bound lies beyond it;
 *  8. overflow fallback (only when 5 found an overflow): a warp per triangle visits the tiles it
 *     covers and tests their receivers directly (exact, no slabs), setting mask bits with atomics.
 * The mask byte of a pixel holds bit i for light i; shadow tests per pixel add up over lights. */
#include <cub/block/block_scan.cuh>
#include <math.h>
#include <string.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "shadow.h"
#include "split.h"

enum {
    SH_THREADS = SC_CUDA_SHADOW_THREADS,
    SH_EMIT = SC_CUDA_SHADOW_EMIT_THREADS,
    SH_PIXEL_THREADS = 256,
    SH_VIEWS = SC_SHADOW_MAX_VIEWS,
    SH_NO_VIEW = 0xFFFFFFFFu
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

/* 1. Receivers: origin and depth per hit pixel (org), view (keys), the bounds per view. */
__global__ void __launch_bounds__(SH_PIXEL_THREADS)
sc_shadow_receivers_kernel(const sc_cuda_frame_consts *__restrict__ fc, uint32_t li, sc_cuda_shadow_light *L,
                           sc_cuda_globals *g, const sc_hit *hits, const float *pos, const uint32_t *idx,
                           float4 *org_out, uint32_t *view_out, uint32_t pixels)
{
    enum { NB = SC_CUDA_SHADOW_BOUNDS };
    __shared__ uint32_t s_b[SH_VIEWS][NB]; /* as sc_cuda_shadow_light.bounds */
    __shared__ sc_shadow_grid grid;
    if (threadIdx.x < SH_VIEWS * NB) (&s_b[0][0])[threadIdx.x] = 0;
    if (threadIdx.x == 0) sh_grid_init(fc, li, &grid);
    __syncthreads();
    const uint32_t px = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long rays = 0;
    if (px < pixels) {
        uint32_t view = SH_NO_VIEW;
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
                uint32_t *b = s_b[view];
                atomicMax(&b[0], ~sh_ord(r.u)); atomicMax(&b[1], sh_ord(r.u));
                atomicMax(&b[2], ~sh_ord(r.v)); atomicMax(&b[3], sh_ord(r.v));
                atomicMax(&b[4], ~sh_ord(r.w)); atomicMax(&b[5], sh_ord(r.w));
                atomicMax(&b[6], sh_ord(r.ext)); atomicAdd(&b[7], 1u);
                for (int k = 0; k < 3; ++k) {
                    atomicMax(&b[8 + 2 * k], ~sh_ord(org[k]));
                    atomicMax(&b[9 + 2 * k], sh_ord(org[k]));
                }
            }
        }
        view_out[px] = view;
    }
    sh_add(&g->shadow_receivers, rays);
    __syncthreads();
    if (threadIdx.x < SH_VIEWS * NB) {
        const uint32_t v = threadIdx.x / NB, k = threadIdx.x % NB, x = s_b[v][k];
        if (s_b[v][7] == 0) return;
        if (k == 7) atomicAdd(&L->bounds[v][7], x);
        else atomicMax(&L->bounds[v][k], x);
    }
}

/* 2. The light's grid from the bounds; the views it holds. */
__global__ void sc_shadow_setup_kernel(const sc_cuda_frame_consts *__restrict__ fc, uint32_t li,
                                       sc_cuda_shadow_light *L, sc_cuda_globals *g)
{
    sc_shadow_grid grid;
    sh_grid_init(fc, li, &grid);
    sc_shadow_bounds b;
    sc_shadow_bounds_clear(&b);
    uint32_t views = 0;
    for (int v = 0; v < SH_VIEWS; ++v) {
        const uint32_t *x = L->bounds[v];
        b.count[v] = x[7];
        if (!x[7]) continue;
        b.u0[v] = sh_unord(~x[0]); b.u1[v] = sh_unord(x[1]);
        b.v0[v] = sh_unord(~x[2]); b.v1[v] = sh_unord(x[3]);
        b.w0[v] = sh_unord(~x[4]); b.w1[v] = sh_unord(x[5]);
        b.ext[v] = sh_unord(x[6]);
        for (int k = 0; k < 3; ++k) {
            b.box0[k][v] = sh_unord(~x[8 + 2 * k]);
            b.box1[k][v] = sh_unord(x[9 + 2 * k]);
        }
        ++views;
    }
    sc_shadow_grid_fit(&grid, &b);
    L->grid = grid;
    g->light_views += views;
    g->shadow_lights += 1;
}

/* 3. Each pixel's light tile (key; the sentinel bucket when it is no receiver) and its index (value);
 * per light tile the depth of its farthest receiver (tile_wmax, an order-preserving integer). */
__global__ void __launch_bounds__(SH_PIXEL_THREADS)
sc_shadow_receiver_keys_kernel(const sc_cuda_shadow_light *__restrict__ L, const float4 *org, uint32_t *keys,
                               uint32_t *values, uint32_t *tile_wmax, uint32_t pixels)
{
    __shared__ sc_shadow_grid s_grid;
    sh_load_grid(&L->grid, &s_grid);
    const sc_shadow_grid *grid = &s_grid;
    const uint32_t px = blockIdx.x * blockDim.x + threadIdx.x;
    if (px >= pixels) return;
    uint32_t key = (1u << grid->tile_bits) - 1u;
    if (keys[px] != SH_NO_VIEW) {
        const float4 o = org[px];
        const float p[3] = {o.x, o.y, o.z};
        sc_shadow_receiver r;
        if (sc_shadow_receiver_of(grid, p, &r)) {
            key = sc_shadow_tile_of(grid, &r);
            atomicMax(&tile_wmax[key], sh_ord(r.w));
        }
    }
    keys[px] = key;
    values[px] = px;
}

/* Visits the references of triangle t: fn(tile, slab) for each tile of its spans that holds a receiver
 * it may block (its key not beyond the tile's farthest receiver, tile_wmax: 0 for a tile without
 * receivers, which decodes to NaN), views in order, rows then columns (the CPU's order; the order does
 * not matter). */
template <typename F>
__device__ static inline void sh_visit_caster(const sc_shadow_grid &grid, const uint32_t *tile_wmax, const float *pos,
                                              const uint32_t *idx, uint32_t t, F fn)
{
    const float *a = sh_vertex(pos, idx, t, 0), *b = sh_vertex(pos, idx, t, 1), *c = sh_vertex(pos, idx, t, 2);
    for (int k = 0; k < 3; ++k)
        if (!isfinite(a[k]) || !isfinite(b[k]) || !isfinite(c[k])) return;
    const uint32_t G = grid.grid;
    for (uint32_t view = 0; view < SH_VIEWS; ++view) {
        sc_shadow_image im;
        sc_shadow_span s;
        if (!sc_shadow_caster_image(&grid, view, a, b, c, &im)) continue;
        if (!sc_shadow_span_of(&grid, &grid.views[view], &im, &s)) continue;
        const uint32_t slab = sc_shadow_slab_of(&grid, &grid.views[view], im.key);
        for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
            for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx) {
                const uint32_t tile = view * G * G + ty * G + tx;
                if (im.key <= sh_unord(tile_wmax[tile])) fn(tile, slab);
            }
    }
}

/* 4. Caster references of every triangle, appended per block; none written past the capacity. */
__global__ void __launch_bounds__(SH_EMIT)
sc_shadow_emit_kernel(sc_cuda_shadow_light *L, const float *pos, const uint32_t *idx, uint32_t num_triangles,
                      const uint32_t *tile_wmax, uint32_t *keys, uint32_t *values, size_t capacity)
{
    typedef cub::BlockScan<uint32_t, SH_EMIT> scan_t;
    __shared__ typename scan_t::TempStorage temp;
    __shared__ unsigned long long s_base;
    __shared__ sc_shadow_grid grid;
    sh_load_grid(&L->grid, &grid);
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t count = 0;
    if (t < num_triangles) sh_visit_caster(grid, tile_wmax, pos, idx, t, [&](uint32_t, uint32_t) { ++count; });
    uint32_t excl, total;
    scan_t(temp).ExclusiveSum(count, excl, total);
    if (threadIdx.x == 0) s_base = total ? atomicAdd(&L->cursor, (unsigned long long)total) : 0ull;
    __syncthreads();
    const unsigned long long base = s_base;
    if (count == 0 || base + total > capacity) return; /* an overflow: finalize sees it */
    size_t at = (size_t)base + excl;
    const uint32_t bits = grid.tile_bits;
    sh_visit_caster(grid, tile_wmax, pos, idx, t, [&](uint32_t tile, uint32_t slab) {
        keys[at] = tile | slab << bits;
        values[at] = t;
        ++at;
    });
}

/* 5. The references against the capacity. */
__global__ void sc_shadow_finalize_kernel(sc_cuda_shadow_light *L, sc_cuda_globals *g, size_t capacity)
{
    const unsigned long long n = L->cursor;
    L->overflow = n > capacity;
    L->split_count = n > capacity ? 0u : (uint32_t)n;
    g->shadow_references += n;
    if (n > g->shadow_references_max) g->shadow_references_max = n;
    if (n > capacity) g->shadow_overflow = 1;
}

/* 7a. Each caster reference's image in its tile's view, in the (tile, slab) order of the cast (the
 * slab split moved the keys too: a reference's tile is its key's tile field). */
__global__ void __launch_bounds__(SH_THREADS)
sc_shadow_images_kernel(const sc_cuda_shadow_light *__restrict__ L, const uint32_t *keys, const uint32_t *ref_tris,
                        const float *pos, const uint32_t *idx, float4 *images)
{
    if (L->overflow) return;
    __shared__ sc_shadow_grid grid;
    sh_load_grid(&L->grid, &grid);
    const uint32_t n = L->split_count, tile_mask = (1u << grid.tile_bits) - 1u, GG = grid.grid * grid.grid;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const uint32_t tri = ref_tris[i];
        sc_shadow_image im;
        if (!sc_shadow_caster_image(&grid, (keys[i] & tile_mask) / GG, sh_vertex(pos, idx, tri, 0),
                                    sh_vertex(pos, idx, tri, 1), sh_vertex(pos, idx, tri, 2), &im))
            im.x0 = im.y0 = INFINITY; /* holds nothing (never the case for a binned caster) */
        images[i] = make_float4(im.x0, im.x1, im.y0, im.y1);
    }
}

/* 7b. The shadow rays: a thread per receiver, in light tile order (the receivers grouped by tile, so a
 * warp's rays read the same casters), slabs from the light on; a caster is tested only when the ray's
 * light coordinates lie in its image, and a ray stops at its first blocker or at the first slab
 * whose near bound lies beyond it. */
__global__ void __launch_bounds__(SH_THREADS, SC_CUDA_SHADOW_MIN_BLOCKS)
sc_shadow_cast_kernel(const sc_cuda_shadow_light *__restrict__ L, uint32_t li, sc_cuda_globals *g,
                      const uint32_t *recv_tile, const uint32_t *recv_px, const float4 *org, const sc_hit *hits,
                      const uint32_t *cells_all, const uint32_t *ref_tris, const float4 *images, const float *pos,
                      const uint32_t *idx, uint8_t *mask, uint32_t *tests_px, uint32_t pixels)
{
    if (L->overflow) return;
    __shared__ sc_shadow_grid grid;
    sh_load_grid(&L->grid, &grid);
    const uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long n_tests = 0, n_blocked = 0, n_early = 0;
    const uint32_t tile = r < pixels ? recv_tile[r] : grid.num_tiles;
    if (tile < grid.num_tiles) {
        const uint32_t S = grid.num_slabs;
        const sc_shadow_view *vw = &grid.views[tile / (grid.grid * grid.grid)];
        const uint32_t *cells = cells_all + ((size_t)tile << grid.slab_bits);
        uint32_t last_nonempty = 0;
        for (uint32_t k = 0; k < S; ++k)
            if (cells[k + 1] > cells[k]) last_nonempty = k + 1;
        const uint32_t px = recv_px[r];
        const float4 o = org[px];
        const float orig[3] = {o.x, o.y, o.z};
        sc_shadow_receiver rec;
        (void)sc_shadow_receiver_of(&grid, orig, &rec);
        float dir[3];
        const float tmax = sc_shadow_ray_dir(&grid.light, orig, dir);
        sc_ray ray;
        sc_ray_setup(&ray, orig, dir);
        const uint32_t hit_tri = hits[px].tri;
        const uint32_t end = sc_shadow_slab_end(&grid, vw, o.w);
        const uint32_t stop = cells[end < S ? end : S];
        uint32_t tests = 0, blocked = 0, i = cells[0];
        for (; i < stop; ++i) {
            const float4 im = images[i];
            if (!(rec.u >= im.x && rec.u <= im.y && rec.v >= im.z && rec.v <= im.w)) continue;
            const uint32_t tri = ref_tris[i];
            if (tri == hit_tri) continue;
            ++tests;
            float t, u, v;
            if (sc_intersect(&ray, sh_vertex(pos, idx, tri, 0), sh_vertex(pos, idx, tri, 1), sh_vertex(pos, idx, tri, 2),
                             0.0f, tmax, &t, &u, &v)) {
                blocked = 1;
                break;
            }
        }
        /* The slabs it read: up to the blocker's, or up to end. */
        uint32_t k_done = end < S ? end : S;
        if (blocked) {
            k_done = 1;
            while (k_done < S && cells[k_done] <= i) ++k_done;
        }
        if (blocked) mask[px] |= (uint8_t)(1u << li);
        tests_px[px] += tests;
        n_tests = tests;
        n_blocked = blocked;
        n_early = k_done < last_nonempty;
    }
    sh_add(&g->shadow_tests, n_tests);
    sh_add(&g->shadow_blocked, n_blocked);
    sh_add(&g->shadow_early, n_early);
}

/* 8. After an overflow: a warp per triangle tests the receivers of every tile it covers directly. */
__global__ void __launch_bounds__(256)
sc_shadow_fallback_kernel(const sc_cuda_shadow_light *__restrict__ L, uint32_t li, sc_cuda_globals *g,
                          const uint32_t *recv_off, const uint32_t *tile_wmax, const uint32_t *recv_px, const float4 *org,
                          const sc_hit *hits, const float *pos, const uint32_t *idx, uint32_t num_triangles,
                          uint32_t *mask_words, uint32_t *tests_px)
{
    if (!L->overflow) return;
    __shared__ sc_shadow_grid grid;
    sh_load_grid(&L->grid, &grid);
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t warps = gridDim.x * (blockDim.x / 32);
    unsigned long long n_tests = 0, n_blocked = 0;
    for (uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) / 32; t < num_triangles; t += warps) {
        const float *a = sh_vertex(pos, idx, t, 0), *b = sh_vertex(pos, idx, t, 1), *c = sh_vertex(pos, idx, t, 2);
        sh_visit_caster(grid, tile_wmax, pos, idx, t, [&](uint32_t tile, uint32_t) {
            sc_shadow_image im;
            if (!sc_shadow_caster_image(&grid, tile / (grid.grid * grid.grid), a, b, c, &im)) return;
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

/* The receivers (pixel keys and indices) by light tile: unstable, every pixel (non-receivers in the
 * sentinel bucket). */
static void receiver_split_desc(const sc_cuda_state *st, const sc_shadow_grid_shape *shape, size_t pixels,
                                split_desc *d)
{
    pairs_split_desc(pixels, st->recv_keys[0], st->recv_values[0], st->recv_keys[1], st->recv_values[1], 0,
                     shape->tile_bits, st->recv_offsets, NULL, d);
    d->unstable = 1;
}

/* The casters by light tile: unstable, over the references light li appended. */
static void caster_tile_split_desc(const sc_cuda_state *st, const sc_shadow_grid_shape *shape, uint32_t li,
                                   split_desc *d)
{
    pairs_split_desc(st->ref_capacity, st->ref_keys[0], st->ref_values[0], st->ref_keys[1], st->ref_values[1], 0,
                     shape->tile_bits, st->shadow_tile_offsets, &st->shadow_lights_dev[li].split_count, d);
    d->unstable = 1;
}

/* Each tile's casters by slab (segmented, stable); the keys move too: the images kernel reads each
 * reference's tile. */
static void caster_slab_split_desc(const sc_cuda_state *st, const sc_shadow_grid_shape *shape, uint32_t li,
                                   split_desc *d)
{
    pairs_split_desc(st->ref_capacity, st->ref_keys[1], st->ref_values[1], st->ref_keys[0], st->ref_values[0],
                     shape->tile_bits, shape->slab_bits, st->shadow_cells, &st->shadow_lights_dev[li].split_count, d);
    d->segment_offsets = st->shadow_tile_offsets;
    d->num_segments = shape->num_tiles;
}

void sc_cuda_shadow_shape(const sc_cuda_state *st, sc_shadow_grid_shape *shape)
{
    const uint32_t G = sc_shadow_grid_size(st->num_triangles);
    shape->num_tiles = SC_SHADOW_MAX_VIEWS * G * G;
    shape->tile_bits = 0;
    while ((1u << shape->tile_bits) <= shape->num_tiles) ++shape->tile_bits;
    shape->slab_bits = 0;
    while ((1u << shape->slab_bits) < SC_SHADOW_SLABS) ++shape->slab_bits;
}

sc_status sc_cuda_shadow_temp_bytes(const sc_cuda_state *st, size_t pixels, size_t *bytes)
{
    *bytes = 0;
    if (!st->recv_keys[0] || st->ref_capacity == 0) return SC_OK;
    sc_shadow_grid_shape shape;
    sc_cuda_shadow_shape(st, &shape);
    split_desc d;
    size_t a = 0, b = 0, c = 0;
    receiver_split_desc(st, &shape, pixels, &d);
    SC_TRY(split_multisplit(NULL, &a, &d, NULL));
    caster_tile_split_desc(st, &shape, 0, &d);
    SC_TRY(split_multisplit(NULL, &b, &d, NULL));
    caster_slab_split_desc(st, &shape, 0, &d);
    SC_TRY(split_segmented(NULL, &c, &d, NULL));
    *bytes = a > b ? a : b;
    if (c > *bytes) *bytes = c;
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
    int marks = 0;
    if (st->shadow_mask) { /* no shadows this frame: no bit of an earlier one stays */
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_mask, 0, pixels, s));
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_tests, 0, (size_t)pixels * sizeof(uint32_t), s));
    }
    if (light_mask) {
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_tests, 0, (size_t)pixels * sizeof(uint32_t), s));
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_lights_dev, 0, SC_MAX_LIGHTS * sizeof(sc_cuda_shadow_light), s));
    }
    for (uint32_t li = 0; li < SC_MAX_LIGHTS; ++li) {
        if (!(light_mask >> li & 1u)) continue;
        sc_cuda_shadow_light *L = &st->shadow_lights_dev[li];
        split_desc d;
        size_t bytes = st->shadow_temp_bytes;
        SC_CUDA_CHECK(cudaMemsetAsync(st->shadow_tile_wmax, 0, (size_t)shape.num_tiles * sizeof(uint32_t), s));
        sc_shadow_receivers_kernel<<<pix_blocks, SH_PIXEL_THREADS, 0, s>>>(
            st->consts, li, L, st->globals, st->hits, st->positions, st->indices, (float4 *)st->shadow_org,
            st->recv_keys[0], pixels);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_receivers_kernel");
        sc_shadow_setup_kernel<<<1, 1, 0, s>>>(st->consts, li, L, st->globals);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_setup_kernel");
        sc_shadow_receiver_keys_kernel<<<pix_blocks, SH_PIXEL_THREADS, 0, s>>>(
            L, (const float4 *)st->shadow_org, st->recv_keys[0], st->recv_values[0], st->shadow_tile_wmax, pixels);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_receiver_keys_kernel");
        receiver_split_desc(st, &shape, pixels, &d);
        SC_TRY(split_multisplit(st->shadow_temp, &bytes, &d, s));
        if (marks == 0) { SC_TRY(mark(mark_ctx)); ++marks; }

        if (p->num_triangles) {
            sc_shadow_emit_kernel<<<(p->num_triangles + SH_EMIT - 1) / SH_EMIT, SH_EMIT, 0, s>>>(
                L, st->positions, st->indices, p->num_triangles, st->shadow_tile_wmax, st->ref_keys[0], st->ref_values[0],
                st->ref_capacity);
            SC_CUDA_CHECK_LAUNCH("sc_shadow_emit_kernel");
        }
        sc_shadow_finalize_kernel<<<1, 1, 0, s>>>(L, st->globals, st->ref_capacity);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_finalize_kernel");
        if (marks == 1) { SC_TRY(mark(mark_ctx)); ++marks; }

        bytes = st->shadow_temp_bytes;
        caster_tile_split_desc(st, &shape, li, &d);
        SC_TRY(split_multisplit(st->shadow_temp, &bytes, &d, s));
        bytes = st->shadow_temp_bytes;
        caster_slab_split_desc(st, &shape, li, &d);
        SC_TRY(split_segmented(st->shadow_temp, &bytes, &d, s));
        if (marks == 2) { SC_TRY(mark(mark_ctx)); ++marks; }

        sc_shadow_images_kernel<<<st->shadow_fallback_blocks, SH_THREADS, 0, s>>>(
            L, st->ref_keys[0], st->ref_values[0], st->positions, st->indices, (float4 *)st->shadow_images);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_images_kernel");
        sc_shadow_cast_kernel<<<(pixels + SH_THREADS - 1) / SH_THREADS, SH_THREADS, 0, s>>>(
            L, li, st->globals, st->recv_keys[1], st->recv_values[1], (const float4 *)st->shadow_org, st->hits,
            st->shadow_cells, st->ref_values[0], (const float4 *)st->shadow_images, st->positions, st->indices,
            st->shadow_mask, st->shadow_tests, pixels);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_cast_kernel");
        sc_shadow_fallback_kernel<<<st->shadow_fallback_blocks, 256, 0, s>>>(
            L, li, st->globals, st->recv_offsets, st->shadow_tile_wmax, st->recv_values[1], (const float4 *)st->shadow_org,
            st->hits, st->positions, st->indices, p->num_triangles, (uint32_t *)st->shadow_mask, st->shadow_tests);
        SC_CUDA_CHECK_LAUNCH("sc_shadow_fallback_kernel");
    }
    while (marks < 3) { SC_TRY(mark(mark_ctx)); ++marks; }
    return SC_OK;
}
