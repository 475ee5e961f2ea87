/* test_render_dense.c - the CPU backend on dense meshes against brute_force_dense.h (which shares
 * only the ray-triangle test with the renderer), every pixel: triangle id and depth exactly, ties
 * (equal depth, another triangle) counted and printed, not failed. Zero wrong pixels is the bar.
 *
 * Tests named small_* are fast (the `cpu` entry: `test_render_dense small`): the dense reference
 * against the every-ray brute force on small scenes, the built-in knot and the plain dragon at
 * 1920x1080. Tests named large_* (the `large` entry: `test_render_dense large`) are the dense
 * frames: the dragon subdivided twice (13.9M triangles), deformed twist + wave, the slabcast
 * program's default orbit camera, at 1920x1080 (t = 0, 1.65) and 3840x2160 (t = 0, 1.65).
 * Models come from sctest_models.h; a test whose model is absent is skipped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute_force_dense.h"
#include "dense_scene.h"
#include "render_test_util.h"

/* The dense reference equals the every-ray brute force (bit for bit) on a scene. */
static void expect_references_agree(const sc_mesh *m, uint32_t w, uint32_t h, const float eye[3],
                                    const float target[3], float near_plane, int cull, const char *what)
{
    sc_renderer *r = make_renderer(w, h, 0, 0, cull);
    if (!r) return;
    sc_mesh_data md = sc_mesh_view(m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    look(r, eye[0], eye[1], eye[2], target[0], target[1], target[2], near_plane, 100.0f);
    const size_t npix = (size_t)w * h;
    sc_hit *a = malloc(npix * sizeof *a), *b = malloc(npix * sizeof *b);
    const sc_frame_params params = test_params(r);
    sc_brute_force(&params, m->positions, m->indices, m->triangle_count, 2, a);
    SCT_CHECK(sc_brute_force_dense(&params, m->positions, m->indices, m->triangle_count, 2, b, NULL) == 0);
    long bad = 0, hit = 0;
    for (size_t i = 0; i < npix; ++i) {
        hit += a[i].tri != SC_NO_HIT;
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0) {
            if (bad < 5)
                sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu): brute force tri %u depth %.9g, dense tri %u depth %.9g",
                         what, i % w, i / w, a[i].tri, (double)a[i].depth, b[i].tri, (double)b[i].depth);
            ++bad;
        }
    }
    SCT_CHECK_MSG(hit > 0, "%s: no pixel hit", what);
    SCT_CHECK_MSG(bad == 0, "%s: %ld of %zu pixels differ", what, bad, npix);
    free(a);
    free(b);
    sc_renderer_destroy(r);
}

static void test_small_reference_vs_brute_force(void)
{
    static const float ORIGIN[3] = {0, 0, 0}, FORWARD[3] = {0, 0, -1};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 61);
    /* Small and sub-pixel triangles in front of the camera. */
    test_mesh soup = {0};
    for (uint32_t i = 0; i < 800; ++i) {
        const float size = i % 2 ? 0.004f : 0.3f;
        float c[3] = {rng_range(&rng, -3, 3), rng_range(&rng, -2, 2), rng_range(&rng, -8, -1.5f)}, v[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) v[k][d] = c[d] + rng_range(&rng, -size, size);
        tm_tri3(&soup, v[0], v[1], v[2]);
    }
    expect_references_agree(&soup.m, 331, 217, ORIGIN, FORWARD, 0.1f, 0, "soup 331x217");
    expect_references_agree(&soup.m, 400, 225, ORIGIN, FORWARD, 0.1f, 1, "soup 400x225 culled");
    sc_mesh_free(&soup.m);
    /* Large triangles all around the camera: near-plane cuts, triangles behind it. */
    test_mesh around = {0};
    for (int i = 0; i < 80; ++i) {
        float v[3][3];
        for (int k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) v[k][d] = rng_range(&rng, -3, 3);
        tm_tri3(&around, v[0], v[1], v[2]);
    }
    expect_references_agree(&around.m, 160, 120, ORIGIN, FORWARD, 0.05f, 0, "around the camera");
    sc_mesh_free(&around.m);
    /* A closed sphere seen from inside and from outside. */
    test_mesh sphere = {0};
    const float c[3] = {0.1f, -0.05f, 0.2f}, out[3] = {0.3f, 0.5f, 3.0f};
    tm_sphere(&sphere, c, 1.0f, 16, 24, sct_base_seed() + 62);
    expect_references_agree(&sphere.m, 200, 150, ORIGIN, FORWARD, 0.01f, 0, "inside a sphere");
    expect_references_agree(&sphere.m, 160, 160, out, c, 0.01f, 1, "sphere");
    sc_mesh_free(&sphere.m);
}

static void test_small_knot_1080p(void)
{
    sc_mesh knot;
    SCT_REQUIRE_OK(sc_mesh_default(512, &knot));
    const float times[] = {0.0f, 1.65f};
    dense_check_frames(SC_BACKEND_CPU, &knot, 1920, 1080, times, 2, "built-in knot");
    sc_mesh_free(&knot);
}

static void dragon_frames(uint32_t levels, uint32_t w, uint32_t h, const float *times, uint32_t n)
{
    dense_check_model(SC_BACKEND_CPU, "stanford-dragon.obj.xz", levels, w, h, times, n);
}

static void test_small_dragon_1080p(void)
{
    const float times[] = {0.0f};
    dragon_frames(0, 1920, 1080, times, 1);
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
    sct_begin(argc, argv, "render_dense");
    SCT_RUN(test_small_reference_vs_brute_force);
    SCT_RUN(test_small_knot_1080p);
    SCT_RUN(test_small_dragon_1080p);
    SCT_RUN(test_large_dragon14m_1080p);
    SCT_RUN(test_large_dragon14m_4k);
    return sct_end();
}
