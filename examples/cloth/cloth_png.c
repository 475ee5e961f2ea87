/* cloth_png.c - the PNG writer of cloth_png.h: a zlib stream of stored blocks, each chunk with its CRC. */
#include "cloth_png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v) /* big-endian, as PNG stores numbers */
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* A chunk: its data's length, its type, the data, the CRC of type and data. */
static int write_chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
    uint8_t len[4], crc[4];
    put_u32(len, (uint32_t)n);
    put_u32(crc, crc32_update(crc32_update(0, (const uint8_t *)type, 4), data, n));
    return fwrite(len, 1, 4, f) == 4 && fwrite(type, 1, 4, f) == 4 && fwrite(data, 1, n, f) == n &&
           fwrite(crc, 1, 4, f) == 4;
}

int cloth_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    const size_t row = 1 + (size_t)w * 4, raw_size = row * h; /* each row: filter byte 0, pixels */
    const size_t blocks = (raw_size + 65534) / 65535;         /* a stored block holds <= 65535 bytes */
    const size_t zlib_size = 2 + raw_size + 5 * blocks + 4;
    uint8_t *raw = malloc(raw_size), *zlib = malloc(zlib_size), *q = zlib;
    int ok = 0;
    if (!raw || !zlib) goto out;
    for (uint32_t y = 0; y < h; ++y) { /* PNG rows run top down */
        raw[y * row] = 0;
        memcpy(raw + y * row + 1, rgba + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4);
    }
    *q++ = 0x78, *q++ = 0x01; /* zlib header: deflate, 32 KiB window */
    for (size_t done = 0; done < raw_size;) {
        const size_t n = raw_size - done < 65535 ? raw_size - done : 65535;
        *q++ = done + n == raw_size; /* BFINAL on the last block; BTYPE 00: stored */
        *q++ = (uint8_t)n, *q++ = (uint8_t)(n >> 8), *q++ = (uint8_t)~n, *q++ = (uint8_t)(~n >> 8);
        memcpy(q, raw + done, n);
        q += n, done += n;
    }
    uint32_t a = 1, b = 0; /* Adler-32 of the uncompressed data closes the zlib stream */
    for (size_t i = 0; i < raw_size; ++i) a = (a + raw[i]) % 65521u, b = (b + a) % 65521u;
    put_u32(q, b << 16 | a);

    uint8_t ihdr[13] = {0}; /* width, height, bit depth 8, colour type 6 (RGBA), deflate, no interlace */
    put_u32(ihdr, w), put_u32(ihdr + 4, h), ihdr[8] = 8, ihdr[9] = 6;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    FILE *f = fopen(path, "wb");
    if (!f) goto out;
    ok = fwrite(signature, 1, 8, f) == 8 && write_chunk(f, "IHDR", ihdr, sizeof ihdr) &&
         write_chunk(f, "IDAT", zlib, zlib_size) && write_chunk(f, "IEND", ihdr, 0);
    ok = fclose(f) == 0 && ok;
out:
    free(raw);
    free(zlib);
    return ok;
}
