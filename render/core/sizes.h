/* sizes.h - overflow-checked size arithmetic, the reference-count bound, and byte counts as text,
 * for the front end and both backends (internal, host code). */
#ifndef SC_SIZES_H
#define SC_SIZES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most (triangle, tile) references a frame may have: reference offsets are 32-bit. */
#define SC_MAX_REF_CAPACITY ((size_t)UINT32_MAX - 1)

/* Overflow-checked size arithmetic: 0 (and *out untouched) when the result does not fit a size_t. */
static inline int sc_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return 0;
    *out = a * b;
    return 1;
}
static inline int sc_size_add(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a) return 0;
    *out = a + b;
    return 1;
}

/* A caller's image of height rows of row bytes each, pitch bytes apart (pitch >= row): 1 when its
 * extent, pitch x (height - 1) + row bytes, is a valid offset from a pointer (at most PTRDIFF_MAX),
 * else 0: such a pitch cannot describe a buffer, and row addresses computed from it would wrap. */
static inline int sc_image_extent_ok(size_t pitch, size_t row, uint32_t height)
{
    size_t rows = 0, extent = 0;
    return height == 0 || (sc_size_mul(pitch, (size_t)height - 1, &rows) && sc_size_add(rows, row, &extent) &&
                           extent <= (size_t)PTRDIFF_MAX);
}

/* Bytes as "16.0 GiB" (buf of at least 32 chars), for messages about memory. */
const char *sc_format_bytes(double bytes, char *buf, size_t size);

/* Monotonic clock in milliseconds. */
double sc_now_ms(void);

#ifdef __cplusplus
}
#endif
#endif /* SC_SIZES_H */
