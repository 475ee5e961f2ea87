/* segmented_ballot.cuh - the ballot path of the segmented split (B <= SEG_BALLOT_MAX_BUCKETS): one
 * cooperative kernel, seg_ballot_kernel (internal, CUDA). */
#ifndef SPLIT_SEGMENTED_BALLOT_CUH
#define SPLIT_SEGMENTED_BALLOT_CUH

#include <cooperative_groups.h>

#include "sc_cuda_arch.h"
#include "segmented_tiles.cuh"

namespace {

namespace cg = cooperative_groups;

/* ---- the ballot path (B <= SEG_BALLOT_MAX_BUCKETS): one cooperative kernel ----
 * Block g of G owns the segments whose middle lies in share g of the "merge path" of segments and
 * records, f(s) = s * SEG_BALLOT_SEGMENT_WEIGHT + (lo_s + hi_s) / 2 (bounds clamped to the record
 * count c; increasing in s), share g = [F g / G, F (g+1) / G) with F = S * weight + c: every block gets
 * about the same records and weighted segments (ballot_partition, a search in the offsets). It stages
 * the clamped starts of up to SEG_BALLOT_STAGE of its segments at a time in shared memory; the whole
 * block splits the window's segments above one warp chunk first (each warp one part; counts meet in
 * shared memory), then its warps take the others one at a time from a shared counter, each in the
 * smallest of 2, SEG_BALLOT_ROUNDS / 2 and SEG_BALLOT_ROUNDS rounds that holds it. Segments above
 * SEG_BALLOT_MAX_RECORDS ("huge") are listed in the block's slot of the temporary storage (no counter
 * to zero first) and, after a grid-wide barrier, split by the whole grid in phases separated by grid
 * barriers: the huge list and tile table built from the slots, every tile's bucket counts, each
 * segment's columns scanned, every tile ranked and moved. With no huge segment anywhere the kernel ends
 * after its first grid barrier. */
enum {
    BW = SEG_WARP_KERNEL_WARPS, /* warps per block */
    BT = BW * 32,               /* threads per block (== SEG_BLOCK_THREADS) */
    CR = SEG_BALLOT_ROUNDS,     /* rounds of 32 records in a warp chunk */
    CHUNK = 32 * CR,            /* records of a warp chunk (one pass) */
    BLOCK_CHUNK = BW * CHUNK,   /* records of a block chunk */
    HALF_R = CR / 2 > 2 ? CR / 2 : 2,
    STAGE = SEG_BALLOT_STAGE    /* segments per staging window */
};
static_assert((int)BT == (int)SEG_BLOCK_THREADS, "the huge path shares the ballot kernel's blocks");
static_assert(CR >= 4 && CR <= 16 && (CR & (CR - 1)) == 0, "warp chunk rounds: 4, 8 or 16");
static_assert((int)SEG_BALLOT_MAX_RECORDS >= (int)BLOCK_CHUNK && SEG_BALLOT_MAX_RECORDS >= SEG_BLOCK_MAX_RECORDS,
              "the ballot path takes every segment below the huge tier");

/* A warp chunk: records [lo, lo + m), m <= 32 * R, record lo + k*32 + lane in round k. Loads every
 * round's key and value at once (one memory round trip), then the buckets into rec[] (0 past m). */
template <typename K, int RULE, int R>
__device__ __forceinline__ void chunk_load(const seg_params &p, uint32_t lo, uint32_t m, uint32_t lane, bool vals,
                                           uint32_t (&rec)[R], uint32_t (&val)[R])
{
    K key[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t j = (uint32_t)k * 32u + lane;
        key[k] = RULE != SPLIT_BUCKETS_IDS && j < m ? __ldg((const K *)p.keys_in + lo + j) : K(0);
        val[k] = vals && j < m ? __ldg(p.vals_in + lo + j) : 0u;
    }
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t j = (uint32_t)k * 32u + lane;
        rec[k] = j < m ? split_bucket<K, RULE>(p.r, key[k], lo + j, (const K *)p.r.boundaries) : 0u;
    }
}

/* The ballots of a loaded chunk: rec[k] becomes bucket | (rank among the round's records of its
 * bucket below this lane) << 8 | (count of bucket `lane` in the round) << 16. All 5 bits of B <= 32,
 * unrolled: a bit above the bucket bits is 0 in every bucket, so its ballot leaves `same` as it is and
 * clears `of` of lanes >= 2^bits (no such bucket). Returns lane b's count of bucket b in the chunk (0
 * for lanes >= nb). */
template <int R>
__device__ __forceinline__ uint32_t chunk_count(uint32_t (&rec)[R], uint32_t m, uint32_t lane, uint32_t nb)
{
    const uint32_t below = (1u << lane) - 1u;
    uint32_t cnt = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t valid = m - r >= 32u ? 0xFFFFFFFFu : (1u << (m - r)) - 1u;
        const uint32_t b = rec[k];
        uint32_t same = valid, of = valid;
#pragma unroll
        for (uint32_t j = 0; j < 5; ++j) {
            const uint32_t bal = __ballot_sync(0xFFFFFFFFu, (b >> j) & 1u);
            same &= bal ^ (((b >> j) & 1u) - 1u);
            of &= bal ^ (((lane >> j) & 1u) - 1u);
        }
        const uint32_t oc = (uint32_t)__popc(of);
        rec[k] = b | (uint32_t)__popc(same & below) << 8 | oc << 16;
        cnt += oc;
    }
    return lane < nb ? cnt : 0u;
}

/* Moves a counted chunk: lane b's `run` is where the chunk's first record of bucket b goes. */
template <typename K, int R>
__device__ __forceinline__ void chunk_write(const seg_params &p, const uint32_t (&rec)[R], const uint32_t (&val)[R],
                                            uint32_t lo, uint32_t m, uint32_t lane, uint32_t run, bool vals)
{
#pragma unroll
    for (int k = 0; k < R; ++k) {
        const uint32_t r = (uint32_t)k * 32u;
        if (r >= m) break; /* warp-uniform */
        const uint32_t x = rec[k];
        const uint32_t dst = __shfl_sync(0xFFFFFFFFu, run, x & 0xFFu) + ((x >> 8) & 0xFFu);
        if (r + lane < m) {
            const uint32_t src = lo + r + lane;
            if (p.keys_out) ((K *)p.keys_out)[dst] = __ldg((const K *)p.keys_in + src);
            if (vals) p.vals_out[dst] = val[k];
            if (p.gather) p.gather[dst] = src;
            if (p.scatter) p.scatter[src] = dst;
        }
        run += x >> 16;
    }
}

struct ballot_smem {
    uint32_t lo[STAGE + 1];      /* the window's segment starts, clamped to the record count */
    uint32_t big[STAGE];         /* the window's segments above a warp chunk (window-local index) */
    uint32_t counts[BW][32];     /* block segments: per-warp bucket counts */
};

/* Bucket `lane`'s count in the warps before `warp` and in all BW warps, from sm.counts (written and
 * synchronised by the caller). */
__device__ __forceinline__ void warps_before_total(const ballot_smem &sm, uint32_t warp, uint32_t lane, uint32_t &before,
                                                   uint32_t &tot)
{
    before = 0;
    tot = 0;
#pragma unroll
    for (int w = 0; w < BW; ++w) {
        const uint32_t v = sm.counts[w][lane];
        before += (uint32_t)w < warp ? v : 0u;
        tot += v;
    }
}

struct ballot_ctl {
    uint32_t num_big, next;      /* this window: block segments listed, next segment to take */
    uint32_t nhuge, huge_tiles;  /* huge segments listed by this block, and their tiles */
    uint32_t sb, se;             /* the block's segments [sb, se) */
    uint32_t sums[4];            /* huge path: block sums */
};

/* Splits records [wlo, wlo + wm), wm <= 32 * R, of segment s (which starts at seg_lo) in one pass.
 * Alone (block false): the warp holds the whole segment. Block (block-uniform, every warp calls it):
 * each warp holds one part; the per-warp counts meet in shared memory, every warp derives the same
 * bucket starts (barriers before and after). */
template <typename K, int RULE, int R>
__device__ __forceinline__ void chunk_segment(const seg_params &p, ballot_smem &sm, uint32_t s, uint32_t seg_lo,
                                              uint32_t wlo, uint32_t wm, uint32_t warp, uint32_t lane, uint32_t nb,
                                              bool block)
{
    const bool vals = p.vals_out != nullptr;
    uint32_t rec[R], val[R];
    chunk_load<K, RULE, R>(p, wlo, wm, lane, vals, rec, val);
    const uint32_t cnt = chunk_count<R>(rec, wm, lane, nb);
    uint32_t tot = cnt, before = 0;
    if (block) {
        sm.counts[warp][lane] = cnt;
        __syncthreads();
        warps_before_total(sm, warp, lane, before, tot);
    }
    const uint32_t base = seg_lo + split_warp_exclusive_sum(tot, lane);
    if ((!block || warp == 0) && p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = base;
    chunk_write<K, R>(p, rec, val, wlo, wm, lane, base + before, vals);
    if (block) __syncthreads(); /* the counts are reused */
}

/* The whole block splits segment s = [lo, hi) of more than a block chunk (block-uniform arguments): a
 * counting pass over block chunks (warp w: chunk w of each), then each block chunk ranked and moved.
 * Ends with a barrier. */
template <typename K, int RULE>
__device__ void ballot_block_multi(const seg_params &p, ballot_smem &sm, uint32_t s, uint32_t lo, uint32_t hi,
                                   uint32_t warp, uint32_t lane, uint32_t nb)
{
    const uint32_t m = hi - lo;
    const bool vals = p.vals_out != nullptr;
    uint32_t rec[CR], val[CR], cnt = 0;
    for (uint32_t done = 0; done < m; done += BLOCK_CHUNK) {
        const uint32_t at = done + warp * (uint32_t)CHUNK;
        const uint32_t wlo = at < m ? lo + at : hi, wm = min((uint32_t)CHUNK, hi - wlo);
        chunk_load<K, RULE, CR>(p, wlo, wm, lane, false, rec, val);
        cnt += chunk_count<CR>(rec, wm, lane, nb);
    }
    sm.counts[warp][lane] = cnt;
    __syncthreads();
    uint32_t tot = 0;
#pragma unroll
    for (int w = 0; w < BW; ++w) tot += sm.counts[w][lane];
    uint32_t base = lo + split_warp_exclusive_sum(tot, lane);
    if (warp == 0 && p.bucket_offsets && lane < nb) p.bucket_offsets[(size_t)s * nb + lane] = base;
    __syncthreads();
    for (uint32_t done = 0; done < m; done += BLOCK_CHUNK) {
        const uint32_t at = done + warp * (uint32_t)CHUNK;
        const uint32_t wlo = at < m ? lo + at : hi, wm = min((uint32_t)CHUNK, hi - wlo);
        chunk_load<K, RULE, CR>(p, wlo, wm, lane, vals, rec, val);
        sm.counts[warp][lane] = chunk_count<CR>(rec, wm, lane, nb);
        __syncthreads();
        uint32_t before;
        warps_before_total(sm, warp, lane, before, tot);
        chunk_write<K, CR>(p, rec, val, wlo, wm, lane, base + before, vals);
        base += tot;
        __syncthreads();
    }
}

/* f(s) of the partition: the merge-path position of segment s's middle. */
__device__ __forceinline__ uint64_t merge_path_mid(const seg_params &p, uint32_t count, uint32_t s)
{
    const uint32_t lo = min(__ldg(p.off + s), count), hi = max(lo, min(__ldg(p.off + s + 1), count));
    return (uint64_t)s * SEG_BALLOT_SEGMENT_WEIGHT + (((uint64_t)lo + hi) >> 1);
}

/* The block's segments [ctl.sb, ctl.se): warp 0 finds the first segment whose f reaches the share's
 * start, warp 1 the first past its end (32-ary searches, one probe per lane and round). */
__device__ void ballot_partition(const seg_params &p, ballot_ctl &ctl, uint32_t count, uint32_t g, uint32_t G)
{
    const uint32_t warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    if (warp < 2) {
        const uint64_t F = (uint64_t)p.S * SEG_BALLOT_SEGMENT_WEIGHT + count, D = F * (g + warp) / G;
        uint32_t lo = 0, hi = p.S; /* the answer lies in [lo, hi] (hi: S, or known to reach D) */
        while (lo < hi) {
            const uint32_t len = hi - lo, step = (len + 31u) / 32u;
            const uint64_t q = (uint64_t)lo + (uint64_t)lane * step;
            const bool below = q < hi && merge_path_mid(p, count, (uint32_t)q) < D;
            /* the probes below D are a prefix; the answer follows the last of them, up to the next probe */
            const uint32_t c = (uint32_t)__popc(__ballot_sync(0xFFFFFFFFu, below));
            if (c == 0) {
                hi = lo;
            } else {
                const uint32_t nlo = lo + (c - 1) * step + 1;
                hi = (uint32_t)min((uint64_t)lo + (uint64_t)c * step, (uint64_t)hi);
                lo = nlo;
            }
        }
        if (lane == 0) (warp ? ctl.se : ctl.sb) = lo;
    }
    __syncthreads();
}

/* Huge segments of the ballot path: block g's slot holds up to p.slot_cap (segment, tiles) pairs. */
__device__ __forceinline__ uint32_t *huge_slot(const seg_params &p, uint32_t g)
{
    return p.slots + (size_t)g * p.slot_cap * 2;
}

/* The huge segments the blocks listed, split by the whole grid (after the grid barrier that follows
 * the listing; grid-uniform return when there are none). */
template <typename K>
__device__ void ballot_huge(const seg_params &p, block_smem &sm, ballot_ctl &ctl, uint32_t records, uint32_t g,
                            uint32_t G, cg::grid_group &grid)
{
    const uint32_t tid = threadIdx.x, nb = p.r.num_buckets;
    /* Huge segments anywhere? Every block reads every slot count (the same answer grid-wide). */
    bool any = false;
    for (uint32_t i = tid; i < G; i += BT) any |= __ldcg(p.slot_count + i) != 0;
    if (!__syncthreads_or(any)) return;
    /* The huge list and tile table: this block's entries follow those of the blocks before it. */
    if (tid < 4) ctl.sums[tid] = 0;
    __syncthreads();
    uint32_t h_before = 0, t_before = 0, h_all = 0, t_all = 0;
    for (uint32_t i = tid; i < G; i += BT) {
        const uint32_t hc = __ldcg(p.slot_count + i), tc = __ldcg(p.slot_tiles + i);
        h_all += hc, t_all += tc;
        if (i < g) h_before += hc, t_before += tc;
    }
    atomicAdd(&ctl.sums[0], h_before), atomicAdd(&ctl.sums[1], t_before);
    atomicAdd(&ctl.sums[2], h_all), atomicAdd(&ctl.sums[3], t_all);
    __syncthreads();
    const uint32_t H = ctl.sums[2], T = ctl.sums[3], *slot = huge_slot(p, g);
    uint32_t first = ctl.sums[1];
    for (uint32_t j = 0; j < ctl.nhuge; ++j) {
        const uint32_t h = ctl.sums[0] + j, s = __ldcg(slot + 2 * j), tiles = __ldcg(slot + 2 * j + 1);
        if (tid == 0) p.huge_list[3 * h] = s, p.huge_list[3 * h + 1] = first, p.huge_list[3 * h + 2] = tiles;
        for (uint32_t t = tid; t < tiles; t += BT) p.tile_huge[first + t] = h;
        first += tiles;
    }
    grid.sync();
    /* Every huge tile's bucket counts. */
    for (uint32_t t = g; t < T; t += G) huge_tile_count<K>(p, sm, records, t);
    grid.sync();
    /* Each huge segment's columns scanned into absolute starts, its bucket offsets written. */
    for (uint32_t h = g; h < H; h += G) huge_scan_segment(p, sm, records, h);
    grid.sync();
    /* Every huge tile ranked and moved. */
    for (uint32_t t = g; t < T; t += G) {
        uint32_t lo, hi;
        huge_tile_range(p, records, t, lo, hi);
        for (uint32_t b = tid; b < nb; b += BT)
            sm.base[b] = __ldcg(p.tile_base + (size_t)t * nb + b), sm.run[b] = 0;
        __syncthreads();
        block_range<K>(p, sm, lo, hi);
    }
}

template <typename K, int RULE>
__global__ void __launch_bounds__(BT, SC_MIN_BLOCKS(BT, SEG_BALLOT_BLOCKS_PER_SM)) seg_ballot_kernel(seg_params p)
{
    __shared__ union {
        ballot_smem a;
        block_smem b;
    } sm;
    __shared__ ballot_ctl ctl;
    const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5, g = blockIdx.x, G = gridDim.x;
    const uint32_t nb = p.r.num_buckets, count = seg_count(p);
    if (g == 0 && tid == 0 && p.bucket_offsets) p.bucket_offsets[(size_t)p.S * nb] = count;
    if (tid == 0) ctl.nhuge = 0, ctl.huge_tiles = 0;
    ballot_partition(p, ctl, count, g, G);
    const uint32_t sb = ctl.sb, se = max(ctl.sb, ctl.se);
    for (uint32_t w0 = sb; w0 < se; w0 += STAGE) {
        const uint32_t wn = min((uint32_t)STAGE, se - w0);
        for (uint32_t j = tid; j <= wn; j += BT) sm.a.lo[j] = min(__ldg(p.off + w0 + j), count);
        if (tid == 0) ctl.num_big = 0, ctl.next = 0;
        __syncthreads();
        for (uint32_t j = tid; j < wn; j += BT) { /* list the segments above a warp chunk */
            const uint32_t lo = sm.a.lo[j], m = max(lo, sm.a.lo[j + 1]) - lo;
            if (m <= (uint32_t)CHUNK) continue;
            if (m <= (uint32_t)SEG_BALLOT_MAX_RECORDS) {
                sm.a.big[atomicAdd(&ctl.num_big, 1u)] = j;
            } else {
                const uint32_t tiles = (m + SEG_HUGE_TILE - 1) / SEG_HUGE_TILE;
                uint32_t *slot = huge_slot(p, g) + 2 * atomicAdd(&ctl.nhuge, 1u);
                slot[0] = w0 + j;
                slot[1] = tiles;
                atomicAdd(&ctl.huge_tiles, tiles);
            }
        }
        __syncthreads();
        /* The listed segments with the whole block first (block-uniform), then the warps take the rest
         * one at a time. One call site per chunk size, shared by the block and the warps. */
        const uint32_t num_big = ctl.num_big;
        uint32_t q = 0;
        for (;;) {
            uint32_t s, seg_lo, wlo, wm;
            bool block;
            if (q < num_big) {
                const uint32_t j = sm.a.big[q++], hi = sm.a.lo[j + 1];
                s = w0 + j;
                seg_lo = sm.a.lo[j];
                const uint32_t m = hi - seg_lo;
                if (m > (uint32_t)BLOCK_CHUNK) {
                    ballot_block_multi<K, RULE>(p, sm.a, s, seg_lo, hi, warp, lane, nb);
                    continue;
                }
                const uint32_t part = ((m + BW - 1) / BW + 31u) & ~31u, at = warp * part; /* part <= CHUNK */
                wlo = at < m ? seg_lo + at : hi;
                wm = min(part, hi - wlo);
                block = true;
            } else {
                uint32_t j = 0;
                if (lane == 0) j = atomicAdd(&ctl.next, 1u);
                j = __shfl_sync(0xFFFFFFFFu, j, 0);
                if (j >= wn) break;
                seg_lo = sm.a.lo[j];
                const uint32_t m = max(seg_lo, sm.a.lo[j + 1]) - seg_lo;
                if (m > (uint32_t)CHUNK) continue; /* listed */
                s = w0 + j;
                wlo = seg_lo;
                wm = m;
                block = false;
                if (m <= 64u) {
                    chunk_segment<K, RULE, 2>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, false);
                    continue;
                }
                if (m <= 32u * HALF_R) {
                    chunk_segment<K, RULE, HALF_R>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, false);
                    continue;
                }
            }
            chunk_segment<K, RULE, CR>(p, sm.a, s, seg_lo, wlo, wm, warp, lane, nb, block);
        }
        __syncthreads(); /* before the next window is staged */
    }
    if (tid == 0) p.slot_count[g] = ctl.nhuge, p.slot_tiles[g] = ctl.huge_tiles;
    if (!p.may_huge) return; /* grid-uniform: n admits no segment above SEG_BALLOT_MAX_RECORDS */
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    ballot_huge<K>(p, sm.b, ctl, count, g, G, grid);
}

} // namespace

#endif /* SPLIT_SEGMENTED_BALLOT_CUH */
