/* split_validate.c - argument validation shared by every split entry point. */
#include "split_validate.h"

#include "sc_report.h"
#include "split_tuning.h"

/* Every message starts with the entry point's name, passed as the first format argument. */
#define SPLIT_BAD(entry, ...) sc_report(SC_ERROR_INVALID_ARGUMENT, __FILE__, __LINE__, __VA_ARGS__)

_Static_assert((1u << SPLIT_MAX_BITS) == SPLIT_MAX_BUCKETS, "SPLIT_MAX_BITS is log2 SPLIT_MAX_BUCKETS");
_Static_assert((int)SPLIT_TEMP_ALIGN == (int)SPLIT_TEMP_ALIGNMENT, "the carving alignment is the public one");

/* A non-NULL pointer that is not a multiple of `align` bytes: the message names the field. */
static sc_status check_aligned(const void *ptr, uint32_t align, const char *entry, const char *field)
{
    if (ptr != NULL && (uintptr_t)ptr % align != 0)
        return SPLIT_BAD(entry, "%s: %s (%p) is not aligned to %u bytes", entry, field, ptr, align);
    return SC_OK;
}

/* The keys (to key_align bytes) and the 32-bit values, in and out: what split_desc and split_sort_desc
 * share. */
static sc_status check_keys_values_aligned(const void *keys_in, const void *keys_out, uint32_t key_align,
                                           const uint32_t *values_in, const uint32_t *values_out, const char *entry)
{
    SC_TRY(check_aligned(keys_in, key_align, entry, "keys_in"));
    SC_TRY(check_aligned(keys_out, key_align, entry, "keys_out"));
    SC_TRY(check_aligned(values_in, 4, entry, "values_in"));
    return check_aligned(values_out, 4, entry, "values_out");
}

uint32_t split_resolved_buckets(const split_buckets *b)
{
    if (b->rule == SPLIT_BUCKETS_BITS && b->num_buckets == 0)
        return b->bit_count <= (uint32_t)SPLIT_WIDE_MAX_BITS ? (uint32_t)1u << b->bit_count : 0;
    return b->num_buckets;
}

/* wide: the entry accepts B up to SPLIT_MAX_WIDE_BUCKETS (unstable multisplit / split index);
 * wide_kind: the entry could with desc->unstable (the messages then say so). */
static sc_status check_rule(const split_desc *d, uint32_t key_bits, int check_pointers, const char *entry, int wide,
                            int wide_kind, uint32_t *num_buckets)
{
    const split_buckets *b = &d->buckets;
    if (!split_rule_known((int)b->rule))
        return SPLIT_BAD(entry, "%s: buckets.rule = %d is not a split_bucket_rule", entry, (int)b->rule);
    SPLIT_STATIC_ASSERT(SPLIT_RULE_COUNT == 4, "check_rule checks four rules: add the new rule's case");
    switch (b->rule) {
    case SPLIT_BUCKETS_BITS:
        if (wide && b->bit_count > (uint32_t)SPLIT_WIDE_MAX_BITS)
            return SPLIT_BAD(entry, "%s: buckets.bit_count = %u is out of range (0 .. %d)", entry, b->bit_count,
                             SPLIT_WIDE_MAX_BITS);
        if (!wide && wide_kind && b->bit_count > SPLIT_MAX_BITS && b->bit_count <= (uint32_t)SPLIT_WIDE_MAX_BITS)
            return SPLIT_BAD(entry, "%s: buckets.bit_count = %u is out of range (0 .. %d) for a stable split; set "
                                    "desc->unstable for up to %d bits", entry, b->bit_count, SPLIT_MAX_BITS,
                             SPLIT_WIDE_MAX_BITS);
        if (!wide && b->bit_count > SPLIT_MAX_BITS)
            return SPLIT_BAD(entry, "%s: buckets.bit_count = %u is out of range (0 .. %d)", entry, b->bit_count,
                             SPLIT_MAX_BITS);
        if ((uint64_t)b->start_bit + b->bit_count > key_bits)
            return SPLIT_BAD(entry, "%s: bit field [%u, %u) lies outside the %u-bit key", entry, b->start_bit,
                             b->start_bit + b->bit_count, key_bits);
        if (b->num_buckets != 0 && b->num_buckets < (1u << b->bit_count))
            return SPLIT_BAD(entry, "%s: buckets.num_buckets = %u is less than 2^bit_count = %u", entry,
                             b->num_buckets, 1u << b->bit_count);
        break;
    case SPLIT_BUCKETS_IDS:
        if (check_pointers && d->n > 0 && b->bucket_ids == NULL)
            return SPLIT_BAD(entry, "%s: buckets.bucket_ids is NULL with n = %zu (IDS rule)", entry, d->n);
        break;
    case SPLIT_BUCKETS_RANGE:
        if (b->range_delta == 0) return SPLIT_BAD(entry, "%s: buckets.range_delta is 0 (RANGE rule)", entry);
        break;
    case SPLIT_BUCKETS_BOUNDARIES:
        break;
    }
    uint32_t nb = split_resolved_buckets(b);
    if (wide && (nb < 1 || nb > (uint32_t)SPLIT_MAX_WIDE_BUCKETS))
        return SPLIT_BAD(entry, "%s: number of buckets %u is out of range (1 .. %d)", entry, nb,
                         SPLIT_MAX_WIDE_BUCKETS);
    if (!wide && wide_kind && nb > SPLIT_MAX_BUCKETS && nb <= (uint32_t)SPLIT_MAX_WIDE_BUCKETS)
        return SPLIT_BAD(entry, "%s: number of buckets %u is out of range (1 .. %d) for a stable split; set "
                                "desc->unstable for up to %d buckets", entry, nb, SPLIT_MAX_BUCKETS,
                         SPLIT_MAX_WIDE_BUCKETS);
    if (!wide && (nb < 1 || nb > SPLIT_MAX_BUCKETS))
        return SPLIT_BAD(entry, "%s: number of buckets %u is out of range (1 .. %d)", entry, nb, SPLIT_MAX_BUCKETS);
    if (b->rule == SPLIT_BUCKETS_BOUNDARIES && check_pointers && nb > 1 && b->boundaries == NULL)
        return SPLIT_BAD(entry, "%s: buckets.boundaries is NULL with %u buckets (BOUNDARIES rule)", entry, nb);
    *num_buckets = nb;
    return SC_OK;
}

/* ---- overlap of the arrays a call reads and writes ---- */

sc_status split_validate_spans(const split_span *spans, int count, const char *entry)
{
    for (int i = 0; i < count; ++i) {
        const split_span *a = &spans[i];
        if (a->ptr == NULL || a->bytes == 0) continue;
        const uint64_t alo = (uintptr_t)a->ptr, ahi = alo + a->bytes < alo ? UINT64_MAX : alo + a->bytes;
        for (int j = i + 1; j < count; ++j) {
            const split_span *b = &spans[j];
            if (b->ptr == NULL || b->bytes == 0 || (!a->written && !b->written)) continue;
            const uint64_t blo = (uintptr_t)b->ptr, bhi = blo + b->bytes < blo ? UINT64_MAX : blo + b->bytes;
            if (alo < bhi && blo < ahi)
                return SPLIT_BAD(entry, "%s: %s [%p, +%llu bytes) overlaps %s [%p, +%llu bytes); no output may overlap "
                                        "an input, another output or temp", entry, a->name, a->ptr,
                                 (unsigned long long)a->bytes, b->name, b->ptr, (unsigned long long)b->bytes);
        }
    }
    return SC_OK;
}

/* The arrays of a split_desc call that passed the other checks, at the sizes the call uses. */
static sc_status check_desc_overlap(const split_desc *d, split_entry_kind kind, uint32_t num_buckets, const void *temp,
                                   size_t temp_bytes, const char *entry)
{
    const uint64_t n = d->n, kb = d->key_type == SPLIT_KEY_U64 ? 8 : 4, nb = num_buckets;
    const uint64_t segments = kind == SPLIT_ENTRY_SEGMENTED ? d->num_segments : 1;
    const split_buckets *b = &d->buckets;
    const split_span spans[] = {
        {"keys_in", d->keys_in, n * kb, 0},
        {"values_in", d->values_in, n * 4, 0},
        {"buckets.bucket_ids", b->rule == SPLIT_BUCKETS_IDS ? b->bucket_ids : NULL, n * 4, 0},
        {"buckets.boundaries", b->rule == SPLIT_BUCKETS_BOUNDARIES ? b->boundaries : NULL, nb > 1 ? (nb - 1) * kb : 0, 0},
        {"segment_offsets", kind == SPLIT_ENTRY_SEGMENTED ? d->segment_offsets : NULL, (segments + 1) * 4, 0},
        {"num_records_device", d->num_records_device, 4, 0},
        {"bucket_counts", d->bucket_counts, nb * 4, 0},
        {"keys_out", d->keys_out, n * kb, 1},
        {"values_out", d->values_out, n * 4, 1},
        {"gather_index", d->gather_index, n * 4, 1},
        {"scatter_index", d->scatter_index, n * 4, 1},
        {"bucket_offsets", d->bucket_offsets, (segments * nb + 1) * 4, 1},
        {"temp", temp, temp_bytes, 1},
    };
    return split_validate_spans(spans, (int)(sizeof spans / sizeof spans[0]), entry);
}

/* The arrays of a split_sort_desc call that passed the other checks. */
static sc_status check_sort_overlap(const split_sort_desc *d, const void *temp, size_t temp_bytes, const char *entry)
{
    const uint64_t n = d->n, kb = (d->key_bits ? d->key_bits : 32) / 8, rb = d->record_bytes;
    const split_span spans[] = {
        {"keys_in", d->keys_in, n * kb, 0},
        {"values_in", d->values_in, n * 4, 0},
        {"records_in", d->records_in, n * rb, 0},
        {"keys_out", d->keys_out, n * kb, 1},
        {"values_out", d->values_out, n * 4, 1},
        {"records_out", d->records_out, n * rb, 1},
        {"temp", temp, temp_bytes, 1},
    };
    return split_validate_spans(spans, (int)(sizeof spans / sizeof spans[0]), entry);
}

sc_status split_validate_desc(const split_desc *d, split_entry_kind kind, int check_pointers, const void *temp,
                              size_t temp_bytes, const char *entry, split_checked *out)
{
    if (d == NULL) return SPLIT_BAD(entry, "%s: desc is NULL", entry);
    if (d->key_type != SPLIT_KEY_U32 && d->key_type != SPLIT_KEY_U64)
        return SPLIT_BAD(entry, "%s: key_type = %d is not a split_key_type", entry, (int)d->key_type);
    if ((uint64_t)d->n > UINT32_MAX)
        return SPLIT_BAD(entry, "%s: n = %zu records; at most 2^32 - 1 are supported", entry, d->n);
    uint32_t key_bits = d->key_type == SPLIT_KEY_U64 ? 64 : 32;
    uint32_t nb = 0;
    const int wide_kind = kind == SPLIT_ENTRY_MULTISPLIT || kind == SPLIT_ENTRY_INDEX;
    const int wide = wide_kind && d->unstable;
    SC_TRY(check_rule(d, key_bits, check_pointers, entry, wide, wide_kind, &nb));

    if (kind == SPLIT_ENTRY_SEGMENTED) {
        if (d->n > 0 && d->num_segments == 0)
            return SPLIT_BAD(entry, "%s: num_segments is 0 with n = %zu", entry, d->n);
        if ((uint64_t)d->num_segments > UINT32_MAX)
            return SPLIT_BAD(entry, "%s: num_segments = %zu is too large", entry, d->num_segments);
        if ((uint64_t)d->num_segments * nb >= UINT32_MAX)
            return SPLIT_BAD(entry, "%s: num_segments * B = %llu bucket offsets do not fit 32-bit indices", entry,
                             (unsigned long long)d->num_segments * nb);
        if (check_pointers && d->num_segments > 0 && d->segment_offsets == NULL)
            return SPLIT_BAD(entry, "%s: segment_offsets is NULL with num_segments = %zu", entry, d->num_segments);
    }
    if (kind != SPLIT_ENTRY_SEGMENTED && !wide && d->num_records_device != NULL)
        return SPLIT_BAD(entry, "%s: num_records_device is supported by the segmented split and the unstable "
                                "multisplit only (desc->unstable is 0)", entry);
    if (!wide && d->bucket_counts != NULL)
        return SPLIT_BAD(entry, "%s: bucket_counts is supported by the unstable multisplit only%s", entry,
                         wide_kind ? " (desc->unstable is 0)" : "");
    if (kind == SPLIT_ENTRY_INDEX && (d->keys_out != NULL || d->values_out != NULL))
        return SPLIT_BAD(entry, "%s: keys_out and values_out must be NULL (split index returns indices only)", entry);

    if (check_pointers) {
        int any_out = d->keys_out || d->values_out || d->gather_index || d->scatter_index || d->bucket_offsets;
        if (kind == SPLIT_ENTRY_INDEX && !d->gather_index && !d->scatter_index)
            return SPLIT_BAD(entry, "%s: neither gather_index nor scatter_index is requested", entry);
        if (!any_out)
            return SPLIT_BAD(entry, "%s: no output requested (keys_out, values_out, gather_index, scatter_index, "
                                    "bucket_offsets are all NULL)", entry);
        if ((d->values_in == NULL) != (d->values_out == NULL))
            return SPLIT_BAD(entry, "%s: values_in and values_out must be both set or both NULL", entry);
        if (d->n > 0) {
            int keys_needed = d->buckets.rule != SPLIT_BUCKETS_IDS || d->keys_out != NULL;
            if (keys_needed && d->keys_in == NULL)
                return SPLIT_BAD(entry, "%s: keys_in is NULL with n = %zu", entry, d->n);
        }
        const uint32_t kbytes = key_bits / 8;
        SC_TRY(check_keys_values_aligned(d->keys_in, d->keys_out, kbytes, d->values_in, d->values_out, entry));
        SC_TRY(check_aligned(d->bucket_offsets, 4, entry, "bucket_offsets"));
        SC_TRY(check_aligned(d->gather_index, 4, entry, "gather_index"));
        SC_TRY(check_aligned(d->scatter_index, 4, entry, "scatter_index"));
        SC_TRY(check_aligned(d->segment_offsets, 4, entry, "segment_offsets"));
        SC_TRY(check_aligned(d->num_records_device, 4, entry, "num_records_device"));
        SC_TRY(check_aligned(d->bucket_counts, 4, entry, "bucket_counts"));
        if (d->buckets.rule == SPLIT_BUCKETS_IDS)
            SC_TRY(check_aligned(d->buckets.bucket_ids, 4, entry, "buckets.bucket_ids"));
        if (d->buckets.rule == SPLIT_BUCKETS_BOUNDARIES)
            SC_TRY(check_aligned(d->buckets.boundaries, kbytes, entry, "buckets.boundaries"));
        SC_TRY(check_desc_overlap(d, kind, nb, temp, temp_bytes, entry));
    }
    if (out) {
        out->n = (uint32_t)d->n;
        out->num_buckets = nb;
        out->key_bits = key_bits;
        out->key_bytes = key_bits / 8;
    }
    return SC_OK;
}

sc_status split_validate_temp_arg(const void *temp, const size_t *temp_bytes, const char *entry)
{
    if (temp_bytes == NULL) return SPLIT_BAD(entry, "%s: temp_bytes is NULL", entry);
    return check_aligned(temp, SPLIT_TEMP_ALIGNMENT, entry, "temp");
}

sc_status split_validate_record_size(size_t n, size_t record_bytes, const char *entry)
{
    if (record_bytes < 4 || record_bytes % 4 != 0 || (uint64_t)record_bytes >= ((uint64_t)1 << 32))
        return SPLIT_BAD(entry, "%s: record_bytes = %zu must be a multiple of 4, at least 4 and below 2^32", entry,
                         record_bytes);
    if (n > 0 && (uint64_t)n * record_bytes / record_bytes != n)
        return SPLIT_BAD(entry, "%s: n * record_bytes overflows", entry);
    return SC_OK;
}

sc_status split_validate_boundaries_sorted(const split_desc *d, uint32_t num_buckets, const char *entry)
{
    if (d->buckets.rule != SPLIT_BUCKETS_BOUNDARIES) return SC_OK;
    const uint32_t *b32 = (const uint32_t *)d->buckets.boundaries;
    const uint64_t *b64 = (const uint64_t *)d->buckets.boundaries;
    const int u64 = d->key_type == SPLIT_KEY_U64;
    for (uint32_t j = 1; j + 1 < num_buckets; ++j)
        if (u64 ? b64[j] < b64[j - 1] : b32[j] < b32[j - 1])
            return SPLIT_BAD(entry, "%s: buckets.boundaries[%u] is below boundaries[%u] (the table must be sorted "
                                    "ascending)", entry, j, j - 1);
    return SC_OK;
}

sc_status split_validate_temp_size(size_t given, size_t required, const char *entry)
{
    if (given < required)
        return SC_FAIL(SC_ERROR_TEMP_STORAGE, "%s: temporary storage of %zu bytes is smaller than the %zu bytes needed",
                       entry, given, required);
    return SC_OK;
}

sc_status split_validate_sort_desc(const split_sort_desc *d, int check_pointers, const void *temp, size_t temp_bytes,
                                   const char *entry, split_sort_checked *out)
{
    if (d == NULL) return SPLIT_BAD(entry, "%s: desc is NULL", entry);
    uint32_t kb = d->key_bits ? d->key_bits : 32;
    if (kb != 32 && kb != 64 && kb != 96)
        return SPLIT_BAD(entry, "%s: key_bits = %u; 32, 64 or 96 are supported", entry, d->key_bits);
    if (d->key_bits_used > kb)
        return SPLIT_BAD(entry, "%s: key_bits_used = %u exceeds key_bits = %u", entry, d->key_bits_used, kb);
    if ((uint64_t)d->n > UINT32_MAX)
        return SPLIT_BAD(entry, "%s: n = %zu records; at most 2^32 - 1 are supported", entry, d->n);
    int records = d->records_in != NULL || d->records_out != NULL || d->record_bytes != 0;
    if (records) SC_TRY(split_validate_record_size(d->n, d->record_bytes, entry));
    if (check_pointers) {
        if (d->n > 0 && (d->keys_in == NULL || d->keys_out == NULL))
            return SPLIT_BAD(entry, "%s: keys_in or keys_out is NULL with n = %zu", entry, d->n);
        if ((d->values_in == NULL) != (d->values_out == NULL))
            return SPLIT_BAD(entry, "%s: values_in and values_out must be both set or both NULL", entry);
        if (records && (d->records_in == NULL || d->records_out == NULL))
            return SPLIT_BAD(entry, "%s: records_in and records_out must be both set with record_bytes = %zu", entry,
                             d->record_bytes);
        const uint32_t kalign = kb == 64 ? 8u : 4u; /* 96-bit keys are three 32-bit words */
        SC_TRY(check_keys_values_aligned(d->keys_in, d->keys_out, kalign, d->values_in, d->values_out, entry));
        SC_TRY(check_aligned(d->records_in, 4, entry, "records_in"));
        SC_TRY(check_aligned(d->records_out, 4, entry, "records_out"));
        SC_TRY(check_sort_overlap(d, temp, temp_bytes, entry));
    }
    if (out) {
        out->n = (uint32_t)d->n;
        out->key_bits = kb;
        out->key_bits_used = d->key_bits_used ? d->key_bits_used : kb;
        out->passes = (out->key_bits_used + SPLIT_SORT_RADIX_BITS - 1) / SPLIT_SORT_RADIX_BITS;
    }
    return SC_OK;
}
