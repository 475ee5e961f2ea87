/* segmented_split.cu - split_segmented: a stable split inside each of many segments.
 *
 * Segments are classified by size on the device (the host never sees them):
 *  - B <= SEG_BALLOT_MAX_BUCKETS: the ballot path, one cooperative kernel (seg_ballot_kernel). A
 *    record's bucket bits are exchanged by ballots, which give every lane the mask of the round's (32
 *    records) records in its own record's bucket (its rank: the lanes below it) and the mask of records
 *    in bucket `lane` (lane b counts bucket b); a warp scan turns lane b's count into bucket b's start,
 *    and each record moves to start[bucket] + rank. A warp holds a chunk of up to SEG_BALLOT_ROUNDS
 *    rounds in registers (the smallest of 2, SEG_BALLOT_ROUNDS / 2 and SEG_BALLOT_ROUNDS rounds that
 *    holds the segment; every round's key and value loaded at once: one memory round trip). The blocks
 *    split the segments in record-balanced shares (a merge path over segments and records); in a
 *    block, segments above one warp chunk (up to SEG_BALLOT_MAX_RECORDS) are split by all its warps
 *    first, then the warps take the others one at a time. Larger ("huge") segments are listed per
 *    block and split after grid-wide barriers in the same kernel, as tiles like the multi-block path
 *    below. O(m) work, stable; with no huge segment the kernel ends at its first grid barrier.
 *  - small, larger B (<= SEG_WARP_MAX_RECORDS): one warp per segment. Each record gets the key
 *    (bucket << 8 | local index), unique inside the segment; its rank is the number of smaller keys
 *    (comparisons against the segment's keys in shared memory), which is the stable order. The
 *    sorted keys in shared memory give the moves (coalesced writes) and, by binary search, the
 *    segment's bucket offsets. The same kernel appends the larger segments to two work lists.
 *  - medium (<= SEG_BLOCK_MAX_RECORDS): one block per segment: histogram in shared memory, scan,
 *    then sub-tiles of SEG_SUBTILE records ranked by a block radix sort of (bucket, index) keys and
 *    written bucket run by bucket run.
 *  - huge: tiles of SEG_HUGE_TILE records over many blocks: per-tile histograms, a per-segment scan
 *    down each bucket's column of tiles, then each tile ranked like a medium segment.
 * Launches, B > 32: a counter reset, the small-segment kernel (which fills the work lists), one kernel
 * for the medium segments and the huge tiles' histograms and scans, and the huge scatter (only when n
 * admits a huge segment). B <= 32: the ballot kernel alone.
 * Work lists, counters and tile tables live in the caller's temporary storage. With
 * desc->num_records_device every kernel reads the record count c first and clamps the segment
 * bounds to it (seg_bounds), so records past c are never touched.
 * This file is the host side (temporary storage layout, the ballot kernel's occupancy, launches); the
 * kernels are in segmented_tiers.cuh (B > 32) and segmented_ballot.cuh (B <= 32), over
 * segmented_tiles.cuh and segmented_params.cuh. */
#include <string.h>

#include <atomic>

#include "sc_report.h"
#include "segmented_ballot.cuh"
#include "segmented_tiers.cuh"
#include "split.h"
#include "split_occupancy.cuh"
#include "split_tuning.h"
#include "split_validate.h"

namespace {

size_t align_up(size_t x) { return (x + SEG_TEMP_ALIGN - 1) / SEG_TEMP_ALIGN * SEG_TEMP_ALIGN; }

/* The temporary storage, from n, S, B and the ballot path's grid alone. B > 32: counters, the medium
 * and huge work lists and the tile tables. Ballot path: per-block huge slots (counts, tiles, pairs)
 * and the tile tables. */
struct seg_layout {
    size_t medium_cap, huge_cap, tile_cap, slot_cap;
    size_t off_medium, off_huge, off_huge_done, off_tile_huge, off_tile_base;
    size_t off_slot_count, off_slot_tiles, off_slots, total;
};

seg_layout make_layout(size_t n, size_t S, uint32_t nb, uint32_t grid)
{
    const bool ballot = nb <= SEG_BALLOT_MAX_BUCKETS;
    seg_layout l;
    memset(&l, 0, sizeof l);
    l.medium_cap = ballot ? 0 : n / (SEG_WARP_MAX_RECORDS + 1);
    if (l.medium_cap > S) l.medium_cap = S;
    l.huge_cap = n / ((ballot ? SEG_BALLOT_MAX_RECORDS : SEG_BLOCK_MAX_RECORDS) + 1);
    if (l.huge_cap > S) l.huge_cap = S;
    l.tile_cap = n / SEG_HUGE_TILE + l.huge_cap; /* sum of ceil(m / tile) over huge segments */
    size_t at = align_up(4 * sizeof(uint32_t));
    if (ballot) {
        /* block g owns the segments whose merge-path middle lies in a range of at most ceil(F / grid)
         * items; the middles of two huge segments lie more than SEG_BALLOT_MAX_RECORDS apart */
        const size_t F = S * SEG_BALLOT_SEGMENT_WEIGHT + n, share = (F + grid - 1) / grid;
        l.slot_cap = share ? (share - 1) / (SEG_BALLOT_MAX_RECORDS + 1) + 1 : 1;
        if (l.slot_cap > l.huge_cap) l.slot_cap = l.huge_cap;
        l.off_slot_count = at;
        at += align_up(grid * sizeof(uint32_t));
        l.off_slot_tiles = at;
        at += align_up(grid * sizeof(uint32_t));
        l.off_slots = at;
        at += align_up((2 * l.slot_cap * grid + 1) * sizeof(uint32_t));
    } else {
        l.off_medium = at;
        at += align_up((l.medium_cap + 1) * sizeof(uint32_t));
    }
    l.off_huge = at;
    at += align_up((3 * l.huge_cap + 3) * sizeof(uint32_t));
    l.off_huge_done = at;
    at += align_up((l.huge_cap + 1) * sizeof(uint32_t));
    l.off_tile_huge = at;
    at += align_up((l.tile_cap + 1) * sizeof(uint32_t));
    l.off_tile_base = at;
    at += align_up((l.tile_cap * nb + 1) * sizeof(uint32_t));
    l.total = at;
    return l;
}

uint32_t grid_for(size_t work, size_t cap) { return (uint32_t)(work < cap ? (work ? work : 1) : cap); }

/* The ballot kernel of a key type and rule. */
typedef void (*seg_kernel_fn)(seg_params);

seg_kernel_fn ballot_kernel_for(split_key_type kt, int rule)
{
    const bool u64 = kt == SPLIT_KEY_U64;
    return split_with_rule(rule, [&](auto r) -> seg_kernel_fn {
        return u64 ? seg_ballot_kernel<uint64_t, decltype(r)::value> : seg_ballot_kernel<uint32_t, decltype(r)::value>;
    });
}

/* The ballot path's cooperative grid: the blocks the device holds at once (at most
 * SEG_BALLOT_BLOCKS_PER_SM per SM), and no more than one per SEG_BALLOT_MIN_SHARE merge-path items.
 * The occupancy query is made once per device and kernel (split_blocks_per_sm). */
sc_status ballot_grid(split_key_type kt, int rule, size_t n, size_t S, uint32_t *grid)
{
    static split_occ_cache occ_cache[2 * SPLIT_RULE_COUNT]; /* (64-bit keys) x SPLIT_RULE_COUNT + rule */
    if (!split_rule_known(rule))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split_segmented: bucket rule %d is not a split_bucket_rule", rule);
    const int slot = (kt == SPLIT_KEY_U64 ? SPLIT_RULE_COUNT : 0) + rule;
    int dev = 0, sms = 0, occ = 0;
    const seg_kernel_fn kernel = ballot_kernel_for(kt, rule);
    if (!kernel) return SC_ERROR_INVALID_ARGUMENT; /* recorded by split_with_rule */
    SC_TRY(split_blocks_per_sm(kernel, BT, 0, occ_cache[slot], &dev, &occ));
    if (occ < 1) return SC_FAIL(SC_ERROR_CUDA, "split_segmented: the ballot kernel cannot be resident");
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (occ > SEG_BALLOT_BLOCKS_PER_SM) occ = SEG_BALLOT_BLOCKS_PER_SM;
    if (sms < 1) sms = 1;
    const size_t F = S * SEG_BALLOT_SEGMENT_WEIGHT + n;
    *grid = grid_for((F + SEG_BALLOT_MIN_SHARE - 1) / SEG_BALLOT_MIN_SHARE, (size_t)sms * (size_t)occ);
    return SC_OK;
}

template <typename K>
sc_status launch_wide_b(const seg_params &p, const seg_layout &l, cudaStream_t stream)
{
    SC_CUDA_CHECK(cudaMemsetAsync(p.counters, 0, 4 * sizeof(uint32_t), stream));
    uint32_t sms = 1;
    SC_TRY(sc_cuda_device_sms(&sms));
    const size_t warp_blocks = ((size_t)p.S + SEG_WARP_KERNEL_WARPS - 1) / SEG_WARP_KERNEL_WARPS;
    seg_warp_kernel<K><<<grid_for(warp_blocks, SEG_WARP_MAX_GRID), SEG_WARP_KERNEL_WARPS * 32, 0, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("seg_warp_kernel");
    const size_t large_items = l.medium_cap + (l.huge_cap > 0 ? l.tile_cap : 0);
    if (large_items == 0) return SC_OK;
    /* The work lists are usually empty (and at most a few blocks' worth of work): the grid is what
     * the device holds at once, not one block per possible item. */
    size_t cap = (size_t)sms * SEG_LARGE_BLOCKS_PER_SM;
    if (cap > SEG_MAX_GRID) cap = SEG_MAX_GRID;
    seg_large_kernel<K><<<grid_for(large_items, cap), SEG_BLOCK_THREADS, 0, stream>>>(p);
    SC_CUDA_CHECK_LAUNCH("seg_large_kernel");
    if (l.huge_cap > 0) {
        seg_huge_scatter_kernel<K><<<grid_for(l.tile_cap, cap), SEG_BLOCK_THREADS, 0, stream>>>(p);
        SC_CUDA_CHECK_LAUNCH("seg_huge_scatter_kernel");
    }
    return SC_OK;
}

/* The ballot path: one cooperative launch (a launch attribute, so it is captured into graphs). */
sc_status launch_ballot(const seg_params &p, split_key_type kt, uint32_t grid, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(BT);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    const seg_kernel_fn kernel = ballot_kernel_for(kt, p.rule);
    if (!kernel) return SC_ERROR_INVALID_ARGUMENT; /* recorded by split_with_rule */
    SC_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, p));
    SC_CUDA_CHECK_LAUNCH("seg_ballot_kernel");
    return SC_OK;
}

} // namespace

extern "C" sc_status split_segmented(void *temp, size_t *temp_bytes, const split_desc *d, cudaStream_t stream)
{
    static const char who[] = "split_segmented";
    SC_TRY(split_validate_temp_arg(temp, temp_bytes, who));
    split_checked c;
    SC_TRY(split_validate_desc(d, SPLIT_ENTRY_SEGMENTED, temp != NULL, temp, temp ? *temp_bytes : 0, who, &c));
    const uint32_t nb = c.num_buckets;
    const bool ballot = nb <= SEG_BALLOT_MAX_BUCKETS;
    uint32_t grid = 1;
    if (ballot && d->num_segments > 0) SC_TRY(ballot_grid(d->key_type, (int)d->buckets.rule, d->n, d->num_segments, &grid));
    const seg_layout l = make_layout(d->n, d->num_segments, nb, grid);
    if (!temp) {
        *temp_bytes = l.total;
        return SC_OK;
    }
    SC_TRY(split_validate_temp_size(*temp_bytes, l.total, who));
    if (d->num_segments == 0) { /* n == 0: only the last bucket offset */
        if (d->bucket_offsets) SC_CUDA_CHECK(cudaMemsetAsync(d->bucket_offsets, 0, sizeof(uint32_t), stream));
        return SC_OK;
    }
    seg_params p;
    memset(&p, 0, sizeof p);
    p.keys_in = d->keys_in;
    p.keys_out = d->keys_out;
    p.vals_in = d->values_in;
    p.vals_out = d->values_out;
    p.bucket_offsets = d->bucket_offsets;
    p.gather = d->gather_index;
    p.scatter = d->scatter_index;
    p.off = d->segment_offsets;
    p.count_dev = d->num_records_device;
    p.S = (uint32_t)d->num_segments;
    p.n = (uint32_t)d->n;
    p.bucket_bits = 1;
    while ((1u << p.bucket_bits) < nb) ++p.bucket_bits;
    p.rule = (int)d->buckets.rule;
    SC_TRY(split_rule_params_of(&d->buckets, nb, &p.r));
    char *t = (char *)temp;
    p.counters = (uint32_t *)t;
    p.medium_list = (uint32_t *)(t + l.off_medium);
    p.huge_list = (uint32_t *)(t + l.off_huge);
    p.tile_huge = (uint32_t *)(t + l.off_tile_huge);
    p.huge_done = (uint32_t *)(t + l.off_huge_done);
    p.tile_base = (uint32_t *)(t + l.off_tile_base);
    if (ballot) {
        p.slot_count = (uint32_t *)(t + l.off_slot_count);
        p.slot_tiles = (uint32_t *)(t + l.off_slot_tiles);
        p.slots = (uint32_t *)(t + l.off_slots);
        p.slot_cap = (uint32_t)l.slot_cap;
        p.may_huge = l.huge_cap > 0;
        return launch_ballot(p, d->key_type, grid, stream);
    }
    if (d->key_type == SPLIT_KEY_U32) return launch_wide_b<uint32_t>(p, l, stream);
    return launch_wide_b<uint64_t>(p, l, stream);
}

