/* test_render_api.c - the renderer's API: argument errors, defaults, deformation effects, caller
 * positions, smooth and flat shading, visualisation modes, resize (cpu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "split.h"
#include "render_test_util.h"
#include "shade.h"

static sc_status create(uint32_t w, uint32_t h, uint32_t tile, uint32_t slabs, sc_backend backend, sc_renderer **r)
{
    sc_renderer_desc d = {0};
    d.backend = backend;
    d.width = w;
    d.height = h;
    d.tile_size = tile;
    d.num_slabs = slabs;
    return sc_renderer_create(&d, r);
}

static void test_argument_errors(void)
{
    sc_renderer *r = NULL;
    SCT_CHECK(create(0, 10, 0, 0, SC_BACKEND_CPU, &r) == SC_ERROR_INVALID_ARGUMENT && r == NULL);
    SCT_CHECK(create(10, 10, 33, 0, SC_BACKEND_CPU, &r) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(create(10, 10, 0, SC_MAX_SLABS + 1, SC_BACKEND_CPU, &r) == SC_ERROR_INVALID_ARGUMENT);
    /* The CUDA backend exists exactly when a device does; DEFAULT picks it then. */
    const int have_cuda = sc_renderer_testing_backend_available(SC_BACKEND_CUDA);
    sc_status cuda_status = create(10, 10, 0, 0, SC_BACKEND_CUDA, &r);
    SCT_CHECK(cuda_status == (have_cuda ? SC_OK : SC_ERROR_UNSUPPORTED));
    sc_renderer_destroy(r);
    r = NULL;
    SCT_REQUIRE_OK(create(10, 10, 0, 0, SC_BACKEND_DEFAULT, &r));
    SCT_CHECK(sc_renderer_backend(r) == (have_cuda ? SC_BACKEND_CUDA : SC_BACKEND_CPU));
    sc_renderer_destroy(r);
    r = NULL;
    SCT_CHECK(create(65536, 65536, 1, 0, SC_BACKEND_CPU, &r) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_renderer_create(NULL, &r) == SC_ERROR_INVALID_ARGUMENT);
    SCT_REQUIRE_OK(create(10, 10, 0, 0, SC_BACKEND_CPU, &r));
    SCT_CHECK(sc_renderer_backend(r) == SC_BACKEND_CPU);
    SCT_CHECK(test_params(r).tile_size == 8 && test_params(r).num_slabs == 16);
    sc_frame_desc f = {0};
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT); /* no mesh */

    float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[3] = {0, 1, 3};
    sc_mesh_data md = {pos, 3, idx, 1};
    SCT_CHECK(sc_renderer_set_mesh(r, &md) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strstr(sc_last_error(), "triangle 0") != NULL, "%s", sc_last_error());
    idx[2] = 2;
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));

    sc_camera_desc c = {0};
    SCT_CHECK(sc_renderer_set_camera(r, &c) == SC_ERROR_INVALID_ARGUMENT); /* eye == target */
    c.target[1] = 1; /* looking along up */
    SCT_CHECK(sc_renderer_set_camera(r, &c) == SC_ERROR_INVALID_ARGUMENT);
    c.target[1] = 0;
    c.target[2] = -1;
    c.near_plane = 2;
    c.far_plane = 1;
    SCT_CHECK(sc_renderer_set_camera(r, &c) == SC_ERROR_INVALID_ARGUMENT);
    c.near_plane = c.far_plane = 0;
    c.fovy = 4;
    SCT_CHECK(sc_renderer_set_camera(r, &c) == SC_ERROR_INVALID_ARGUMENT);
    c.fovy = 0;
    SCT_CHECK_OK(sc_renderer_set_camera(r, &c));

    sc_shading_desc s = {0};
    s.mode = SC_VIEW_MODE_COUNT;
    SCT_CHECK(sc_renderer_set_shading(r, &s) == SC_ERROR_INVALID_ARGUMENT);
    uint8_t img[10 * 10 * 4];
    f.rgba = img;
    f.rgba_pitch = 39;
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT);
    /* A pitch whose rows reach past the address space (pitch x 9 rows + a row overflows, or passes
     * PTRDIFF_MAX): refused before a pixel is written, not rows written at wrapped addresses. */
    const size_t huge_pitches[] = {SIZE_MAX, SIZE_MAX / 9 + 1, (size_t)PTRDIFF_MAX / 9 + 1};
    for (size_t i = 0; i < sizeof huge_pitches / sizeof huge_pitches[0]; ++i) {
        f.rgba_pitch = huge_pitches[i];
        SCT_CHECK_MSG(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT, "pitch %zu", f.rgba_pitch);
        SCT_CHECK_MSG(strstr(sc_last_error(), "pitch"), "%s", sc_last_error());
    }
    f.rgba_pitch = 0;
    f.time = NAN;
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT);
    f.time = 0;
    f.surface = 1;
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_UNSUPPORTED);
    f.surface = 0;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK(sc_renderer_resize(r, 0, 5) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(test_params(r).width == 10 && test_params(r).height == 10);
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    sc_renderer_destroy(r);
    sc_renderer_destroy(NULL);
}

/* Without a camera the renderer looks at the whole mesh: some pixels hit, the border does not. */
static void test_default_camera_frames_mesh(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(16, &knot));
    for (int i = 0; i < 3 * (int)knot.vertex_count; ++i) knot.positions[i] = knot.positions[i] * 40.0f + 7.0f;
    sc_renderer *r = make_renderer(64, 48, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    sc_hit *hits = NULL;
    SCT_CHECK(compare_with_brute_force(r, &knot, 0, "default camera", &hits) == 0);
    size_t hit = 0, border = 0;
    for (uint32_t y = 0; hits && y < 48; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
            int h = hits[y * 64 + x].tri != SC_NO_HIT;
            hit += h;
            if (x == 0 || y == 0 || x == 63 || y == 47) border += h;
        }
    SCT_CHECK(hit > 64 * 48 / 10);
    SCT_CHECK_EQ_U64(border, 0);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

static float dist3(const float *a, const float *b)
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static void deformed(sc_renderer *r, const sc_deform_desc *d, float t, float *out)
{
    SCT_CHECK_OK(sc_renderer_set_deform(r, d));
    sc_frame_desc f = {0};
    f.time = t;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK_OK(sc_renderer_read_positions(r, out));
}

static void test_deformations(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(16, &knot));
    const uint32_t nv = knot.vertex_count;
    sc_renderer *r = make_renderer(32, 32, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    float *p = malloc(sizeof(float) * 3 * nv), *q = malloc(sizeof(float) * 3 * nv);
    float C[3], R;
    sc_renderer_testing_mesh_bounds(r, C, &R);
    const float *rest = knot.positions;
    float maxd;

    /* None: the rest pose, exactly. */
    deformed(r, NULL, 1.3f, p);
    SCT_CHECK(memcmp(p, rest, sizeof(float) * 3 * nv) == 0);

    /* Twist about y: distances to the axis and heights kept; angle grows with height. */
    sc_deform_desc d = {0};
    d.twist.amount = 1.0f;
    deformed(r, &d, 0.0f, p); /* sin(0) = 0: no twist at t = 0 */
    maxd = 0;
    for (uint32_t v = 0; v < nv; ++v) maxd = fmaxf(maxd, dist3(p + 3 * v, rest + 3 * v));
    SCT_CHECK_MSG(maxd < 1e-5f, "twist at t=0 moved a vertex by %g", (double)maxd);
    deformed(r, &d, 1.0f, p); /* quarter period: full angle */
    maxd = 0;
    float moved = 0;
    for (uint32_t v = 0; v < nv; ++v) {
        const float *a = rest + 3 * v, *b = p + 3 * v;
        float ra = hypotf(a[0] - C[0], a[2] - C[2]), rb = hypotf(b[0] - C[0], b[2] - C[2]);
        maxd = fmaxf(maxd, fmaxf(fabsf(ra - rb), fabsf(a[1] - b[1])));
        moved = fmaxf(moved, dist3(a, b));
    }
    SCT_CHECK_MSG(maxd < 1e-5f, "twist changed a radius or height by %g", (double)maxd);
    SCT_CHECK(moved > 0.1f * R);

    /* Pulse: moves along the rest normal by at most amount * R. */
    memset(&d, 0, sizeof d);
    d.pulse.amount = 0.05f;
    deformed(r, &d, 0.4f, p);
    maxd = 0;
    moved = 0;
    for (uint32_t v = 0; v < nv; ++v) {
        float m = dist3(p + 3 * v, rest + 3 * v);
        maxd = fmaxf(maxd, m);
        moved += m;
    }
    SCT_CHECK(maxd <= 0.05f * R * 1.0001f && moved > 0);

    /* Noise: bounded, smooth in time, changes with time, differs per seed. */
    memset(&d, 0, sizeof d);
    d.noise.amount = 0.03f;
    deformed(r, &d, 0.5f, p);
    deformed(r, &d, 0.501f, q);
    float step = 0, bound = 0;
    for (uint32_t v = 0; v < nv; ++v) {
        step = fmaxf(step, dist3(p + 3 * v, q + 3 * v));
        bound = fmaxf(bound, dist3(p + 3 * v, rest + 3 * v));
    }
    SCT_CHECK(bound <= 0.03f * R * 1.0001f && bound > 0.005f * R);
    SCT_CHECK_MSG(step < 0.01f * bound, "noise jumped by %g in 1 ms", (double)step);
    d.noise.seed = 7;
    deformed(r, &d, 0.5f, q);
    SCT_CHECK(memcmp(p, q, sizeof(float) * 3 * nv) != 0);

    /* Wave and bend: finite and moving; everything together still matches the brute force. */
    memset(&d, 0, sizeof d);
    d.wave.amount = 0.05f;
    d.bend.amount = 0.8f;
    deformed(r, &d, 0.9f, p);
    moved = 0;
    int finite = 1;
    for (uint32_t v = 0; v < nv; ++v) {
        moved = fmaxf(moved, dist3(p + 3 * v, rest + 3 * v));
        finite &= isfinite(p[3 * v]) && isfinite(p[3 * v + 1]) && isfinite(p[3 * v + 2]);
    }
    SCT_CHECK(finite && moved > 0.01f * R);
    free(p);
    free(q);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* Caller positions replace the deformation for that frame. */
static void test_caller_positions(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(10, &knot));
    const uint32_t nv = knot.vertex_count;
    sc_renderer *r = make_renderer(96, 64, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    sc_deform_desc d = {0};
    d.twist.amount = 2.0f;
    SCT_CHECK_OK(sc_renderer_set_deform(r, &d));
    float *mine = malloc(sizeof(float) * 3 * nv), *back = malloc(sizeof(float) * 3 * nv);
    for (uint32_t v = 0; v < nv; ++v) {
        mine[3 * v] = knot.positions[3 * v] * 1.2f;
        mine[3 * v + 1] = knot.positions[3 * v + 1] * 0.8f;
        mine[3 * v + 2] = knot.positions[3 * v + 2];
    }
    sc_frame_desc f = {0};
    f.time = 0.8f;
    f.positions = mine;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK_OK(sc_renderer_read_positions(r, back));
    SCT_CHECK(memcmp(mine, back, sizeof(float) * 3 * nv) == 0);
    sc_hit *got = malloc(96 * 64 * sizeof *got), *want = malloc(96 * 64 * sizeof *want);
    SCT_CHECK_OK(sc_renderer_read_hits(r, got));
    const sc_frame_params params = test_params(r);
    sc_brute_force(&params, mine, knot.indices, knot.triangle_count, 2, want);
    size_t bad = 0;
    for (size_t i = 0; i < 96 * 64; ++i) bad += got[i].tri != want[i].tri || got[i].depth != want[i].depth;
    SCT_CHECK_EQ_U64(bad, 0);
    free(got);
    free(want);
    free(mine);
    free(back);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

static void render_rgba(sc_renderer *r, sc_view_mode mode, uint8_t *img, size_t pitch)
{
    sc_shading_desc s = {0};
    s.mode = mode;
    SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
    sc_frame_desc f = {0};
    f.rgba = img;
    f.rgba_pitch = pitch;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
}

static void test_shading_and_modes(void)
{
    enum { W = 80, H = 60, PITCH = W * 4 + 12 };
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(12, &knot));
    sc_renderer *r = make_renderer(W, H, 0, 0, 0);
    SCT_REQUIRE(r);
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    uint8_t *img[SC_VIEW_MODE_COUNT];
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        img[m] = malloc(PITCH * H);
        memset(img[m], 0xAB, PITCH * H);
        render_rgba(r, (sc_view_mode)m, img[m], PITCH);
    }
    sc_hit *hits = malloc(W * H * sizeof *hits);
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    /* Pitch padding untouched; alpha opaque; modes differ from each other. */
    size_t pad_ok = 1, alpha_ok = 1;
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m)
        for (int y = 0; y < H; ++y) {
            for (int b = W * 4; b < PITCH; ++b) pad_ok &= img[m][y * PITCH + b] == 0xAB;
            for (int x = 0; x < W; ++x) alpha_ok &= img[m][y * PITCH + 4 * x + 3] == 255;
        }
    SCT_CHECK(pad_ok && alpha_ok);
    for (int a = 0; a < SC_VIEW_MODE_COUNT; ++a)
        for (int b = a + 1; b < SC_VIEW_MODE_COUNT; ++b)
            SCT_CHECK_MSG(memcmp(img[a], img[b], PITCH * H) != 0, "modes %d and %d give the same image", a, b);
    /* Shaded: background pixels are the gradient; hit pixels are lit albedo (not background). */
    size_t bg_ok = 0, bg = 0, lit = 0, hit = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            const uint8_t *px = img[SC_VIEW_SHADED] + y * PITCH + 4 * x;
            if (hits[y * W + x].tri == SC_NO_HIT) {
                float g = ((float)y + 0.5f) / H;
                uint32_t want = sc_pack_rgba8(0.10f + (0.32f - 0.10f) * g, 0.11f + (0.36f - 0.11f) * g,
                                              0.14f + (0.45f - 0.14f) * g);
                uint32_t have;
                memcpy(&have, px, 4);
                bg_ok += have == want;
                ++bg;
            } else {
                ++hit;
                lit += px[0] >= px[2]; /* warm albedo: red >= blue */
            }
            /* Triangle-id mode: the colour of the hit's id. */
            if (hits[y * W + x].tri != SC_NO_HIT) {
                float rgb[3];
                sc_id_colour(hits[y * W + x].tri, rgb);
                uint32_t want = sc_pack_rgba8(rgb[0], rgb[1], rgb[2]), have;
                memcpy(&have, img[SC_VIEW_TRIANGLE_ID] + y * PITCH + 4 * x, 4);
                SCT_CHECK(have == want);
            }
        }
    SCT_CHECK(bg > 0 && bg_ok == bg);
    SCT_CHECK(hit > 0 && lit == hit);
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) free(img[m]);
    free(hits);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* Flat shading changes the image, not the hits. */
static void test_flat_shading(void)
{
    enum { W = 64, H = 64 };
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(8, &knot));
    sc_mesh_data md = sc_mesh_view(&knot);
    uint8_t *img[2];
    sc_hit *hits[2];
    for (int flat = 0; flat < 2; ++flat) {
        sc_renderer_desc d = {0};
        d.width = W;
        d.height = H;
        d.flat_shading = flat;
        sc_renderer *r = NULL;
        SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        img[flat] = malloc(W * H * 4);
        hits[flat] = malloc(W * H * sizeof(sc_hit));
        render_rgba(r, SC_VIEW_SHADED, img[flat], 0);
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits[flat]));
        sc_renderer_destroy(r);
    }
    SCT_CHECK(memcmp(hits[0], hits[1], W * H * sizeof(sc_hit)) == 0);
    SCT_CHECK(memcmp(img[0], img[1], W * H * 4) != 0);
    for (int i = 0; i < 2; ++i) {
        free(img[i]);
        free(hits[i]);
    }
    sc_mesh_free(&knot);
}

/* ---- Hostile input through the API: every class is rejected with a message naming the field, or
 * handled; the renderer stays usable after each rejection. ---- */

typedef struct log_capture {
    int errors, warnings;
    char last[1200];
} log_capture;

static void capture_log(sc_log_level level, const char *message, void *user)
{
    log_capture *c = user;
    if (level == SC_LOG_ERROR) ++c->errors;
    if (level == SC_LOG_WARNING) ++c->warnings;
    snprintf(c->last, sizeof c->last, "%s", message);
}

/* A small renderer with the knot, ready to render; NULL on failure. */
static sc_renderer *knot_renderer(uint32_t w, uint32_t h, sc_mesh *knot)
{
    if (sc_mesh_default(8, knot) != SC_OK) return NULL;
    sc_renderer *r = make_renderer(w, h, 0, 0, 0);
    if (!r) return NULL;
    sc_mesh_data md = sc_mesh_view(knot);
    if (sc_renderer_set_mesh(r, &md) != SC_OK) {
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* Renders a frame into img (w x h) and returns the number of hit pixels (or -1 on failure). */
static long render_ok(sc_renderer *r, uint8_t *img)
{
    sc_frame_desc f = {0};
    f.rgba = img;
    if (sc_renderer_render(r, &f) != SC_OK) return -1;
    sc_frame_stats st;
    if (sc_renderer_stats(r, &st) != SC_OK) return -1;
    return (long)st.hit_pixels;
}

#define EXPECT_INVALID(call, field)                                                                       \
    do {                                                                                                  \
        sc_status st_ = (call);                                                                           \
        SCT_CHECK_MSG(st_ == SC_ERROR_INVALID_ARGUMENT, "%s: got %s", field, sc_status_name(st_));       \
        SCT_CHECK_MSG(strstr(sc_last_error(), field) != NULL, "message does not name %s: %s", field,      \
                      sc_last_error());                                                                   \
    } while (0)

/* The colour helpers are defined for every float: no undefined float-to-int conversion, results in
 * range (heat_max in (0, 6e-8] used to index stops[INT_MIN]). */
static void test_shade_math_any_float(void)
{
    const float special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-45f, 6e-8f, 1e-30f, -1.0f, 0.5f,
                             1.0f, 2.0f, 1e30f, 3.4e38f, -3.4e38f, 2147483648.0f, -2147483904.0f};
    const int n = (int)(sizeof special / sizeof special[0]);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float rgb[3];
        float c = sc_clamp01(special[i]);
        bad += !(c >= 0.0f && c <= 1.0f);
        sc_heat(special[i], rgb);
        for (int k = 0; k < 3; ++k) bad += !(rgb[k] >= 0.0f && rgb[k] <= 1.0f);
        sc_hue(special[i], rgb);
        for (int k = 0; k < 3; ++k) bad += !(rgb[k] >= 0.0f && rgb[k] <= 1.0f);
        for (int j = 0; j < n; ++j) {
            float v = sc_log_scale(special[i], special[j]);
            bad += !(v >= 0.0f && v <= 1.0f);
        }
        (void)sc_pack_rgba8(special[i], special[i], special[i]);
        bad += sc_pack_rgba8(NAN, 0.0f, 0.0f) != 0xFF000000u;
    }
    SCT_CHECK_EQ_U64(bad, 0);
}

/* Tiny heat_max renders (both heat modes); NaN, infinite or negative heat_max and every other
 * non-finite shading float is rejected naming the field. */
static void test_hostile_shading(void)
{
    enum { W = 40, H = 30 };
    sc_mesh knot;
    sc_renderer *r = knot_renderer(W, H, &knot);
    SCT_REQUIRE(r);
    uint8_t *img = malloc(W * H * 4);
    const float tiny[] = {6e-8f, 1e-30f, 1e-45f};
    for (int m = 0; m < 2; ++m)
        for (int i = 0; i < 3; ++i) {
            sc_shading_desc s = {0};
            s.mode = m ? SC_VIEW_TESTS_HEAT : SC_VIEW_TILE_HEAT;
            s.heat_max = tiny[i];
            SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
            SCT_CHECK(render_ok(r, img) > 0);
        }
    log_capture lc = {0};
    sc_set_log_callback(capture_log, &lc, SC_LOG_WARNING);
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        sc_shading_desc s = {0};
        s.heat_max = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.heat_max");
        s.heat_max = 0;
        s.ambient = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.ambient");
        s.ambient = 0;
        s.albedo[1] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.albedo[1]");
        s.albedo[1] = 0;
        s.light_dir[2] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.light_dir[2]");
        s.light_dir[2] = 0;
        s.background_bottom[0] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.background_bottom[0]");
        s.background_bottom[0] = 0;
        s.background_top[2] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.background_top[2]");
    }
    sc_shading_desc s = {0};
    s.heat_max = -1.0f;
    EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.heat_max");
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    /* The last good shading (tests heat, 1e-45) is still in force, and renders. */
    sc_shading_desc in_force;
    sc_renderer_testing_shading(r, &in_force);
    SCT_CHECK(in_force.mode == SC_VIEW_TESTS_HEAT && in_force.heat_max == 1e-45f);
    SCT_CHECK(render_ok(r, img) > 0);
    /* A light direction whose squared length overflows (or underflows) a float lights as its unit. */
    uint8_t *ref = malloc(W * H * 4);
    memset(&s, 0, sizeof s);
    s.light_dir[0] = 0.6f; s.light_dir[1] = -0.8f;
    SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
    SCT_CHECK(render_ok(r, ref) > 0);
    const float scale[] = {1e30f, 1e-30f};
    for (int i = 0; i < 2; ++i) {
        s.light_dir[0] = 0.6f * scale[i]; s.light_dir[1] = -0.8f * scale[i];
        SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
        SCT_CHECK(render_ok(r, img) > 0);
        SCT_CHECK_MSG(memcmp(img, ref, W * H * 4) == 0, "light_dir scaled by %g shades differently", (double)scale[i]);
    }
    free(ref);
    free(img);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* Every float of the deformation is checked; huge times keep positions finite (the phase is
 * reduced in double), and noise far out in its lattice stays defined. */
static void test_hostile_deform(void)
{
    enum { W = 40, H = 30 };
    sc_mesh knot;
    sc_renderer *r = knot_renderer(W, H, &knot);
    SCT_REQUIRE(r);
    uint8_t *img = malloc(W * H * 4);
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        const float b = bad[i];
        sc_deform_desc d;
#define BAD_FIELD(lvalue, name)                                  \
        memset(&d, 0, sizeof d);                                 \
        d.twist.amount = 0.5f;                                   \
        lvalue = b;                                              \
        EXPECT_INVALID(sc_renderer_set_deform(r, &d), name)
        BAD_FIELD(d.twist.amount, "deform.twist.amount");
        BAD_FIELD(d.twist.axis[1], "deform.twist.axis[1]");
        BAD_FIELD(d.twist.frequency, "deform.twist.frequency");
        BAD_FIELD(d.bend.amount, "deform.bend.amount");
        BAD_FIELD(d.bend.axis[0], "deform.bend.axis[0]");
        BAD_FIELD(d.bend.direction[2], "deform.bend.direction[2]");
        BAD_FIELD(d.bend.frequency, "deform.bend.frequency");
        BAD_FIELD(d.wave.amount, "deform.wave.amount");
        BAD_FIELD(d.wave.direction[0], "deform.wave.direction[0]");
        BAD_FIELD(d.wave.displacement[1], "deform.wave.displacement[1]");
        BAD_FIELD(d.wave.wavelength, "deform.wave.wavelength");
        BAD_FIELD(d.wave.frequency, "deform.wave.frequency");
        BAD_FIELD(d.pulse.amount, "deform.pulse.amount");
        BAD_FIELD(d.pulse.frequency, "deform.pulse.frequency");
        BAD_FIELD(d.pulse.spatial_frequency, "deform.pulse.spatial_frequency");
        BAD_FIELD(d.noise.amount, "deform.noise.amount");
        BAD_FIELD(d.noise.scale, "deform.noise.scale");
        BAD_FIELD(d.noise.speed, "deform.noise.speed");
#undef BAD_FIELD
        SCT_CHECK(render_ok(r, img) > 0); /* no deformation was taken */
    }
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    /* Every effect on at the largest finite times: finite positions, something on screen. */
    sc_deform_desc d = {0};
    d.twist.amount = 0.5f;
    d.bend.amount = 0.3f;
    d.wave.amount = 0.02f;
    d.pulse.amount = 0.02f;
    d.noise.amount = 0.02f;
    d.noise.speed = 3e38f;
    SCT_CHECK_OK(sc_renderer_set_deform(r, &d));
    const uint32_t nv = knot.vertex_count;
    float *p = malloc(sizeof(float) * 3 * nv);
    const float times[] = {3e38f, -3e38f, 1e20f, 123456.7f};
    for (int i = 0; i < 4; ++i) {
        sc_frame_desc f = {0};
        f.time = times[i];
        f.rgba = img;
        SCT_CHECK_OK(sc_renderer_render(r, &f));
        SCT_CHECK_OK(sc_renderer_read_positions(r, p));
        size_t nonfinite = 0;
        for (uint32_t v = 0; v < 3 * nv; ++v) nonfinite += !isfinite(p[v]);
        SCT_CHECK_MSG(nonfinite == 0, "time %g: %zu non-finite coordinates", (double)times[i], nonfinite);
        sc_frame_stats st;
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK_MSG(st.hit_pixels > 0, "time %g: empty frame", (double)times[i]);
    }
    free(p);
    free(img);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* Camera fields named; extreme but valid cameras give a finite view basis. */
static void test_hostile_camera(void)
{
    enum { W = 40, H = 30 };
    sc_mesh knot;
    sc_renderer *r = knot_renderer(W, H, &knot);
    SCT_REQUIRE(r);
    uint8_t *img = malloc(W * H * 4);
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        sc_camera_desc c = {{0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 0, 0, 0};
        c.eye[1] = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.eye[1]");
        c.eye[1] = 0;
        c.target[2] = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.target[2]");
        c.target[2] = 0;
        c.up[0] = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.up[0]");
        c.up[0] = 0;
        c.fovy = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.fovy");
        c.fovy = 0;
        c.near_plane = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.near_plane");
        c.near_plane = 0;
        c.far_plane = bad[i];
        EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.far_plane");
    }
    sc_camera_desc c = {{0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 1e-40f, 0, 0};
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.fovy");
    c.fovy = 3.2f;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.fovy");
    c.fovy = 0;
    c.near_plane = -1;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.near_plane");
    c.near_plane = 2;
    c.far_plane = 1;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.far_plane");
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    SCT_CHECK(render_ok(r, img) > 0); /* still the default view */
    /* Valid extremes: far apart eye and target, a tiny up vector; the basis is finite and unit. */
    const sc_camera_desc ok[2] = {{{1e38f, 2e38f, 3e38f}, {-3e38f, -1e38f, -2e38f}, {0, 1, 0}, 0, 0, 0},
                                  {{0, 0, 5}, {0, 0, 0}, {1e-30f, 1e-30f, 0}, 0, 0, 0}};
    for (int i = 0; i < 2; ++i) {
        SCT_CHECK_OK(sc_renderer_set_camera(r, &ok[i]));
        const sc_frame_params params = test_params(r);
        const float *v[3] = {params.forward, params.right, params.up};
        for (int k = 0; k < 3; ++k) {
            float l = sqrtf(v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2]);
            SCT_CHECK_MSG(fabsf(l - 1.0f) < 1e-5f, "camera %d: basis vector %d has length %g", i, k, (double)l);
        }
        SCT_CHECK(render_ok(r, img) >= 0);
    }
    SCT_CHECK(render_ok(r, img) > 0); /* the second camera sees the knot */
    free(img);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* initial_ref_capacity beyond 32-bit offsets is rejected at create (2^62 used to wrap the
 * allocation size); one that fits the type but not the memory limit fails with a message saying
 * what to lower, and the renderer can still take a mesh afterwards. */
static void test_hostile_capacities(void)
{
    const size_t caps[] = {(size_t)1 << 62, SIZE_MAX, (size_t)UINT32_MAX, (size_t)UINT32_MAX + 7};
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    for (int i = 0; i < 4; ++i) {
        sc_renderer_desc d = {0};
        d.backend = SC_BACKEND_CPU;
        d.width = d.height = 16;
        d.initial_ref_capacity = caps[i];
        sc_renderer *r = NULL;
        EXPECT_INVALID(sc_renderer_create(&d, &r), "initial_ref_capacity");
        SCT_CHECK(r == NULL);
        sc_renderer_destroy(r); /* never set_mesh on one: the old code corrupted the heap there */
    }
    sc_renderer_desc d = {0};
    d.backend = SC_BACKEND_CPU;
    d.width = d.height = 16;
    d.initial_ref_capacity = (size_t)1 << 31; /* 32 GiB of reference buffers */
    d.host_memory_limit = (size_t)256 << 20;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(4, &knot));
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK(sc_renderer_set_mesh(r, &md) == SC_ERROR_OUT_OF_MEMORY);
    SCT_CHECK_MSG(strstr(sc_last_error(), "initial_ref_capacity") && strstr(sc_last_error(), "32.0 GiB"), "%s",
                  sc_last_error());
    sc_frame_desc f = {0};
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT); /* no mesh was set */
    sc_renderer_destroy(r);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    sc_mesh_free(&knot);
}

/* The grid's memory is checked before it is allocated: 1-pixel tiles with 1024 slabs at 2048x2048
 * need 16 GiB of cell offsets. */
static void test_grid_memory_bound(void)
{
    log_capture lc = {0};
    sc_set_log_callback(capture_log, &lc, SC_LOG_WARNING);
    sc_renderer_desc d = {0};
    d.backend = SC_BACKEND_CPU;
    d.width = d.height = 2048;
    d.tile_size = 1;
    d.num_slabs = 1024;
    d.host_memory_limit = (size_t)1 << 30;
    sc_renderer *r = NULL;
    SCT_CHECK(sc_renderer_create(&d, &r) == SC_ERROR_OUT_OF_MEMORY && r == NULL);
    SCT_CHECK_MSG(strstr(sc_last_error(), "16.0 GiB of cell offsets") &&
                  strstr(sc_last_error(), "lower the slab count or raise the tile size"), "%s", sc_last_error());
    sc_renderer_destroy(r);
    /* A small target fits; growing it past the bound fails and keeps the renderer as it was. */
    d.width = d.height = 64;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    SCT_CHECK(sc_renderer_resize(r, 2048, 2048) == SC_ERROR_OUT_OF_MEMORY);
    SCT_CHECK(test_params(r).width == 64 && test_params(r).height == 64);
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(8, &knot));
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    uint8_t *img = malloc(64 * 64 * 4);
    SCT_CHECK(render_ok(r, img) > 0);
    free(img);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* A vertex with a non-finite coordinate: unused, it does not matter; the triangles using it are
 * dropped with one warning, never hit, and their neighbours' normals stay finite. Framing comes from
 * the kept triangles (an unused 3e38 vertex does not move it); indices out of range still fail. */
static void test_nonfinite_vertices(void)
{
    enum { W = 48, H = 48 };
    /* A quad of two triangles (0 1 2, 0 2 3), triangle 2 sharing vertex 2 with a NaN vertex 4,
     * triangle 3 using an infinite vertex 5; vertices 6 (NaN) and 7 (3e38) unused. */
    float pos[8 * 3] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, NAN, 0, 0, 0, 0, INFINITY, NAN, NAN, NAN, 3e38f, 3e38f, 0};
    uint32_t idx[4 * 3] = {0, 1, 2, 0, 2, 3, 2, 4, 1, 3, 5, 0};
    sc_mesh_data md = {pos, 8, idx, 4};
    for (int flat = 0; flat < 2; ++flat) {
        sc_renderer_desc d = {0};
        d.backend = SC_BACKEND_CPU;
        d.width = W;
        d.height = H;
        d.flat_shading = flat;
        sc_renderer *r = NULL;
        SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
        log_capture lc = {0};
        sc_set_log_callback(capture_log, &lc, SC_LOG_WARNING);
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
        SCT_CHECK_MSG(lc.warnings == 1 && lc.errors == 0 && strstr(lc.last, "2 of 4 triangles"), "%d warnings: %s",
                      lc.warnings, lc.last);
        float center[3], radius;
        sc_renderer_testing_mesh_bounds(r, center, &radius);
        SCT_CHECK_MSG(fabsf(radius - sqrtf(2.0f)) < 1e-5f, "radius %g", (double)radius);
        SCT_CHECK(center[0] == 0 && center[1] == 0 && center[2] == 0);
        float normals[8 * 3];
        SCT_CHECK_OK(sc_renderer_testing_read_normals(r, normals));
        for (int v = 0; v < 4; ++v) {
            const float *n = normals + 3 * v;
            SCT_CHECK_MSG(n[0] == 0 && n[1] == 0 && fabsf(n[2] - 1.0f) < 1e-6f, "normal of vertex %d: %g %g %g", v,
                          (double)n[0], (double)n[1], (double)n[2]);
        }
        uint8_t *img = malloc(W * H * 4);
        sc_shading_desc s = {0};
        s.mode = SC_VIEW_NORMALS;
        SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
        SCT_CHECK(render_ok(r, img) > 0);
        sc_hit *hits = malloc(W * H * sizeof *hits);
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
        size_t hit = 0, wrong = 0;
        for (int i = 0; i < W * H; ++i) {
            if (hits[i].tri == SC_NO_HIT) continue;
            ++hit;
            wrong += hits[i].tri > 1;
            /* Normal (0, 0, 1) shows as (128, 128, 255). */
            wrong += img[4 * i] != 128 || img[4 * i + 1] != 128 || img[4 * i + 2] != 255;
        }
        SCT_CHECK(hit > 0);
        SCT_CHECK_EQ_U64(wrong, 0);
        free(hits);
        free(img);
        sc_renderer_destroy(r);
    }
    /* Out-of-range indices stay an error. */
    sc_renderer *r = make_renderer(8, 8, 0, 0, 0);
    SCT_REQUIRE(r);
    idx[4] = 8;
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    EXPECT_INVALID(sc_renderer_set_mesh(r, &md), "triangle 1 has vertex index 8");
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    sc_renderer_destroy(r);
}

/* sc_renderer_desc.binning: a value that is no sc_binning is INVALID_ARGUMENT naming the field; the
 * radix-sort binning is the CUDA backend's (the CPU backend refuses it: UNSUPPORTED); the split
 * binning (0, the default) is every backend's. */
static void test_binning_option(void)
{
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    const int bad[] = {2, -1, 1000};
    for (int i = 0; i < 3; ++i) {
        sc_renderer_desc d = {0};
        d.backend = SC_BACKEND_CPU;
        d.width = d.height = 16;
        d.binning = (sc_binning)bad[i];
        sc_renderer *r = NULL;
        EXPECT_INVALID(sc_renderer_create(&d, &r), "binning");
        SCT_CHECK(r == NULL);
    }
    sc_renderer_desc d = {0};
    d.backend = SC_BACKEND_CPU;
    d.width = d.height = 16;
    d.binning = SC_BINNING_RADIX_SORT;
    sc_renderer *r = NULL;
    SCT_CHECK(sc_renderer_create(&d, &r) == SC_ERROR_UNSUPPORTED && r == NULL);
    SCT_CHECK_MSG(strstr(sc_last_error(), "binning") && strstr(sc_last_error(), "CPU"), "%s", sc_last_error());
    /* The CUDA backend takes it where it exists, and DEFAULT then picks it. */
    const int have_cuda = sc_renderer_testing_backend_available(SC_BACKEND_CUDA);
    d.backend = SC_BACKEND_DEFAULT;
    const sc_status s = sc_renderer_create(&d, &r);
    SCT_CHECK_MSG(s == (have_cuda ? SC_OK : SC_ERROR_UNSUPPORTED), "DEFAULT with the radix sort: %s",
                  sc_status_name(s));
    SCT_CHECK(have_cuda ? sc_renderer_backend(r) == SC_BACKEND_CUDA : r == NULL);
    sc_renderer_destroy(r);
    r = NULL;
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    d.backend = SC_BACKEND_CPU;
    d.binning = SC_BINNING_SPLIT;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(4, &knot));
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    uint8_t img[16 * 16 * 4];
    SCT_CHECK(render_ok(r, img) > 0);
    sc_renderer_destroy(r);
    sc_mesh_free(&knot);
}

/* split_bucket_of_ref is defined for any arguments (NULL desc, i >= n, missing arrays, bad rules)
 * and has a status-returning twin. */
static void test_split_bucket_of_ref_contract(void)
{
    uint32_t keys[4] = {0x12, 0x34, 0x56, 0x78};
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = 4;
    d.keys_in = keys;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.start_bit = 4;
    d.buckets.bit_count = 4;
    SCT_CHECK(split_bucket_of_ref(&d, 2) == 5);
    SCT_CHECK(split_bucket_of_ref(NULL, 0) == SPLIT_NO_BUCKET);
    SCT_CHECK(split_bucket_of_ref(&d, 4) == SPLIT_NO_BUCKET);
    SCT_CHECK(split_bucket_of_ref(&d, SIZE_MAX) == SPLIT_NO_BUCKET);
    uint32_t b = 77;
    sc_set_log_callback(capture_log, &(log_capture){0}, SC_LOG_WARNING);
    SCT_CHECK(split_bucket_of_ref_checked(NULL, 0, &b) == SC_ERROR_INVALID_ARGUMENT && b == 77);
    SCT_CHECK(split_bucket_of_ref_checked(&d, 4, &b) == SC_ERROR_INVALID_ARGUMENT && b == 77);
    SCT_CHECK_OK(split_bucket_of_ref_checked(&d, 3, &b));
    SCT_CHECK(b == 7);
    d.buckets.bit_count = 40;
    SCT_CHECK(split_bucket_of_ref(&d, 0) == SPLIT_NO_BUCKET);
    d.buckets.bit_count = 4;
    d.keys_in = NULL;
    SCT_CHECK(split_bucket_of_ref(&d, 0) == SPLIT_NO_BUCKET);
    d.keys_in = keys;
    d.buckets.rule = SPLIT_BUCKETS_IDS;
    SCT_CHECK(split_bucket_of_ref(&d, 0) == SPLIT_NO_BUCKET); /* bucket_ids NULL */
    d.buckets.rule = SPLIT_BUCKETS_RANGE;
    d.buckets.num_buckets = 4;
    SCT_CHECK(split_bucket_of_ref(&d, 0) == SPLIT_NO_BUCKET); /* range_delta 0 */
    d.buckets.range_delta = 0x20;
    SCT_CHECK(split_bucket_of_ref(&d, 2) == 2);
    d.buckets.rule = SPLIT_BUCKETS_BOUNDARIES;
    SCT_CHECK(split_bucket_of_ref(&d, 0) == SPLIT_NO_BUCKET); /* boundaries NULL */
    d.buckets.rule = (split_bucket_rule)99;
    SCT_CHECK(split_bucket_of_ref_checked(&d, 0, &b) == SC_ERROR_INVALID_ARGUMENT);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_api");
    SCT_RUN(test_argument_errors);
    SCT_RUN(test_default_camera_frames_mesh);
    SCT_RUN(test_deformations);
    SCT_RUN(test_caller_positions);
    SCT_RUN(test_shading_and_modes);
    SCT_RUN(test_flat_shading);
    SCT_RUN(test_shade_math_any_float);
    SCT_RUN(test_hostile_shading);
    SCT_RUN(test_hostile_deform);
    SCT_RUN(test_hostile_camera);
    SCT_RUN(test_hostile_capacities);
    SCT_RUN(test_grid_memory_bound);
    SCT_RUN(test_nonfinite_vertices);
    SCT_RUN(test_split_bucket_of_ref_contract);
    SCT_RUN(test_binning_option);
    return sct_end();
}
