/* records_host.c - the host side of `split-demo records` that needs no CUDA (records_host.h): record
 * generation, the stable CPU reference order (qsort by key, then original index) and the check of a
 * sorted record array against it. Shared by demo_records.cu and tests/demo/test_records_ref.c. */
#include "records_host.h"

#include <stdlib.h>

void records_generate(uint32_t *rec, size_t n, uint32_t wpr, uint32_t kw)
{
    for (size_t j = 0; j < n; ++j)
        for (uint32_t w = 0; w < wpr; ++w) rec[j * wpr + w] = record_word(j, w, kw);
}

typedef struct ref_pair {
    uint64_t key;     /* the key's low 64 bits */
    uint32_t key_hi;  /* 96-bit keys: the high word; else 0 */
    uint32_t index;
} ref_pair;

static int cmp_pair(const void *a, const void *b)
{
    const ref_pair *x = (const ref_pair *)a, *y = (const ref_pair *)b;
    if (x->key_hi != y->key_hi) return x->key_hi < y->key_hi ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

int records_reference_perm(const char *who, const uint32_t *in, size_t n, uint32_t wpr, uint32_t key_bits,
                           uint32_t *perm)
{
    ref_pair *p = (ref_pair *)malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "%s: host allocation for the reference of %zu records failed\n", who, n);
        return 1;
    }
    const uint32_t kw = key_bits / 32;
    for (size_t j = 0; j < n; ++j) {
        const uint64_t k = in ? records_key_of(in + j * wpr, kw) : record_key(j);
        p[j].key = key_bits == 32 ? (uint32_t)k : k;
        p[j].key_hi = key_bits == 96 ? (in ? records_key_hi_of(in + j * wpr, kw) : record_key_hi(j)) : 0u;
        p[j].index = (uint32_t)j;
    }
    qsort(p, n, sizeof *p, cmp_pair);
    for (size_t i = 0; i < n; ++i) perm[i] = p[i].index;
    free(p);
    return 0;
}

int records_record_matches(const uint32_t *got, const uint32_t *in, uint64_t j, uint32_t wpr, uint32_t kw)
{
    for (uint32_t w = 0; w < wpr; ++w)
        if (got[w] != (in ? in[j * wpr + w] : record_word(j, w, kw))) return 0;
    return 1;
}

size_t records_first_bad(const uint32_t *out, const uint32_t *in, const uint32_t *ref_perm, size_t n, uint32_t wpr,
                         uint32_t kw)
{
    for (size_t i = 0; i < n; ++i)
        if (ref_perm[i] >= n || !records_record_matches(out + i * wpr, in, ref_perm[i], wpr, kw)) return i;
    return n;
}

void records_describe_bad(FILE *f, const char *who, const char *method, const uint32_t *in, size_t record_bytes,
                          uint32_t key_bits, size_t n, size_t i, const uint32_t *ref_perm, const uint32_t *got)
{
    const uint32_t kw = key_bits / 32, wpr = (uint32_t)(record_bytes / 4);
    const uint64_t want_j = ref_perm[i];
    const uint64_t want_key = in && want_j < n ? records_key_of(in + want_j * wpr, kw)
                              : kw == 1       ? (uint32_t)record_key(want_j)
                                              : record_key(want_j);
    const uint32_t want_hi = kw != 3                ? 0u
                             : in && want_j < n     ? records_key_hi_of(in + want_j * wpr, kw)
                                                    : record_key_hi(want_j);
    fprintf(f,
            "%s: method %s, %zu-byte records, %u-bit keys, %zu records: WRONG at record %zu: it holds key "
            "0x%x:%016llx and original index %u; the CPU sort puts there original record %llu (key 0x%x:%016llx)\n",
            who, method, record_bytes, key_bits, n, i, records_key_hi_of(got, kw),
            (unsigned long long)records_key_of(got, kw), got[kw], (unsigned long long)want_j, want_hi,
            (unsigned long long)want_key);
}
