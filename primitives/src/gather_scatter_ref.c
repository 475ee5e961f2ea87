/* gather_scatter_ref.c - split_gather_ref / split_scatter_ref (host references) and the argument
 * checks split_gather / split_scatter share with them. The references follow the multi-pass
 * windows of the GPU version (same result as one pass, by construction). */
#include <stdlib.h>
#include <string.h>

#include "gather_scatter.h"
#include "sc_report.h"
#include "split.h"
#include "split_validate.h"

sc_status split_move_check(const split_move_desc *d, const char *who, uint32_t *word_bytes, uint32_t *passes)
{
    if (!d) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: desc is NULL", who);
    if ((uint64_t)d->n >= ((uint64_t)1 << 32))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: n = %zu records, must be < 2^32", who, d->n);
    SC_TRY(split_validate_record_size(d->n, d->record_bytes, who));
    if (d->n > 0 && (!d->src || !d->dst || !d->index))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: src, dst and index must be non-NULL with n = %zu", who, d->n);
    uintptr_t s = (uintptr_t)d->src, t = (uintptr_t)d->dst;
    if (s % 4 != 0 || t % 4 != 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: src (%p) and dst (%p) must be aligned to 4 bytes", who,
                       d->src, (void *)d->dst);
    const uint64_t bytes = (uint64_t)d->n * d->record_bytes;
    const split_span spans[] = {{"src", d->src, bytes, 0}, {"index", d->index, (uint64_t)d->n * 4, 0},
                                {"dst", d->dst, bytes, 1}};
    SC_TRY(split_validate_spans(spans, 3, who));
    uint64_t all = (uint64_t)s | (uint64_t)t | (uint64_t)d->record_bytes;
    *word_bytes = all % 16 == 0 ? 16u : all % 8 == 0 ? 8u : 4u;
    *passes = d->num_passes; /* 0: the model's choice (GPU), one pass (references) */
    return SC_OK;
}

/* Checks the index on the host: every entry < n, and for scatter a permutation. */
static sc_status check_index(const split_move_desc *d, int permutation, const char *who)
{
    for (size_t i = 0; i < d->n; ++i)
        if (d->index[i] >= d->n)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: index[%zu] = %u >= n = %zu", who, i, d->index[i], d->n);
    if (!permutation || d->n == 0) return SC_OK;
    unsigned char *seen = (unsigned char *)calloc(d->n, 1);
    if (!seen) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: host allocation of %zu bytes failed", who, d->n);
    for (size_t i = 0; i < d->n; ++i) {
        if (seen[d->index[i]]) {
            free(seen);
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: index[%zu] = %u repeats (scatter needs a permutation)",
                           who, i, d->index[i]);
        }
        seen[d->index[i]] = 1;
    }
    free(seen);
    return SC_OK;
}

static sc_status move_ref(const split_move_desc *d, int gather, const char *who)
{
    uint32_t wb = 0, passes = 0;
    SC_TRY(split_move_check(d, who, &wb, &passes));
    if (passes == 0) passes = 1; /* the result does not depend on the pass count */
    SC_TRY(check_index(d, !gather, who));
    const size_t rb = d->record_bytes;
    for (uint32_t p = 0; p < passes; ++p) {
        uint64_t lo = (uint64_t)p * d->n / passes, hi = (uint64_t)(p + 1) * d->n / passes;
        for (size_t i = 0; i < d->n; ++i) {
            uint32_t j = d->index[i];
            if (j < lo || j >= hi) continue;
            if (gather) memcpy((char *)d->dst + i * rb, (const char *)d->src + (size_t)j * rb, rb);
            else memcpy((char *)d->dst + (size_t)j * rb, (const char *)d->src + i * rb, rb);
        }
    }
    return SC_OK;
}

sc_status split_gather_ref(const split_move_desc *desc) { return move_ref(desc, 1, "split_gather_ref"); }
sc_status split_scatter_ref(const split_move_desc *desc) { return move_ref(desc, 0, "split_scatter_ref"); }
