/* demo_png.h - small RGBA8 pictures for split-demo's subcommands: a canvas (row 0 at the BOTTOM, as
 * the renderer's images), filled rectangles, copies of images, text (stb_easy_font's segment font,
 * scaled up), a colour bar with its values, and PNG output (stb_image_write, rows flipped on write
 * so the file shows the bottom row at the bottom). Plain C; usable from .c and .cu files alike. */
#ifndef SPLIT_DEMO_DEMO_PNG_H
#define SPLIT_DEMO_DEMO_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct demo_image {
    uint8_t *rgba;           /* width x height pixels, RGBA8, row 0 at the bottom */
    uint32_t width, height;
} demo_image;

/* Allocates a width x height canvas filled with `fill`. Returns 0, or -1 (nothing allocated) when
 * the size is 0, overflows or the allocation fails. */
int demo_image_alloc(demo_image *img, uint32_t width, uint32_t height, const uint8_t fill[4]);
void demo_image_free(demo_image *img);

/* Fills [x0, x1) x [y0, y1) (clipped to the canvas; y up). */
void demo_fill_rect(demo_image *img, int64_t x0, int64_t y0, int64_t x1, int64_t y1, const uint8_t rgba[4]);

/* Copies a w x h RGBA8 image (row 0 at the bottom, w * 4 bytes per row) with its bottom-left corner
 * at (x, y), clipped to the canvas. */
void demo_blit(demo_image *img, int64_t x, int64_t y, const uint8_t *src, uint32_t w, uint32_t h);

/* Draws text (ASCII, one line) with its top-left corner at (x, y_top), each font unit `scale`
 * pixels (the font is about 7 units tall, 6 wide per character). demo_text_width: its width in
 * pixels. */
void demo_draw_text(demo_image *img, int64_t x, int64_t y_top, int scale, const char *text, const uint8_t rgba[4]);
int demo_text_width(const char *text, int scale);

/* A vertical colour bar at [x, x + w) x [y, y + h), its colours from colour(t, ctx) for t in [0, 1]
 * from bottom to top, a frame around it, each label text at its place t (0 .. 1) on the right of the
 * bar with a tick, and a title above it. */
typedef void (*demo_colour_fn)(float t, void *ctx, uint8_t rgba[4]);
typedef struct demo_colour_bar {
    int64_t x, y, w, h;
    demo_colour_fn colour;
    void *ctx;
    int num_labels;
    const float *label_places;   /* num_labels places in [0, 1] */
    const char *const *labels;   /* num_labels texts */
    const char *title;           /* NULL: none */
    int text_scale;              /* pixels per font unit, >= 1 */
} demo_colour_bar;
void demo_draw_colour_bar(demo_image *img, const demo_colour_bar *bar);

/* Writes the canvas as a PNG file. Returns 0, or -1 with errno saying why (the caller reports it) when
 * writing fails, a failed write or close included. */
int demo_png_write(const char *path, const demo_image *img);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_DEMO_PNG_H */
