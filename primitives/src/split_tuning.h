/* split_tuning.h - every launch shape and tuning constant of the split library, in one place
 * (internal). Plain enums so the header is usable from C (.c host code) and CUDA (.cu kernels) alike.
 * Each constant carries the reason for its value; change a value here, never in a kernel. The
 * measurements behind them are in docs/PERFORMANCE.md and the project's history. */
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
    SPLIT_BLOCK_WARPS = 8,                                 /* warps per block of the general kernel */
    SPLIT_BLOCK_THREADS = SPLIT_BLOCK_WARPS * SPLIT_WARP_LANES,
    /* Records per thread per tile of the general kernel: fewer leave the tile overhead exposed, more
     * slow the key-value splits. */
    SPLIT_BLOCK_PATH_ITEMS = 12,
    SPLIT_BLOCK_TILE_ITEMS = SPLIT_BLOCK_THREADS * SPLIT_BLOCK_PATH_ITEMS, /* 3072 */
    /* General scatter kernel: blocks per SM the register allocation must allow (__launch_bounds__). */
    SPLIT_SCATTER_MIN_BLOCKS = 3,
    /* Count kernel: 16-byte vectors per thread per loop step (the bucket-id loop of 64-bit keys
     * reads U * V / 4 id vectors, rounded up): two keep enough loads in flight at 32 registers. */
    SPLIT_COUNT_VECTORS = 2,
    /* Count kernel: blocks per SM its registers must allow (__launch_bounds__: 32 registers at 256
     * threads); the RANGE rule's 64-bit division needs more and is left unbounded. */
    SPLIT_COUNT_BLOCKS_PER_SM = 8,
    /* Count kernel, every B: one shared atomic per record into copy (lane mod copies) of the
     * histogram, copies = the largest power of two up to SPLIT_COUNT_COPIES with B x copies <=
     * SPLIT_COUNT_HIST_WORDS, so a warp of one bucket makes few conflicts (B = 256: 8 copies, 4-way). */
    SPLIT_COUNT_COPIES = 8,
    SPLIT_COUNT_HIST_WORDS = 4096,
    /* Tile order (multisplit_lookback.cu; single-front outputs, see split_kernel_params) for
     * B <= SPLIT_LOOKBACK_MAX_BUCKETS: the count kernel counts whole tiles and writes each tile's
     * bucket starts within its column (tile rows), and SMs x SPLIT_LB_BLOCKS_PER_SM* blocks of
     * SPLIT_LB_WARPS warps take the tiles in order from a counter; with bucket totals given (the
     * second pass of a two-pass split, n < 2^30) the tiles look back over each other's published
     * counts instead (a status word holds a 30-bit count and two flags). Tiles of SPLIT_LB_WARPS x 32
     * lanes x SPLIT_LB_ITEMS* rounds: large tiles with tile rows leave no look-back waits. */
    SPLIT_LOOKBACK_MAX_BUCKETS = 256,
    /* B <= this: a round's record finds the lanes of its bucket by ceil(log2 B) ballots, and lane L
     * keeps bucket L's count in a register (no shared atomics; B = 33 .. 64: buckets L and L + 32, two
     * 16-bit counters, one ballot more); above, by a shared atomicOr of lane bits, which costs less
     * than the ballots there. */
    SPLIT_LB_BALLOT_MAX_BUCKETS = 64,
    SPLIT_LB_WARPS = 12,
    SPLIT_LB_THREADS = SPLIT_LB_WARPS * 32,
    /* Blocks per SM (grid and register bound): 2 (80 registers per thread, what the large tiles
     * need); 32-bit key-only splits ranked by ballots 3 (56 registers): they need fewer registers and
     * gain from the occupancy, which payload splits and B = 256 do not. */
    SPLIT_LB_BLOCKS_PER_SM = 2,
    SPLIT_LB_BLOCKS_PER_SM_BALLOTS = 3,
    /* Records per thread and tile: the most the register budget holds without spilling (64-bit keys
     * hold fewer: 16 keys, 12 with payloads). */
    SPLIT_LB_ITEMS = 24,              /* keys only, B > SPLIT_LB_BALLOT_MAX_BUCKETS */
    SPLIT_LB_ITEMS_BALLOTS = 12,      /* keys only, B <= SPLIT_LB_BALLOT_MAX_BUCKETS (3 blocks per SM) */
    /* One payload stream (the values or the gather index), loaded once the tile is ranked and staged,
     * and staged itself once the keys are written (multisplit_lookback.cu), so the ranking holds no
     * payload registers and the tiles can be as large as the key-only ones less the staging. */
    SPLIT_LB_ITEMS_PAIRS = 20,        /* one payload stream, B > SPLIT_LB_BALLOT_MAX_BUCKETS */
    SPLIT_LB_ITEMS_PAIRS_BALLOTS = 20,/* one payload stream, B <= SPLIT_LB_BALLOT_MAX_BUCKETS */
    /* Keys only, B <= SPLIT_LB_BALLOT_MAX_BUCKETS, looking back over given totals (2 blocks per SM;
     * the second pass of a two-pass split, see SPLIT_TWO_PASS_HIGH_BITS): larger tiles amortise the
     * look-back waits better than the occupancy of smaller ones would. */
    SPLIT_LB_ITEMS_LOOK = 24,
    SPLIT_LB_ITEMS_ANY = 16,          /* several payload streams or the scatter index too: registers */
    SPLIT_LB_ITEMS_KEYS64 = 16,       /* 64-bit keys take two registers each */
    SPLIT_LB_ITEMS_PAIRS64 = 16,      /* one payload stream (more outputs: 12) */
    SPLIT_LB_ITEMS_ANY64 = 12,
    /* The look-back kernel scans the count table itself before its tiles (no scan launch of its own),
     * chunks of this many rows of its block's width (3072 entries) taken by its blocks; a tile's first
     * read of the scanned table waits for every chunk. Eight rows keep the chunks many and short. Rows
     * x 12 warps must be a multiple of 32 (split_scan_chunk). */
    SPLIT_LB_SCAN_ROWS = 8,
    /* The key-only 32-bit write loop (staged keys to memory) unrolled this many times, not fully: the
     * full unroll costs instruction cache and registers for no more memory parallelism. */
    SPLIT_LB_KEYS_WRITE_UNROLL = 4,
    /* Upper bound of the grid of the count and scatter kernels; the (bucket x block) table in the
     * temporary storage has at most SPLIT_MAX_GRID_BLOCKS * B entries. More columns make the table
     * and its scan larger; fewer make columns too long for small inputs. */
    SPLIT_MAX_GRID_BLOCKS = 1024,
    /* Value streams moved with the keys by the internal split (public API: at most one; SplitSort's
     * 96-bit keys move two key words and a value or index stream with them). */
    SPLIT_MAX_VALUE_STREAMS = 4,
    /* Alignment of every sub-buffer carved out of the caller's temporary storage. */
    SPLIT_TEMP_ALIGN = 256,
    /* Dynamic shared memory above this needs cudaFuncAttributeMaxDynamicSharedMemorySize. */
    SPLIT_DEFAULT_SMEM_BYTES = 48 * 1024,
    /* The exclusive scan of the (bucket x column) count table (table_scan.cu), one launch of blocks
     * of SPLIT_SMALL_SCAN_THREADS threads: up to SPLIT_SMALL_SCAN_MAX entries (8 rows of the block)
     * one block, above that a block per chunk of that many, each adding the totals the chunks before
     * it publish: one launch where a device-wide scan takes two. */
    SPLIT_SMALL_SCAN_THREADS = 1024,
    SPLIT_SMALL_SCAN_MAX = 8 * 1024,
    /* Chunks of the table scan launched as a programmatic dependent launch (scheduled while the count
     * kernel runs); more chunks (B = 2048: up to 256 blocks of 1024 threads) launch plainly, because
     * that many early-scheduled blocks take SMs from the count kernel they wait for. */
    SPLIT_SCAN_DEPENDENT_MAX_CHUNKS = 32,
    /* Nanoseconds a block's polling thread sleeps between reads of the table scan's done counter:
     * short against the scan, long enough not to crowd the chunks' own memory traffic. */
    SPLIT_SCAN_POLL_NS = 64,
    /* Threads per block of element-wise helper kernels (offsets, layout conversions). */
    SPLIT_ELEMENTWISE_THREADS = 256
};

/* Two-level tiles (multisplit_twolevel.cu): 32-bit keys, SPLIT_LOOKBACK_MAX_BUCKETS < B <= 2048, at
 * most one payload stream (values or the gather index), no scatter index, any rule (not the BITS
 * rule's keys / values without an index: the two-pass split below is faster there). Tile order with
 * tile rows, tiles of SPLIT_TL_WARPS warps x 32 lanes x SPLIT_TL_ITEMS* rounds, each sorted by bucket
 * in shared memory by two stable local passes: the low ceil(log2 B) - 8 bits of the bucket (ballots),
 * then its high 8 bits (SPLIT_TL_HIGH_BUCKETS, shared atomicOr match); the tile's histogram of the B
 * buckets gives the runs' global starts. Records per thread: what 80 registers hold with little
 * spilling. */
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
    SPLIT_TL_MAX_BUCKETS = 1 << (SPLIT_TL_HIGH_BITS + SPLIT_TL_LOW_BITS),
    /* The write loop of a staged tile unrolled this many times: enough stores in flight without the
     * registers of a full unroll. */
    SPLIT_TL_WRITE_UNROLL = 4
};

/* Split of a BITS field of SPLIT_TWO_PASS_MIN_BITS .. 11 bits (B = 512 .. 2048) with keys out and no
 * index outputs: two stable LSD passes over the field (its low bits, then its top
 * SPLIT_TWO_PASS_HIGH_BITS bits), each on the fast small-B paths; bucket offsets by binary search of
 * the grouped keys. Both passes are ranked by ballots (B <= 64); the wider first pass takes the
 * ballot kernel with tile rows, the second looks back over the totals the first pass counted. */
enum { SPLIT_TWO_PASS_MIN_BITS = 9, SPLIT_TWO_PASS_HIGH_BITS = 6 };
/* Wide calls on fields above SPLIT_MAX_BITS + SPLIT_TWO_PASS_HIGH_BITS bits (up to SPLIT_WIDE_MAX_BITS)
 * take more LSD passes: the bits below the top SPLIT_TWO_PASS_HIGH_BITS in passes of at most this many
 * (each a one-pass split of at most 256 buckets), then the top bits. */
enum { SPLIT_LSD_PASS_MAX_BITS = 8 };
/* ... from this many records on: below, the one-pass placement is faster (H100, 2^20 buckets: 2^20
 * pairs 0.093 ms placed against 0.235 ms in three passes and the offsets' search; 2^24 pairs 2.53 ms
 * against 0.726 ms; placement about 90-150 ps a record). */
enum { SPLIT_LSD_WIDE_MIN_RECORDS = 1 << 22 };

/* Wide unstable multisplit (multisplit_wide.cu): B up to SPLIT_MAX_WIDE_BUCKETS (BITS: up to
 * SPLIT_WIDE_MAX_BITS bits), or any B with caller's bucket counts / a device record count. A warp
 * takes chunks of SPLIT_WIDE_LANE_ITEMS x 32 consecutive records (each lane SPLIT_WIDE_LANE_ITEMS
 * consecutive ones, 16-byte loads when the inputs are aligned), grid-stride over the records; the
 * count kernel adds one atomic per distinct bucket of a warp round; the place kernel takes tiles of
 * SPLIT_WIDE_TILE records, one atomic per distinct bucket of a tile on the bucket's cursor. The grid
 * is at most one wave (SMs x the kernel's resident blocks per SM) of SPLIT_WIDE_THREADS threads. */
enum {
    SPLIT_WIDE_MAX_BITS = 24,            /* 2^24 = SPLIT_MAX_WIDE_BUCKETS (split.h) */
    SPLIT_WIDE_THREADS = 256,
    SPLIT_WIDE_LANE_ITEMS = 4,           /* must give 16 bytes of uint32_t (one uint4 per lane) */
    SPLIT_WIDE_CHUNK = SPLIT_WIDE_LANE_ITEMS * 32,
    SPLIT_WIDE_TILE = 1024,              /* place kernel: records a block places at a time (a tile's
                                            distinct buckets in shared memory, one global atomic
                                            each, runs written whole) */
    SPLIT_WIDE_SLOTS = 2048              /* ... its hash table's slots: a power of two >= the tile */
};

/* BOUNDARIES rule in shared memory (split_bucket.cuh): slots of the key range between the smallest
 * and the largest boundary, each with the bucket of its first key, so a search covers one slot's
 * boundaries; up to SPLIT_BOUNDS_DIRECT_MAX_BUCKETS buckets the whole table is searched, which is then
 * as short as a slot's and needs no slot lookup. */
enum { SPLIT_BOUNDS_SLOTS = 1024, SPLIT_BOUNDS_DIRECT_MAX_BUCKETS = 8 };

/* SplitSort: LSD passes of this many bits (B = 256 buckets per pass: the widest field the look-back
 * kernel splits in one pass). */
enum { SPLIT_SORT_RADIX_BITS = 8 };

/* SplitSort's digit histograms (sort_kernels.cuh): one read of the keys before the passes counts every
 * pass's digits, so each pass is the look-back kernel alone over given totals (no count kernel, no
 * table scan launch). Blocks of SPLIT_SORT_HIST_THREADS threads take SPLIT_SORT_HIST_ITEMS keys each
 * per tile (a thread adds a run of equal digits with one shared atomic), at most
 * SPLIT_SORT_HIST_BLOCKS_PER_SM blocks an SM, grid-stride. */
enum {
    SPLIT_SORT_HIST_THREADS = 256,
    SPLIT_SORT_HIST_ITEMS = 16,
    SPLIT_SORT_HIST_BLOCKS_PER_SM = 8
};

/* ---- segmented split (segmented_*.cu/.cuh) and gather / scatter (gather_scatter.cu) ----
 * Segments are classified by size on the device. With B <= SEG_BALLOT_MAX_BUCKETS (bucket bits by
 * ballots, a lane per bucket) one cooperative kernel of at most SMs x SEG_BALLOT_BLOCKS_PER_SM blocks
 * (and at most one per SEG_BALLOT_MIN_SHARE items) splits everything: block g takes the segments whose
 * middle lies in share g of the merge path of segments (SEG_BALLOT_SEGMENT_WEIGHT items each) and
 * records, stages their starts SEG_BALLOT_STAGE at a time in shared memory, splits those above one warp
 * chunk (32 x SEG_BALLOT_ROUNDS records, one register round trip) with all its SEG_WARP_KERNEL_WARPS
 * warps (one pass up to a block chunk, else a counting pass first), then its warps take the rest one
 * at a time, each in the smallest chunk of 2, SEG_BALLOT_ROUNDS / 2 or SEG_BALLOT_ROUNDS rounds that
 * holds it. Segments above SEG_BALLOT_MAX_RECORDS are split after grid-wide barriers in the same
 * kernel, as tiles of SEG_HUGE_TILE records (count, scan per segment, rank + scatter).
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
    SEG_HUGE_SCAN_BATCH = 16,            /* a huge segment's column scan: loads in flight per thread */
    SEG_MAX_GRID = 1024,                 /* grid-stride cap of the block and multi-block kernels */
    SEG_LARGE_BLOCKS_PER_SM = 4,         /* their grid: at most this many blocks per SM (resident) */
    SEG_TEMP_ALIGN = 256,
    /* gather / scatter: threads per block; grid-stride cap in blocks per SM of the device. */
    MOVE_THREADS = 256,
    MOVE_GRID_BLOCKS_PER_SM = 32,
    /* The pass-count model of gather / scatter with num_passes = 0 (move_model.h): the share of
     * the L2 a window may fill (the rest holds the index and the contiguous side's lines in flight);
     * the cost of one more pass (launch, drain) and of each 16-byte word its threads walk past, in
     * bytes of DRAM traffic; the cost of a scattered write to a sector it covers only in part,
     * relative to a read; the least bytes a miss moves; the largest pass count considered. Fitted
     * to split_bench --move-only on an H200 (60 MB L2) at eight record counts (--move-n 2^20 .. 2^26,
     * among them 1.2x and 1.5x 2^24, where the indexed side stands to the L2 as at 2^24 on a 50 MB
     * and a 40 MB L2): records of 4 .. 512 bytes, gather and scatter, 1 .. 16 passes; the choice is
     * within 6 % of the best listed count in all 128 cases (tests/primitives/move_model_h200.h holds
     * the measurements, test_move_model checks them; docs/PERFORMANCE.md §3b). */
    MOVE_MODEL_L2_PERCENT = 50,
    MOVE_MODEL_PASS_BYTES = 4 << 20,
    MOVE_MODEL_WORD_BYTES_X100 = 1000,
    MOVE_MODEL_PARTIAL_WRITE_X100 = 300,
    MOVE_MODEL_MISS_MIN_BYTES = 48,
    MOVE_MODEL_MAX_PASSES = 64
};

#endif /* SPLIT_TUNING_H */
