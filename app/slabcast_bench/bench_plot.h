/* bench_plot.h - the plot of a sweep, drawn directly as SVG or PNG: (1) frame time per stage as
 * stacked bars, one bar per configuration, the median frame time marked on each; (2) median frame
 * time against the mesh's triangles and (3) against the image's pixels, on log-log axes. Axes carry
 * their values. The data and the axes are computed apart from the drawing, so tests check them as
 * numbers; the drawing goes through a plot canvas (plot_canvas.h), once for either format. */
#ifndef SLABCAST_BENCH_PLOT_H
#define SLABCAST_BENCH_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "bench_plot_format.h"
#include "bench_run.h"
#include "plot_canvas.h"
#include "slabcast.h"

#define BENCH_AXIS_MAX_TICKS 40

/* The drawing's size in pixels. */
enum { BENCH_PLOT_WIDTH = 1000, BENCH_PLOT_HEIGHT = 900 };

/* A panel's plot area in the drawing's pixels (y down); the axes span it. */
typedef struct bench_plot_area {
    double x0, y0, x1, y1;             /* left, top, right, bottom */
} bench_plot_area;

/* The stacked bars; frame time against triangles; against pixels. */
extern const bench_plot_area bench_plot_bars_area, bench_plot_tri_area, bench_plot_pix_area;

typedef struct bench_axis {
    int log;                           /* 1: log10 scale */
    double lo, hi;                     /* the values at the axis's ends, lo < hi (log: lo > 0) */
    double ticks[BENCH_AXIS_MAX_TICKS];/* labelled values within [lo, hi], increasing */
    int tick_count;
} bench_axis;

/* A linear axis from 0 to a round number >= max: steps of 1, 2 or 5 x 10^k, about five of them.
 * max <= 0 or not finite: 0 .. 1. */
void bench_axis_linear(double max, bench_axis *a);
/* A log axis holding [min, max] (0 < min <= max) strictly inside whole decades: lo = 10^(ceil(log10
 * min) - 1), hi = 10^(floor(log10 max) + 1), so a single point sits mid-axis. Ticks at the decades
 * (every k-th when there are many), and at 2 and 5 within each when the axis spans two decades or
 * less. */
void bench_axis_log(double min, double max, bench_axis *a);
/* Where v lies on the axis, 0 at lo .. 1 at hi (clamped). */
double bench_axis_fraction(const bench_axis *a, double v);
/* A tick's label: "0", "0.25", "20", "1k", "2.5M", "1G". */
void bench_axis_label(double v, char *buf, size_t size);

/* One configuration that ran. */
typedef struct bench_plot_bar {
    unsigned config;                   /* bench_config.index */
    char label[160];                   /* bench_config_label */
    double stage_ms[SC_STAGE_COUNT];   /* median per stage: the stacked segments */
    double stack_ms;                   /* their sum: the bar's height */
    double frame_ms;                   /* median frame time (the marker) */
    double triangles, pixels;
} bench_plot_bar;

typedef struct bench_plot_data {
    bench_plot_bar *bars;              /* the configurations that ran, in sweep order */
    size_t bar_count;
    bench_axis bar_y;                  /* ms, 0 .. the tallest bar or marker */
    int has_points;                    /* a configuration with positive frame time, triangles and pixels */
    bench_axis tri_x, pix_x, time_y;   /* log axes of panels 2 and 3 (time_y shared) */
} bench_plot_data;

/* The plot's data from the rows (failed rows left out). 0, or -1 out of memory. */
int bench_plot_data_build(const bench_row *rows, size_t count, bench_plot_data *out);
void bench_plot_data_free(bench_plot_data *d);

/* The title line (device, commit) and the three panels, drawn on c. */
void bench_plot_draw(const bench_plot_data *d, const char *title, plot_canvas *c);
/* The SVG document; title is escaped. */
void bench_plot_svg(const bench_plot_data *d, const char *title, FILE *f);
/* The drawing as a BENCH_PLOT_WIDTH x BENCH_PLOT_HEIGHT RGBA PNG at path: 0, or -1 (errno says why
 * when it can). */
int bench_plot_png(const bench_plot_data *d, const char *title, const char *path);
/* Builds the data and writes the plot to path, as PNG when its name ends in .png, SVG otherwise: 0, or
 * -1 after a "slabcast-bench: PATH: reason" line on err. */
int bench_plot_write(const bench_row *rows, size_t count, const char *title, const char *path, FILE *err);

#endif
