/* raycast_cuda.cu - the ray cast on the GPU, slabs front to back, with the CPU backend's rules
 * (raycast_cpu.c): after slab k a ray is done when its nearest hit is below the near bound of slab
 * k+1; done rays test nothing more; the tile stops when all its rays are done; ties on equal depth
 * go to the lower triangle id; ray-triangle tests are counted exactly as the CPU counts them.
 *
 * Tiles of at most 64 pixels (the default 8x8): one block of SC_CUDA_RAYCAST_WARPS warps per tile.
 * Every warp holds all the tile's rays (two per lane) and tests its own share of each slab's
 * references, so a heavy tile is spread over several warps. A warp stages its share in shared
 * memory, one reference per lane: triangle id, its indices, its vertices minus the eye (the first
 * step of the watertight test, rounded the same way), permuted for the tile's ray axes when all its
 * rays share them. Each warp keeps its own nearest hit per ray; at a slab boundary the warps
 * exchange their nearest depths (one __syncthreads), so every warp takes the same early-exit
 * decision, and at the end the per-warp hits are reduced in (depth, id) order, which is the result
 * of the CPU's sequential loop. Barycentrics are divided out once, for the winning hit.
 *
 * Larger tiles: one block per tile, one thread per ray, every thread testing every reference.
 * Counters: tests counted from slab sizes with one atomic per tile (warps kernel), or per test with
 * one atomic per warp (block kernel). */
#include <math.h>

#include "backend_cuda.h"
#include "intersect.h"
#include "render_tuning.h"
#include "sc_report.h"

/* Sum of v over the `lanes` first lanes of the warp (lanes 1..32), valid in lane 0. */
__device__ static inline unsigned long long warp_sum_u64(unsigned long long v, uint32_t lanes)
{
    const unsigned mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1u);
    const uint32_t lane = threadIdx.x & 31;
    for (uint32_t o = 16; o > 0; o >>= 1) {
        unsigned long long w = __shfl_down_sync(mask, v, o);
        if (lane + o < lanes) v += w;
    }
    return v;
}

template <int MAX_THREADS>
__global__ void __launch_bounds__(MAX_THREADS)
sc_raycast_block_kernel(sc_frame_params p, const sc_cuda_globals *g_in, sc_cuda_globals *g, const uint32_t *cell_offsets,
                  const uint32_t *ref_values, const uint32_t *idx, const float *pos, sc_hit *hits,
                  uint32_t *tests_out)
{
    __shared__ sc_cuda_tri batch[MAX_THREADS];
    if (g_in->overflow) return;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x;
    const uint32_t tid = threadIdx.x, nthreads = blockDim.x;
    const uint32_t x = (tile % p.tiles_x) * p.tile_size + tid % p.tile_size;
    const uint32_t y = (tile / p.tiles_x) * p.tile_size + tid / p.tile_size;
    const int valid = x < p.width && y < p.height;

    sc_ray ray;
    if (valid) {
        float dir[3];
        sc_pixel_ray_dir(&p, x, y, dir);
        sc_ray_setup(&ray, p.eye, dir);
    }
    float best_t = INFINITY, best_u = 0.0f, best_v = 0.0f;
    uint32_t best_tri = SC_NO_HIT, tests = 0;
    int done = !valid;

    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_end = cells[p.num_slabs];
    int exited = 0;
    for (uint32_t k = 0; k < p.num_slabs; ++k) {
        const uint32_t begin = cells[k], end = cells[k + 1];
        if (__syncthreads_and(done)) {
            exited = tile_end > begin;
            break;
        }
        for (uint32_t b = begin; b < end; b += nthreads) {
            __syncthreads(); /* the previous batch is consumed */
            if (b + tid < end) {
                const uint32_t tri = ref_values[b + tid];
                const uint32_t *f = idx + 3 * (size_t)tri;
                sc_cuda_tri *o = &batch[tid];
                const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
                for (int i = 0; i < 3; ++i) {
                    o->a[i] = va[i];
                    o->b[i] = vb[i];
                    o->c[i] = vc[i];
                }
                o->id = tri;
            }
            __syncthreads();
            if (done) continue;
            const uint32_t m = end - b < nthreads ? end - b : nthreads;
            for (uint32_t j = 0; j < m; ++j) {
                const sc_cuda_tri *q = &batch[j];
                float t, u, v;
                ++tests;
                if (sc_intersect(&ray, q->a, q->b, q->c, p.near_plane, p.far_plane, &t, &u, &v) &&
                    sc_hit_better(t, q->id, best_t, best_tri)) {
                    best_t = t;
                    best_u = u;
                    best_v = v;
                    best_tri = q->id;
                }
            }
        }
        if (!done && best_t < sc_slab_bound(&p, k + 1)) done = 1;
    }

    if (valid) {
        const size_t px = (size_t)y * p.width + x;
        sc_hit h;
        h.tri = best_tri;
        h.depth = best_t;
        h.u = best_u;
        h.v = best_v;
        hits[px] = h;
        tests_out[px] = tests;
    }
    const uint32_t warp_base = tid & ~31u;
    const uint32_t lanes = nthreads - warp_base < 32 ? nthreads - warp_base : 32;
    unsigned long long sum_tests = warp_sum_u64(tests, lanes);
    unsigned long long sum_hits = warp_sum_u64(valid && best_tri != SC_NO_HIT ? 1ull : 0ull, lanes);
    if ((tid & 31) == 0) {
        if (sum_tests) atomicAdd(&g->tests, sum_tests);
        if (sum_hits) atomicAdd(&g->hit_pixels, sum_hits);
    }
    if (tid == 0 && exited) atomicAdd(&g->exited, 1ull);
}

/* ---- Tiles of at most 64 pixels: a block of warps per tile ---- */

enum {
    RC_RAYS = 64,           /* rays per tile (at most) */
    RC_PERM_NONE = 0xFF     /* perm code of a pixel outside the target */
};

/* A prepared ray without its origin (the eye): shear constants and axes kx | ky << 2 | kz << 4. */
typedef struct rc_ray {
    float sx, sy, sz;
    uint32_t perm;
} rc_ray;

/* A warp's nearest hit of one ray so far; u = V / det and v = W / det are divided out at the end. */
typedef struct rc_best {
    float t, V, W, det;
    uint32_t tri;
} rc_best;

__device__ static inline float rc_pick(uint32_t k, float v0, float v1, float v2)
{
    return k == 0 ? v0 : (k == 1 ? v1 : v2);
}

/* A hit that passed the sign test updates b when it is better (sc_hit_better); the parts of the
 * test are intersect.h's, composed as sc_intersect composes them, so the bits are the CPU's. */
__device__ static __forceinline__ void rc_hit(const rc_ray &r, const sc_tri_axes &q, const sc_edges &e, uint32_t id,
                                              float tmin, float tmax, rc_best &b)
{
    float t, det;
    if (!sc_edges_depth(r.sz, &q, &e, tmin, tmax, &t, &det)) return;
    if (sc_hit_better(t, id, b.t, b.tri)) {
        b.t = t;
        b.V = e.V;
        b.W = e.W;
        b.det = det;
        b.tri = id;
    }
}

/* Tests the n (<= 32) staged triangles of warp buffer q against the lane's two rays (only live
 * rays take hits). UNIFORM: the records are permuted for the tile's axes (all rays share them);
 * else each ray picks its own. */
template <bool UNIFORM>
__device__ static __forceinline__ void rc_test_staged(const float4 (*q)[3], uint32_t n, const rc_ray (&ray)[2],
                                                      const bool (&live)[2], float tmin, float tmax,
                                                      rc_best (&best)[2])
{
    for (uint32_t j = 0; j < n; ++j) {
        sc_tri_axes tri[2];
        uint32_t id;
        if (UNIFORM) {
            const float4 q0 = q[j][0], q1 = q[j][1], q2 = q[j][2];
            id = __float_as_uint(q2.y);
            tri[0] = sc_tri_axes{q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w, q2.x};
            tri[1] = tri[0];
        } else {
            const float *f = (const float *)q[j];
            id = __float_as_uint(f[9]);
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                /* A pixel outside the target (never live) reads indices 3, 6, 9: inside the record. */
                const uint32_t kx = ray[r].perm & 3u, ky = (ray[r].perm >> 2) & 3u, kz = (ray[r].perm >> 4) & 3u;
                tri[r] = sc_tri_axes{f[kx], f[ky], f[kz], f[3 + kx], f[3 + ky], f[3 + kz], f[6 + kx], f[6 + ky], f[6 + kz]};
            }
        }
        sc_edges e[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) sc_edges_compute(ray[r].sx, ray[r].sy, &tri[r], &e[r]);
        if (sc_edges_zero(&e[0]) || sc_edges_zero(&e[1])) {
#pragma unroll
            for (int r = 0; r < 2; ++r)
                if (sc_edges_zero(&e[r])) sc_edges_exact(&e[r]);
        }
#pragma unroll
        for (int r = 0; r < 2; ++r)
            if (live[r] && sc_edges_inside(&e[r])) rc_hit(ray[r], tri[r], e[r], id, tmin, tmax, best[r]);
    }
}

template <int WARPS>
__global__ void __launch_bounds__(WARPS * 32)
sc_raycast_warps_kernel(sc_frame_params p, const sc_cuda_globals *g_in, sc_cuda_globals *g,
                        const uint32_t *cell_offsets, const uint32_t *ref_values, const uint32_t *idx,
                        const float *pos, sc_hit *hits, uint32_t *tests_out)
{
    /* Per warp: 32 staged triangles of 12 words (a - eye, b - eye, c - eye, id, 2 unused); reused
     * at the end for the warp's nearest hits (5 words x 64 rays). */
    __shared__ float4 s_tri[WARPS][32][3];
    __shared__ float s_near[2][WARPS][RC_RAYS]; /* nearest depth per warp and ray, by slab parity */
    __shared__ rc_ray s_ray[RC_RAYS];
    __shared__ uint32_t s_tests[RC_RAYS];
    static_assert(sizeof(s_tri[0]) >= 5 * RC_RAYS * sizeof(float), "hit exchange fits the staging buffer");

    if (g_in->overflow) return;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t ts = p.tile_size, npix = ts * ts;
    const uint32_t x0 = (tile % p.tiles_x) * ts, y0 = (tile / p.tiles_x) * ts;
    const uint32_t S = p.num_slabs;
    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_begin = cells[0], tile_end = cells[S];

    if (tile_begin == tile_end) { /* no references: no hits, no tests */
        if (tid < npix) {
            const uint32_t x = x0 + tid % ts, y = y0 + tid / ts;
            if (x < p.width && y < p.height) {
                const size_t px = (size_t)y * p.width + x;
                hits[px] = sc_hit{SC_NO_HIT, INFINITY, 0.0f, 0.0f};
                tests_out[px] = 0;
            }
        }
        return;
    }

    /* The tile's rays, prepared once (sc_ray_setup) and shared by the warps. */
    if (tid < RC_RAYS) {
        rc_ray r = {0.0f, 0.0f, 0.0f, RC_PERM_NONE};
        const uint32_t x = x0 + tid % ts, y = y0 + tid / ts;
        if (tid < npix && x < p.width && y < p.height) {
            float dir[3];
            sc_ray ray;
            sc_pixel_ray_dir(&p, x, y, dir);
            sc_ray_setup(&ray, p.eye, dir);
            r.sx = ray.sx;
            r.sy = ray.sy;
            r.sz = ray.sz;
            r.perm = (uint32_t)ray.kx | (uint32_t)ray.ky << 2 | (uint32_t)ray.kz << 4;
        }
        s_ray[tid] = r;
    }
    __syncthreads();
    rc_ray ray[2];
    bool done[2];
    rc_best best[2];
    uint32_t tests[2] = {0, 0};
    const uint32_t perm0 = s_ray[0].perm; /* pixel (x0, y0) is always inside the target */
    bool other_axes = false;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        ray[r] = s_ray[lane + 32 * r];
        done[r] = ray[r].perm == RC_PERM_NONE;
        other_axes |= !done[r] && ray[r].perm != perm0;
        best[r] = rc_best{INFINITY, 0.0f, 0.0f, 0.0f, SC_NO_HIT};
    }
    const bool uniform = !__syncthreads_or(other_axes);
    const uint32_t kx0 = perm0 & 3u, ky0 = (perm0 >> 2) & 3u, kz0 = (perm0 >> 4) & 3u;

    float4(*const q)[3] = s_tri[warp];
    const float tmin = p.near_plane, tmax = p.far_plane;
    bool started = false, exited = false;
    uint32_t parity = 0;
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
            if (started) {
                /* Before slab k: done when the nearest hit over all warps is below its near bound
                 * (the bounds grow with k, so this also covers the empty slabs skipped since). */
#pragma unroll
                for (int r = 0; r < 2; ++r) s_near[parity][warp][lane + 32 * r] = best[r].t;
                __syncthreads();
                const float bound = sc_slab_bound(&p, k);
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    float near_t = s_near[parity][0][lane + 32 * r];
                    for (int w = 1; w < WARPS; ++w) near_t = fminf(near_t, s_near[parity][w][lane + 32 * r]);
                    if (!done[r] && near_t < bound) done[r] = true;
                }
                parity ^= 1u;
                if (__all_sync(0xFFFFFFFFu, done[0] && done[1])) { /* the same answer in every warp */
                    exited = true;
                    break;
                }
            }
            started = true;
#pragma unroll
            for (int r = 0; r < 2; ++r)
                if (!done[r]) tests[r] += end - begin;
            for (uint32_t b = begin; b < end; b += WARPS * 32) {
                const uint32_t m = end - b < WARPS * 32 ? end - b : WARPS * 32;
                const uint32_t share = (m + WARPS - 1) / WARPS;
                const uint32_t first = b + warp * share;
                const uint32_t n = m > warp * share ? (m - warp * share < share ? m - warp * share : share) : 0u;
                if (n == 0) continue;
                __syncwarp(); /* the previous triangles are consumed */
                if (lane < n) {
                    const uint32_t tri = ref_values[first + lane];
                    const uint32_t *f = idx + 3 * (size_t)tri;
                    const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
                    float a[3], bb[3], c[3];
#pragma unroll
                    for (int i = 0; i < 3; ++i) {
                        a[i] = SC_FSUB(va[i], p.eye[i]);
                        bb[i] = SC_FSUB(vb[i], p.eye[i]);
                        c[i] = SC_FSUB(vc[i], p.eye[i]);
                    }
                    if (uniform) {
                        q[lane][0] = make_float4(rc_pick(kx0, a[0], a[1], a[2]), rc_pick(ky0, a[0], a[1], a[2]),
                                                 rc_pick(kz0, a[0], a[1], a[2]), rc_pick(kx0, bb[0], bb[1], bb[2]));
                        q[lane][1] = make_float4(rc_pick(ky0, bb[0], bb[1], bb[2]), rc_pick(kz0, bb[0], bb[1], bb[2]),
                                                 rc_pick(kx0, c[0], c[1], c[2]), rc_pick(ky0, c[0], c[1], c[2]));
                        q[lane][2] = make_float4(rc_pick(kz0, c[0], c[1], c[2]), __uint_as_float(tri), 0.0f, 0.0f);
                    } else {
                        q[lane][0] = make_float4(a[0], a[1], a[2], bb[0]);
                        q[lane][1] = make_float4(bb[1], bb[2], c[0], c[1]);
                        q[lane][2] = make_float4(c[2], __uint_as_float(tri), 0.0f, 0.0f);
                    }
                }
                __syncwarp();
                const bool live[2] = {!done[0], !done[1]};
                if (uniform)
                    rc_test_staged<true>(q, n, ray, live, tmin, tmax, best);
                else
                    rc_test_staged<false>(q, n, ray, live, tmin, tmax, best);
            }
        }
    }

    /* The warps' nearest hits, reduced per ray in (depth, id) order. */
    __syncwarp();
    float *mine = (float *)q;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const uint32_t i = lane + 32 * r;
        mine[i] = best[r].t;
        mine[RC_RAYS + i] = __uint_as_float(best[r].tri);
        mine[2 * RC_RAYS + i] = best[r].V;
        mine[3 * RC_RAYS + i] = best[r].W;
        mine[4 * RC_RAYS + i] = best[r].det;
        if (warp == 0) s_tests[i] = tests[r];
    }
    if (warp == 0) {
        unsigned long long sum = warp_sum_u64((unsigned long long)tests[0] + tests[1], 32);
        if (lane == 0) {
            if (sum) atomicAdd(&g->tests, sum);
            if (exited) atomicAdd(&g->exited, 1ull);
        }
    }
    __syncthreads();
    if (tid < RC_RAYS) {
        const uint32_t x = x0 + tid % ts, y = y0 + tid / ts;
        const bool valid = tid < npix && x < p.width && y < p.height;
        float t = INFINITY, u = 0.0f, v = 0.0f;
        uint32_t tri = SC_NO_HIT;
        int from = -1;
        for (int w = 0; w < WARPS; ++w) {
            const float *o = (const float *)s_tri[w];
            const float wt = o[tid];
            const uint32_t wtri = __float_as_uint(o[RC_RAYS + tid]);
            if (wtri != SC_NO_HIT && sc_hit_better(wt, wtri, t, tri)) {
                t = wt;
                tri = wtri;
                from = w;
            }
        }
        if (from >= 0) {
            const float *o = (const float *)s_tri[from];
            u = SC_FDIV(o[2 * RC_RAYS + tid], o[4 * RC_RAYS + tid]);
            v = SC_FDIV(o[3 * RC_RAYS + tid], o[4 * RC_RAYS + tid]);
        }
        if (valid) {
            const size_t px = (size_t)y * p.width + x;
            hits[px] = sc_hit{tri, t, u, v};
            tests_out[px] = s_tests[tid];
        }
        const unsigned hit_mask = __ballot_sync(0xFFFFFFFFu, valid && tri != SC_NO_HIT);
        if ((tid & 31u) == 0 && hit_mask) atomicAdd(&g->hit_pixels, (unsigned long long)__popc(hit_mask));
    }
}

sc_status sc_cuda_raycast(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    const uint32_t threads = p->tile_size * p->tile_size;
    const uint32_t *values = st->ref_values[st->final_refs];
    if (threads <= RC_RAYS) {
        sc_raycast_warps_kernel<SC_CUDA_RAYCAST_WARPS><<<p->num_tiles, SC_CUDA_RAYCAST_WARPS * 32, 0, s>>>(
            *p, st->globals, st->globals, st->cell_offsets, values, st->indices, st->positions, st->hits, st->tests);
        SC_CUDA_CHECK_LAUNCH("sc_raycast_warps_kernel");
    } else if (threads <= 256) {
        sc_raycast_block_kernel<256><<<p->num_tiles, threads, 0, s>>>(*p, st->globals, st->globals, st->cell_offsets,
                                                                       values, st->indices, st->positions, st->hits,
                                                                       st->tests);
        SC_CUDA_CHECK_LAUNCH("sc_raycast_block_kernel");
    } else {
        sc_raycast_block_kernel<1024><<<p->num_tiles, threads, 0, s>>>(*p, st->globals, st->globals, st->cell_offsets,
                                                                        values, st->indices, st->positions, st->hits,
                                                                        st->tests);
        SC_CUDA_CHECK_LAUNCH("sc_raycast_block_kernel");
    }
    return SC_OK;
}
