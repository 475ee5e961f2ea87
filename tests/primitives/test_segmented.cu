/* test_segmented.cu - split_segmented on the GPU against split_segmented_ref, exactly: permutation,
 * keys, values, gather / scatter index and bucket offsets, on seeded random inputs over segment
 * layouts, bucket counts, bucket distributions, rules and key types; every case run directly and
 * again from a captured CUDA graph (gpu); with a device-side record count (num_records_device) the
 * records past it must stay untouched. Pass "large" to also run the 2^28-record case;
 * SEG_VERBOSE=1 prints every case before it runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "split.h"
#include "sctest.h"
#include "sctest_cuda.h"

enum layout { L_ONE, L_TINY, L_POWER, L_TILES, L_EMPTY, L_MANY, L_EDGES };
enum dist { D_UNIFORM, D_ONE, D_HOCKEY, D_ASC, D_DESC };
static const char *layout_name[] = {"one", "tiny", "power", "tiles", "empty", "many", "edges"};
/* L_EDGES: segment sizes at the ballot path's warp chunk edges (32 x 1, 2, 4, 8, 16 rounds), its block
 * chunk (8 x 512: one pass, else a counting pass first) and the warp path's edges, in a seeded random
 * order. */
static const size_t edge_sizes[] = {0,   1,   31,  32,   33,   63,   64,   65,   127,  128,  129,  255,  256, 257,
                                    511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 6000, 8193};
static const char *dist_name[] = {"uniform", "one", "hockey", "asc", "desc"};

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
    while (at < n || S == 0) {
        size_t m;
        switch (c->layout) {
        case L_ONE: m = n; break;
        case L_TINY: m = sct_rng_below(rng, 65); break;
        case L_MANY: m = sct_rng_below(rng, 4); break;
        case L_EDGES: m = edge_sizes[sct_rng_below(rng, sizeof edge_sizes / sizeof edge_sizes[0])]; break;
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
    default: return sct_rng_below(rng, B);
    }
}

/* Fills keys / ids / boundaries so that record i falls (mostly) in bucket b under the rule. */
static void make_keys(sct_rng *rng, const seg_case *c, split_desc *d, void *keys, uint32_t *ids, void *bounds)
{
    int wide = c->key_type == SPLIT_KEY_U64;
    uint32_t bc = 0;
    while ((1u << bc) < c->B) ++bc;
    d->buckets.rule = c->rule;
    d->buckets.num_buckets = c->B;
    if (c->rule == SPLIT_BUCKETS_BITS) {
        d->buckets.num_buckets = 0;
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
            key = (r & ~mask) | ((uint64_t)b << d->buckets.start_bit);
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
                           ((uint64_t)c->dist << 52) ^ ((uint64_t)c->rule << 48));
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

static void test_sizes_and_layouts(void)
{
    static const size_t sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000007, (size_t)1 << 24};
    static const int layouts[] = {L_ONE, L_TINY, L_POWER, L_TILES};
    static const uint32_t bs[] = {16, 257};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
        for (int l = 0; l < 4; ++l)
            for (int b = 0; b < 2; ++b) {
                seg_case c = base_case(sizes[k], layouts[l], bs[b]);
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

static void test_buckets_and_distributions(void)
{
    static const uint32_t bs[] = {1, 2, 3, 16, 31, 32, 33, 255, 256, 257, 2048};
    for (size_t b = 0; b < sizeof bs / sizeof bs[0]; ++b)
        for (int dist = 0; dist < 5; ++dist)
            for (int l = 0; l < 2; ++l) {
                seg_case c = base_case(300007, l ? L_TILES : L_POWER, bs[b]);
                c.dist = dist;
                run_case(&c, 0);
            }
}

static void test_rules_and_key_types(void)
{
    static const split_bucket_rule rules[] = {SPLIT_BUCKETS_BITS, SPLIT_BUCKETS_IDS, SPLIT_BUCKETS_RANGE,
                                              SPLIT_BUCKETS_BOUNDARIES};
    static const uint32_t bs[] = {1, 16, 2048};
    for (int r = 0; r < 4; ++r)
        for (int kt = 0; kt < 2; ++kt)
            for (int b = 0; b < 3; ++b)
                for (int outs = 0; outs < 4; ++outs) {
                    seg_case c = base_case(200003, L_POWER, bs[b]);
                    c.rule = rules[r];
                    c.key_type = kt ? SPLIT_KEY_U64 : SPLIT_KEY_U32;
                    c.values = outs == 0;
                    c.keys_out = outs <= 1;
                    c.indices = outs == 0 || outs == 2;
                    c.offsets = outs == 0 || outs == 3;
                    c.no_keys_in = rules[r] == SPLIT_BUCKETS_IDS && !c.keys_out;
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
 * over the ballot (B <= 32), comparison (B > 32), block and multi-block paths. */
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
                    c.dist = (k + (size_t)l) % 2 ? D_HOCKEY : D_UNIFORM;
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

static void test_bad_arguments_write_nothing(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    const size_t n = 1000;
    uint32_t *dk = (uint32_t *)dalloc(n * 4), *dko = (uint32_t *)dalloc(n * 4), *doff = (uint32_t *)dalloc(8);
    uint32_t off[2] = {0, (uint32_t)n}, probe[4];
    SCT_CUDA(cudaMemcpy(doff, off, 8, cudaMemcpyHostToDevice));
    SCT_CUDA(cudaMemset(dk, 0, n * 4));
    split_desc d;
    memset(&d, 0, sizeof d);
    d.n = n, d.keys_in = dk, d.keys_out = dko, d.segment_offsets = doff, d.num_segments = 1;
    d.buckets.rule = SPLIT_BUCKETS_BITS, d.buckets.bit_count = 4;
    size_t tb = 0;
    SCT_CHECK_OK(split_segmented(NULL, &tb, &d, 0));
    void *temp = dalloc(tb);
    SCT_CUDA(cudaMemset(dko, 0xAB, n * 4));
    split_desc bad = d;
    bad.buckets.bit_count = 12;
    SCT_CHECK(split_segmented(temp, &tb, &bad, 0) == SC_ERROR_INVALID_ARGUMENT);
    bad = d, bad.num_segments = 0;
    SCT_CHECK(split_segmented(temp, &tb, &bad, 0) == SC_ERROR_INVALID_ARGUMENT);
    bad = d, bad.segment_offsets = NULL;
    SCT_CHECK(split_segmented(temp, &tb, &bad, 0) == SC_ERROR_INVALID_ARGUMENT);
    bad = d, bad.keys_out = NULL;
    SCT_CHECK(split_segmented(temp, &tb, &bad, 0) == SC_ERROR_INVALID_ARGUMENT);
    bad = d, bad.values_in = dk;
    SCT_CHECK(split_segmented(temp, &tb, &bad, 0) == SC_ERROR_INVALID_ARGUMENT);
    size_t small = tb - 1;
    SCT_CHECK(split_segmented(temp, &small, &d, 0) == SC_ERROR_TEMP_STORAGE);
    SCT_CHECK(split_segmented(temp, NULL, &d, 0) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CUDA(cudaDeviceSynchronize());
    SCT_CUDA(cudaMemcpy(probe, dko, sizeof probe, cudaMemcpyDeviceToHost));
    SCT_CHECK(probe[0] == 0xABABABABu && probe[3] == 0xABABABABu);
    cudaFree(temp), cudaFree(dk), cudaFree(dko), cudaFree(doff);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
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
    SCT_RUN(test_sizes_and_layouts);
    SCT_RUN(test_device_count);
    SCT_RUN(test_ballot_chunk_edges);
    SCT_RUN(test_millions_of_segments);
    SCT_RUN(test_renderer_tiles);
    if (large) SCT_RUN(test_large_2p28);
    return sct_end();
}
