/* test_render_options_gpu.cu - culling and flat shading as per-frame options on the CUDA backend: a
 * renderer whose options change between frames gives, frame by frame, the same pixels and hits as
 * renderers created with those options. Once with a read after every frame, once with every frame
 * enqueued before anything is read (frames in flight, each slot's graph captured with other options
 * before) (gpu). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "options_scene.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static void render(sc_renderer *r, float time, void *d_rgba)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    f.rgba = d_rgba;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
}

/* in_flight: every frame enqueued first (an image buffer per frame), read at the end; else each
 * frame's image and hits are read before the next is enqueued. */
static void check_toggled_equals_created(bool in_flight)
{
    sc_mesh m;
    SCT_REQUIRE(options_scene(&m));
    const size_t npix = (size_t)OPT_W * OPT_H;
    sc_renderer *ref[4] = {NULL, NULL, NULL, NULL}; /* index cull | flat << 1 */
    for (int k = 0; k < 4; ++k) {
        sc_render_options o = {k & 1, k >> 1, 0, 0};
        ref[k] = options_renderer(&m, SC_BACKEND_CUDA, o);
    }
    sc_render_options none = {0, 0, 0, 0};
    sc_renderer *r = options_renderer(&m, SC_BACKEND_CUDA, none);
    unsigned char *d_img = NULL, *d_want = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_img, npix * 4 * OPT_FRAMES));
    SCT_CUDA(cudaMalloc((void **)&d_want, npix * 4 * OPT_FRAMES));
    std::vector<unsigned char> img(npix * 4 * OPT_FRAMES), want(npix * 4 * OPT_FRAMES);
    std::vector<sc_hit> hits(npix), want_hits(npix);
    bool ok = r && ref[0] && ref[1] && ref[2] && ref[3] && d_img && d_want;
    for (uint32_t i = 0; ok && i < OPT_FRAMES; ++i) {
        const sc_render_options o = k_opt_sequence[i];
        const int k = o.cull_back_faces | o.flat_shading << 1;
        SCT_CHECK_OK(sc_renderer_set_options(r, &o));
        render(r, options_time(i), d_img + npix * 4 * i);
        render(ref[k], options_time(i), d_want + npix * 4 * i);
        if (in_flight) continue;
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits.data()));
        SCT_CHECK_OK(sc_renderer_read_hits(ref[k], want_hits.data()));
        SCT_CHECK_MSG(memcmp(hits.data(), want_hits.data(), npix * sizeof(sc_hit)) == 0,
                      "frame %u (cull %d flat %d): hits differ", i, o.cull_back_faces, o.flat_shading);
        /* Stage times only when asked for; the frame's time always. */
        sc_frame_stats st;
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        double staged = 0.0;
        int zero = 1;
        for (int k2 = 0; k2 < SC_STAGE_COUNT; ++k2) {
            staged += st.stage_ms[k2];
            zero = zero && st.stage_ms[k2] == 0.0;
        }
        SCT_CHECK_MSG(st.frame_ms > 0.0, "frame %u: frame_ms %g", i, st.frame_ms);
        if (o.stage_times)
            SCT_CHECK_MSG(st.stage_ms[SC_STAGE_PROJECT] > 0.0 && st.stage_ms[SC_STAGE_RAYCAST] > 0.0 &&
                              st.stage_ms[SC_STAGE_SHADE] > 0.0 && staged <= st.frame_ms * 1.001 + 1e-3,
                          "frame %u, stage times on: project %g ray cast %g shade %g, sum %g of a %g ms frame", i,
                          st.stage_ms[SC_STAGE_PROJECT], st.stage_ms[SC_STAGE_RAYCAST], st.stage_ms[SC_STAGE_SHADE],
                          staged, st.frame_ms);
        else
            SCT_CHECK_MSG(zero, "frame %u, stage times off: the stages add up to %g ms", i, staged);
    }
    if (ok) {
        sc_frame_stats st;
        SCT_CHECK_OK(sc_renderer_stats(r, &st)); /* waits for r's frames */
        for (int k = 0; k < 4; ++k) SCT_CHECK_OK(sc_renderer_stats(ref[k], &st));
        SCT_CUDA(cudaDeviceSynchronize());
        SCT_CUDA(cudaMemcpy(img.data(), d_img, img.size(), cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(want.data(), d_want, want.size(), cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < OPT_FRAMES; ++i)
            SCT_CHECK_MSG(memcmp(img.data() + npix * 4 * i, want.data() + npix * 4 * i, npix * 4) == 0,
                          "frame %u (cull %d flat %d): pixels differ", i, k_opt_sequence[i].cull_back_faces,
                          k_opt_sequence[i].flat_shading);
        /* The options matter in this scene: culling changes the hits, flat shading the pixels. */
        render(ref[0], options_time(0), d_img);
        SCT_CHECK_OK(sc_renderer_read_hits(ref[0], hits.data()));
        render(ref[1], options_time(0), d_want);
        SCT_CHECK_OK(sc_renderer_read_hits(ref[1], want_hits.data()));
        SCT_CHECK(memcmp(hits.data(), want_hits.data(), npix * sizeof(sc_hit)) != 0);
        render(ref[2], options_time(0), d_want);
        SCT_CHECK_OK(sc_renderer_read_hits(ref[2], want_hits.data()));
        SCT_CUDA(cudaDeviceSynchronize());
        SCT_CUDA(cudaMemcpy(img.data(), d_img, npix * 4, cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(want.data(), d_want, npix * 4, cudaMemcpyDeviceToHost));
        SCT_CHECK(memcmp(img.data(), want.data(), npix * 4) != 0);
    }
    for (int k = 0; k < 4; ++k) sc_renderer_destroy(ref[k]);
    sc_renderer_destroy(r);
    cudaFree(d_img);
    cudaFree(d_want);
    sc_mesh_free(&m);
}

static void test_toggled_read_every_frame(void) { check_toggled_equals_created(false); }
static void test_toggled_frames_in_flight(void) { check_toggled_equals_created(true); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_options_gpu");
    sct_require_cuda();
    SCT_RUN(test_toggled_read_every_frame);
    SCT_RUN(test_toggled_frames_in_flight);
    return sct_end();
}
