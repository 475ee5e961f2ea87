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
#include "dense_scene.h"
#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static void test_small_knot_1080p(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(512, &knot));
    const float times[] = {0.0f, 1.65f};
    dense_check_frames(SC_BACKEND_CUDA, &knot, 1920, 1080, times, 2, "built-in knot");
    sc_mesh_free(&knot);
}

static void dragon_frames(uint32_t levels, uint32_t w, uint32_t h, const float *times, uint32_t n)
{
    dense_check_model(SC_BACKEND_CUDA, "stanford-dragon.obj.xz", levels, w, h, times, n);
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
