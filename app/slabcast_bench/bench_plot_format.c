/* bench_plot_format.c - the plot's file format from its file name. */
#include "bench_plot_format.h"

#include <string.h>
#include <strings.h>

bench_plot_format bench_plot_format_of(const char *path)
{
    static const struct { const char *ext; bench_plot_format format; } k_exts[] = {
        {".svg", BENCH_PLOT_SVG}, {".png", BENCH_PLOT_PNG}};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof k_exts / sizeof k_exts[0]; ++i) {
        size_t m = strlen(k_exts[i].ext);
        if (n >= m && strcasecmp(path + n - m, k_exts[i].ext) == 0) return k_exts[i].format;
    }
    return BENCH_PLOT_UNKNOWN;
}
