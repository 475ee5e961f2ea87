/* hud_graphics.c - the colour-bar legend, the per-stage bar graph and the notice banner (see
 * hud_graphics.h), laid out in window pixels and drawn as one HUD batch each. */
#include "hud_graphics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "frame_stats.h"

static const unsigned char k_panel[4] = {0, 0, 0, 170};   /* the panels' background, as the HUD's */
static const unsigned char k_white[4] = {240, 240, 240, 255};

static int max_int(int a, int b) { return a > b ? a : b; }
static int min_int(int a, int b) { return a < b ? a : b; }

/* ---- the legend ---------------------------------------------------------------------------------- */

#define LEGEND_MAX_TICKS 8

typedef struct legend_tick {
    float t;                       /* place on the bar, 0 .. 1 */
    int x, w;                      /* the label's left edge and width, in pixels */
    char label[32];
} legend_tick;

/* A value's place on the scale, 0 (cold end) .. 1 (hot end): log2(1 + v) on a log scale; the centre
 * of its box on a discrete one. */
static float scale_position(const sc_view_legend *l, float v)
{
    if (l->discrete) return (v - l->min_value + 0.5f) / (l->max_value - l->min_value + 1.0f);
    if (l->log_scale) {
        const float lo = log2f(1.0f + l->min_value), hi = log2f(1.0f + l->max_value);
        return hi > lo ? (log2f(1.0f + v) - lo) / (hi - lo) : 1.0f;
    }
    return l->max_value > l->min_value ? (v - l->min_value) / (l->max_value - l->min_value) : 0.0f;
}

/* The value at place t of the bar (the inverse of scale_position; on a discrete scale a value in
 * the class whose box covers t). */
static float scale_value(const sc_view_legend *l, float t)
{
    if (t <= 0.0f) return l->min_value;
    if (t >= 1.0f && !l->discrete) return l->max_value; /* the ends exactly, not within rounding */
    if (l->discrete) return l->min_value + t * (l->max_value - l->min_value + 1.0f);
    if (l->log_scale) {
        const float lo = log2f(1.0f + l->min_value), hi = log2f(1.0f + l->max_value);
        return exp2f(lo + t * (hi - lo)) - 1.0f;
    }
    return l->min_value + t * (l->max_value - l->min_value);
}

/* Adds a tick at value v when its label fits between the bar's ends without touching another's. */
static void add_tick(legend_tick *ticks, int *n, const sc_view_legend *l, float v, const char *suffix, app_rect bar,
                     int scale)
{
    if (*n == LEGEND_MAX_TICKS) return;
    legend_tick k;
    k.t = scale_position(l, v);
    snprintf(k.label, sizeof k.label, "%g%s", (double)v, suffix);
    int h;
    app_hud_text_size(k.label, scale, &k.w, &h);
    const int centre = bar.x + (int)lroundf(k.t * (float)bar.w);
    k.x = min_int(max_int(centre - k.w / 2, bar.x), bar.x + bar.w - k.w);
    const int gap = 6 * scale;
    for (int i = 0; i < *n; ++i)
        if (k.x < ticks[i].x + ticks[i].w + gap && ticks[i].x < k.x + k.w + gap) return;
    ticks[(*n)++] = k;
}

/* The ticks: both ends (the hot end of a heat scale "max+": counts above it are clamped to it),
 * then the middle (linear, discrete) or the powers of ten (log), as many as fit. */
static int legend_ticks(const sc_view_legend *l, app_rect bar, int scale, legend_tick ticks[LEGEND_MAX_TICKS])
{
    int n = 0;
    add_tick(ticks, &n, l, l->min_value, "", bar, scale);
    add_tick(ticks, &n, l, l->max_value, l->log_scale ? "+" : "", bar, scale);
    if (l->log_scale) {
        for (float p = 1e9f; p >= 1.0f; p /= 10.0f)
            if (p > l->min_value && p < l->max_value) add_tick(ticks, &n, l, p, "", bar, scale);
    } else if (l->discrete) {
        add_tick(ticks, &n, l, floorf(0.5f * (l->min_value + l->max_value)), "", bar, scale);
    } else {
        add_tick(ticks, &n, l, 0.5f * (l->min_value + l->max_value), "", bar, scale);
    }
    return n;
}

static int add_colour(app_hud *h, const sc_renderer *r, float value, app_rect box)
{
    uint8_t c[4];
    if (sc_renderer_view_color(r, value, c) != SC_OK) return app_hud_fail("legend: %s", sc_last_error());
    return app_hud_add_rect(h, box, c);
}

/* The bar: one box per class of a small discrete scale (a pixel of the image between boxes), else
 * one column per font pixel, the first and last at the scale's ends (their colours exactly), the
 * others evenly between. */
static int add_bar(app_hud *h, const sc_renderer *r, const sc_view_legend *l, app_rect bar, int scale)
{
    const float classes = l->max_value - l->min_value + 1.0f;
    if (l->discrete && classes <= (float)APP_LEGEND_MAX_BOXES) {
        const int n = (int)classes;
        for (int k = 0; k < n; ++k) {
            const int x0 = bar.x + k * bar.w / n, x1 = bar.x + (k + 1) * bar.w / n;
            const int gap = x1 - x0 >= 4 * scale ? scale : 0;
            if (add_colour(h, r, l->min_value + (float)k, (app_rect){x0, bar.y, x1 - x0 - gap, bar.h}) != 0) return -1;
        }
        return 0;
    }
    const int n = max_int(bar.w / scale, 1);
    for (int i = 0; i < n; ++i) {
        const int x0 = bar.x + i * bar.w / n, x1 = bar.x + (i + 1) * bar.w / n;
        const float t = n > 1 ? (float)i / (float)(n - 1) : 0.5f;
        if (add_colour(h, r, scale_value(l, t), (app_rect){x0, bar.y, x1 - x0, bar.h}) != 0) return -1;
    }
    return 0;
}

static void legend_caption(const sc_view_legend *l, char *buf, size_t size)
{
    if (l->discrete)
        snprintf(buf, size, "%s (%g %s)", l->quantity, (double)(l->max_value - l->min_value + 1.0f),
                 l->classes ? l->classes : "classes");
    else
        snprintf(buf, size, "%s%s", l->quantity, l->log_scale ? " (log scale)" : "");
}

int app_hud_draw_legend(app_hud *h, const sc_renderer *r, int scale, int fb_width, int fb_height, app_rect *drawn)
{
    *drawn = (app_rect){0, 0, 0, 0};
    sc_view_legend l;
    if (sc_renderer_get_view_legend(r, &l) != SC_OK) return app_hud_fail("legend: %s", sc_last_error());
    if (!l.has_scale) return 0;
    char caption[160];
    legend_caption(&l, caption, sizeof caption);
    const int pad = APP_HUD_PAD * scale, tick_h = 3 * scale, line = APP_HUD_LINE * scale;
    int cap_w, cap_h;
    app_hud_text_size(caption, scale, &cap_w, &cap_h);
    const int bar_w = min_int(APP_LEGEND_WIDTH * scale, fb_width - 2 * pad), bar_h = APP_LEGEND_HEIGHT * scale;
    if (bar_w < 8 * scale) return 0; /* no room for a bar */
    const int panel_h = pad + cap_h + 2 * scale + bar_h + tick_h + scale + line + pad;
    const app_rect panel = {0, fb_height - panel_h, max_int(bar_w, cap_w) + 2 * pad, panel_h};
    const app_rect bar = {pad, panel.y + pad + cap_h + 2 * scale, bar_w, bar_h};
    legend_tick ticks[LEGEND_MAX_TICKS];
    const int n = legend_ticks(&l, bar, scale, ticks);
    app_hud_begin(h);
    if (app_hud_add_rect(h, panel, k_panel) != 0 || app_hud_add_text(h, caption, bar.x, panel.y + pad, scale, k_white) != 0 ||
        add_bar(h, r, &l, bar, scale) != 0)
        return -1;
    for (int i = 0; i < n; ++i) {
        const int cx = bar.x + min_int((int)lroundf(ticks[i].t * (float)bar.w), bar.w - scale);
        if (app_hud_add_rect(h, (app_rect){cx, bar.y + bar.h, scale, tick_h}, k_white) != 0 ||
            app_hud_add_text(h, ticks[i].label, ticks[i].x, bar.y + bar.h + tick_h + scale, scale, k_white) != 0)
            return -1;
    }
    *drawn = app_rect_clip(panel, fb_width, fb_height);
    return app_hud_flush(h, *drawn, fb_width, fb_height);
}

/* ---- the per-stage bar graph --------------------------------------------------------------------- */

/* One colour per stage, in sc_stage's order: Tableau 10 for the eye pass and shade, four more of
 * Tableau 20 / D3 for the shadow pass; neighbours in the frame's order differ clearly. */
static const unsigned char k_stage_colours[][4] = {
    {78, 121, 167, 255},  {242, 142, 43, 255}, {225, 87, 89, 255},  {118, 183, 178, 255}, {89, 161, 79, 255},
    {237, 201, 72, 255},  {176, 122, 161, 255}, {255, 157, 167, 255}, {156, 117, 95, 255},
    {148, 103, 189, 255}, {23, 190, 207, 255},  {188, 189, 34, 255},  {227, 119, 194, 255}, /* shadow pass */
    {186, 176, 172, 255},                                                                      /* shade */
};
_Static_assert(sizeof k_stage_colours / sizeof k_stage_colours[0] == SC_STAGE_COUNT,
               "one colour per stage of sc_stage");

static double stage_time(const sc_frame_stats *st, int i)
{
    const double ms = st->stage_ms[i];
    return isfinite(ms) && ms > 0.0 ? ms : 0.0;
}

/* The key's entries (a swatch, then the name in its colour) in rows of at most `width` pixels from
 * (x, y): their left edges in xs, ys; returns the key's height. */
static int layout_key(int x, int y, int width, int scale, int xs[SC_STAGE_COUNT], int ys[SC_STAGE_COUNT])
{
    const int swatch = 6 * scale, space = 8 * scale, line = APP_HUD_LINE * scale;
    int cx = x, cy = y;
    for (int i = 0; i < SC_STAGE_COUNT; ++i) {
        int w, h;
        app_hud_text_size(app_stage_name(i), scale, &w, &h);
        const int entry = swatch + 2 * scale + w;
        if (cx > x && cx + entry > x + width) {
            cx = x;
            cy += line;
        }
        xs[i] = cx;
        ys[i] = cy;
        cx += entry + space;
    }
    return cy + line - y;
}

static int add_stage_bar(app_hud *h, const sc_frame_stats *st, app_rect bar)
{
    static const unsigned char grey[4] = {70, 70, 70, 255};
    double total = 0.0;
    for (int i = 0; i < SC_STAGE_COUNT; ++i) total += stage_time(st, i);
    if (!(total > 0.0)) return app_hud_add_rect(h, bar, grey);
    double before = 0.0;
    for (int i = 0; i < SC_STAGE_COUNT; ++i) {
        /* Edges from the running sum, so the segments tile the bar exactly. */
        const int x0 = bar.x + (int)lround(bar.w * (before / total));
        before += stage_time(st, i);
        const int x1 = bar.x + (int)lround(bar.w * (before / total));
        if (app_hud_add_rect(h, (app_rect){x0, bar.y, x1 - x0, bar.h}, k_stage_colours[i]) != 0) return -1;
    }
    return 0;
}

int app_hud_draw_stage_graph(app_hud *h, const sc_frame_stats *st, int x, int y, int width, int scale, int fb_width,
                             int fb_height, app_rect *drawn)
{
    *drawn = (app_rect){0, 0, 0, 0};
    const int pad = APP_HUD_PAD * scale, swatch = 6 * scale;
    const int inner = width - 2 * pad;
    if (inner < 16 * scale) return 0; /* no room */
    const app_rect bar = {x + pad, y + pad, inner, 8 * scale};
    int xs[SC_STAGE_COUNT], ys[SC_STAGE_COUNT];
    const int key_h = layout_key(bar.x, bar.y + bar.h + 4 * scale, inner, scale, xs, ys);
    const app_rect panel = {x, y, width, pad + bar.h + 4 * scale + key_h + pad};
    app_hud_begin(h);
    if (app_hud_add_rect(h, panel, k_panel) != 0 || add_stage_bar(h, st, bar) != 0) return -1;
    for (int i = 0; i < SC_STAGE_COUNT; ++i) {
        /* The swatch on the text's x-height band (stb_easy_font's capitals are about 7 pixels). */
        const app_rect sw = {xs[i], ys[i] + scale, swatch, swatch};
        if (app_hud_add_rect(h, sw, k_stage_colours[i]) != 0 ||
            app_hud_add_text(h, app_stage_name(i), xs[i] + swatch + 2 * scale, ys[i], scale, k_stage_colours[i]) != 0)
            return -1;
    }
    *drawn = app_rect_clip(panel, fb_width, fb_height);
    return app_hud_flush(h, *drawn, fb_width, fb_height);
}

/* ---- the notice banner --------------------------------------------------------------------------- */

int app_hud_draw_banner(app_hud *h, const char *text, int bottom, int scale, int fb_width, int fb_height,
                        app_rect *drawn)
{
    static const unsigned char band[4] = {0, 0, 0, 200}, amber[4] = {255, 214, 102, 255};
    *drawn = (app_rect){0, 0, 0, 0};
    if (!text[0]) return 0;
    const int pad = APP_HUD_PAD * scale, pad_x = 3 * pad;
    int w, th;
    app_hud_text_size(text, scale, &w, &th);
    const app_rect r = {(fb_width - w) / 2 - pad_x, bottom - th - 2 * pad, w + 2 * pad_x, th + 2 * pad};
    app_hud_begin(h);
    if (app_hud_add_rect(h, r, band) != 0 || app_hud_add_text(h, text, r.x + pad_x, r.y + pad, scale, amber) != 0)
        return -1;
    *drawn = app_rect_clip(r, fb_width, fb_height);
    return app_hud_flush(h, *drawn, fb_width, fb_height);
}
