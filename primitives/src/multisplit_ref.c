/* multisplit_ref.c - plain-C references of split / multisplit / split index and the host bucket rule.
 * A counting sort by bucket: count, exclusive scan, stable placement in input order. With
 * num_records_device (a host pointer here) only records [0, min(*num_records_device, n)) take part;
 * with bucket_counts (host) the caller's counts must equal the reference's own. */
#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "split.h"
#include "split_validate.h"

static uint64_t key_at(const split_desc *d, size_t i)
{
    if (d->key_type == SPLIT_KEY_U64) return ((const uint64_t *)d->keys_in)[i];
    return ((const uint32_t *)d->keys_in)[i];
}

static uint64_t boundary_at(const split_desc *d, uint32_t j)
{
    if (d->key_type == SPLIT_KEY_U64) return ((const uint64_t *)d->buckets.boundaries)[j];
    return ((const uint32_t *)d->buckets.boundaries)[j];
}

/* The bucket of record i; the caller has checked the arguments (bucket_problem). */
static uint32_t bucket_of(const split_desc *d, size_t i)
{
    const split_buckets *b = &d->buckets;
    uint32_t nb = split_resolved_buckets(b);
    SPLIT_STATIC_ASSERT(SPLIT_RULE_COUNT == 4, "bucket_of computes four rules: add the new rule's case");
    switch (b->rule) {
    case SPLIT_BUCKETS_BITS: {
        uint64_t mask = ((uint64_t)1 << b->bit_count) - 1;
        return (uint32_t)((key_at(d, i) >> split_field_start(b)) & mask);
    }
    case SPLIT_BUCKETS_IDS:
        return b->bucket_ids[i];
    case SPLIT_BUCKETS_RANGE: {
        uint64_t key = key_at(d, i);
        if (key < b->range_base) return 0;
        uint64_t q = (key - b->range_base) / b->range_delta;
        return q < nb - 1 ? (uint32_t)q : nb - 1;
    }
    case SPLIT_BUCKETS_BOUNDARIES: {
        uint64_t key = key_at(d, i);
        uint32_t lo = 0, hi = nb - 1; /* upper bound: entries <= key */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (boundary_at(d, mid) <= key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
    }
    return 0;
}

/* What makes split_bucket_of_ref(d, i) undefined, or NULL when it is defined. */
static const char *bucket_problem(const split_desc *d, size_t i)
{
    if (!d) return "desc is NULL";
    if (i >= d->n) return "record index is not below desc->n";
    const split_buckets *b = &d->buckets;
    if (d->key_type != SPLIT_KEY_U32 && d->key_type != SPLIT_KEY_U64) return "unknown key_type";
    const uint32_t key_bits = d->key_type == SPLIT_KEY_U64 ? 64u : 32u;
    if (b->rule == SPLIT_BUCKETS_IDS) return b->bucket_ids ? NULL : "buckets.bucket_ids is NULL (IDS rule)";
    if (!split_rule_known((int)b->rule)) return "unknown bucket rule";
    if (!d->keys_in) return "keys_in is NULL";
    const uint32_t nb = split_resolved_buckets(b);
    SPLIT_STATIC_ASSERT(SPLIT_RULE_COUNT == 4, "bucket_problem checks four rules: add the new rule's case");
    switch (b->rule) {
    case SPLIT_BUCKETS_BITS:
        if (b->bit_count > 32u || (uint64_t)b->start_bit + b->bit_count > key_bits)
            return "buckets.start_bit + bit_count is outside the key (or bit_count > 32)";
        return NULL;
    case SPLIT_BUCKETS_RANGE:
        if (nb == 0) return "buckets.num_buckets is 0";
        return b->range_delta ? NULL : "buckets.range_delta is 0 (RANGE rule)";
    case SPLIT_BUCKETS_BOUNDARIES:
        if (nb == 0) return "buckets.num_buckets is 0";
        return (nb > 1 && !b->boundaries) ? "buckets.boundaries is NULL (BOUNDARIES rule)" : NULL;
    case SPLIT_BUCKETS_IDS: break;  /* answered above */
    }
    return "unknown bucket rule";
}

uint32_t split_bucket_of_ref(const split_desc *d, size_t i)
{
    return bucket_problem(d, i) ? SPLIT_NO_BUCKET : bucket_of(d, i);
}

sc_status split_bucket_of_ref_checked(const split_desc *d, size_t i, uint32_t *bucket)
{
    if (!bucket) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split_bucket_of_ref_checked: bucket is NULL");
    const char *problem = bucket_problem(d, i);
    if (problem)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split_bucket_of_ref_checked: %s (record %zu of %zu)", problem, i,
                       d ? d->n : (size_t)0);
    uint32_t v = bucket_of(d, i), nb = split_resolved_buckets(&d->buckets);
    if (v >= nb)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split_bucket_of_ref_checked: bucket_ids[%zu] = %u is not below %u", i,
                       v, nb);
    *bucket = v;
    return SC_OK;
}

static sc_status multisplit_ref(const split_desc *d, split_entry_kind kind, const char *entry)
{
    split_checked c;
    SC_TRY(split_validate_desc(d, kind, 1, NULL, 0, entry, &c));
    SC_TRY(split_validate_boundaries_sorted(d, c.num_buckets, entry));
    size_t n = c.n;
    if (d->num_records_device != NULL && *d->num_records_device < n) n = *d->num_records_device;
    uint32_t nb = c.num_buckets;
    uint32_t *bucket = n ? malloc(n * sizeof *bucket) : NULL;
    uint64_t *start = calloc((size_t)nb + 1, sizeof *start);
    if ((n && !bucket) || !start) {
        free(bucket);
        free(start);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: host allocation of %zu bucket ids failed", entry, n);
    }
    for (size_t i = 0; i < n; ++i) {
        bucket[i] = bucket_of(d, i); /* arguments validated above */
        if (bucket[i] >= nb) {
            uint32_t bad = bucket[i];
            free(bucket);
            free(start);
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: bucket_ids[%zu] = %u is not below num_buckets = %u", entry,
                           i, bad, nb);
        }
        ++start[bucket[i] + 1];
    }
    if (d->bucket_counts != NULL) {
        for (uint32_t b = 0; b < nb; ++b) {
            if ((uint64_t)d->bucket_counts[b] != start[b + 1]) {
                uint32_t given = d->bucket_counts[b];
                uint64_t own = start[b + 1];
                free(bucket);
                free(start);
                return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                               "%s: bucket_counts[%u] = %u differs from the %llu records of bucket %u", entry, b,
                               given, (unsigned long long)own, b);
            }
        }
    }
    for (uint32_t b = 0; b < nb; ++b) start[b + 1] += start[b];
    if (d->bucket_offsets)
        for (uint32_t b = 0; b <= nb; ++b) d->bucket_offsets[b] = (uint32_t)start[b];
    for (size_t i = 0; i < n; ++i) {
        size_t dst = (size_t)start[bucket[i]]++;
        if (d->keys_out) {
            if (d->key_type == SPLIT_KEY_U64) ((uint64_t *)d->keys_out)[dst] = ((const uint64_t *)d->keys_in)[i];
            else ((uint32_t *)d->keys_out)[dst] = ((const uint32_t *)d->keys_in)[i];
        }
        if (d->values_out) d->values_out[dst] = d->values_in[i];
        if (d->gather_index) d->gather_index[dst] = (uint32_t)i;
        if (d->scatter_index) d->scatter_index[i] = (uint32_t)dst;
    }
    free(bucket);
    free(start);
    return SC_OK;
}

sc_status split_multisplit_ref(const split_desc *desc)
{
    return multisplit_ref(desc, SPLIT_ENTRY_MULTISPLIT, "split_multisplit_ref");
}

sc_status split_index_ref(const split_desc *desc)
{
    return multisplit_ref(desc, SPLIT_ENTRY_INDEX, "split_index_ref");
}
