/* test_sort.cu - split_sort (SplitSort) on the GPU against split_sort_ref, exact equality (gpu).
 * Keys of 32, 64 and 96 bits, key_bits_used below the width, key-only / key-value / records (by
 * (key, index) then split_gather) / both: 32-bit key-only sorts count each pass's digits in the pass,
 * the others count every pass's digits up front (both routes in every size and distribution below).
 * Keys mix random words with a few small values so equal keys are common (stability is checked
 * through values and records). Each case runs directly and replayed from a captured CUDA graph,
 * outputs poisoned before each run, guard words checked.
 * Sizes: 0, 1, 31, 32, 33, 255..257, 2047..2049 (tile +-1), 4097 on every key configuration;
 * 10^6+7 on every key configuration; 2^24 key-value for 32-, 64- and 96-bit keys (96 with 8-byte
 * records too); 2^28 only with an argument containing "large". "sanitize_mid" is a mid-size case
 * for compute-sanitizer.
 * Key distributions that stress a radix sort (all equal, 75 % one key, five distinct keys,
 * ascending, descending, differing only in the top / only in the bottom byte) for 32-, 64- and
 * 96-bit keys, key-only and key-value, at 33, 385, 3073 and 10^6+3. Records of 36, 100, 128 and
 * 512 bytes (4-, 4-, 16-, 16-byte word paths of the final gather) at 0 .. 10^5+3 records, 128 and
 * 36 bytes at 10^6+7. Bad arguments (too little or misaligned temp storage, NULL / aliased /
 * misaligned keys, values and records, invalid key_bits, key_bits_used and record_bytes, n >= 2^32)
 * return an error naming split_sort and write no byte of the poisoned outputs. */
#include <stdlib.h>
#include <string.h>

#include "sctest.h"
#include "sctest_cuda.h"
#include "split.h"

enum { GUARD = 4 };
static cudaStream_t g_stream;

static void *dev_alloc(size_t bytes)
{
    void *d = NULL;
    return cudaMalloc(&d, bytes + GUARD * 4) == cudaSuccess ? d : NULL;
}

static int same_and_guarded(const void *dev, const void *ref, size_t bytes)
{
    unsigned char *h = (unsigned char *)malloc(bytes + GUARD * 4);
    if (!h) return 0;
    cudaMemcpy(h, dev, bytes + GUARD * 4, cudaMemcpyDeviceToHost);
    int ok = (bytes == 0 || memcmp(h, ref, bytes) == 0);
    for (size_t k = 0; k < GUARD * 4; ++k) ok &= h[bytes + k] == 0xAB;
    free(h);
    return ok;
}

/* Key distributions. MIXED (random words, a quarter of them small values) is every other test's. */
typedef enum key_dist {
    DIST_MIXED = 0,
    DIST_EQUAL,       /* every key the same random key: each pass puts all records in one bucket */
    DIST_HOCKEY,      /* 75 % one random key, the rest random (hockey-stick) */
    DIST_FEW,         /* each key one of five random keys */
    DIST_ASCENDING,   /* random keys, 1 in 8 repeating the previous one, already in ascending order */
    DIST_DESCENDING,  /* the same keys in descending order (equal runs stay in input order) */
    DIST_TOP_BYTE,    /* one random key with a random top byte: keys differ only in the last pass */
    DIST_BOTTOM_BYTE, /* one random key with a random bottom byte: keys differ only in the first pass */
    NUM_DISTS
} key_dist;
static const char *const k_dist_names[NUM_DISTS] = {"mixed",     "equal",      "hockey",   "few",
                                                    "ascending", "descending", "top_byte", "bottom_byte"};

/* A key as three 32-bit words, word 0 least significant; words at and above the key's kw are 0.
 * Keys are stored as kw consecutive words (a uint64_t key on the little-endian host is its low
 * word first, as split_sort and split_sort_ref read it). */
typedef struct key3 { uint32_t w[3]; } key3;

static void random_key(sct_rng *rng, uint32_t kw, key3 *k)
{
    for (uint32_t w = 0; w < 3; ++w) k->w[w] = w < kw ? sct_rng_u32(rng) : 0;
}

static int key3_cmp(const void *a, const void *b)
{
    const key3 *x = (const key3 *)a, *y = (const key3 *)b;
    for (int w = 2; w >= 0; --w)
        if (x->w[w] != y->w[w]) return x->w[w] < y->w[w] ? -1 : 1;
    return 0;
}

/* n keys of kw words into keys (n * kw words). Returns 0 when a host allocation failed. */
static int make_keys(sct_rng *rng, uint32_t *keys, uint32_t kw, size_t n, key_dist dist)
{
    if (dist == DIST_MIXED) {
        uint32_t small = 1 + sct_rng_below(rng, 16);
        for (size_t w = 0; w < n * kw; ++w) keys[w] = sct_rng_below(rng, 4) ? sct_rng_u32(rng) : sct_rng_below(rng, small);
        return 1;
    }
    key3 base, pool[5];
    random_key(rng, kw, &base);
    for (int p = 0; p < 5; ++p) random_key(rng, kw, &pool[p]);
    if (dist == DIST_ASCENDING || dist == DIST_DESCENDING) {
        key3 *sorted = (key3 *)malloc(n * sizeof *sorted + sizeof *sorted);
        if (!sorted) return 0;
        for (size_t i = 0; i < n; ++i) {
            if (i > 0 && sct_rng_below(rng, 8) == 0) sorted[i] = sorted[i - 1];
            else random_key(rng, kw, &sorted[i]);
        }
        qsort(sorted, n, sizeof *sorted, key3_cmp);
        for (size_t i = 0; i < n; ++i)
            memcpy(keys + i * kw, sorted[dist == DIST_ASCENDING ? i : n - 1 - i].w, kw * 4);
        free(sorted);
        return 1;
    }
    for (size_t i = 0; i < n; ++i) {
        key3 k = base;
        if (dist == DIST_HOCKEY && sct_rng_below(rng, 4) == 0) random_key(rng, kw, &k);
        if (dist == DIST_FEW) k = pool[sct_rng_below(rng, 5)];
        if (dist == DIST_TOP_BYTE) k.w[kw - 1] = (k.w[kw - 1] & 0x00ffffffu) | (sct_rng_u32(rng) & 0xff000000u);
        if (dist == DIST_BOTTOM_BYTE) k.w[0] = (k.w[0] & 0xffffff00u) | (sct_rng_u32(rng) & 0xffu);
        memcpy(keys + i * kw, k.w, kw * 4);
    }
    return 1;
}

static void sort_case_dist(uint32_t key_bits, uint32_t used, uint32_t n, int values, size_t record_bytes,
                           key_dist dist, uint64_t seed)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    size_t kbytes = (size_t)n * (key_bits / 8), rbytes = (size_t)n * record_bytes;
    uint32_t *keys = (uint32_t *)malloc(kbytes + 4), *vin = (uint32_t *)malloc((size_t)n * 4 + 4);
    unsigned char *rin = (unsigned char *)malloc(rbytes + 4);
    void *ref_keys = malloc(kbytes + 4);
    uint32_t *ref_vals = (uint32_t *)malloc((size_t)n * 4 + 4);
    unsigned char *ref_recs = (unsigned char *)malloc(rbytes + 4);
    SCT_REQUIRE(keys && vin && rin && ref_keys && ref_vals && ref_recs);
    SCT_REQUIRE(make_keys(&rng, keys, key_bits / 32, n, dist));
    for (size_t i = 0; i < n; ++i) vin[i] = (uint32_t)i ^ 0x5a5a5a5au;
    for (size_t i = 0; i < rbytes; ++i) rin[i] = (unsigned char)(sct_rng_u32(&rng) >> 24);
    split_sort_desc ref = {key_bits, used, n, keys, ref_keys, values ? vin : NULL, values ? ref_vals : NULL,
                           record_bytes ? rin : NULL, record_bytes ? ref_recs : NULL, record_bytes};
    SCT_REQUIRE_OK(split_sort_ref(&ref));

    void *d_keys = dev_alloc(kbytes), *d_keys_out = dev_alloc(kbytes);
    uint32_t *d_vin = values ? (uint32_t *)dev_alloc((size_t)n * 4) : NULL;
    uint32_t *d_vout = values ? (uint32_t *)dev_alloc((size_t)n * 4) : NULL;
    void *d_rin = record_bytes ? dev_alloc(rbytes) : NULL, *d_rout = record_bytes ? dev_alloc(rbytes) : NULL;
    SCT_REQUIRE(d_keys && d_keys_out && (!values || (d_vin && d_vout)) && (!record_bytes || (d_rin && d_rout)));
    SCT_CUDA(cudaMemcpy(d_keys, keys, kbytes, cudaMemcpyHostToDevice));
    if (values) SCT_CUDA(cudaMemcpy(d_vin, vin, (size_t)n * 4, cudaMemcpyHostToDevice));
    if (record_bytes) SCT_CUDA(cudaMemcpy(d_rin, rin, rbytes, cudaMemcpyHostToDevice));
    split_sort_desc d = {key_bits, used, n, d_keys, d_keys_out, d_vin, d_vout, d_rin, d_rout, record_bytes};
    size_t temp_bytes = 0;
    void *temp = NULL;
    SCT_REQUIRE_OK(split_sort(NULL, &temp_bytes, &d, g_stream));
    SCT_CUDA_REQUIRE(cudaMalloc(&temp, temp_bytes));
    for (int run = 0; run < 2; ++run) {
        SCT_CUDA(cudaMemsetAsync(d_keys_out, 0xAB, kbytes + GUARD * 4, g_stream));
        if (values) SCT_CUDA(cudaMemsetAsync(d_vout, 0xAB, (size_t)n * 4 + GUARD * 4, g_stream));
        if (record_bytes) SCT_CUDA(cudaMemsetAsync(d_rout, 0xAB, rbytes + GUARD * 4, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        if (run == 0) {
            SCT_CHECK_OK(split_sort(temp, &temp_bytes, &d, g_stream));
        } else {
            cudaGraph_t graph = NULL;
            cudaGraphExec_t exec = NULL;
            SCT_CUDA(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
            sc_status st = split_sort(temp, &temp_bytes, &d, g_stream);
            SCT_CUDA(cudaStreamEndCapture(g_stream, &graph));
            SCT_CHECK_MSG(st == SC_OK, "captured split_sort failed: %s", sc_last_error());
            if (graph) {
                SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
                SCT_CUDA(cudaGraphLaunch(exec, g_stream));
            }
            SCT_CUDA(cudaStreamSynchronize(g_stream));
            if (exec) cudaGraphExecDestroy(exec);
            if (graph) cudaGraphDestroy(graph);
        }
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        int ok_k = same_and_guarded(d_keys_out, ref_keys, kbytes);
        int ok_v = !values || same_and_guarded(d_vout, ref_vals, (size_t)n * 4);
        int ok_r = !record_bytes || same_and_guarded(d_rout, ref_recs, rbytes);
        SCT_CHECK_MSG(ok_k && ok_v && ok_r,
                      "%s: bits=%u used=%u n=%u values=%d record_bytes=%zu keys=%s: keys %s values %s records %s",
                      run ? "graph" : "direct", key_bits, used, n, values, record_bytes, k_dist_names[dist],
                      ok_k ? "ok" : "WRONG", ok_v ? "ok" : "WRONG", ok_r ? "ok" : "WRONG");
    }
    /* keys_in is never modified */
    {
        uint32_t *h = (uint32_t *)malloc(kbytes + 4);
        cudaMemcpy(h, d_keys, kbytes, cudaMemcpyDeviceToHost);
        SCT_CHECK_MSG(kbytes == 0 || memcmp(h, keys, kbytes) == 0, "keys_in was modified");
        free(h);
    }
    cudaFree(d_keys); cudaFree(d_keys_out); cudaFree(d_vin); cudaFree(d_vout); cudaFree(d_rin); cudaFree(d_rout);
    cudaFree(temp);
    free(keys); free(vin); free(rin); free(ref_keys); free(ref_vals); free(ref_recs);
}

static void sort_case(uint32_t key_bits, uint32_t used, uint32_t n, int values, size_t record_bytes, uint64_t seed)
{
    sort_case_dist(key_bits, used, n, values, record_bytes, DIST_MIXED, seed);
}

static const uint32_t k_bits[][2] = {{32, 0}, {32, 12}, {32, 1}, {64, 0}, {64, 40}, {96, 0}, {96, 33}, {96, 70}};
enum { NUM_BITS = sizeof k_bits / sizeof k_bits[0] };

static void test_small_sizes_every_key_configuration(void)
{
    static const uint32_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 4097};
    static const size_t recs[] = {0, 0, 4, 12, 20};
    uint64_t seed = sct_base_seed();
    unsigned k = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (int b = 0; b < NUM_BITS; ++b, ++k) {
            sort_case(k_bits[b][0], k_bits[b][1], sizes[s], k % 2 == 1, recs[k % 5], ++seed);
            if (sct_current_failed() > 4) return;
        }
}

static void test_million_every_key_configuration(void)
{
    uint64_t seed = sct_base_seed() * 3;
    for (int b = 0; b < NUM_BITS; ++b) sort_case(k_bits[b][0], k_bits[b][1], 1000007, b % 2 == 0, b % 3 == 0 ? 16 : 0, ++seed);
}

/* Every distribution but MIXED, for 32-, 64- and 96-bit keys (all bits used), key-only and
 * key-value, at 33, 385 and 3073 (tile + 1) keys. */
static void test_key_distributions_small(void)
{
    static const uint32_t sizes[] = {33, 385, 3073};
    uint64_t seed = sct_base_seed() * 13;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (int dist = DIST_EQUAL; dist < NUM_DISTS; ++dist)
            for (uint32_t bits = 32; bits <= 96; bits += 32)
                for (int values = 0; values < 2; ++values) {
                    sort_case_dist(bits, 0, sizes[s], values, 0, (key_dist)dist, ++seed);
                    if (sct_current_failed() > 4) return;
                }
}

/* The same grid at 10^6 + 3 keys. */
static void test_key_distributions_million(void)
{
    uint64_t seed = sct_base_seed() * 17;
    for (int dist = DIST_EQUAL; dist < NUM_DISTS; ++dist)
        for (uint32_t bits = 32; bits <= 96; bits += 32)
            for (int values = 0; values < 2; ++values) {
                sort_case_dist(bits, 0, 1000003, values, 0, (key_dist)dist, ++seed);
                if (sct_current_failed() > 4) return;
            }
}

/* Records of 36 and 100 bytes (4-byte words), 128 and 512 bytes (16-byte words) sorted by every key
 * configuration in turn, with and without values, at 0, 1, 33, 385, 2049 and 10^5 + 3 records;
 * 128-byte records under 64-bit keys and 36-byte records under 96-bit keys at 10^6 + 7. */
static void test_records_36_to_512_bytes(void)
{
    static const uint32_t sizes[] = {0, 1, 33, 385, 2049, 100003};
    static const size_t rbs[] = {36, 100, 128, 512};
    uint64_t seed = sct_base_seed() * 19;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
        for (size_t r = 0; r < sizeof rbs / sizeof rbs[0]; ++r) {
            const size_t b = (3 * s + r) % NUM_BITS; /* six different key configurations per record size */
            sort_case(k_bits[b][0], k_bits[b][1], sizes[s], (int)((s + r) % 2), rbs[r], ++seed);
            if (sct_current_failed() > 4) return;
        }
    sort_case(64, 0, 1000007, 1, 128, ++seed);
    sort_case(96, 0, 1000007, 0, 36, ++seed);
}

static void test_2p24(void)
{
    uint64_t seed = sct_base_seed() * 5;
    sort_case(32, 0, 1u << 24, 1, 0, ++seed);
    sort_case(96, 0, 1u << 24, 1, 8, ++seed); /* values and records: 96-bit key-value at the cost of one stream */
    sort_case(64, 0, 1u << 24, 1, 0, ++seed);
}

static void test_sanitize_mid(void)
{
    uint64_t seed = sct_base_seed() * 7;
    sort_case(96, 0, 20011, 1, 12, ++seed);
    sort_case(64, 20, 20011, 0, 4, ++seed);
}

/* ---- bad arguments ---- */

enum { BAD_N = 1000, BAD_MAX_RECORD = 36, BAD_SLACK = 256 };

static void quiet(sc_log_level level, const char *message, void *user) { (void)level, (void)message, (void)user; }

/* The bad-argument test's device buffers, sized for the widest configuration plus BAD_SLACK bytes:
 * inputs filled once, outputs poisoned (0xAB) over the whole allocation. */
typedef struct bad_bufs {
    void *keys_in, *keys_out, *rin, *rout;
    uint32_t *vin, *vout;
    size_t key_alloc, val_alloc, rec_alloc;
    unsigned char *scratch; /* host, rec_alloc bytes (the largest allocation) */
} bad_bufs;

static void poison_outputs(const bad_bufs *b)
{
    SCT_CUDA(cudaMemset(b->keys_out, 0xAB, b->key_alloc));
    SCT_CUDA(cudaMemset(b->vout, 0xAB, b->val_alloc));
    SCT_CUDA(cudaMemset(b->rout, 0xAB, b->rec_alloc));
    SCT_CUDA(cudaDeviceSynchronize());
}

/* Bytes of a device allocation of alloc bytes that differ from ref over [0, bytes) or from the
 * poison over [bytes, alloc). */
static size_t differing_bytes(const bad_bufs *b, const void *dev, const void *ref, size_t bytes, size_t alloc)
{
    if (cudaMemcpy(b->scratch, dev, alloc, cudaMemcpyDeviceToHost) != cudaSuccess) return alloc;
    size_t w = 0;
    for (size_t i = 0; i < alloc; ++i) w += b->scratch[i] != (i < bytes ? ((const unsigned char *)ref)[i] : 0xAB);
    return w;
}

static size_t outputs_written(const bad_bufs *b)
{
    return differing_bytes(b, b->keys_out, NULL, 0, b->key_alloc) + differing_bytes(b, b->vout, NULL, 0, b->val_alloc) +
           differing_bytes(b, b->rout, NULL, 0, b->rec_alloc);
}

typedef struct bad_cfg {
    uint32_t key_bits;
    int values;
    size_t record_bytes;
    const char *name;
} bad_cfg;

/* One call that must return `want`, name split_sort in sc_last_error() and write no output byte. */
static void expect_rejected(const bad_bufs *b, void *temp, size_t *temp_bytes, const split_sort_desc *d, sc_status want,
                            const char *cfg, const char *what)
{
    sc_clear_error();
    const sc_status st = split_sort(temp, temp_bytes, d, g_stream);
    SCT_CHECK_MSG(st == want, "%s, %s: split_sort returned %s, expected %s (%s)", cfg, what, sc_status_name(st),
                  sc_status_name(want), sc_last_error());
    SCT_CHECK_MSG(strstr(sc_last_error(), "split_sort") != NULL,
                  "%s, %s: sc_last_error() does not name split_sort: \"%s\"", cfg, what, sc_last_error());
    SCT_CUDA(cudaStreamSynchronize(g_stream));
    SCT_CUDA(cudaDeviceSynchronize());
    const size_t w = outputs_written(b);
    if (w) {
        sct_fail(__FILE__, __LINE__, "%s, %s: the rejected call wrote %zu bytes of the poisoned outputs", cfg, what, w);
        poison_outputs(b);
    }
}

static void reject(const bad_bufs *b, void *temp, size_t temp_bytes, const split_sort_desc *d, sc_status want,
                   const char *cfg, const char *what)
{
    expect_rejected(b, temp, &temp_bytes, d, want, cfg, what);
}

/* split_sort with bad arguments, on key-only, key-value and record sorts: temp storage one byte short
 * and 0 bytes (SC_ERROR_TEMP_STORAGE); misaligned temp, NULL temp_bytes / desc, NULL, aliased and
 * misaligned keys, values and records, key_bits 16 / 33 / 48 / 128, key_bits_used above key_bits,
 * n = 2^32, record_bytes 0 / 2 / 6 / 30 and records without record_bytes (SC_ERROR_INVALID_ARGUMENT).
 * Each call must name split_sort in sc_last_error() and leave every byte of the poisoned outputs
 * (keys, values, records, their slack) as it was; then the valid call of each configuration
 * matches split_sort_ref and leaves the slack alone, and the inputs are unchanged. */
static void test_bad_arguments_write_nothing(void)
{
    enum { NUM_CFGS = 4 };
    static const bad_cfg cfgs[NUM_CFGS] = {{32, 0, 0, "32-bit keys"},
                                           {64, 1, 0, "64-bit key-value"},
                                           {96, 1, 16, "96-bit key-value + 16-byte records"},
                                           {32, 0, BAD_MAX_RECORD, "32-bit keys + 36-byte records"}};
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    bad_bufs b;
    memset(&b, 0, sizeof b);
    b.key_alloc = (size_t)BAD_N * 12 + BAD_SLACK;
    b.val_alloc = (size_t)BAD_N * 4 + BAD_SLACK;
    b.rec_alloc = (size_t)BAD_N * BAD_MAX_RECORD + BAD_SLACK;
    uint32_t *h_keys = (uint32_t *)malloc(b.key_alloc), *h_vals = (uint32_t *)malloc(b.val_alloc);
    uint32_t *h_recs = (uint32_t *)malloc(b.rec_alloc), *ref_vals = (uint32_t *)malloc(b.val_alloc);
    void *ref_keys = malloc(b.key_alloc), *ref_recs = malloc(b.rec_alloc);
    b.scratch = (unsigned char *)malloc(b.rec_alloc);
    void *temp = NULL;
    SCT_REQUIRE(h_keys && h_vals && h_recs && ref_vals && ref_keys && ref_recs && b.scratch);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() * 23);
    for (size_t w = 0; w < b.key_alloc / 4; ++w) /* half of them small: equal keys, stability matters */
        h_keys[w] = sct_rng_below(&rng, 2) ? sct_rng_u32(&rng) : sct_rng_below(&rng, 8);
    for (size_t w = 0; w < b.val_alloc / 4; ++w) h_vals[w] = sct_rng_u32(&rng);
    for (size_t w = 0; w < b.rec_alloc / 4; ++w) h_recs[w] = sct_rng_u32(&rng);
    SCT_CUDA_REQUIRE(cudaMalloc(&b.keys_in, b.key_alloc));
    SCT_CUDA_REQUIRE(cudaMalloc(&b.keys_out, b.key_alloc));
    SCT_CUDA_REQUIRE(cudaMalloc(&b.vin, b.val_alloc));
    SCT_CUDA_REQUIRE(cudaMalloc(&b.vout, b.val_alloc));
    SCT_CUDA_REQUIRE(cudaMalloc(&b.rin, b.rec_alloc));
    SCT_CUDA_REQUIRE(cudaMalloc(&b.rout, b.rec_alloc));
    SCT_CUDA_REQUIRE(cudaMemcpy(b.keys_in, h_keys, b.key_alloc, cudaMemcpyHostToDevice));
    SCT_CUDA_REQUIRE(cudaMemcpy(b.vin, h_vals, b.val_alloc, cudaMemcpyHostToDevice));
    SCT_CUDA_REQUIRE(cudaMemcpy(b.rin, h_recs, b.rec_alloc, cudaMemcpyHostToDevice));

    split_sort_desc good[NUM_CFGS];
    size_t need[NUM_CFGS], most = 0;
    for (int c = 0; c < NUM_CFGS; ++c) {
        split_sort_desc *d = &good[c];
        memset(d, 0, sizeof *d);
        d->key_bits = cfgs[c].key_bits;
        d->n = BAD_N;
        d->keys_in = b.keys_in;
        d->keys_out = b.keys_out;
        if (cfgs[c].values) d->values_in = b.vin, d->values_out = b.vout;
        if (cfgs[c].record_bytes)
            d->records_in = b.rin, d->records_out = b.rout, d->record_bytes = cfgs[c].record_bytes;
        SCT_REQUIRE_OK(split_sort(NULL, &need[c], d, g_stream));
        SCT_REQUIRE(need[c] > 0);
        if (need[c] > most) most = need[c];
    }
    /* room for a start 4 bytes past the (256-byte aligned) allocation with the full size behind it */
    SCT_CUDA_REQUIRE(cudaMalloc(&temp, most + 256));

    for (int c = 0; c < NUM_CFGS && sct_current_failed() <= 8; ++c) {
        const split_sort_desc d = good[c];
        const char *cfg = cfgs[c].name;
        const uint32_t kb = cfgs[c].key_bits;
        const size_t kmis = kb == 64 ? 4 : 2; /* below the keys' alignment (8 bytes for 64-bit keys, else 4) */
        const sc_status BAD = SC_ERROR_INVALID_ARGUMENT;
        char what[96];
        split_sort_desc e;
        poison_outputs(&b);
        reject(&b, temp, need[c] - 1, &d, SC_ERROR_TEMP_STORAGE, cfg, "temp_bytes one byte short");
        reject(&b, temp, 0, &d, SC_ERROR_TEMP_STORAGE, cfg, "temp_bytes 0");
        reject(&b, (char *)temp + 4, need[c], &d, BAD, cfg, "temp misaligned by 4 bytes");
        expect_rejected(&b, temp, NULL, &d, BAD, cfg, "temp_bytes NULL");
        reject(&b, temp, need[c], NULL, BAD, cfg, "desc NULL");
        e = d; e.keys_in = NULL;
        reject(&b, temp, need[c], &e, BAD, cfg, "keys_in NULL");
        e = d; e.keys_out = NULL;
        reject(&b, temp, need[c], &e, BAD, cfg, "keys_out NULL");
        e = d; e.keys_out = b.keys_in;
        reject(&b, temp, need[c], &e, BAD, cfg, "keys_out == keys_in");
        e = d; e.keys_in = (const char *)b.keys_in + kmis;
        reject(&b, temp, need[c], &e, BAD, cfg, "keys_in misaligned");
        e = d; e.keys_out = (char *)b.keys_out + kmis;
        reject(&b, temp, need[c], &e, BAD, cfg, "keys_out misaligned");
        static const uint32_t bad_bits[] = {16, 33, 48, 128};
        for (int k = 0; k < 4; ++k) {
            e = d; e.key_bits = bad_bits[k];
            snprintf(what, sizeof what, "key_bits = %u", bad_bits[k]);
            reject(&b, temp, need[c], &e, BAD, cfg, what);
        }
        e = d; e.key_bits_used = kb + 1;
        reject(&b, temp, need[c], &e, BAD, cfg, "key_bits_used = key_bits + 1");
        e = d; e.n = (size_t)1 << 32;
        reject(&b, temp, need[c], &e, BAD, cfg, "n = 2^32");
        if (cfgs[c].values) {
            e = d; e.values_out = NULL;
            reject(&b, temp, need[c], &e, BAD, cfg, "values_out NULL with values_in");
            e = d; e.values_in = NULL;
            reject(&b, temp, need[c], &e, BAD, cfg, "values_in NULL with values_out");
            e = d; e.values_out = b.vin;
            reject(&b, temp, need[c], &e, BAD, cfg, "values_out == values_in");
            e = d; e.values_out = (uint32_t *)((char *)b.vout + 2);
            reject(&b, temp, need[c], &e, BAD, cfg, "values_out misaligned by 2 bytes");
        } else {
            e = d; e.values_in = b.vin;
            reject(&b, temp, need[c], &e, BAD, cfg, "values_in without values_out");
        }
        if (cfgs[c].record_bytes) {
            e = d; e.records_out = (char *)b.rout + 2;
            reject(&b, temp, need[c], &e, BAD, cfg, "records_out misaligned by 2 bytes");
            e = d; e.records_in = (const char *)b.rin + 1;
            reject(&b, temp, need[c], &e, BAD, cfg, "records_in misaligned by 1 byte");
            static const size_t bad_rb[] = {0, 2, 6, 30};
            for (int k = 0; k < 4; ++k) {
                e = d; e.record_bytes = bad_rb[k];
                snprintf(what, sizeof what, "record_bytes = %zu", bad_rb[k]);
                reject(&b, temp, need[c], &e, BAD, cfg, what);
            }
            e = d; e.records_out = NULL;
            reject(&b, temp, need[c], &e, BAD, cfg, "records_out NULL");
            e = d; e.records_in = NULL;
            reject(&b, temp, need[c], &e, BAD, cfg, "records_in NULL");
            e = d; e.records_out = b.rin;
            reject(&b, temp, need[c], &e, BAD, cfg, "records_out == records_in");
        } else {
            e = d; e.record_bytes = 16;
            reject(&b, temp, need[c], &e, BAD, cfg, "record_bytes without records");
            e = d; e.records_in = b.rin, e.records_out = b.rout;
            reject(&b, temp, need[c], &e, BAD, cfg, "records without record_bytes");
        }
        /* the valid call writes exactly what the reference writes, and nothing past it */
        split_sort_desc h = d;
        h.keys_in = h_keys, h.keys_out = ref_keys;
        if (d.values_in) h.values_in = h_vals, h.values_out = ref_vals;
        if (d.record_bytes) h.records_in = h_recs, h.records_out = ref_recs;
        SCT_CHECK_OK(split_sort_ref(&h));
        size_t tb = need[c];
        SCT_CHECK_OK(split_sort(temp, &tb, &d, g_stream));
        SCT_CUDA(cudaStreamSynchronize(g_stream));
        const size_t kbytes = (size_t)BAD_N * kb / 8;
        const size_t vbytes = d.values_in ? (size_t)BAD_N * 4 : 0, rbytes = (size_t)BAD_N * d.record_bytes;
        const size_t wk = differing_bytes(&b, b.keys_out, ref_keys, kbytes, b.key_alloc);
        const size_t wv = differing_bytes(&b, b.vout, ref_vals, vbytes, b.val_alloc);
        const size_t wr = differing_bytes(&b, b.rout, ref_recs, rbytes, b.rec_alloc);
        SCT_CHECK_MSG(wk + wv + wr == 0, "%s, valid call: %zu key, %zu value, %zu record bytes differ from the reference "
                      "or the poisoned slack", cfg, wk, wv, wr);
    }
    SCT_CHECK_MSG(differing_bytes(&b, b.keys_in, h_keys, b.key_alloc, b.key_alloc) == 0, "keys_in was modified");
    SCT_CHECK_MSG(differing_bytes(&b, b.vin, h_vals, b.val_alloc, b.val_alloc) == 0, "values_in was modified");
    SCT_CHECK_MSG(differing_bytes(&b, b.rin, h_recs, b.rec_alloc, b.rec_alloc) == 0, "records_in was modified");
    cudaFree(b.keys_in); cudaFree(b.keys_out); cudaFree(b.vin); cudaFree(b.vout); cudaFree(b.rin); cudaFree(b.rout);
    cudaFree(temp);
    free(h_keys); free(h_vals); free(h_recs); free(ref_vals); free(ref_keys); free(ref_recs); free(b.scratch);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void test_large_2p28(void)
{
    uint64_t seed = sct_base_seed() * 11;
    sort_case(32, 0, 1u << 28, 1, 0, ++seed);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "sort");
    sct_require_cuda();
    int large = 0;
    for (int i = 1; i < argc; ++i) large |= strstr(argv[i], "large") != NULL;
    if (cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking) != cudaSuccess) sct_skip_all("no stream");
    SCT_RUN(test_bad_arguments_write_nothing);
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_small_sizes_every_key_configuration);
    SCT_RUN(test_key_distributions_small);
    SCT_RUN(test_records_36_to_512_bytes);
    SCT_RUN(test_million_every_key_configuration);
    SCT_RUN(test_key_distributions_million);
    SCT_RUN(test_2p24);
    if (large) SCT_RUN(test_large_2p28);
    cudaStreamDestroy(g_stream);
    return sct_end();
}
