/* split_tuning.h - every tuning constant of the split library, in one place (internal).
 * Plain enums so the header is usable from C (.c host code) and CUDA (.cu kernels) alike.
 * Each section belongs to one family of primitives; change a value here, never in a kernel. */
#ifndef SPLIT_TUNING_H
#define SPLIT_TUNING_H

/* ---- split / multisplit / split index (multisplit*.cu) and SplitSort (sort.cu) ----
 * The count kernel counts columns of whole tiles (16-byte loads, shared atomics) and writes each
 * tile's counts before it in its column (tile rows); one exclusive scan of the column-major (bucket x
 * column) table gives every column its global start per bucket; a scatter kernel takes the tiles in
 * input order from a counter, ranks each in registers, reorders it in shared memory and writes
 * contiguous runs. Scatter kernels: B <= SPLIT_LOOKBACK_MAX_BUCKETS the look-back kernel
 * (multisplit_lookback.cu, SPLIT_LB_*); B above, two-level tiles (multisplit_twolevel.cu, SPLIT_TL_*)
 * for 32-bit keys with one payload stream at most and no scatter index, else the general kernel
 * (multisplit_kernels.cuh): tiles of SPLIT_BLOCK_WARPS warps x 32 lanes x SPLIT_BLOCK_PATH_ITEMS rounds
 * of 32 consecutive records, value streams one at a time through one staging buffer. */
enum {
    SPLIT_WARP_LANES = 32,
    SPLIT_BLOCK_WARPS = 8,                                 /* warps per block */
    SPLIT_BLOCK_THREADS = SPLIT_BLOCK_WARPS * SPLIT_WARP_LANES,
    /* records per thread per tile of the general kernel (H100, 2^26 keys, B = 256 when it took that
     * path: 8 items 0.917 ms, 12 0.719, 16 0.712 but pairs 0.864 -> 0.953 ms) */
    SPLIT_BLOCK_PATH_ITEMS = 12,
    SPLIT_BLOCK_TILE_ITEMS = SPLIT_BLOCK_THREADS * SPLIT_BLOCK_PATH_ITEMS, /* 3072 */
    /* Scatter kernel: blocks per SM the register allocation must allow (__launch_bounds__). */
    SPLIT_SCATTER_MIN_BLOCKS = 3,
    /* Count kernel: 16-byte vectors per thread per loop step (the bucket-id loop of 64-bit keys
     * reads U * V / 4 id vectors, rounded up). */
    SPLIT_COUNT_VECTORS = 2,
    /* Count kernel: blocks per SM its registers must allow (__launch_bounds__: 32 registers at 256
     * threads; the RANGE rule is left unbounded). */
    SPLIT_COUNT_BLOCKS_PER_SM = 8,
    /* Count kernel, every B: one shared atomic per record into copy (lane mod copies) of the
     * histogram, copies = the largest power of two up to SPLIT_COUNT_COPIES with B x copies <=
     * SPLIT_COUNT_HIST_WORDS (B = 256: 8 copies, a warp of one bucket makes 4-way conflicts). */
    SPLIT_COUNT_COPIES = 8,
    SPLIT_COUNT_HIST_WORDS = 4096,
    /* Tile order (multisplit_lookback.cu; single-front outputs, see split_kernel_params) for
     * B <= SPLIT_LOOKBACK_MAX_BUCKETS: the count kernel counts whole tiles and writes each tile's
     * bucket starts within its column (tile rows), and SMs x SPLIT_LB_BLOCKS_PER_SM* blocks of
     * SPLIT_LB_WARPS warps take the tiles in order from a counter; with bucket totals given (the
     * second pass of a two-pass split, n < 2^30) the tiles look back over each other's published
     * counts instead (a status word holds a 30-bit count and two flags). Tiles of SPLIT_LB_WARPS x 32
     * lanes x SPLIT_LB_ITEMS* rounds. H100, 2^26 keys, B = 256: 6144-record tiles in look-back order
     * 0.585 ms, 9216 0.516 ms, 9216 with tile rows 0.462 ms (the look-back waits had taken a quarter
     * of the kernel's stall samples). */
    SPLIT_LOOKBACK_MAX_BUCKETS = 256,
    /* B <= this: a round's record finds the lanes of its bucket by ceil(log2 B) ballots, and lane L
     * keeps bucket L's count in a register (no shared atomics; B = 33 .. 64: buckets L and L + 32, two
     * 16-bit counters, one ballot more); above, by a shared atomicOr of lane bits. Tile order with
     * ballots against the column-order warp path it replaced (H100, 2^26, uniform): keys B = 2 0.313
     * -> 0.300 ms, B = 32 0.388 -> 0.369; pairs B = 2 0.516 -> 0.474, B = 32 0.638 -> 0.549
     * (split_bench --only, two runs on one machine). B = 64 by ballots: see SPLIT_TWO_PASS_HIGH_BITS. */
    SPLIT_LB_BALLOT_MAX_BUCKETS = 64,
    SPLIT_LB_WARPS = 12,
    SPLIT_LB_THREADS = SPLIT_LB_WARPS * 32,
    /* Blocks per SM (grid and register bound): 2 (80 registers per thread); 32-bit key-only splits
     * ranked by ballots 3 (56 registers, SPLIT_LB_ITEMS_BALLOTS records per thread). H100, uniform,
     * one run: keys 2^26 B = 2 0.303 -> 0.300 ms, B = 32 0.374 -> 0.369, 2^24 B = 2 0.096 -> 0.093,
     * B = 32 0.116 -> 0.112 (20 items at 2 blocks -> 12 at 3); with 3 blocks pairs and B = 256 were
     * slower (pairs 2^26 B = 2 0.474 -> 0.503 ms at 12 items, 0.533 at 16; keys B = 256 0.443 ->
     * 0.469 at 16), and 4 blocks of 8 items no faster. */
    SPLIT_LB_BLOCKS_PER_SM = 2,
    SPLIT_LB_BLOCKS_PER_SM_BALLOTS = 3,
    /* Records per thread and tile. H100, 2^26, uniform, one run (items 16 / 20 / 24, write loop
     * fully unrolled -> unrolled 4 times): keys B = 256 0.501 / 0.475 / 0.458 -> 0.483 / 0.456 /
     * 0.443 ms; keys B = 32 0.399 / 0.382 / 0.382 -> 0.383 / 0.374 / 0.411; pairs B = 256 0.811 /
     * 0.860 / 0.919 (20 and 24 spill); pairs B = 2 0.474 / 0.503 / 0.539, B = 32 0.549 / 0.575 /
     * 0.616. 64-bit keys: registers (16 keys, 12 with payloads). At 2^24 too (2026-11-25, one call):
     * keys B = 256 0.131 ms at 24 items, 0.133 at 20 (with 8-item ballot kernels at 4 blocks per SM:
     * keys B = 32 0.097 -> 0.100), 0.136 at 16. */
    SPLIT_LB_ITEMS = 24,              /* keys only, B > SPLIT_LB_BALLOT_MAX_BUCKETS */
    SPLIT_LB_ITEMS_BALLOTS = 12,      /* keys only, B <= SPLIT_LB_BALLOT_MAX_BUCKETS (3 blocks per SM) */
    /* One payload stream (the values or the gather index), loaded once the tile is ranked and staged,
     * and staged itself once the keys are written (multisplit_lookback.cu), so the ranking holds no
     * payload registers and tiles can be larger. H100, 2^26 pairs, uniform, against the payload loaded before the ranking
     * at 16 items (one machine, two runs each): B = 256 0.799 -> 0.731 ms at 20 items (0.763 at 16,
     * 0.757 at 24: spills), hockey-stick 0.695 -> 0.609, B = 2048 (two passes) 1.221 -> 1.150; B = 2
     * and 32 (ballots) unchanged at 16 items and at 12 items with 3 blocks per SM, B = 32 0.555 ->
     * 0.550 at 20 items (0.547 at 24, but B = 2 0.474 -> 0.478). 64-bit keys with one payload, split_sort
     * u64 pairs at 2^26: 9.08 ms at 12 items, 8.30 at 16 (9.05 / 8.57 with the payload loaded first).
     * Ballots again after they test masked bits (3f1ceee; 2^26, two runs): 16 / 20 / 24 items pairs
     * B = 32 0.545 / 0.532 / 0.548 ms, B = 2 0.469 / 0.467 / 0.474. */
    SPLIT_LB_ITEMS_PAIRS = 20,        /* one payload stream, B > SPLIT_LB_BALLOT_MAX_BUCKETS */
    SPLIT_LB_ITEMS_PAIRS_BALLOTS = 20,/* one payload stream, B <= SPLIT_LB_BALLOT_MAX_BUCKETS */
    /* Keys only, B <= SPLIT_LB_BALLOT_MAX_BUCKETS, looking back over given totals (2 blocks per SM;
     * the second pass of a two-pass split, see SPLIT_TWO_PASS_HIGH_BITS). H100, 2^26 keys, B = 2048,
     * two runs each: 24 items 0.686 ms, 20 0.694, 16 0.735 (12 at 3 blocks per SM: 0.748). Nsight
     * Compute: the pass's kernel takes 391 us at 24 items with 80 registers and 3.3M local-memory
     * spill requests, 406 us at 20, against 248 us for the first pass's (B = 32, tile rows, one
     * ahead, 3 blocks per SM), which moves the same 8 bytes a key. */
    SPLIT_LB_ITEMS_LOOK = 24,
    SPLIT_LB_ITEMS_ANY = 16,          /* several payload streams or the scatter index too */
    SPLIT_LB_ITEMS_KEYS64 = 16,
    SPLIT_LB_ITEMS_PAIRS64 = 16,      /* one payload stream (more outputs: 12) */
    SPLIT_LB_ITEMS_ANY64 = 12,
    /* The look-back kernel scans the count table itself before its tiles, chunks of this many rows of
     * its block's width (3072 entries) taken by its blocks; a tile's first read of the scanned table
     * waits for every chunk. H100, against the table scan kernel launched between the count and the
     * scatter kernel: a second launch of that scan cost 2^24 keys B = 2 / 32 / 256 / 2048 2 / 4 / 4.5 /
     * 6 us, pairs B = 32 / 256 3 / 5, 2^26 keys and pairs B = 32 5 / 4. Chunks of 16 / 32 rows (one
     * call, 3 rounds, 2^26 pairs): B = 256 0.710 -> 0.707 / 0.730 ms, B = 2048 1.020 -> 1.010 / 1.030,
     * B = 2 and 32 unchanged / +1 %; 8 stays (16 is within the spread). Rows x 12 warps must be a
     * multiple of 32 (split_scan_chunk). */
    SPLIT_LB_SCAN_ROWS = 8,
    /* The key-only 32-bit write loop (staged keys to memory) unrolled this many times, not fully. */
    SPLIT_LB_KEYS_WRITE_UNROLL = 4,
    /* Upper bound of the grid of the count and scatter kernels; the (bucket x block) table in the
     * temporary storage has at most SPLIT_MAX_GRID_BLOCKS * B entries. Tile order, count columns
     * (H100, 2026-11-25, one call each): at most 2048 / 4096 columns 2^24 keys B = 256 0.130 -> 0.133 /
     * 0.133 ms, pairs 0.191 -> 0.195 / 0.199; columns of at least 16K / 32K / 64K records 2^22 keys B = 2
     * 0.027 -> 0.030 / 0.036 / 0.048, 2^24 keys B = 256 0.130 -> 0.130 / 0.131 / 0.137. */
    SPLIT_MAX_GRID_BLOCKS = 1024,
    /* Value streams moved with the keys by the internal split (public API: at most one). */
    SPLIT_MAX_VALUE_STREAMS = 4,
    /* Alignment of every sub-buffer carved out of the caller's temporary storage. */
    SPLIT_TEMP_ALIGN = 256,
    /* Dynamic shared memory above this needs cudaFuncAttributeMaxDynamicSharedMemorySize. */
    SPLIT_DEFAULT_SMEM_BYTES = 48 * 1024,
    /* The exclusive scan of the (bucket x column) count table (table_scan.cu), one launch of blocks
     * of SPLIT_SMALL_SCAN_THREADS threads: up to SPLIT_SMALL_SCAN_MAX entries (8 rows of the block)
     * one block, above that a block per chunk of that many, each adding the totals the chunks before
     * it publish. H100, uniform keys, one block against CUB's DeviceScan (two launches) for every
     * table: 2^24 B = 2 (2K entries) 0.091 -> 0.087 ms, B = 2048 (two passes: 8K entries and 256
     * given totals) 0.234 -> 0.229; B = 32 (29K entries, 32 rows) 0.109 -> 0.115; the chunks against
     * CUB above 8K entries (two runs each): 2^24 keys B = 32 0.099 -> 0.096, B = 256 0.133 -> 0.130,
     * 2^26 B = 32 0.328 -> 0.325, B = 256 0.434 -> 0.429. */
    SPLIT_SMALL_SCAN_THREADS = 1024,
    SPLIT_SMALL_SCAN_MAX = 8 * 1024,
    /* Chunks of the table scan launched as a programmatic dependent launch (scheduled while the count
     * kernel runs); more chunks (B = 2048: up to 256 blocks of 1024 threads) launch plainly. H100,
     * 2^26, B = 2048, BOUNDARIES rule (two-level kernel), two runs: all dependent keys 1.682 ms, pairs
     * 2.455; plain above 32 chunks 1.415 / 2.272 (CUB's scan had 1.415 / 2.27); B = 32 and 256 (4 and
     * 29 chunks) unchanged. */
    SPLIT_SCAN_DEPENDENT_MAX_CHUNKS = 32,
    /* Threads per block of element-wise helper kernels (offsets, layout conversions). */
    SPLIT_ELEMENTWISE_THREADS = 256
};

/* Two-level tiles (multisplit_twolevel.cu): 32-bit keys, SPLIT_LOOKBACK_MAX_BUCKETS < B <= 2048, at
 * most one payload stream (values or the gather index), no scatter index, any rule (not the BITS
 * rule's keys / values without an index: the two-pass split below is faster there, H100, 2^26, B =
 * 2048: keys 0.754 against 1.148 ms, pairs 1.196 against 2.029). Tile order with tile rows, tiles of
 * SPLIT_TL_WARPS warps x 32 lanes x SPLIT_TL_ITEMS* rounds, each sorted by bucket in shared memory by
 * two stable local passes: the low ceil(log2 B) - 8 bits of the bucket (ballots), then its high 8 bits
 * (SPLIT_TL_HIGH_BUCKETS, shared atomicOr match); the tile's histogram of the B buckets gives the
 * runs' global starts. Records per thread: what 80 registers hold with little spilling. */
enum {
    SPLIT_TL_WARPS = 12,
    SPLIT_TL_THREADS = SPLIT_TL_WARPS * 32,
    SPLIT_TL_ITEMS = 16,          /* one output stream (the keys, or the gather index alone) */
    SPLIT_TL_ITEMS_PAY = 12,      /* the keys and a payload stream */
    SPLIT_TL_ITEMS_RECOMP = 16,   /* the keys and a payload, BITS rule (buckets recomputed from the keys) */
    SPLIT_TL_BLOCKS_PER_SM = 2,
    SPLIT_TL_HIGH_BITS = 8,
    SPLIT_TL_HIGH_BUCKETS = 1 << SPLIT_TL_HIGH_BITS,
    SPLIT_TL_LOW_BITS = 3,        /* ballots of the first local pass: 2048 = 2^(8 + 3) */
    SPLIT_TL_MAX_BUCKETS = 1 << (SPLIT_TL_HIGH_BITS + SPLIT_TL_LOW_BITS)
};

/* Split of a BITS field of SPLIT_TWO_PASS_MIN_BITS .. 11 bits (B = 512 .. 2048) with keys out and no
 * index outputs: two stable LSD passes over the field (its low bits, then its top
 * SPLIT_TWO_PASS_HIGH_BITS bits), each on the fast small-B paths; bucket offsets by binary search of
 * the grouped keys. Both passes are ranked by ballots (B <= 64). H100, 2^26 / 2^24, uniform, two runs
 * each, 3 + 8 bits (the second pass by the atomicOr match) against 5 + 6: keys B = 2048 0.715 ->
 * 0.685 ms / 0.213 -> 0.205, pairs 1.119 -> 1.028 / 0.320 -> 0.295, hockey-stick keys 0.671 -> 0.668,
 * pairs 1.007 -> 0.970; with the 6-bit key-only pass looking back over tiles of 12 records per thread
 * (3 blocks per SM, as when it has tile rows) keys were 0.748 / 0.219 (split_lb_items). Not kept
 * (2026-11-25, against f8903a1 on one machine): 6 + 5 bits (the first pass of 6 bits with tile rows,
 * the second of 5 looking back), keys 0.681 -> 0.712 ms, pairs 1.010 -> 1.039-1.050; and the second
 * pass with tile rows instead of looking back (docs/PERFORMANCE.md: its kernel 390 -> 300 us under
 * Nsight Compute, but the first pass counting the second field for the second pass's tiles that start
 * inside a (bucket, column) piece cost it 109 to 274 us: keys 0.682 -> 0.716-0.760 ms). Not kept either
 * (2026-11-25, branch exp/msd): MSD order, the top 6 bits first (its count kernel counting the whole
 * field per column), then the low bits in tiles that begin at (group, column) pieces with no look-back:
 * keys 0.679 -> 0.798 ms, pairs 1.015 -> 1.084 (count 114 -> 175 us, first pass at B = 64 223 -> 264,
 * second pass 333 -> 345: its tiles are partial chunks; docs/PERFORMANCE.md). */
enum { SPLIT_TWO_PASS_MIN_BITS = 9, SPLIT_TWO_PASS_HIGH_BITS = 6 };

/* Wide unstable multisplit (multisplit_wide.cu): B up to SPLIT_MAX_WIDE_BUCKETS (BITS: up to
 * SPLIT_WIDE_MAX_BITS bits), or any B with caller's bucket counts / a device record count. A warp
 * takes chunks of SPLIT_WIDE_LANE_ITEMS x 32 consecutive records (each lane SPLIT_WIDE_LANE_ITEMS
 * consecutive ones, 16-byte loads when the inputs are aligned), grid-stride over the records; the
 * count kernel adds one atomic per distinct bucket of a warp round, the place kernel takes each
 * round's slots with one atomic per distinct bucket on the bucket's cursor. The grid is at most one
 * wave (SMs x the kernel's resident blocks per SM) of SPLIT_WIDE_THREADS threads. */
enum {
    SPLIT_WIDE_MAX_BITS = 24,            /* 2^24 = SPLIT_MAX_WIDE_BUCKETS (split.h) */
    SPLIT_WIDE_THREADS = 256,
    SPLIT_WIDE_LANE_ITEMS = 4,           /* must give 16 bytes of uint32_t (one uint4 per lane) */
    SPLIT_WIDE_CHUNK = SPLIT_WIDE_LANE_ITEMS * 32
};

/* BOUNDARIES rule in shared memory (split_bucket.cuh): slots of the key range between the smallest
 * and the largest boundary, each with the bucket of its first key, so a search covers one slot's
 * boundaries; up to SPLIT_BOUNDS_DIRECT_MAX_BUCKETS buckets the whole table is searched (H100, 2^26
 * keys, uniform, the slots against the whole table: B = 2 0.355 against 0.327 ms, B = 32 0.477
 * against 0.602, B = 256 0.641 against 1.040, B = 2048 1.461 against 2.873). */
enum { SPLIT_BOUNDS_SLOTS = 1024, SPLIT_BOUNDS_DIRECT_MAX_BUCKETS = 8 };

/* SplitSort: LSD passes of this many bits (B = 256 buckets per pass). */
enum { SPLIT_SORT_RADIX_BITS = 8 };

/* ---- segmented split (segmented_split.cu) and gather / scatter (gather_scatter.cu); owner p2 ----
 * Segments are classified by size on the device. With B <= SEG_BALLOT_MAX_BUCKETS (bucket bits by
 * ballots, a lane per bucket) one cooperative kernel of at most SMs x SEG_BALLOT_BLOCKS_PER_SM blocks
 * (and at most one per SEG_BALLOT_MIN_SHARE items) splits everything: block g takes the segments whose
 * middle lies in share g of the merge path of segments (SEG_BALLOT_SEGMENT_WEIGHT items each) and
 * records, stages their starts SEG_BALLOT_STAGE at a time in shared memory, splits those above one warp
 * chunk (32 x SEG_BALLOT_ROUNDS records, one register round trip) with all its SEG_WARP_KERNEL_WARPS
 * warps (one pass up to a block chunk, else a counting pass first), then its warps take the rest one
 * at a time, each in the smallest chunk of 2, SEG_BALLOT_ROUNDS / 2 or SEG_BALLOT_ROUNDS rounds that
 * holds it. Segments above
 * SEG_BALLOT_MAX_RECORDS are split after grid-wide barriers in the same kernel, as tiles of
 * SEG_HUGE_TILE records (count, scan per segment, rank + scatter).
 * With larger B, up to SEG_WARP_MAX_RECORDS one warp ranks the segment by comparisons of (bucket,
 * index) keys in shared memory; up to SEG_BLOCK_MAX_RECORDS one block counts, scans and ranks
 * sub-tiles of SEG_SUBTILE records with a block radix sort; larger segments are cut into tiles of
 * SEG_HUGE_TILE records spread over many blocks (count, scan per segment, rank + scatter). The
 * kernels of those work lists (usually empty) run on SMs x SEG_LARGE_BLOCKS_PER_SM blocks at most. */
enum {
    SEG_BALLOT_MAX_BUCKETS = 32,         /* B <= this: ballot path (a lane per bucket) */
    SEG_BALLOT_MAX_RECORDS = 32768,      /* ballot path (warp or block): larger segments are "huge" */
    SEG_BALLOT_ROUNDS = 16,              /* 32-record rounds of a warp chunk (4, 8 or 16) */
    SEG_BALLOT_STAGE = 1024,             /* segment starts a block stages in shared memory at once */
    SEG_BALLOT_SEGMENT_WEIGHT = 32,      /* a segment's weight in records, in the blocks' shares */
    SEG_BALLOT_MIN_SHARE = 2048,         /* merge-path items per block at least (small calls, fewer blocks) */
    SEG_BALLOT_BLOCKS_PER_SM = 4,        /* ballot kernel: grid blocks per SM, and its register bound */
    SEG_WARP_MAX_RECORDS = 256,          /* must be 2^SEG_WARP_INDEX_BITS */
    SEG_WARP_INDEX_BITS = 8,
    SEG_WARP_KERNEL_WARPS = 8,           /* warps (segments in flight) per block of the warp kernel */
    SEG_WARP_MAX_GRID = 65535,           /* grid-stride above this many blocks */
    SEG_BLOCK_THREADS = 256,
    SEG_BLOCK_ITEMS = 8,                 /* records per thread per sub-tile */
    SEG_SUBTILE = SEG_BLOCK_THREADS * SEG_BLOCK_ITEMS, /* 2048 = 2^SEG_SUBTILE_INDEX_BITS */
    SEG_SUBTILE_INDEX_BITS = 11,
    SEG_BLOCK_MAX_RECORDS = 32768,       /* larger segments take the multi-block path */
    SEG_HUGE_TILE = 16384,               /* records per block of the multi-block path */
    SEG_MAX_GRID = 1024,                 /* grid-stride cap of the block and multi-block kernels */
    SEG_LARGE_BLOCKS_PER_SM = 4,         /* their grid: at most this many blocks per SM (resident) */
    SEG_TEMP_ALIGN = 256,
    /* gather / scatter: threads per block; grid-stride cap in blocks per SM of the device. */
    MOVE_THREADS = 256,
    MOVE_GRID_BLOCKS_PER_SM = 32
};

#endif /* SPLIT_TUNING_H */
