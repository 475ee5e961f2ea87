/* join_host.h - the host side of `split-demo join` (demo_join.cu) that needs no CUDA, shared with its
 * CPU test (tests/demo/test_join_ref.c):
 *   - the relations R and S, each tuple a 32-bit key and a 32-bit payload, as pure functions of the
 *     tuple's index (inline, and __host__ __device__ under nvcc, so the device generates the same
 *     tuples):
 *       R: D = ceil(|R| / dup) distinct keys; tuple i has key index u = i % D, key
 *          join_key_present(u) = perm(2u), payload i. perm is a seeded bijection of the 32-bit
 *          integers (an xor, murmur3's finaliser, an add), so the keys are distinct, look uniform in
 *          every bit, and each key index appears dup times (ceil/floor when dup does not divide |R|).
 *       S: tuple j has payload j; a 64-bit hash h of (seed, j) decides: its low 32 bits below
 *          match_threshold = round(F * 2^32) (F the --match fraction) make j a matching tuple, whose
 *          key is join_key_present(u) with u uniform in [0, D) (the high 32 bits of h times D, shifted
 *          down 32) or, with Zipf skew, u = the Zipf rank drawn from the high 32 bits by the CDF
 *          table (rank 0, the hottest key, is key index 0). Otherwise (or when D = 0) the key is
 *          perm(2v + 1) for a 31-bit v from a further hash: an odd preimage, never an R key.
 *     The Zipf CDF table (join_zipf_table, host, doubles) is built once and used by binary search
 *     with 32-bit integers only, on the host and (copied) on the device: identical draws;
 *   - the order-independent checksum of a join's output: the number of pairs and the sum (mod 2^64)
 *     of a 64-bit mix of each pair (key, r_payload, s_payload); payloads are tuple indices, so every
 *     pair is distinct and a dropped, duplicated or altered pair changes the sum;
 *   - the radix-partitioned hash join's shared parts: the partition count (join_partition_bits), the
 *     split descriptors that partition a relation in one or two passes (join_partition_plan: the
 *     device and the CPU version call split_multisplit or its reference with them), the partition
 *     offsets' binary search and the hash-table slot of a key;
 *   - the CPU joins: the plain hash join (chained table; the reference and the CPU timing), the
 *     radix-partitioned hash join built from split_multisplit_ref with a chunked build/probe of each
 *     partition exactly as the GPU kernel does it (a small chunk capacity makes chunking happen), and
 *     the sort-merge join built from split_sort_ref with the binary searches the GPU uses.
 * Plain C; usable from .c and .cu files alike. */
#ifndef SPLIT_DEMO_JOIN_HOST_H
#define SPLIT_DEMO_JOIN_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "split.h"

#ifdef __CUDACC__
#define JOIN_HD __host__ __device__
#else
#define JOIN_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum {
    JOIN_MAX_LOG2_TUPLES = 26,      /* |R|, |S| <= 2^26 */
    JOIN_MAX_DUP = 1024,            /* --r-dup K <= 1024 */
    JOIN_MAX_PART_BITS = 24,        /* the split library's widest unstable BITS field */
    JOIN_ONE_LEVEL_MAX_BITS = 8,    /* above: two passes of at most 2^11 buckets (join_partition_plan) */
    JOIN_TWO_LEVEL_MAX_BITS = 22,   /* two passes of at most 11 bits each */
    JOIN_GPU_CHUNK = 2048,          /* R tuples in one shared-memory hash table of the GPU kernel */
    JOIN_GPU_SLOT_BITS = 11,        /* its 2^11 chain heads */
    JOIN_GPU_R_PER_PART = 1024,     /* target average R tuples per partition (half a chunk) */
    JOIN_GPU_S_PER_PART = 4096      /* target average S tuples per partition (parallelism for small R) */
};
#define JOIN_NONE 0xFFFFFFFFu /* an empty chain, an absent key index */

/* What generates R and S (see the file head). */
typedef struct join_gen {
    uint64_t seed;
    uint64_t nr, ns;          /* |R|, |S| */
    uint32_t dup;             /* each R key's copies, >= 1 */
    uint32_t distinct;        /* D = ceil(nr / dup); 0 when nr == 0 */
    uint64_t match_threshold; /* 0 .. 2^32: S tuple j matches when its 32-bit hash is below it */
    int zipf;                 /* nonzero: matching S keys drawn by Zipf rank from the CDF table */
} join_gen;

/* ---- generation (pure functions of the index) ------------------------------------------------ */

JOIN_HD static inline uint64_t join_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A seeded bijection of the 32-bit integers. */
JOIN_HD static inline uint32_t join_perm32(uint32_t x, uint64_t seed)
{
    x ^= (uint32_t)seed;
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    return x + (uint32_t)(seed >> 32);
}

/* The key of R key index u (u < 2^31): an even preimage. */
JOIN_HD static inline uint32_t join_key_present(const join_gen *g, uint32_t u)
{
    return join_perm32(2u * u, g->seed);
}

JOIN_HD static inline uint32_t join_r_key(const join_gen *g, uint64_t i)
{
    return join_key_present(g, (uint32_t)(i % g->distinct));
}

JOIN_HD static inline uint32_t join_r_payload(uint64_t i)
{
    return (uint32_t)i;
}

/* The Zipf rank of a 32-bit uniform x: the number of the D - 1 table entries <= x (0 .. D-1). */
JOIN_HD static inline uint32_t join_zipf_rank(const uint32_t *cdf, uint32_t distinct, uint32_t x)
{
    uint32_t lo = 0, hi = distinct ? distinct - 1 : 0;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

JOIN_HD static inline uint64_t join_s_hash(const join_gen *g, uint64_t j)
{
    return join_mix64(g->seed ^ join_mix64(j + 0x9E3779B97F4A7C15ull));
}

/* The R key index S tuple j refers to, or JOIN_NONE when its key is absent from R. cdf: the Zipf
 * table (read only when g->zipf). */
JOIN_HD static inline uint32_t join_s_key_index(const join_gen *g, const uint32_t *cdf, uint64_t j)
{
    const uint64_t h = join_s_hash(g, j);
    if (g->distinct == 0 || (h & 0xFFFFFFFFull) >= g->match_threshold) return JOIN_NONE;
    const uint32_t x = (uint32_t)(h >> 32);
    return g->zipf ? join_zipf_rank(cdf, g->distinct, x) : (uint32_t)(((uint64_t)x * g->distinct) >> 32);
}

JOIN_HD static inline uint32_t join_s_key(const join_gen *g, const uint32_t *cdf, uint64_t j)
{
    const uint32_t u = join_s_key_index(g, cdf, j);
    if (u != JOIN_NONE) return join_key_present(g, u);
    const uint32_t v = (uint32_t)(join_mix64(join_s_hash(g, j) ^ 0xA5A5A5A5ull) >> 33); /* 31 bits */
    return join_perm32(2u * v + 1u, g->seed);
}

JOIN_HD static inline uint32_t join_s_payload(uint64_t j)
{
    return (uint32_t)j;
}

/* ---- checksum ------------------------------------------------------------------------------- */

JOIN_HD static inline uint64_t join_pair_hash(uint32_t key, uint32_t r_payload, uint32_t s_payload)
{
    return join_mix64(((uint64_t)r_payload << 32 | s_payload) ^ join_mix64((uint64_t)key + 0x632BE59BD9B4E019ull));
}

typedef struct join_sum {
    uint64_t count; /* output pairs */
    uint64_t sum;   /* sum of join_pair_hash over them, mod 2^64 */
} join_sum;

/* ---- the shared parts of the joins ---------------------------------------------------------- */

/* First position in sorted keys[0 .. n) whose key is >= key (lower) or > key (upper). */
JOIN_HD static inline uint32_t join_lower_bound(const uint32_t *keys, uint32_t n, uint32_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

JOIN_HD static inline uint32_t join_upper_bound(const uint32_t *keys, uint32_t n, uint32_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (keys[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The chain head of a key in a table of 2^slot_bits heads (1 .. 31 bits): the high bits of a
 * multiplicative hash, which depend on the key's high bits too (the low bits are the partition's). */
JOIN_HD static inline uint32_t join_slot(uint32_t key, uint32_t slot_bits)
{
    return (key * 0x9E3779B1u) >> (32u - slot_bits);
}

/* The partition bits of the radix-partitioned hash join: the smallest b in 1 .. JOIN_MAX_PART_BITS
 * with an average R partition of at most r_per_part tuples and an average S partition of at most
 * s_per_part tuples (both > 0). */
uint32_t join_partition_bits(uint64_t nr, uint64_t ns, uint64_t r_per_part, uint64_t s_per_part);

/* How n tuples are partitioned by the low `bits` bits of their key (partition p = key & (2^bits - 1)),
 * payloads as values, with the 2^bits + 1 partition offsets; the GPU (split_multisplit) and the CPU
 * version (split_multisplit_ref) both use it.
 *   levels 1: one split_multisplit, BITS rule on bits [0, bits), unstable, its bucket offsets the
 *             partition offsets (above SPLIT_MAX_BUCKETS partitions: the wide path, one atomic
 *             cursor per partition);
 *   levels 2: two radix passes of at most 2^11 buckets, least significant first (the split
 *             library's small-B splits are its fastest): split_multisplit on bits [0, low)
 *             (unstable: only the grouping matters) into the tmp arrays, then a stable
 *             split_multisplit on bits [low, bits) into the output, which leaves the tuples sorted by
 *             their low `bits` bits; the partition offsets are then found by a binary search per
 *             partition (join_partition_start). low = bits / 2.
 * join_partition_levels gives the default: 1 up to JOIN_ONE_LEVEL_MAX_BITS bits, else 2. */
typedef struct join_partition_plan {
    uint32_t levels;         /* 1 or 2 */
    uint32_t bits;
    size_t n;
    split_desc first;        /* split_multisplit: the partitions (levels 1) or the low part (levels 2) */
    split_desc second;       /* levels 2: stable split_multisplit by the high part */
    const uint32_t *keys_out;
    uint32_t *part_offsets;  /* 2^bits + 1 entries */
} join_partition_plan;

uint32_t join_partition_levels(uint32_t bits);

/* The plan; keys_tmp and payloads_tmp (n entries) are used by levels 2 only (may be NULL for levels
 * 1). levels 2 needs bits - bits / 2 <= 11. */
join_partition_plan join_partition_plan_make(size_t n, uint32_t bits, uint32_t levels, const uint32_t *keys_in,
                                             const uint32_t *payloads_in, uint32_t *keys_tmp, uint32_t *payloads_tmp,
                                             uint32_t *keys_out, uint32_t *payloads_out, uint32_t *part_offsets);

/* The start of partition b (0 .. 2^bits) in n keys sorted by their bits under mask: the first
 * position whose (key & mask) >= b (n for b = 2^bits). */
JOIN_HD static inline uint32_t join_partition_start(const uint32_t *sorted, uint32_t n, uint32_t mask, uint32_t b)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if ((sorted[mid] & mask) < b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- host generation -------------------------------------------------------------------------- */

/* Fills *g from the options; match in [0, 1]. */
void join_gen_init(join_gen *g, uint64_t seed, uint64_t nr, uint64_t ns, uint32_t dup, double match, int zipf);

/* The Zipf CDF table for D = g->distinct ranks (D - 1 entries; P(rank k) proportional to
 * (k + 1)^-theta): entry k is round(2^32 * P(rank <= k)), at most 2^32 - 1. Returns the table
 * (malloc'ed, free with free(); one entry when D <= 1) or NULL when the allocation fails. */
uint32_t *join_zipf_table(uint32_t distinct, double theta);

/* The n tuples of R (or S) into key[] and payload[]. */
void join_generate_r(const join_gen *g, uint32_t *key, uint32_t *payload);
void join_generate_s(const join_gen *g, const uint32_t *cdf, uint32_t *key, uint32_t *payload);

/* The exact output size from the generator alone: the sum over matching S tuples of the copies of
 * their key index in R (floor(nr / D), one more for u < nr % D). */
uint64_t join_expected_pairs(const join_gen *g, const uint32_t *cdf);

/* ---- output pairs and the checksum ----------------------------------------------------------- */

/* Where a CPU join writes its pairs (optional): three arrays of cap entries. Pairs past cap are
 * counted in *sum but not stored; n is the number stored. */
typedef struct join_pairs {
    uint32_t *key, *r_payload, *s_payload;
    size_t cap, n;
} join_pairs;

/* The checksum of n output pairs given as three arrays. */
join_sum join_checksum(const uint32_t *key, const uint32_t *r_payload, const uint32_t *s_payload, size_t n);

/* ---- the CPU joins: R (nr tuples) joined with S (ns tuples) on key ---------------------------- */

typedef struct join_rel {
    const uint32_t *key, *payload;
    size_t n;
} join_rel;

/* The plain hash join: a chained table of R (2^k heads, k the smallest with 2^k >= 2 * nr), probed
 * by each S tuple in order. *sum gets the checksum; out (may be NULL) the pairs. Returns 0, or -1
 * when a host allocation fails. */
int join_cpu_hash(const join_rel *r, const join_rel *s, join_sum *sum, join_pairs *out);

/* The radix-partitioned hash join as the GPU runs it: R and S partitioned by split_multisplit_ref
 * with join_partition_plan (`bits` bits, `levels` passes), then per partition: R in chunks of `chunk` tuples, each
 * loaded into a chained table of 2^slot_bits heads (join_slot) and probed by the whole S partition.
 * Returns 0, -1 on a host allocation failure, or the split
 * reference's status. */
int join_cpu_partitioned(const join_rel *r, const join_rel *s, uint32_t bits, uint32_t levels, uint32_t chunk,
                         uint32_t slot_bits, join_sum *sum, join_pairs *out);

/* The sort-merge join as the GPU runs it: R and S sorted by split_sort_ref (32-bit keys, payloads
 * as values), then per sorted S tuple the run of its key in sorted R (join_lower_bound,
 * join_upper_bound). Returns 0, -1 on a host allocation failure, or the split reference's status. */
int join_cpu_sort_merge(const join_rel *r, const join_rel *s, join_sum *sum, join_pairs *out);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_JOIN_HOST_H */
