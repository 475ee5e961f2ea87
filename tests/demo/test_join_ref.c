/* test_join_ref.c - the CPU side of `split-demo join` (app/split_demo/demo_join.cu), without a GPU
 * (cpu), on the demo's own generator and checksum (app/split_demo/join_host.c):
 *  - the radix-partitioned hash join built from split_multisplit_ref (partition bits, bucket offsets,
 *    per-partition chunked build/probe with a small chunk so chunking always happens) and the
 *    sort-merge join built from split_sort_ref agree with the plain CPU hash join in count and
 *    checksum, and the count equals the generator's expected size, on |R|, |S| in 0, 1, 7, 1000,
 *    100003, uniform and Zipf keys, r-dup 1 and 3, match 0, 0.5 and 1; also with the GPU's own
 *    chunk, slot and partition parameters, including R partitions larger than the GPU's chunk;
 *  - a hand-made tiny join with a known answer;
 *  - the checksum catches a dropped pair, a duplicated pair and a wrong payload, and ignores order;
 *  - the generator: R keys distinct with r-dup 1, absent keys never match, the Zipf table is
 *    monotone and its rank 0 the most frequent key. */
#include <stdlib.h>
#include <string.h>

#include "join_host.h"
#include "sctest.h"
#include "split.h"

typedef struct relations {
    uint32_t *rk, *rp, *sk, *sp, *cdf;
    join_rel r, s;
    join_gen g;
} relations;

static int make_relations(relations *x, uint64_t nr, uint64_t ns, uint32_t dup, double match, int zipf)
{
    memset(x, 0, sizeof *x);
    join_gen_init(&x->g, 0x5eedull ^ (nr * 31 + ns), nr, ns, dup, match, zipf);
    x->rk = malloc((nr ? nr : 1) * 4), x->rp = malloc((nr ? nr : 1) * 4);
    x->sk = malloc((ns ? ns : 1) * 4), x->sp = malloc((ns ? ns : 1) * 4);
    x->cdf = join_zipf_table(x->g.distinct, 1.0);
    if (!x->rk || !x->rp || !x->sk || !x->sp || !x->cdf) return -1;
    join_generate_r(&x->g, x->rk, x->rp);
    join_generate_s(&x->g, x->cdf, x->sk, x->sp);
    x->r.key = x->rk, x->r.payload = x->rp, x->r.n = (size_t)nr;
    x->s.key = x->sk, x->s.payload = x->sp, x->s.n = (size_t)ns;
    return 0;
}

static void free_relations(relations *x)
{
    free(x->rk), free(x->rp), free(x->sk), free(x->sp), free(x->cdf);
    memset(x, 0, sizeof *x);
}

static void test_joins_agree(void)
{
    static const uint64_t sizes[][2] = {{0, 0},    {0, 7},       {7, 0},      {1, 1},        {1, 1000},     {7, 1000},
                                        {1000, 7}, {1000, 1000}, {100003, 1000}, {1000, 100003}, {100003, 100003}};
    static const double matches[] = {0.0, 0.5, 1.0};
    static const uint32_t dups[] = {1, 3};
    for (size_t zi = 0; zi < sizeof sizes / sizeof sizes[0]; ++zi)
        for (int zipf = 0; zipf < 2; ++zipf)
            for (size_t di = 0; di < 2; ++di)
                for (size_t mi = 0; mi < 3; ++mi) {
                    const uint64_t nr = sizes[zi][0], ns = sizes[zi][1];
                    relations x;
                    SCT_REQUIRE(make_relations(&x, nr, ns, dups[di], matches[mi], zipf) == 0);
                    join_sum hash, part, part2, merge;
                    SCT_REQUIRE(join_cpu_hash(&x.r, &x.s, &hash, NULL) == 0);
                    /* average R partition 64 tuples, chunks of 16: every non-tiny partition is chunked */
                    const uint32_t bits = join_partition_bits(nr, ns, 64, 256);
                    SCT_CHECK_OK(join_cpu_partitioned(&x.r, &x.s, bits, 1, 16, 3, &part, NULL));
                    SCT_CHECK_OK(join_cpu_partitioned(&x.r, &x.s, bits, 2, 16, 3, &part2, NULL));
                    SCT_CHECK_MSG(part2.count == part.count && part2.sum == part.sum,
                                  "|R| %llu |S| %llu: two-level partitioning %llu pairs, one level %llu",
                                  (unsigned long long)nr, (unsigned long long)ns, (unsigned long long)part2.count,
                                  (unsigned long long)part.count);
                    SCT_CHECK_OK(join_cpu_sort_merge(&x.r, &x.s, &merge, NULL));
                    const uint64_t expected = join_expected_pairs(&x.g, x.cdf);
                    SCT_CHECK_MSG(hash.count == expected,
                                  "|R| %llu |S| %llu %s dup %u match %.1f: hash join %llu pairs, generator %llu",
                                  (unsigned long long)nr, (unsigned long long)ns, zipf ? "zipf" : "uniform", dups[di],
                                  matches[mi], (unsigned long long)hash.count, (unsigned long long)expected);
                    SCT_CHECK_MSG(part.count == hash.count && part.sum == hash.sum,
                                  "|R| %llu |S| %llu %s dup %u match %.1f bits %u: partitioned %llu/%016llx, hash "
                                  "%llu/%016llx",
                                  (unsigned long long)nr, (unsigned long long)ns, zipf ? "zipf" : "uniform", dups[di],
                                  matches[mi], bits, (unsigned long long)part.count, (unsigned long long)part.sum,
                                  (unsigned long long)hash.count, (unsigned long long)hash.sum);
                    SCT_CHECK_MSG(merge.count == hash.count && merge.sum == hash.sum,
                                  "|R| %llu |S| %llu %s dup %u match %.1f: sort-merge %llu/%016llx, hash %llu/%016llx",
                                  (unsigned long long)nr, (unsigned long long)ns, zipf ? "zipf" : "uniform", dups[di],
                                  matches[mi], (unsigned long long)merge.count, (unsigned long long)merge.sum,
                                  (unsigned long long)hash.count, (unsigned long long)hash.sum);
                    if (matches[mi] == 0.0) SCT_CHECK_EQ_U64(hash.count, 0);
                    if (matches[mi] == 1.0 && nr > 0) SCT_CHECK(hash.count >= ns * (nr / x.g.distinct));
                    free_relations(&x);
                }
}

/* The GPU's parameters (chunk 2048, 2^11 heads, its partition bits) and a coarse partitioning (4
 * partitions of ~250 R tuples, chunks of 16) on a Zipf, r-dup 3 join. */
static void test_partitioned_parameters(void)
{
    relations x;
    SCT_REQUIRE(make_relations(&x, 100003, 100003, 3, 0.5, 1) == 0);
    join_sum hash, gpu_like, coarse;
    SCT_REQUIRE(join_cpu_hash(&x.r, &x.s, &hash, NULL) == 0);
    const uint32_t bits = join_partition_bits(x.r.n, x.s.n, JOIN_GPU_R_PER_PART, JOIN_GPU_S_PER_PART);
    SCT_CHECK_EQ_U64(bits, 7); /* 100003 / 2^7 = 782 <= 1024 R tuples; / 2^6 > 1024 */
    for (uint32_t levels = 1; levels <= 2; ++levels) {
        SCT_CHECK_OK(join_cpu_partitioned(&x.r, &x.s, bits, levels, JOIN_GPU_CHUNK, JOIN_GPU_SLOT_BITS, &gpu_like, NULL));
        SCT_CHECK(gpu_like.count == hash.count && gpu_like.sum == hash.sum);
    }
    /* the demo's default at 2^24 x 2^24: 14 bits in two levels of 7 */
    SCT_CHECK_OK(join_cpu_partitioned(&x.r, &x.s, 14, join_partition_levels(14), JOIN_GPU_CHUNK, JOIN_GPU_SLOT_BITS,
                                      &gpu_like, NULL));
    SCT_CHECK(gpu_like.count == hash.count && gpu_like.sum == hash.sum);
    SCT_CHECK_EQ_U64(join_partition_levels(8), 1);
    SCT_CHECK_EQ_U64(join_partition_levels(9), 2);
    SCT_CHECK(join_cpu_partitioned(&x.r, &x.s, JOIN_TWO_LEVEL_MAX_BITS + 1, 2, 16, 3, &gpu_like, NULL) != 0);
    relations y;
    SCT_REQUIRE(make_relations(&y, 1000, 1000, 3, 1.0, 0) == 0);
    SCT_REQUIRE(join_cpu_hash(&y.r, &y.s, &hash, NULL) == 0);
    SCT_CHECK_OK(join_cpu_partitioned(&y.r, &y.s, 2, 1, 16, 3, &coarse, NULL));
    SCT_CHECK(coarse.count == hash.count && coarse.sum == hash.sum);
    SCT_CHECK(hash.count > 1000); /* many-to-many: more pairs than S tuples */
    /* the GPU's parameters where an R partition exceeds the GPU's chunk (32 key indices of 1024
     * copies over 2^5 partitions): the chunked path as the GPU takes it */
    relations z;
    SCT_REQUIRE(make_relations(&z, 32768, 10007, 1024, 0.5, 0) == 0);
    const uint32_t zbits = join_partition_bits(z.r.n, z.s.n, JOIN_GPU_R_PER_PART, JOIN_GPU_S_PER_PART);
    uint32_t part_size[32] = {0}, largest = 0;
    SCT_REQUIRE(zbits == 5);
    for (size_t i = 0; i < z.r.n; ++i) part_size[z.rk[i] & 31] += 1;
    for (int p = 0; p < 32; ++p) largest = part_size[p] > largest ? part_size[p] : largest;
    SCT_CHECK_MSG(largest > JOIN_GPU_CHUNK, "largest R partition %u: not chunked on the GPU", largest);
    SCT_REQUIRE(join_cpu_hash(&z.r, &z.s, &hash, NULL) == 0);
    for (uint32_t levels = 1; levels <= 2; ++levels) {
        SCT_CHECK_OK(join_cpu_partitioned(&z.r, &z.s, zbits, levels, JOIN_GPU_CHUNK, JOIN_GPU_SLOT_BITS, &gpu_like, NULL));
        SCT_CHECK(gpu_like.count == hash.count && gpu_like.sum == hash.sum);
    }
    SCT_CHECK(hash.count > 1000 * z.s.n / 4); /* ~1024 pairs per matching S tuple */
    free_relations(&z);
    /* the partition bits: 2^24 x 2^24 gives 2^14 partitions of 1024 R tuples; tiny inputs 1 bit */
    SCT_CHECK_EQ_U64(join_partition_bits((uint64_t)1 << 24, (uint64_t)1 << 24, 1024, 4096), 14);
    SCT_CHECK_EQ_U64(join_partition_bits(1, 1, 1024, 4096), 1);
    SCT_CHECK_EQ_U64(join_partition_bits(16, (uint64_t)1 << 26, 1024, 4096), 14); /* S decides */
    free_relations(&x);
    free_relations(&y);
}

static int cmp_triple(const void *a, const void *b)
{
    const uint32_t *x = (const uint32_t *)a, *y = (const uint32_t *)b;
    for (int w = 0; w < 3; ++w)
        if (x[w] != y[w]) return x[w] < y[w] ? -1 : 1;
    return 0;
}

/* R = {(5,100), (7,101), (5,102), (9,103)}, S = {(5,200), (8,201), (9,202), (5,203)}: five pairs. */
static void test_tiny_known_answer(void)
{
    static const uint32_t rk[] = {5, 7, 5, 9}, rp[] = {100, 101, 102, 103};
    static const uint32_t sk[] = {5, 8, 9, 5}, sp[] = {200, 201, 202, 203};
    static const uint32_t want[5][3] = {{5, 100, 200}, {5, 100, 203}, {5, 102, 200}, {5, 102, 203}, {9, 103, 202}};
    uint32_t wk[5], wr[5], ws[5];
    for (int i = 0; i < 5; ++i) wk[i] = want[i][0], wr[i] = want[i][1], ws[i] = want[i][2];
    const join_sum known = join_checksum(wk, wr, ws, 5);
    const join_rel r = {rk, rp, 4}, s = {sk, sp, 4};
    for (int m = 0; m < 5; ++m) {
        uint32_t ok[8], orp[8], osp[8];
        join_pairs out = {ok, orp, osp, 8, 0};
        join_sum sum;
        const int rc = m == 0   ? join_cpu_hash(&r, &s, &sum, &out)
                       : m == 1 ? join_cpu_partitioned(&r, &s, 1, 1, 1, 1, &sum, &out) /* chunks of one tuple */
                       : m == 2 ? join_cpu_partitioned(&r, &s, 3, 1, 2048, 11, &sum, &out)
                       : m == 3 ? join_cpu_partitioned(&r, &s, 3, 2, 1, 1, &sum, &out)
                                : join_cpu_sort_merge(&r, &s, &sum, &out);
        SCT_CHECK_MSG(rc == 0, "method %d: status %d", m, rc);
        SCT_CHECK_EQ_U64(sum.count, 5);
        SCT_CHECK_EQ_U64(out.n, 5);
        SCT_CHECK(sum.count == known.count && sum.sum == known.sum);
        uint32_t got[5][3];
        for (size_t i = 0; i < 5 && i < out.n; ++i) got[i][0] = ok[i], got[i][1] = orp[i], got[i][2] = osp[i];
        qsort(got, 5, sizeof got[0], cmp_triple);
        SCT_CHECK_MSG(memcmp(got, want, sizeof want) == 0, "method %d: pairs differ from the known answer", m);
    }
}

/* Crafted wrong outputs change the count or the checksum; a reordering does not. */
static void test_checksum_catches_errors(void)
{
    relations x;
    SCT_REQUIRE(make_relations(&x, 1000, 1000, 3, 0.5, 0) == 0);
    const size_t cap = 4000;
    uint32_t *k = malloc(cap * 4), *rp = malloc(cap * 4), *sp = malloc(cap * 4);
    SCT_REQUIRE(k && rp && sp);
    join_pairs out = {k, rp, sp, cap, 0};
    join_sum ref;
    SCT_REQUIRE(join_cpu_hash(&x.r, &x.s, &ref, &out) == 0);
    const size_t n = out.n;
    SCT_REQUIRE(n == ref.count && n > 10);
    join_sum got = join_checksum(k, rp, sp, n);
    SCT_CHECK(got.count == ref.count && got.sum == ref.sum);

    /* reversed order: the same checksum */
    for (size_t i = 0; i < n / 2; ++i) {
        uint32_t t = k[i]; k[i] = k[n - 1 - i]; k[n - 1 - i] = t;
        t = rp[i]; rp[i] = rp[n - 1 - i]; rp[n - 1 - i] = t;
        t = sp[i]; sp[i] = sp[n - 1 - i]; sp[n - 1 - i] = t;
    }
    got = join_checksum(k, rp, sp, n);
    SCT_CHECK(got.count == ref.count && got.sum == ref.sum);

    /* a dropped pair (the last): the count and the sum differ */
    got = join_checksum(k, rp, sp, n - 1);
    SCT_CHECK(got.count != ref.count);
    SCT_CHECK(got.sum != ref.sum);

    /* a duplicated pair in place of another: the count agrees, the sum does not */
    const uint32_t save[3] = {k[5], rp[5], sp[5]};
    k[5] = k[6], rp[5] = rp[6], sp[5] = sp[6];
    got = join_checksum(k, rp, sp, n);
    SCT_CHECK(got.count == ref.count);
    SCT_CHECK(got.sum != ref.sum);
    k[5] = save[0], rp[5] = save[1], sp[5] = save[2];

    /* a wrong payload (r and then s), and a wrong key */
    rp[7] ^= 1;
    SCT_CHECK(join_checksum(k, rp, sp, n).sum != ref.sum);
    rp[7] ^= 1;
    sp[8] += 1;
    SCT_CHECK(join_checksum(k, rp, sp, n).sum != ref.sum);
    sp[8] -= 1;
    k[9] ^= 0x80000000u;
    SCT_CHECK(join_checksum(k, rp, sp, n).sum != ref.sum);
    k[9] ^= 0x80000000u;
    /* two pairs' R payloads swapped (each pair now wrong, the multiset of payloads the same) */
    size_t a = 0, b = 1;
    while (b < n && k[b] == k[a]) ++b;
    SCT_REQUIRE(b < n);
    uint32_t t = rp[a]; rp[a] = rp[b]; rp[b] = t;
    SCT_CHECK(join_checksum(k, rp, sp, n).sum != ref.sum);
    t = rp[a]; rp[a] = rp[b]; rp[b] = t;
    got = join_checksum(k, rp, sp, n);
    SCT_CHECK(got.count == ref.count && got.sum == ref.sum);
    free(k), free(rp), free(sp);
    free_relations(&x);
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void test_generator(void)
{
    relations x;
    SCT_REQUIRE(make_relations(&x, 100003, 100003, 1, 0.0, 0) == 0);
    /* R keys distinct with r-dup 1 */
    uint32_t *keys = malloc(100003 * 4);
    SCT_REQUIRE(keys != NULL);
    memcpy(keys, x.rk, 100003 * 4);
    qsort(keys, 100003, 4, cmp_u32);
    size_t dups = 0;
    for (size_t i = 1; i < 100003; ++i) dups += keys[i] == keys[i - 1];
    SCT_CHECK_EQ_U64(dups, 0);
    /* match 0: no S key is an R key */
    size_t found = 0;
    for (size_t j = 0; j < 100003; ++j) found += bsearch(&x.sk[j], keys, 100003, 4, cmp_u32) != NULL;
    SCT_CHECK_EQ_U64(found, 0);
    free(keys);
    free_relations(&x);

    /* r-dup 3 on 10 tuples: D = 4 key indices, taken 3, 3, 2, 2 times */
    join_gen g;
    join_gen_init(&g, 1, 10, 0, 3, 1.0, 0);
    SCT_CHECK_EQ_U64(g.distinct, 4);
    SCT_CHECK(join_r_key(&g, 0) == join_r_key(&g, 4) && join_r_key(&g, 4) == join_r_key(&g, 8));
    SCT_CHECK(join_r_key(&g, 3) == join_r_key(&g, 7) && join_r_key(&g, 0) != join_r_key(&g, 1));
    SCT_CHECK_EQ_U64(g.match_threshold, (uint64_t)1 << 32);
    join_gen_init(&g, 1, 10, 0, 3, 0.5, 0);
    SCT_CHECK_EQ_U64(g.match_threshold, (uint64_t)1 << 31);

    /* the Zipf table: monotone; rank 0 the most frequent among matching S tuples */
    const uint32_t d = 5000;
    uint32_t *cdf = join_zipf_table(d, 1.0);
    SCT_REQUIRE(cdf != NULL);
    for (uint32_t k = 1; k + 1 < d; ++k) SCT_CHECK(cdf[k] >= cdf[k - 1]);
    SCT_CHECK(cdf[0] > 0x08000000u); /* P(rank 0) = 1 / H(5000) ~ 0.11 */
    SCT_CHECK_EQ_U64(join_zipf_rank(cdf, d, 0), 0);
    SCT_CHECK_EQ_U64(join_zipf_rank(cdf, d, 0xFFFFFFFFu), d - 1);
    join_gen_init(&g, 7, d, 200000, 1, 1.0, 1);
    uint32_t *hits = calloc(d, 4);
    SCT_REQUIRE(hits != NULL);
    for (uint64_t j = 0; j < g.ns; ++j) {
        const uint32_t u = join_s_key_index(&g, cdf, j);
        SCT_REQUIRE(u < d);
        hits[u] += 1;
    }
    for (uint32_t u = 1; u < d; ++u) SCT_CHECK(hits[0] > hits[u]);
    SCT_CHECK(hits[0] > 200000 / 20 && hits[0] < 200000 / 5);
    free(hits), free(cdf);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "join_ref");
    SCT_RUN(test_joins_agree);
    SCT_RUN(test_partitioned_parameters);
    SCT_RUN(test_tiny_known_answer);
    SCT_RUN(test_checksum_catches_errors);
    SCT_RUN(test_generator);
    return sct_end();
}
