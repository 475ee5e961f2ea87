/* test_display_interop.cu - a CUDA kernel writes the image through sc_display_map_cuda; the display pass
 * shows it exactly, through interop and through the copy path, across resizes and repeated frames; both
 * paths show the same frame identically; AUTO falls back to the copy path (with its notice) when
 * registration fails, and INTEROP then fails clearly (gl, gpu). */
#include <stdlib.h>
#include <string.h>

#include "display_test_util.h"
#include "display_testing.h"
#include "sc_display.h"
#include "sc_gl.h"
#include "sctest.h"
#include "sctest_gl.h"
#include "sctest_cuda.h"

/* Frame `frame` of the test image; alpha varies too, so every byte of a pixel is checked. */
__host__ __device__ static uint32_t pattern(uint32_t x, uint32_t y, uint32_t frame)
{
    uint32_t v = (x * 73856093u) ^ (y * 19349663u);
    return (v + frame * 2654435761u) | ((x ^ y ^ frame) & 1u ? 0xff000000u : 0u);
}

__global__ void write_pattern(uint32_t *rgba, int w, int h, uint32_t frame)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    rgba[y * w + x] = pattern((uint32_t)x, (uint32_t)y, frame);
}

static sc_display *create_display(sc_display_cuda_path path)
{
    sc_display *d = NULL;
    sc_display_desc desc = {};
    desc.width = 64;
    desc.height = 64;
    desc.cuda_interop = 1;
    desc.cuda_path = path;
    SCT_CHECK_OK(sc_display_create(&desc, &d));
    return d;
}

/* Resizes `d`, lets a kernel on `s` write frame `frame` through the mapping, and draws it 1:1 into
 * `back` (w * h pixels, read back). */
static void draw_frame(sc_display *d, cudaStream_t s, int w, int h, uint32_t frame, uint32_t *back)
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
    memset(back, 0, (size_t)w * h * 4);
    offscreen_read(&o, back);
    offscreen_destroy(&o);
}

/* One frame, checked pixel for pixel against the pattern. */
static void frame_at(sc_display *d, cudaStream_t s, int w, int h, uint32_t frame)
{
    uint32_t *back = (uint32_t *)malloc((size_t)w * h * 4);
    SCT_REQUIRE(back);
    draw_frame(d, s, w, h, frame, back);
    int bad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) bad += back[(size_t)y * w + x] != pattern((uint32_t)x, (uint32_t)y, frame);
    SCT_CHECK_MSG(bad == 0, "%dx%d frame %u: %d pixels differ", w, h, frame, bad);
    free(back);
}

/* The frame sequence of every path: repeated frames, then resizes to awkward and large sizes. */
static void frame_sequence(sc_display *d, cudaStream_t s)
{
    for (uint32_t f = 0; f < 3; ++f) frame_at(d, s, 1024, 1024, f);
    frame_at(d, s, 1000, 777, 7);
    frame_at(d, s, 1, 1, 8);
    frame_at(d, s, 1920, 1080, 9);
    frame_at(d, s, 3840, 2160, 10);
}

static void test_cuda_writes_displayed_image(void)
{
    sc_display *d = create_display(SC_DISPLAY_CUDA_AUTO);
    SCT_REQUIRE(d);
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_INTEROP); /* AUTO takes interop where it can */
    SCT_CHECK(sc_display_notice(d) == NULL);
    cudaStream_t s;
    SCT_CUDA_REQUIRE(cudaStreamCreate(&s));
    frame_sequence(d, s);
    cudaStreamDestroy(s);
    sc_display_destroy(d);
}

static void test_copy_path_shows_frames_exactly(void)
{
    sc_display *d = create_display(SC_DISPLAY_CUDA_COPY);
    SCT_REQUIRE(d);
    cudaStream_t s;
    SCT_CUDA_REQUIRE(cudaStreamCreate(&s));
    frame_sequence(d, s);
    frame_at(d, NULL, 640, 480, 11); /* the legacy default stream */
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_COPY);
    SCT_CHECK(sc_display_notice(d) == NULL); /* forced, not a fallback */
    cudaStreamDestroy(s);
    sc_display_destroy(d);
}

static void test_interop_and_copy_show_the_same_frame(void)
{
    sc_display *interop = create_display(SC_DISPLAY_CUDA_INTEROP), *copy = create_display(SC_DISPLAY_CUDA_COPY);
    SCT_REQUIRE(interop && copy);
    SCT_CHECK(sc_display_cuda_path_in_use(interop) == SC_DISPLAY_CUDA_INTEROP);
    SCT_CHECK(sc_display_cuda_path_in_use(copy) == SC_DISPLAY_CUDA_COPY);
    const int sizes[][2] = {{1000, 777}, {1, 1}, {1920, 1080}};
    for (int i = 0; i < 3; ++i) {
        int w = sizes[i][0], h = sizes[i][1];
        uint32_t *a = (uint32_t *)malloc((size_t)w * h * 4), *b = (uint32_t *)malloc((size_t)w * h * 4);
        SCT_REQUIRE(a && b);
        draw_frame(interop, NULL, w, h, 20u + (uint32_t)i, a);
        draw_frame(copy, NULL, w, h, 20u + (uint32_t)i, b);
        SCT_CHECK_MSG(memcmp(a, b, (size_t)w * h * 4) == 0, "%dx%d: interop and copy frames differ", w, h);
        free(a);
        free(b);
    }
    sc_display_destroy(interop);
    sc_display_destroy(copy);
}

/* Warnings passed to the log callback. */
typedef struct warning_log { int count; char last[512]; } warning_log;

static void log_warnings(sc_log_level level, const char *message, void *user)
{
    warning_log *w = (warning_log *)user;
    if (level != SC_LOG_WARNING) return;
    ++w->count;
    snprintf(w->last, sizeof w->last, "%s", message);
}

/* A display that fell back: copy path, a notice naming the injected error, logged once, exact frames. */
static void check_fallback(sc_display *d, const warning_log *log)
{
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_COPY);
    const char *notice = sc_display_notice(d);
    SCT_REQUIRE(notice != NULL);
    SCT_CHECK_MSG(strstr(notice, "cudaErrorOperatingSystem") && strstr(notice, "device -> host -> texture"),
                  "notice: %s", notice);
    SCT_CHECK_EQ_U64(log->count, 1);
    SCT_CHECK_MSG(strcmp(log->last, notice) == 0, "logged \"%s\", notice \"%s\"", log->last, notice);
    frame_at(d, NULL, 1000, 777, 30);
    frame_at(d, NULL, 1920, 1080, 31);
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_COPY); /* resizes keep the copy path */
    SCT_CHECK_EQ_U64(log->count, 1);                                   /* and log nothing more */
}

/* Registration failing as it does where the GL context is not on the NVIDIA GPU (cudaErrorOperatingSystem,
 * "OS call failed or operation not supported on this OS"): no such context exists on the GPU machine,
 * so the failure is injected (display_testing.h). */
static void test_auto_falls_back_to_copy_when_registration_fails(void)
{
    warning_log log = {0, ""};
    sc_set_log_callback(log_warnings, &log, SC_LOG_WARNING);
    sc_display_testing_fail_next_register((int)cudaErrorOperatingSystem);
    sc_display *d = create_display(SC_DISPLAY_CUDA_AUTO);
    if (d) check_fallback(d, &log);
    sc_display_destroy(d);

    /* At a resize: an AUTO display on interop falls back when registering the new buffer fails. */
    log.count = 0;
    d = create_display(SC_DISPLAY_CUDA_AUTO);
    if (d) {
        SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_INTEROP);
        frame_at(d, NULL, 320, 200, 32);
        sc_display_testing_fail_next_register((int)cudaErrorOperatingSystem);
        SCT_CHECK_OK(sc_display_resize(d, 321, 200));
        check_fallback(d, &log);
    }
    sc_display_destroy(d);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void test_interop_fails_clearly_when_registration_fails(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    sc_display_testing_fail_next_register((int)cudaErrorOperatingSystem);
    sc_display_desc desc = {};
    desc.width = 64;
    desc.height = 64;
    desc.cuda_interop = 1;
    desc.cuda_path = SC_DISPLAY_CUDA_INTEROP;
    sc_display *d = (sc_display *)1;
    SCT_CHECK(sc_display_create(&desc, &d) == SC_ERROR_CUDA);
    SCT_CHECK(d == NULL);
    const char *why = sc_last_error();
    SCT_CHECK_MSG(strstr(why, "cudaGraphicsGLRegisterImage") && strstr(why, "cudaErrorOperatingSystem") &&
                      strstr(why, "INTEROP"),
                  "message: %s", why);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    /* The injected failure was one registration only. */
    SCT_CHECK_OK(sc_display_create(&desc, &d));
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_INTEROP);
    sc_display_destroy(d);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "display_interop");
    sct_require_cuda();
    sc_gl_context *ctx = sct_require_gl(1);
    SCT_RUN(test_cuda_writes_displayed_image);
    SCT_RUN(test_copy_path_shows_frames_exactly);
    SCT_RUN(test_interop_and_copy_show_the_same_frame);
    SCT_RUN(test_auto_falls_back_to_copy_when_registration_fails);
    SCT_RUN(test_interop_fails_clearly_when_registration_fails);
    sc_gl_context_destroy(ctx);
    return sct_end();
}
