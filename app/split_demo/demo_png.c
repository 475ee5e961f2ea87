/* demo_png.c - small RGBA8 pictures for split-demo (demo_png.h): canvas, rectangles, copies, text
 * with stb_easy_font, colour bars, PNG output with stb_image_write (Debian's libstb-dev). */
#include "demo_png.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_easy_font.h> /* the include path is a SYSTEM one (slabcast_stb): no warnings from stb */
#include <stb_image_write.h>

#include "image_file.h"

enum { TEXT_MAX = 255, QUAD_BYTES = 64 }; /* a quad: 4 vertices of x, y, z floats and 4 colour bytes */

int demo_image_alloc(demo_image *img, uint32_t width, uint32_t height, const uint8_t fill[4])
{
    img->rgba = NULL, img->width = img->height = 0;
    if (width == 0 || height == 0 || (uint64_t)width * height > (SIZE_MAX / 4)) return -1;
    const size_t pixels = (size_t)width * height;
    uint8_t *p = malloc(pixels * 4);
    if (!p) return -1;
    for (size_t i = 0; i < pixels; ++i) memcpy(p + i * 4, fill, 4);
    img->rgba = p, img->width = width, img->height = height;
    return 0;
}

void demo_image_free(demo_image *img)
{
    free(img->rgba);
    img->rgba = NULL, img->width = img->height = 0;
}

void demo_fill_rect(demo_image *img, int64_t x0, int64_t y0, int64_t x1, int64_t y1, const uint8_t rgba[4])
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > img->width) x1 = img->width;
    if (y1 > img->height) y1 = img->height;
    for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = x0; x < x1; ++x) memcpy(img->rgba + ((size_t)y * img->width + (size_t)x) * 4, rgba, 4);
}

void demo_blit(demo_image *img, int64_t x, int64_t y, const uint8_t *src, uint32_t w, uint32_t h)
{
    for (uint32_t row = 0; row < h; ++row) {
        const int64_t dy = y + row;
        if (dy < 0 || dy >= img->height) continue;
        for (uint32_t col = 0; col < w; ++col) {
            const int64_t dx = x + col;
            if (dx < 0 || dx >= img->width) continue;
            memcpy(img->rgba + ((size_t)dy * img->width + (size_t)dx) * 4, src + ((size_t)row * w + col) * 4, 4);
        }
    }
}

/* A writable copy of at most TEXT_MAX characters (stb_easy_font takes char *). */
static void copy_text(char *buf, const char *text)
{
    strncpy(buf, text, TEXT_MAX);
    buf[TEXT_MAX] = '\0';
}

int demo_text_width(const char *text, int scale)
{
    char buf[TEXT_MAX + 1];
    copy_text(buf, text);
    return stb_easy_font_width(buf) * scale;
}

void demo_draw_text(demo_image *img, int64_t x, int64_t y_top, int scale, const char *text, const uint8_t rgba[4])
{
    static char quads[QUAD_BYTES * 8 * (TEXT_MAX + 1)]; /* stb_easy_font: about 3 quads a character */
    char buf[TEXT_MAX + 1];
    unsigned char colour[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
    copy_text(buf, text);
    const int n = stb_easy_font_print(0, 0, buf, colour, quads, (int)sizeof quads);
    for (int q = 0; q < n; ++q) {
        float lo_x = 1e30f, hi_x = -1e30f, lo_y = 1e30f, hi_y = -1e30f;
        for (int v = 0; v < 4; ++v) {
            float xy[2];
            memcpy(xy, quads + (size_t)q * QUAD_BYTES + (size_t)v * 16, sizeof xy);
            lo_x = xy[0] < lo_x ? xy[0] : lo_x, hi_x = xy[0] > hi_x ? xy[0] : hi_x;
            lo_y = xy[1] < lo_y ? xy[1] : lo_y, hi_y = xy[1] > hi_y ? xy[1] : hi_y;
        }
        /* font units grow downward from the top; the canvas's y grows upward */
        demo_fill_rect(img, x + (int64_t)(lo_x * scale), y_top - (int64_t)(hi_y * scale), x + (int64_t)(hi_x * scale),
                       y_top - (int64_t)(lo_y * scale), rgba);
    }
}

void demo_draw_colour_bar(demo_image *img, const demo_colour_bar *bar)
{
    static const uint8_t ink[4] = {230, 230, 230, 255};
    const int scale = bar->text_scale > 0 ? bar->text_scale : 1;
    demo_fill_rect(img, bar->x - 1, bar->y - 1, bar->x + bar->w + 1, bar->y + bar->h + 1, ink);
    for (int64_t row = 0; row < bar->h; ++row) {
        uint8_t c[4];
        bar->colour(bar->h > 1 ? (float)row / (float)(bar->h - 1) : 0.0f, bar->ctx, c);
        c[3] = 255;
        demo_fill_rect(img, bar->x, bar->y + row, bar->x + bar->w, bar->y + row + 1, c);
    }
    for (int i = 0; i < bar->num_labels; ++i) {
        const int64_t ty = bar->y + (int64_t)(bar->label_places[i] * (float)(bar->h - 1));
        demo_fill_rect(img, bar->x + bar->w, ty, bar->x + bar->w + 3 * scale, ty + scale, ink);
        demo_draw_text(img, bar->x + bar->w + 5 * scale, ty + 4 * scale, scale, bar->labels[i], ink);
    }
    if (bar->title) demo_draw_text(img, bar->x, bar->y + bar->h + 12 * scale, scale, bar->title, ink);
}

int demo_png_write(const char *path, const demo_image *img)
{
    if (!img->rgba || img->width > INT32_MAX / 4 || img->height > INT32_MAX) return -1;
    stbi_flip_vertically_on_write(1); /* row 0 is the bottom row */
    /* Through a checked file (image_file.h): stb's own file writer ignores failed writes. */
    app_image_file file;
    if (app_image_file_open(&file, path) != 0) return -1;
    const int ok = stbi_write_png_to_func(app_image_file_write, &file, (int)img->width, (int)img->height, 4, img->rgba,
                                          (int)img->width * 4);
    return app_image_file_close(&file, ok);
}
