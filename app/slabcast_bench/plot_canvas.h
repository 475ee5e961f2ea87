/* plot_canvas.h - the drawing interface of slabcast-bench's plot: lines, filled rectangles and
 * circles, text and tooltip groups, in the drawing's pixels (origin top left, y down). Two backends
 * draw it: plot_svg.c (SVG elements written to a file) and plot_raster.c (an RGBA image, saved as PNG).
 * Colours are "#rgb" or "#rrggbb". Each number carries the decimals the SVG writes it with, so the
 * SVG stays as compact as it was written by hand; the raster uses the value alone. */
#ifndef SLABCAST_BENCH_PLOT_CANVAS_H
#define SLABCAST_BENCH_PLOT_CANVAS_H

#include <stdio.h>

/* A coordinate or size: its value, and the decimals of its SVG text (-1: "%g", for whole numbers). */
typedef struct plot_num {
    double v;
    int decimals;
} plot_num;

static inline plot_num plot_whole(double v) { return (plot_num){v, -1}; }
static inline plot_num plot_d1(double v) { return (plot_num){v, 1}; }
static inline plot_num plot_d2(double v) { return (plot_num){v, 2}; }

typedef enum plot_anchor { PLOT_ANCHOR_START, PLOT_ANCHOR_MIDDLE, PLOT_ANCHOR_END } plot_anchor;

/* How a text is set: where x sits on it, the font size in pixels, bold, and upright (turned 90
 * degrees counterclockwise about (x, y), read from bottom to top: a y axis's name). */
typedef struct plot_text_style {
    plot_anchor anchor;
    int size;
    int bold;
    int upright;
} plot_text_style;

typedef struct plot_canvas plot_canvas;

/* The backend's operations; each receives the canvas it was called on. */
struct plot_canvas {
    /* A straight line of the given width (1: the thinnest). */
    void (*line)(plot_canvas *c, plot_num x1, plot_num y1, plot_num x2, plot_num y2, const char *color, double width);
    void (*rect)(plot_canvas *c, plot_num x, plot_num y, plot_num w, plot_num h, const char *color);
    /* A filled circle; opacity 0 .. 1; tooltip (NULL: none) shown on hovering it, where a backend can. */
    void (*circle)(plot_canvas *c, plot_num cx, plot_num cy, plot_num r, const char *color, double opacity,
                   const char *tooltip);
    /* Text whose baseline passes through y; bytes outside printable ASCII are drawn as '?'. */
    void (*text)(plot_canvas *c, plot_num x, plot_num y, plot_text_style style, const char *s);
    /* What is drawn between begin and end forms one thing with a tooltip, where a backend can. */
    void (*group_begin)(plot_canvas *c, const char *tooltip);
    void (*group_end)(plot_canvas *c);
};

/* ---- the SVG backend (plot_svg.c) ------------------------------------------------------------- */

typedef struct plot_svg {
    plot_canvas canvas;                /* first: a plot_svg is used through &svg.canvas */
    FILE *f;
} plot_svg;

/* Writes the document's head (size, white background) to f and readies the canvas. */
void plot_svg_begin(plot_svg *s, FILE *f, int width, int height);
/* Closes the document. */
void plot_svg_end(plot_svg *s);

/* ---- the raster backend (plot_raster.c) ------------------------------------------------------- */

typedef struct plot_raster {
    plot_canvas canvas;                /* first: a plot_raster is used through &r.canvas */
    int width, height;
    unsigned char *rgba;               /* width x height RGBA8, row 0 at the top, opaque */
    int failed;                        /* a text could not be drawn for lack of memory */
} plot_raster;

/* A white image of the size: 0, or -1 out of memory. */
int plot_raster_init(plot_raster *r, int width, int height);
void plot_raster_free(plot_raster *r);
/* The image as a PNG file: 0, or -1 with errno saying why (a failed write or close included). */
int plot_raster_write_png(const plot_raster *r, const char *path);

#endif
