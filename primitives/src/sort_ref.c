/* sort_ref.c - plain-C reference of SplitSort: a stable merge sort of record indices by the low
 * key_bits_used bits of the key (ascending, unsigned), then keys / values / records moved by it. */
#include <stdlib.h>
#include <string.h>

#include "sc_report.h"
#include "split.h"
#include "split_validate.h"

/* A key as three 32-bit words, word 0 least significant, masked to the bits used. */
typedef struct sort_key { uint32_t w[3]; } sort_key;

static sort_key load_key(const split_sort_desc *d, uint32_t key_bits, uint32_t used, size_t i)
{
    sort_key k = {{0, 0, 0}};
    uint32_t words = key_bits / 32;
    const uint32_t *src = (const uint32_t *)d->keys_in + (size_t)i * words;
    if (key_bits == 64) {
        uint64_t v = ((const uint64_t *)d->keys_in)[i];
        k.w[0] = (uint32_t)v;
        k.w[1] = (uint32_t)(v >> 32);
    } else {
        for (uint32_t w = 0; w < words; ++w) k.w[w] = src[w];
    }
    for (uint32_t w = 0; w < 3; ++w) {
        uint32_t lo = 32 * w;
        if (used <= lo) k.w[w] = 0;
        else if (used < lo + 32) k.w[w] &= (1u << (used - lo)) - 1;
    }
    return k;
}

static int key_less(const sort_key *a, const sort_key *b)
{
    for (int w = 2; w >= 0; --w)
        if (a->w[w] != b->w[w]) return a->w[w] < b->w[w];
    return 0;
}

/* Stable bottom-up merge sort of idx by keys[idx]. */
static void merge_sort(uint32_t *idx, uint32_t *tmp, const sort_key *keys, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = key_less(&keys[idx[b]], &keys[idx[a]]) ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

sc_status split_sort_ref(const split_sort_desc *d)
{
    split_sort_checked c;
    SC_TRY(split_validate_sort_desc(d, 1, NULL, 0, "split_sort_ref", &c));
    size_t n = c.n;
    if (n == 0) return SC_OK;
    sort_key *keys = malloc(n * sizeof *keys);
    uint32_t *idx = malloc(n * sizeof *idx), *tmp = malloc(n * sizeof *tmp);
    if (!keys || !idx || !tmp) {
        free(keys);
        free(idx);
        free(tmp);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "split_sort_ref: host allocation for %zu keys failed", n);
    }
    for (size_t i = 0; i < n; ++i) {
        keys[i] = load_key(d, c.key_bits, c.key_bits_used, i);
        idx[i] = (uint32_t)i;
    }
    merge_sort(idx, tmp, keys, n);
    size_t key_bytes = c.key_bits / 8;
    for (size_t j = 0; j < n; ++j) {
        size_t i = idx[j];
        memcpy((char *)d->keys_out + j * key_bytes, (const char *)d->keys_in + i * key_bytes, key_bytes);
        if (d->values_out) d->values_out[j] = d->values_in[i];
        if (d->records_out)
            memcpy((char *)d->records_out + j * d->record_bytes, (const char *)d->records_in + i * d->record_bytes,
                   d->record_bytes);
    }
    free(keys);
    free(idx);
    free(tmp);
    return SC_OK;
}
