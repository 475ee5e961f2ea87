/* multisplit_testdev.h - device-side helpers shared by the multisplit tests (test_multisplit.cu,
 * test_multisplit_wide.cu): guarded device buffers poisoned before a call, copies, the (key, value,
 * index) tuples used to compare bucket contents, and a log callback that keeps expected argument
 * errors quiet. */
#ifndef MULTISPLIT_TESTDEV_H
#define MULTISPLIT_TESTDEV_H

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>

#include "split.h"

enum { GUARD = 4 };                            /* guard words after every output */
static const uint32_t POISON = 0xABABABABu;    /* outputs are filled with 0xAB bytes before a call */

/* Output selection of a case. */
enum { OUT_KEYS = 1, OUT_VALUES = 2, OUT_GATHER = 4, OUT_SCATTER = 8, OUT_OFFSETS = 16, OUT_ALL = 31 };

static inline void quiet(sc_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

/* A device copy of `bytes` host bytes (4 bytes for an empty one, so the pointer is never NULL). */
static inline void *dev_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes ? bytes : 4) != cudaSuccess) return NULL;
    if (bytes) cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    return d;
}

/* An output of `bytes` followed by GUARD guard words. */
static inline void *dev_out(size_t bytes)
{
    void *d = NULL;
    if (cudaMalloc(&d, bytes + GUARD * 4) != cudaSuccess) return NULL;
    return d;
}

typedef struct key_tuple { uint64_t key; uint32_t value, index; } key_tuple;

static inline int tuple_cmp(const void *a, const void *b)
{
    const key_tuple *x = (const key_tuple *)a, *y = (const key_tuple *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static inline uint64_t key_of(const void *keys, size_t kb, size_t j)
{
    return kb == 8 ? ((const uint64_t *)keys)[j] : ((const uint32_t *)keys)[j];
}

/* Fills every requested output of dd, and its guard words, with POISON on stream s. */
static inline void poison_outputs(const split_desc *dd, size_t n, size_t kb, size_t nb, cudaStream_t s)
{
    if (dd->keys_out) cudaMemsetAsync(dd->keys_out, 0xAB, n * kb + GUARD * 4, s);
    if (dd->values_out) cudaMemsetAsync(dd->values_out, 0xAB, n * 4 + GUARD * 4, s);
    if (dd->gather_index) cudaMemsetAsync(dd->gather_index, 0xAB, n * 4 + GUARD * 4, s);
    if (dd->scatter_index) cudaMemsetAsync(dd->scatter_index, 0xAB, n * 4 + GUARD * 4, s);
    if (dd->bucket_offsets) cudaMemsetAsync(dd->bucket_offsets, 0xAB, (nb + 1) * 4 + GUARD * 4, s);
}

#endif /* MULTISPLIT_TESTDEV_H */
