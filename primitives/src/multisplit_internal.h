/* multisplit_internal.h - the internal split engine shared by split_multisplit, split_index and
 * split_sort (CUDA host code; internal). One call = count kernel, exclusive scan of the
 * (bucket x block) table, bucket offsets, scatter kernel; all on one stream, nothing allocated. */
#ifndef MULTISPLIT_INTERNAL_H
#define MULTISPLIT_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "sc_status.h"
#include "split.h"
#include "split_bucket.cuh"
#include "split_tuning.h"

/* Ranking method of a tile. */
enum split_mode {
    SPLIT_MODE_BLOCK_STABLE = 1, /* per-warp bucket counters in shared memory, stable */
    SPLIT_MODE_BLOCK_UNSTABLE /* warp-aggregated shared-memory atomics, order inside a bucket unspecified */
};

/* Given bucket totals are used below this many records: a look-back status word holds a 30-bit count. */
#define SPLIT_GIVEN_TOTALS_MAX_N (1u << 30)

/* One split request, device pointers. */
typedef struct split_job {
    uint32_t n;
    int key64;                  /* 0: uint32_t keys, 1: uint64_t keys */
    int rule;                   /* split_bucket_rule */
    split_rule_params rp;
    const void *keys_in;        /* NULL when the rule needs no key and keys are not moved */
    void *keys_out;
    uint32_t num_values;        /* 0 .. SPLIT_MAX_VALUE_STREAMS value streams moved with the keys */
    const uint32_t *values_in[SPLIT_MAX_VALUE_STREAMS];
    uint32_t *values_out[SPLIT_MAX_VALUE_STREAMS];
    uint32_t *bucket_offsets;   /* B + 1 entries */
    uint32_t *gather_index;
    uint32_t *scatter_index;
    int unstable;
    /* BITS rule: also count the 2^extra_bits buckets of the field right above into extra_totals
     * (zeroed before; NULL: not). given_totals: this split's B bucket totals, already counted (the
     * count kernel is skipped; look-back order and n < SPLIT_GIVEN_TOTALS_MAX_N only, else ignored). */
    uint32_t *extra_totals;
    uint32_t extra_bits;
    const uint32_t *given_totals;
} split_job;

/* Parameters of the count and scatter kernels, passed by value. */
typedef struct split_kernel_params {
    split_rule_params rule;
    uint32_t n;
    uint32_t tile_items;       /* records per tile: SPLIT_BLOCK_TILE_ITEMS or tile order's */
    uint32_t num_tiles;        /* ceil(n / tile_items) */
    uint32_t num_blocks;       /* G: grid of the scatter kernel */
    uint32_t count_copies;     /* count kernel, block path: copies of the histogram (power of two) */
    const void *keys_in;
    void *keys_out;
    uint32_t num_values;
    const uint32_t *values_in[SPLIT_MAX_VALUE_STREAMS];
    uint32_t *values_out[SPLIT_MAX_VALUE_STREAMS];
    uint32_t *gather_index;
    uint32_t *scatter_index;
    uint32_t *table_counts;         /* B x C, column-major: entry b * C + c */
    const uint32_t *table_offsets;  /* its exclusive scan */
    /* C: the count kernel's columns (a block each) and the table's; column c = the tiles
     * [c * count_col_tiles, (c + 1) * count_col_tiles). */
    uint32_t count_cols, count_col_tiles;
    /* Tile order (the look-back kernel, B <= SPLIT_LOOKBACK_MAX_BUCKETS, n < 2^30, and the two-level
     * kernel with tile rows; NULL otherwise): blocks take the tiles in input order from *tile_counter,
     * so every bucket's output grows at one front. A tile's global start per bucket comes from the
     * tile rows, or (tile_rows NULL, the look-back kernel) by looking back.
     * Tile rows: the count kernel writes, for every tile t of tile_items records, entry t * B + b = the count of bucket b in
     * the tiles of t's column before t (row-major, num_tiles x B), and the column totals into the
     * table; it also zeroes *tile_counter. The scatter kernel's global start of bucket b in tile t is
     * then table_offsets[b * count_cols + t / count_col_tiles] + that entry: nothing to wait for. */
    uint32_t *tile_rows;
    /* Looking back (bucket totals given, the count kernel not run; *tile_counter zeroed before): each
     * tile publishes its bucket counts into tile_status (num_tiles x B words, zeroed before): flag
     * SPLIT_LB_AGGREGATE or SPLIT_LB_INCLUSIVE | count; a tile's global start per bucket is
     * table_offsets[b * count_cols] + the sum over the tiles before it. */
    uint32_t *tile_counter;
    uint32_t *tile_status;
    /* BITS rule: the count kernel also adds up the totals of the field of extra_nb buckets right above
     * this one into extra_totals (zeroed before; NULL: none), extra_copies histogram copies. */
    uint32_t *extra_totals;
    uint32_t extra_nb, extra_copies;
    /* Tile order: the look-back kernel's block 0 also writes the B + 1 bucket offsets
     * (table_offsets[b * count_cols], n) when not NULL (no launch of their own). */
    uint32_t *bucket_offsets;
    /* The table scan's status words (split_table_scan; NULL when one block scans the table), zeroed
     * by block 0 of the count kernel. */
    unsigned long long *scan_status;
    uint32_t scan_chunks;
    /* The look-back kernel scans the table itself (scan_claim not NULL; no table scan launch): its
     * blocks first take chunks of SPLIT_LB_SCAN_ROWS x SPLIT_LB_THREADS entries of scan_in (count_cols x
     * B of them: the count table, or the given totals) from *scan_claim and scan them into scan_out (the
     * memory of table_offsets, which the kernel reads), counting each chunk done into *scan_done;
     * table_offsets is read once *scan_done is scan_chunks. Both words are zeroed before the kernel
     * (by the count kernel, or with the look-back status). */
    const uint32_t *scan_in;
    uint32_t *scan_out;
    uint32_t *scan_claim, *scan_done;
} split_kernel_params;

/* Tiles of the general scatter kernel for n records: num_tiles of SPLIT_BLOCK_TILE_ITEMS, and the count
 * kernel's num_cols contiguous columns of col_tiles tiles each, at most SPLIT_MAX_GRID_BLOCKS (no CUDA
 * call). */
void split_table_shape(uint32_t n, uint32_t *num_tiles, uint32_t *num_cols, uint32_t *col_tiles);

/* Temporary storage of split_job_run for a job (host only, no CUDA call): its n,
 * B, key type, rule and which outputs it has (pointers read as flags) pick the path and its tiles, so
 * size a job as it will run (split_sort and the two-pass split build their passes' jobs for it). */
sc_status split_job_temp_bytes(const split_job *job, size_t *bytes);

/* Runs a validated job. temp holds at least split_job_temp_bytes(job) bytes. */
sc_status split_job_run(void *temp, size_t temp_bytes, const split_job *job, cudaStream_t stream);

/* ---- wide unstable multisplit (multisplit_wide.cu): B up to SPLIT_MAX_WIDE_BUCKETS ----
 * Nonzero when a validated split_multisplit / split_index descriptor with B buckets takes the wide
 * path: unstable, and B > SPLIT_MAX_BUCKETS, bucket_counts or num_records_device. */
int split_wide_selected(const split_desc *desc, uint32_t num_buckets);
/* Temporary storage of the wide path (independent of n; host only, no CUDA call but CUB's size query). */
sc_status split_wide_temp_bytes(const split_desc *desc, uint32_t num_buckets, size_t *bytes);
/* Runs a validated descriptor on the wide path; temp holds split_wide_temp_bytes bytes. */
sc_status split_wide_run(void *temp, size_t temp_bytes, const split_desc *desc, uint32_t num_buckets,
                         cudaStream_t stream);

/* Typed launchers (multisplit_u32.cu, multisplit_u64.cu). */
template <typename KeyT>
sc_status split_launch_count(const split_kernel_params &p, int rule, cudaStream_t stream);
template <typename KeyT>
sc_status split_launch_scatter(const split_kernel_params &p, int rule, int mode, cudaStream_t stream);
/* Exclusive scan of a count table of `entries` words (table_scan.cu), one launch: one block up to
 * SPLIT_SMALL_SCAN_MAX entries, else split_table_scan_chunks(entries) blocks of SPLIT_SMALL_SCAN_MAX
 * entries that add the totals of the chunks before them, published into status (as many words,
 * zeroed before: split_kernel_params.scan_status). */
static inline uint32_t split_table_scan_chunks(size_t entries)
{
    return entries <= SPLIT_SMALL_SCAN_MAX ? 0u : (uint32_t)((entries + SPLIT_SMALL_SCAN_MAX - 1) / SPLIT_SMALL_SCAN_MAX);
}
sc_status split_table_scan(const uint32_t *counts, uint32_t *offsets, size_t entries, unsigned long long *status,
                           cudaStream_t stream);
/* p.bucket_offsets from p.table_offsets, p.count_cols and p.n (one block; multisplit_u32.cu). */
sc_status split_launch_bucket_offsets(const split_kernel_params &p, cudaStream_t stream);
/* The look-back kernel (multisplit_lookback.cu); p.tile_counter and p.tile_rows or p.tile_status set.
 * split_launch_scatter: the general scatter kernel, p.tile_counter and p.tile_rows set. */
template <typename KeyT>
sc_status split_launch_lookback(const split_kernel_params &p, int rule, cudaStream_t stream);
/* Two-level tiles (multisplit_twolevel.cu): nonzero when a split that moves records takes them (32-bit
 * keys, SPLIT_LOOKBACK_MAX_BUCKETS < B <= SPLIT_TL_MAX_BUCKETS, at most one payload stream, no scatter
 * index); records per tile (with a payload stream or not, the rule, keys out or not); the launcher
 * (tile order: p.tile_counter, p.tile_rows and the table set; block 0 writes p.bucket_offsets when not
 * NULL). */
int split_twolevel_eligible(int key64, uint32_t num_buckets, uint32_t payloads, int scatter_index);
uint32_t split_twolevel_tile_items(int pay, int rule, int keys_out);
sc_status split_launch_twolevel(const split_kernel_params &p, int rule, cudaStream_t stream);
/* What the look-back kernel writes besides the keys (its template argument OUT): nothing, one payload
 * stream (the values or the gather index), or anything (the scatter index, several streams). Its
 * kernels are compiled per kind, so tile sizes and blocks per SM are per kind. */
enum { SPLIT_LB_OUT_KEYS = 0, SPLIT_LB_OUT_PAYLOADS = 1, SPLIT_LB_OUT_ANY = 2 };
static inline int split_lookback_out_of(uint32_t payloads, int scatter_index)
{
    return scatter_index || payloads > 1 ? SPLIT_LB_OUT_ANY : payloads ? SPLIT_LB_OUT_PAYLOADS : SPLIT_LB_OUT_KEYS;
}
/* Records per tile of the look-back kernel for 64-bit keys or not, the outputs besides the keys
 * (split_lookback_out_of), B buckets, and whether it looks back over given totals (no tile rows). */
uint32_t split_lookback_tile_items(int key64, int out, uint32_t num_buckets, int look);
/* Blocks per SM of the look-back kernel's grid (the same arguments). */
uint32_t split_lookback_blocks_per_sm(int key64, int out, uint32_t num_buckets, int look);
/* Nonzero when that kernel takes its tiles one ahead with tile rows; it looks back over given totals
 * only for the BITS rule (the one caller with totals is the two-pass split; others count instead). */
int split_lookback_ahead(int key64, int out, uint32_t num_buckets);

#endif /* MULTISPLIT_INTERNAL_H */
