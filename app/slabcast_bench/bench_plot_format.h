/* bench_plot_format.h - the plot's file formats, told by the file name's extension (the options check
 * --plot with it; bench_plot.c writes the format it names). */
#ifndef SLABCAST_BENCH_PLOT_FORMAT_H
#define SLABCAST_BENCH_PLOT_FORMAT_H

typedef enum bench_plot_format { BENCH_PLOT_UNKNOWN, BENCH_PLOT_SVG, BENCH_PLOT_PNG } bench_plot_format;

/* .svg or .png at the end of path, in any case; anything else is BENCH_PLOT_UNKNOWN. */
bench_plot_format bench_plot_format_of(const char *path);

#endif
