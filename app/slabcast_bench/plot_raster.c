/* plot_raster.c - the plot canvas as an RGBA image (see plot_canvas.h): shapes blended by the share
 * of each pixel they cover, text from stb_easy_font's quads scaled to the font size, the image saved
 * with stb_image_write. Tooltips have no place in an image and are left out. */
#include "plot_canvas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stb_easy_font.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h> /* a SYSTEM include path (slabcast_stb): no warnings from stb */

#include "image_file.h"

#define TEXT_BYTES_PER_CHAR 1024       /* stb_easy_font's quads per character stay well below this */
#define TEXT_QUAD_BYTES 64             /* a quad: 4 vertices of x, y, z floats and RGBA8 */
#define GLYPH_BASELINE 7.0             /* stb_easy_font's capitals span y 0 .. 7, descenders reach 9 */
#define GLYPH_UNITS_PER_SIZE 10.0      /* font size / this = pixels per glyph unit: capitals 0.7 x size */

typedef struct rgb {
    unsigned char c[3];
} rgb;

/* "#rgb" or "#rrggbb"; anything else is black. */
static rgb parse_color(const char *s)
{
    rgb out = {{0, 0, 0}};
    size_t n = s && s[0] == '#' ? strlen(s + 1) : 0;
    if (n != 3 && n != 6) return out;
    for (int k = 0; k < 3; ++k) {
        char digits[3] = {s[1 + (n == 3 ? k : 2 * k)], s[1 + (n == 3 ? k : 2 * k + 1)], 0};
        char *end;
        long v = strtol(digits, &end, 16);
        if (*end) return (rgb){{0, 0, 0}};
        out.c[k] = (unsigned char)v;
    }
    return out;
}

/* Pixel (px, py) moved toward the colour by alpha (0 .. 1); outside the image: nothing. */
static void blend_pixel(plot_raster *r, int px, int py, rgb color, double alpha)
{
    if (px < 0 || py < 0 || px >= r->width || py >= r->height || !(alpha > 0.0)) return;
    if (alpha > 1.0) alpha = 1.0;
    unsigned char *p = r->rgba + ((size_t)py * (size_t)r->width + (size_t)px) * 4;
    for (int k = 0; k < 3; ++k) p[k] = (unsigned char)lround(p[k] + (color.c[k] - p[k]) * alpha);
}

/* The length of [a0, a1] within [b0, b1]. */
static double overlap(double a0, double a1, double b0, double b1)
{
    double d = fmin(a1, b1) - fmax(a0, b0);
    return d > 0.0 ? d : 0.0;
}

/* The rectangle [x0, x1] x [y0, y1] (pixel edges are whole numbers), each pixel blended by the area
 * of it covered times alpha. */
static void fill_area(plot_raster *r, double x0, double y0, double x1, double y1, rgb color, double alpha)
{
    if (x1 < x0) { double t = x0; x0 = x1; x1 = t; }
    if (y1 < y0) { double t = y0; y0 = y1; y1 = t; }
    int px0 = (int)fmax(floor(x0), 0.0), px1 = (int)fmin(ceil(x1), (double)r->width);
    int py0 = (int)fmax(floor(y0), 0.0), py1 = (int)fmin(ceil(y1), (double)r->height);
    for (int py = py0; py < py1; ++py) {
        double cy = overlap(y0, y1, py, py + 1.0);
        for (int px = px0; px < px1; ++px) blend_pixel(r, px, py, color, cy * overlap(x0, x1, px, px + 1.0) * alpha);
    }
}

/* Each pixel near a shape blended by how far its centre lies inside the shape's edge (one pixel of
 * smoothing): dist(px, py) is the distance of the centre from the shape's middle, reach how far the
 * shape extends from it. */
typedef struct shape_reach {
    double ax, ay, bx, by;             /* a segment (a point when a == b) */
    double reach;
} shape_reach;

static double segment_distance(const shape_reach *s, double x, double y)
{
    double dx = s->bx - s->ax, dy = s->by - s->ay, len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((x - s->ax) * dx + (y - s->ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return hypot(x - (s->ax + t * dx), y - (s->ay + t * dy));
}

static void fill_reach(plot_raster *r, const shape_reach *s, rgb color, double alpha)
{
    int px0 = (int)fmax(floor(fmin(s->ax, s->bx) - s->reach - 1.0), 0.0);
    int px1 = (int)fmin(ceil(fmax(s->ax, s->bx) + s->reach + 1.0), (double)r->width);
    int py0 = (int)fmax(floor(fmin(s->ay, s->by) - s->reach - 1.0), 0.0);
    int py1 = (int)fmin(ceil(fmax(s->ay, s->by) + s->reach + 1.0), (double)r->height);
    for (int py = py0; py < py1; ++py)
        for (int px = px0; px < px1; ++px) {
            double inside = s->reach + 0.5 - segment_distance(s, px + 0.5, py + 0.5);
            blend_pixel(r, px, py, color, fmin(inside, 1.0) * alpha);
        }
}

static void raster_line(plot_canvas *c, plot_num x1, plot_num y1, plot_num x2, plot_num y2, const char *color,
                        double width)
{
    plot_raster *r = (plot_raster *)c;
    rgb col = parse_color(color);
    double h = 0.5 * width;
    if (x1.v == x2.v || y1.v == y2.v) {
        /* Axis-aligned: a rectangle; a line one pixel wide is moved onto a pixel column or row, so it
         * stays sharp. */
        int vertical = x1.v == x2.v;
        double mid = vertical ? x1.v : y1.v;
        if (width == 1.0) mid = floor(mid) + 0.5;
        if (vertical) fill_area(r, mid - h, fmin(y1.v, y2.v), mid + h, fmax(y1.v, y2.v), col, 1.0);
        else fill_area(r, fmin(x1.v, x2.v), mid - h, fmax(x1.v, x2.v), mid + h, col, 1.0);
        return;
    }
    shape_reach s = {x1.v, y1.v, x2.v, y2.v, h};
    fill_reach(r, &s, col, 1.0);
}

static void raster_rect(plot_canvas *c, plot_num x, plot_num y, plot_num w, plot_num h, const char *color)
{
    fill_area((plot_raster *)c, x.v, y.v, x.v + w.v, y.v + h.v, parse_color(color), 1.0);
}

static void raster_circle(plot_canvas *c, plot_num cx, plot_num cy, plot_num radius, const char *color, double opacity,
                          const char *tooltip)
{
    shape_reach s = {cx.v, cy.v, cx.v, cy.v, radius.v};
    fill_reach((plot_raster *)c, &s, parse_color(color), opacity);
}

/* stb_easy_font indexes its glyph table by (c - 32) for every byte but '\n': anything outside the
 * printable ASCII range (a newline too, this draws one line) becomes '?'. */
static char *printable_copy(const char *s)
{
    char *out = malloc(strlen(s) + 1);
    if (!out) return NULL;
    size_t i = 0;
    for (; s[i]; ++i) out[i] = s[i] < 32 || s[i] > 126 ? '?' : s[i];
    out[i] = '\0';
    return out;
}

/* The text in black (SVG's default fill). Along the text, u runs from its start; across it, v runs
 * down from the baseline; an upright text maps (u, v) to (x + v, y - u). */
static void raster_text(plot_canvas *c, plot_num x, plot_num y, plot_text_style style, const char *s)
{
    plot_raster *r = (plot_raster *)c;
    char *text = printable_copy(s);
    size_t bytes = (strlen(s) + 1) * TEXT_BYTES_PER_CHAR;
    float *quads = text && bytes < (size_t)1 << 30 ? malloc(bytes) : NULL;
    if (!quads) {
        r->failed = 1;
        free(text);
        return;
    }
    int count = stb_easy_font_print(0.0f, 0.0f, text, NULL, quads, (int)bytes);
    double scale = style.size / GLYPH_UNITS_PER_SIZE;
    double width = stb_easy_font_width(text) * scale;
    double u_start = style.anchor == PLOT_ANCHOR_MIDDLE ? -0.5 * width : style.anchor == PLOT_ANCHOR_END ? -width : 0.0;
    double bold = style.bold ? 0.5 * scale : 0.0; /* bold: each stroke widened along the text */
    /* Whole-pixel origin: strokes of the same glyph look alike wherever it is. */
    double ox = round(x.v), oy = round(y.v);
    u_start = round(u_start);
    rgb black = {{0, 0, 0}};
    for (int q = 0; q < count; ++q) {
        const float *v = quads + (size_t)q * (TEXT_QUAD_BYTES / sizeof(float));
        /* Vertices 0 and 2 are opposite corners; a vertex is 4 floats (x, y, z, colour bytes). */
        double u0 = u_start + fmin(v[0], v[8]) * scale, u1 = u_start + fmax(v[0], v[8]) * scale + bold;
        double v0 = (fmin(v[1], v[9]) - GLYPH_BASELINE) * scale, v1 = (fmax(v[1], v[9]) - GLYPH_BASELINE) * scale;
        if (style.upright) fill_area(r, ox + v0, oy - u1, ox + v1, oy - u0, black, 1.0);
        else fill_area(r, ox + u0, oy + v0, ox + u1, oy + v1, black, 1.0);
    }
    free(quads);
    free(text);
}

static void raster_group_begin(plot_canvas *c, const char *tooltip) {}
static void raster_group_end(plot_canvas *c) {}

int plot_raster_init(plot_raster *r, int width, int height)
{
    memset(r, 0, sizeof *r);
    r->canvas = (plot_canvas){raster_line,  raster_rect,        raster_circle,
                              raster_text, raster_group_begin, raster_group_end};
    r->rgba = malloc((size_t)width * (size_t)height * 4);
    if (!r->rgba) return -1;
    memset(r->rgba, 0xff, (size_t)width * (size_t)height * 4);
    r->width = width;
    r->height = height;
    return 0;
}

void plot_raster_free(plot_raster *r)
{
    free(r->rgba);
    r->rgba = NULL;
}

int plot_raster_write_png(const plot_raster *r, const char *path)
{
    /* Through a checked file (image_file.h): stb's own file writer ignores failed writes. */
    app_image_file file;
    if (app_image_file_open(&file, path) != 0) return -1;
    const int ok = stbi_write_png_to_func(app_image_file_write, &file, r->width, r->height, 4, r->rgba, r->width * 4);
    return app_image_file_close(&file, ok);
}
