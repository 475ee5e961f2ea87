/* test_render_dense_gpu.cu - the CUDA backend on dense meshes against brute_force_dense.h (which
 * shares only the ray-triangle test with the renderer), every pixel: triangle id and depth
 * exactly, ties (equal depth, another triangle) counted and printed, not failed. The reference
 * runs on the device's own deformed positions (sc_renderer_read_positions), so the deformation's
 * transcendental functions need not match the host's. Zero wrong pixels is the bar.
 *
 * small_* (the `gpu` entry: `test_render_dense_gpu small`): the built-in knot and the plain dragon
 * at 1920x1080. large_* (`test_render_dense_gpu large`): the dragon subdivided twice (13.9M
 * triangles), twist + wave, the program's default orbit camera, 1920x1080 and 3840x2160 at t = 0
 * and 1.65. Exits 77 without a CUDA device; a test whose model is absent is skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" {
#include "renderer_internal.h"
}
#include "dense_scene.h"
#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static uint32_t threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 64 ? 64u : (uint32_t)n;
}

static void check_frames(const sc_mesh *m, uint32_t w, uint32_t h, const float *times, uint32_t num_times,
                         const char *name)
{
    sc_renderer_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.backend = SC_BACKEND_CUDA;
    desc.width = w;
    desc.height = h;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&desc, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create(cuda, %ux%u): %s", w, h, sc_last_error());
        return;
    }
    sc_mesh_data md = sc_mesh_view(m);
    sc_camera_desc cam = dense_orbit_camera(m);
    sc_deform_desc def = dense_bench_deform();
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK_OK(sc_renderer_set_camera(r, &cam));
    SCT_CHECK_OK(sc_renderer_set_deform(r, &def));
    for (uint32_t i = 0; i < num_times; ++i) {
        char what[128];
        snprintf(what, sizeof what, "cuda: %s %ux%u t=%g", name, w, h, (double)times[i]);
        dense_diff d;
        if (dense_check_frame(r, &r->params, m->vertex_count, m->indices, m->triangle_count, times[i], threads(), what,
                              &d) != 0)
            continue;
        SCT_CHECK_MSG(d.hits > d.pixels / 20, "%s: only %llu hit pixels", what, (unsigned long long)d.hits);
        SCT_CHECK_MSG(d.wrong == 0, "%s: %llu wrong pixels (%llu holes), %llu ties", what,
                      (unsigned long long)d.wrong, (unsigned long long)d.holes, (unsigned long long)d.ties);
    }
    sc_renderer_destroy(r);
}

static void test_small_knot_1080p(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(512, &knot));
    const float times[] = {0.0f, 1.65f};
    check_frames(&knot, 1920, 1080, times, 2, "built-in knot");
    sc_mesh_free(&knot);
}

static void dragon_frames(uint32_t levels, uint32_t w, uint32_t h, const float *times, uint32_t n)
{
    sc_mesh m;
    const int rc = dense_scene_load("stanford-dragon.obj.xz", levels, &m);
    if (rc == 77) {
        sct_skip("stanford-dragon.obj.xz not found (SLABCAST_MODELS, ../shared/models, out/models)");
        return;
    }
    if (rc != 0) return;
    check_frames(&m, w, h, times, n, levels ? "dragon/2" : "dragon");
    sc_mesh_free(&m);
}

static void test_small_dragon_1080p(void)
{
    const float times[] = {0.0f, 1.65f};
    dragon_frames(0, 1920, 1080, times, 2);
}

static void test_large_dragon14m_1080p(void)
{
    const float times[] = {0.0f, 1.65f};
    dragon_frames(2, 1920, 1080, times, 2);
}

static void test_large_dragon14m_4k(void)
{
    const float times[] = {0.0f, 1.65f};
    dragon_frames(2, 3840, 2160, times, 2);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_dense_gpu");
    sct_require_cuda();
    SCT_RUN(test_small_knot_1080p);
    SCT_RUN(test_small_dragon_1080p);
    SCT_RUN(test_large_dragon14m_1080p);
    SCT_RUN(test_large_dragon14m_4k);
    return sct_end();
}
