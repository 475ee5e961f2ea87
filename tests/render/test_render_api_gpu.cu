/* test_render_api_gpu.cu - hostile input through the renderer's API on the CUDA backend (gpu): every
 * class of bad argument (non-finite shading, deformation and camera fields, tiny heat_max, reference
 * capacities beyond 32-bit offsets, non-finite vertices, huge times) is rejected with its status and a
 * message naming the field, or rendered safely; after each rejection a frame is rendered to show the
 * renderer still works. The sanitize_mid case runs them all on a small target, so that
 * `gpu-test.sh --sanitize` runs it under compute-sanitizer memcheck and racecheck. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "sc_render_testing.h"
}
#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

enum { W = 48, H = 40 };

static void quiet(sc_log_level level, const char *message, void *user)
{
    int *warnings = (int *)user;
    if (level == SC_LOG_WARNING && warnings) ++*warnings;
    (void)message;
}

/* Renders one frame into the device image and returns its hit pixels (-1 on failure). */
static long render_frame(sc_renderer *r, void *image, float time)
{
    sc_frame_desc f = {};
    f.rgba = image;
    f.time = time;
    sc_status s = sc_renderer_render(r, &f);
    sc_frame_stats st;
    if (s == SC_OK) s = sc_renderer_stats(r, &st);
    if (s != SC_OK) {
        sct_fail(__FILE__, __LINE__, "render: %s: %s", sc_status_name(s), sc_last_error());
        return -1;
    }
    return (long)st.hit_pixels;
}

#define EXPECT_INVALID(call, field)                                                                       \
    do {                                                                                                  \
        sc_status st_ = (call);                                                                           \
        SCT_CHECK_MSG(st_ == SC_ERROR_INVALID_ARGUMENT, "%s: got %s", field, sc_status_name(st_));       \
        SCT_CHECK_MSG(strstr(sc_last_error(), field) != NULL, "message does not name %s: %s", field,      \
                      sc_last_error());                                                                   \
    } while (0)

static sc_renderer *cuda_renderer(uint32_t w, uint32_t h, size_t initial_ref_capacity)
{
    sc_renderer_desc d = {};
    d.backend = SC_BACKEND_CUDA;
    d.width = w;
    d.height = h;
    d.initial_ref_capacity = initial_ref_capacity;
    sc_renderer *r = NULL;
    sc_status s = sc_renderer_create(&d, &r);
    if (s != SC_OK) sct_fail(__FILE__, __LINE__, "create: %s", sc_last_error());
    return r;
}

static void bad_shading(sc_renderer *r, void *image)
{
    const float tiny[] = {6e-8f, 1e-30f, 1e-45f};
    for (int m = 0; m < 2; ++m)
        for (int i = 0; i < 3; ++i) {
            sc_shading_desc s = {};
            s.mode = m ? SC_VIEW_TESTS_HEAT : SC_VIEW_TILE_HEAT;
            s.heat_max = tiny[i];
            SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
            SCT_CHECK(render_frame(r, image, 0.0f) > 0);
        }
    const float bad[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; ++i) {
        sc_shading_desc s = {};
        s.heat_max = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.heat_max");
        s.heat_max = 0;
        s.ambient = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.ambient");
        s.ambient = 0;
        s.albedo[0] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.albedo[0]");
        s.albedo[0] = 0;
        s.light_dir[1] = bad[i];
        EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.light_dir[1]");
        SCT_CHECK(render_frame(r, image, 0.0f) > 0);
    }
    sc_shading_desc s = {};
    s.heat_max = -2.0f;
    EXPECT_INVALID(sc_renderer_set_shading(r, &s), "shading.heat_max");
    SCT_CHECK_OK(sc_renderer_set_shading(r, NULL));
    SCT_CHECK(render_frame(r, image, 0.0f) > 0);
}

static void bad_deform(sc_renderer *r, void *image)
{
    const float bad[] = {NAN, INFINITY};
    for (int i = 0; i < 2; ++i) {
        sc_deform_desc d = {};
        d.twist.amount = bad[i];
        EXPECT_INVALID(sc_renderer_set_deform(r, &d), "deform.twist.amount");
        d = sc_deform_desc{};
        d.wave.amount = 0.1f;
        d.wave.frequency = bad[i];
        EXPECT_INVALID(sc_renderer_set_deform(r, &d), "deform.wave.frequency");
        d = sc_deform_desc{};
        d.noise.amount = 0.1f;
        d.noise.scale = bad[i];
        EXPECT_INVALID(sc_renderer_set_deform(r, &d), "deform.noise.scale");
        d = sc_deform_desc{};
        d.bend.amount = 0.1f;
        d.bend.axis[2] = bad[i];
        EXPECT_INVALID(sc_renderer_set_deform(r, &d), "deform.bend.axis[2]");
        SCT_CHECK(render_frame(r, image, 0.0f) > 0);
    }
    /* Every effect at the largest finite times: finite positions, a non-empty frame. */
    sc_deform_desc d = {};
    d.twist.amount = 0.5f;
    d.bend.amount = 0.3f;
    d.wave.amount = 0.02f;
    d.pulse.amount = 0.02f;
    d.noise.amount = 0.02f;
    d.noise.speed = 3e38f;
    SCT_CHECK_OK(sc_renderer_set_deform(r, &d));
    sc_frame_params params;
    sc_renderer_testing_frame_params(r, &params);
    const uint32_t nv = params.num_vertices;
    float *p = (float *)malloc(sizeof(float) * 3 * nv);
    const float times[] = {3e38f, -3e38f};
    for (int i = 0; i < 2; ++i) {
        SCT_CHECK(render_frame(r, image, times[i]) > 0);
        SCT_CHECK_OK(sc_renderer_read_positions(r, p));
        size_t nonfinite = 0;
        for (uint32_t v = 0; v < 3 * nv; ++v) nonfinite += !isfinite(p[v]);
        SCT_CHECK_EQ_U64(nonfinite, 0);
    }
    free(p);
    SCT_CHECK_OK(sc_renderer_set_deform(r, NULL));
}

static void bad_camera(sc_renderer *r, void *image)
{
    sc_camera_desc c = {{0, 0, 5}, {0, 0, 0}, {0, 1, 0}, 0, 0, 0};
    c.eye[0] = NAN;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.eye[0]");
    c.eye[0] = 0;
    c.fovy = INFINITY;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.fovy");
    c.fovy = 1e-40f;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.fovy");
    c.fovy = 0;
    c.far_plane = NAN;
    EXPECT_INVALID(sc_renderer_set_camera(r, &c), "camera.far_plane");
    SCT_CHECK(render_frame(r, image, 0.0f) > 0);
    sc_frame_desc f = {};
    f.time = NAN;
    EXPECT_INVALID(sc_renderer_render(r, &f), "frame.time");
    SCT_CHECK(render_frame(r, image, 0.0f) > 0);
}

/* Faces on non-finite vertices are dropped (no hit, no NaN in any normal); unused ones are ignored. */
static void bad_vertices(sc_renderer *r, void *image)
{
    float pos[8 * 3] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0, NAN, 0, 0, 0, 0, INFINITY, NAN, NAN, NAN, 3e38f, 3e38f, 0};
    uint32_t idx[4 * 3] = {0, 1, 2, 0, 2, 3, 2, 4, 1, 3, 5, 0};
    sc_mesh_data md = {pos, 8, idx, 4};
    int warnings = 0;
    sc_set_log_callback(quiet, &warnings, SC_LOG_WARNING);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK(warnings == 1);
    sc_shading_desc s = {};
    s.mode = SC_VIEW_NORMALS;
    SCT_CHECK_OK(sc_renderer_set_shading(r, &s));
    SCT_CHECK(render_frame(r, image, 0.0f) > 0);
    sc_hit *hits = (sc_hit *)malloc(sizeof(sc_hit) * W * H);
    uint8_t *img = (uint8_t *)malloc(4 * W * H);
    SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    SCT_CUDA(cudaMemcpy(img, image, 4 * W * H, cudaMemcpyDeviceToHost));
    size_t hit = 0, wrong = 0;
    for (int i = 0; i < W * H; ++i) {
        if (hits[i].tri == SC_NO_HIT) continue;
        ++hit;
        wrong += hits[i].tri > 1 || img[4 * i] != 128 || img[4 * i + 1] != 128 || img[4 * i + 2] != 255;
    }
    SCT_CHECK(hit > 0);
    SCT_CHECK_EQ_U64(wrong, 0);
    idx[4] = 8;
    EXPECT_INVALID(sc_renderer_set_mesh(r, &md), "triangle 1 has vertex index 8");
    free(hits);
    free(img);
    SCT_CHECK_OK(sc_renderer_set_shading(r, NULL));
}

static void bad_capacities(void)
{
    const size_t caps[] = {(size_t)1 << 62, SIZE_MAX, (size_t)UINT32_MAX};
    for (int i = 0; i < 3; ++i) {
        sc_renderer_desc d = {};
        d.backend = SC_BACKEND_CUDA;
        d.width = d.height = 16;
        d.initial_ref_capacity = caps[i];
        sc_renderer *r = NULL;
        EXPECT_INVALID(sc_renderer_create(&d, &r), "initial_ref_capacity");
        SCT_CHECK(r == NULL);
    }
}

static void run_all(uint32_t w, uint32_t h)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_WARNING);
    bad_capacities();
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(8, &knot));
    sc_renderer *r = cuda_renderer(w, h, 0);
    if (!r) {
        sc_mesh_free(&knot);
        return;
    }
    void *image = NULL;
    SCT_CUDA(cudaMalloc(&image, 4 * (size_t)w * h));
    sc_mesh_data md = sc_mesh_view(&knot);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    bad_shading(r, image);
    bad_deform(r, image);
    bad_camera(r, image);
    if (w == W && h == H) bad_vertices(r, image);
    sc_renderer_destroy(r);
    cudaFree(image);
    sc_mesh_free(&knot);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* Every class on a small target (the case compute-sanitizer runs). */
static void test_sanitize_mid(void) { run_all(W, H); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_api_gpu");
    sct_require_cuda();
    SCT_RUN(test_sanitize_mid);
    return sct_end();
}
