/* records_host.h - the host side of `split-demo records` (demo_records.cu) that needs no CUDA, shared
 * with its CPU test (tests/demo/test_records_ref.c):
 *   - the record layout and generation: a record of B bytes (a multiple of 4) is B/4 32-bit words;
 *     record j of the input holds its key in words 0 .. kw-1 (kw = 1, 2 or 3 for 32-, 64- and 96-bit
 *     keys, word 0 the least significant), j (its original index) in word kw, and a hash of (j, word), the
 *     payload, in the rest. The keys are pseudo-random, except that every 4th record takes one of 997
 *     shared keys, so equal keys are common. record_key / record_word are inline and also
 *     __host__ __device__ under nvcc, so the device generates and checks the same words;
 *   - the stable CPU reference order: qsort of (key, original index) pairs (ties broken by the index);
 *   - the check of a sorted record array against that order, word by word.
 * Plain C; usable from .c and .cu files alike. */
#ifndef SPLIT_DEMO_RECORDS_HOST_H
#define SPLIT_DEMO_RECORDS_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __CUDACC__
#define RECORDS_HD __host__ __device__
#else
#define RECORDS_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

RECORDS_HD static inline uint64_t records_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The 64-bit key of record j (32-bit keys: its low half). Every 4th record: one of 997 shared keys. */
RECORDS_HD static inline uint64_t record_key(uint64_t j)
{
    return j % 4 == 0 ? records_mix64(0xD1B54A32D192ED03ull + (j / 4) % 997) : records_mix64(j + 0x9E3779B97F4A7C15ull);
}

/* The high word of record j's 96-bit key: one of 13 values, so the low 64 bits decide between the
 * many records that share it; every 4th record's follows its shared key (equal keys stay equal). */
RECORDS_HD static inline uint32_t record_key_hi(uint64_t j)
{
    return (uint32_t)(j % 4 == 0 ? ((j / 4) % 997) % 13 : records_mix64(j ^ 0x5851F42D4C957F2Dull) % 13);
}

/* Word w of generated input record j with kw key words (1, 2 or 3). */
RECORDS_HD static inline uint32_t record_word(uint64_t j, uint32_t w, uint32_t kw)
{
    if (w < kw) return w == 2 ? record_key_hi(j) : (uint32_t)(record_key(j) >> (32 * w));
    if (w == kw) return (uint32_t)j;
    return (uint32_t)records_mix64((j << 9) ^ w ^ 0x2545F4914F6CDD1Dull);
}

/* The low 64 bits of the key held by a record (its first kw words, at most two of them). */
RECORDS_HD static inline uint64_t records_key_of(const uint32_t *rec, uint32_t kw)
{
    return kw == 1 ? rec[0] : ((uint64_t)rec[0] | (uint64_t)rec[1] << 32);
}

/* The high word of a 96-bit key held by a record (kw = 3; 0 otherwise). */
RECORDS_HD static inline uint32_t records_key_hi_of(const uint32_t *rec, uint32_t kw)
{
    return kw == 3 ? rec[2] : 0u;
}

/* Generates n input records of wpr words (kw key words) into rec (n * wpr words), on the host. */
void records_generate(uint32_t *rec, size_t n, uint32_t wpr, uint32_t kw);

/* The stable CPU reference: perm[i] = the original index of the i-th record in (key, index) order.
 * in NULL: of the generated records (record_key); otherwise of the n records of wpr words in `in`
 * (their key words). Returns 0, or 1 after printing (with `who` as the prefix) that the host
 * allocation failed. */
int records_reference_perm(const char *who, const uint32_t *in, size_t n, uint32_t wpr, uint32_t key_bits,
                           uint32_t *perm);

/* 1 when the record `got` (wpr words) equals input record j word for word: of `in` (n records of wpr
 * words), or the generated record j when in is NULL. */
int records_record_matches(const uint32_t *got, const uint32_t *in, uint64_t j, uint32_t wpr, uint32_t kw);

/* The check of a sorted output `out` (n records of wpr words) against the reference permutation: the
 * lowest i whose record is not input record ref_perm[i] (of `in`, or generated when NULL), or n when
 * all match. */
size_t records_first_bad(const uint32_t *out, const uint32_t *in, const uint32_t *ref_perm, size_t n, uint32_t wpr,
                         uint32_t kw);

/* Prints to f why output record i (`got`) is wrong: what it holds and what the reference puts there
 * (`in` as above). who prefixes the line (e.g. "split-demo records"), method names the method. */
void records_describe_bad(FILE *f, const char *who, const char *method, const uint32_t *in, size_t record_bytes,
                          uint32_t key_bits, size_t n, size_t i, const uint32_t *ref_perm, const uint32_t *got);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_RECORDS_HOST_H */
