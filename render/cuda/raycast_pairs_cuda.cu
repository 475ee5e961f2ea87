/* raycast_pairs_cuda.cu - the ray cast of tiles of at most 64 pixels (the default 8x8) by
 * (triangle, pixel) pairs: the rules of raycast.h, the result bit for bit of the ray-per-lane kernel
 * (raycast_cuda.cu) and of the CPU backend, with only the tests that can hit.
 *
 * A triangle of the dragon at 1024x1024 covers a few of its tile's 64 pixel centres; a kernel whose
 * lane holds rays tests every reference against every ray of the tile. Here a warp stages up to 32
 * references of a slab (vertices minus the eye, permuted for the tile's ray axes when all its rays
 * share them, as raycast_cuda.cu stages them) together with the pixels whose centres each may cover:
 * classify.h's pixel bounds (sc_tri_pixel_box: the projected bounds widened by the binning margin, the
 * bounds the CPU backend's ray cast uses), clipped to the tile. The warp then takes the staged pairs (reference,
 * pixel of its box) 32 at a time, a lane a pair, and a hit lowers the pixel's key in shared memory:
 * depth bits above triangle id, 64 bits, whose minimum is the nearer hit and at equal depth the lower
 * id (sc_hit_better; depths are positive, so their bits order as the floats). The barycentrics of
 * the winner are computed once at the end by the same test on the same operands (the same bits).
 *
 * Slabs front to back: before each non-empty slab after the first, a ray whose key is below the
 * slab's near bound is done (sc_ray_finished), done rays take no pairs, the tile stops when all its
 * rays are done. Tests are counted as the CPU counts them (every live ray counts every reference of
 * the slab), so the counters and the tests view are the other kernel's. */
#include <math.h>

#include "backend_cuda.h"
#include "classify.h"
#include "intersect.h"
#include "render_tuning.h"
#include "sc_cuda_arch.h"
#include "raycast_stage.cuh"
#include "sc_report.h"

enum {
    RP_WARPS = SC_CUDA_RAYCAST_PAIRS_WARPS,
    RP_RAYS = 64               /* rays of a tile of at most 64 pixels */
};
static_assert(SC_CUDA_RAYCAST_QUAD * SC_CUDA_RAYCAST_QUAD == RP_RAYS, "the tiles the warps kernel takes");

#define RP_KEY_NONE 0xFFFFFFFFFFFFFFFFull

/* Ray j (0..63) of a tile of edge ts: pixel (j % ts, j / ts) of the tile; false past its pixels. */
__device__ static inline bool rp_ray_pixel(uint32_t j, uint32_t ts, uint32_t &lx, uint32_t &ly)
{
    lx = j % ts;
    ly = j / ts;
    return j < ts * ts;
}

/* The watertight test of the staged triangle (UNIFORM: permuted for the tile's axes; else in world
 * axes, picked by the ray's own) against ray r; on a hit in [tmin, tmax] returns 1 with t and, when
 * asked, V, W and the determinant. The parts and their order are sc_intersect's. */
template <bool UNIFORM>
__device__ static __forceinline__ bool rp_test(const float *f, const rc_ray &r, float tmin, float tmax, float &t,
                                               float &V, float &W, float &det)
{
    sc_tri_axes q;
    if (UNIFORM) {
        q = sc_tri_axes{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]};
    } else {
        const uint32_t kx = r.perm & 3u, ky = (r.perm >> 2) & 3u, kz = (r.perm >> 4) & 3u;
        q = sc_tri_axes{f[kx], f[ky], f[kz], f[3 + kx], f[3 + ky], f[3 + kz], f[6 + kx], f[6 + ky], f[6 + kz]};
    }
    sc_edges e;
    sc_edges_compute(r.sx, r.sy, &q, &e);
    if (sc_edges_zero(&e)) sc_edges_exact(&e);
    if (!sc_edges_inside(&e)) return false;
    if (!sc_edges_depth(r.sz, &q, &e, tmin, tmax, &t, &det)) return false;
    V = e.V;
    W = e.W;
    return true;
}

/* A warp's staged pairs: lane takes pairs lane, lane + 32, ... of `total`; pair i belongs to the
 * staged triangle j with scan[j - 1] <= i < scan[j] (inclusive prefix sums of the box areas) and
 * is pixel i - scan[j - 1] of its box (row-major, box width in the record). */
template <bool UNIFORM>
__device__ static __forceinline__ void rp_test_pairs(const float4 (*q)[3], const uint32_t *scan, uint32_t nk,
                                                     uint32_t total, const rc_ray *s_ray, unsigned long long live,
                                                     uint32_t ts, float tmin, float tmax,
                                                     unsigned long long *s_key, uint32_t &performed)
{
    const uint32_t lane = threadIdx.x & 31u;
    for (uint32_t i = lane; i < total; i += 32) {
        /* The first staged triangle whose inclusive sum passes i. */
        uint32_t lo = 0, hi = nk - 1;
        while (lo < hi) {
            const uint32_t mid = (lo + hi) >> 1;
            if (scan[mid] > i) hi = mid;
            else lo = mid + 1;
        }
        const uint32_t before = lo ? scan[lo - 1] : 0u;
        const float *f = (const float *)q[lo];
        const uint32_t box = __float_as_uint(f[10]);
        const uint32_t bx = box & 0xFu, by = (box >> 4) & 0xFu, bw = (box >> 8) & 0xFu;
        const uint32_t li = i - before;
        const uint32_t pix = (by + li / bw) * ts + bx + li % bw;
        if (!((live >> pix) & 1ull)) continue;
        ++performed;
        const rc_ray r = s_ray[pix];
        float t, V, W, det;
        if (!rp_test<UNIFORM>(f, r, tmin, tmax, t, V, W, det)) continue;
        const unsigned long long key = (unsigned long long)__float_as_uint(t) << 32 | __float_as_uint(f[9]);
        atomicMin(&s_key[pix], key);
    }
}

template <int WARPS>
__global__ void __launch_bounds__(WARPS * 32, SC_MIN_BLOCKS(WARPS * 32, SC_CUDA_RAYCAST_PAIRS_MIN_BLOCKS))
sc_raycast_pairs_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g_in, sc_cuda_globals *g,
                        const uint32_t *cell_offsets, const uint32_t *ref_values, const uint32_t *idx,
                        const float *pos, sc_hit *hits, uint32_t *tests_out)
{
    /* Per warp: 32 staged triangles of 12 words (a - eye, b - eye, c - eye, id, box, unused) and the
     * inclusive sums of their boxes' areas. */
    __shared__ float4 s_tri[WARPS][32][3];
    __shared__ uint32_t s_scan[WARPS][32];
    __shared__ unsigned long long s_key[RP_RAYS];
    __shared__ rc_ray s_ray[RP_RAYS];
    __shared__ uint32_t s_tests[RP_RAYS];
    __shared__ uint32_t s_live[2];
    static_assert(WARPS * 32 >= RP_RAYS, "a thread per ray of the tile");

    if (g_in->overflow) return;
    sc_frame_params p = fc->p;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x;
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t ts = p.tile_size;
    const uint32_t x0 = (tile % p.tiles_x) * ts, y0 = (tile / p.tiles_x) * ts;
    const uint32_t S = p.num_slabs;
    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_begin = cells[0], tile_end = cells[S];

    if (tile_begin == tile_end) { /* no references: no hits, no tests */
        uint32_t lx, ly;
        if (tid < RP_RAYS && rp_ray_pixel(tid, ts, lx, ly)) {
            const uint32_t x = x0 + lx, y = y0 + ly;
            if (x < p.width && y < p.height) {
                const size_t px = (size_t)y * p.width + x;
                hits[px] = sc_hit{SC_NO_HIT, INFINITY, 0.0f, 0.0f};
                tests_out[px] = 0;
            }
        }
        return;
    }

    /* The tile's rays, prepared once (sc_ray_setup); the pixels outside the target are never live. */
    bool valid = false;
    if (tid < RP_RAYS) {
        rc_ray r = {0.0f, 0.0f, 0.0f, RC_PERM_NONE};
        uint32_t lx, ly;
        const bool in_tile = rp_ray_pixel(tid, ts, lx, ly);
        const uint32_t x = x0 + lx, y = y0 + ly;
        if (in_tile && x < p.width && y < p.height) {
            r = rc_prepare_ray(p, x, y);
            valid = true;
        }
        s_ray[tid] = r;
        s_key[tid] = RP_KEY_NONE;
        s_tests[tid] = 0;
    }
    __syncthreads();
    /* Ray 0 is pixel (x0, y0), inside the target: the tile's axes when all its rays share them. */
    const uint32_t perm0 = s_ray[0].perm;
    const bool uniform = !__syncthreads_or(valid && s_ray[tid].perm != perm0);
    const uint32_t kx0 = perm0 & 3u, ky0 = (perm0 >> 2) & 3u, kz0 = (perm0 >> 4) & 3u;

    float4(*const q)[3] = s_tri[warp];
    uint32_t *const scan = s_scan[warp];
    const float tmin = p.near_plane, tmax = p.far_plane;
    const int tx1 = (int)min(x0 + ts, p.width) - 1, ty1 = (int)min(y0 + ts, p.height) - 1;
    bool live_ray = valid, started = false, exited = false;
    uint32_t performed = 0; /* the pairs this thread tested */
    for (uint32_t k0 = 0; k0 < S && !exited; k0 += 32) {
        /* Slabs k0 .. k0 + 31: lane l holds slab k0 + l's references [cb, ce). */
        const uint32_t ks = k0 + lane;
        const uint32_t cb = ks < S ? cells[ks] : 0u, ce = ks < S ? cells[ks + 1] : 0u;
        uint32_t nonempty = __ballot_sync(0xFFFFFFFFu, ce > cb);
        while (nonempty) {
            const uint32_t l = (uint32_t)__ffs(nonempty) - 1u;
            nonempty &= nonempty - 1u;
            const uint32_t k = k0 + l;
            const uint32_t begin = __shfl_sync(0xFFFFFFFFu, cb, l), end = __shfl_sync(0xFFFFFFFFu, ce, l);
            /* Before slab k: a ray is done when its nearest hit is below the slab's near bound (the
             * bounds grow with k, so this covers the empty slabs skipped since); live rays count the
             * slab's references as tests. The barrier also ends the previous slab's pairs. */
            if (started) __syncthreads();
            if (tid < RP_RAYS) {
                if (started && live_ray) {
                    const float near_t = __uint_as_float((uint32_t)(s_key[tid] >> 32));
                    if (s_key[tid] != RP_KEY_NONE && near_t < sc_slab_bound(&p, k)) live_ray = false;
                }
                if (live_ray) s_tests[tid] += end - begin;
                const uint32_t bits = __ballot_sync(0xFFFFFFFFu, live_ray);
                if (lane == 0) s_live[warp] = bits;
            }
            started = true;
            if (!__syncthreads_or(live_ray)) { /* the same answer in every warp */
                exited = true;
                break;
            }
            const unsigned long long live = (unsigned long long)s_live[1] << 32 | s_live[0];
            for (uint32_t b = begin; b < end; b += WARPS * 32) {
                const uint32_t m = end - b < WARPS * 32 ? end - b : WARPS * 32;
                const uint32_t share = (m + WARPS - 1) / WARPS;
                const uint32_t first = b + warp * share;
                const uint32_t n = m > warp * share ? (m - warp * share < share ? m - warp * share : share) : 0u;
                if (n == 0) continue;
                __syncwarp(); /* the previous triangles are consumed */
                uint32_t tri = 0, area = 0, box = 0;
                float a[3], bb[3], c[3];
                if (lane < n) {
                    tri = ref_values[first + lane];
                    const uint32_t *f = idx + 3 * (size_t)tri;
                    const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
#pragma unroll
                    for (int i = 0; i < 3; ++i) {
                        a[i] = SC_FSUB(va[i], p.eye[i]);
                        bb[i] = SC_FSUB(vb[i], p.eye[i]);
                        c[i] = SC_FSUB(vc[i], p.eye[i]);
                    }
                    int bx0, by0, bx1, by1;
                    if (!sc_tri_pixel_box(&p, a, bb, c, &bx0, &by0, &bx1, &by1)) {
                        bx0 = (int)x0;
                        by0 = (int)y0;
                        bx1 = tx1;
                        by1 = ty1;
                    }
                    bx0 = max(bx0, (int)x0);
                    by0 = max(by0, (int)y0);
                    bx1 = min(bx1, tx1);
                    by1 = min(by1, ty1);
                    if (bx0 <= bx1 && by0 <= by1) {
                        const uint32_t lx0 = (uint32_t)bx0 - x0, ly0 = (uint32_t)by0 - y0;
                        const uint32_t w = (uint32_t)(bx1 - bx0) + 1u, h = (uint32_t)(by1 - by0) + 1u;
                        /* Skipped when no ray of its box is live. */
                        const unsigned long long row = ((1ull << w) - 1ull) << lx0;
                        unsigned long long cover = 0;
                        for (uint32_t y = 0; y < h; ++y) cover |= row << ((ly0 + y) * ts);
                        if (cover & live) {
                            area = w * h;
                            box = lx0 | ly0 << 4 | w << 8;
                        }
                    }
                }
                /* The triangles with pairs, compacted in reference order, with their areas' sums. */
                const uint32_t kept = __ballot_sync(0xFFFFFFFFu, area != 0);
                if (kept == 0) continue;
                const uint32_t slot = (uint32_t)__popc(kept & ((1u << lane) - 1u));
                uint32_t sum = area;
#pragma unroll
                for (uint32_t o = 1; o < 32; o <<= 1) {
                    const uint32_t v = __shfl_up_sync(0xFFFFFFFFu, sum, o);
                    if (lane >= o) sum += v;
                }
                const uint32_t total = __shfl_sync(0xFFFFFFFFu, sum, 31);
                if (area != 0) {
                    scan[slot] = sum;
                    rc_stage_record(q[slot], uniform, kx0, ky0, kz0, a, bb, c, tri, __uint_as_float(box));
                }
                __syncwarp();
                const uint32_t nk = (uint32_t)__popc(kept);
                if (uniform)
                    rp_test_pairs<true>(q, scan, nk, total, s_ray, live, ts, tmin, tmax, s_key, performed);
                else
                    rp_test_pairs<false>(q, scan, nk, total, s_ray, live, ts, tmin, tmax, s_key, performed);
            }
        }
    }

    __syncthreads(); /* every pair's key is in */
    {
        const unsigned long long sum = warp_sum_u64(performed, 32);
        if (lane == 0 && sum) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].performed, sum);
    }
    if (tid < RP_RAYS) {
        uint32_t lx, ly;
        rp_ray_pixel(tid, ts, lx, ly);
        const uint32_t x = x0 + lx, y = y0 + ly;
        const unsigned long long key = s_key[tid];
        uint32_t tri = SC_NO_HIT;
        float t = INFINITY, u = 0.0f, v = 0.0f;
        if (valid && key != RP_KEY_NONE) {
            /* The winner's barycentrics: its test again, on the operands the pair had. */
            tri = (uint32_t)key;
            const uint32_t *f = idx + 3 * (size_t)tri;
            const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
            float a[3], b[3], c[3];
#pragma unroll
            for (int i = 0; i < 3; ++i) {
                a[i] = SC_FSUB(va[i], p.eye[i]);
                b[i] = SC_FSUB(vb[i], p.eye[i]);
                c[i] = SC_FSUB(vc[i], p.eye[i]);
            }
            const rc_ray r = s_ray[tid];
            const uint32_t kx = r.perm & 3u, ky = (r.perm >> 2) & 3u, kz = (r.perm >> 4) & 3u;
            const float w[9] = {rc_pick(kx, a[0], a[1], a[2]), rc_pick(ky, a[0], a[1], a[2]), rc_pick(kz, a[0], a[1], a[2]),
                                rc_pick(kx, b[0], b[1], b[2]), rc_pick(ky, b[0], b[1], b[2]), rc_pick(kz, b[0], b[1], b[2]),
                                rc_pick(kx, c[0], c[1], c[2]), rc_pick(ky, c[0], c[1], c[2]), rc_pick(kz, c[0], c[1], c[2])};
            float V = 0.0f, W = 0.0f, det = 1.0f;
            rp_test<true>(w, r, tmin, tmax, t, V, W, det); /* w is in the ray's axes */
            t = __uint_as_float((uint32_t)(key >> 32));
            u = SC_FDIV(V, det);
            v = SC_FDIV(W, det);
        }
        if (valid) {
            const size_t px = (size_t)y * p.width + x;
            hits[px] = sc_hit{tri, t, u, v};
            tests_out[px] = s_tests[tid];
        }
        const unsigned hit_mask = __ballot_sync(0xFFFFFFFFu, tri != SC_NO_HIT);
        const unsigned long long sum = warp_sum_u64(s_tests[tid], 32);
        if (lane == 0) {
            sc_cuda_stripe *ctr = &g->stripes[blockIdx.x % SC_CUDA_STRIPES];
            if (hit_mask) atomicAdd(&ctr->hit_pixels, (unsigned long long)__popc(hit_mask));
            if (sum) atomicAdd(&ctr->tests, sum);
            if (tid == 0 && exited) atomicAdd(&ctr->exited, 1ull);
        }
    }
}

sc_status sc_cuda_raycast_pairs(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    const uint32_t *values = st->ref_values[0]; /* slab order (bin_cuda.cu) */
    sc_raycast_pairs_kernel<RP_WARPS><<<p->num_tiles, RP_WARPS * 32, 0, s>>>(
        st->consts, st->globals, st->globals, st->cell_offsets, values, st->indices, st->positions, st->hits, st->tests);
    SC_CUDA_CHECK_LAUNCH("sc_raycast_pairs_kernel");
    return SC_OK;
}
