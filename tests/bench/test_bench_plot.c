/* test_bench_plot.c - slabcast-bench's plot as numbers: the axes (round linear ends and steps, log
 * axes in whole decades holding every point strictly inside, a single point mid-axis), the tick
 * labels, the bars' segments and heights from the rows, the SVG built from them (well formed,
 * one circle per point per panel, text escaped), and the PNG read back: its size, background, the
 * bars' segments and marks, the points and the title where the axes put them; a PNG onto a device
 * that fails every write is an error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sctest_png.h"

#include "bench_plot.h"
#include "sctest.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b))); }

static void check_ticks(const bench_axis *a, const double *want, int n)
{
    SCT_CHECK_MSG(a->tick_count == n, "%d ticks, not %d", a->tick_count, n);
    for (int i = 0; i < n && i < a->tick_count; ++i)
        SCT_CHECK_MSG(near(a->ticks[i], want[i]), "tick %d is %g, not %g", i, a->ticks[i], want[i]);
}

static void test_linear_axis(void)
{
    bench_axis a;
    bench_axis_linear(7.3, &a);
    SCT_CHECK(!a.log && a.lo == 0.0 && near(a.hi, 8.0));
    check_ticks(&a, (double[]){0, 2, 4, 6, 8}, 5);
    bench_axis_linear(10.0, &a); /* an exact step count adds no empty step */
    SCT_CHECK(near(a.hi, 10.0));
    check_ticks(&a, (double[]){0, 2, 4, 6, 8, 10}, 6);
    bench_axis_linear(0.0123, &a);
    SCT_CHECK(near(a.hi, 0.015));
    check_ticks(&a, (double[]){0, 0.005, 0.01, 0.015}, 4);
    bench_axis_linear(0.0, &a); /* nothing measured: 0 .. 1 */
    SCT_CHECK(near(a.hi, 1.0) && a.tick_count >= 2);
    bench_axis_linear(NAN, &a);
    SCT_CHECK(near(a.hi, 1.0));
    SCT_CHECK(near(bench_axis_fraction(&a, 0.25), 0.25));
    SCT_CHECK(bench_axis_fraction(&a, -1.0) == 0.0 && bench_axis_fraction(&a, 7.0) == 1.0);
    SCT_CHECK(bench_axis_fraction(&a, NAN) == 0.0);
}

static void test_log_axis(void)
{
    bench_axis a;
    bench_axis_log(2304.0, 9216.0, &a);
    SCT_CHECK(a.log && near(a.lo, 1e3) && near(a.hi, 1e4));
    check_ticks(&a, (double[]){1e3, 2e3, 5e3, 1e4}, 4);
    /* One point on an exact decade sits in the middle, not on an edge. */
    bench_axis_log(1000.0, 1000.0, &a);
    SCT_CHECK(near(a.lo, 100.0) && near(a.hi, 1e4));
    SCT_CHECK(near(bench_axis_fraction(&a, 1000.0), 0.5));
    check_ticks(&a, (double[]){100, 200, 500, 1e3, 2e3, 5e3, 1e4}, 7);
    /* Small values (ms) work the same. */
    bench_axis_log(0.03, 0.7, &a);
    SCT_CHECK(near(a.lo, 0.01) && near(a.hi, 1.0));
    SCT_CHECK(bench_axis_fraction(&a, 0.03) > 0.0 && bench_axis_fraction(&a, 0.7) < 1.0);
    /* Many decades: a tick every other decade, at most BENCH_AXIS_MAX_TICKS. */
    bench_axis_log(1.0, 1e12, &a);
    SCT_CHECK(near(a.lo, 0.1) && near(a.hi, 1e13));
    check_ticks(&a, (double[]){0.1, 10, 1e3, 1e5, 1e7, 1e9, 1e11, 1e13}, 8);
    SCT_CHECK(near(bench_axis_fraction(&a, 1e6), 0.5));
    /* Nonsense ranges still give an axis. */
    bench_axis_log(0.0, -1.0, &a);
    SCT_CHECK(a.lo > 0.0 && a.hi > a.lo && a.tick_count > 0);
}

static void test_labels(void)
{
    static const struct { double v; const char *s; } k_cases[] = {
        {0, "0"}, {0.25, "0.25"}, {20, "20"}, {999, "999"}, {1000, "1k"}, {2000, "2k"}, {2.5e6, "2.5M"}, {1e9, "1G"},
        {0.005, "0.005"},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; ++i) {
        char buf[32];
        bench_axis_label(k_cases[i].v, buf, sizeof buf);
        SCT_CHECK_MSG(strcmp(buf, k_cases[i].s) == 0, "%g -> %s, not %s", k_cases[i].v, buf, k_cases[i].s);
    }
}

/* The sum of the stages' medians of make_rows' first row: 0.1 + 0.2 + ... over SC_STAGE_COUNT stages. */
#define STAGE_SUM (0.05 * SC_STAGE_COUNT * (SC_STAGE_COUNT + 1))

/* Three configurations; the second failed. */
static void make_rows(bench_row rows[3])
{
    memset(rows, 0, 3 * sizeof *rows);
    for (int i = 0; i < 3; ++i) {
        rows[i].config = (bench_config){(unsigned)i, 0, i == 2 ? "a<b>&\"c\".obj" : NULL, 0, 5,
                                        64u << i, 48u << i, 8, 16, 0, 1, 0};
        for (int s = 0; s < SC_STAGE_COUNT; ++s) rows[i].stage[s].median = 0.1 * (s + 1) * (i + 1);
        rows[i].stage[SC_STAGE_COUNT].median = (STAGE_SUM + 0.5) * (i + 1); /* a bit above the stages' sum */
        rows[i].triangles = 576u * (i + 1);
    }
    rows[1].failed = 1;
}

static void test_data(void)
{
    bench_row rows[3];
    make_rows(rows);
    bench_plot_data d;
    SCT_REQUIRE(bench_plot_data_build(rows, 3, &d) == 0);
    SCT_REQUIRE(d.bar_count == 2); /* the failed row left out */
    SCT_CHECK_EQ_U64(d.bars[0].config, 0);
    SCT_CHECK_EQ_U64(d.bars[1].config, 2);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) SCT_CHECK(near(d.bars[1].stage_ms[s], 0.3 * (s + 1)));
    SCT_CHECK(near(d.bars[0].stack_ms, STAGE_SUM));
    SCT_CHECK(near(d.bars[1].stack_ms, 3.0 * STAGE_SUM));
    SCT_CHECK(near(d.bars[1].frame_ms, 3.0 * (STAGE_SUM + 0.5)));
    SCT_CHECK(near(d.bars[1].pixels, 256.0 * 192.0));
    SCT_CHECK(near(d.bars[1].triangles, 1728.0));
    /* The bar axis holds the tallest of stacks and markers (the last frame marker), rounded up to a step. */
    bench_axis want;
    bench_axis_linear(3.0 * (STAGE_SUM + 0.5), &want);
    SCT_CHECK(near(d.bar_y.hi, want.hi) && d.bar_y.hi >= 3.0 * (STAGE_SUM + 0.5));
    SCT_CHECK(d.has_points);
    SCT_CHECK(near(d.tri_x.lo, 100.0) && near(d.tri_x.hi, 1e4));
    SCT_CHECK(near(d.pix_x.lo, 1e3) && near(d.pix_x.hi, 1e5));
    bench_axis_log(STAGE_SUM + 0.5, 3.0 * (STAGE_SUM + 0.5), &want);
    SCT_CHECK(near(d.time_y.lo, want.lo) && near(d.time_y.hi, want.hi));
    for (size_t i = 0; i < d.bar_count; ++i) {
        double t = bench_axis_fraction(&d.time_y, d.bars[i].frame_ms);
        SCT_CHECK(t > 0.0 && t < 1.0);
    }
    SCT_CHECK(strstr(d.bars[1].label, "a<b>&\"c\" 256x192"));
    bench_plot_data_free(&d);
}

/* One configuration: its point is drawn, mid-axis on both log panels. */
static void test_single_point(void)
{
    bench_row rows[3];
    make_rows(rows);
    bench_plot_data d;
    SCT_REQUIRE(bench_plot_data_build(rows, 1, &d) == 0);
    SCT_REQUIRE(d.bar_count == 1 && d.has_points);
    double fx = bench_axis_fraction(&d.tri_x, d.bars[0].triangles);
    double fy = bench_axis_fraction(&d.time_y, d.bars[0].frame_ms);
    SCT_CHECK(fx > 0.0 && fx < 1.0 && fy > 0.0 && fy < 1.0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bench_plot_svg(&d, "one", f);
    fclose(f);
    size_t circles = 0;
    for (const char *p = text; (p = strstr(p, "<circle")); ++p) ++circles;
    SCT_CHECK_EQ_U64(circles, 2);
    free(text);
    bench_plot_data_free(&d);
}

/* Start and end tags balance (the SVG has no comments or CDATA), and no raw '&' or '<' is in text. */
static int tags_balance(const char *s)
{
    int depth = 0;
    for (const char *p = s; (p = strchr(p, '<')); ++p) {
        if (p[1] == '?') continue;
        const char *close = strchr(p, '>');
        if (!close) return 0;
        if (p[1] == '/') --depth;
        else if (close[-1] != '/') ++depth;
        if (depth < 0) return 0;
    }
    return depth == 0;
}

static void test_svg(void)
{
    bench_row rows[3];
    make_rows(rows);
    bench_plot_data d;
    SCT_REQUIRE(bench_plot_data_build(rows, 3, &d) == 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bench_plot_svg(&d, "on <gpu> & \"co\"", f);
    fclose(f);
    SCT_REQUIRE(text);
    SCT_CHECK(strncmp(text, "<?xml", 5) == 0);
    SCT_CHECK(strstr(text, "</svg>\n") == text + len - 7);
    SCT_CHECK(tags_balance(text));
    SCT_CHECK(strstr(text, "on &lt;gpu&gt; &amp; &quot;co&quot;"));
    SCT_CHECK(strstr(text, "a&lt;b&gt;&amp;&quot;c&quot; 256x192"));
    SCT_CHECK(strstr(text, "Frame time per stage"));
    SCT_CHECK(strstr(text, "Frame time against triangles (log-log)"));
    SCT_CHECK(strstr(text, "Frame time against pixels (log-log)"));
    size_t circles = 0, rects = 0;
    for (const char *p = text; (p = strstr(p, "<circle")); ++p) ++circles;
    for (const char *p = text; (p = strstr(p, "<rect x=")); ++p) ++rects;
    SCT_CHECK_EQ_U64(circles, 4);                                  /* two points on each log panel */
    SCT_CHECK_EQ_U64(rects, SC_STAGE_COUNT + 2 * SC_STAGE_COUNT); /* the legend, then each bar's segments */
    /* Tick labels of the axes are written. */
    SCT_CHECK(strstr(text, ">1k</text>") && strstr(text, ">100</text>") && strstr(text, ">20</text>"));
    free(text);
    bench_plot_data_free(&d);
}

/* Nothing ran: still a drawing, saying so. */
static void test_svg_empty(void)
{
    bench_row rows[3];
    make_rows(rows);
    for (int i = 0; i < 3; ++i) rows[i].failed = 1;
    bench_plot_data d;
    SCT_REQUIRE(bench_plot_data_build(rows, 3, &d) == 0);
    SCT_CHECK(d.bar_count == 0 && !d.has_points);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bench_plot_svg(&d, "none", f);
    fclose(f);
    SCT_CHECK(tags_balance(text));
    SCT_CHECK(strstr(text, "no configuration ran"));
    free(text);
    bench_plot_data_free(&d);
}

/* The stages' colours as the plot draws them: every stage has its own. */
static const unsigned k_stage_rgb[SC_STAGE_COUNT] = {
    [SC_STAGE_DEFORM] = 0x4e79a7,           [SC_STAGE_NORMALS] = 0xa0cbe8,
    [SC_STAGE_PROJECT] = 0xf28e2b,          [SC_STAGE_REDUCE] = 0xffbe7d,
    [SC_STAGE_SCAN] = 0x59a14f,             [SC_STAGE_EMIT] = 0x8cd17d,
    [SC_STAGE_TILE_SPLIT] = 0xb6992d,       [SC_STAGE_SLAB_SPLIT] = 0xf1ce63,
    [SC_STAGE_RAYCAST] = 0xe15759,          [SC_STAGE_SHADOW_RECEIVERS] = 0x499894,
    [SC_STAGE_SHADOW_EMIT] = 0x86bcb6,      [SC_STAGE_SHADOW_SPLIT] = 0xd37295,
    [SC_STAGE_SHADOW_CAST] = 0xfabfd2,      [SC_STAGE_SHADE] = 0x79706e,
};

/* No stage is left without a colour of its own (a new sc_stage needs one in bench_plot.c and here). */
static void test_stage_colors(void)
{
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        SCT_CHECK_MSG(k_stage_rgb[s] != 0, "stage %d has no colour", s);
        for (int t = 0; t < s; ++t) SCT_CHECK_MSG(k_stage_rgb[s] != k_stage_rgb[t], "stages %d and %d share a colour", t, s);
    }
}

typedef struct png_image {
    unsigned char *rgba;
    int width, height;
} png_image;

static const unsigned char *pixel_at(const png_image *im, double x, double y)
{
    int px = (int)floor(x), py = (int)floor(y);
    if (px < 0) px = 0;
    if (py < 0) py = 0;
    if (px >= im->width) px = im->width - 1;
    if (py >= im->height) py = im->height - 1;
    return im->rgba + ((size_t)py * (size_t)im->width + (size_t)px) * 4;
}

/* Every channel within tol of (r, g, b), and opaque. */
static int pixel_is(const unsigned char *p, double r, double g, double b, double tol)
{
    return fabs(p[0] - r) <= tol && fabs(p[1] - g) <= tol && fabs(p[2] - b) <= tol && p[3] == 255;
}

static int pixel_is_rgb(const unsigned char *p, unsigned rgb)
{
    return pixel_is(p, (rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, 0.0);
}

/* Where the axes put v in the panel. */
static double plot_x(const bench_plot_area *r, const bench_axis *a, double v)
{
    return r->x0 + bench_axis_fraction(a, v) * (r->x1 - r->x0);
}

static double plot_y(const bench_plot_area *r, const bench_axis *a, double v)
{
    return r->y1 - bench_axis_fraction(a, v) * (r->y1 - r->y0);
}

/* Two configurations with segments several pixels tall (one stage of the second empty), points off
 * the grid lines. */
static void make_png_rows(bench_row rows[2])
{
    memset(rows, 0, 2 * sizeof *rows);
    for (int i = 0; i < 2; ++i) {
        rows[i].config = (bench_config){(unsigned)i, 0, NULL, 0, 5, 64u << i, 48u << i, 8, 16, 0, 1, 0};
        for (int s = 0; s < SC_STAGE_COUNT; ++s) rows[i].stage[s].median = (1.0 + 0.1 * s) * (i + 1);
        rows[i].triangles = 3000u * (i * 9 + 1);
    }
    rows[1].stage[3].median = 0.0;
    /* The frame marks 1.9 ms above the stacks, clear of every segment's middle (with 14 stages: 25 and
     * 45.5 ms, between the log panels' ticks). */
    for (int i = 0; i < 2; ++i) {
        double stack = 0.0;
        for (int s = 0; s < SC_STAGE_COUNT; ++s) stack += rows[i].stage[s].median;
        rows[i].stage[SC_STAGE_COUNT].median = stack + 1.9;
    }
}

static void test_png(void)
{
    bench_row rows[2];
    make_png_rows(rows);
    bench_plot_data d;
    SCT_REQUIRE(bench_plot_data_build(rows, 2, &d) == 0);
    char dir[] = "/tmp/test_bench_plot_XXXXXX";
    SCT_REQUIRE(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/plot.PNG", dir);
    SCT_REQUIRE(bench_plot_write(rows, 2, "gpu 0 commit abc", path, stderr) == 0);
    png_image im;
    int channels = 0;
    im.rgba = stbi_load(path, &im.width, &im.height, &channels, 4);
    unlink(path);
    rmdir(dir);
    SCT_REQUIRE(im.rgba);
    SCT_CHECK(im.width == BENCH_PLOT_WIDTH && im.height == BENCH_PLOT_HEIGHT && channels == 4);
    SCT_CHECK(im.width == 1000 && im.height == 900);
    SCT_CHECK(pixel_is_rgb(pixel_at(&im, 1, 1), 0xffffff) && pixel_is_rgb(pixel_at(&im, 998, 898), 0xffffff));

    /* Each bar: the middle of each non-zero segment in its stage's colour, the frame median black. */
    const bench_plot_area *r = &bench_plot_bars_area;
    double slot = (r->x1 - r->x0) / 2.0;
    for (size_t i = 0; i < d.bar_count; ++i) {
        double x_mid = r->x0 + slot * (double)i + 0.5 * slot, base = 0.0;
        for (int s = 0; s < SC_STAGE_COUNT; ++s) {
            double ms = d.bars[i].stage_ms[s];
            if (!(ms > 0.0)) continue;
            double y_mid = 0.5 * (plot_y(r, &d.bar_y, base) + plot_y(r, &d.bar_y, base + ms));
            const unsigned char *p = pixel_at(&im, x_mid, y_mid);
            SCT_CHECK_MSG(pixel_is_rgb(p, k_stage_rgb[s]), "bar %zu stage %d: %02x%02x%02x, not %06x", i, s, p[0], p[1],
                          p[2], k_stage_rgb[s]);
            base += ms;
        }
        const unsigned char *mark = pixel_at(&im, x_mid, plot_y(r, &d.bar_y, d.bars[i].frame_ms));
        SCT_CHECK_MSG(pixel_is_rgb(mark, 0x000000), "bar %zu mark: %02x%02x%02x", i, mark[0], mark[1], mark[2]);
    }

    /* Each point on both log panels: the point colour at 0.75 over white. */
    for (int which = 0; which < 2; ++which) {
        const bench_plot_area *pr = which ? &bench_plot_pix_area : &bench_plot_tri_area;
        const bench_axis *xa = which ? &d.pix_x : &d.tri_x;
        for (size_t i = 0; i < d.bar_count; ++i) {
            double x = plot_x(pr, xa, which ? d.bars[i].pixels : d.bars[i].triangles);
            double y = plot_y(pr, &d.time_y, d.bars[i].frame_ms);
            const unsigned char *p = pixel_at(&im, x, y);
            SCT_CHECK_MSG(pixel_is(p, 0.75 * 0xe1 + 0.25 * 255, 0.75 * 0x57 + 0.25 * 255, 0.75 * 0x59 + 0.25 * 255, 2.0),
                          "panel %d point %zu at (%.1f, %.1f): %02x%02x%02x", which, i, x, y, p[0], p[1], p[2]);
        }
    }

    /* The title (baseline y = 20, from x = 80) puts dark pixels in its row; above it is blank. */
    int dark = 0, above = 0;
    for (int y = 10; y < 20; ++y)
        for (int x = 80; x < 300; ++x) dark += pixel_at(&im, x, y)[0] < 100;
    for (int y = 0; y < 5; ++y)
        for (int x = 0; x < im.width; ++x) above += pixel_at(&im, x, y)[0] < 250;
    SCT_CHECK_MSG(dark > 40, "%d dark pixels in the title's row", dark);
    SCT_CHECK_EQ_U64(above, 0);
    stbi_image_free(im.rgba);
    bench_plot_data_free(&d);
}

/* A PNG plot onto a device that fails every write (/dev/full, through a link with a .png name): -1 and
 * one line naming the file and the reason, not a success with a truncated file. */
static void test_png_write_fails(void)
{
    if (access("/dev/full", W_OK) != 0) {
        sct_skip("no writable /dev/full here");
        return;
    }
    bench_row rows[2];
    make_png_rows(rows);
    char dir[] = "/tmp/test_bench_plot_XXXXXX";
    SCT_REQUIRE(mkdtemp(dir));
    char path[64], msg[512] = "";
    snprintf(path, sizeof path, "%s/full.png", dir);
    SCT_REQUIRE(symlink("/dev/full", path) == 0);
    FILE *err = tmpfile();
    SCT_REQUIRE(err);
    SCT_CHECK(bench_plot_write(rows, 2, "title", path, err) == -1);
    rewind(err);
    if (!fgets(msg, sizeof msg, err)) msg[0] = 0;
    fclose(err);
    SCT_CHECK_MSG(strstr(msg, path) && strstr(msg, "No space left on device"), "message: '%s'", msg);
    unlink(path);
    rmdir(dir);
}

/* The format goes by the extension, in any case. */
static void test_format(void)
{
    SCT_CHECK(bench_plot_format_of("a.svg") == BENCH_PLOT_SVG);
    SCT_CHECK(bench_plot_format_of("dir.png/A.SVG") == BENCH_PLOT_SVG);
    SCT_CHECK(bench_plot_format_of("x.Png") == BENCH_PLOT_PNG);
    SCT_CHECK(bench_plot_format_of("x.pdf") == BENCH_PLOT_UNKNOWN);
    SCT_CHECK(bench_plot_format_of("png") == BENCH_PLOT_UNKNOWN);
    SCT_CHECK(bench_plot_format_of("") == BENCH_PLOT_UNKNOWN);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_plot");
    SCT_RUN(test_linear_axis);
    SCT_RUN(test_log_axis);
    SCT_RUN(test_labels);
    SCT_RUN(test_data);
    SCT_RUN(test_single_point);
    SCT_RUN(test_svg);
    SCT_RUN(test_svg_empty);
    SCT_RUN(test_stage_colors);
    SCT_RUN(test_png);
    SCT_RUN(test_png_write_fails);
    SCT_RUN(test_format);
    return sct_end();
}
