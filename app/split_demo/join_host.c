/* join_host.c - the host side of `split-demo join` that needs no CUDA (join_host.h): generation of R
 * and S and of the Zipf table, the expected output size, the output checksum, and the three CPU
 * joins: the plain hash join (the demo's reference and its CPU timing), the radix-partitioned hash
 * join built from split_multisplit_ref and the sort-merge join built from split_sort_ref (both run
 * as the GPU runs them, so tests/demo/test_join_ref.c checks the GPU methods' logic without a GPU). */
#include "join_host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t join_partition_bits(uint64_t nr, uint64_t ns, uint64_t r_per_part, uint64_t s_per_part)
{
    uint32_t bits = 1;
    for (; bits < JOIN_MAX_PART_BITS; ++bits) {
        const uint64_t parts = (uint64_t)1 << bits;
        if ((nr + parts - 1) / parts <= r_per_part && (ns + parts - 1) / parts <= s_per_part) break;
    }
    return bits;
}

uint32_t join_partition_levels(uint32_t bits)
{
    return bits <= JOIN_ONE_LEVEL_MAX_BITS ? 1u : 2u;
}

static split_desc partition_level(size_t n, uint32_t start_bit, uint32_t bit_count, const uint32_t *keys_in,
                                  const uint32_t *payloads_in, uint32_t *keys_out, uint32_t *payloads_out,
                                  uint32_t *offsets)
{
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = n;
    d.keys_in = keys_in;
    d.keys_out = keys_out;
    d.values_in = payloads_in;
    d.values_out = payloads_out;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.start_bit = start_bit;
    d.buckets.bit_count = bit_count;
    d.bucket_offsets = offsets;
    return d;
}

join_partition_plan join_partition_plan_make(size_t n, uint32_t bits, uint32_t levels, const uint32_t *keys_in,
                                             const uint32_t *payloads_in, uint32_t *keys_tmp, uint32_t *payloads_tmp,
                                             uint32_t *keys_out, uint32_t *payloads_out, uint32_t *part_offsets)
{
    join_partition_plan p;
    memset(&p, 0, sizeof p);
    p.levels = levels == 2 ? 2u : 1u;
    p.bits = bits;
    p.n = n;
    p.keys_out = keys_out;
    p.part_offsets = part_offsets;
    if (p.levels == 1) {
        p.first = partition_level(n, 0, bits, keys_in, payloads_in, keys_out, payloads_out, part_offsets);
        p.first.unstable = 1;
        return p;
    }
    const uint32_t low = bits / 2, high = bits - low;
    p.first = partition_level(n, 0, low, keys_in, payloads_in, keys_tmp, payloads_tmp, NULL);
    p.first.unstable = 1;
    p.second = partition_level(n, low, high, keys_tmp, payloads_tmp, keys_out, payloads_out, NULL);
    return p;
}

/* ---- generation ----------------------------------------------------------------------------- */

void join_gen_init(join_gen *g, uint64_t seed, uint64_t nr, uint64_t ns, uint32_t dup, double match, int zipf)
{
    memset(g, 0, sizeof *g);
    g->seed = seed;
    g->nr = nr;
    g->ns = ns;
    g->dup = dup ? dup : 1;
    g->distinct = nr ? (uint32_t)((nr + g->dup - 1) / g->dup) : 0;
    const double t = floor(match * 4294967296.0 + 0.5);
    g->match_threshold = t <= 0 ? 0 : t >= 4294967296.0 ? (uint64_t)1 << 32 : (uint64_t)t;
    g->zipf = zipf;
}

uint32_t *join_zipf_table(uint32_t distinct, double theta)
{
    const size_t entries = distinct > 1 ? (size_t)distinct - 1 : 1;
    uint32_t *t = (uint32_t *)malloc(entries * sizeof *t);
    if (!t) return NULL;
    t[0] = 0xFFFFFFFFu;
    if (distinct <= 1) return t;
    double total = 0; /* smallest terms first */
    for (uint32_t k = distinct; k-- > 0;) total += pow((double)k + 1.0, -theta);
    double cum = 0;
    for (uint32_t k = 0; k + 1 < distinct; ++k) {
        cum += pow((double)k + 1.0, -theta);
        const double v = floor(cum / total * 4294967296.0 + 0.5);
        t[k] = v >= 4294967295.0 ? 0xFFFFFFFFu : (uint32_t)v;
    }
    return t;
}

void join_generate_r(const join_gen *g, uint32_t *key, uint32_t *payload)
{
    for (uint64_t i = 0; i < g->nr; ++i) {
        key[i] = join_r_key(g, i);
        payload[i] = join_r_payload(i);
    }
}

void join_generate_s(const join_gen *g, const uint32_t *cdf, uint32_t *key, uint32_t *payload)
{
    for (uint64_t j = 0; j < g->ns; ++j) {
        key[j] = join_s_key(g, cdf, j);
        payload[j] = join_s_payload(j);
    }
}

uint64_t join_expected_pairs(const join_gen *g, const uint32_t *cdf)
{
    if (g->distinct == 0) return 0;
    const uint64_t per_key = g->nr / g->distinct, extra_below = g->nr % g->distinct;
    uint64_t pairs = 0;
    for (uint64_t j = 0; j < g->ns; ++j) {
        const uint32_t u = join_s_key_index(g, cdf, j);
        if (u != JOIN_NONE) pairs += per_key + (u < extra_below);
    }
    return pairs;
}

/* ---- pairs and the checksum ------------------------------------------------------------------ */

static void emit(join_sum *sum, join_pairs *out, uint32_t key, uint32_t r_payload, uint32_t s_payload)
{
    sum->count += 1;
    sum->sum += join_pair_hash(key, r_payload, s_payload);
    if (out && out->n < out->cap) {
        out->key[out->n] = key;
        out->r_payload[out->n] = r_payload;
        out->s_payload[out->n] = s_payload;
        out->n += 1;
    }
}

join_sum join_checksum(const uint32_t *key, const uint32_t *r_payload, const uint32_t *s_payload, size_t n)
{
    join_sum s = {0, 0};
    for (size_t i = 0; i < n; ++i) {
        s.count += 1;
        s.sum += join_pair_hash(key[i], r_payload[i], s_payload[i]);
    }
    return s;
}

static void start(join_sum *sum, join_pairs *out)
{
    sum->count = 0;
    sum->sum = 0;
    if (out) out->n = 0;
}

/* ---- the plain hash join ----------------------------------------------------------------------- */

int join_cpu_hash(const join_rel *r, const join_rel *s, join_sum *sum, join_pairs *out)
{
    start(sum, out);
    uint32_t slot_bits = 1;
    while (slot_bits < 31 && ((size_t)1 << slot_bits) < 2 * r->n) ++slot_bits;
    const size_t slots = (size_t)1 << slot_bits;
    uint32_t *head = (uint32_t *)malloc(slots * sizeof *head);
    uint32_t *next = (uint32_t *)malloc((r->n ? r->n : 1) * sizeof *next);
    if (!head || !next) {
        free(head), free(next);
        return -1;
    }
    memset(head, 0xFF, slots * sizeof *head); /* JOIN_NONE */
    for (size_t i = 0; i < r->n; ++i) {
        const uint32_t h = join_slot(r->key[i], slot_bits);
        next[i] = head[h];
        head[h] = (uint32_t)i;
    }
    for (size_t j = 0; j < s->n; ++j) {
        const uint32_t k = s->key[j];
        for (uint32_t e = head[join_slot(k, slot_bits)]; e != JOIN_NONE; e = next[e])
            if (r->key[e] == k) emit(sum, out, k, r->payload[e], s->payload[j]);
    }
    free(head), free(next);
    return 0;
}

/* ---- the radix-partitioned hash join ----------------------------------------------------------- */

/* One partition: R's tuples [r0, r1) in chunks of `chunk`, each built into the chained table and
 * probed by S's tuples [s0, s1) (keys and payloads already partitioned). */
static void join_partition(const uint32_t *rk, const uint32_t *rp, uint32_t r0, uint32_t r1, const uint32_t *sk,
                           const uint32_t *sp, uint32_t s0, uint32_t s1, uint32_t chunk, uint32_t slot_bits,
                           uint32_t *head, uint32_t *next, join_sum *sum, join_pairs *out)
{
    for (uint32_t c0 = r0; c0 < r1; c0 += (r1 - c0 < chunk ? r1 - c0 : chunk)) {
        const uint32_t c1 = r1 - c0 < chunk ? r1 : c0 + chunk;
        memset(head, 0xFF, ((size_t)1 << slot_bits) * sizeof *head);
        for (uint32_t t = c0; t < c1; ++t) {
            const uint32_t h = join_slot(rk[t], slot_bits);
            next[t - c0] = head[h];
            head[h] = t - c0;
        }
        for (uint32_t j = s0; j < s1; ++j)
            for (uint32_t e = head[join_slot(sk[j], slot_bits)]; e != JOIN_NONE; e = next[e])
                if (rk[c0 + e] == sk[j]) emit(sum, out, sk[j], rp[c0 + e], sp[j]);
    }
}

/* One relation partitioned by its plan (split references), and its partition offsets. */
static int partition_ref(const join_partition_plan *p)
{
    int rc = (int)split_multisplit_ref(&p->first);
    if (rc != 0 || p->levels == 1) return rc;
    rc = (int)split_multisplit_ref(&p->second);
    const uint32_t parts = 1u << p->bits;
    for (uint32_t b = 0; rc == 0 && b <= parts; ++b)
        p->part_offsets[b] = join_partition_start(p->keys_out, (uint32_t)p->n, parts - 1, b);
    return rc;
}

int join_cpu_partitioned(const join_rel *r, const join_rel *s, uint32_t bits, uint32_t levels, uint32_t chunk,
                         uint32_t slot_bits, join_sum *sum, join_pairs *out)
{
    start(sum, out);
    if (chunk == 0 || slot_bits == 0 || slot_bits > 24 || bits == 0 || bits > JOIN_MAX_PART_BITS ||
        (levels != 1 && levels != 2) || (levels == 2 && bits > JOIN_TWO_LEVEL_MAX_BITS))
        return -1;
    const size_t parts = (size_t)1 << bits, nr = r->n ? r->n : 1, ns = s->n ? s->n : 1;
    const size_t nt = nr > ns ? nr : ns;
    uint32_t *rk = (uint32_t *)malloc(nr * 4), *rp = (uint32_t *)malloc(nr * 4);
    uint32_t *sk = (uint32_t *)malloc(ns * 4), *sp = (uint32_t *)malloc(ns * 4);
    uint32_t *tk = (uint32_t *)malloc(nt * 4), *tp = (uint32_t *)malloc(nt * 4);
    uint32_t *roff = (uint32_t *)malloc((parts + 1) * 4), *soff = (uint32_t *)malloc((parts + 1) * 4);
    uint32_t *head = (uint32_t *)malloc(((size_t)1 << slot_bits) * 4), *next = (uint32_t *)malloc((size_t)chunk * 4);
    int rc = -1;
    if (rk && rp && sk && sp && tk && tp && roff && soff && head && next) {
        const join_partition_plan pr =
            join_partition_plan_make(r->n, bits, levels, r->key, r->payload, tk, tp, rk, rp, roff);
        const join_partition_plan ps =
            join_partition_plan_make(s->n, bits, levels, s->key, s->payload, tk, tp, sk, sp, soff);
        rc = partition_ref(&pr);
        if (rc == 0) rc = partition_ref(&ps);
        for (size_t p = 0; rc == 0 && p < parts; ++p)
            join_partition(rk, rp, roff[p], roff[p + 1], sk, sp, soff[p], soff[p + 1], chunk, slot_bits, head, next,
                           sum, out);
    }
    free(rk), free(rp), free(sk), free(sp), free(tk), free(tp), free(roff), free(soff), free(head);
    free(next);
    return rc;
}

/* ---- the sort-merge join ------------------------------------------------------------------------ */

static sc_status sort_relation(const join_rel *rel, uint32_t *keys_out, uint32_t *payloads_out)
{
    split_sort_desc d;
    memset(&d, 0, sizeof d);
    d.key_bits = 32;
    d.n = rel->n;
    d.keys_in = rel->key;
    d.keys_out = keys_out;
    d.values_in = rel->payload;
    d.values_out = payloads_out;
    return split_sort_ref(&d);
}

int join_cpu_sort_merge(const join_rel *r, const join_rel *s, join_sum *sum, join_pairs *out)
{
    start(sum, out);
    const size_t nr = r->n ? r->n : 1, ns = s->n ? s->n : 1;
    uint32_t *rk = (uint32_t *)malloc(nr * 4), *rp = (uint32_t *)malloc(nr * 4);
    uint32_t *sk = (uint32_t *)malloc(ns * 4), *sp = (uint32_t *)malloc(ns * 4);
    int rc = -1;
    if (rk && rp && sk && sp) {
        rc = (int)sort_relation(r, rk, rp);
        if (rc == 0) rc = (int)sort_relation(s, sk, sp);
        for (size_t j = 0; rc == 0 && j < s->n; ++j) {
            const uint32_t lo = join_lower_bound(rk, (uint32_t)r->n, sk[j]);
            const uint32_t hi = join_upper_bound(rk, (uint32_t)r->n, sk[j]);
            for (uint32_t e = lo; e < hi; ++e) emit(sum, out, sk[j], rp[e], sp[j]);
        }
    }
    free(rk), free(rp), free(sk), free(sp);
    return rc;
}
