/* multisplit.cu - split_multisplit / split_index (public entry points) and the split engine that
 * runs a job: count kernel -> exclusive scan of the (bucket x block) table (table_scan.cu; the
 * look-back kernels that move a payload scan it themselves, lookback_scans_table) -> bucket offsets ->
 * scatter kernel, all in the caller's temporary storage. */
#include "multisplit_kernels.cuh"
#include "sc_report.h"
#include "split.h"
#include "split_validate.h"
#include "two_pass_kernels.cuh"

static size_t align_up(size_t x) { return (x + SPLIT_TEMP_ALIGN - 1) / SPLIT_TEMP_ALIGN * SPLIT_TEMP_ALIGN; }

/* Columns of whole tiles over `tiles` tiles: at most SPLIT_MAX_GRID_BLOCKS, col_tiles each (the last
 * may be shorter). */
static void split_columns(uint32_t tiles, uint32_t *num_cols, uint32_t *col_tiles)
{
    const uint32_t g = tiles < (uint32_t)SPLIT_MAX_GRID_BLOCKS ? tiles : (uint32_t)SPLIT_MAX_GRID_BLOCKS;
    const uint32_t tpb = g ? (tiles + g - 1) / g : 0;
    *col_tiles = tpb;
    *num_cols = tpb ? (tiles + tpb - 1) / tpb : 0;
}

void split_table_shape(uint32_t n, uint32_t *num_tiles, uint32_t *num_cols, uint32_t *col_tiles)
{
    const uint32_t tile_items = SPLIT_BLOCK_TILE_ITEMS;
    *num_tiles = (uint32_t)(((uint64_t)n + tile_items - 1) / tile_items);
    split_columns(*num_tiles, num_cols, col_tiles);
}

/* Copies of the block path's count histogram: the largest power of two up to SPLIT_COUNT_COPIES
 * whose B x copies counters fit in SPLIT_COUNT_HIST_WORDS (at least one). */
static uint32_t split_count_copies(uint32_t num_buckets)
{
    uint32_t c = SPLIT_COUNT_COPIES;
    while (c > 1 && (uint64_t)c * num_buckets > SPLIT_COUNT_HIST_WORDS) c >>= 1;
    return c;
}

/* Tile order (the look-back kernel, multisplit_lookback.cu) for a split into B buckets that moves
 * records: B <= SPLIT_LOOKBACK_MAX_BUCKETS, unstable splits too (its stable ranking is faster than the
 * column order's unstable atomics). */
static int split_tile_order(uint32_t num_buckets) { return num_buckets <= SPLIT_LOOKBACK_MAX_BUCKETS; }

/* Tile order: a scatter kernel's tiles, and the count kernel's columns of whole tiles over them. */
typedef struct tile_plan {
    uint32_t tile_items, tiles, cols, col_tiles;
} tile_plan;

static tile_plan tile_plan_of(uint32_t n, uint32_t tile_items)
{
    tile_plan L;
    L.tile_items = tile_items;
    L.tiles = (uint32_t)(((uint64_t)n + L.tile_items - 1) / L.tile_items);
    split_columns(L.tiles, &L.cols, &L.col_tiles);
    return L;
}

/* The look-back kernel's (multisplit_lookback.cu); look: over given totals. */
static tile_plan lookback_plan_of(uint32_t n, uint32_t num_buckets, int key64, int out, int look)
{
    return tile_plan_of(n, split_lookback_tile_items(key64, out, num_buckets, look));
}

/* The two-level kernel's (multisplit_twolevel.cu). */
static tile_plan twolevel_plan_of(uint32_t n, int pay, int rule, int keys_out)
{
    return tile_plan_of(n, split_twolevel_tile_items(pay, rule, keys_out));
}

/* Words ahead of the look-back status or the tile rows: the tile counter, and (the look-back kernel)
 * the table scan's chunk counter and done counter, each in a 128-byte line of its own. */
enum { LOOKBACK_HEAD_WORDS = 96, HEAD_SCAN_CLAIM = 32, HEAD_SCAN_DONE = 64 };

/* Chunks of the table scan the look-back kernel runs itself, over `entries` entries. */
static uint32_t lookback_scan_chunks(size_t entries)
{
    const size_t chunk = (size_t)SPLIT_LB_SCAN_ROWS * SPLIT_LB_THREADS;
    return (uint32_t)((entries + chunk - 1) / chunk);
}

/* Scatter path of a job (the count kernel alone when nothing moves). */
typedef enum { PATH_COUNT_ONLY, PATH_LOOKBACK, PATH_TWOLEVEL, PATH_COLUMN } job_path;

static uint32_t job_payloads(const split_job *job) { return job->num_values + (job->gather_index ? 1u : 0u); }

static job_path job_path_of(const split_job *job);

/* Nonzero when the look-back kernel runs with the job's given bucket totals (the second pass of a
 * two-pass split): no count kernel, the tiles look back over each other's published counts instead
 * of reading tile rows (n < 2^30: a status word holds a 30-bit count; larger n count again, and so do
 * the kernels that take tiles one ahead but for the BITS rule, the one they are compiled to look back
 * for). */
static int job_looks_back(const split_job *job)
{
    return job_path_of(job) == PATH_LOOKBACK && job->given_totals && job->n < SPLIT_GIVEN_TOTALS_MAX_N &&
           (job->rule == SPLIT_BUCKETS_BITS ||
            !split_lookback_ahead(job->key64, split_lookback_out_of(job_payloads(job), job->scatter_index != NULL),
                                  job->rp.num_buckets));
}

/* Nonzero when the look-back kernel scans the count table itself (split_kernel_params.scan_claim)
 * instead of a table scan launch: its kernels that move more than the keys (PAY, multisplit_lookback.cu:
 * a payload stream or the scatter index): one launch less; the key-only kernels keep the launch, as
 * the scan's code alone slows them. */
static int lookback_scans_table(const split_job *job)
{
    return job_path_of(job) == PATH_LOOKBACK && (job_payloads(job) != 0 || job->scatter_index != NULL);
}

/* Status words of the job's table scan over `entries` scanned entries: the look-back kernel's chunks or
 * the table scan kernel's. */
static uint32_t job_scan_chunks(const split_job *job, size_t entries)
{
    return lookback_scans_table(job) ? lookback_scan_chunks(entries) : split_table_scan_chunks(entries);
}

static job_path job_path_of(const split_job *job)
{
    const uint32_t nb = job->rp.num_buckets;
    if (!(job->keys_out || job->num_values || job->gather_index || job->scatter_index)) return PATH_COUNT_ONLY;
    if (split_tile_order(nb)) return PATH_LOOKBACK;
    if (split_twolevel_eligible(job->key64, nb, job_payloads(job), job->scatter_index != NULL)) return PATH_TWOLEVEL;
    return PATH_COLUMN;
}

/* Layout: counts (C x B) | offsets (C x B) | tile area | the table scan's status words, for the job's own path (its
 * outputs decide it: size a job as it will run). Every path that moves records runs in tile order: the
 * tile area holds the tile counter and the tile rows (tiles x B), or with given bucket totals
 * (look-back kernel) the counter and the look-back status words (tiles x B). */
typedef struct job_layout_t {
    size_t table, tile_area, scan;
} job_layout_t;

static sc_status job_layout(const split_job *job, job_layout_t *J)
{
    const uint32_t n = job->n, nb = job->rp.num_buckets;
    uint32_t tiles, cols, col_tiles;
    split_table_shape(n, &tiles, &cols, &col_tiles);
    size_t entries = (size_t)cols * nb, tile_words = 0;
    if (n) {
        switch (job_path_of(job)) {
        case PATH_LOOKBACK: {
            const tile_plan L = lookback_plan_of(n, nb, job->key64, split_lookback_out_of(job_payloads(job), job->scatter_index != NULL),
                                                 job_looks_back(job));
            if ((size_t)L.cols * nb > entries) entries = (size_t)L.cols * nb;
            tile_words = (size_t)L.tiles * nb + LOOKBACK_HEAD_WORDS;
            break;
        }
        case PATH_TWOLEVEL: {
            const tile_plan L = twolevel_plan_of(n, job_payloads(job) != 0, job->rule, job->keys_out != NULL);
            if ((size_t)L.cols * nb > entries) entries = (size_t)L.cols * nb;
            tile_words = (size_t)L.tiles * nb + LOOKBACK_HEAD_WORDS;
            break;
        }
        case PATH_COLUMN: tile_words = (size_t)tiles * nb + LOOKBACK_HEAD_WORDS; break;
        case PATH_COUNT_ONLY: break;
        }
    }
    J->table = align_up(entries * sizeof(uint32_t));
    J->tile_area = align_up(tile_words * sizeof(uint32_t));
    /* With given totals the scan covers the B totals alone (split_job_run: count_cols 1). */
    const uint32_t chunks = n ? job_scan_chunks(job, job_looks_back(job) ? nb : entries) : 0u;
    J->scan = align_up((size_t)chunks * sizeof(unsigned long long));
    return SC_OK;
}

static size_t job_layout_bytes(const job_layout_t *J) { return 2 * J->table + J->tile_area + J->scan; }

sc_status split_job_temp_bytes(const split_job *job, size_t *bytes)
{
    job_layout_t J;
    SC_TRY(job_layout(job, &J));
    *bytes = job_layout_bytes(&J);
    if (*bytes == 0) *bytes = SPLIT_TEMP_ALIGN; /* a valid, non-empty allocation for n = 0 */
    return SC_OK;
}

/* The job's tiles and the scatter kernel's grid: every path that moves records takes its tiles in
 * input order from a counter (tile_area), with SMs x (the kernel's blocks per SM) blocks; the count
 * kernel counts whole tiles in columns of col_tiles, writes the tile rows and zeroes the counter.
 * given: the look-back kernel looks back over the job's given totals instead (no tile rows). */
static sc_status job_tiles(const split_job *job, job_path path, int given, uint32_t *tile_area, cudaStream_t stream,
                           split_kernel_params *pp)
{
    split_kernel_params &p = *pp;
    const uint32_t n = job->n, nb = job->rp.num_buckets, payloads = job_payloads(job);
    uint32_t sms = 1;
    if (path != PATH_COUNT_ONLY) SC_TRY(sc_cuda_device_sms(&sms));
    uint64_t grid = 0;
    if (path == PATH_LOOKBACK) {
        const int out = split_lookback_out_of(payloads, job->scatter_index != NULL);
        const tile_plan L = lookback_plan_of(n, nb, job->key64, out, given);
        p.tile_items = L.tile_items;
        p.num_tiles = L.tiles;
        grid = (uint64_t)sms * split_lookback_blocks_per_sm(job->key64, out, nb, given);
        if (given) {
            /* Look back; bucket b starts at table_offsets[b * count_cols], the scan of the B given
             * totals (with a count of its own, looking back is slower than tile rows). */
            p.tile_status = tile_area + LOOKBACK_HEAD_WORDS;
            SC_CUDA_CHECK(cudaMemsetAsync(tile_area, 0, ((size_t)LOOKBACK_HEAD_WORDS + (size_t)L.tiles * nb) * sizeof(uint32_t),
                                          stream));
            p.count_cols = 1;
        } else {
            p.count_cols = L.cols;
            p.count_col_tiles = L.col_tiles;
        }
    } else if (path == PATH_TWOLEVEL) {
        const tile_plan L = twolevel_plan_of(n, payloads != 0, job->rule, job->keys_out != NULL);
        p.tile_items = L.tile_items;
        p.num_tiles = L.tiles;
        p.count_cols = L.cols;
        p.count_col_tiles = L.col_tiles;
        grid = (uint64_t)sms * SPLIT_TL_BLOCKS_PER_SM;
    } else if (path == PATH_COLUMN) {
        /* The column-order kernel's tiles (split_table_shape) in tile order (each block writing its
         * own front of every bucket would make partial sectors). */
        grid = (uint64_t)sms * SPLIT_SCATTER_MIN_BLOCKS;
    }
    if (path != PATH_COUNT_ONLY) {
        p.num_blocks = p.num_tiles < grid ? p.num_tiles : (uint32_t)grid;
        p.tile_counter = tile_area;
        if (!given) p.tile_rows = tile_area + LOOKBACK_HEAD_WORDS;
    }
    return SC_OK;
}

/* The job's histogram copies, extra totals and the streams it reads and writes. */
static void job_streams(const split_job *job, split_kernel_params *pp)
{
    split_kernel_params &p = *pp;
    const uint32_t nb = job->rp.num_buckets;
    p.count_copies = split_count_copies(nb);
    if (job->extra_totals && job->rule == SPLIT_BUCKETS_BITS && !job->key64) {
        p.extra_totals = job->extra_totals;
        p.extra_nb = 1u << job->extra_bits;
        p.extra_copies = split_count_copies(p.extra_nb);
    }
    p.keys_in = job->keys_in;
    p.keys_out = job->keys_out;
    p.num_values = job->num_values;
    for (uint32_t v = 0; v < job->num_values; ++v) {
        p.values_in[v] = job->values_in[v];
        p.values_out[v] = job->values_out[v];
    }
    p.gather_index = job->gather_index;
    p.scatter_index = job->scatter_index;
}

/* The job's launches: count kernel (unless given totals), table scan (unless the look-back kernel
 * scans it), then the path's scatter kernel or, counting only, the bucket offsets. */
static sc_status job_launch(const split_job *job, job_path path, int given, int fused_scan, const split_kernel_params &p,
                            uint32_t *offsets, size_t entries, cudaStream_t stream)
{
    if (!given) {
        if (job->key64) SC_TRY(split_launch_count<uint64_t>(p, job->rule, stream));
        else SC_TRY(split_launch_count<uint32_t>(p, job->rule, stream));
    }
    if (!fused_scan) SC_TRY(split_table_scan(given ? job->given_totals : p.table_counts, offsets, entries, p.scan_status, stream));
    switch (path) {
    case PATH_COUNT_ONLY:
        if (job->bucket_offsets) SC_TRY(split_launch_bucket_offsets(p, stream));
        break;
    case PATH_LOOKBACK:
        if (job->key64) SC_TRY(split_launch_lookback<uint64_t>(p, job->rule, stream));
        else SC_TRY(split_launch_lookback<uint32_t>(p, job->rule, stream));
        break;
    case PATH_TWOLEVEL: SC_TRY(split_launch_twolevel(p, job->rule, stream)); break;
    case PATH_COLUMN: {
        /* Stable or unstable ranking. */
        const int mode = job->unstable ? SPLIT_MODE_BLOCK_UNSTABLE : SPLIT_MODE_BLOCK_STABLE;
        if (job->key64) SC_TRY(split_launch_scatter<uint64_t>(p, job->rule, mode, stream));
        else SC_TRY(split_launch_scatter<uint32_t>(p, job->rule, mode, stream));
        break;
    }
    }
    return SC_OK;
}

sc_status split_job_run(void *temp, size_t temp_bytes, const split_job *job, cudaStream_t stream)
{
    const uint32_t n = job->n, nb = job->rp.num_buckets;
    if (n == 0) {
        if (job->bucket_offsets)
            SC_CUDA_CHECK(cudaMemsetAsync(job->bucket_offsets, 0, ((size_t)nb + 1) * sizeof(uint32_t), stream));
        return SC_OK;
    }
    job_layout_t J;
    SC_TRY(job_layout(job, &J));
    if (temp_bytes < job_layout_bytes(&J))
        return SC_FAIL(SC_ERROR_TEMP_STORAGE, "split: temporary storage of %zu bytes is smaller than the %zu needed",
                       temp_bytes, job_layout_bytes(&J));
    const job_path path = job_path_of(job);
    split_kernel_params p;
    memset(&p, 0, sizeof p);
    p.rule = job->rp;
    p.n = n;
    p.tile_items = SPLIT_BLOCK_TILE_ITEMS;
    const int given = job_looks_back(job);
    split_table_shape(n, &p.num_tiles, &p.count_cols, &p.count_col_tiles);
    char *t = (char *)temp;
    p.table_counts = (uint32_t *)t;
    uint32_t *offsets = (uint32_t *)(t + J.table);
    p.table_offsets = offsets;
    uint32_t *tile_area = (uint32_t *)(t + 2 * J.table);
    SC_TRY(job_tiles(job, path, given, tile_area, stream, &p));
    /* The table scan's status words, zeroed by the count kernel. With given totals the table is the B
     * totals (count_cols 1), one chunk of either scan: no status word is read, and no count kernel zeroes
     * them (the look-back kernel's chunk counters are zeroed with its status above). */
    static_assert(SPLIT_LOOKBACK_MAX_BUCKETS <= SPLIT_SMALL_SCAN_MAX, "given totals take the one-block scan");
    static_assert(SPLIT_LOOKBACK_MAX_BUCKETS <= SPLIT_LB_SCAN_ROWS * SPLIT_LB_THREADS,
                  "given totals take one chunk of the look-back kernel's scan");
    const size_t entries = (size_t)p.count_cols * nb;
    const int fused_scan = lookback_scans_table(job); /* the look-back kernel scans the table itself */
    p.scan_chunks = job_scan_chunks(job, entries);
    p.scan_status = p.scan_chunks ? (unsigned long long *)(t + 2 * J.table + J.tile_area) : NULL;
    if (fused_scan) {
        p.scan_in = given ? job->given_totals : p.table_counts;
        p.scan_out = offsets;
        p.scan_claim = tile_area + HEAD_SCAN_CLAIM;
        p.scan_done = tile_area + HEAD_SCAN_DONE;
    }
    p.bucket_offsets = job->bucket_offsets; /* written by block 0 of the scatter kernel (count only: its own launch) */
    job_streams(job, &p);
    return job_launch(job, path, given, fused_scan, p, offsets, entries, stream);
}

/* Builds the job of a validated public descriptor. */
static sc_status job_from_desc(const split_desc *d, const split_checked *c, split_job *job)
{
    memset(job, 0, sizeof *job);
    const split_buckets *b = &d->buckets;
    job->n = c->n;
    job->key64 = d->key_type == SPLIT_KEY_U64;
    job->rule = b->rule;
    SC_TRY(split_rule_params_of(b, c->num_buckets, &job->rp));
    /* Keys are read only when the rule needs them or they move. */
    job->keys_in = (b->rule != SPLIT_BUCKETS_IDS || d->keys_out) ? d->keys_in : NULL;
    job->keys_out = d->keys_out;
    if (d->values_in) {
        job->num_values = 1;
        job->values_in[0] = d->values_in;
        job->values_out[0] = d->values_out;
    }
    job->bucket_offsets = d->bucket_offsets;
    job->gather_index = d->gather_index;
    job->scatter_index = d->scatter_index;
    job->unstable = d->unstable;
    return SC_OK;
}

/* ---- stable LSD passes for wide BITS fields (B = 512 .. 2048, and wide calls) ---- */

/* True when the request takes the stable LSD passes: a BITS field of at least SPLIT_TWO_PASS_MIN_BITS
 * bits, keys moved, no index outputs. */
static int lsd_eligible(const split_desc *d)
{
    return d->buckets.rule == SPLIT_BUCKETS_BITS && d->buckets.bit_count >= (uint32_t)SPLIT_TWO_PASS_MIN_BITS &&
           d->keys_in && d->keys_out && !d->gather_index && !d->scatter_index;
}

/* The LSD passes of a field of `bits` bits: fields up to SPLIT_MAX_BITS + SPLIT_TWO_PASS_HIGH_BITS bits
 * take two, the low bits then the top SPLIT_TWO_PASS_HIGH_BITS; wider ones (wide calls of up to
 * SPLIT_WIDE_MAX_BITS bits) split the bits below the top ones into passes of at most
 * SPLIT_LSD_PASS_MAX_BITS (each a one-pass small-B split), as even as they go. Pass i covers `width`
 * bits from bit `shift` of the field. */
static uint32_t lsd_pass_count(uint32_t bits)
{
    const uint32_t rest = bits - SPLIT_TWO_PASS_HIGH_BITS;
    if (rest <= (uint32_t)SPLIT_MAX_BITS) return 2;
    return (rest + SPLIT_LSD_PASS_MAX_BITS - 1) / SPLIT_LSD_PASS_MAX_BITS + 1;
}

static void lsd_pass_bits(uint32_t bits, uint32_t passes, uint32_t pass, uint32_t *shift, uint32_t *width)
{
    const uint32_t rest = bits - SPLIT_TWO_PASS_HIGH_BITS, low = passes - 1;
    if (pass == low) {
        *shift = rest;
        *width = SPLIT_TWO_PASS_HIGH_BITS;
        return;
    }
    /* rest bits over `low` passes: the first rest % low of them one bit wider */
    const uint32_t q = rest / low, r = rest % low;
    *shift = pass * q + (pass < r ? pass : r);
    *width = q + (pass < r ? 1u : 0u);
}

/* Pass `pass` of `passes` LSD passes: its bits of the field from the previous pass's output (the
 * caller's inputs for the first) into the middle buffers or the caller's outputs, alternating so
 * that the last pass writes the caller's outputs (no output overlaps an input, split_validate). 32-bit
 * keys in two passes: the first pass's count kernel also counts the second pass's field into
 * high_totals (one read of the keys less), which the second pass is given. */
static sc_status lsd_pass_job(const split_desc *d, const split_checked *c, uint32_t passes, uint32_t pass,
                              void *mid_keys, uint32_t *mid_vals, uint32_t *high_totals, split_job *job)
{
    uint32_t shift, pb;
    lsd_pass_bits(d->buckets.bit_count, passes, pass, &shift, &pb);
    const int fused = d->key_type == SPLIT_KEY_U32 && passes == 2; /* the extra field is the one right above */
    SC_TRY(job_from_desc(d, c, job));
    split_rule_params_bits(d->buckets.start_bit + shift, pb, 1u << pb, &job->rp);
    job->bucket_offsets = NULL;
    job->unstable = 0;
    if (fused && pass == 0) {
        job->extra_totals = high_totals;
        job->extra_bits = SPLIT_TWO_PASS_HIGH_BITS;
    }
    if (fused && pass == 1) job->given_totals = high_totals;
    const int to_mid = ((passes - 1 - pass) & 1u) != 0;
    const int from_mid = pass > 0 && !to_mid; /* the previous pass wrote the other buffer */
    job->keys_in = pass == 0 ? d->keys_in : from_mid ? mid_keys : d->keys_out;
    job->keys_out = to_mid ? mid_keys : d->keys_out;
    if (d->values_in) {
        job->values_in[0] = pass == 0 ? d->values_in : from_mid ? mid_vals : d->values_out;
        job->values_out[0] = to_mid ? mid_vals : d->values_out;
    }
    return SC_OK;
}

/* Layout: job temp (the larger of the two passes' own jobs) | keys (n) | values (n, when moved) | the
 * second pass's bucket totals (2^SPLIT_TWO_PASS_HIGH_BITS, counted by the first pass's count kernel). */
enum { LSD_HIGH_TOTALS_BYTES = (1u << SPLIT_TWO_PASS_HIGH_BITS) * 4u };
static sc_status lsd_layout(const split_desc *d, const split_checked *c, size_t *job_bytes, size_t *keys_bytes,
                                 size_t *vals_bytes)
{
    const size_t n = c->n;
    *keys_bytes = align_up(n * (d->key_type == SPLIT_KEY_U64 ? 8 : 4));
    *vals_bytes = d->values_in ? align_up(n * 4) : 0;
    /* The passes' jobs as the run builds them, on middle buffers at a stand-in address. */
    char *const base = (char *)(uintptr_t)SPLIT_TEMP_ALIGN;
    size_t most = 0;
    const uint32_t passes = lsd_pass_count(d->buckets.bit_count);
    for (uint32_t pass = 0; pass < passes; ++pass) {
        split_job job;
        SC_TRY(lsd_pass_job(d, c, passes, pass, base, d->values_in ? (uint32_t *)(base + *keys_bytes) : NULL,
                            (uint32_t *)(base + *keys_bytes + *vals_bytes), &job));
        size_t b;
        SC_TRY(split_job_temp_bytes(&job, &b));
        if (b > most) most = b;
    }
    *job_bytes = align_up(most);
    return SC_OK;
}

static sc_status lsd_run(void *temp, const split_desc *d, const split_checked *c, cudaStream_t stream)
{
    const uint32_t n = c->n, nb = c->num_buckets;
    if (n == 0) {
        if (d->bucket_offsets)
            SC_CUDA_CHECK(cudaMemsetAsync(d->bucket_offsets, 0, ((size_t)nb + 1) * sizeof(uint32_t), stream));
        return SC_OK;
    }
    size_t job_bytes, keys_bytes, vals_bytes;
    SC_TRY(lsd_layout(d, c, &job_bytes, &keys_bytes, &vals_bytes));
    char *t = (char *)temp;
    void *mid_keys = t + job_bytes;
    uint32_t *mid_vals = d->values_in ? (uint32_t *)(t + job_bytes + keys_bytes) : NULL;
    uint32_t *high_totals = (uint32_t *)(t + job_bytes + keys_bytes + vals_bytes);
    const uint32_t bits = d->buckets.bit_count;
    const uint32_t passes = lsd_pass_count(bits);
    if (d->key_type == SPLIT_KEY_U32 && passes == 2)
        SC_CUDA_CHECK(cudaMemsetAsync(high_totals, 0, LSD_HIGH_TOTALS_BYTES, stream));
    for (uint32_t pass = 0; pass < passes; ++pass) {
        split_job job;
        SC_TRY(lsd_pass_job(d, c, passes, pass, mid_keys, mid_vals, high_totals, &job));
        SC_TRY(split_job_run(temp, job_bytes, &job, stream));
    }
    if (d->bucket_offsets) {
        const uint32_t threads = SPLIT_ELEMENTWISE_THREADS, warps = threads / 32u, blocks = (nb + 1 + warps - 1) / warps;
        const uint32_t mask = (1u << bits) - 1u;
        if (d->key_type == SPLIT_KEY_U64)
            SC_CUDA_CHECK(split_launch_dependent(split_offsets_search_kernel<uint64_t>, blocks, threads, 0, stream,
                                                 (const uint64_t *)d->keys_out, n, d->buckets.start_bit, mask, nb,
                                                 d->bucket_offsets));
        else
            SC_CUDA_CHECK(split_launch_dependent(split_offsets_search_kernel<uint32_t>, blocks, threads, 0, stream,
                                                 (const uint32_t *)d->keys_out, n, d->buckets.start_bit, mask, nb,
                                                 d->bucket_offsets));
    }
    return SC_OK;
}

/* A wide call (split_wide_selected) that takes the stable LSD passes instead (split_desc.clustered):
 * BITS, keys moved, no index outputs, no device record count (two passes up to SPLIT_MAX_BITS +
 * SPLIT_TWO_PASS_HIGH_BITS bits; more above, lsd_pass_count, from SPLIT_LSD_WIDE_MIN_RECORDS records
 * on). Spread keys cost the one-pass placement an atomic and a scattered word per record; the passes
 * move whole runs, but each pass has a fixed cost that a few records do not pay back. */
static int wide_takes_lsd_passes(const split_desc *d)
{
    if (!(d->unstable && !d->clustered && d->num_records_device == NULL && lsd_eligible(d))) return 0;
    return lsd_pass_count(d->buckets.bit_count) == 2 || d->n >= (size_t)SPLIT_LSD_WIDE_MIN_RECORDS;
}

static sc_status multisplit_entry(void *temp, size_t *temp_bytes, const split_desc *d, split_entry_kind kind,
                                  const char *entry, cudaStream_t stream)
{
    SC_TRY(split_validate_temp_arg(temp, temp_bytes, entry));
    split_checked c;
    SC_TRY(split_validate_desc(d, kind, temp != NULL, temp, temp ? *temp_bytes : 0, entry, &c));
    if (split_wide_selected(d, c.num_buckets) && !wide_takes_lsd_passes(d)) {
        size_t wide_need;
        SC_TRY(split_wide_temp_bytes(d, c.num_buckets, &wide_need));
        if (temp == NULL) {
            *temp_bytes = wide_need;
            return SC_OK;
        }
        SC_TRY(split_validate_temp_size(*temp_bytes, wide_need, entry));
        return split_wide_run(temp, *temp_bytes, d, c.num_buckets, stream);
    }
    const int lsd = lsd_eligible(d);
    size_t need;
    if (lsd) {
        size_t job_bytes, keys_bytes, vals_bytes;
        SC_TRY(lsd_layout(d, &c, &job_bytes, &keys_bytes, &vals_bytes));
        need = job_bytes + keys_bytes + vals_bytes + LSD_HIGH_TOTALS_BYTES;
    } else {
        split_job job;
        SC_TRY(job_from_desc(d, &c, &job));
        SC_TRY(split_job_temp_bytes(&job, &need));
    }
    if (temp == NULL) {
        *temp_bytes = need;
        return SC_OK;
    }
    SC_TRY(split_validate_temp_size(*temp_bytes, need, entry));
    if (lsd) return lsd_run(temp, d, &c, stream);
    split_job job;
    SC_TRY(job_from_desc(d, &c, &job));
    return split_job_run(temp, *temp_bytes, &job, stream);
}

sc_status split_multisplit(void *temp, size_t *temp_bytes, const split_desc *desc, cudaStream_t stream)
{
    return multisplit_entry(temp, temp_bytes, desc, SPLIT_ENTRY_MULTISPLIT, "split_multisplit", stream);
}

sc_status split_index(void *temp, size_t *temp_bytes, const split_desc *desc, cudaStream_t stream)
{
    return multisplit_entry(temp, temp_bytes, desc, SPLIT_ENTRY_INDEX, "split_index", stream);
}
