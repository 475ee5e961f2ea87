/* split_validate.h - argument validation shared by every entry point of the split library (internal).
 * Each check records a message naming the entry point and the offending field (SC_FAIL) and
 * returns SC_ERROR_INVALID_ARGUMENT or SC_ERROR_TEMP_STORAGE; callers validate everything before
 * launching anything, so a failed call writes nothing. Plain C, usable from .c and .cu files. */
#ifndef SPLIT_VALIDATE_H
#define SPLIT_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "split.h"
#include "split_rules.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum split_entry_kind {
    SPLIT_ENTRY_MULTISPLIT = 0, /* split_multisplit(_ref) */
    SPLIT_ENTRY_INDEX,          /* split_index(_ref): keys_out/values_out must be NULL */
    SPLIT_ENTRY_SEGMENTED       /* split_segmented(_ref): segment_offsets / num_segments checked */
} split_entry_kind;

/* What validation resolved from a split_desc. */
typedef struct split_checked {
    uint32_t n;           /* desc->n, known to fit */
    uint32_t num_buckets; /* resolved B (BITS with num_buckets 0 -> 2^bit_count) */
    uint32_t key_bytes;   /* 4 or 8 */
    uint32_t key_bits;    /* 32 or 64 */
} split_checked;

/* The BITS field's start bit as the bucket rules use it: 0 for an empty field (bit_count 0), whose
 * start may be the key's width (a shift by it would be undefined; the bucket is 0 either way). */
static inline uint32_t split_field_start(const split_buckets *b) { return b->bit_count ? b->start_bit : 0u; }

/* Resolved B of a bucket rule (no checks; 0 for an unknown rule). */
uint32_t split_resolved_buckets(const split_buckets *buckets);

/* Checks a split_desc for `kind`. check_pointers = 0 for a temp-size query (data pointers are not
 * looked at then), 1 for a real call (null pointers with n > 0, missing outputs, alignment, and no
 * written array overlapping another: temp's temp_bytes bytes among them, temp NULL for the
 * references). `entry` names the public function in the message. `out` may be NULL. */
sc_status split_validate_desc(const split_desc *desc, split_entry_kind kind, int check_pointers, const void *temp,
                              size_t temp_bytes, const char *entry, split_checked *out);

/* One array a call reads (written 0) or writes (written 1): bytes from ptr (NULL or 0 bytes: none). */
typedef struct split_span {
    const char *name;
    const void *ptr;
    uint64_t bytes;
    int written;
} split_span;

/* SC_ERROR_INVALID_ARGUMENT naming both arrays when a written span overlaps any other span (inputs may
 * overlap each other). */
sc_status split_validate_spans(const split_span *spans, int count, const char *entry);
/* temp_bytes must be non-NULL; temp (NULL: a size query) aligned to SPLIT_TEMP_ALIGNMENT bytes. */
sc_status split_validate_temp_arg(const void *temp, const size_t *temp_bytes, const char *entry);
/* Records of record_bytes: a multiple of 4, at least 4, below 2^32, and n of them addressable (split_sort's
 * records and split_gather / split_scatter). */
sc_status split_validate_record_size(size_t n, size_t record_bytes, const char *entry);
/* References only (the table is host memory there): a BOUNDARIES table of num_buckets - 1 keys is sorted
 * ascending; OK for the other rules. */
sc_status split_validate_boundaries_sorted(const split_desc *desc, uint32_t num_buckets, const char *entry);
/* SC_ERROR_TEMP_STORAGE when given < required. */
sc_status split_validate_temp_size(size_t given, size_t required, const char *entry);

/* What validation resolved from a split_sort_desc. */
typedef struct split_sort_checked {
    uint32_t n;
    uint32_t key_bits;      /* 32, 64 or 96 */
    uint32_t key_bits_used; /* 1 .. key_bits */
    uint32_t passes;        /* ceil(key_bits_used / SPLIT_SORT_RADIX_BITS) */
} split_sort_checked;

/* The same for a split_sort_desc (the overlap check with temp as above). */
sc_status split_validate_sort_desc(const split_sort_desc *desc, int check_pointers, const void *temp,
                                   size_t temp_bytes, const char *entry, split_sort_checked *out);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_VALIDATE_H */
