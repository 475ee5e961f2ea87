/* test_demo_png.c - split-demo's PNG output (app/split_demo/demo_png.c, compiled in: the demo's library
 * is CUDA-only) without a GPU (cpu): a canvas written and read back, and a write onto a device that
 * fails every write (/dev/full, through a link with a .png name) reported as a failure with its errno,
 * not a success with a truncated file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demo_png.h"
#include "sctest.h"
#include "sctest_png.h"

static void test_write_read_back(void)
{
    static const uint8_t fill[4] = {10, 20, 30, 255}, red[4] = {255, 0, 0, 255};
    demo_image img;
    SCT_REQUIRE(demo_image_alloc(&img, 8, 4, fill) == 0);
    demo_fill_rect(&img, 0, 0, 1, 1, red); /* bottom-left pixel: y up */
    char dir[] = "/tmp/test_demo_png_XXXXXX", path[64];
    SCT_REQUIRE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.png", dir);
    SCT_CHECK(demo_png_write(path, &img) == 0);
    int w = 0, h = 0, n = 0;
    unsigned char *px = stbi_load(path, &w, &h, &n, 4);
    SCT_REQUIRE(px && w == 8 && h == 4);
    SCT_CHECK(px[(3 * 8 + 0) * 4] == 255 && px[(3 * 8 + 0) * 4 + 1] == 0); /* the file's last row */
    SCT_CHECK(px[0] == 10 && px[1] == 20 && px[2] == 30);
    stbi_image_free(px);
    unlink(path);
    rmdir(dir);
    demo_image_free(&img);
}

static void test_write_fails(void)
{
    if (access("/dev/full", W_OK) != 0) {
        sct_skip("no writable /dev/full here");
        return;
    }
    static const uint8_t fill[4] = {1, 2, 3, 255};
    demo_image img;
    SCT_REQUIRE(demo_image_alloc(&img, 64, 64, fill) == 0);
    char dir[] = "/tmp/test_demo_png_XXXXXX", path[64];
    SCT_REQUIRE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/full.png", dir);
    SCT_REQUIRE(symlink("/dev/full", path) == 0);
    errno = 0;
    SCT_CHECK(demo_png_write(path, &img) == -1);
    SCT_CHECK_MSG(errno == ENOSPC, "errno %d (%s)", errno, strerror(errno));
    unlink(path);
    rmdir(dir);
    demo_image_free(&img);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "demo_png");
    SCT_RUN(test_write_read_back);
    SCT_RUN(test_write_fails);
    return sct_end();
}
