/* grid_levels_pictures.c - the pictures of `split-demo grid-levels` (grid_levels_pictures.h): the
 * canvas with its legend panel, the colour bars and their labels, level1-tiles.png, level2-slabs.png,
 * the tests pictures' legend from the renderer's public API, and frame.png. Host code only (the
 * renderer's images arrive in host memory; demo_grid_levels.cu reads them back). Plain C11. */
#include "grid_levels_pictures.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "demo_png.h"
#include "grid_levels_host.h"
#include "slabcast.h"

#define W "grid-levels" /* the subcommand, in messages */

enum {
    PANEL_W = 440,      /* the legend panel right of a picture */
    MIN_CANVAS_H = 400, /* a picture's canvas is at least this tall (room for the colour bar) */
    HIST_H = 260,       /* the histogram strip below level2-slabs.png */
    TEXT_SCALE = 2      /* pixels per font unit */
};

/* ---- pictures ------------------------------------------------------------------------------- */

static const uint8_t BACKGROUND[4] = {24, 26, 32, 255};
static const uint8_t INK[4] = {230, 230, 230, 255};

static int write_picture(const gl_opts *o, const char *name, const demo_image *img)
{
    char path[4096];
    const int len = snprintf(path, sizeof path, "%s/%s", o->out_dir, name);
    if (len < 0 || (size_t)len >= sizeof path) {
        fprintf(stderr, "split-demo " W ": --out '%s': the path of %s is too long\n", o->out_dir, name);
        return 1;
    }
    if (demo_png_write(path, img) != 0) {
        fprintf(stderr, "split-demo " W ": writing %s failed (%s)\n", path, errno ? strerror(errno) : "stb_image_write");
        return 1;
    }
    printf("split-demo " W ": wrote %s (%ux%u)\n", path, img->width, img->height);
    return 0;
}

/* A canvas for a w x h picture with the legend panel on its right and `below` pixels under it. */
static int picture_canvas(demo_image *img, uint32_t w, uint32_t h, uint32_t below)
{
    const uint32_t ch = (h > (uint32_t)MIN_CANVAS_H ? h : (uint32_t)MIN_CANVAS_H) + below;
    if (demo_image_alloc(img, w + PANEL_W, ch, BACKGROUND) != 0) {
        fprintf(stderr, "split-demo " W ": host allocation for a %ux%u picture failed\n", w + PANEL_W, ch);
        return 1;
    }
    return 0;
}

/* Colour bar labels: 0, then 1, 4, 16, ... below vmax, then vmax (log scale) or 0, 1/4, ... 1 of vmax
 * (linear). Writes up to 12 labels; returns their count. */
static int bar_labels(double vmax, int log_scale, float *places, char (*texts)[24], const char **ptrs)
{
    int n = 0;
    if (log_scale) {
        for (double v = 0; v < vmax && n < 10; v = v == 0 ? 1 : v * 4) {
            const float p = gl_log_place(v, vmax);
            if (v > 0 && p > 0.85f) break; /* too close to the top label */
            places[n] = p;
            snprintf(texts[n], 24, "%.0f", v);
            ++n;
        }
        places[n] = 1.0f;
        snprintf(texts[n], 24, "%.0f", vmax);
        ++n;
    } else {
        for (int i = 0; i <= 4; ++i, ++n) {
            places[n] = (float)i / 4;
            snprintf(texts[n], 24, "%.4g", vmax * i / 4);
        }
    }
    for (int i = 0; i < n; ++i) ptrs[i] = texts[i];
    return n;
}

static void heat_colour_fn(float t, void *ctx, uint8_t rgba[4])
{
    (void)ctx;
    gl_heat_colour(t, rgba);
    rgba[3] = 255;
}

/* The legend panel right of a w-pixel picture whose canvas part starts at y0: a colour bar, its
 * labels, a title in two lines. */
static void draw_legend(demo_image *img, uint32_t w, int64_t y0, demo_colour_fn fn, void *ctx, double vmax,
                        int log_scale, const char *title1, const char *title2)
{
    float places[12];
    char texts[12][24];
    const char *ptrs[12];
    demo_colour_bar bar;
    memset(&bar, 0, sizeof bar);
    bar.x = w + 30, bar.y = y0 + 30, bar.w = 36, bar.h = 300;
    bar.colour = fn, bar.ctx = ctx;
    bar.num_labels = bar_labels(vmax, log_scale, places, texts, ptrs);
    bar.label_places = places, bar.labels = ptrs;
    bar.text_scale = TEXT_SCALE;
    demo_draw_colour_bar(img, &bar);
    /* the titles above the bar, at half size when they would not fit in the panel */
    const char *titles[2] = {title2, title1};
    for (int i = 0; i < 2; ++i) {
        const int scale = demo_text_width(titles[i], TEXT_SCALE) <= PANEL_W - 40 ? TEXT_SCALE : 1;
        demo_draw_text(img, bar.x, bar.y + bar.h + (12 + 12 * i) * TEXT_SCALE, scale, titles[i], INK);
    }
}

/* level1-tiles.png: references per tile, log scale. */
int gl_picture_tiles(const gl_opts *o, const gl_grid *g, const uint32_t *tile_refs, uint32_t max_per_tile)
{
    demo_image img;
    if (picture_canvas(&img, g->width, g->height, 0)) return 1;
    for (uint32_t y = 0; y < g->height; ++y)
        for (uint32_t x = 0; x < g->width; ++x) {
            uint8_t *p = img.rgba + ((size_t)y * img.width + x) * 4;
            gl_heat_colour(gl_log_place(tile_refs[(y / g->tile) * g->tiles_x + x / g->tile], max_per_tile), p);
            p[3] = 255;
        }
    draw_legend(&img, g->width, 0, heat_colour_fn, NULL, max_per_tile, 1, "level 1: the tile multisplit",
                "references per tile");
    const int rc = write_picture(o, "level1-tiles.png", &img);
    demo_image_free(&img);
    return rc;
}

/* level2-slabs.png: non-empty slabs per tile (0 .. S, linear), and under it the frame's references
 * per slab as a bar chart, nearest slab on the left. */
int gl_picture_slabs(const gl_opts *o, const gl_grid *g, const uint32_t *tile_slabs, const uint64_t *slab_refs)
{
    demo_image img;
    if (picture_canvas(&img, g->width, g->height, HIST_H)) return 1;
    for (uint32_t y = 0; y < g->height; ++y)
        for (uint32_t x = 0; x < g->width; ++x) {
            uint8_t *p = img.rgba + ((size_t)(y + HIST_H) * img.width + x) * 4;
            gl_heat_colour((float)tile_slabs[(y / g->tile) * g->tiles_x + x / g->tile] / (float)g->slabs, p);
            p[3] = 255;
        }
    draw_legend(&img, g->width, HIST_H, heat_colour_fn, NULL, g->slabs, 0, "level 2: the slab segmented split",
                "non-empty slabs per tile");
    uint64_t most = 1;
    for (uint32_t s = 0; s < g->slabs; ++s) most = slab_refs[s] > most ? slab_refs[s] : most;
    const int64_t chart_w = (int64_t)img.width - 60, chart_h = HIST_H - 90, x0 = 30, y0 = 40;
    static const uint8_t bar_colour[4] = {240, 150, 40, 255};
    for (uint32_t s = 0; s < g->slabs; ++s) {
        const int64_t bx0 = x0 + chart_w * s / g->slabs, bx1 = x0 + chart_w * (s + 1) / g->slabs;
        const int64_t bh = (int64_t)((double)chart_h * (double)slab_refs[s] / (double)most);
        demo_fill_rect(&img, bx0, y0, bx1 > bx0 + 1 ? bx1 - 1 : bx1, y0 + bh, bar_colour);
    }
    demo_fill_rect(&img, x0, y0 - 2, x0 + chart_w, y0, INK);
    char line[160];
    snprintf(line, sizeof line, "references per slab (%u slabs; tallest %llu)", g->slabs,
             (unsigned long long)most);
    demo_draw_text(&img, x0, y0 + chart_h + 36, TEXT_SCALE, line, INK);
    demo_draw_text(&img, x0, y0 - 8, TEXT_SCALE, "near", INK);
    demo_draw_text(&img, x0 + chart_w - demo_text_width("far", TEXT_SCALE), y0 - 8, TEXT_SCALE, "far", INK);
    const int rc = write_picture(o, "level2-slabs.png", &img);
    demo_image_free(&img);
    return rc;
}

/* The renderer's colour of a place t on its log scale 0 .. max. */
typedef struct legend_ctx {
    sc_renderer *r;
    float max;
} legend_ctx;

static void renderer_colour_fn(float t, void *vctx, uint8_t rgba[4])
{
    const legend_ctx *c = (const legend_ctx *)vctx;
    const float v = exp2f(t * log2f(1.0f + c->max)) - 1.0f;
    if (sc_renderer_view_color(c->r, v, rgba) != SC_OK) rgba[0] = rgba[1] = rgba[2] = 0;
    rgba[3] = 255;
}

/* tests-*.png: the renderer's image with its legend (read while the view mode is in force). */
int gl_picture_tests(const gl_opts *o, sc_renderer *r, const uint8_t *rgba, const char *name, const char *title)
{
    sc_view_legend legend;
    DEMO_SPLIT(W, sc_renderer_get_view_legend(r, &legend));
    demo_image img;
    if (picture_canvas(&img, o->width, o->height, 0)) return 1;
    demo_blit(&img, 0, 0, rgba, o->width, o->height);
    legend_ctx ctx = {r, legend.max_value};
    draw_legend(&img, o->width, 0, renderer_colour_fn, &ctx, legend.max_value, legend.log_scale, title,
                legend.quantity);
    const int rc = write_picture(o, name, &img);
    demo_image_free(&img);
    return rc;
}

int gl_picture_frame(const gl_opts *o, const uint8_t *rgba)
{
    demo_image img;
    img.rgba = (uint8_t *)rgba, img.width = o->width, img.height = o->height;
    return write_picture(o, "frame.png", &img);
}
