/* test_render_grid_gpu.cu - the grid changed between frames (sc_renderer_set_grid) and the stats read
 * without waiting (sc_renderer_poll_stats) on the CUDA backend (gpu).
 *  - A renderer whose tile size and slab count change between frames gives, frame by frame, the
 *    same pixels (tile heat, slab and shaded modes) and hits as renderers created with those grids;
 *    an invalid grid is rejected and the previous one stays in force. Once with a read after every
 *    frame, once with every frame enqueued before anything is read (frames in flight when the grid
 *    changes; each slot's graph captured again).
 *  - poll_stats never waits: while a kernel ahead of the frames on the renderer's stream holds the
 *    device until the host lets it go, poll_stats returns at once with nothing (the first frame, the
 *    first after a grid change) or the frame before; once the frame has finished it returns its
 *    stats, equal to sc_renderer_stats's. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vector>

#include "grid_scene.h"
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

static void check_grid(const sc_renderer *r, int kind, uint32_t frame)
{
    sc_grid_info g;
    memset(&g, 0, sizeof g);
    SCT_CHECK_OK(sc_renderer_get_grid(r, &g));
    SCT_CHECK_MSG(g.tile_size == k_grid_kinds[kind][0] && g.num_slabs == k_grid_kinds[kind][1] &&
                      g.width == GRID_W && g.height == GRID_H,
                  "frame %u: grid tiles %u slabs %u, want %u %u", frame, g.tile_size, g.num_slabs,
                  k_grid_kinds[kind][0], k_grid_kinds[kind][1]);
}

/* in_flight: every frame enqueued first (an image buffer per frame), read at the end; else each
 * frame's hits are read before the grid changes. */
static void check_set_grid_equals_created(bool in_flight)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    const size_t npix = (size_t)GRID_W * GRID_H;
    sc_renderer *ref[GRID_KINDS];
    bool ok = true;
    for (int k = 0; k < GRID_KINDS; ++k) {
        ref[k] = grid_renderer(&m, SC_BACKEND_CUDA, k_grid_kinds[k][0], k_grid_kinds[k][1], NULL);
        ok = ok && ref[k];
    }
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CUDA, 0, 0, NULL);
    unsigned char *d_img = NULL, *d_want = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_img, npix * 4 * GRID_FRAMES));
    SCT_CUDA(cudaMalloc((void **)&d_want, npix * 4 * GRID_FRAMES));
    std::vector<unsigned char> img(npix * 4 * GRID_FRAMES), want(npix * 4 * GRID_FRAMES);
    std::vector<sc_hit> hits(npix), want_hits(npix);
    ok = ok && r && d_img && d_want;
    for (uint32_t i = 0; ok && i < GRID_FRAMES; ++i) {
        const grid_step st = k_grid_steps[i];
        const sc_status s = sc_renderer_set_grid(r, st.tile_size, st.num_slabs);
        if (st.valid)
            SCT_CHECK_MSG(s == SC_OK, "frame %u: set_grid(%u, %u): %s", i, st.tile_size, st.num_slabs, sc_last_error());
        else
            SCT_CHECK_MSG(s == SC_ERROR_INVALID_ARGUMENT, "frame %u: set_grid(%u, %u) gave %s", i, st.tile_size,
                          st.num_slabs, sc_status_name(s));
        check_grid(r, st.kind, i);
        SCT_CHECK(grid_set_mode(r, grid_mode(i)) && grid_set_mode(ref[st.kind], grid_mode(i)));
        render(r, grid_time(i), d_img + npix * 4 * i);
        render(ref[st.kind], grid_time(i), d_want + npix * 4 * i);
        if (in_flight) continue;
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits.data()));
        SCT_CHECK_OK(sc_renderer_read_hits(ref[st.kind], want_hits.data()));
        SCT_CHECK_MSG(memcmp(hits.data(), want_hits.data(), npix * sizeof(sc_hit)) == 0,
                      "frame %u (tiles %u, slabs %u): hits differ", i, k_grid_kinds[st.kind][0],
                      k_grid_kinds[st.kind][1]);
        sc_frame_stats a, b;
        SCT_CHECK_OK(sc_renderer_stats(r, &a));
        SCT_CHECK_OK(sc_renderer_stats(ref[st.kind], &b));
        SCT_CHECK_MSG(a.overflow_passes == 0 && b.overflow_passes == 0,
                      "frame %u: overflow passes %u and %u (the capacity given at creation is too small)", i,
                      a.overflow_passes, b.overflow_passes);
        SCT_CHECK_MSG(a.tiles == grid_tiles(st.kind) && a.references == b.references &&
                          a.ray_triangle_tests == b.ray_triangle_tests && a.hit_pixels == b.hit_pixels,
                      "frame %u: tiles %llu refs %llu tests %llu, want %llu %llu %llu", i, (unsigned long long)a.tiles,
                      (unsigned long long)a.references, (unsigned long long)a.ray_triangle_tests,
                      (unsigned long long)grid_tiles(st.kind), (unsigned long long)b.references,
                      (unsigned long long)b.ray_triangle_tests);
    }
    if (ok) {
        sc_frame_stats st;
        SCT_CHECK_OK(sc_renderer_stats(r, &st)); /* waits for r's frames */
        for (int k = 0; k < GRID_KINDS; ++k) SCT_CHECK_OK(sc_renderer_stats(ref[k], &st));
        SCT_CUDA(cudaDeviceSynchronize());
        SCT_CUDA(cudaMemcpy(img.data(), d_img, img.size(), cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(want.data(), d_want, want.size(), cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < GRID_FRAMES; ++i) {
            const int k = k_grid_steps[i].kind;
            SCT_CHECK_MSG(memcmp(img.data() + npix * 4 * i, want.data() + npix * 4 * i, npix * 4) == 0,
                          "frame %u (tiles %u, slabs %u, mode %d): pixels differ", i, k_grid_kinds[k][0],
                          k_grid_kinds[k][1], (int)grid_mode(i));
        }
        /* The last frame's hits (in flight: the only ones left to compare). */
        const int k = k_grid_steps[GRID_FRAMES - 1].kind;
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits.data()));
        SCT_CHECK_OK(sc_renderer_read_hits(ref[k], want_hits.data()));
        SCT_CHECK(memcmp(hits.data(), want_hits.data(), npix * sizeof(sc_hit)) == 0);
    }
    for (int k = 0; k < GRID_KINDS; ++k) sc_renderer_destroy(ref[k]);
    sc_renderer_destroy(r);
    cudaFree(d_img);
    cudaFree(d_want);
    sc_mesh_free(&m);
}

static void test_set_grid_read_each_frame(void) { check_set_grid_equals_created(false); }
static void test_set_grid_in_flight(void) { check_set_grid_equals_created(true); }

/* A kernel that holds the stream until the host sets *flag (or about 10 s pass on a 2 GHz clock,
 * so that a poll that waits shows as a failure, not a hang). */
__global__ void hold_until(volatile int *flag, long long max_cycles)
{
    const long long start = clock64();
    while (*flag == 0 && clock64() - start < max_cycles) {
    }
}

static volatile int *g_flag;   /* mapped pinned host memory */
static int *g_flag_dev;

static void hold(cudaStream_t s)
{
    *g_flag = 0;
    hold_until<<<1, 1, 0, s>>>(g_flag_dev, 20000000000ll);
    SCT_CUDA(cudaGetLastError());
}

static void release(void) { *g_flag = 1; }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* poll_stats, timed: must return at once. */
static void poll_now(sc_renderer *r, sc_frame_stats *out, int *available, const char *when)
{
    const double t0 = now_ms();
    *available = -1;
    SCT_CHECK_OK(sc_renderer_poll_stats(r, out, available));
    const double ms = now_ms() - t0;
    SCT_CHECK_MSG(ms < 1000.0, "%s: poll_stats took %.1f ms while the device is held (it waited)", when, ms);
}

/* Polls until frame `want` (or a later one) is reported; 0 when it is not within 20 s. */
static int poll_until(sc_renderer *r, uint64_t want, sc_frame_stats *out)
{
    const double t0 = now_ms();
    while (now_ms() - t0 < 20000.0) {
        int available = 0;
        if (sc_renderer_poll_stats(r, out, &available) != SC_OK) return 0;
        if (available && out->frame >= want) return 1;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void check_same(const sc_frame_stats *polled, const sc_frame_stats *want, const char *when)
{
    const char *what = "";
    SCT_CHECK_MSG(grid_stats_equal(polled, want, &what), "%s: poll_stats and sc_renderer_stats differ in %s", when,
                  what);
}

static void test_poll_never_waits(void)
{
    sc_mesh m;
    SCT_REQUIRE(grid_scene(&m));
    cudaStream_t s = NULL;
    SCT_CUDA_REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *flag = NULL;
    SCT_CUDA_REQUIRE(cudaHostAlloc((void **)&flag, sizeof(int), cudaHostAllocMapped));
    SCT_CUDA_REQUIRE(cudaHostGetDevicePointer((void **)&g_flag_dev, flag, 0));
    g_flag = flag;
    *g_flag = 1;
    sc_renderer *r = grid_renderer(&m, SC_BACKEND_CUDA, 0, 0, s);
    const float t = grid_time(3); /* the same frame every time: the references fit after the first */
    sc_frame_stats polled, st, frame2;
    int available = -1;
    if (r) {
        /* The first frame, held: nothing has finished. */
        hold(s);
        render(r, t, NULL);
        poll_now(r, &polled, &available, "first frame held");
        SCT_CHECK_MSG(available == 0, "first frame held: available %d (frame %llu)", available,
                      (unsigned long long)polled.frame);
        release();
        SCT_CHECK_MSG(poll_until(r, 1, &polled), "the first frame is never reported");
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK(polled.frame == 1 && st.frame == 1);
        check_same(&polled, &st, "first frame");
        /* A second frame, not held (a grow of the references, if the first overflowed, happens here). */
        render(r, t, NULL);
        SCT_CHECK_OK(sc_renderer_stats(r, &frame2));
        SCT_CHECK(frame2.frame == 2);
        /* The third, held: the second is the newest finished. */
        hold(s);
        render(r, t, NULL);
        poll_now(r, &polled, &available, "third frame held");
        SCT_CHECK_MSG(available == 1 && polled.frame == 2, "third frame held: available %d frame %llu", available,
                      (unsigned long long)polled.frame);
        if (available) check_same(&polled, &frame2, "the second frame while the third is held");
        release();
        SCT_CHECK_MSG(poll_until(r, 3, &polled), "the third frame is never reported");
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK(polled.frame == 3 && st.frame == 3);
        check_same(&polled, &st, "third frame");
        /* Another grid (wider tiles: fewer references, no grow): nothing from before it. */
        SCT_CHECK_OK(sc_renderer_set_grid(r, 16, 8));
        poll_now(r, &polled, &available, "grid changed");
        SCT_CHECK_MSG(available == 0, "grid changed: available %d (frame %llu)", available,
                      (unsigned long long)polled.frame);
        hold(s);
        render(r, t, NULL);
        poll_now(r, &polled, &available, "first frame of the grid held");
        SCT_CHECK_MSG(available == 0, "first frame of the grid held: available %d (frame %llu)", available,
                      (unsigned long long)polled.frame);
        release();
        SCT_CHECK_MSG(poll_until(r, 4, &polled), "the fourth frame is never reported");
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK(polled.frame == 4 && st.frame == 4 && st.tiles == grid_tiles(2));
        check_same(&polled, &st, "first frame of the grid");
        /* Frames in flight: every report is a finished frame of this grid, in order, up to the last. */
        uint64_t seen = 4;
        for (int i = 0; i < 3; ++i) {
            render(r, t, NULL);
            SCT_CHECK_OK(sc_renderer_poll_stats(r, &polled, &available));
            SCT_CHECK_MSG(available == 1 && polled.frame >= seen && polled.frame <= 5u + (uint64_t)i,
                          "in flight: available %d frame %llu after %llu", available, (unsigned long long)polled.frame,
                          (unsigned long long)seen);
            if (available) seen = polled.frame;
        }
        SCT_CHECK_MSG(poll_until(r, 7, &polled), "the seventh frame is never reported");
        SCT_CHECK_OK(sc_renderer_stats(r, &st));
        SCT_CHECK(polled.frame == 7 && st.frame == 7);
        check_same(&polled, &st, "last of the frames in flight");
    }
    release();
    SCT_CUDA(cudaStreamSynchronize(s));
    sc_renderer_destroy(r);
    cudaFreeHost(flag);
    cudaStreamDestroy(s);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_grid_gpu");
    sct_require_cuda();
    SCT_RUN(test_set_grid_read_each_frame);
    SCT_RUN(test_set_grid_in_flight);
    SCT_RUN(test_poll_never_waits);
    return sct_end();
}
