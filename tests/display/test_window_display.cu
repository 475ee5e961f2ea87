/* test_window_display.cu - the viewer's display path in a real window: a GLFW window (GLX), the CUDA
 * renderer writing into the display's pixel buffer (CUDA-GL interop, or the device -> host -> texture
 * copy), drawn into the window's back buffer and read back; every frame equals, byte for byte, the same
 * frame rendered into plain device memory, with the window resized between frames (gl, gpu, window).
 * Skips (77) without a display, GLFW, an OpenGL 4.5 window or a CUDA device. On the GPU machine:
 * scripts/gpu-window-test.sh (Xvfb with NVIDIA's GLX). */
#include <glad/gl.h>
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" {
#include "glfw_loader.h"
}
#include "sc_display.h"
#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static GLFWwindow *g_window;

/* Window sizes in turn: awkward, small, wide, tall; all within a 1920x1200 screen. */
static const int k_sizes[][2] = {{640, 480}, {1000, 777}, {333, 211}, {1, 1}, {1920, 1080}, {97, 1031}, {1024, 1024}};

/* Resizes the window and waits (up to 2 s) until its framebuffer has the size. */
static int resize_window(int w, int h)
{
    glfwSetWindowSize(g_window, w, h);
    for (int i = 0; i < 200; ++i) {
        int fw = 0, fh = 0;
        glfwPollEvents();
        glfwGetFramebufferSize(g_window, &fw, &fh);
        if (fw == w && fh == h) return 1;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static sc_renderer *create_renderer(sc_mesh *mesh)
{
    sc_renderer_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.backend = SC_BACKEND_CUDA;
    rd.width = 640;
    rd.height = 480;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&rd, &r) != SC_OK) return NULL;
    sc_mesh_data md = sc_mesh_view(mesh);
    sc_deform_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.twist.amount = 0.9f;
    dd.wave.amount = 0.04f;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &dd) != SC_OK) {
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* One frame through the display into the window (as the viewer does it), read back from the back
 * buffer; the same frame into device memory; the two compared. */
static void check_frame(sc_renderer *r, sc_display *d, int w, int h, float t, void *ref_dev)
{
    SCT_CHECK_OK(sc_renderer_resize(r, (uint32_t)w, (uint32_t)h));
    SCT_CHECK_OK(sc_display_resize(d, w, h));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = t;
    void *dev = NULL;
    SCT_REQUIRE_OK(sc_display_map_cuda(d, NULL, &dev));
    f.rgba = dev;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CHECK_OK(sc_display_unmap_cuda(d, NULL));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    SCT_CHECK_OK(sc_display_draw(d, w, h));
    size_t bytes = (size_t)w * (size_t)h * 4;
    unsigned char *shown = (unsigned char *)malloc(bytes), *ref = (unsigned char *)malloc(bytes);
    SCT_REQUIRE(shown && ref);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, shown);
    SCT_CHECK_MSG(glGetError() == GL_NO_ERROR, "glReadPixels of the window failed");
    glfwSwapBuffers(g_window);

    f.rgba = ref_dev;
    SCT_CHECK_OK(sc_renderer_render(r, &f));
    SCT_CUDA(cudaDeviceSynchronize());
    SCT_CUDA(cudaMemcpy(ref, ref_dev, bytes, cudaMemcpyDeviceToHost));
    size_t differ = 0, background = 0;
    for (size_t i = 0; i < bytes; i += 4) {
        differ += memcmp(shown + i, ref + i, 4) != 0;
        background += memcmp(ref + i, ref, 4) == 0;
    }
    SCT_CHECK_MSG(differ == 0, "%dx%d t=%.2f: %zu of %zu pixels shown differ from the renderer's image", w, h,
                  (double)t, differ, bytes / 4);
    /* The frame is not blank: the model covers part of it (a blank window would match a blank render). */
    if (w >= 64 && h >= 64) SCT_CHECK_MSG(background < bytes / 4, "%dx%d: the frame is one colour", w, h);
    free(shown);
    free(ref);
}

static void run_path(sc_display_cuda_path path, sc_display_cuda_path expect)
{
    sc_mesh mesh;
    SCT_REQUIRE_OK(sc_mesh_default(96, &mesh));
    sc_renderer *r = create_renderer(&mesh);
    SCT_REQUIRE(r);
    sc_display_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.width = 640;
    dd.height = 480;
    dd.cuda_interop = 1;
    dd.cuda_path = path;
    sc_display *d = NULL;
    SCT_REQUIRE_OK(sc_display_create(&dd, &d));
    SCT_CHECK(sc_display_cuda_path_in_use(d) == expect);
    void *ref_dev = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc(&ref_dev, (size_t)1920 * 1080 * 4 * 2));
    int frames = 0;
    for (size_t i = 0; i < sizeof k_sizes / sizeof k_sizes[0]; ++i) {
        int w = k_sizes[i][0], h = k_sizes[i][1];
        if (!resize_window(w, h)) {
            sct_fail(__FILE__, __LINE__, "the window did not take the size %dx%d", w, h);
            continue;
        }
        for (int k = 0; k < 2; ++k, ++frames) check_frame(r, d, w, h, 0.25f * (float)frames, ref_dev);
    }
    printf("      %d frames through %s\n", frames, expect == SC_DISPLAY_CUDA_COPY ? "the copy path" : "interop");
    cudaFree(ref_dev);
    sc_display_destroy(d);
    sc_renderer_destroy(r);
    sc_mesh_free(&mesh);
}

static void test_interop_frames_equal_the_renderer(void)
{
    run_path(SC_DISPLAY_CUDA_AUTO, SC_DISPLAY_CUDA_INTEROP);
}

static void test_copy_frames_equal_the_renderer(void)
{
    run_path(SC_DISPLAY_CUDA_COPY, SC_DISPLAY_CUDA_COPY);
}

static void open_window_or_skip(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) sct_skip_all("no CUDA device");
    const char *display = getenv("DISPLAY");
    if (!display || !*display) sct_skip_all("no display ($DISPLAY unset)");
    char why[256];
    if (app_glfw_load(why, sizeof why) != 0) sct_skip_all(why);
    if (!glfwInit()) sct_skip_all("glfwInit failed");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    g_window = glfwCreateWindow(640, 480, "test_window_display", NULL, NULL);
    if (!g_window) sct_skip_all("no OpenGL 4.5 core window");
    glfwMakeContextCurrent(g_window);
    glfwSwapInterval(0);
    if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress)) sct_skip_all("no OpenGL 4.5 entry points");
    printf("      window: OpenGL %s (%s)\n", (const char *)glGetString(GL_VERSION),
           (const char *)glGetString(GL_RENDERER));
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "window display");
    open_window_or_skip();
    SCT_RUN(test_interop_frames_equal_the_renderer);
    SCT_RUN(test_copy_frames_equal_the_renderer);
    glfwDestroyWindow(g_window);
    glfwTerminate();
    return sct_end();
}
