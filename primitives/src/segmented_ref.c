/* segmented_ref.c - split_segmented_ref: the plain-C reference of the segmented split. */
#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "split.h"
#include "split_validate.h"

sc_status split_segmented_ref(const split_desc *d)
{
    static const char who[] = "split_segmented_ref";
    split_checked c;
    SC_TRY(split_validate_desc(d, SPLIT_ENTRY_SEGMENTED, 1, NULL, 0, who, &c));
    const uint32_t nb = c.num_buckets;
    const uint32_t *off = d->segment_offsets;
    size_t S = d->num_segments, n = d->n;
    /* num_records_device is a host pointer here: records past the count are ignored and the
     * segment bounds clamped to it, as on the device. */
    const int counted = d->num_records_device != NULL;
    if (counted && *d->num_records_device < n) n = *d->num_records_device;
    if (S > 0) {
        if (off[0] != 0 || (counted ? off[S] < n : off[S] != n))
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: segment_offsets[0] = %u and "
                           "segment_offsets[%zu] = %u, must be 0 and %s %zu", who, off[0], S, off[S],
                           counted ? "at least the record count" : "n =", n);
        for (size_t s = 0; s < S; ++s)
            if (off[s + 1] < off[s])
                return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: segment_offsets decreases at %zu", who, s);
    }
    SC_TRY(split_validate_boundaries_sorted(d, nb, who));
    uint32_t *pos = (uint32_t *)malloc((size_t)nb * sizeof(uint32_t));
    uint32_t *bkt = (uint32_t *)malloc((n ? n : 1) * sizeof(uint32_t));
    if (!pos || !bkt) {
        free(pos);
        free(bkt);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: host allocation of %zu bytes failed", who,
                       (size_t)nb * 4 + n * 4);
    }
    size_t key_bytes = d->key_type == SPLIT_KEY_U32 ? 4 : 8;
    for (size_t i = 0; i < n; ++i) {
        bkt[i] = split_bucket_of_ref(d, i);
        if (bkt[i] >= nb) {
            free(pos);
            free(bkt);
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: bucket_ids[%zu] is not below num_buckets = %u", who, i, nb);
        }
    }
    for (size_t s = 0; s < S; ++s) {
        uint32_t lo = off[s] < n ? off[s] : (uint32_t)n, hi = off[s + 1] < n ? off[s + 1] : (uint32_t)n;
        memset(pos, 0, (size_t)nb * sizeof(uint32_t));
        for (uint32_t i = lo; i < hi; ++i) pos[bkt[i]]++;
        uint32_t run = lo;
        for (uint32_t b = 0; b < nb; ++b) {
            uint32_t count = pos[b];
            pos[b] = run;
            if (d->bucket_offsets) d->bucket_offsets[s * nb + b] = run;
            run += count;
        }
        for (uint32_t i = lo; i < hi; ++i) {
            uint32_t dst = pos[bkt[i]]++;
            if (d->keys_out)
                memcpy((char *)d->keys_out + (size_t)dst * key_bytes, (const char *)d->keys_in + (size_t)i * key_bytes, key_bytes);
            if (d->values_out) d->values_out[dst] = d->values_in[i];
            if (d->gather_index) d->gather_index[dst] = i;
            if (d->scatter_index) d->scatter_index[i] = dst;
        }
    }
    if (d->bucket_offsets) d->bucket_offsets[S * nb] = (uint32_t)n;
    free(pos);
    free(bkt);
    return SC_OK;
}
