/* split_rules.c - a descriptor's bucket rule -> its parameters (split_rules.h). */
#include "split_rules.h"

#include <string.h>

#include "sc_report.h"

void split_rule_params_bits(uint32_t start_bit, uint32_t bit_count, uint32_t num_buckets, split_rule_params *out)
{
    memset(out, 0, sizeof *out);
    out->num_buckets = num_buckets;
    out->start_bit = bit_count ? start_bit : 0u;
    out->bit_mask = ((uint64_t)1 << bit_count) - 1;
}

sc_status split_rule_params_of(const split_buckets *b, uint32_t num_buckets, split_rule_params *out)
{
    SPLIT_STATIC_ASSERT(SPLIT_RULE_COUNT == 4, "split_rule_params_of maps four rules: add the new rule's case");
    memset(out, 0, sizeof *out);
    out->num_buckets = num_buckets;
    switch (b->rule) {
    case SPLIT_BUCKETS_BITS: split_rule_params_bits(b->start_bit, b->bit_count, num_buckets, out); return SC_OK;
    case SPLIT_BUCKETS_IDS: out->bucket_ids = b->bucket_ids; return SC_OK;
    case SPLIT_BUCKETS_RANGE:
        out->range_base = b->range_base;
        out->range_delta = b->range_delta;
        out->range_magic = split_range_magic(b->range_delta);
        return SC_OK;
    case SPLIT_BUCKETS_BOUNDARIES: out->boundaries = b->boundaries; return SC_OK;
    }
    return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split: buckets.rule = %d is not a split_bucket_rule", (int)b->rule);
}
