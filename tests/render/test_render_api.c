/* test_render_api.c - the renderer's API: argument errors, defaults, deformation effects, caller
 * positions, smooth and flat shading, visualisation modes, resize (cpu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cuda.h"
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
    const int have_cuda = sc_backend_cuda_available();
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
    SCT_CHECK(r->params.tile_size == 8 && r->params.num_slabs == 16);
    sc_frame_desc f = {0};
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT); /* no mesh */

    float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[3] = {0, 1, 3};
    sc_mesh_data md = {pos, 3, idx, 1};
    SCT_CHECK(sc_renderer_set_mesh(r, &md) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strstr(sc_last_error(), "triangle 0") != NULL, "%s", sc_last_error());
    idx[2] = 2;
    pos[4] = NAN;
    SCT_CHECK(sc_renderer_set_mesh(r, &md) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_MSG(strstr(sc_last_error(), "vertex 1") != NULL, "%s", sc_last_error());
    pos[4] = 0;
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
    f.rgba_pitch = 0;
    f.time = NAN;
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_INVALID_ARGUMENT);
    f.time = 0;
    f.surface = 1;
    SCT_CHECK(sc_renderer_render(r, &f) == SC_ERROR_UNSUPPORTED);
    f.surface = 0;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK(sc_renderer_resize(r, 0, 5) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(r->params.width == 10 && r->params.height == 10);
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
    const float *rest = knot.positions, *C = r->mesh_center, R = r->mesh_radius;
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
    sc_brute_force(&r->params, mine, knot.indices, knot.triangle_count, 2, want);
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

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_api");
    SCT_RUN(test_argument_errors);
    SCT_RUN(test_default_camera_frames_mesh);
    SCT_RUN(test_deformations);
    SCT_RUN(test_caller_positions);
    SCT_RUN(test_shading_and_modes);
    SCT_RUN(test_flat_shading);
    return sct_end();
}
