/* split_rules.h - the bucket rules' parameters (internal; plain C, usable from .c and .cu files).
 * split_rule_params_of() is the one place that turns a descriptor's split_buckets into the
 * parameters every kernel and reference reads; the device side of each rule is split_bucket()
 * (split_bucket.cuh) and the host side bucket_of() (multisplit_ref.c).
 *
 * Adding a bucket rule touches six files: its enumerator, fields and SPLIT_RULE_COUNT in split.h; its
 * case in split_rule_params_of() (split_rules.c); in split_with_rule() and split_bucket()
 * (split_bucket.cuh); in the segmented split's runtime bucket_of() (segmented_params.cuh); in the
 * validation (split_validate.c); in the reference (multisplit_ref.c). Every switch over the rules
 * asserts SPLIT_RULE_COUNT at compile time, so a rule added to split.h and missed in one of them does
 * not build; the host switches have no default (-Wswitch names a rule they miss, and a value outside
 * the enumeration leaves them and is reported as an error). */
#ifndef SPLIT_RULES_H
#define SPLIT_RULES_H

#include <stdint.h>

#include "sc_status.h"
#include "split.h"

#ifdef __cplusplus
#define SPLIT_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
extern "C" {
#else
#define SPLIT_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* Nonzero for a rule of split_bucket_rule. */
static inline int split_rule_known(int rule) { return rule >= 0 && rule < (int)SPLIT_RULE_COUNT; }

/* A rule's parameters, plain data passed by value to kernels; only the rule's own fields are set. */
typedef struct split_rule_params {
    uint32_t num_buckets;       /* B, resolved */
    uint32_t start_bit;         /* BITS */
    uint64_t bit_mask;          /* BITS: 2^bit_count - 1 */
    const uint32_t *bucket_ids; /* IDS: n entries (an id >= B is taken as B - 1 on the device) */
    uint64_t range_base;        /* RANGE */
    uint64_t range_delta;       /* RANGE, > 0 */
    uint64_t range_magic;       /* RANGE: ceil(2^64 / delta) for 2 <= delta <= 2^32, else 0 (split_range_magic) */
    const void *boundaries;     /* BOUNDARIES: B - 1 sorted keys of the key type (device) */
} split_rule_params;

/* split_rule_params.range_magic of a RANGE delta (host and device). */
static inline uint64_t split_range_magic(uint64_t delta)
{
    return delta >= 2 && delta <= ((uint64_t)1 << 32) ? UINT64_MAX / delta + 1 : 0;
}

/* The BITS rule's parameters for the field [start_bit, start_bit + bit_count) and B buckets (an empty
 * field starts at bit 0: its start may be the key's width, a shift by which is undefined). */
void split_rule_params_bits(uint32_t start_bit, uint32_t bit_count, uint32_t num_buckets, split_rule_params *out);

/* The parameters of a validated rule with num_buckets (resolved) buckets. An unknown rule is
 * SC_ERROR_INVALID_ARGUMENT with a message (and *out is zeroed). */
sc_status split_rule_params_of(const split_buckets *buckets, uint32_t num_buckets, split_rule_params *out);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_RULES_H */
