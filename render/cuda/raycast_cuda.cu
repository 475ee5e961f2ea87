/* raycast_cuda.cu - the ray cast on the GPU, slabs front to back, with the rules of raycast.h that
 * the CPU backend follows too (raycast_cpu.c): after slab k a ray is done when its nearest hit is
 * below the near bound of slab k+1 (sc_ray_finished); done rays test nothing more; the tile stops
 * when all its rays are done; ties on equal depth go to the lower triangle id (sc_hit_better);
 * ray-triangle tests are counted exactly as the CPU counts them. The test itself is intersect.h's,
 * in its parts (sc_edges_*), so a warp can stage triangles already moved to the eye and permuted.
 * The early-exit comparison is written out where sc_ray_finished applies: called, it compiles to a
 * reordered (equally long) predicate sequence, and these tuned kernels are kept instruction for
 * instruction as measured.
 *
 * Tiles of at most 64 pixels (the default 8x8) take the kernel of raycast_pairs_cuda.cu, which tests
 * a triangle only against the rays of its pixel bounds (SC_CUDA_RAYCAST_PAIRS; with it 0, this one):
 * one block of SC_CUDA_RAYCAST_WARPS warps per tile.
 * Every warp holds all the tile's rays (two per lane) and tests its own share of each slab's
 * references, so a heavy tile is spread over several warps. A warp stages its share in shared
 * memory, one reference per lane: triangle id, its indices, its vertices minus the eye (the first
 * step of the watertight test, rounded the same way), permuted for the tile's ray axes when all its
 * rays share them. Each warp keeps its own nearest hit per ray; at a slab boundary the warps
 * exchange their nearest depths (one __syncthreads), so every warp takes the same early-exit
 * decision, and at the end the per-warp hits are reduced in (depth, id) order, which is the result
 * of the CPU's sequential loop. Barycentrics are divided out once, for the winning hit.
 *
 * Tiles of 9..16 pixels per edge: the same kernel on each 8x8 quadrant, a cluster of four blocks per
 * tile. A block stages only the references that may cover its quadrant (projected bounds with a
 * wider margin than the binning's, so nothing the 8x8 binning would keep is dropped), compacted per
 * warp; tests are still counted per reference as the CPU counts them, a quadrant stops when its rays
 * are done, and the tile's early exit (all its rays done) is the AND of its quadrants', gathered in
 * the cluster's shared memory.
 *
 * Without thread-block clusters (GPUs before sm_90, or SLABCAST_CUDA_PORTABLE=1) these tiles take
 * the kernel of the larger tiles below, with four warps.
 *
 * Tiles of 17..32 pixels per edge: one block per tile, one warp per 8x8 quadrant holding its 64
 * rays (two per lane). The block stages each batch of references once in shared memory (the same records,
 * plus a mask of the quadrants the binning rule at 8x8 tiles gives the triangle), and every warp
 * tests the batch against its own rays, skipping triangles outside its quadrant and whole batches
 * once its rays are done. Each ray lives in one thread: the early exit is the per-ray rule plus one
 * block vote per non-empty slab.
 * Counters: tests counted from slab sizes (each live ray counts every reference of the slab, as the
 * CPU does), summed per warp before one atomic. */
#include <cooperative_groups.h>
#include <math.h>

#include "backend_cuda.h"
#include "classify.h"
#include "intersect.h"
#include "render_tuning.h"
#include "sc_cuda_arch.h"
#include "raycast_stage.cuh"
#include "sc_report.h"

namespace cg = cooperative_groups;

/* Thread-block clusters (the 9..16-pixel tiles' quadrants) exist from sm_90 on: the cluster kernel's
 * cluster code is compiled for those architectures (and the host pass) alone. Elsewhere, and with
 * SLABCAST_CUDA_PORTABLE=1, sc_cuda_raycast takes the quadrant kernel (a block per tile, a warp per
 * 8x8 quadrant) for those tiles instead and never launches the cluster kernel there. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define RC_HAS_CLUSTERS 1
#else
#define RC_HAS_CLUSTERS 0
#endif

/* ---- Tiles of at most 64 pixels: a block of warps per tile ---- */

enum {
    RC_QUAD = SC_CUDA_RAYCAST_QUAD,   /* quadrant edge in pixels */
    RC_RAYS = RC_QUAD * RC_QUAD,      /* rays of a block: a tile of at most 64 pixels, or a quadrant */
    RC_CLUSTER = SC_CUDA_RAYCAST_CLUSTER,
    RC_CLUSTER_SIDE = SC_CUDA_RAYCAST_CLUSTER_SIDE
};
static_assert(RC_CLUSTER == RC_CLUSTER_SIDE * RC_CLUSTER_SIDE, "a square of quadrants per cluster");
static_assert(SC_CUDA_RAYCAST_QUADS_MAX_WARPS * RC_QUAD * RC_QUAD >= SC_MAX_TILE_SIZE * SC_MAX_TILE_SIZE,
              "a warp per quadrant of the largest tile");

/* A warp's nearest hit of one ray so far; u = V / det and v = W / det are divided out at the end. */
typedef struct rc_best {
    float t, V, W, det;
    uint32_t tri;
} rc_best;

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

/* One staged triangle: 12 words (9 coordinates minus the eye, permuted for the tile's axes when
 * UNIFORM, then the id, then the quadrant mask of the cluster kernel or unused), tested against the
 * lane's two rays (only live rays take hits). */
template <bool UNIFORM>
__device__ static __forceinline__ void rc_test_one(const float4 *rec, const rc_ray (&ray)[2], const bool (&live)[2],
                                                   float tmin, float tmax, rc_best (&best)[2])
{
    sc_tri_axes tri[2];
    uint32_t id;
    if (UNIFORM) {
        const float4 q0 = rec[0], q1 = rec[1], q2 = rec[2];
        id = __float_as_uint(q2.y);
        tri[0] = sc_tri_axes{q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z, q1.w, q2.x};
        tri[1] = tri[0];
    } else {
        const float *f = (const float *)rec;
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

/* Tests the n (<= 32) staged triangles of warp buffer q against the lane's two rays (only live
 * rays take hits). UNIFORM: the records are permuted for the tile's axes (all rays share them);
 * else each ray picks its own. */
template <bool UNIFORM>
__device__ static __forceinline__ void rc_test_staged(const float4 (*q)[3], uint32_t n, const rc_ray (&ray)[2],
                                                      const bool (&live)[2], float tmin, float tmax,
                                                      rc_best (&best)[2], uint32_t &performed)
{
    for (uint32_t j = 0; j < n; ++j) rc_test_one<UNIFORM>(q[j], ray, live, tmin, tmax, best);
    performed += n * ((uint32_t)live[0] + (uint32_t)live[1]);
}

/* Nonzero when triangle (a, b, c) (vertices minus the eye) may be hit by a ray through a pixel
 * centre of columns qx0..qx1, rows qy0..qy1: its projected bounds (classify.h's projection) widened
 * by SC_CUDA_RAYCAST_CULL_MARGIN times the binning margin (sc_bin_margin) overlap them. The binning
 * rule keeps a triangle from every tile outside its bounds widened once; this test is weaker, so it
 * never drops a triangle that the same rule at 8x8 tiles would keep. Triangles reaching behind the near plane, or
 * with non-finite bounds, are always kept. */
__device__ static inline bool rc_may_cover(const sc_frame_params &p, const float *a, const float *b, const float *c,
                                           uint32_t qx0, uint32_t qy0, uint32_t qx1, uint32_t qy1)
{
    const float *v[3] = {a, b, c};
    const float kx = SC_FMUL(SC_FMUL(0.5f, (float)p.width), p.proj_x);
    const float ky = SC_FMUL(SC_FMUL(0.5f, (float)p.height), p.proj_y);
    const float cx = SC_FMUL(0.5f, (float)p.width), cy = SC_FMUL(0.5f, (float)p.height);
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY, big = 0.0f;
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        const float vx = sc_dot3(v[i], p.right), vy = sc_dot3(v[i], p.up), vw = sc_dot3(v[i], p.forward);
        if (!(vw >= p.near_plane)) return true;
        const float X = SC_FADD(cx, SC_FDIV(SC_FMUL(kx, vx), vw));
        const float Y = SC_FADD(cy, SC_FDIV(SC_FMUL(ky, vy), vw));
        bx0 = fminf(bx0, X);
        bx1 = fmaxf(bx1, X);
        by0 = fminf(by0, Y);
        by1 = fmaxf(by1, Y);
        big = fmaxf(big, fmaxf(fabsf(X), fabsf(Y)));
    }
    if (!isfinite(big)) return true;
    const float m = SC_FMUL((float)SC_CUDA_RAYCAST_CULL_MARGIN, sc_bin_margin(&p, big));
    return SC_FSUB(bx0, m) <= (float)qx1 + 0.5f && SC_FADD(bx1, m) >= (float)qx0 + 0.5f &&
           SC_FSUB(by0, m) <= (float)qy1 + 0.5f && SC_FADD(by1, m) >= (float)qy0 + 0.5f;
}

/* Pixel (lx, ly) of the tile holding ray j (0..63) of block quadrant quad: the whole tile (row-major)
 * when QUADS is 1, else 8x8 quadrant (quad % 2, quad / 2). False when outside the tile. */
template <int QUADS>
__device__ static inline bool rc_ray_pixel(uint32_t j, uint32_t quad, uint32_t ts, uint32_t &lx, uint32_t &ly)
{
    if (QUADS == 1) {
        lx = j % ts;
        ly = j / ts;
        return j < ts * ts;
    }
    lx = (quad % RC_CLUSTER_SIDE) * RC_QUAD + j % RC_QUAD;
    ly = (quad / RC_CLUSTER_SIDE) * RC_QUAD + j / RC_QUAD;
    return lx < ts && ly < ts;
}

/* QUADS = 1: one block per tile of at most 64 pixels. QUADS = 4: a tile of 9..16 pixels per edge as
 * a cluster of 4 blocks, one per 8x8 quadrant, each staging only the triangles that may cover its
 * quadrant (rc_may_cover; the tests are still counted per reference, as the CPU counts them); the
 * tile's early exit (all its rays done) is the AND of the quadrants', gathered in the cluster. */
template <int WARPS, int QUADS>
__global__ void __launch_bounds__(WARPS * 32, SC_MIN_BLOCKS(WARPS * 32, SC_CUDA_RAYCAST_MIN_BLOCKS))
sc_raycast_warps_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g_in, sc_cuda_globals *g,
                        const uint32_t *cell_offsets, const uint32_t *ref_values, const uint32_t *idx,
                        const float *pos, sc_hit *hits, uint32_t *tests_out)
{
    /* Per warp: 32 staged triangles of 12 words (a - eye, b - eye, c - eye, id, 2 unused); reused
     * at the end for the warp's nearest hits (5 words x 64 rays). */
    __shared__ float4 s_tri[WARPS][32][3];
    __shared__ float s_near[2][WARPS][RC_RAYS]; /* nearest depth per warp and ray, by slab parity */
    __shared__ rc_ray s_ray[RC_RAYS];
    __shared__ uint32_t s_tests[RC_RAYS];
    __shared__ uint32_t s_exit[QUADS];      /* rank 0 of a cluster: the quadrants' early exits */
    static_assert(sizeof(s_tri[0]) >= 5 * RC_RAYS * sizeof(float), "hit exchange fits the staging buffer");
    static_assert(QUADS == 1 || QUADS == RC_CLUSTER, "a tile or its 8x8 quadrants");

#if !RC_HAS_CLUSTERS
    if (QUADS > 1) __trap(); /* never launched here (see RC_HAS_CLUSTERS) */
    (void)s_exit;
#endif
    if (g_in->overflow) return;
    sc_frame_params p = fc->p;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x / QUADS, quad = blockIdx.x % QUADS;
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t ts = p.tile_size;
    const uint32_t x0 = (tile % p.tiles_x) * ts, y0 = (tile / p.tiles_x) * ts;
    const uint32_t S = p.num_slabs;
    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_begin = cells[0], tile_end = cells[S];

    if (tile_begin == tile_end) { /* no references: no hits, no tests (the whole cluster returns) */
        uint32_t lx, ly;
        if (tid < RC_RAYS && rc_ray_pixel<QUADS>(tid, quad, ts, lx, ly)) {
            const uint32_t x = x0 + lx, y = y0 + ly;
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
        uint32_t lx, ly;
        const bool in_tile = rc_ray_pixel<QUADS>(tid, quad, ts, lx, ly);
        const uint32_t x = x0 + lx, y = y0 + ly;
        if (in_tile && x < p.width && y < p.height) {
            r = rc_prepare_ray(p, x, y);
        }
        s_ray[tid] = r;
    }
    __syncthreads();
    rc_ray ray[2];
    bool done[2];
    rc_best best[2];
    uint32_t tests[2] = {0, 0};
    uint32_t performed = 0; /* the tests this thread's rays ran */
    /* Ray 0 is inside the target (pixel (x0, y0)) except in a quadrant wholly off the target, whose
     * rays are all done from the start (its records are permuted for no ray). */
    const uint32_t perm0 = s_ray[0].perm;
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
    /* The quadrant's pixel columns and rows (screen), for rc_may_cover. */
    const uint32_t qx0 = x0 + (quad % RC_CLUSTER_SIDE) * RC_QUAD, qy0 = y0 + (quad / RC_CLUSTER_SIDE) * RC_QUAD;
    const uint32_t qx1 = qx0 + (RC_QUAD - 1), qy1 = qy0 + (RC_QUAD - 1);
#if RC_HAS_CLUSTERS
    if (QUADS > 1) cg::this_cluster().sync(); /* every block of the cluster runs (rank 0's flags, below) */
#endif

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
                    if (!done[r] && near_t < bound) done[r] = true; /* sc_ray_finished, inline */
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
                uint32_t tri = 0;
                float a[3], bb[3], c[3];
                bool keep = lane < n;
                if (keep) {
                    tri = ref_values[first + lane];
                    const uint32_t *f = idx + 3 * (size_t)tri;
                    const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
#pragma unroll
                    for (int i = 0; i < 3; ++i) {
                        a[i] = SC_FSUB(va[i], p.eye[i]);
                        bb[i] = SC_FSUB(vb[i], p.eye[i]);
                        c[i] = SC_FSUB(vc[i], p.eye[i]);
                    }
                    if (QUADS > 1) keep = rc_may_cover(p, a, bb, c, qx0, qy0, qx1, qy1);
                }
                /* The kept triangles, compacted in reference order. */
                const uint32_t kept = __ballot_sync(0xFFFFFFFFu, keep);
                const uint32_t slot = (uint32_t)__popc(kept & ((1u << lane) - 1u));
                if (keep) rc_stage_record(q[slot], uniform, kx0, ky0, kz0, a, bb, c, tri, 0.0f);
                __syncwarp();
                const uint32_t nk = (uint32_t)__popc(kept);
                const bool live[2] = {!done[0], !done[1]};
                if (uniform)
                    rc_test_staged<true>(q, nk, ray, live, tmin, tmax, best, performed);
                else
                    rc_test_staged<false>(q, nk, ray, live, tmin, tmax, best, performed);
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
    const unsigned long long sum_performed = warp_sum_u64(performed, 32); /* every warp ran its own */
    if (lane == 0 && sum_performed) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].performed, sum_performed);
    if (warp == 0) {
        unsigned long long sum = warp_sum_u64((unsigned long long)tests[0] + tests[1], 32);
        if (lane == 0) {
            if (sum) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].tests, sum);
            if (QUADS == 1 && exited) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].exited, 1ull);
        }
    }
#if RC_HAS_CLUSTERS
    if (QUADS > 1) {
        /* The tile exited early when every quadrant did: rank 0 gathers the flags. */
        cg::cluster_group cluster = cg::this_cluster();
        if (tid == 0) *cluster.map_shared_rank(&s_exit[quad], 0) = exited ? 1u : 0u;
        cluster.sync();
        if (quad == 0 && tid == 0) {
            bool all = true;
            for (int i = 0; i < QUADS; ++i) all = all && s_exit[i] != 0;
            if (all) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].exited, 1ull);
        }
    }
#endif
    __syncthreads();
    if (tid < RC_RAYS) {
        uint32_t lx, ly;
        const bool in_tile = rc_ray_pixel<QUADS>(tid, quad, ts, lx, ly);
        const uint32_t x = x0 + lx, y = y0 + ly;
        const bool valid = in_tile && x < p.width && y < p.height;
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
        if ((tid & 31u) == 0 && hit_mask)
            atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].hit_pixels, (unsigned long long)__popc(hit_mask));
    }
}

/* ---- Tiles of 17..32 pixels per edge: a block per tile, each warp owning an 8x8 quadrant ---- */

/* Quadrants of 8x8 pixels (RC_QUAD): warp w of a tile of edge ts owns quadrant (w % qn, w / qn)
 * with qn = ceil(ts / 8); its lane holds the quadrant's rays lane and lane + 32. */

/* The quadrants (bit w: warp w's) of a tile that staged triangle (a, b, c) may cover: those the
 * binning itself would give it with 8x8 tiles (sc_tri_classify with tile_size 8, the same bounds and
 * edge tests; conservative: every pixel centre whose ray hits the triangle lies in one of them).
 * All quadrants when the tile edge is not a multiple of 8. */
__device__ static inline uint32_t rc_quad_mask(const sc_frame_params &p8, uint32_t ts, uint32_t qn, uint32_t tile_x,
                                               uint32_t tile_y, const float *a, const float *b, const float *c)
{
    const uint32_t all = qn * qn >= 32 ? 0xFFFFFFFFu : (1u << (qn * qn)) - 1u;
    if (ts % RC_QUAD != 0) return all;
    sc_tri_setup s;
    if (!sc_tri_classify(&p8, a, b, c, &s)) return all; /* binned by the same rule: not expected */
    const uint32_t cx0 = tile_x * qn, cy0 = tile_y * qn; /* the tile's first 8x8 cell */
    uint32_t mask = 0;
    for (uint32_t qy = 0; qy < qn; ++qy) {
        const uint32_t cy = cy0 + qy;
        if (cy < s.ty0 || cy > s.ty1) continue;
        for (uint32_t qx = 0; qx < qn; ++qx) {
            const uint32_t cx = cx0 + qx;
            if (cx < s.tx0 || cx > s.tx1) continue;
            if (sc_tri_overlaps_tile(&p8, &s, cx, cy)) mask |= 1u << (qy * qn + qx);
        }
    }
    return mask;
}

template <bool UNIFORM>
__device__ static __forceinline__ void rc_test_batch(const float4 (*q)[3], uint32_t n, uint32_t warp_bit,
                                                     const rc_ray (&ray)[2], const bool (&live)[2], float tmin,
                                                     float tmax, rc_best (&best)[2], uint32_t &performed)
{
    const uint32_t per = (uint32_t)live[0] + (uint32_t)live[1];
    for (uint32_t j = 0; j < n; ++j) {
        if (!(__float_as_uint(q[j][2].z) & warp_bit)) continue; /* cannot touch this warp's quadrant */
        rc_test_one<UNIFORM>(q[j], ray, live, tmin, tmax, best);
        performed += per;
    }
}

/* One block of ceil(ts / 8)^2 warps (at most MAX_WARPS) per tile. All threads stage each batch of
 * min(BATCH, threads) references once into shared memory (double-buffered: one barrier per batch); every warp
 * tests the batch against its own rays, skipping the triangles that cannot touch its quadrant and
 * the whole batch when its rays are done. Each ray lives in one thread, so the early exit is the
 * CPU's per-ray rule plus one block vote (__syncthreads_and) before each non-empty slab. */
template <int MAX_WARPS, int BATCH>
__global__ void __launch_bounds__(MAX_WARPS * 32)
sc_raycast_quads_kernel(const sc_cuda_frame_consts *__restrict__ fc, const sc_cuda_globals *g_in, sc_cuda_globals *g,
                        const uint32_t *cell_offsets, const uint32_t *ref_values, const uint32_t *idx,
                        const float *pos, sc_hit *hits, uint32_t *tests_out)
{
    __shared__ float4 s_tri[2][BATCH][3];
    __shared__ uint32_t s_perm0;
    static_assert(BATCH <= MAX_WARPS * 32, "one staged triangle per thread at most");

    if (g_in->overflow) return;
    sc_frame_params p = fc->p;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x, tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    const uint32_t ts = p.tile_size, qn = (ts + RC_QUAD - 1) / RC_QUAD;
    const uint32_t tile_x = tile % p.tiles_x, tile_y = tile / p.tiles_x;
    const uint32_t x0 = tile_x * ts, y0 = tile_y * ts;
    const uint32_t S = p.num_slabs;
    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_begin = cells[0], tile_end = cells[S];

    /* The lane's two pixels: quadrant (warp % qn, warp / qn), rows lane / 8 and lane / 8 + 4. */
    uint32_t px[2], py[2];
    bool valid[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        const uint32_t j = lane + 32u * r;
        const uint32_t lx = (warp % qn) * RC_QUAD + j % RC_QUAD, ly = (warp / qn) * RC_QUAD + j / RC_QUAD;
        px[r] = x0 + lx;
        py[r] = y0 + ly;
        valid[r] = lx < ts && ly < ts && px[r] < p.width && py[r] < p.height;
    }

    if (tile_begin == tile_end) { /* no references: no hits, no tests */
#pragma unroll
        for (int r = 0; r < 2; ++r)
            if (valid[r]) {
                const size_t o = (size_t)py[r] * p.width + px[r];
                hits[o] = sc_hit{SC_NO_HIT, INFINITY, 0.0f, 0.0f};
                tests_out[o] = 0;
            }
        return;
    }

    rc_ray ray[2];
    bool done[2];
    rc_best best[2];
    uint32_t tests[2] = {0, 0};
    uint32_t performed = 0; /* the tests this thread's rays ran */
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        ray[r] = rc_ray{0.0f, 0.0f, 0.0f, RC_PERM_NONE};
        if (valid[r]) ray[r] = rc_prepare_ray(p, px[r], py[r]);
        done[r] = !valid[r];
        best[r] = rc_best{INFINITY, 0.0f, 0.0f, 0.0f, SC_NO_HIT};
    }
    if (tid == 0) s_perm0 = ray[0].perm; /* pixel (x0, y0) is always inside the target */
    __syncthreads();
    const uint32_t perm0 = s_perm0;
    const bool uniform = !__syncthreads_or((valid[0] && ray[0].perm != perm0) || (valid[1] && ray[1].perm != perm0));
    const uint32_t kx0 = perm0 & 3u, ky0 = (perm0 >> 2) & 3u, kz0 = (perm0 >> 4) & 3u;

    sc_frame_params p8 = p; /* the binning rule at 8x8 tiles, for the quadrant masks */
    p8.tile_size = RC_QUAD;
    const uint32_t warp_bit = 1u << warp;
    /* Triangles staged per batch: one per thread at most (a 9..16-pixel tile has 4 warps). */
    const uint32_t batch = BATCH < blockDim.x ? BATCH : blockDim.x;
    const float tmin = p.near_plane, tmax = p.far_plane;
    bool started = false, exited = false;
    uint32_t buf = 0;
    for (uint32_t k = 0; k < S; ++k) {
        const uint32_t begin = cells[k], end = cells[k + 1];
        if (begin == end) continue;
        if (started) {
            /* Before slab k: done when the nearest hit is below its near bound (the bounds grow
             * with k, so this also covers the empty slabs skipped since). */
            const float bound = sc_slab_bound(&p, k);
#pragma unroll
            for (int r = 0; r < 2; ++r)
                if (!done[r] && best[r].t < bound) done[r] = true; /* sc_ray_finished, inline */
            if (__syncthreads_and(done[0] && done[1])) {
                exited = true;
                break;
            }
        }
        started = true;
#pragma unroll
        for (int r = 0; r < 2; ++r)
            if (!done[r]) tests[r] += end - begin;
        const bool live[2] = {!done[0], !done[1]};
        const bool warp_live = __any_sync(0xFFFFFFFFu, live[0] || live[1]);
        for (uint32_t b = begin; b < end; b += batch) {
            const uint32_t n = end - b < batch ? end - b : batch;
            float4(*const q)[3] = s_tri[buf];
            buf ^= 1u;
            if (tid < n) {
                const uint32_t tri = ref_values[b + tid];
                const uint32_t *f = idx + 3 * (size_t)tri;
                const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
                float wa[3], wb[3], wc[3], a[3], bb[3], c[3];
#pragma unroll
                for (int i = 0; i < 3; ++i) {
                    wa[i] = va[i];
                    wb[i] = vb[i];
                    wc[i] = vc[i];
                    a[i] = SC_FSUB(wa[i], p.eye[i]);
                    bb[i] = SC_FSUB(wb[i], p.eye[i]);
                    c[i] = SC_FSUB(wc[i], p.eye[i]);
                }
                const uint32_t mask = rc_quad_mask(p8, ts, qn, tile_x, tile_y, wa, wb, wc);
                rc_stage_record(q[tid], uniform, kx0, ky0, kz0, a, bb, c, tri, __uint_as_float(mask));
            }
            /* One barrier per batch: the other buffer, written next, was consumed before this one. */
            __syncthreads();
            if (!warp_live) continue;
            if (uniform)
                rc_test_batch<true>(q, n, warp_bit, ray, live, tmin, tmax, best, performed);
            else
                rc_test_batch<false>(q, n, warp_bit, ray, live, tmin, tmax, best, performed);
        }
    }

    unsigned hit_bits = 0;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        if (!valid[r]) continue;
        float u = 0.0f, v = 0.0f;
        if (best[r].tri != SC_NO_HIT) {
            u = SC_FDIV(best[r].V, best[r].det);
            v = SC_FDIV(best[r].W, best[r].det);
            hit_bits += 1;
        }
        const size_t o = (size_t)py[r] * p.width + px[r];
        hits[o] = sc_hit{best[r].tri, best[r].t, u, v};
        tests_out[o] = tests[r];
    }
    const unsigned long long sum_tests = warp_sum_u64((unsigned long long)tests[0] + tests[1], 32);
    const unsigned long long sum_hits = warp_sum_u64(hit_bits, 32);
    const unsigned long long sum_performed = warp_sum_u64(performed, 32);
    if (lane == 0) {
        if (sum_tests) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].tests, sum_tests);
        if (sum_performed) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].performed, sum_performed);
        if (sum_hits) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].hit_pixels, sum_hits);
        if (tid == 0 && exited) atomicAdd(&g->stripes[blockIdx.x % SC_CUDA_STRIPES].exited, 1ull);
    }
}

sc_status sc_cuda_raycast(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    const uint32_t threads = p->tile_size * p->tile_size;
    const uint32_t *values = st->ref_values[0]; /* slab order (bin_cuda.cu) */
    if (threads <= RC_RAYS && SC_CUDA_RAYCAST_PAIRS) {
        SC_TRY(sc_cuda_raycast_pairs(st, p, s));
    } else if (threads <= RC_RAYS) {
        sc_raycast_warps_kernel<SC_CUDA_RAYCAST_WARPS, 1><<<p->num_tiles, SC_CUDA_RAYCAST_WARPS * 32, 0, s>>>(
            st->consts, st->globals, st->globals, st->cell_offsets, values, st->indices, st->positions, st->hits, st->tests);
        SC_CUDA_CHECK_LAUNCH("sc_raycast_warps_kernel");
    } else if (st->clusters && p->tile_size <= RC_CLUSTER_SIDE * RC_QUAD) {
        /* A cluster of RC_CLUSTER blocks (the 8x8 quadrants) per tile (sm_90; elsewhere, and with
         * SLABCAST_CUDA_PORTABLE=1, the quadrant kernel below takes these tiles too). */
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = RC_CLUSTER;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.gridDim = dim3(p->num_tiles * RC_CLUSTER);
        cfg.blockDim = dim3(SC_CUDA_RAYCAST_WARPS * 32);
        cfg.dynamicSmemBytes = 0;
        cfg.stream = s;
        cfg.attrs = attr;
        cfg.numAttrs = 1;
        SC_CUDA_CHECK(cudaLaunchKernelEx(&cfg, sc_raycast_warps_kernel<SC_CUDA_RAYCAST_WARPS, RC_CLUSTER>,
                                         (const sc_cuda_frame_consts *)st->consts,
                                         (const sc_cuda_globals *)st->globals, st->globals,
                                         (const uint32_t *)st->cell_offsets, values, (const uint32_t *)st->indices,
                                         (const float *)st->positions, st->hits, st->tests));
        SC_CUDA_CHECK_LAUNCH("sc_raycast_warps_kernel (quadrants)");
    } else {
        const uint32_t qn = (p->tile_size + RC_QUAD - 1) / RC_QUAD, block = qn * qn * 32;
        sc_raycast_quads_kernel<SC_CUDA_RAYCAST_QUADS_MAX_WARPS, SC_CUDA_RAYCAST_BATCH_32><<<p->num_tiles, block, 0, s>>>(
            st->consts, st->globals, st->globals, st->cell_offsets, values, st->indices, st->positions, st->hits, st->tests);
        SC_CUDA_CHECK_LAUNCH("sc_raycast_quads_kernel");
    }
    return SC_OK;
}
