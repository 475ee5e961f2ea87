/* test_segmented.cu - split_segmented on the GPU against split_segmented_ref, exactly: permutation,
 * keys, values, gather / scatter index and bucket offsets, on seeded random inputs over segment
 * layouts, bucket counts, bucket distributions, rules and key types; every case run directly and
 * again from a captured CUDA graph (gpu); with a device-side record count (num_records_device) the
 * records past it must stay untouched; bad arguments return an error and write nothing. Pass "large"
 * to also run the 2^28-record case;
 * SEG_VERBOSE=1 prints every case before it runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "split.h"
#include "sctest.h"
#include "sctest_cuda.h"

enum layout { L_ONE, L_TINY, L_POWER, L_TILES, L_EMPTY, L_MANY, L_EDGES, L_MIXED };
/* D_BINOMIAL: Binomial(B - 1, 1/2) (B - 1 fair coin flips). Last, so the older distributions keep
 * their seeds. */
enum dist { D_UNIFORM, D_ONE, D_HOCKEY, D_ASC, D_DESC, D_BINOMIAL, D_COUNT };
static const char *layout_name[] = {"one", "tiny", "power", "tiles", "empty", "many", "edges", "mixed"};
/* L_MIXED: each segment empty, tiny (1 .. 64), small (65 .. 2048), mid (2049 .. 32768) or large
 * (32769 .. 131072, past the ballot and block paths' limits: huge / multi-block), log-uniform in its
 * class; the first five segments one of each class in a seeded order, the rest drawn 25 / 45 / 20 /
 * 7 / 3 %; then 0 .. 3 empty segments past the last record. */
/* L_EDGES: segment sizes at the ballot path's warp chunk edges (32 x 1, 2, 4, 8, 16 rounds), its block
 * chunk (8 x 512: one pass, else a counting pass first) and the warp path's edges, in a seeded random
 * order. */
static const size_t edge_sizes[] = {0,   1,   31,  32,   33,   63,   64,   65,   127,  128,  129,  255,  256, 257,
                                    511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 6000, 8193};
static const char *dist_name[] = {"uniform", "one", "hockey", "asc", "desc", "binomial"};
/* The ten bucket counts every rule and key type is run at. */
static const uint32_t all_bs[] = {1, 2, 3, 31, 32, 33, 255, 256, 257, 2048};
static const split_bucket_rule all_rules[] = {SPLIT_BUCKETS_BITS, SPLIT_BUCKETS_IDS, SPLIT_BUCKETS_RANGE,
                                              SPLIT_BUCKETS_BOUNDARIES};

typedef struct seg_case {
    size_t n;
    int layout;
    uint32_t B;
    int dist;
    split_bucket_rule rule;
    split_key_type key_type;
    int values;      /* move values */
    int keys_out;    /* move keys */
    int indices;     /* gather + scatter index */
    int offsets;     /* bucket offsets */
    int no_keys_in;  /* IDS rule without keys */
    size_t segments; /* L_EMPTY: S */
    int counted;     /* num_records_device: 1 = 5n/7 records, 2 = n + 100 (clamped to n), 3 = 0 */
} seg_case;

static size_t make_offsets(sct_rng *rng, const seg_case *c, uint32_t **out)
{
    size_t n = c->n, cap = 1024, S = 0;
    uint32_t *off = (uint32_t *)malloc(cap * sizeof(uint32_t));
    off[0] = 0;
    if (c->layout == L_EMPTY) {
        S = c->segments;
        off = (uint32_t *)realloc(off, (S + 1) * sizeof(uint32_t));
        for (size_t s = 0; s <= S; ++s) off[s] = 0;
        *out = off;
        return S;
    }
    if (c->layout == L_TILES) {
        S = 128 * 128;
        off = (uint32_t *)realloc(off, (S + 1) * sizeof(uint32_t));
        double *w = (double *)malloc(S * sizeof(double)), sum = 0;
        for (size_t s = 0; s < S; ++s) {
            double u = sct_rng_unit(rng);
            w[s] = u < 0.2 ? 0.0 : u * u * u * u * (sct_rng_below(rng, 100) == 0 ? 40.0 : 1.0);
            sum += w[s];
        }
        size_t acc = 0;
        double run = 0;
        for (size_t s = 0; s < S; ++s) {
            run += w[s];
            size_t e = sum > 0 ? (size_t)((double)n * run / sum) : (s + 1 == S ? n : 0);
            if (e > n || s + 1 == S) e = n;
            if (e < acc) e = acc;
            off[s + 1] = (uint32_t)e;
            acc = e;
        }
        free(w);
        *out = off;
        return S;
    }
    size_t at = 0;
    uint32_t classes[5] = {0, 1, 2, 3, 4}; /* L_MIXED: the first five segments' classes, shuffled */
    if (c->layout == L_MIXED)
        for (uint32_t k = 4; k > 0; --k) {
            uint32_t j = sct_rng_below(rng, k + 1), t = classes[k];
            classes[k] = classes[j], classes[j] = t;
        }
    while (at < n || S == 0) {
        size_t m;
        switch (c->layout) {
        case L_ONE: m = n; break;
        case L_TINY: m = sct_rng_below(rng, 65); break;
        case L_MANY: m = sct_rng_below(rng, 4); break;
        case L_EDGES: m = edge_sizes[sct_rng_below(rng, sizeof edge_sizes / sizeof edge_sizes[0])]; break;
        case L_MIXED: {
            static const uint32_t cut[5] = {25, 70, 90, 97, 100}, lo[5] = {0, 1, 65, 2049, 32769},
                                  hi[5] = {0, 64, 2048, 32768, 131072};
            uint32_t k = 0;
            if (S < 5) k = classes[S];
            else
                for (uint32_t u = sct_rng_below(rng, 100); u >= cut[k];) ++k;
            /* log-uniform in [lo, hi] */
            m = k == 0 ? 0 : (size_t)floor(lo[k] * pow((double)(hi[k] + 1) / lo[k], sct_rng_unit(rng)));
            if (m > hi[k]) m = hi[k];
            break;
        }
        default: m = (size_t)floor(pow(2.0, sct_rng_unit(rng) * 17.5)) - 1; break; /* power law, 0 .. ~185K */
        }
        if (m > n - at) m = n - at;
        if (S + 2 > cap) {
            cap *= 2;
            off = (uint32_t *)realloc(off, cap * sizeof(uint32_t));
        }
        at += m;
        off[++S] = (uint32_t)at;
    }
    if (c->layout == L_MIXED) /* empty segments past the last record */
        for (uint32_t k = sct_rng_below(rng, 4); k > 0; --k) {
            if (S + 2 > cap) {
                cap *= 2;
                off = (uint32_t *)realloc(off, cap * sizeof(uint32_t));
            }
            off[S + 1] = off[S];
            ++S;
        }
    *out = off;
    return S;
}

static uint32_t pick_bucket(sct_rng *rng, const seg_case *c, size_t i)
{
    uint32_t B = c->B;
    switch (c->dist) {
    case D_ONE: return B / 2;
    case D_HOCKEY: return sct_rng_below(rng, 4) != 0 ? (B - 1) / 3 : sct_rng_below(rng, B);
    case D_ASC: return (uint32_t)((uint64_t)i * B / (c->n ? c->n : 1));
    case D_DESC: return B - 1 - (uint32_t)((uint64_t)i * B / (c->n ? c->n : 1));
    case D_BINOMIAL: { /* Binomial(B - 1, 1/2): popcounts of B - 1 random bits */
        uint32_t trials = B - 1, s = 0;
        for (; trials >= 64; trials -= 64) s += (uint32_t)__builtin_popcountll(sct_rng_next(rng));
        if (trials) s += (uint32_t)__builtin_popcountll(sct_rng_next(rng) & ((1ull << trials) - 1));
        return s;
    }
    default: return sct_rng_below(rng, B);
    }
}

/* Fills keys / ids / boundaries so that record i falls (mostly) in bucket b under the rule. BITS:
 * a field of floor(log2 B) bits; B a power of two is left to default (num_buckets 0), any other B is
 * given (num_buckets = B > 2^bit_count: the buckets from 2^bit_count up stay empty, and a drawn
 * bucket b lands in b mod 2^bit_count). */
static void make_keys(sct_rng *rng, const seg_case *c, split_desc *d, void *keys, uint32_t *ids, void *bounds)
{
    int wide = c->key_type == SPLIT_KEY_U64;
    uint32_t bc = 0;
    while ((2u << bc) <= c->B) ++bc;
    d->buckets.rule = c->rule;
    d->buckets.num_buckets = c->B;
    if (c->rule == SPLIT_BUCKETS_BITS) {
        d->buckets.num_buckets = (1u << bc) == c->B ? 0 : c->B;
        d->buckets.bit_count = bc;
        d->buckets.start_bit = wide ? 37 : 5;
    }
    d->buckets.range_base = 1000;
    d->buckets.range_delta = 7;
    for (uint32_t k = 0; k + 1 < c->B; ++k) {
        uint64_t v = (uint64_t)(k + 1) * 10 + (wide ? ((uint64_t)1 << 40) : 0);
        if (wide) ((uint64_t *)bounds)[k] = v;
        else ((uint32_t *)bounds)[k] = (uint32_t)v;
    }
    for (size_t i = 0; i < c->n; ++i) {
        uint32_t b = pick_bucket(rng, c, i);
        uint64_t r = sct_rng_next(rng), key;
        switch (c->rule) {
        case SPLIT_BUCKETS_BITS: {
            uint64_t mask = (((uint64_t)1 << bc) - 1) << d->buckets.start_bit;
            key = (r & ~mask) | (((uint64_t)b << d->buckets.start_bit) & mask);
            break;
        }
        case SPLIT_BUCKETS_RANGE:
            key = b == 0 && (r & 1) ? r % 1000 : 1000 + (uint64_t)b * 7 + r % 7 + (b == c->B - 1 ? (r >> 8) % 100 : 0);
            break;
        case SPLIT_BUCKETS_BOUNDARIES:
            key = (uint64_t)b * 10 + r % 10 + (wide ? ((uint64_t)1 << 40) : 0);
            break;
        default: key = r; break;
        }
        if (ids) ids[i] = b;
        if (wide) ((uint64_t *)keys)[i] = key;
        else ((uint32_t *)keys)[i] = (uint32_t)key;
    }
}

static void *dalloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMalloc(&p, bytes ? bytes : 4) != cudaSuccess) return NULL;
    return p;
}

typedef struct outputs {
    void *keys;
    uint32_t *vals, *gather, *scatter, *offs;
} outputs;

static int compare_out(const char *what, const void *ref, const void *dev_host, size_t bytes, const char *label)
{
    if (memcmp(ref, dev_host, bytes) == 0) return 1;
    const uint32_t *a = (const uint32_t *)ref, *b = (const uint32_t *)dev_host;
    size_t first = 0;
    while (first < bytes / 4 && a[first] == b[first]) ++first;
    sct_fail(__FILE__, __LINE__, "%s: %s differs at word %zu (ref %u, gpu %u)", label, what, first,
             first < bytes / 4 ? a[first] : 0u, first < bytes / 4 ? b[first] : 0u);
    return 0;
}

/* Every word of w[0, m) still holds the poison. */
static int untouched(const uint32_t *w, size_t m)
{
    for (size_t i = 0; i < m; ++i)
        if (w[i] != 0xABABABABu) return 0;
    return 1;
}

static double run_case(const seg_case *c, int timing_reps)
{
    char label[256];
    snprintf(label, sizeof label, "n=%zu layout=%s B=%u dist=%s rule=%d key=%s%s%s%s%s counted=%d", c->n,
             layout_name[c->layout], c->B, dist_name[c->dist], (int)c->rule,
             c->key_type == SPLIT_KEY_U64 ? "u64" : "u32", c->values ? " values" : "", c->keys_out ? " keys" : "",
             c->indices ? " index" : "", c->offsets ? " offsets" : "", c->counted);
    if (getenv("SEG_VERBOSE")) printf("      case %s\n", label);
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ (c->n * 1315423911u) ^ ((uint64_t)c->B << 40) ^ ((uint64_t)c->layout << 56) ^
                           ((uint64_t)c->dist << 52) ^ ((uint64_t)c->rule << 48) ^ ((uint64_t)c->key_type << 60));
    const size_t n = c->n, kb = c->key_type == SPLIT_KEY_U64 ? 8 : 4;
    uint32_t *off = NULL;
    const size_t S = make_offsets(&rng, c, &off);
    const size_t nofs = S * c->B + 1;
    /* device-side record count: the split covers records [0, nc) */
    const uint32_t count = c->counted == 1 ? (uint32_t)(n * 5 / 7) : c->counted == 2 ? (uint32_t)n + 100u : 0u;
    const size_t nc = !c->counted ? n : count < n ? count : n;
    void *keys = malloc(n * kb + 8), *bounds = malloc(c->B * 8);
    uint32_t *ids = (uint32_t *)malloc(n * 4 + 4), *vals = (uint32_t *)malloc(n * 4 + 4);
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = c->key_type;
    d.n = n;
    make_keys(&rng, c, &d, keys, c->rule == SPLIT_BUCKETS_IDS ? ids : NULL, bounds);
    for (size_t i = 0; i < n; ++i) vals[i] = sct_rng_u32(&rng);
    outputs ref, got;
    ref.keys = malloc(n * kb + 8), got.keys = malloc(n * kb + 8);
    ref.vals = (uint32_t *)malloc(n * 4 + 4), got.vals = (uint32_t *)malloc(n * 4 + 4);
    ref.gather = (uint32_t *)malloc(n * 4 + 4), got.gather = (uint32_t *)malloc(n * 4 + 4);
    ref.scatter = (uint32_t *)malloc(n * 4 + 4), got.scatter = (uint32_t *)malloc(n * 4 + 4);
    ref.offs = (uint32_t *)malloc(nofs * 4), got.offs = (uint32_t *)malloc(nofs * 4);
    /* host reference */
    split_desc h = d;
    h.keys_in = c->no_keys_in ? NULL : keys;
    h.buckets.bucket_ids = ids;
    h.buckets.boundaries = bounds;
    h.keys_out = c->keys_out ? ref.keys : NULL;
    h.values_in = c->values ? vals : NULL;
    h.values_out = c->values ? ref.vals : NULL;
    h.gather_index = c->indices ? ref.gather : NULL;
    h.scatter_index = c->indices ? ref.scatter : NULL;
    h.bucket_offsets = c->offsets ? ref.offs : NULL;
    h.segment_offsets = off;
    h.num_segments = S;
    h.num_records_device = c->counted ? &count : NULL;
    double ms = 0;
    if (split_segmented_ref(&h) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: reference failed: %s", label, sc_last_error());
        goto done;
    }
    {
        /* device copies, one guard word past every output */
        void *dk = dalloc(n * kb), *dko = dalloc(n * kb + 8), *db = dalloc(c->B * 8);
        uint32_t *dids = (uint32_t *)dalloc(n * 4), *dv = (uint32_t *)dalloc(n * 4), *dvo = (uint32_t *)dalloc(n * 4 + 4);
        uint32_t *dg = (uint32_t *)dalloc(n * 4 + 4), *ds = (uint32_t *)dalloc(n * 4 + 4);
        uint32_t *dofs = (uint32_t *)dalloc(nofs * 4 + 4), *doff = (uint32_t *)dalloc((S + 1) * 4);
        uint32_t *dcount = (uint32_t *)dalloc(4);
        cudaStream_t stream;
        SCT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        SCT_CHECK(dk && dko && db && dids && dv && dvo && dg && ds && dofs && doff && dcount);
        SCT_CUDA(cudaMemcpy(dcount, &count, 4, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemcpy(dk, keys, n * kb, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemcpy(db, bounds, c->B * 8, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemcpy(dids, ids, n * 4, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemcpy(dv, vals, n * 4, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemcpy(doff, off, (S + 1) * 4, cudaMemcpyHostToDevice));
        split_desc g = d;
        g.keys_in = c->no_keys_in ? NULL : dk;
        g.buckets.bucket_ids = dids;
        g.buckets.boundaries = db;
        g.keys_out = c->keys_out ? dko : NULL;
        g.values_in = c->values ? dv : NULL;
        g.values_out = c->values ? dvo : NULL;
        g.gather_index = c->indices ? dg : NULL;
        g.scatter_index = c->indices ? ds : NULL;
        g.bucket_offsets = c->offsets ? dofs : NULL;
        g.segment_offsets = doff;
        g.num_segments = S;
        g.num_records_device = c->counted ? dcount : NULL;
        size_t tb = 0;
        void *temp = NULL;
        SCT_CHECK_OK(split_segmented(NULL, &tb, &g, stream));
        temp = dalloc(tb);
        SCT_CHECK(temp != NULL);
        for (int mode = 0; mode < 2 && !sct_current_failed(); ++mode) {
            /* poison every output and its guard word */
            SCT_CUDA(cudaMemset(dko, 0xAB, n * kb + 8));
            SCT_CUDA(cudaMemset(dvo, 0xAB, n * 4 + 4));
            SCT_CUDA(cudaMemset(dg, 0xAB, n * 4 + 4));
            SCT_CUDA(cudaMemset(ds, 0xAB, n * 4 + 4));
            SCT_CUDA(cudaMemset(dofs, 0xAB, nofs * 4 + 4));
            SCT_CUDA(cudaMemset(temp, 0xCD, tb));
            /* the poison runs on the legacy stream, which a non-blocking stream does not wait for */
            SCT_CUDA(cudaDeviceSynchronize());
            if (mode == 0) {
                SCT_CHECK_OK(split_segmented(temp, &tb, &g, stream));
            } else {
                cudaGraph_t graph;
                cudaGraphExec_t exec;
                SCT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
                SCT_CHECK_OK(split_segmented(temp, &tb, &g, stream));
                SCT_CUDA(cudaStreamEndCapture(stream, &graph));
                SCT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
                SCT_CUDA(cudaGraphLaunch(exec, stream));
                SCT_CUDA(cudaStreamSynchronize(stream));
                if (timing_reps > 0) {
                    cudaEvent_t e0, e1;
                    cudaEventCreate(&e0);
                    cudaEventCreate(&e1);
                    cudaEventRecord(e0, stream);
                    for (int r = 0; r < timing_reps; ++r) cudaGraphLaunch(exec, stream);
                    cudaEventRecord(e1, stream);
                    cudaEventSynchronize(e1);
                    float t = 0;
                    cudaEventElapsedTime(&t, e0, e1);
                    ms = t / timing_reps;
                    cudaEventDestroy(e0);
                    cudaEventDestroy(e1);
                }
                cudaGraphExecDestroy(exec);
                cudaGraphDestroy(graph);
            }
            cudaError_t sync_err = cudaStreamSynchronize(stream);
            SCT_CHECK_MSG(sync_err == cudaSuccess, "%s [%s]: %s", label, mode ? "graph" : "direct",
                          cudaGetErrorString(sync_err));
            const char *m = mode ? "graph" : "direct";
            char lab[300];
            snprintf(lab, sizeof lab, "%s [%s]", label, m);
            /* [0, nc) as the reference; [nc, n] (past the device count, and the guard) untouched */
            if (c->keys_out) {
                SCT_CUDA(cudaMemcpy(got.keys, dko, n * kb + 8, cudaMemcpyDeviceToHost));
                compare_out("keys_out", ref.keys, got.keys, nc * kb, lab);
                SCT_CHECK_MSG(untouched((const uint32_t *)got.keys + nc * kb / 4, (n - nc) * kb / 4 + 1),
                              "%s: keys_out written past the records", lab);
            }
            if (c->values) {
                SCT_CUDA(cudaMemcpy(got.vals, dvo, n * 4 + 4, cudaMemcpyDeviceToHost));
                compare_out("values_out", ref.vals, got.vals, nc * 4, lab);
                SCT_CHECK_MSG(untouched(got.vals + nc, n - nc + 1), "%s: values_out written past the records", lab);
            }
            if (c->indices) {
                SCT_CUDA(cudaMemcpy(got.gather, dg, n * 4 + 4, cudaMemcpyDeviceToHost));
                SCT_CUDA(cudaMemcpy(got.scatter, ds, n * 4 + 4, cudaMemcpyDeviceToHost));
                compare_out("gather_index", ref.gather, got.gather, nc * 4, lab);
                compare_out("scatter_index", ref.scatter, got.scatter, nc * 4, lab);
                SCT_CHECK_MSG(untouched(got.gather + nc, n - nc + 1) && untouched(got.scatter + nc, n - nc + 1),
                              "%s: index written past the records", lab);
            }
            if (c->offsets) {
                SCT_CUDA(cudaMemcpy(got.offs, dofs, nofs * 4, cudaMemcpyDeviceToHost));
                compare_out("bucket_offsets", ref.offs, got.offs, nofs * 4, lab);
            }
        }
        cudaFree(temp);
        cudaFree(dk), cudaFree(dko), cudaFree(db), cudaFree(dids), cudaFree(dv), cudaFree(dvo);
        cudaFree(dg), cudaFree(ds), cudaFree(dofs), cudaFree(doff), cudaFree(dcount);
        cudaStreamDestroy(stream);
    }
done:
    free(off), free(keys), free(bounds), free(ids), free(vals);
    free(ref.keys), free(got.keys), free(ref.vals), free(got.vals), free(ref.gather), free(got.gather);
    free(ref.scatter), free(got.scatter), free(ref.offs), free(got.offs);
    return ms;
}

/* Output set k of 5: everything; keys only; gather + scatter index only; bucket offsets only; values
 * + bucket offsets (the renderer's). The IDS rule without keys_out runs without keys_in. Call after
 * setting the rule. */
static void set_outputs(seg_case *c, uint32_t k)
{
    c->values = k == 0 || k == 4;
    c->keys_out = k <= 1;
    c->indices = k == 0 || k == 2;
    c->offsets = k == 0 || k == 3 || k == 4;
    c->no_keys_in = c->rule == SPLIT_BUCKETS_IDS && !c->keys_out;
}

static seg_case base_case(size_t n, int layout, uint32_t B)
{
    seg_case c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.layout = layout;
    c.B = B;
    c.dist = D_UNIFORM;
    c.rule = SPLIT_BUCKETS_RANGE;
    c.key_type = SPLIT_KEY_U32;
    c.values = c.keys_out = c.indices = c.offsets = 1;
    return c;
}

/* Every size (0 .. 2^24) x layout x B in {16, 257}, every output; distribution, rule and key type
 * rotate so that every pair of (size, layout, B, distribution, rule, key type) values occurs (checked
 * by enumeration): the eight cases of each size, 2^24 included, see all six distributions, all four
 * rules and both key types. */
static void test_sizes_and_layouts(void)
{
    static const size_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000007, (size_t)1 << 24};
    static const int layouts[] = {L_ONE, L_TINY, L_POWER, L_TILES};
    static const uint32_t bs[] = {16, 257};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int l = 0; l < 4; ++l)
            for (int b = 0; b < 2; ++b) {
                seg_case c = base_case(sizes[k], layouts[l], bs[b]);
                c.dist = (int)((k + (size_t)l + 2 * (size_t)b) % D_COUNT);
                c.rule = all_rules[(k + (size_t)l + (size_t)b) % 4];
                c.key_type = (b + k / 2) % 2 ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
                run_case(&c, 0);
            }
}

static void test_tier_thresholds(void)
{
    static const size_t sizes[] = {255, 256, 257, 2047, 2048, 2049, 16383, 16384, 16385, 32767, 32768, 32769, 65537, 300001};
    static const uint32_t bs[] = {2, 16, 2048};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int b = 0; b < 3; ++b) {
            seg_case c = base_case(sizes[k], L_ONE, bs[b]);
            c.dist = b == 1 ? D_HOCKEY : D_UNIFORM;
            run_case(&c, 0);
        }
}

/* B of 1 .. 2048 (the ten of all_bs and 16) x all six distributions x power-law and tile layouts,
 * RANGE rule, u32 keys, every output. */
static void test_buckets_and_distributions(void)
{
    static const uint32_t bs[] = {1, 2, 3, 16, 31, 32, 33, 255, 256, 257, 2048};
    for (size_t b = 0; b < sizeof bs / sizeof bs[0]; ++b)
        for (int dist = 0; dist < D_COUNT; ++dist)
            for (int l = 0; l < 2; ++l) {
                seg_case c = base_case(300007, l ? L_TILES : L_POWER, bs[b]);
                c.dist = dist;
                run_case(&c, 0);
            }
}

/* Every rule x key type x B in {1, 16, 2048} x the first four output sets, power-law layout,
 * uniform. */
static void test_rules_and_key_types(void)
{
    static const uint32_t bs[] = {1, 16, 2048};
    for (int r = 0; r < 4; ++r)
        for (int kt = 0; kt < 2; ++kt)
            for (int b = 0; b < 3; ++b)
                for (uint32_t outs = 0; outs < 4; ++outs) {
                    seg_case c = base_case(200003, L_POWER, bs[b]);
                    c.rule = all_rules[r];
                    c.key_type = kt ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
                    set_outputs(&c, outs);
                    run_case(&c, 0);
                }
}

/* The grid of rules, key types, B and distributions. Case (q, b, ...) has rule all_rules[q % 4], key
 * type q / 4 (u32, u64) and B all_bs[b]; the other settings rotate with strides chosen so that no two
 * share a period (checked by enumeration: every pair of settings' values occurs, and each (rule, key
 * type) sees every B with all six distributions).
 *
 * Small sizes: 0, 1, 31, 32, 33, 255, 256, 257 (k) x the ten B x four rules x two key types, 640
 * cases; distribution (b + k + 2 r + 3 kt) % 6, layout mixed / tiny / many / one by (b + 3 k + q) % 4,
 * output set (b + 2 k + 3 q + kt) % 5. Each (rule, key type, B) and (rule, key type, size) sees all six
 * distributions. */
static void test_grid_small_sizes(void)
{
    static const size_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257};
    static const int layouts[] = {L_MIXED, L_TINY, L_MANY, L_ONE};
    for (size_t q = 0; q < 8; ++q) {
        const size_t r = q % 4, kt = q / 4;
        for (size_t b = 0; b < 10; ++b)
            for (size_t k = 0; k < 8; ++k) {
                seg_case c = base_case(sizes[k], layouts[(b + 3 * k + q) % 4], all_bs[b]);
                c.rule = all_rules[r];
                c.key_type = kt ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
                c.dist = (int)((b + k + 2 * r + 3 * kt) % D_COUNT);
                set_outputs(&c, (uint32_t)((b + 2 * k + 3 * q + kt) % 5));
                run_case(&c, 0);
            }
    }
}

/* n = 200003 in mixed segments (empty, tiny, small, mid and large ones, empty ones past the end): the
 * ten B x four rules x two key types, 80 cases; distribution (b + 2 r + 3 kt) % 6 (each (rule, key
 * type) sees all six over its ten B, each B all six over the eight (rule, key type)), output set
 * (b + 3 q) % 5, and a device count of 5n/7 where (b + q) % 7 == 4 (11 cases, every rule, key type,
 * distribution and output set among them). */
static void test_grid_mixed_segments(void)
{
    for (size_t q = 0; q < 8; ++q) {
        const size_t r = q % 4, kt = q / 4;
        for (size_t b = 0; b < 10; ++b) {
            seg_case c = base_case(200003, L_MIXED, all_bs[b]);
            c.rule = all_rules[r];
            c.key_type = kt ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
            c.dist = (int)((b + 2 * r + 3 * kt) % D_COUNT);
            set_outputs(&c, (uint32_t)((b + 3 * q) % 5));
            c.counted = (b + q) % 7 == 4;
            run_case(&c, 0);
        }
    }
}

/* n = 10^6 + 7 in mixed segments, every output: 20 cases, case i at B all_bs[i % 10] (each B twice),
 * rule and key type q = (i + 3 (i / 10)) % 8 (each (rule, key type) two or three times), distribution
 * (i + i / 10) % 6 (each at least twice, the two cases of a B at different distributions). */
static void test_grid_million(void)
{
    for (size_t i = 0; i < 20; ++i) {
        const size_t q = (i + 3 * (i / 10)) % 8;
        seg_case c = base_case(1000007, L_MIXED, all_bs[i % 10]);
        c.rule = all_rules[q % 4];
        c.key_type = q / 4 ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
        c.dist = (int)((i + i / 10) % D_COUNT);
        run_case(&c, 0);
    }
}

static void test_all_empty(void)
{
    static const size_t segs[] = {0, 1, 7, 16384, 100000};
    for (size_t k = 0; k < sizeof segs / sizeof segs[0]; ++k)
        for (uint32_t B = 1; B <= 2048; B *= 8) {
            seg_case c = base_case(0, L_EMPTY, B);
            c.segments = segs[k];
            run_case(&c, 0);
        }
}

/* num_records_device: segment offsets cover n records, the device count fewer (or more: clamped),
 * over the ballot (B <= 32), comparison (B > 32), block and multi-block paths; the distribution
 * rotates so that every pair of (size, layout, B, count kind, distribution) values occurs. */
static void test_device_count(void)
{
    static const size_t sizes[] = {0, 1, 1000, 70001, 300007};
    static const int layouts[] = {L_ONE, L_TINY, L_POWER, L_TILES};
    static const uint32_t bs[] = {1, 16, 32, 257};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int l = 0; l < 4; ++l)
            for (int b = 0; b < 4; ++b)
                for (int counted = 1; counted <= 3; ++counted) {
                    seg_case c = base_case(sizes[k], layouts[l], bs[b]);
                    c.counted = counted;
                    c.dist = (int)((k + (size_t)l + (size_t)b + 2 * (size_t)counted) % D_COUNT);
                    run_case(&c, 0);
                }
}

/* Segments of exactly the ballot path's chunk sizes and one past them (warp, block, counting pass),
 * every output, B of 1 .. 32 bits wide, direct count and device count. */
static void test_ballot_chunk_edges(void)
{
    static const uint32_t bs[] = {1, 2, 5, 16, 32};
    for (size_t b = 0; b < sizeof bs / sizeof bs[0]; ++b)
        for (int counted = 0; counted <= 1; ++counted) {
            seg_case c = base_case(400009, L_EDGES, bs[b]);
            c.rule = b % 2 ? SPLIT_BUCKETS_BITS : SPLIT_BUCKETS_RANGE;
            c.dist = b == 3 ? D_HOCKEY : D_UNIFORM;
            c.counted = counted;
            run_case(&c, 0);
        }
    seg_case v = base_case(400009, L_EDGES, 16); /* the renderer's outputs: values + offsets only */
    v.rule = SPLIT_BUCKETS_BITS;
    v.keys_out = 0, v.indices = 0;
    run_case(&v, 0);
    v.key_type = SPLIT_KEY_U64;
    v.rule = SPLIT_BUCKETS_IDS;
    run_case(&v, 0);
}

static void test_millions_of_segments(void)
{
    seg_case c = base_case(3000017, L_MANY, 16);
    run_case(&c, 0);
    c.layout = L_TINY;
    c.B = 3;
    run_case(&c, 0);
}

/* The renderer's use: 128x128 tiles, ~1.5M references, 16 depth slabs. Also prints the time. */
static void test_renderer_tiles(void)
{
    seg_case c = base_case(1500000, L_TILES, 16);
    c.rule = SPLIT_BUCKETS_IDS;
    c.dist = D_UNIFORM;
    c.keys_out = 1, c.values = 0, c.indices = 0, c.offsets = 1;
    double ms = run_case(&c, 20);
    printf("      renderer-like: 16384 segments, 1.5M records, B=16, keys + offsets: %.1f us per call (graph)\n",
           ms * 1e3);
    c.indices = 1;
    c.keys_out = 0;
    ms = run_case(&c, 20);
    printf("      renderer-like: gather + scatter index + offsets: %.1f us per call (graph)\n", ms * 1e3);
    /* as the renderer calls it: values + offsets over a buffer of 1.8M, 5/7 of it counted on the device */
    seg_case r = base_case(1800000, L_TILES, 16);
    r.rule = SPLIT_BUCKETS_BITS;
    r.keys_out = 0, r.values = 1, r.indices = 0, r.offsets = 1, r.counted = 1;
    ms = run_case(&r, 20);
    printf("      renderer-like: 1.8M buffer, 1.29M counted on the device, values + offsets: %.1f us per call (graph)\n",
           ms * 1e3);
}

static void test_sanitize_mid(void)
{
    seg_case c = base_case(150001, L_POWER, 16);
    run_case(&c, 0);
    c.B = 257;
    c.dist = D_HOCKEY;
    c.key_type = SPLIT_KEY_U64;
    run_case(&c, 0);
    seg_case t = base_case(70001, L_ONE, 33); /* one multi-block segment */
    run_case(&t, 0);
    seg_case r = base_case(100003, L_TILES, 16);
    r.rule = SPLIT_BUCKETS_BOUNDARIES;
    run_case(&r, 0);
    seg_case e = base_case(60013, L_EDGES, 16); /* ballot warp, block and counting-pass paths */
    e.rule = SPLIT_BUCKETS_BITS;
    run_case(&e, 0);
}

static void quiet(sc_log_level level, const char *message, void *user) { (void)level, (void)message, (void)user; }

/* One bad call, made directly and again inside a stream capture: it returns `want`, sc_last_error()
 * names split_segmented, and nothing is launched (the captured graph holds no node). */
static void expect_bad(const char *what, void *temp, size_t *temp_bytes, const split_desc *d, sc_status want,
                       cudaStream_t stream)
{
    for (int mode = 0; mode < 2; ++mode) {
        const char *m = mode ? "graph" : "direct";
        sc_clear_error();
        if (mode) SCT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        const sc_status st = split_segmented(temp, temp_bytes, d, stream);
        if (mode) {
            cudaGraph_t graph = NULL;
            size_t nodes = 0;
            SCT_CUDA(cudaStreamEndCapture(stream, &graph));
            if (graph) {
                SCT_CUDA(cudaGraphGetNodes(graph, NULL, &nodes));
                cudaGraphDestroy(graph);
            }
            SCT_CHECK_MSG(nodes == 0, "%s [%s]: the failed call captured %zu node(s)", what, m, nodes);
        }
        SCT_CHECK_MSG(st == want, "%s [%s]: returned %s, expected %s (%s)", what, m, sc_status_name(st),
                      sc_status_name(want), sc_last_error());
        SCT_CHECK_MSG(strstr(sc_last_error(), "split_segmented") != NULL,
                      "%s [%s]: sc_last_error() does not name split_segmented: \"%s\"", what, m, sc_last_error());
    }
}

/* Stores an out-of-range value in an enum field as the C library reads it (an int); a C++ cast to the
 * enum type would be undefined. */
static void set_enum_int(void *field, int value) { memcpy(field, &value, sizeof value); }
static_assert(sizeof(split_key_type) == sizeof(int) && sizeof(split_bucket_rule) == sizeof(int), "enums are ints");

/* Every word of w[0, m) is `word`. */
static int all_words(const uint32_t *w, size_t m, uint32_t word)
{
    for (size_t i = 0; i < m; ++i)
        if (w[i] != word) return 0;
    return 1;
}

/* Bad arguments: each call returns its status (SC_ERROR_TEMP_STORAGE for too little temporary storage,
 * else SC_ERROR_INVALID_ARGUMENT) with a message naming split_segmented, directly and under capture
 * (nothing captured), and writes nothing: afterwards every word of every output buffer (keys, values,
 * both indices, bucket offsets sized for S x 2048 buckets) and of the temporary storage still holds
 * its poison, and every input is unchanged. Covers: desc / temp_bytes NULL, temporary storage short
 * by one byte (ballot and wide-B layouts) or 0; keys_in NULL with n > 0 (BITS, RANGE u64, IDS with
 * keys_out); bucket_ids NULL; B of 0, 2049 and 2^32 - 1 for IDS, RANGE and BOUNDARIES; BITS fields of
 * 12 bits, outside the key (u32 and u64) and num_buckets below or above the field's range;
 * range_delta 0; boundaries NULL; segment_offsets NULL with S > 0; S = 0 with n > 0; S x B and S and n
 * past 32 bits; bad key type and rule; no output; values_in / values_out alone; in-place keys and
 * values, gather == scatter; bucket_counts (not for the segmented split); and two size queries
 * (temp NULL) with bad descriptors. Last, a good call over the same buffers matches the reference,
 * so the checks above could see a write. */
static void test_bad_arguments_write_nothing(void)
{
    enum { N = 1000, S = 4, MAXB = SPLIT_MAX_BUCKETS };
    const sc_status INV = SC_ERROR_INVALID_ARGUMENT, TEMP = SC_ERROR_TEMP_STORAGE;
    const uint32_t off[S + 1] = {0, 300, 300, 700, N}; /* one empty segment */
    const size_t kbytes = (size_t)N * 8, vbytes = (size_t)N * 4, obytes = ((size_t)S * MAXB + 1) * 4;
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0xbadu);
    uint64_t *keys = (uint64_t *)malloc(kbytes), *bounds = (uint64_t *)malloc(MAXB * 8);
    uint32_t *vals = (uint32_t *)malloc(vbytes), *ids = (uint32_t *)malloc(vbytes);
    for (size_t i = 0; i < N; ++i) keys[i] = sct_rng_next(&rng), vals[i] = sct_rng_u32(&rng), ids[i] = sct_rng_below(&rng, 16);
    for (size_t k = 0; k < (size_t)MAXB; ++k) bounds[k] = (k + 1) * 10;
    /* inputs */
    void *dk = dalloc(kbytes), *db = dalloc(MAXB * 8);
    uint32_t *dv = (uint32_t *)dalloc(vbytes), *dids = (uint32_t *)dalloc(vbytes);
    uint32_t *doff = (uint32_t *)dalloc(sizeof off), *dcnt = (uint32_t *)dalloc(16 * 4);
    /* outputs */
    void *dko = dalloc(kbytes);
    uint32_t *dvo = (uint32_t *)dalloc(vbytes), *dg = (uint32_t *)dalloc(vbytes), *ds = (uint32_t *)dalloc(vbytes);
    uint32_t *dofs = (uint32_t *)dalloc(obytes);
    cudaStream_t stream;
    SCT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    SCT_REQUIRE(dk && db && dv && dids && doff && dcnt && dko && dvo && dg && ds && dofs);
    SCT_CUDA(cudaMemcpy(dk, keys, kbytes, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(db, bounds, MAXB * 8, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(dv, vals, vbytes, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(dids, ids, vbytes, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemcpy(doff, off, sizeof off, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemset(dcnt, 0, 16 * 4));
    /* good descriptors: B = 16 by BITS on u32 keys (ballot path), B = 257 by RANGE on u64 keys */
    split_desc d16;
    memset(&d16, 0, sizeof d16);
    d16.key_type = SPLIT_KEY_U32, d16.n = N, d16.keys_in = dk, d16.keys_out = dko, d16.values_in = dv;
    d16.values_out = dvo, d16.gather_index = dg, d16.scatter_index = ds, d16.bucket_offsets = dofs;
    d16.segment_offsets = doff, d16.num_segments = S;
    d16.buckets.rule = SPLIT_BUCKETS_BITS, d16.buckets.bit_count = 4, d16.buckets.start_bit = 5;
    split_desc d257 = d16;
    d257.key_type = SPLIT_KEY_U64;
    d257.buckets.rule = SPLIT_BUCKETS_RANGE, d257.buckets.num_buckets = 257;
    d257.buckets.range_base = 1000, d257.buckets.range_delta = 7;
    size_t tb16 = 0, tb257 = 0;
    SCT_CHECK_OK(split_segmented(NULL, &tb16, &d16, stream));
    SCT_CHECK_OK(split_segmented(NULL, &tb257, &d257, stream));
    SCT_REQUIRE(tb16 > 0 && tb257 > 0);
    const size_t tmax = tb16 > tb257 ? tb16 : tb257;
    void *temp = dalloc(tmax);
    SCT_REQUIRE(temp != NULL);
    /* poison every output word and the temporary storage */
    SCT_CUDA(cudaMemset(dko, 0xAB, kbytes));
    SCT_CUDA(cudaMemset(dvo, 0xAB, vbytes));
    SCT_CUDA(cudaMemset(dg, 0xAB, vbytes));
    SCT_CUDA(cudaMemset(ds, 0xAB, vbytes));
    SCT_CUDA(cudaMemset(dofs, 0xAB, obytes));
    SCT_CUDA(cudaMemset(temp, 0xCD, tmax));
    SCT_CUDA(cudaDeviceSynchronize());

    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    split_desc b;
    size_t tb = tmax, small;
    char what[128];
    expect_bad("desc NULL", temp, &tb, NULL, INV, stream);
    expect_bad("temp_bytes NULL", temp, NULL, &d16, INV, stream);
    small = tb16 - 1;
    expect_bad("temp one byte short (B = 16)", temp, &small, &d16, TEMP, stream);
    small = tb257 - 1;
    expect_bad("temp one byte short (B = 257)", temp, &small, &d257, TEMP, stream);
    small = 0;
    expect_bad("temp_bytes 0", temp, &small, &d16, TEMP, stream);
    b = d16, b.keys_in = NULL;
    expect_bad("keys_in NULL, n > 0 (BITS)", temp, &tb, &b, INV, stream);
    b = d257, b.keys_in = NULL;
    expect_bad("keys_in NULL, n > 0 (RANGE, u64)", temp, &tb, &b, INV, stream);
    b = d16, b.buckets.rule = SPLIT_BUCKETS_IDS, b.buckets.num_buckets = 16, b.buckets.bucket_ids = dids;
    b.keys_in = NULL;
    expect_bad("keys_in NULL with keys_out (IDS)", temp, &tb, &b, INV, stream);
    b.keys_in = dk, b.buckets.bucket_ids = NULL;
    expect_bad("bucket_ids NULL, n > 0", temp, &tb, &b, INV, stream);
    static const uint32_t bad_bs[] = {0, MAXB + 1, UINT32_MAX};
    for (int r = 1; r < 4; ++r) /* IDS, RANGE, BOUNDARIES */
        for (size_t k = 0; k < 3; ++k) {
            b = d16;
            b.buckets.rule = all_rules[r], b.buckets.num_buckets = bad_bs[k];
            b.buckets.bucket_ids = dids, b.buckets.range_base = 1000, b.buckets.range_delta = 7, b.buckets.boundaries = db;
            snprintf(what, sizeof what, "B = %u, rule %d", bad_bs[k], (int)all_rules[r]);
            expect_bad(what, temp, &tb, &b, INV, stream);
        }
    b = d16, b.buckets.bit_count = 12;
    expect_bad("BITS: bit_count 12", temp, &tb, &b, INV, stream);
    b = d16, b.buckets.num_buckets = 15;
    expect_bad("BITS: num_buckets 15 < 2^4", temp, &tb, &b, INV, stream);
    b = d16, b.buckets.bit_count = 11, b.buckets.num_buckets = MAXB + 1;
    expect_bad("BITS: num_buckets 2049", temp, &tb, &b, INV, stream);
    b = d16, b.buckets.start_bit = 30;
    expect_bad("BITS: field [30, 34) of a u32 key", temp, &tb, &b, INV, stream);
    b = d257, b.buckets.rule = SPLIT_BUCKETS_BITS, b.buckets.num_buckets = 0, b.buckets.bit_count = 5;
    b.buckets.start_bit = 60;
    expect_bad("BITS: field [60, 65) of a u64 key", temp, &tb, &b, INV, stream);
    b = d257, b.buckets.range_delta = 0;
    expect_bad("RANGE: range_delta 0", temp, &tb, &b, INV, stream);
    b = d257, b.buckets.rule = SPLIT_BUCKETS_BOUNDARIES, b.buckets.boundaries = NULL;
    expect_bad("BOUNDARIES: boundaries NULL, B = 257", temp, &tb, &b, INV, stream);
    b = d16, b.segment_offsets = NULL;
    expect_bad("segment_offsets NULL, S > 0", temp, &tb, &b, INV, stream);
    b = d16, b.num_segments = 0;
    expect_bad("num_segments 0, n > 0", temp, &tb, &b, INV, stream);
    b = d257, b.buckets.num_buckets = MAXB, b.num_segments = (size_t)1 << 21;
    expect_bad("S x B = 2^32", temp, &tb, &b, INV, stream);
    b = d16, b.num_segments = (size_t)UINT32_MAX + 1;
    expect_bad("S = 2^32", temp, &tb, &b, INV, stream);
    b = d16, b.n = (size_t)UINT32_MAX + 1;
    expect_bad("n = 2^32", temp, &tb, &b, INV, stream);
    b = d16, set_enum_int(&b.key_type, 2);
    expect_bad("key_type 2", temp, &tb, &b, INV, stream);
    b = d16, set_enum_int(&b.buckets.rule, 4);
    expect_bad("rule 4", temp, &tb, &b, INV, stream);
    b = d16, b.keys_out = NULL, b.values_in = NULL, b.values_out = NULL, b.gather_index = NULL;
    b.scatter_index = NULL, b.bucket_offsets = NULL;
    expect_bad("no output", temp, &tb, &b, INV, stream);
    b = d16, b.values_out = NULL;
    expect_bad("values_in without values_out", temp, &tb, &b, INV, stream);
    b = d16, b.values_in = NULL;
    expect_bad("values_out without values_in", temp, &tb, &b, INV, stream);
    b = d16, b.keys_in = dko;
    expect_bad("keys_out == keys_in", temp, &tb, &b, INV, stream);
    b = d16, b.values_in = dvo;
    expect_bad("values_out == values_in", temp, &tb, &b, INV, stream);
    b = d16, b.scatter_index = dg;
    expect_bad("gather_index == scatter_index", temp, &tb, &b, INV, stream);
    b = d16, b.bucket_counts = dcnt;
    expect_bad("bucket_counts", temp, &tb, &b, INV, stream);
    size_t q = 0;
    b = d257, b.buckets.num_buckets = 0;
    expect_bad("size query, B = 0 (RANGE)", NULL, &q, &b, INV, stream);
    b = d16, b.buckets.bit_count = 12;
    expect_bad("size query, BITS: bit_count 12", NULL, &q, &b, INV, stream);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);

    /* nothing written: every output word, the temporary storage, the inputs */
    SCT_CUDA(cudaDeviceSynchronize());
    {
        size_t hbytes = obytes; /* the largest buffer read back */
        if (kbytes > hbytes) hbytes = kbytes;
        if ((size_t)MAXB * 8 > hbytes) hbytes = (size_t)MAXB * 8;
        if (tmax > hbytes) hbytes = tmax;
        uint32_t *h = (uint32_t *)malloc(hbytes);
        struct { const char *name; const void *p; size_t bytes; } outs[] = {
            {"keys_out", dko, kbytes}, {"values_out", dvo, vbytes}, {"gather_index", dg, vbytes},
            {"scatter_index", ds, vbytes}, {"bucket_offsets", dofs, obytes}};
        for (size_t k = 0; k < sizeof outs / sizeof outs[0]; ++k) {
            SCT_CUDA(cudaMemcpy(h, outs[k].p, outs[k].bytes, cudaMemcpyDeviceToHost));
            SCT_CHECK_MSG(all_words(h, outs[k].bytes / 4, 0xABABABABu), "%s written by a failed call", outs[k].name);
        }
        SCT_CUDA(cudaMemcpy(h, temp, tmax, cudaMemcpyDeviceToHost));
        SCT_CHECK_MSG(all_words(h, tmax / 4, 0xCDCDCDCDu), "temporary storage written by a failed call");
        struct { const char *name; const void *p, *host; size_t bytes; } ins[] = {
            {"keys_in", dk, keys, kbytes}, {"values_in", dv, vals, vbytes}, {"bucket_ids", dids, ids, vbytes},
            {"boundaries", db, bounds, (size_t)MAXB * 8}, {"segment_offsets", doff, off, sizeof off}};
        for (size_t k = 0; k < sizeof ins / sizeof ins[0]; ++k) {
            SCT_CUDA(cudaMemcpy(h, ins[k].p, ins[k].bytes, cudaMemcpyDeviceToHost));
            SCT_CHECK_MSG(memcmp(h, ins[k].host, ins[k].bytes) == 0, "%s changed by a failed call", ins[k].name);
        }
        free(h);
    }

    /* a good call over the same buffers writes them, as the reference */
    {
        SCT_CHECK_OK(split_segmented(temp, &tb16, &d16, stream));
        SCT_CUDA(cudaStreamSynchronize(stream));
        const size_t nofs = (size_t)S * 16 + 1;
        uint32_t *rk = (uint32_t *)malloc(vbytes), *rv = (uint32_t *)malloc(vbytes), *rg = (uint32_t *)malloc(vbytes);
        uint32_t *rs = (uint32_t *)malloc(vbytes), *ro = (uint32_t *)malloc(nofs * 4), *h = (uint32_t *)malloc(obytes);
        split_desc hd = d16;
        hd.keys_in = keys, hd.keys_out = rk, hd.values_in = vals, hd.values_out = rv, hd.gather_index = rg;
        hd.scatter_index = rs, hd.bucket_offsets = ro, hd.segment_offsets = off;
        SCT_CHECK_OK(split_segmented_ref(&hd)); /* u32 keys: the key buffer's first 4N bytes, as on the device */
        const char *lab = "good call after the bad ones";
        SCT_CUDA(cudaMemcpy(h, dko, kbytes, cudaMemcpyDeviceToHost));
        compare_out("keys_out", rk, h, vbytes, lab);
        SCT_CHECK_MSG(all_words(h + N, N, 0xABABABABu), "%s: keys_out written past n", lab);
        SCT_CUDA(cudaMemcpy(h, dvo, vbytes, cudaMemcpyDeviceToHost));
        compare_out("values_out", rv, h, vbytes, lab);
        SCT_CUDA(cudaMemcpy(h, dg, vbytes, cudaMemcpyDeviceToHost));
        compare_out("gather_index", rg, h, vbytes, lab);
        SCT_CUDA(cudaMemcpy(h, ds, vbytes, cudaMemcpyDeviceToHost));
        compare_out("scatter_index", rs, h, vbytes, lab);
        SCT_CUDA(cudaMemcpy(h, dofs, obytes, cudaMemcpyDeviceToHost));
        compare_out("bucket_offsets", ro, h, nofs * 4, lab);
        SCT_CHECK_MSG(all_words(h + nofs, obytes / 4 - nofs, 0xABABABABu), "%s: bucket_offsets written past S x B + 1", lab);
        free(rk), free(rv), free(rg), free(rs), free(ro), free(h);
    }
    cudaFree(temp), cudaFree(dk), cudaFree(db), cudaFree(dv), cudaFree(dids), cudaFree(doff), cudaFree(dcnt);
    cudaFree(dko), cudaFree(dvo), cudaFree(dg), cudaFree(ds), cudaFree(dofs);
    cudaStreamDestroy(stream);
    free(keys), free(bounds), free(vals), free(ids);
}

static void test_large_2p28(void)
{
    seg_case c = base_case((size_t)1 << 28, L_POWER, 16);
    c.values = 0, c.indices = 0;
    run_case(&c, 0);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "segmented");
    sct_require_cuda();
    int large = 0;
    for (int i = 1; i < argc; ++i) large |= strstr(argv[i], "large") != NULL;
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_bad_arguments_write_nothing);
    SCT_RUN(test_all_empty);
    SCT_RUN(test_tier_thresholds);
    SCT_RUN(test_rules_and_key_types);
    SCT_RUN(test_buckets_and_distributions);
    SCT_RUN(test_grid_small_sizes);
    SCT_RUN(test_grid_mixed_segments);
    SCT_RUN(test_grid_million);
    SCT_RUN(test_sizes_and_layouts);
    SCT_RUN(test_device_count);
    SCT_RUN(test_ballot_chunk_edges);
    SCT_RUN(test_millions_of_segments);
    SCT_RUN(test_renderer_tiles);
    if (large) SCT_RUN(test_large_2p28);
    return sct_end();
}
