/* test_render_vertex_order_gpu.cu - sc_renderer_desc.vertex_order on the CUDA backend (gpu): the
 * scenes of test_render_vertex_order (vertex_order_cases.h) rendered by a renderer keeping the
 * caller's vertex order and one with the default first-use order give the same hits, pixels, shadow
 * masks and positions, bit for bit; caller positions (device memory) are taken in the caller's order
 * and read_positions / copy_positions give them back in it. The small scenes are the sanitize_mid
 * case (compute-sanitizer runs the permutation kernels); `large` has more vertices than
 * read_positions' staging buffer holds, so the read goes chunk by chunk; caller positions in host
 * memory are refused. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "sctest_log.h"
#include "slabcast.h"
#include "vertex_order_cases.h"

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    return cudaMalloc(&p, bytes) == cudaSuccess ? p : NULL;
}
static void dev_release(void *p) { cudaFree(p); }
static int dev_to_host(void *host, const void *src, size_t bytes)
{
    return cudaMemcpy(host, src, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}
static int dev_from_host(void *dst, const void *host, size_t bytes)
{
    return cudaMemcpy(dst, host, bytes, cudaMemcpyHostToDevice) == cudaSuccess ? 0 : -1;
}
static const vo_memory k_device = {dev_alloc, dev_release, dev_to_host, dev_from_host};

static void check_scenes(int first, int last)
{
    for (int k = first; k <= last; ++k) {
        sc_mesh m;
        const char *name = NULL;
        if (vo_scene_make(k, sct_base_seed(), &m, &name) != 0) continue;
        vo_check_scene(SC_BACKEND_CUDA, &k_device, &m, name);
        sc_mesh_free(&m);
    }
}

/* Every small scene (the case compute-sanitizer runs). */
static void test_sanitize_mid(void) { check_scenes(0, VO_SCENE_COUNT - 1); }

/* Caller positions in host memory are refused (INVALID_ARGUMENT naming frame.positions) before a
 * kernel or copy could read them, in either vertex order, and the renderer renders on. */
static void test_host_positions_refused(void)
{
    sc_mesh m;
    const char *name = NULL;
    if (vo_scene_make(2, sct_base_seed(), &m, &name) != 0) return;
    for (int o = SC_VERTEX_ORDER_FIRST_USE; o <= SC_VERTEX_ORDER_KEEP; ++o) {
        sc_renderer_desc d = {};
        d.backend = SC_BACKEND_CUDA;
        d.width = 32;
        d.height = 24;
        d.vertex_order = (sc_vertex_order)o;
        sc_renderer *r = NULL;
        SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
        const sc_mesh_data md = sc_mesh_view(&m);
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        sc_frame_desc f = {};
        f.positions = m.positions; /* host memory */
        const sc_status s = sc_renderer_render(r, &f);
        SCT_CHECK_MSG(s == SC_ERROR_INVALID_ARGUMENT && strstr(sc_last_error(), "frame.positions"),
                      "vertex order %d: status %d: %s", o, (int)s, sc_last_error());
        f.positions = NULL;
        SCT_CHECK_OK(sc_renderer_render(r, &f));
        sc_frame_stats st;
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK(st.hit_pixels > 0);
        sc_renderer_destroy(r);
    }
    sc_mesh_free(&m);
}

/* A subdivided knot of about 2.1M vertices: read_positions in chunks of the staging buffer. */
static void test_large(void) { check_scenes(VO_SCENE_LARGE, VO_SCENE_LARGE); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_vertex_order_gpu");
    sct_require_cuda();
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_WARNING); /* the scenes' non-finite vertices warn */
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_host_positions_refused);
    SCT_RUN(test_large);
    return sct_end();
}
