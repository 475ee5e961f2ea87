/* test_classify_far.c - conservative binning where float error lives: seeded sub-pixel triangles,
 * slivers and nearly edge-on triangles far from pixel (0, 0) at 4K-class and odd resolutions, and
 * triangles cut by the near plane. Frames are built directly (sc_frame_params). For every pixel
 * centre in a generous neighbourhood of a triangle whose ray hits it (sc_intersect with the
 * renderer's near/far/cull rules), the pixel's tile must lie in the classified span and pass
 * sc_tri_overlaps_tile, the hit depth must not be below the depth key, sc_tri_tile_count must
 * equal the tiles the emit loop visits, and the pixel box of sc_tri_pixel_box (the CUDA ray cast's) must
 * be classify's pixel bounds and hold every hit pixel. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "intersect.h"
#include "sc_frame.h"
#include "sctest.h"

typedef struct far_camera {
    uint32_t width, height, tile;
    double fovy;          /* radians */
    double eye[3], target[3];
    int cull;
} far_camera;

/* Builds the frame as the renderer does (look-at basis, perspective scale factors), in double. */
static void make_frame(const far_camera *c, sc_frame_params *p)
{
    memset(p, 0, sizeof *p);
    p->width = c->width;
    p->height = c->height;
    p->tile_size = c->tile;
    p->tiles_x = (c->width + c->tile - 1) / c->tile;
    p->tiles_y = (c->height + c->tile - 1) / c->tile;
    p->num_tiles = p->tiles_x * p->tiles_y;
    p->num_slabs = 1;
    p->cull_back_faces = (uint32_t)c->cull;
    double f[3], r[3], u[3], up[3] = {0, 1, 0};
    double fl = 0, rl = 0;
    for (int i = 0; i < 3; ++i) { f[i] = c->target[i] - c->eye[i]; fl += f[i] * f[i]; }
    for (int i = 0; i < 3; ++i) f[i] /= sqrt(fl);
    r[0] = f[1] * up[2] - f[2] * up[1]; r[1] = f[2] * up[0] - f[0] * up[2]; r[2] = f[0] * up[1] - f[1] * up[0];
    for (int i = 0; i < 3; ++i) rl += r[i] * r[i];
    for (int i = 0; i < 3; ++i) r[i] /= sqrt(rl);
    u[0] = r[1] * f[2] - r[2] * f[1]; u[1] = r[2] * f[0] - r[0] * f[2]; u[2] = r[0] * f[1] - r[1] * f[0];
    for (int i = 0; i < 3; ++i) {
        p->eye[i] = (float)c->eye[i];
        p->forward[i] = (float)f[i];
        p->right[i] = (float)r[i];
        p->up[i] = (float)u[i];
    }
    p->proj_y = (float)(1.0 / tan(0.5 * c->fovy));
    p->proj_x = (float)(1.0 / tan(0.5 * c->fovy) / ((double)c->width / (double)c->height));
    p->near_plane = 0.05f;
    p->far_plane = 1000.0f;
}

/* The world point at pixel coordinates (X, Y) (x right, y up, pixel centres at +0.5) and view depth w. */
static void unproject(const sc_frame_params *p, double X, double Y, double w, float out[3])
{
    double a = (2.0 * X / p->width - 1.0) / p->proj_x, b = (2.0 * Y / p->height - 1.0) / p->proj_y;
    for (int i = 0; i < 3; ++i)
        out[i] = (float)(p->eye[i] + w * (p->forward[i] + a * p->right[i] + b * p->up[i]));
}

/* Pixel coordinates of a world point in double (w > 0 assumed). */
static void project(const sc_frame_params *p, const float v[3], double *X, double *Y, double *w)
{
    double d[3] = {(double)v[0] - p->eye[0], (double)v[1] - p->eye[1], (double)v[2] - p->eye[2]};
    double x = 0, y = 0, z = 0;
    for (int i = 0; i < 3; ++i) { x += d[i] * p->right[i]; y += d[i] * p->up[i]; z += d[i] * p->forward[i]; }
    *w = z;
    *X = 0.5 * p->width * (1.0 + p->proj_x * x / z);
    *Y = 0.5 * p->height * (1.0 + p->proj_y * y / z);
}

static double log_uniform(sct_rng *rng, double lo, double hi) { return lo * pow(hi / lo, sct_rng_unit(rng)); }

/* A pixel position far from (0, 0) half the time, on a tile boundary (to a few ulps) a quarter. */
static double pick_coord(sct_rng *rng, uint32_t size, uint32_t tile)
{
    double x = sct_rng_unit(rng) < 0.5 ? size * (0.5 + 0.5 * sct_rng_unit(rng)) : size * sct_rng_unit(rng);
    if (sct_rng_below(rng, 4) == 0) x = floor(x / tile) * tile + 0.5 + (sct_rng_unit(rng) - 0.5) * 1e-3;
    return x;
}

typedef struct far_stats {
    uint64_t triangles, classified, rays, hits, missed, key_below, count_bad;
    uint64_t boxed, box_bad, box_missed; /* sc_tri_pixel_box: given, unequal to classify's, a hit outside */
} far_stats;

/* Checks one triangle against every pixel in [x0, x1] x [y0, y1]. */
static void check_triangle(const sc_frame_params *p, const float *a, const float *b, const float *c, long x0, long y0,
                           long x1, long y1, far_stats *st, const char *what)
{
    st->triangles++;
    if (p->cull_back_faces && sc_tri_backfacing(p->eye, a, b, c)) return; /* dropped by both */
    sc_tri_setup s;
    const int ok = sc_tri_classify(p, a, b, c, &s);
    if (ok) {
        st->classified++;
        uint32_t count = 0;
        for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
            for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx) count += s.orient == 0.0f || sc_tri_overlaps_tile(p, &s, tx, ty);
        if (count != sc_tri_tile_count(p, &s)) st->count_bad++;
    }
    /* The pixel box the CUDA ray cast tests (from the vertices minus the eye): classify's pixel bounds
     * before the clamp to the target, and every hit pixel inside it. */
    int box = 0, bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    if (ok) {
        float da[3], db[3], dc[3];
        for (int k = 0; k < 3; ++k) {
            da[k] = SC_FSUB(a[k], p->eye[k]);
            db[k] = SC_FSUB(b[k], p->eye[k]);
            dc[k] = SC_FSUB(c[k], p->eye[k]);
        }
        box = sc_tri_pixel_box(p, da, db, dc, &bx0, &by0, &bx1, &by1);
        if (box) {
            st->boxed++;
            const int w1 = (int)p->width - 1, h1 = (int)p->height - 1;
            const int cx0 = bx0 < 0 ? 0 : bx0, cy0 = by0 < 0 ? 0 : by0;
            const int cx1 = bx1 > w1 ? w1 : bx1, cy1 = by1 > h1 ? h1 : by1;
            if (cx0 != (int)s.px0 || cx1 != (int)s.px1 || cy0 != (int)s.py0 || cy1 != (int)s.py1) {
                if (st->box_bad < 5)
                    sct_fail(__FILE__, __LINE__, "%s: pixel box %d..%d x %d..%d (clamped) != classify's %u..%u x %u..%u",
                             what, cx0, cx1, cy0, cy1, s.px0, s.px1, s.py0, s.py1);
                st->box_bad++;
            }
        }
    }
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (long)p->width - 1) x1 = (long)p->width - 1;
    if (y1 > (long)p->height - 1) y1 = (long)p->height - 1;
    for (long y = y0; y <= y1; ++y)
        for (long x = x0; x <= x1; ++x) {
            float dir[3];
            sc_pixel_ray_dir(p, (uint32_t)x, (uint32_t)y, dir);
            sc_ray ray;
            sc_ray_setup(&ray, p->eye, dir);
            float t, u, v;
            st->rays++;
            if (!sc_intersect(&ray, a, b, c, p->near_plane, p->far_plane, &t, &u, &v)) continue;
            st->hits++;
            if (box && (x < bx0 || x > bx1 || y < by0 || y > by1)) {
                if (st->box_missed < 5)
                    sct_fail(__FILE__, __LINE__, "%s: pixel (%ld, %ld) hits the triangle outside its pixel box %d..%d x %d..%d",
                             what, x, y, bx0, bx1, by0, by1);
                st->box_missed++;
            }
            const uint32_t tx = (uint32_t)x / p->tile_size, ty = (uint32_t)y / p->tile_size;
            const int binned = ok && tx >= s.tx0 && tx <= s.tx1 && ty >= s.ty0 && ty <= s.ty1 &&
                               sc_tri_overlaps_tile(p, &s, tx, ty);
            if (!binned) {
                if (st->missed < 5)
                    sct_fail(__FILE__, __LINE__,
                             "%s %ux%u: pixel (%ld, %ld) hits triangle (%.9g %.9g %.9g) (%.9g %.9g %.9g) "
                             "(%.9g %.9g %.9g) at t %.9g but its tile (%u, %u) is not binned (classified %d, span "
                             "%u..%u x %u..%u, orient %g)",
                             what, p->width, p->height, x, y, (double)a[0], (double)a[1], (double)a[2], (double)b[0],
                             (double)b[1], (double)b[2], (double)c[0], (double)c[1], (double)c[2], (double)t, tx, ty,
                             ok, ok ? s.tx0 : 0, ok ? s.tx1 : 0, ok ? s.ty0 : 0, ok ? s.ty1 : 0,
                             ok ? (double)s.orient : 0.0);
                st->missed++;
            } else if (t < s.depth_key) {
                if (st->key_below < 5)
                    sct_fail(__FILE__, __LINE__, "%s: pixel (%ld, %ld) hit at t %.9g below the depth key %.9g", what,
                             x, y, (double)t, (double)s.depth_key);
                st->key_below++;
            }
        }
}

/* The neighbourhood of a triangle wholly in front: its exact projected bounds widened by 2 pixels
 * and 1 % of their size. */
static void check_in_front(const sc_frame_params *p, const float *a, const float *b, const float *c, far_stats *st,
                           const char *what)
{
    const float *v[3] = {a, b, c};
    double bx0 = INFINITY, bx1 = -INFINITY, by0 = INFINITY, by1 = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        double X, Y, w;
        project(p, v[i], &X, &Y, &w);
        bx0 = fmin(bx0, X); bx1 = fmax(bx1, X); by0 = fmin(by0, Y); by1 = fmax(by1, Y);
    }
    const double pad = 2.0 + 0.01 * fmax(bx1 - bx0, by1 - by0);
    check_triangle(p, a, b, c, (long)floor(bx0 - pad), (long)floor(by0 - pad), (long)ceil(bx1 + pad),
                   (long)ceil(by1 + pad), st, what);
}

/* n seeded triangles of each kind on one frame. */
static void run_frame(const far_camera *cam, uint32_t n, uint64_t seed, far_stats *st)
{
    sc_frame_params p;
    make_frame(cam, &p);
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    char what[96];
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t kind = i % 3;
        const double X = pick_coord(&rng, p.width, p.tile_size), Y = pick_coord(&rng, p.height, p.tile_size);
        const double w = log_uniform(&rng, 0.5, 50.0);
        float v[3][3];
        if (kind == 0) { /* sub-pixel, slightly tilted in depth */
            const double size = log_uniform(&rng, 0.003, 1.5), tilt = 1e-3 * w * (sct_rng_unit(&rng) - 0.5);
            for (int k = 0; k < 3; ++k)
                unproject(&p, X + size * (sct_rng_unit(&rng) - 0.5), Y + size * (sct_rng_unit(&rng) - 0.5),
                          w + tilt * (k - 1), v[k]);
            snprintf(what, sizeof what, "sub-pixel (seed %#llx, #%u)", (unsigned long long)seed, i);
        } else if (kind == 1) { /* sliver: long edge, tiny height */
            const double len = log_uniform(&rng, 0.05, 40.0), h = log_uniform(&rng, 1e-7, 0.3);
            const double ang = 6.283185307179586 * sct_rng_unit(&rng), t = sct_rng_unit(&rng);
            const double dx = cos(ang), dy = sin(ang), dw = 0.01 * w * (sct_rng_unit(&rng) - 0.5);
            unproject(&p, X, Y, w, v[0]);
            unproject(&p, X + len * dx, Y + len * dy, w + dw, v[1]);
            unproject(&p, X + t * len * dx - h * dy, Y + t * len * dy + h * dx, w + t * dw, v[2]);
            snprintf(what, sizeof what, "sliver (seed %#llx, #%u)", (unsigned long long)seed, i);
        } else { /* nearly edge-on: the third vertex lies almost behind another along its ray */
            const double len = log_uniform(&rng, 0.01, 20.0), ang = 6.283185307179586 * sct_rng_unit(&rng);
            const double off = log_uniform(&rng, 1e-6, 0.5), depth = w * log_uniform(&rng, 1e-3, 0.5);
            const double ang2 = 6.283185307179586 * sct_rng_unit(&rng);
            unproject(&p, X, Y, w, v[0]);
            unproject(&p, X + len * cos(ang), Y + len * sin(ang), w, v[1]);
            unproject(&p, X + off * cos(ang2), Y + off * sin(ang2), w + depth, v[2]);
            snprintf(what, sizeof what, "edge-on (seed %#llx, #%u)", (unsigned long long)seed, i);
        }
        if (sct_rng_below(&rng, 2)) { /* both windings */
            for (int k = 0; k < 3; ++k) { float t = v[1][k]; v[1][k] = v[2][k]; v[2][k] = t; }
        }
        check_in_front(&p, v[0], v[1], v[2], st, what);
    }
}

static void report(const char *what, const far_stats *st)
{
    printf("  %s: %llu triangles (%llu classified, %llu with a pixel box), %llu rays, %llu hits, %llu unbinned, "
           "%llu below key, %llu count mismatches, %llu pixel boxes unequal, %llu hits outside them\n",
           what, (unsigned long long)st->triangles, (unsigned long long)st->classified,
           (unsigned long long)st->boxed, (unsigned long long)st->rays, (unsigned long long)st->hits,
           (unsigned long long)st->missed, (unsigned long long)st->key_below, (unsigned long long)st->count_bad,
           (unsigned long long)st->box_bad, (unsigned long long)st->box_missed);
    SCT_CHECK_EQ_U64(st->missed, 0);
    SCT_CHECK_EQ_U64(st->key_below, 0);
    SCT_CHECK_EQ_U64(st->count_bad, 0);
    SCT_CHECK_EQ_U64(st->box_bad, 0);
    SCT_CHECK_EQ_U64(st->box_missed, 0);
    SCT_CHECK(st->hits > 0);
}

/* An oblique camera (no world axis along the view) at a distance, so every ray-test axis choice
 * and view-space rounding is exercised. */
static far_camera camera(uint32_t w, uint32_t h, uint32_t tile, double fovy_deg, int cull)
{
    far_camera c = {w, h, tile, fovy_deg * 3.14159265358979323846 / 180.0, {3.1, 1.7, 4.3}, {-0.2, 0.3, -0.45}, cull};
    return c;
}

static void test_far_4k(void)
{
    far_stats st = {0};
    run_frame(&(far_camera){3840, 2160, 8, 0.785398163, {0, 0, 0}, {0, 0, -1}, 0}, 150000, sct_base_seed() + 11, &st);
    far_camera c = camera(3840, 2160, 8, 60, 1);
    run_frame(&c, 150000, sct_base_seed() + 12, &st);
    report("3840x2160", &st);
}

static void test_far_8k(void)
{
    far_stats st = {0};
    far_camera c = camera(7680, 4320, 16, 45, 0);
    run_frame(&c, 150000, sct_base_seed() + 21, &st);
    c = camera(7680, 4320, 8, 70, 1);
    run_frame(&c, 100000, sct_base_seed() + 22, &st);
    report("7680x4320", &st);
}

static void test_far_odd_sizes(void)
{
    far_stats st = {0};
    far_camera c = camera(3001, 1999, 7, 50, 0);
    run_frame(&c, 100000, sct_base_seed() + 31, &st);
    c = camera(4097, 2161, 32, 40, 0);
    run_frame(&c, 100000, sct_base_seed() + 32, &st);
    c = camera(1920, 1080, 8, 45, 0);
    run_frame(&c, 100000, sct_base_seed() + 33, &st);
    report("odd sizes", &st);
}

/* Narrow and wide fields of view: the rounding of rays and projection in pixels grows with the
 * focal length, and at the edge of a wide view. */
static void test_far_fields_of_view(void)
{
    far_stats st = {0};
    far_camera c = camera(3840, 2160, 8, 2, 0);
    run_frame(&c, 60000, sct_base_seed() + 41, &st);
    c = camera(3840, 2160, 8, 0.05, 0);
    run_frame(&c, 60000, sct_base_seed() + 42, &st);
    c = camera(3840, 2160, 8, 150, 0);
    run_frame(&c, 60000, sct_base_seed() + 43, &st);
    report("fields of view", &st);
}

/* Triangles cut by the near plane (one or two vertices behind it, some just behind or just in
 * front of it): every pixel of a small target is tested. */
static void test_near_plane_clip(void)
{
    far_stats st = {0};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 51);
    const uint32_t sizes[2][2] = {{160, 120}, {203, 97}};
    for (uint32_t k = 0; k < 2; ++k) {
        far_camera c = camera(sizes[k][0], sizes[k][1], k ? 5 : 8, k ? 90 : 60, 0);
        sc_frame_params p;
        make_frame(&c, &p);
        for (uint32_t i = 0; i < 400; ++i) {
            float v[3][3];
            const uint32_t behind = 1 + sct_rng_below(&rng, 2);
            for (uint32_t j = 0; j < 3; ++j) {
                double w;
                if (j < behind) w = sct_rng_below(&rng, 3) == 0 ? p.near_plane * (1.0 - 1e-6 * sct_rng_unit(&rng))
                                                                 : -log_uniform(&rng, 1e-3, 3.0);
                else w = sct_rng_below(&rng, 3) == 0 ? p.near_plane * (1.0 + 1e-6 * sct_rng_unit(&rng))
                                                      : log_uniform(&rng, 0.06, 5.0);
                const double X = p.width * (3.0 * sct_rng_unit(&rng) - 1.0);
                const double Y = p.height * (3.0 * sct_rng_unit(&rng) - 1.0);
                /* A point behind the eye: the mirror of the view direction (w < 0 flips the ray). */
                unproject(&p, X, Y, w, v[j]);
            }
            char what[64];
            snprintf(what, sizeof what, "near-plane cut #%u", i);
            check_triangle(&p, v[0], v[1], v[2], 0, 0, (long)p.width - 1, (long)p.height - 1, &st, what);
        }
    }
    report("near-plane cuts", &st);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "classify_far");
    SCT_RUN(test_far_4k);
    SCT_RUN(test_far_8k);
    SCT_RUN(test_far_odd_sizes);
    SCT_RUN(test_far_fields_of_view);
    SCT_RUN(test_near_plane_clip);
    return sct_end();
}
