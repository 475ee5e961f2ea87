/* test_display_interop.cu - a CUDA kernel writes the image into the display's mapped pixel buffer; the
 * display pass shows it exactly; the mapping survives resizes and repeated frames (gl, gpu). */
#include <stdlib.h>
#include <string.h>

#include "display_test_util.h"
#include "sc_display.h"
#include "sc_gl.h"
#include "sctest.h"
#include "sctest_gl.h"
#include "sctest_cuda.h"

__global__ void write_pattern(uint32_t *rgba, int w, int h, uint32_t frame)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uint32_t v = ((uint32_t)x * 73856093u) ^ ((uint32_t)y * 19349663u);
    rgba[y * w + x] = ((v + frame) & 0x00ffffffu) | 0xff000000u;
}

static void frame_at(sc_display *d, cudaStream_t s, int w, int h, uint32_t frame)
{
    SCT_CHECK_OK(sc_display_resize(d, w, h));
    void *dev = NULL;
    SCT_REQUIRE_OK(sc_display_map_cuda(d, s, &dev));
    dim3 block(8, 8), grid((w + 7) / 8, (h + 7) / 8);
    write_pattern<<<grid, block, 0, s>>>((uint32_t *)dev, w, h, frame);
    SCT_CUDA(cudaGetLastError());
    SCT_CHECK_OK(sc_display_unmap_cuda(d, s));
    offscreen o;
    SCT_REQUIRE(offscreen_create(&o, w, h));
    SCT_CHECK_OK(sc_display_draw(d, w, h));
    uint32_t *back = (uint32_t *)malloc((size_t)w * h * 4);
    SCT_REQUIRE(back);
    offscreen_read(&o, back);
    int bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint32_t v = ((uint32_t)x * 73856093u) ^ ((uint32_t)y * 19349663u);
            bad += back[y * w + x] != (((v + frame) & 0x00ffffffu) | 0xff000000u);
        }
    SCT_CHECK_MSG(bad == 0, "%dx%d frame %u: %d pixels differ", w, h, frame, bad);
    free(back);
    offscreen_destroy(&o);
}

static void test_cuda_writes_displayed_image(void)
{
    sc_display *d = NULL;
    sc_display_desc desc = {};
    desc.width = 64;
    desc.height = 64;
    desc.cuda_interop = 1;
    SCT_REQUIRE_OK(sc_display_create(&desc, &d));
    cudaStream_t s;
    SCT_CUDA_REQUIRE(cudaStreamCreate(&s));
    for (uint32_t f = 0; f < 3; ++f) frame_at(d, s, 1024, 1024, f);
    frame_at(d, s, 1000, 777, 7);
    frame_at(d, s, 1, 1, 8);
    frame_at(d, s, 1920, 1080, 9);
    cudaStreamDestroy(s);
    sc_display_destroy(d);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "display_interop");
    sct_require_cuda();
    sc_gl_context *ctx = sct_require_gl(1);
    SCT_RUN(test_cuda_writes_displayed_image);
    sc_gl_context_destroy(ctx);
    return sct_end();
}
