/* test_display.c - the display pass shows a host-uploaded RGBA8 image exactly, row 0 at the bottom, at
 * awkward sizes and after resizes; bad arguments (a cuda_path out of range, an image too large) are
 * refused (gl). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "display_test_util.h"
#include "sc_display.h"
#include "sc_gl.h"
#include "sctest.h"
#include "sctest_gl.h"

static void check_size(sc_display *d, int w, int h)
{
    uint32_t *img = malloc((size_t)w * h * 4), *back = malloc((size_t)w * h * 4);
    SCT_REQUIRE(img && back);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img[y * w + x] = display_test_pattern((uint32_t)x, (uint32_t)y);
    SCT_CHECK_OK(sc_display_resize(d, w, h));
    SCT_CHECK_OK(sc_display_upload(d, img));
    offscreen o;
    SCT_REQUIRE(offscreen_create(&o, w, h));
    SCT_CHECK_OK(sc_display_draw(d, w, h));
    memset(back, 0, (size_t)w * h * 4);
    offscreen_read(&o, back);
    int bad = 0;
    for (int i = 0; i < w * h; ++i) bad += back[i] != img[i];
    SCT_CHECK_MSG(bad == 0, "%dx%d: %d of %d pixels differ", w, h, bad, w * h);
    offscreen_destroy(&o);
    free(img);
    free(back);
}

static void test_display_is_exact_at_awkward_sizes(void)
{
    sc_display *d = NULL;
    SCT_REQUIRE_OK(sc_display_create(&(sc_display_desc){.width = 8, .height = 8}, &d));
    check_size(d, 8, 8);
    check_size(d, 1, 1);
    check_size(d, 1000, 777);
    check_size(d, 33, 1);
    check_size(d, 1024, 1024);
    sc_display_destroy(d);
}

static void test_scaled_draw_fills_viewport(void)
{
    sc_display *d = NULL;
    SCT_REQUIRE_OK(sc_display_create(&(sc_display_desc){.width = 4, .height = 2}, &d));
    uint32_t img[8];
    for (int i = 0; i < 8; ++i) img[i] = 0xff0000ffu; /* opaque red */
    SCT_CHECK_OK(sc_display_upload(d, img));
    offscreen o;
    SCT_REQUIRE(offscreen_create(&o, 64, 48));
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    SCT_CHECK_OK(sc_display_draw(d, 64, 48));
    static uint32_t back[64 * 48];
    offscreen_read(&o, back);
    int bad = 0;
    for (int i = 0; i < 64 * 48; ++i) bad += back[i] != 0xff0000ffu;
    SCT_CHECK_MSG(bad == 0, "%d pixels not covered", bad);
    offscreen_destroy(&o);
    sc_display_destroy(d);
}

static void test_bad_arguments_are_refused(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    sc_display *d = (sc_display *)1;
    SCT_CHECK(sc_display_create(&(sc_display_desc){.width = 0, .height = 5}, &d) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(d == NULL);
    SCT_CHECK(sc_display_create(NULL, &d) == SC_ERROR_INVALID_ARGUMENT);
    SCT_REQUIRE_OK(sc_display_create(&(sc_display_desc){.width = 2, .height = 2}, &d));
    SCT_CHECK(sc_display_upload(d, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_display_draw(d, 0, 10) == SC_ERROR_INVALID_ARGUMENT);
    void *p = NULL;
    SCT_CHECK(sc_display_map_cuda(d, 0, &p) == SC_ERROR_INVALID_ARGUMENT); /* no interop requested */
    SCT_CHECK(strstr(sc_last_error(), "without cuda_interop") != NULL);
    sc_display_destroy(d);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

static void test_cuda_path_is_checked_and_reported(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    sc_display *d = (sc_display *)1;
    sc_display_desc bad_path = {.width = 2, .height = 2, .cuda_interop = 1, .cuda_path = (sc_display_cuda_path)7};
    SCT_CHECK(sc_display_create(&bad_path, &d) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(d == NULL);
    SCT_CHECK(strstr(sc_last_error(), "cuda_path 7") != NULL);
    SCT_CHECK(sc_display_create(&(sc_display_desc){.width = INT_MAX, .height = INT_MAX}, &d) ==
              SC_ERROR_INVALID_ARGUMENT); /* width * height * 4 overflows */
    SCT_CHECK(strstr(sc_last_error(), "too large") != NULL);

    SCT_REQUIRE_OK(sc_display_create(&(sc_display_desc){.width = 2, .height = 2}, &d));
    SCT_CHECK(sc_display_resize(d, INT_MAX, INT_MAX) == SC_ERROR_INVALID_ARGUMENT);
    int w = 0, h = 0;
    sc_display_size(d, &w, &h);
    SCT_CHECK(w == 2 && h == 2); /* a refused resize changes nothing */
    SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_AUTO); /* no CUDA path without cuda_interop */
    SCT_CHECK(sc_display_notice(d) == NULL);
    sc_display_destroy(d);
    SCT_CHECK(sc_display_cuda_path_in_use(NULL) == SC_DISPLAY_CUDA_AUTO);
    SCT_CHECK(sc_display_notice(NULL) == NULL);

    /* A forced copy path: with a CUDA device it is in use; without CUDA or a device, a clear refusal. */
    sc_display_desc copy = {.width = 2, .height = 2, .cuda_interop = 1, .cuda_path = SC_DISPLAY_CUDA_COPY};
    sc_status st = sc_display_create(&copy, &d);
    if (st == SC_OK) {
        SCT_CHECK(sc_display_cuda_path_in_use(d) == SC_DISPLAY_CUDA_COPY);
        sc_display_destroy(d);
    } else {
        SCT_CHECK(d == NULL);
        SCT_CHECK_MSG(st == SC_ERROR_UNSUPPORTED || st == SC_ERROR_NO_DEVICE || st == SC_ERROR_CUDA,
                      "status %s: %s", sc_status_name(st), sc_last_error());
    }
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "display");
    sc_gl_context *ctx = sct_require_gl(0);
    SCT_RUN(test_display_is_exact_at_awkward_sizes);
    SCT_RUN(test_scaled_draw_fills_viewport);
    SCT_RUN(test_bad_arguments_are_refused);
    SCT_RUN(test_cuda_path_is_checked_and_reported);
    sc_gl_context_destroy(ctx);
    return sct_end();
}
