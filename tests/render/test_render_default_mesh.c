/* test_render_default_mesh.c - the built-in 1M-triangle knot, deformed, at 1024 x 1024 on the CPU
 * backend: it renders in a few seconds, the knot fills a plausible part of the image, and the
 * counters are consistent (cpu, large). */
#include <stdio.h>
#include <stdlib.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "slabcast.h"

static void test_default_mesh_1024(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(0, &m));
    SCT_CHECK_EQ_U64(m.triangle_count, 1048576);
    sc_renderer_desc d = {0};
    d.backend = SC_BACKEND_CPU;
    d.width = d.height = 1024;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_mesh_data md = sc_mesh_view(&m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    sc_deform_desc def = {0};
    def.twist.amount = 1.0f;
    def.wave.amount = 0.03f;
    def.noise.amount = 0.02f;
    SCT_CHECK_OK(sc_renderer_set_deform(r, &def));
    unsigned char *img = malloc(1024 * 1024 * 4);
    for (int frame = 0; frame < 3; ++frame) {
        sc_frame_desc f = {0};
        f.time = 0.4f * (float)frame;
        f.rgba = img;
        SCT_REQUIRE_OK(sc_renderer_render(r, &f));
        sc_frame_stats s;
        SCT_CHECK_OK(sc_renderer_stats(r, &s));
        printf("      frame %d: %.0f ms (deform %.0f, normals %.0f, project %.0f, reduce %.0f, scan %.0f, emit %.0f, "
               "tile split %.0f, slab split %.0f, ray cast %.0f, shade %.0f); visible %llu, references %llu, "
               "tests %llu, early tiles %llu, hit pixels %llu\n",
               frame, s.total_ms, s.stage_ms[SC_STAGE_DEFORM], s.stage_ms[SC_STAGE_NORMALS],
               s.stage_ms[SC_STAGE_PROJECT], s.stage_ms[SC_STAGE_REDUCE], s.stage_ms[SC_STAGE_SCAN],
               s.stage_ms[SC_STAGE_EMIT], s.stage_ms[SC_STAGE_TILE_SPLIT], s.stage_ms[SC_STAGE_SLAB_SPLIT],
               s.stage_ms[SC_STAGE_RAYCAST], s.stage_ms[SC_STAGE_SHADE], (unsigned long long)s.visible_triangles,
               (unsigned long long)s.references, (unsigned long long)s.ray_triangle_tests,
               (unsigned long long)s.tiles_exited_early, (unsigned long long)s.hit_pixels);
        SCT_CHECK_MSG(s.total_ms < 10000.0, "frame took %.0f ms", s.total_ms);
        SCT_CHECK(s.hit_pixels > 1024 * 1024 / 10 && s.hit_pixels < 1024 * 1024 / 2);
        SCT_CHECK(s.visible_triangles > s.triangles / 2 && s.references >= s.visible_triangles);
        SCT_CHECK(s.tiles_exited_early > 0);
    }
    free(img);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_default_mesh");
    SCT_RUN(test_default_mesh_1024);
    return sct_end();
}
