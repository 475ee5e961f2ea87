/* bench_image.c - shadow decision pictures as PNG (stb_image_write). */
#include "bench_image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h> /* a SYSTEM include path (slabcast_stb): no warnings from stb */

#include "bench_peer.h"
#include "image_file.h"

int bench_image_path(char *buf, size_t size, const char *dir, const char *name, unsigned number)
{
    int n = snprintf(buf, size, "%s/%s-%u.png", dir, name, number);
    return n >= 0 && (size_t)n < size ? 0 : -1;
}

static void put_rgb(uint8_t *p, unsigned rgb)
{
    p[0] = (uint8_t)(rgb >> 16);
    p[1] = (uint8_t)(rgb >> 8);
    p[2] = (uint8_t)rgb;
}

static unsigned decision_rgb(uint8_t d)
{
    return d == BENCH_NO_HIT ? BENCH_RGB_NO_HIT : d == BENCH_SHADOWED ? BENCH_RGB_SHADOWED : BENCH_RGB_LIT;
}

/* The colour of a decision faded half way towards mid grey. */
static unsigned faded_rgb(uint8_t d)
{
    const unsigned c = decision_rgb(d);
    unsigned out = 0;
    for (int shift = 16; shift >= 0; shift -= 8) out |= ((((c >> shift) & 0xFFu) + 0x80u) / 2u) << shift;
    return out;
}

static unsigned diff_rgb(uint8_t ours, uint8_t theirs)
{
    const int a = ours != BENCH_NO_HIT, b = theirs != BENCH_NO_HIT;
    if (!a && !b) return BENCH_RGB_NO_HIT;
    if (a != b) return BENCH_RGB_ONE_HIT;
    const int so = ours == BENCH_SHADOWED, st = theirs == BENCH_SHADOWED;
    if (so == st) return faded_rgb(ours);
    return so ? BENCH_RGB_THEY_LIT : BENCH_RGB_THEY_SHADOWED;
}

/* One RGB picture, top row first, from the colour of each pixel (row 0 at the bottom). */
static int write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *a, const uint8_t *b,
                     char *why, size_t why_size)
{
    if (width == 0 || height == 0 || width > 65535u || height > 65535u) {
        snprintf(why, why_size, "%s: a %ux%u picture is not written", path, width, height);
        return -1;
    }
    const size_t row = (size_t)width * 3;
    uint8_t *rgb = malloc(row * height);
    if (!rgb) {
        snprintf(why, why_size, "%s: out of memory for a %ux%u picture", path, width, height);
        return -1;
    }
    for (uint32_t y = 0; y < height; ++y) {
        uint8_t *dst = rgb + (size_t)(height - 1 - y) * row;
        for (uint32_t x = 0; x < width; ++x) {
            const size_t i = (size_t)y * width + x;
            put_rgb(dst + 3 * (size_t)x, b ? diff_rgb(a[i], b[i]) : decision_rgb(a[i]));
        }
    }
    /* Through a checked file (image_file.h): stb's own file writer ignores failed writes. */
    app_image_file file;
    int rc = app_image_file_open(&file, path);
    if (rc == 0) {
        const int ok = stbi_write_png_to_func(app_image_file_write, &file, (int)width, (int)height, 3, rgb, (int)row);
        rc = app_image_file_close(&file, ok);
    }
    free(rgb);
    if (rc == 0) return 0;
    snprintf(why, why_size, "%s: writing the PNG failed: %s", path, strerror(errno));
    return -1;
}

int bench_decisions_png(const char *path, uint32_t width, uint32_t height, const uint8_t *decisions, char *why,
                        size_t why_size)
{
    return write_png(path, width, height, decisions, NULL, why, why_size);
}

int bench_decisions_diff_png(const char *path, uint32_t width, uint32_t height, const uint8_t *ours,
                             const uint8_t *theirs, char *why, size_t why_size)
{
    return write_png(path, width, height, ours, theirs, why, why_size);
}
