/* test_render_normals_gpu.cu - smooth normals computed where a pixel needs them, on the CUDA backend
 * (gpu): on the seeded mesh of normals_cases.h (non-manifold, isolated, degenerate and non-finite
 * cases), frames of the rest pose and of caller positions (device memory), both vertex orders, read
 * back the per-vertex reference normals bit for bit (sc_renderer_testing_read_normals: a kernel
 * over the vertices, on demand) and shade every hit pixel of the normals view exactly as the
 * per-vertex normals did (shade computes the hit triangle's vertex normals from the one-rings);
 * the normals stage reports 0 ms. test_render_normals is the CPU backend's side. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "normals_cases.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static void test_cuda_frames(void)
{
    sc_mesh m;
    SCT_REQUIRE(nc_mesh_make(sct_base_seed(), &m) == 0);
    const size_t npix = (size_t)NC_W * NC_H, v3 = 3 * (size_t)m.vertex_count;
    std::vector<float> moved(v3);
    std::vector<uint8_t> img(4 * npix);
    nc_moved_positions(&m, sct_base_seed(), moved.data());
    void *d_img = NULL;
    float *d_moved = NULL;
    SCT_CUDA(cudaMalloc(&d_img, 4 * npix));
    SCT_CUDA(cudaMalloc((void **)&d_moved, v3 * sizeof(float)));
    SCT_CUDA(cudaMemcpy(d_moved, moved.data(), v3 * sizeof(float), cudaMemcpyHostToDevice));
    const sc_vertex_order orders[2] = {SC_VERTEX_ORDER_KEEP, SC_VERTEX_ORDER_FIRST_USE};
    for (int o = 0; o < 2 && d_img && d_moved; ++o) {
        sc_renderer *r = nc_renderer(SC_BACKEND_CUDA, &m, orders[o]);
        if (!r) continue;
        for (int frame = 0; frame < 2; ++frame) {
            sc_frame_desc f;
            memset(&f, 0, sizeof f);
            f.rgba = d_img;
            f.positions = frame ? d_moved : NULL;
            SCT_CUDA(cudaMemset(d_img, 0, 4 * npix));
            SCT_CHECK_OK(sc_renderer_render(r, &f));
            sc_frame_stats st;
            SCT_CHECK_OK(sc_renderer_stats(r, &st)); /* waits for the frame */
            SCT_CUDA(cudaDeviceSynchronize());
            SCT_CUDA(cudaMemcpy(img.data(), d_img, 4 * npix, cudaMemcpyDeviceToHost));
            char what[96];
            snprintf(what, sizeof what, "cuda, %s order, %s", o ? "first-use" : "caller's",
                     frame ? "caller positions" : "rest pose");
            nc_check_frame(r, &m, img.data(), what);
        }
        sc_renderer_destroy(r);
    }
    cudaFree(d_img);
    cudaFree(d_moved);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_normals_gpu");
    sct_require_cuda();
    SCT_RUN(test_cuda_frames);
    return sct_end();
}
