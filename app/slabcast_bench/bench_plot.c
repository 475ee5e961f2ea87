/* bench_plot.c - axes, plot data and the SVG of a sweep. */
#include "bench_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frame_stats.h"

/* ---- axes -------------------------------------------------------------------------------------- */

void bench_axis_linear(double max, bench_axis *a)
{
    memset(a, 0, sizeof *a);
    if (!(max > 0.0) || !isfinite(max)) max = 1.0;
    double raw = max / 5.0;
    double mag = pow(10.0, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm <= 1.0 ? 1.0 : norm <= 2.0 ? 2.0 : norm <= 5.0 ? 5.0 : 10.0) * mag;
    /* A max a hair above a step (rounding) does not add a nearly empty step. */
    double steps = ceil(max / step - 1e-9);
    if (steps < 1.0) steps = 1.0;
    a->lo = 0.0;
    a->hi = steps * step;
    for (int i = 0; i <= (int)steps && a->tick_count < BENCH_AXIS_MAX_TICKS; ++i) a->ticks[a->tick_count++] = i * step;
}

/* log10 of v, snapped to the integer when within rounding of it (log10(1000) is 3, never 2.9999). */
static double log10_snapped(double v)
{
    double e = log10(v);
    double r = round(e);
    return fabs(e - r) < 1e-9 ? r : e;
}

void bench_axis_log(double min, double max, bench_axis *a)
{
    memset(a, 0, sizeof *a);
    a->log = 1;
    if (!(min > 0.0) || !isfinite(min)) min = 1.0;
    if (!(max >= min) || !isfinite(max)) max = min;
    int lo_e = (int)ceil(log10_snapped(min)) - 1;
    int hi_e = (int)floor(log10_snapped(max)) + 1;
    a->lo = pow(10.0, lo_e);
    a->hi = pow(10.0, hi_e);
    int decades = hi_e - lo_e;
    int stride = decades > 10 ? (decades + 9) / 10 : 1;
    for (int e = lo_e; e <= hi_e && a->tick_count < BENCH_AXIS_MAX_TICKS; ++e) {
        if ((e - lo_e) % stride) continue;
        double d = pow(10.0, e);
        a->ticks[a->tick_count++] = d;
        if (decades <= 2 && e < hi_e && a->tick_count + 2 <= BENCH_AXIS_MAX_TICKS) {
            a->ticks[a->tick_count++] = 2.0 * d;
            a->ticks[a->tick_count++] = 5.0 * d;
        }
    }
}

double bench_axis_fraction(const bench_axis *a, double v)
{
    double t;
    if (a->log) t = v > 0.0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0.0;
    else t = (v - a->lo) / (a->hi - a->lo);
    if (!(t >= 0.0)) t = 0.0; /* NaN too */
    return t > 1.0 ? 1.0 : t;
}

void bench_axis_label(double v, char *buf, size_t size)
{
    static const struct { double scale; const char *suffix; } k_units[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (size_t i = 0; i < sizeof k_units / sizeof k_units[0]; ++i)
        if (fabs(v) >= k_units[i].scale) {
            snprintf(buf, size, "%g%s", v / k_units[i].scale, k_units[i].suffix);
            return;
        }
    snprintf(buf, size, "%g", v);
}

/* ---- data -------------------------------------------------------------------------------------- */

static void fill_bar(const bench_row *row, bench_plot_bar *b)
{
    memset(b, 0, sizeof *b);
    b->config = row->config.index;
    bench_config_label(&row->config, b->label, sizeof b->label);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        double v = row->stage[s].median;
        b->stage_ms[s] = v > 0.0 && isfinite(v) ? v : 0.0;
        b->stack_ms += b->stage_ms[s];
    }
    b->frame_ms = row->stage[SC_STAGE_COUNT].median;
    b->triangles = (double)row->triangles;
    b->pixels = (double)row->config.width * (double)row->config.height;
}

static int point_ok(const bench_plot_bar *b)
{
    return b->frame_ms > 0.0 && isfinite(b->frame_ms) && b->triangles > 0.0 && b->pixels > 0.0;
}

/* The axes from the bars: the tallest stack or marker; the ranges of the log panels' points. */
static void make_axes(bench_plot_data *d)
{
    double top = 0.0, t_lo = INFINITY, t_hi = 0.0, p_lo = INFINITY, p_hi = 0.0, y_lo = INFINITY, y_hi = 0.0;
    for (size_t i = 0; i < d->bar_count; ++i) {
        const bench_plot_bar *b = &d->bars[i];
        top = fmax(top, fmax(b->stack_ms, isfinite(b->frame_ms) ? b->frame_ms : 0.0));
        if (!point_ok(b)) continue;
        d->has_points = 1;
        t_lo = fmin(t_lo, b->triangles);
        t_hi = fmax(t_hi, b->triangles);
        p_lo = fmin(p_lo, b->pixels);
        p_hi = fmax(p_hi, b->pixels);
        y_lo = fmin(y_lo, b->frame_ms);
        y_hi = fmax(y_hi, b->frame_ms);
    }
    bench_axis_linear(top, &d->bar_y);
    if (!d->has_points) t_lo = t_hi = p_lo = p_hi = y_lo = y_hi = 1.0;
    bench_axis_log(t_lo, t_hi, &d->tri_x);
    bench_axis_log(p_lo, p_hi, &d->pix_x);
    bench_axis_log(y_lo, y_hi, &d->time_y);
}

int bench_plot_data_build(const bench_row *rows, size_t count, bench_plot_data *out)
{
    memset(out, 0, sizeof *out);
    size_t ok = 0;
    for (size_t i = 0; i < count; ++i) ok += !rows[i].failed;
    if (ok) {
        out->bars = calloc(ok, sizeof *out->bars); /* calloc checks ok * size */
        if (!out->bars) return -1;
    }
    for (size_t i = 0; i < count; ++i)
        if (!rows[i].failed) fill_bar(&rows[i], &out->bars[out->bar_count++]);
    make_axes(out);
    return 0;
}

void bench_plot_data_free(bench_plot_data *d)
{
    free(d->bars);
    memset(d, 0, sizeof *d);
}

/* ---- SVG --------------------------------------------------------------------------------------- */

/* The drawing's size and the panels' plot areas (pixels of the SVG's user space). */
enum { SVG_W = 1000, SVG_H = 900 };

typedef struct svg_area {
    double x0, y0, x1, y1;             /* left, top, right, bottom */
} svg_area;

static const svg_area k_bars_area = {80, 90, 970, 390};
static const svg_area k_tri_area = {80, 520, 470, 840};
static const svg_area k_pix_area = {580, 520, 970, 840};

/* One colour per stage, in sc_stage order. */
static const char *const k_stage_colors[SC_STAGE_COUNT] = {
    "#4e79a7", "#a0cbe8", "#f28e2b", "#ffbe7d", "#59a14f", "#8cd17d", "#b6992d", "#f1ce63", "#e15759", "#79706e",
};

static void svg_text_escaped(FILE *f, const char *s)
{
    for (; s && *s; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* Control characters are not allowed in XML 1.0, and a byte past ASCII may not be valid
             * UTF-8 (a file name's): both shown as '?'. */
            fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x80 ? '?' : *s, f);
        }
    }
}

static double area_x(const svg_area *r, const bench_axis *a, double v) { return r->x0 + bench_axis_fraction(a, v) * (r->x1 - r->x0); }
static double area_y(const svg_area *r, const bench_axis *a, double v) { return r->y1 - bench_axis_fraction(a, v) * (r->y1 - r->y0); }

/* The y axis: line, ticks with labels and grid lines, and its name turned upright. */
static void svg_y_axis(FILE *f, const svg_area *r, const bench_axis *a, const char *name)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", r->x0, r->y0, r->x0, r->y1);
    for (int i = 0; i < a->tick_count; ++i) {
        double y = area_y(r, a, a->ticks[i]);
        char label[32];
        bench_axis_label(a->ticks[i], label, sizeof label);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", r->x0, y, r->x1, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">%s</text>\n", r->x0 - 5, y + 4, label);
    }
    double cy = 0.5 * (r->y0 + r->y1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n",
            r->x0 - 52, cy, r->x0 - 52, cy, name);
}

/* The x axis of a log panel: line, ticks with labels, its name. */
static void svg_x_axis(FILE *f, const svg_area *r, const bench_axis *a, const char *name)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", r->x0, r->y1, r->x1, r->y1);
    for (int i = 0; i < a->tick_count; ++i) {
        double x = area_x(r, a, a->ticks[i]);
        char label[32];
        bench_axis_label(a->ticks[i], label, sizeof label);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, r->y0, x, r->y1);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>\n", x, r->y1 + 16, label);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">%s</text>\n", 0.5 * (r->x0 + r->x1),
            r->y1 + 36, name);
}

static void svg_legend(FILE *f)
{
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        double x = k_bars_area.x0 + s * 89.0;
        fprintf(f, "<rect x=\"%.1f\" y=\"58\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", x, k_stage_colors[s]);
        fprintf(f, "<text x=\"%.1f\" y=\"67\" font-size=\"11\">%s</text>\n", x + 14, app_stage_name(s));
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"78\" x2=\"%.1f\" y2=\"78\" stroke=\"#000\" stroke-width=\"2\"/>\n",
            k_bars_area.x0, k_bars_area.x0 + 14);
    fprintf(f, "<text x=\"%.1f\" y=\"82\" font-size=\"11\">median frame (the stages' medians are stacked)</text>\n",
            k_bars_area.x0 + 18);
}

/* One configuration's bar: a segment per stage, the frame median as a black mark. */
static void svg_bar(FILE *f, const bench_plot_data *d, size_t i, double x, double w)
{
    const bench_plot_bar *b = &d->bars[i];
    const svg_area *r = &k_bars_area;
    double base = 0.0;
    fprintf(f, "<g><title>#%u ", b->config + 1);
    svg_text_escaped(f, b->label);
    fprintf(f, ": frame %.4f ms (median)</title>\n", b->frame_ms);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        if (!(b->stage_ms[s] > 0.0)) continue;
        double y_top = area_y(r, &d->bar_y, base + b->stage_ms[s]), y_bottom = area_y(r, &d->bar_y, base);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", x, y_top, w,
                y_bottom - y_top, k_stage_colors[s]);
        base += b->stage_ms[s];
    }
    if (isfinite(b->frame_ms)) {
        double y = area_y(r, &d->bar_y, b->frame_ms);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000\" stroke-width=\"2\"/>\n", x,
                y, x + w, y);
    }
    fputs("</g>\n", f);
}

static void svg_bars_panel(FILE *f, const bench_plot_data *d)
{
    const svg_area *r = &k_bars_area;
    fputs("<text x=\"80\" y=\"44\" font-size=\"14\" font-weight=\"bold\">Frame time per stage (median ms) per "
          "configuration</text>\n", f);
    svg_legend(f);
    svg_y_axis(f, r, &d->bar_y, "frame time (ms)");
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", r->x0, r->y1, r->x1, r->y1);
    size_t n = d->bar_count ? d->bar_count : 1;
    double slot = (r->x1 - r->x0) / (double)n;
    size_t label_every = n > 40 ? (n + 39) / 40 : 1;
    for (size_t i = 0; i < d->bar_count; ++i) {
        double x = r->x0 + slot * (double)i;
        svg_bar(f, d, i, x + 0.15 * slot, 0.7 * slot);
        if (i % label_every == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%u</text>\n", x + 0.5 * slot,
                    r->y1 + 14, d->bars[i].config + 1);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">configuration (# of the table)</text>\n",
            0.5 * (r->x0 + r->x1), r->y1 + 34);
}

/* A log-log panel: median frame time against triangles (which 0) or pixels (which 1). */
static void svg_points_panel(FILE *f, const bench_plot_data *d, int which)
{
    const svg_area *r = which ? &k_pix_area : &k_tri_area;
    const bench_axis *x_axis = which ? &d->pix_x : &d->tri_x;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">Frame time against %s (log-log)</text>\n",
            r->x0, r->y0 - 20, which ? "pixels" : "triangles");
    svg_y_axis(f, r, &d->time_y, "median frame time (ms)");
    svg_x_axis(f, r, x_axis, which ? "pixels (width x height)" : "triangles");
    for (size_t i = 0; i < d->bar_count; ++i) {
        const bench_plot_bar *b = &d->bars[i];
        if (!point_ok(b)) continue;
        double x = area_x(r, x_axis, which ? b->pixels : b->triangles), y = area_y(r, &d->time_y, b->frame_ms);
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#e15759\" fill-opacity=\"0.75\"><title>#%u ", x, y,
                b->config + 1);
        svg_text_escaped(f, b->label);
        fprintf(f, ": %.4f ms</title></circle>\n", b->frame_ms);
    }
    if (!d->has_points)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">no configuration ran</text>\n",
                0.5 * (r->x0 + r->x1), 0.5 * (r->y0 + r->y1));
}

void bench_plot_svg(const bench_plot_data *d, const char *title, FILE *f)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            SVG_W, SVG_H, SVG_W, SVG_H);
    fputs("<text x=\"80\" y=\"20\" font-size=\"13\">", f);
    svg_text_escaped(f, title);
    fputs("</text>\n", f);
    svg_bars_panel(f, d);
    svg_points_panel(f, d, 0);
    svg_points_panel(f, d, 1);
    fputs("</svg>\n", f);
}

int bench_plot_write(const bench_row *rows, size_t count, const char *title, const char *path, FILE *err)
{
    bench_plot_data d;
    if (bench_plot_data_build(rows, count, &d) != 0) {
        fprintf(err, "slabcast-bench: %s: out of memory for the plot's data\n", path);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(err, "slabcast-bench: %s: cannot write the plot: %s\n", path, strerror(errno));
        bench_plot_data_free(&d);
        return -1;
    }
    bench_plot_svg(&d, title, f);
    bench_plot_data_free(&d);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(err, "slabcast-bench: %s: writing the plot failed: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
