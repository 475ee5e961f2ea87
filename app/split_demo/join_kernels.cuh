/* join_kernels.cuh - the device code of `split-demo join` (demo_join.cu, which alone includes this
 * header): the generation of R and S and the checksum of output pairs on the device, the hash join
 * of radix-partitioned R and S (one block per partition, chained tables in shared memory) and the
 * partition offsets by binary search, the probes of sorted R by binary search (sort-merge, inlj),
 * and the block nested-loop join, with the launch constants the kernels and their launches share.
 * Each join kernel has a count pass and a write pass (count, exclusive scan, write: demo_join.cu);
 * the write pass never stores past the output's capacity. */
#ifndef SPLIT_DEMO_JOIN_KERNELS_CUH
#define SPLIT_DEMO_JOIN_KERNELS_CUH

#include <stdint.h>

#include "join_host.h"

enum {
    THREADS = 256,
    BNLJ_MAX_R = 1 << 15,   /* the block nested-loop join's limit on |R| */
    BNLJ_PER_THREAD = 4,    /* S tuples each thread compares */
    BNLJ_TILE = 2048        /* R keys staged in shared memory at a time */
};

/* ---- generation and the checksum on the device ------------------------------------------------- */

__global__ void gen_r(join_gen g, uint32_t *key, uint32_t *payload)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < g.nr; i += (uint64_t)gridDim.x * blockDim.x) {
        key[i] = join_r_key(&g, i);
        payload[i] = join_r_payload(i);
    }
}

__global__ void gen_s(join_gen g, const uint32_t *cdf, uint32_t *key, uint32_t *payload)
{
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < g.ns; j += (uint64_t)gridDim.x * blockDim.x) {
        key[j] = join_s_key(&g, cdf, j);
        payload[j] = join_s_payload(j);
    }
}

__global__ void checksum_pairs(const uint32_t *__restrict__ key, const uint32_t *__restrict__ rp,
                               const uint32_t *__restrict__ sp, uint64_t n, unsigned long long *sum)
{
    unsigned long long local = 0;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        local += join_pair_hash(key[i], rp[i], sp[i]);
    for (int d = 16; d > 0; d /= 2) local += __shfl_down_sync(0xFFFFFFFFu, local, d);
    if ((threadIdx.x & 31) == 0 && local) atomicAdd(sum, local);
}

/* ---- the hash join of partitioned R and S ------------------------------------------------------ */

/* One block per partition p: R's tuples [r_off[p], r_off[p+1]) in chunks of JOIN_GPU_CHUNK, each a
 * chained table in shared memory (heads by join_slot), probed by S's tuples [s_off[p], s_off[p+1]).
 * Count pass (WRITE false): part_count[p] = the partition's pairs. Write pass: the pairs from
 * part_out[p] on, each warp reserving its pairs with one atomic on the block's cursor. */
template <bool WRITE>
__global__ void __launch_bounds__(THREADS)
    hash_join_partitions(const uint32_t *__restrict__ rk, const uint32_t *__restrict__ rp,
                         const uint32_t *__restrict__ r_off, const uint32_t *__restrict__ sk,
                         const uint32_t *__restrict__ sp, const uint32_t *__restrict__ s_off,
                         uint32_t *__restrict__ part_count, const uint32_t *__restrict__ part_out,
                         uint32_t *__restrict__ out_k, uint32_t *__restrict__ out_r, uint32_t *__restrict__ out_s,
                         uint32_t cap)
{
    enum { SLOTS = 1 << JOIN_GPU_SLOT_BITS };
    __shared__ uint32_t head[SLOTS];
    __shared__ uint32_t tkey[JOIN_GPU_CHUNK], tpay[WRITE ? JOIN_GPU_CHUNK : 1], tnext[JOIN_GPU_CHUNK];
    __shared__ uint32_t cursor;
    const uint32_t p = blockIdx.x, tid = threadIdx.x, lane = tid & 31;
    const uint32_t r0 = r_off[p], r1 = r_off[p + 1], s0 = s_off[p], s1 = s_off[p + 1];
    const uint32_t out0 = WRITE ? part_out[p] : 0;
    if (tid == 0) cursor = 0;
    __syncthreads();
    uint32_t mine = 0; /* count pass: this thread's pairs */
    for (uint32_t c0 = r0; c0 < r1 && s0 < s1; c0 += JOIN_GPU_CHUNK) {
        const uint32_t c1 = r1 - c0 < JOIN_GPU_CHUNK ? r1 : c0 + JOIN_GPU_CHUNK;
        for (uint32_t i = tid; i < SLOTS; i += THREADS) head[i] = JOIN_NONE;
        __syncthreads();
        for (uint32_t t = c0 + tid; t < c1; t += THREADS) {
            const uint32_t k = rk[t], e = t - c0;
            tkey[e] = k;
            if (WRITE) tpay[e] = rp[t];
            tnext[e] = atomicExch(&head[join_slot(k, JOIN_GPU_SLOT_BITS)], e);
        }
        __syncthreads();
        for (uint32_t jb = s0; jb < s1; jb += THREADS) { /* the same trip count for every thread */
            const uint32_t j = jb + tid;
            const bool valid = j < s1;
            const uint32_t k = valid ? sk[j] : 0;
            const uint32_t first = valid ? head[join_slot(k, JOIN_GPU_SLOT_BITS)] : JOIN_NONE;
            uint32_t m = 0;
            for (uint32_t e = first; e != JOIN_NONE; e = tnext[e]) m += tkey[e] == k;
            if (!WRITE) {
                mine += m;
                continue;
            }
            uint32_t incl = m; /* inclusive warp scan of the matches */
            for (uint32_t d = 1; d < 32; d *= 2) {
                const uint32_t v = __shfl_up_sync(0xFFFFFFFFu, incl, d);
                if (lane >= d) incl += v;
            }
            uint32_t base = 0;
            if (lane == 31 && incl) base = atomicAdd(&cursor, incl);
            base = __shfl_sync(0xFFFFFFFFu, base, 31);
            if (m == 0) continue;
            uint32_t pos = out0 + base + incl - m;
            const uint32_t spay = sp[j];
            for (uint32_t e = first; e != JOIN_NONE; e = tnext[e])
                if (tkey[e] == k) {
                    if (pos < cap) out_k[pos] = k, out_r[pos] = tpay[e], out_s[pos] = spay;
                    ++pos;
                }
        }
        __syncthreads(); /* the chunk's probes are done before the next chunk's build */
    }
    if (!WRITE) {
        for (int d = 16; d > 0; d /= 2) mine += __shfl_down_sync(0xFFFFFFFFu, mine, d);
        if (lane == 0 && mine) atomicAdd(&cursor, mine);
        __syncthreads();
        if (tid == 0) part_count[p] = cursor;
    }
}

/* Partition offsets of keys sorted by their low bits: off[b] = the first position whose low bits
 * are >= b, for b in 0 .. parts (off[parts] = n). */
__global__ void partition_offsets(const uint32_t *__restrict__ sorted, uint32_t n, uint32_t mask, uint32_t parts,
                                  uint32_t *__restrict__ off)
{
    for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b <= parts; b += gridDim.x * blockDim.x)
        off[b] = join_partition_start(sorted, n, mask, b);
}

/* ---- probes of sorted R by binary search (sort-merge, inlj) ------------------------------------ */

__global__ void probe_count(const uint32_t *__restrict__ rk_sorted, uint32_t nr, const uint32_t *__restrict__ sk,
                            uint32_t ns, uint32_t *__restrict__ count, uint32_t *__restrict__ first)
{
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < ns; j += gridDim.x * blockDim.x) {
        const uint32_t k = sk[j];
        const uint32_t lo = join_lower_bound(rk_sorted, nr, k);
        const uint32_t hi = lo < nr && rk_sorted[lo] == k ? lo + join_upper_bound(rk_sorted + lo, nr - lo, k) : lo;
        count[j] = hi - lo;
        first[j] = lo;
    }
}

__global__ void probe_write(const uint32_t *__restrict__ rp_sorted, const uint32_t *__restrict__ sk,
                            const uint32_t *__restrict__ sp, uint32_t ns, const uint32_t *__restrict__ count,
                            const uint32_t *__restrict__ first, const uint32_t *__restrict__ out_off,
                            uint32_t *__restrict__ out_k, uint32_t *__restrict__ out_r, uint32_t *__restrict__ out_s,
                            uint32_t cap)
{
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < ns; j += gridDim.x * blockDim.x) {
        const uint32_t c = count[j];
        if (c == 0) continue;
        const uint32_t k = sk[j], spay = sp[j], lo = first[j], pos = out_off[j];
        for (uint32_t t = 0; t < c && pos + t < cap; ++t) {
            out_k[pos + t] = k;
            out_r[pos + t] = rp_sorted[lo + t];
            out_s[pos + t] = spay;
        }
    }
}

/* ---- block nested loops ----------------------------------------------------------------------- */

/* Block b compares S tuples [b * 1024, b * 1024 + 1024) (4 per thread) with all of R, staged in
 * tiles of BNLJ_TILE. Count pass: count[j]. Write pass: S tuple j's pairs from out_off[j] on. */
template <bool WRITE>
__global__ void __launch_bounds__(THREADS)
    bnlj(const uint32_t *__restrict__ rk, const uint32_t *__restrict__ rp, uint32_t nr, const uint32_t *__restrict__ sk,
         const uint32_t *__restrict__ sp, uint32_t ns, uint32_t *__restrict__ count, const uint32_t *__restrict__ out_off,
         uint32_t *__restrict__ out_k, uint32_t *__restrict__ out_r, uint32_t *__restrict__ out_s, uint32_t cap)
{
    __shared__ uint32_t tk[BNLJ_TILE], tp[WRITE ? BNLJ_TILE : 1];
    const uint32_t j0 = blockIdx.x * (THREADS * BNLJ_PER_THREAD) + threadIdx.x;
    uint32_t key[BNLJ_PER_THREAD], cnt[BNLJ_PER_THREAD], pos[BNLJ_PER_THREAD], spay[BNLJ_PER_THREAD];
    bool valid[BNLJ_PER_THREAD];
#pragma unroll
    for (int q = 0; q < BNLJ_PER_THREAD; ++q) {
        const uint32_t j = j0 + q * THREADS;
        valid[q] = j < ns;
        key[q] = valid[q] ? sk[j] : 0;
        cnt[q] = 0;
        pos[q] = WRITE && valid[q] ? out_off[j] : 0;
        spay[q] = WRITE && valid[q] ? sp[j] : 0;
    }
    for (uint32_t t0 = 0; t0 < nr; t0 += BNLJ_TILE) {
        const uint32_t n = nr - t0 < BNLJ_TILE ? nr - t0 : BNLJ_TILE;
        __syncthreads(); /* the previous tile is done */
        for (uint32_t e = threadIdx.x; e < n; e += THREADS) {
            tk[e] = rk[t0 + e];
            if (WRITE) tp[e] = rp[t0 + e];
        }
        __syncthreads();
        for (uint32_t e = 0; e < n; ++e) {
            const uint32_t k = tk[e];
#pragma unroll
            for (int q = 0; q < BNLJ_PER_THREAD; ++q) {
                if (!WRITE) {
                    cnt[q] += k == key[q];
                } else if (k == key[q] && valid[q]) {
                    if (pos[q] < cap) out_k[pos[q]] = k, out_r[pos[q]] = tp[e], out_s[pos[q]] = spay[q];
                    ++pos[q];
                }
            }
        }
    }
    if (!WRITE) {
#pragma unroll
        for (int q = 0; q < BNLJ_PER_THREAD; ++q)
            if (valid[q]) count[j0 + q * THREADS] = cnt[q];
    }
}

#endif /* SPLIT_DEMO_JOIN_KERNELS_CUH */
