/* sort.cu - SplitSort: LSD radix sort by stable SPLIT_SORT_RADIX_BITS-bit splits (split engine of
 * multisplit.cu). 32- and 64-bit keys move as keys; a 96-bit key is split into three 32-bit word
 * arrays, the word of the pass being the key and the other two moving as value streams. Values move
 * as a value stream; records are sorted as (key, index) - the first pass emits the gather index,
 * later passes carry it - then moved by one split_gather. Passes ping-pong between two buffer sets
 * in the temporary storage; the last pass writes the caller's outputs where it can. Below
 * SPLIT_GIVEN_TOTALS_MAX_N records a histogram kernel first counts every pass's digits in one read of
 * the keys (Onesweep's up-front histogram), and each pass is then the look-back kernel alone over its
 * given totals (not for 32-bit keys alone: sort_counts_up_front). */
#include "multisplit_internal.h"
#include "sc_report.h"
#include "split.h"
#include "sort_kernels.cuh"
#include "split_validate.h"

static size_t sort_align(size_t x) { return (x + SPLIT_TEMP_ALIGN - 1) / SPLIT_TEMP_ALIGN * SPLIT_TEMP_ALIGN; }

/* One ping-pong buffer set. */
typedef struct sort_set {
    void *keys;        /* 32/64-bit keys */
    uint32_t *word[3]; /* 96-bit keys, one array per word */
    uint32_t *values;
    uint32_t *index;
} sort_set;

typedef struct sort_layout {
    size_t job_bytes, set_bytes, totals, total; /* totals: offset of the digit totals (passes x 2^RADIX) */
    size_t keys, word, values, index; /* offsets inside a set */
} sort_layout;

static uint32_t pass_bits(const split_sort_checked *c, uint32_t pass)
{
    uint32_t left = c->key_bits_used - pass * SPLIT_SORT_RADIX_BITS;
    return left < (uint32_t)SPLIT_SORT_RADIX_BITS ? left : (uint32_t)SPLIT_SORT_RADIX_BITS;
}

static sort_set set_at(char *base, const sort_layout *L, size_t n)
{
    sort_set s;
    s.keys = base + L->keys;
    for (int w = 0; w < 3; ++w) s.word[w] = (uint32_t *)(base + L->word + (size_t)w * sort_align(n * 4));
    s.values = (uint32_t *)(base + L->values);
    s.index = (uint32_t *)(base + L->index);
    return s;
}

/* Whether the passes take given digit totals (counted up front by sort_histogram_kernel): below
 * SPLIT_GIVEN_TOTALS_MAX_N records, unless the sort moves 32-bit keys alone, whose passes are faster
 * with their own count kernel and the tile rows it writes than looking back over given totals (H100,
 * 2^26 keys: 1.718 against 1.796 ms). */
static int sort_counts_up_front(const split_sort_desc *d, const split_sort_checked *c)
{
    return c->n < SPLIT_GIVEN_TOTALS_MAX_N && (c->key_bits != 32 || d->values_in || d->record_bytes);
}

static void add_stream(split_job *job, const uint32_t *in, uint32_t *out)
{
    job->values_in[job->num_values] = in;
    job->values_out[job->num_values] = out;
    ++job->num_values;
}

/* The split job of one pass: it reads set (pass + 1) & 1 (the caller's inputs in pass 0) and writes
 * set pass & 1 (the caller's outputs in the last pass, where they fit). */
static void sort_pass_job(const split_sort_desc *d, const split_sort_checked *c, const sort_set set[2],
                          const uint32_t *totals, uint32_t pass, split_job *job)
{
    const int last = pass + 1 == c->passes, k96 = c->key_bits == 96;
    const sort_set *src = &set[(pass + 1) & 1], *dst = &set[pass & 1];
    const uint32_t bit = pass * SPLIT_SORT_RADIX_BITS, bits = pass_bits(c, pass);
    memset(job, 0, sizeof *job);
    job->n = c->n;
    job->rule = SPLIT_BUCKETS_BITS;
    split_rule_params_bits(k96 ? bit % 32 : bit, bits, 1u << bits, &job->rp);
    if (totals) job->given_totals = totals + ((size_t)pass << SPLIT_SORT_RADIX_BITS);
    if (k96) {
        const uint32_t w = bit / 32;
        job->key64 = 0;
        job->keys_in = src->word[w];
        job->keys_out = dst->word[w];
        for (uint32_t o = 0; o < 3; ++o)
            if (o != w) add_stream(job, src->word[o], dst->word[o]);
    } else {
        job->key64 = c->key_bits == 64;
        job->keys_in = pass == 0 ? d->keys_in : src->keys;
        job->keys_out = last ? d->keys_out : dst->keys;
    }
    if (d->values_in) add_stream(job, pass == 0 ? d->values_in : src->values, last ? d->values_out : dst->values);
    if (d->record_bytes) {
        if (pass == 0) job->gather_index = dst->index;
        else add_stream(job, src->index, dst->index);
    }
}

static sc_status sort_layout_of(const split_sort_desc *d, const split_sort_checked *c, sort_layout *L)
{
    size_t n = c->n, job = 0;
    size_t o = 0;
    L->keys = o;
    if (c->key_bits != 96) o += sort_align(n * (c->key_bits / 8));
    L->word = o;
    if (c->key_bits == 96) o += 3 * sort_align(n * 4);
    L->values = o;
    if (d->values_in || d->values_out) o += sort_align(n * 4);
    L->index = o;
    if (d->record_bytes) o += sort_align(n * 4);
    L->set_bytes = o;
    const size_t totals_bytes = sort_counts_up_front(d, c) ? sort_align((size_t)c->passes * 4u << SPLIT_SORT_RADIX_BITS) : 0;
    /* The job storage: the largest of the passes' own jobs (their outputs decide their kernels and
     * the storage those take), built as the run builds them on buffer sets at a stand-in base. */
    char *const base = (char *)(uintptr_t)SPLIT_TEMP_ALIGN;
    const sort_set set[2] = {set_at(base, L, n), set_at(base + o, L, n)};
    const uint32_t *totals = totals_bytes ? (const uint32_t *)(base + 2 * o) : NULL;
    for (uint32_t pass = 0; pass < c->passes; ++pass) {
        split_job pj;
        sort_pass_job(d, c, set, totals, pass, &pj);
        size_t b;
        SC_TRY(split_job_temp_bytes(&pj, &b));
        if (b > job) job = b;
    }
    L->job_bytes = sort_align(job);
    L->totals = L->job_bytes + 2 * o;
    L->total = L->totals + totals_bytes;
    if (L->total == 0) L->total = SPLIT_TEMP_ALIGN;
    return SC_OK;
}

/* One read of the keys before the passes (sort_histogram_kernel): with count, every pass's digit totals
 * into totals (zeroed here); 96-bit keys are split into the word arrays of `words` by the same read
 * (with or without counting). */
static sc_status sort_count_digits(const split_sort_desc *d, const split_sort_checked *c, int count, uint32_t *totals,
                                   const sort_set *words, cudaStream_t stream)
{
    const uint32_t n = c->n, passes = count ? c->passes : 0u, bins = passes << SPLIT_SORT_RADIX_BITS;
    const uint32_t last_bits = c->key_bits_used - (c->passes - 1u) * SPLIT_SORT_RADIX_BITS;
    const uint32_t last_mask = (uint32_t)((1ull << last_bits) - 1u);
    if (count) SC_CUDA_CHECK(cudaMemsetAsync(totals, 0, (size_t)bins * sizeof(uint32_t), stream));
    uint32_t sms = 1;
    SC_TRY(sc_cuda_device_sms(&sms));
    const uint32_t tile = SPLIT_SORT_HIST_THREADS * SPLIT_SORT_HIST_ITEMS;
    const uint64_t tiles = ((uint64_t)n + tile - 1) / tile, most = (uint64_t)sms * SPLIT_SORT_HIST_BLOCKS_PER_SM;
    const uint32_t grid = (uint32_t)(tiles < most ? tiles : most);
    const size_t smem = (size_t)bins * sizeof(uint32_t);
    const uint32_t *keys = (const uint32_t *)d->keys_in;
    cudaError_t e;
    if (c->key_bits == 96)
        e = split_launch_dependent(sort_histogram_kernel<3>, grid, SPLIT_SORT_HIST_THREADS, smem, stream, keys, n, passes,
                                   last_mask, totals, words->word[0], words->word[1], words->word[2]);
    else if (c->key_bits == 64)
        e = split_launch_dependent(sort_histogram_kernel<2>, grid, SPLIT_SORT_HIST_THREADS, smem, stream, keys, n, passes,
                                   last_mask, totals, (uint32_t *)NULL, (uint32_t *)NULL, (uint32_t *)NULL);
    else
        e = split_launch_dependent(sort_histogram_kernel<1>, grid, SPLIT_SORT_HIST_THREADS, smem, stream, keys, n, passes,
                                   last_mask, totals, (uint32_t *)NULL, (uint32_t *)NULL, (uint32_t *)NULL);
    SC_CUDA_CHECK(e);
    return SC_OK;
}

sc_status split_sort(void *temp, size_t *temp_bytes, const split_sort_desc *d, cudaStream_t stream)
{
    const char *entry = "split_sort";
    SC_TRY(split_validate_temp_arg(temp, temp_bytes, entry));
    split_sort_checked c;
    SC_TRY(split_validate_sort_desc(d, temp != NULL, temp, temp ? *temp_bytes : 0, entry, &c));
    sort_layout L;
    SC_TRY(sort_layout_of(d, &c, &L));
    if (temp == NULL) {
        *temp_bytes = L.total;
        return SC_OK;
    }
    SC_TRY(split_validate_temp_size(*temp_bytes, L.total, entry));
    const uint32_t n = c.n;
    if (n == 0) return SC_OK;
    char *t = (char *)temp;
    void *job_temp = t;
    sort_set set[2] = {set_at(t + L.job_bytes, &L, n), set_at(t + L.job_bytes + L.set_bytes, &L, n)};
    const int k96 = c.key_bits == 96, records = d->record_bytes != 0, count = sort_counts_up_front(d, &c);
    const uint32_t threads = SPLIT_ELEMENTWISE_THREADS;
    const uint32_t blocks = (uint32_t)(((uint64_t)n + threads - 1) / threads);
    uint32_t *totals = count ? (uint32_t *)(t + L.totals) : NULL;
    /* 96-bit keys: into set 1's word arrays (pass 0 reads set 1) */
    if (count || k96) SC_TRY(sort_count_digits(d, &c, count, totals, &set[1], stream));
    for (uint32_t pass = 0; pass < c.passes; ++pass) {
        split_job job;
        sort_pass_job(d, &c, set, totals, pass, &job);
        SC_TRY(split_job_run(job_temp, L.job_bytes, &job, stream));
    }
    const sort_set *fin = &set[(c.passes - 1) & 1];
    if (k96) {
        sort_interleave_kernel<<<blocks, threads, 0, stream>>>(fin->word[0], fin->word[1], fin->word[2], n,
                                                               (uint32_t *)d->keys_out);
        SC_CUDA_CHECK_LAUNCH("sort_interleave_kernel");
    }
    if (records) {
        split_move_desc m;
        memset(&m, 0, sizeof m);
        m.src = d->records_in;
        m.dst = d->records_out;
        m.record_bytes = d->record_bytes;
        m.index = fin->index;
        m.n = n;
        m.num_passes = 1;
        SC_TRY(split_gather(&m, stream));
    }
    return SC_OK;
}
