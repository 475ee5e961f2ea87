/* test_render_shadows_gpu.cu - the CUDA backend's shadows against shadow_brute_force.h,
 * which shares only the shadow ray (shadow.h) and the watertight test (intersect.h) with the
 * renderer, bit for bit on every hit pixel and light, on the cases of shadow_cases.h (those of
 * test_render_shadows.c). The reference runs on the device's own hits and deformed positions, so the
 * deformation's transcendental functions need not match the host's. Each small case is then
 * rendered by the CPU backend from the CUDA frame's positions (sc_frame_desc.positions): where the
 * two backends' hits are equal their masks must be equal too, and so must the receiver, blocked-ray
 * and light-view counters.
 *
 * small_* (`test_render_shadows_gpu small`, label gpu): the cases of the CPU test, the dragon at
 * 1920x1080; small_sanitize_mid (the point lights and the grow paths) is the case scripts/gpu-test.sh
 * --sanitize runs under compute-sanitizer. large_* (`test_render_shadows_gpu large`, labels gpu
 * large): the dragon subdivided twice (13.9M triangles), the program's camera and the bench's twist +
 * wave, the issue's default light (framing centre + 3 x framing radius x normalize(1, 2, 1)), at
 * 1920x1080 and 3840x2160, t = 0 and 1.65: 0 wrong shadow pixels. Exits 77 without a CUDA device; a
 * test whose model is absent is skipped. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sctest.h"
#include "sctest_cuda.h"
#include "shadow_cases.h"
#include "slabcast.h"

enum { PRINT_DIFFS = 8 };

static int same_hit(const sc_hit &a, const sc_hit &b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The CPU frame h, rendered from the CUDA frame g's positions, against g. */
static void compare_backends(const shadow_case *c, const shadow_frame *g, const shadow_frame *h)
{
    const size_t npix = (size_t)g->width * g->height;
    uint64_t hit_diffs = 0, wrong = 0;
    for (size_t px = 0; px < npix; ++px) {
        if (!same_hit(g->hits[px], h->hits[px])) {
            if (hit_diffs++ < 3)
                printf("  %s: pixel (%zu, %zu): cuda hit tri %u depth %.9g, cpu tri %u depth %.9g\n",
                       c->name, px % g->width, px / g->width, g->hits[px].tri, (double)g->hits[px].depth,
                       h->hits[px].tri, (double)h->hits[px].depth);
            continue;
        }
        if (g->mask[px] != h->mask[px] && wrong++ < PRINT_DIFFS)
            sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu) hit tri %u: cuda mask 0x%02x, cpu mask 0x%02x, reference 0x%02x",
                     c->name, px % g->width, px / g->width, g->hits[px].tri, g->mask[px], h->mask[px],
                     g->ref ? g->ref[px] : 0xFFu);
    }
    SCT_CHECK_MSG(wrong == 0, "%s: %llu pixels with equal hits and different masks on the two backends", c->name,
                  (unsigned long long)wrong);
    /* Both backends give the same hits on the same positions (equal depths go to the lower id): the masks
     * are compared on every pixel. */
    SCT_CHECK_MSG(hit_diffs == 0, "%s: %llu of %llu hit pixels differ between the backends", c->name,
                  (unsigned long long)hit_diffs, (unsigned long long)g->hit_pixels);
    const sc_frame_stats &a = g->stats, &b = h->stats;
    printf("  %s: cpu vs cuda: %llu hit pixels differ; light views %u / %u, caster references %llu / %llu, shadow "
           "tests %llu / %llu, early %llu / %llu\n",
           c->name, (unsigned long long)hit_diffs, b.light_views, a.light_views,
           (unsigned long long)b.shadow_references, (unsigned long long)a.shadow_references,
           (unsigned long long)b.shadow_ray_tests, (unsigned long long)a.shadow_ray_tests,
           (unsigned long long)b.shadow_rays_early, (unsigned long long)a.shadow_rays_early);
    SCT_CHECK_EQ_U64(a.shadow_receivers, b.shadow_receivers);
    SCT_CHECK_EQ_U64(a.shadow_rays_blocked, b.shadow_rays_blocked);
    SCT_CHECK_EQ_U64(a.light_views, b.light_views);
    SCT_CHECK_EQ_U64(a.shadow_lights, b.shadow_lights);
}

/* The CUDA frame against the reference, then against the CPU backend on the same positions. */
static void run_gpu(const shadow_case *c)
{
    shadow_frame g, h;
    if (shadow_check_case(SC_BACKEND_CUDA, c, NULL, &g) != 0) return;
    if (shadow_render_case(SC_BACKEND_CPU, c, g.positions, &h) == 0) {
        compare_backends(c, &g, &h);
        shadow_frame_free(&h);
    }
    shadow_frame_free(&g);
}

/* The CUDA frame against the reference only (the 13.9M frames). */
static void run_gpu_only(const shadow_case *c) { shadow_check_case(SC_BACKEND_CUDA, c, NULL, NULL); }

static int render_rgba_cuda(sc_renderer *r, uint32_t w, uint32_t h, uint8_t *rgba)
{
    const size_t bytes = 4 * (size_t)w * h;
    void *dev = NULL;
    if (cudaMalloc(&dev, bytes) != cudaSuccess) {
        sct_fail(__FILE__, __LINE__, "cudaMalloc(%zu) failed", bytes);
        return -1;
    }
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.rgba = dev;
    int rc = 0;
    if (sc_renderer_render(r, &f) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "render: %s", sc_last_error());
        rc = -1;
    } else if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(rgba, dev, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        sct_fail(__FILE__, __LINE__, "copying the image back failed");
        rc = -1;
    }
    cudaFree(dev);
    return rc;
}

static void test_small_light_api(void) { shadow_check_light_api(SC_BACKEND_CUDA); }
/* Point lights (a light inside the model's box among them) and the grow paths (reference capacities 1
 * and 64: the eye pass's and the shadow pass's overflow fallbacks, then grown buffers): every kernel of
 * the shadow pass, small enough for compute-sanitizer (scripts/gpu-test.sh --sanitize runs it). */
static void test_small_sanitize_mid(void)
{
    shadow_cases_small_point_lights(run_gpu);
    shadow_cases_small_deform_grow(run_gpu);
}
static void test_small_far_and_directional_lights(void) { shadow_cases_small_far_lights(run_gpu); }
static void test_small_shadows_off(void) { shadow_cases_small_off(run_gpu); }
static void test_small_no_leak_sphere(void) { shadow_cases_no_leak_sphere(run_gpu); }
static void test_small_no_leak_box(void) { shadow_cases_no_leak_box(run_gpu); }
static void test_small_view_modes(void) { shadow_check_view_modes(SC_BACKEND_CUDA, render_rgba_cuda); }
static void test_small_bunny(void) { shadow_cases_bunny(run_gpu); }
static void test_small_bunny_on_ground(void) { shadow_cases_bunny_on_ground(run_gpu); }
static void test_small_dragon_1080p(void) { shadow_cases_dragon(run_gpu, 1920, 1080); }
static void test_small_knot_1080p(void) { shadow_cases_knot(run_gpu, 1920, 1080); }
static void test_large_dragon14m_1080p(void) { shadow_cases_dragon14m(run_gpu_only, 1920, 1080); }
static void test_large_dragon14m_4k(void) { shadow_cases_dragon14m(run_gpu_only, 3840, 2160); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_shadows_gpu");
    sct_require_cuda();
    SCT_RUN(test_small_light_api);
    SCT_RUN(test_small_sanitize_mid);
    SCT_RUN(test_small_far_and_directional_lights);
    SCT_RUN(test_small_shadows_off);
    SCT_RUN(test_small_no_leak_sphere);
    SCT_RUN(test_small_no_leak_box);
    SCT_RUN(test_small_view_modes);
    SCT_RUN(test_small_bunny);
    SCT_RUN(test_small_bunny_on_ground);
    SCT_RUN(test_small_dragon_1080p);
    SCT_RUN(test_small_knot_1080p);
    SCT_RUN(test_large_dragon14m_1080p);
    SCT_RUN(test_large_dragon14m_4k);
    return sct_end();
}
