/* bench_plot.c - axes and data of a sweep's plot, and its drawing through a plot canvas (SVG or PNG). */
#include "bench_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_report.h"

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

/* ---- drawing ----------------------------------------------------------------------------------- */

const bench_plot_area bench_plot_bars_area = {80, 90, 970, 390};
const bench_plot_area bench_plot_tri_area = {80, 520, 470, 840};
const bench_plot_area bench_plot_pix_area = {580, 520, 970, 840};

/* One colour per stage; the shadow pass's stages in teals and pinks. */
static const char *const k_stage_colors[SC_STAGE_COUNT] = {
    [SC_STAGE_DEFORM] = "#4e79a7",           [SC_STAGE_NORMALS] = "#a0cbe8",
    [SC_STAGE_PROJECT] = "#f28e2b",          [SC_STAGE_REDUCE] = "#ffbe7d",
    [SC_STAGE_SCAN] = "#59a14f",             [SC_STAGE_EMIT] = "#8cd17d",
    [SC_STAGE_TILE_SPLIT] = "#b6992d",       [SC_STAGE_SLAB_SPLIT] = "#f1ce63",
    [SC_STAGE_RAYCAST] = "#e15759",          [SC_STAGE_SHADOW_RECEIVERS] = "#499894",
    [SC_STAGE_SHADOW_EMIT] = "#86bcb6",      [SC_STAGE_SHADOW_SPLIT] = "#d37295",
    [SC_STAGE_SHADOW_CAST] = "#fabfd2",      [SC_STAGE_SHADE] = "#79706e",
};

/* A stage's colour; a stage added to sc_stage without one here is drawn in a neutral grey. */
static const char *stage_color(int s) { return k_stage_colors[s] ? k_stage_colors[s] : "#bab0ac"; }

/* The legend: BENCH_LEGEND_COLUMNS stages a row, the rows from y = 50 down, then the marker's line. */
enum { BENCH_LEGEND_COLUMNS = 7, BENCH_LEGEND_TOP = 50, BENCH_LEGEND_ROW = 13 };

static const char *const k_point_color = "#e15759";

static double area_x(const bench_plot_area *r, const bench_axis *a, double v)
{
    return r->x0 + bench_axis_fraction(a, v) * (r->x1 - r->x0);
}

static double area_y(const bench_plot_area *r, const bench_axis *a, double v)
{
    return r->y1 - bench_axis_fraction(a, v) * (r->y1 - r->y0);
}

static plot_text_style text_style(plot_anchor anchor, int size) { return (plot_text_style){anchor, size, 0, 0}; }

/* A straight line of width 1 with its ends at one decimal. */
static void thin_line(plot_canvas *c, double x1, double y1, double x2, double y2, const char *color)
{
    c->line(c, plot_d1(x1), plot_d1(y1), plot_d1(x2), plot_d1(y2), color, 1.0);
}

/* The y axis: line, ticks with labels and grid lines, and its name turned upright. */
static void draw_y_axis(plot_canvas *c, const bench_plot_area *r, const bench_axis *a, const char *name)
{
    thin_line(c, r->x0, r->y0, r->x0, r->y1, "#333");
    for (int i = 0; i < a->tick_count; ++i) {
        double y = area_y(r, a, a->ticks[i]);
        char label[32];
        bench_axis_label(a->ticks[i], label, sizeof label);
        thin_line(c, r->x0, y, r->x1, y, "#ddd");
        c->text(c, plot_d1(r->x0 - 5), plot_d1(y + 4), text_style(PLOT_ANCHOR_END, 11), label);
    }
    c->text(c, plot_d1(r->x0 - 52), plot_d1(0.5 * (r->y0 + r->y1)), (plot_text_style){PLOT_ANCHOR_MIDDLE, 12, 0, 1},
            name);
}

/* The x axis of a log panel: line, ticks with labels, its name. */
static void draw_x_axis(plot_canvas *c, const bench_plot_area *r, const bench_axis *a, const char *name)
{
    thin_line(c, r->x0, r->y1, r->x1, r->y1, "#333");
    for (int i = 0; i < a->tick_count; ++i) {
        double x = area_x(r, a, a->ticks[i]);
        char label[32];
        bench_axis_label(a->ticks[i], label, sizeof label);
        thin_line(c, x, r->y0, x, r->y1, "#ddd");
        c->text(c, plot_d1(x), plot_d1(r->y1 + 16), text_style(PLOT_ANCHOR_MIDDLE, 11), label);
    }
    c->text(c, plot_d1(0.5 * (r->x0 + r->x1)), plot_d1(r->y1 + 36), text_style(PLOT_ANCHOR_MIDDLE, 12), name);
}

static void draw_legend(plot_canvas *c)
{
    const bench_plot_area *r = &bench_plot_bars_area;
    const double column = (r->x1 - r->x0) / BENCH_LEGEND_COLUMNS;
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        double x = r->x0 + (s % BENCH_LEGEND_COLUMNS) * column;
        int y = BENCH_LEGEND_TOP + (s / BENCH_LEGEND_COLUMNS) * BENCH_LEGEND_ROW;
        c->rect(c, plot_d1(x), plot_whole(y), plot_whole(10), plot_whole(10), stage_color(s));
        c->text(c, plot_d1(x + 14), plot_whole(y + 9), text_style(PLOT_ANCHOR_START, 11), bench_stage_name(s));
    }
    const int rows = (SC_STAGE_COUNT + BENCH_LEGEND_COLUMNS - 1) / BENCH_LEGEND_COLUMNS;
    const int y = BENCH_LEGEND_TOP + rows * BENCH_LEGEND_ROW + 5;
    c->line(c, plot_d1(r->x0), plot_whole(y), plot_d1(r->x0 + 14), plot_whole(y), "#000", 2.0);
    c->text(c, plot_d1(r->x0 + 18), plot_whole(y + 4), text_style(PLOT_ANCHOR_START, 11),
            "median frame (the stages' medians are stacked)");
}

/* One configuration's bar: a segment per stage, the frame median as a black mark. */
static void draw_bar(plot_canvas *c, const bench_plot_data *d, size_t i, double x, double w)
{
    const bench_plot_bar *b = &d->bars[i];
    const bench_plot_area *r = &bench_plot_bars_area;
    char tooltip[256];
    snprintf(tooltip, sizeof tooltip, "#%u %s: frame %.4f ms (median)", b->config + 1, b->label, b->frame_ms);
    c->group_begin(c, tooltip);
    double base = 0.0;
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        if (!(b->stage_ms[s] > 0.0)) continue;
        double y_top = area_y(r, &d->bar_y, base + b->stage_ms[s]), y_bottom = area_y(r, &d->bar_y, base);
        c->rect(c, plot_d2(x), plot_d2(y_top), plot_d2(w), plot_d2(y_bottom - y_top), stage_color(s));
        base += b->stage_ms[s];
    }
    if (isfinite(b->frame_ms)) {
        double y = area_y(r, &d->bar_y, b->frame_ms);
        c->line(c, plot_d2(x), plot_d2(y), plot_d2(x + w), plot_d2(y), "#000", 2.0);
    }
    c->group_end(c);
}

static void draw_bars_panel(plot_canvas *c, const bench_plot_data *d)
{
    const bench_plot_area *r = &bench_plot_bars_area;
    c->text(c, plot_whole(80), plot_whole(44), (plot_text_style){PLOT_ANCHOR_START, 14, 1, 0},
            "Frame time per stage (median ms) per configuration");
    draw_legend(c);
    draw_y_axis(c, r, &d->bar_y, "frame time (ms)");
    thin_line(c, r->x0, r->y1, r->x1, r->y1, "#333");
    size_t n = d->bar_count ? d->bar_count : 1;
    double slot = (r->x1 - r->x0) / (double)n;
    size_t label_every = n > 40 ? (n + 39) / 40 : 1;
    for (size_t i = 0; i < d->bar_count; ++i) {
        double x = r->x0 + slot * (double)i;
        draw_bar(c, d, i, x + 0.15 * slot, 0.7 * slot);
        if (i % label_every == 0) {
            char label[16];
            snprintf(label, sizeof label, "%u", d->bars[i].config + 1);
            c->text(c, plot_d1(x + 0.5 * slot), plot_d1(r->y1 + 14), text_style(PLOT_ANCHOR_MIDDLE, 10), label);
        }
    }
    c->text(c, plot_d1(0.5 * (r->x0 + r->x1)), plot_d1(r->y1 + 34), text_style(PLOT_ANCHOR_MIDDLE, 12),
            "configuration (# of the table)");
}

/* A log-log panel: median frame time against triangles (which 0) or pixels (which 1). */
static void draw_points_panel(plot_canvas *c, const bench_plot_data *d, int which)
{
    const bench_plot_area *r = which ? &bench_plot_pix_area : &bench_plot_tri_area;
    const bench_axis *x_axis = which ? &d->pix_x : &d->tri_x;
    char title[64];
    snprintf(title, sizeof title, "Frame time against %s (log-log)", which ? "pixels" : "triangles");
    c->text(c, plot_d1(r->x0), plot_d1(r->y0 - 20), (plot_text_style){PLOT_ANCHOR_START, 14, 1, 0}, title);
    draw_y_axis(c, r, &d->time_y, "median frame time (ms)");
    draw_x_axis(c, r, x_axis, which ? "pixels (width x height)" : "triangles");
    for (size_t i = 0; i < d->bar_count; ++i) {
        const bench_plot_bar *b = &d->bars[i];
        if (!point_ok(b)) continue;
        double x = area_x(r, x_axis, which ? b->pixels : b->triangles), y = area_y(r, &d->time_y, b->frame_ms);
        char tooltip[256];
        snprintf(tooltip, sizeof tooltip, "#%u %s: %.4f ms", b->config + 1, b->label, b->frame_ms);
        c->circle(c, plot_d2(x), plot_d2(y), plot_whole(4), k_point_color, 0.75, tooltip);
    }
    if (!d->has_points)
        c->text(c, plot_d1(0.5 * (r->x0 + r->x1)), plot_d1(0.5 * (r->y0 + r->y1)), text_style(PLOT_ANCHOR_MIDDLE, 12),
                "no configuration ran");
}

void bench_plot_draw(const bench_plot_data *d, const char *title, plot_canvas *c)
{
    c->text(c, plot_whole(80), plot_whole(20), text_style(PLOT_ANCHOR_START, 13), title ? title : "");
    draw_bars_panel(c, d);
    draw_points_panel(c, d, 0);
    draw_points_panel(c, d, 1);
}

void bench_plot_svg(const bench_plot_data *d, const char *title, FILE *f)
{
    plot_svg svg;
    plot_svg_begin(&svg, f, BENCH_PLOT_WIDTH, BENCH_PLOT_HEIGHT);
    bench_plot_draw(d, title, &svg.canvas);
    plot_svg_end(&svg);
}

int bench_plot_png(const bench_plot_data *d, const char *title, const char *path)
{
    plot_raster raster;
    if (plot_raster_init(&raster, BENCH_PLOT_WIDTH, BENCH_PLOT_HEIGHT) != 0) {
        errno = ENOMEM;
        return -1;
    }
    bench_plot_draw(d, title, &raster.canvas);
    int rc = raster.failed ? (errno = ENOMEM, -1) : plot_raster_write_png(&raster, path);
    plot_raster_free(&raster);
    return rc;
}

int bench_plot_write(const bench_row *rows, size_t count, const char *title, const char *path, FILE *err)
{
    bench_plot_data d;
    if (bench_plot_data_build(rows, count, &d) != 0) {
        fprintf(err, "slabcast-bench: %s: out of memory for the plot's data\n", path);
        return -1;
    }
    if (bench_plot_format_of(path) == BENCH_PLOT_PNG) {
        errno = 0;
        int rc = bench_plot_png(&d, title, path);
        bench_plot_data_free(&d);
        if (rc != 0)
            fprintf(err, "slabcast-bench: %s: writing the plot failed: %s\n", path,
                    errno ? strerror(errno) : "the PNG encoder failed");
        return rc;
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
