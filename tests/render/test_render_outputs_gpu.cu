/* test_render_outputs_gpu.cu - the CUDA backend's other outputs and streams: a frame written into a
 * CUDA surface (cudaSurfaceObject_t of an RGBA8 array) equals the same frame written into a device
 * buffer with a row pitch; a renderer on its own non-blocking stream gives the same image, hits and
 * counters as one on the default stream; frames interleaved on two renderers stay independent (gpu). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static sc_renderer *make(uint32_t w, uint32_t h, cudaStream_t stream, const sc_mesh *m)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CUDA;
    d.width = w;
    d.height = h;
    d.stream = stream;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) return NULL;
    sc_mesh_data md = sc_mesh_view(m);
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.9f;
    def.wave.amount = 0.04f;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &def) != SC_OK) {
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static void test_surface_equals_pitched_buffer(void)
{
    const uint32_t w = 1000, h = 777; /* partial edge tiles */
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(64, &m));
    sc_renderer *r = make(w, h, NULL, &m);
    SCT_REQUIRE(r != NULL);

    /* A pitched device buffer with padding bytes that must stay untouched. */
    const size_t pitch = (size_t)w * 4 + 96;
    unsigned char *d_buf = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&d_buf, pitch * h));
    SCT_CUDA(cudaMemset(d_buf, 0xA5, pitch * h));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = 0.7f;
    f.rgba = d_buf;
    f.rgba_pitch = pitch;
    SCT_REQUIRE_OK(sc_renderer_render(r, &f));
    std::vector<unsigned char> buf(pitch * h);
    SCT_CUDA(cudaMemcpy(buf.data(), d_buf, pitch * h, cudaMemcpyDeviceToHost));

    /* The same frame into a surface. */
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
    cudaArray_t arr = NULL;
    SCT_CUDA_REQUIRE(cudaMallocArray(&arr, &fmt, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaSurfaceObject_t surf = 0;
    SCT_CUDA_REQUIRE(cudaCreateSurfaceObject(&surf, &rd));
    memset(&f, 0, sizeof f);
    f.time = 0.7f;
    f.surface = (unsigned long long)surf;
    SCT_REQUIRE_OK(sc_renderer_render(r, &f));
    std::vector<unsigned char> img((size_t)w * h * 4);
    SCT_CUDA(cudaMemcpy2DFromArray(img.data(), (size_t)w * 4, arr, 0, 0, (size_t)w * 4, h, cudaMemcpyDeviceToHost));

    size_t bad = 0, pad_bad = 0, hits = 0;
    for (uint32_t y = 0; y < h; ++y) {
        bad += memcmp(&buf[y * pitch], &img[(size_t)y * w * 4], (size_t)w * 4) != 0;
        for (size_t b = (size_t)w * 4; b < pitch; ++b) pad_bad += buf[y * pitch + b] != 0xA5;
    }
    sc_frame_stats st;
    SCT_CHECK_OK(sc_renderer_stats(r, &st));
    hits = st.hit_pixels;
    SCT_CHECK_MSG(bad == 0, "%zu rows differ between the surface and the buffer", bad);
    SCT_CHECK_MSG(pad_bad == 0, "%zu padding bytes written", pad_bad);
    SCT_CHECK_MSG(hits > (size_t)w * h / 20, "only %zu hit pixels: the frame shows little", hits);

    cudaDestroySurfaceObject(surf);
    cudaFreeArray(arr);
    cudaFree(d_buf);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

static void test_own_stream_matches_default_stream(void)
{
    const uint32_t w = 640, h = 480;
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(64, &m));
    cudaStream_t s1, s2;
    SCT_CUDA_REQUIRE(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    SCT_CUDA_REQUIRE(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    sc_renderer *a = make(w, h, NULL, &m), *b = make(w, h, s1, &m), *c = make(w, h, s2, &m);
    SCT_REQUIRE(a && b && c);
    unsigned char *da = NULL, *db = NULL, *dc = NULL;
    const size_t bytes = (size_t)w * h * 4;
    SCT_CUDA_REQUIRE(cudaMalloc(&da, bytes));
    SCT_CUDA_REQUIRE(cudaMalloc(&db, bytes));
    SCT_CUDA_REQUIRE(cudaMalloc(&dc, bytes));
    std::vector<unsigned char> ia(bytes), ib(bytes), ic(bytes);
    std::vector<sc_hit> ha((size_t)w * h), hb((size_t)w * h);
    for (int frame = 0; frame < 4; ++frame) {
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = 0.25f * (float)frame;
        /* Interleaved: b and c on their own streams, c one frame ahead of b. */
        f.rgba = da;
        SCT_REQUIRE_OK(sc_renderer_render(a, &f));
        f.rgba = db;
        SCT_REQUIRE_OK(sc_renderer_render(b, &f));
        sc_frame_desc g = f;
        g.rgba = dc;
        g.time = f.time + 0.25f;
        SCT_REQUIRE_OK(sc_renderer_render(c, &g));
        sc_frame_stats sa, sb;
        SCT_CHECK_OK(sc_renderer_stats(a, &sa)); /* waits for the frames: render returns before they end */
        SCT_CHECK_OK(sc_renderer_stats(b, &sb));
        SCT_CUDA(cudaMemcpy(ia.data(), da, bytes, cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(ib.data(), db, bytes, cudaMemcpyDeviceToHost));
        SCT_CHECK_MSG(memcmp(ia.data(), ib.data(), bytes) == 0, "frame %d: images differ across streams", frame);
        SCT_CHECK_OK(sc_renderer_read_hits(a, ha.data()));
        SCT_CHECK_OK(sc_renderer_read_hits(b, hb.data()));
        SCT_CHECK_MSG(memcmp(ha.data(), hb.data(), ha.size() * sizeof(sc_hit)) == 0, "frame %d: hits differ", frame);
        SCT_CHECK(sa.references == sb.references && sa.ray_triangle_tests == sb.ray_triangle_tests &&
                  sa.hit_pixels == sb.hit_pixels && sa.tiles_exited_early == sb.tiles_exited_early);
        if (frame > 0) { /* c rendered this time one call earlier: its image then equals a's now */
            SCT_CHECK_MSG(memcmp(ic.data(), ia.data(), bytes) == 0, "frame %d: c's previous frame differs", frame);
        }
        sc_frame_stats scs;
        SCT_CHECK_OK(sc_renderer_stats(c, &scs)); /* c's frame is done before its image is read */
        SCT_CUDA(cudaMemcpy(ic.data(), dc, bytes, cudaMemcpyDeviceToHost));
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    sc_renderer_destroy(a);
    sc_renderer_destroy(b);
    sc_renderer_destroy(c);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_outputs_gpu");
    sct_require_cuda();
    SCT_RUN(test_surface_equals_pitched_buffer);
    SCT_RUN(test_own_stream_matches_default_stream);
    return sct_end();
}
