/* test_render_group_gpu.cu - sort-last by hit keys on the device (gpu): the device composite
 * (sc_renderer_hit_keys, sc_hit_keys_composite_device, sc_hits_from_keys_device,
 * sc_renderer_resolve_keys) against the host composite, and renderer groups (sc_renderer_group) of
 * 1, 2, 3 and 5 shares on one device, in place and through the copies of the multi-device path
 * (SC_GROUP_COPY_ALWAYS), and over two devices when the machine has them, against one renderer of the
 * whole mesh pixel for pixel: hits (triangle, depth, u, v) and the image (shaded smooth and flat, the
 * triangle-id and normals views), at awkward sizes, deforming frames, culling, and reference capacity
 * 1 (every share's frames overflow and the buffers grow); `sanitize_mid` is the small case
 * gpu-test.sh --sanitize runs under compute-sanitizer. test_render_keys is the CPU side. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "composite.h"
#include "sctest.h"
#include "sctest_cuda.h"

typedef struct group_case {
    const char *what;
    uint32_t width, height;
    uint32_t shares;
    uint32_t flags;             /* SC_GROUP_COPY_ALWAYS */
    int flat, cull;
    sc_view_mode mode;
    size_t ref_capacity;        /* sc_renderer_desc.initial_ref_capacity (0: automatic) */
    int two_devices;            /* shares over devices 0 and 1 */
} group_case;

static sc_renderer_desc renderer_desc(const group_case *c)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CUDA;
    d.width = c->width;
    d.height = c->height;
    d.flat_shading = c->flat;
    d.cull_back_faces = c->cull;
    d.initial_ref_capacity = c->ref_capacity;
    return d;
}

static void deform_and_shading(const group_case *c, sc_deform_desc *def, sc_shading_desc *sd)
{
    memset(def, 0, sizeof *def);
    def->twist.amount = 0.6f;
    def->wave.amount = 0.05f;
    memset(sd, 0, sizeof *sd);
    sd->mode = c->mode;
}

/* Compares hits and images; returns the hit pixels. */
static uint64_t compare(const group_case *c, int frame, const sc_hit *want, const sc_hit *got, const uint32_t *want_img,
                        const uint32_t *got_img, size_t n)
{
    uint64_t wrong = 0, wrong_px = 0, hit = 0;
    size_t first = 0, first_px = 0;
    for (size_t i = 0; i < n; ++i) {
        hit += want[i].tri != SC_NO_HIT;
        if (memcmp(&want[i], &got[i], sizeof want[i]) && wrong++ == 0) first = i;
        if (want_img[i] != got_img[i] && wrong_px++ == 0) first_px = i;
    }
    SCT_CHECK_MSG(wrong == 0, "%s, frame %d: %llu of %zu hits differ; first %zu: whole tri %u depth %a u %a v %a, "
                  "group tri %u depth %a u %a v %a", c->what, frame, (unsigned long long)wrong, n, first,
                  want[first].tri, (double)want[first].depth, (double)want[first].u, (double)want[first].v,
                  got[first].tri, (double)got[first].depth, (double)got[first].u, (double)got[first].v);
    SCT_CHECK_MSG(wrong_px == 0, "%s, frame %d: %llu of %zu pixels differ; first %zu: whole %08x, group %08x", c->what,
                  frame, (unsigned long long)wrong_px, n, first_px, want_img[first_px], got_img[first_px]);
    return hit;
}

/* One renderer of the whole mesh against a group of c->shares, two frames. */
static void check_group(const sc_mesh_data *m, const group_case *c)
{
    int devices_present = 0;
    SCT_CUDA(cudaGetDeviceCount(&devices_present));
    if (c->two_devices && devices_present < 2) {
        sct_skip("one CUDA device: the two-device groups need two");
        return;
    }
    const size_t n = (size_t)c->width * c->height;
    sc_hit *want = (sc_hit *)malloc(n * sizeof *want), *got = (sc_hit *)malloc(n * sizeof *got);
    uint32_t *want_img = (uint32_t *)malloc(n * 4), *got_img = (uint32_t *)malloc(n * 4);
    SCT_REQUIRE(want && got && want_img && got_img);
    /* An odd pitch: rows of the group's image are not word-aligned. */
    const size_t pitch = 4 * (size_t)c->width + 3;
    uint8_t *d_whole = NULL, *d_group = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc((void **)&d_whole, n * 4));
    SCT_CUDA_REQUIRE(cudaMalloc((void **)&d_group, pitch * c->height));
    sc_deform_desc def;
    sc_shading_desc sd;
    deform_and_shading(c, &def, &sd);
    sc_renderer_desc rd = renderer_desc(c);
    sc_renderer *whole = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&rd, &whole));
    SCT_CHECK_OK(sc_renderer_set_mesh(whole, m));
    SCT_CHECK_OK(sc_renderer_set_deform(whole, &def));
    SCT_CHECK_OK(sc_renderer_set_shading(whole, &sd));
    static const int two[] = {0, 1};
    sc_group_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.renderer = rd;
    gd.shares = c->shares;
    gd.flags = c->flags;
    if (c->two_devices) {
        gd.devices = two;
        gd.device_count = 2;
    }
    sc_renderer_group *g = NULL;
    SCT_REQUIRE_OK(sc_renderer_group_create(&gd, &g));
    SCT_CHECK_OK(sc_renderer_group_set_mesh(g, m));
    SCT_CHECK_OK(sc_renderer_group_set_deform(g, &def));
    SCT_CHECK_OK(sc_renderer_group_set_shading(g, &sd));
    uint64_t hits = 0;
    for (int frame = 0; frame < 3; ++frame) {
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = 0.45f * (float)frame;
        f.rgba = d_whole;
        SCT_CHECK_OK(sc_renderer_render(whole, &f));
        SCT_CHECK_OK(sc_renderer_read_hits(whole, want));
        SCT_CUDA(cudaMemcpy(want_img, d_whole, n * 4, cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemset(d_group, 0xA5, pitch * c->height));
        f.rgba = d_group;
        f.rgba_pitch = pitch;
        SCT_CHECK_OK(sc_renderer_group_render(g, &f));
        SCT_CUDA(cudaStreamSynchronize(sc_renderer_group_stream(g)));
        SCT_CUDA(cudaMemcpy2D(got_img, 4 * (size_t)c->width, d_group, pitch, 4 * (size_t)c->width, c->height,
                              cudaMemcpyDeviceToHost));
        SCT_CHECK_OK(sc_renderer_group_read_hits(g, got));
        hits += compare(c, frame, want, got, want_img, got_img, n);
    }
    SCT_CHECK_MSG(hits > 0, "%s: no pixel hit: the case tests nothing", c->what);
    sc_group_stats st;
    SCT_CHECK_OK(sc_renderer_group_stats(g, &st));
    SCT_CHECK(st.shares == c->shares && st.triangles == m->triangle_count);
    SCT_CHECK(st.frame_ms >= 0.0 && st.composite_ms >= 0.0);
    const int remote = c->flags || c->two_devices;
    SCT_CHECK((st.bytes_moved > 0) == (remote && c->shares > 1));
    sc_renderer_group_destroy(g);
    sc_renderer_destroy(whole);
    cudaFree(d_whole);
    cudaFree(d_group);
    free(want);
    free(got);
    free(want_img);
    free(got_img);
}

static void test_groups_knot(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(37, &m) == SC_OK); /* 5476 triangles */
    const sc_mesh_data md = sc_mesh_view(&m);
    const group_case cases[] = {
        {"knot, 1 share", 203, 151, 1, 0, 0, 0, SC_VIEW_SHADED, 0, 0},
        {"knot, 2 shares", 203, 151, 2, 0, 0, 0, SC_VIEW_SHADED, 0, 0},
        {"knot, 3 shares", 203, 151, 3, 0, 0, 0, SC_VIEW_SHADED, 0, 0},
        {"knot, 2 shares, copies", 203, 151, 2, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_SHADED, 0, 0},
        {"knot, 3 shares, copies, flat, culling", 97, 160, 3, SC_GROUP_COPY_ALWAYS, 1, 1, SC_VIEW_SHADED, 0, 0},
        {"knot, 3 shares, id view", 160, 97, 3, 0, 0, 0, SC_VIEW_TRIANGLE_ID, 0, 0},
        {"knot, 2 shares, copies, normals view", 131, 67, 2, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_NORMALS, 0, 0},
        {"knot, 3 shares, reference capacity 1", 203, 151, 3, 0, 0, 0, SC_VIEW_SHADED, 1, 0},
        {"knot, 2 shares, copies, reference capacity 1", 1, 333, 2, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_SHADED, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_group(&md, &cases[i]);
    sc_mesh_free(&m);
    /* Two triangles in five shares: three shares are empty. */
    static const float pos[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    const sc_mesh_data quad = {pos, 4, idx, 2};
    const group_case qc = {"quad, 5 shares (3 empty), copies", 61, 47, 5, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_SHADED, 0, 0};
    check_group(&quad, &qc);
}

/* Shares over two devices (peer copies); skipped on a machine with one. */
static void test_groups_two_devices(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(37, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    const group_case cases[] = {
        {"knot, 2 shares, two devices", 203, 151, 2, 0, 0, 0, SC_VIEW_SHADED, 0, 1},
        {"knot, 3 shares, two devices, id view", 160, 97, 3, 0, 0, 0, SC_VIEW_TRIANGLE_ID, 0, 1},
        {"knot, 4 shares, two devices, copies, capacity 1", 97, 160, 4, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_SHADED, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_group(&md, &cases[i]);
    sc_mesh_free(&m);
}

/* The device composite by hand: two halo shares' keys composited on the device equal their host
 * composite and one renderer's hits; the winners' hits with the owners' u, v equal its hits. */
static void test_device_composite(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(29, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    const group_case c = {"device composite", 173, 131, 2, 0, 0, 0, SC_VIEW_SHADED, 0, 0};
    const size_t n = (size_t)c.width * c.height;
    sc_renderer_desc rd = renderer_desc(&c);
    sc_renderer *whole = NULL, *r[2] = {NULL, NULL};
    SCT_REQUIRE_OK(sc_renderer_create(&rd, &whole));
    SCT_CHECK_OK(sc_renderer_set_mesh(whole, &md));
    sc_mesh_share sh[2];
    for (int k = 0; k < 2; ++k) {
        SCT_REQUIRE_OK(sc_renderer_create(&rd, &r[k]));
        SCT_REQUIRE_OK(sc_mesh_share_make_halo(&md, 2, (uint32_t)k, &sh[k]));
        SCT_CHECK_OK(sc_renderer_set_mesh_share(r[k], &sh[k].mesh, &sh[k].share));
    }
    uint64_t *d_keys[2] = {NULL, NULL};
    sc_hit *d_hits = NULL;
    for (int k = 0; k < 2; ++k) SCT_CUDA_REQUIRE(cudaMalloc((void **)&d_keys[k], n * sizeof(uint64_t)));
    SCT_CUDA_REQUIRE(cudaMalloc((void **)&d_hits, n * sizeof(sc_hit)));
    uint64_t *k0 = (uint64_t *)malloc(n * 8), *k1 = (uint64_t *)malloc(n * 8), *kd = (uint64_t *)malloc(n * 8);
    sc_hit *want = (sc_hit *)malloc(n * sizeof(sc_hit)), *got = (sc_hit *)malloc(n * sizeof(sc_hit));
    SCT_REQUIRE(k0 && k1 && kd && want && got);
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = 0.3f;
    /* Before a frame: refused. */
    SCT_CHECK(sc_renderer_hit_keys(r[0], d_keys[0]) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_OK(sc_renderer_render(whole, &f));
    SCT_CHECK_OK(sc_renderer_read_hits(whole, want));
    for (int k = 0; k < 2; ++k) {
        SCT_CHECK_OK(sc_renderer_render(r[k], &f));
        SCT_CHECK_OK(sc_renderer_hit_keys(r[k], d_keys[k]));
    }
    SCT_CUDA(cudaDeviceSynchronize());
    SCT_CUDA(cudaMemcpy(k0, d_keys[0], n * 8, cudaMemcpyDeviceToHost));
    SCT_CUDA(cudaMemcpy(k1, d_keys[1], n * 8, cudaMemcpyDeviceToHost));
    SCT_CHECK_OK(sc_hit_keys_composite_device(d_keys[0], d_keys[1], n, NULL));
    SCT_CHECK_OK(sc_hits_from_keys_device(d_hits, d_keys[0], n, NULL));
    SCT_CUDA(cudaDeviceSynchronize());
    for (int k = 0; k < 2; ++k) SCT_CHECK_OK(sc_renderer_resolve_keys(r[k], d_keys[0], d_hits));
    SCT_CUDA(cudaDeviceSynchronize());
    SCT_CUDA(cudaMemcpy(kd, d_keys[0], n * 8, cudaMemcpyDeviceToHost));
    SCT_CUDA(cudaMemcpy(got, d_hits, n * sizeof(sc_hit), cudaMemcpyDeviceToHost));
    SCT_CHECK_OK(sc_hit_keys_composite(k0, k1, n));
    uint64_t wrong_keys = 0, wrong_hits = 0, hit = 0;
    for (size_t i = 0; i < n; ++i) {
        hit += want[i].tri != SC_NO_HIT;
        if (kd[i] != k0[i] || kd[i] != sc_hit_key(want[i].tri, want[i].depth)) ++wrong_keys;
        if (memcmp(&got[i], &want[i], sizeof want[i])) ++wrong_hits;
    }
    SCT_CHECK_EQ_U64(wrong_keys, 0);
    SCT_CHECK_EQ_U64(wrong_hits, 0);
    SCT_CHECK(hit > 0);
    /* Views the owners cannot shade alone. */
    uint8_t *d_img = NULL;
    SCT_CUDA_REQUIRE(cudaMalloc((void **)&d_img, n * 4));
    sc_shading_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.mode = SC_VIEW_TILE_HEAT;
    SCT_CHECK_OK(sc_renderer_set_shading(r[0], &sd));
    SCT_CHECK(sc_renderer_shade_keys(r[0], d_keys[0], d_img, 0, 1) == SC_ERROR_UNSUPPORTED);
    sd.mode = SC_VIEW_SHADED;
    SCT_CHECK_OK(sc_renderer_set_shading(r[0], &sd));
    SCT_CHECK(sc_renderer_shade_keys(r[0], d_keys[0], d_img, 4 * (size_t)c.width - 1, 1) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK_OK(sc_renderer_shade_keys(r[0], d_keys[0], d_img, 0, 1));
    SCT_CUDA(cudaDeviceSynchronize());
    cudaFree(d_img);
    for (int k = 0; k < 2; ++k) {
        sc_renderer_destroy(r[k]);
        sc_mesh_share_free(&sh[k]);
        cudaFree(d_keys[k]);
    }
    sc_renderer_destroy(whole);
    cudaFree(d_hits);
    free(k0);
    free(k1);
    free(kd);
    free(want);
    free(got);
    sc_mesh_free(&m);
}

/* A small group through every path (in place and copied, capacity 1: the grow path), the case
 * gpu-test.sh --sanitize runs under compute-sanitizer's memcheck and racecheck. */
static void test_sanitize_mid(void)
{
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(16, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    const group_case cases[] = {
        {"sanitize: 3 shares, copies, capacity 1", 67, 45, 3, SC_GROUP_COPY_ALWAYS, 0, 0, SC_VIEW_SHADED, 1, 0},
        {"sanitize: 2 shares in place", 45, 67, 2, 0, 0, 0, SC_VIEW_NORMALS, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) check_group(&md, &cases[i]);
    sc_mesh_free(&m);
}

/* The group's checks. */
static void test_group_checks(void)
{
    sc_group_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.renderer.width = 32;
    gd.renderer.height = 24;
    sc_renderer_group *g = NULL;
    gd.shares = SC_GROUP_MAX_SHARES + 1;
    SCT_CHECK(sc_renderer_group_create(&gd, &g) == SC_ERROR_INVALID_ARGUMENT);
    gd.shares = 2;
    const int bad[] = {0, 999};
    gd.devices = bad;
    gd.device_count = 2;
    SCT_CHECK(sc_renderer_group_create(&gd, &g) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "devices[1]") != NULL);
    gd.devices = NULL;
    gd.device_count = 0;
    gd.flags = 0x80;
    SCT_CHECK(sc_renderer_group_create(&gd, &g) == SC_ERROR_INVALID_ARGUMENT);
    gd.flags = 0;
    SCT_REQUIRE_OK(sc_renderer_group_create(&gd, &g));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    SCT_CHECK(sc_renderer_group_render(g, &f) == SC_ERROR_INVALID_ARGUMENT); /* no mesh */
    sc_group_stats st;
    SCT_CHECK(sc_renderer_group_stats(g, &st) == SC_ERROR_INVALID_ARGUMENT);
    int device = -1;
    SCT_CHECK(sc_renderer_group_share(g, 1, &device) != NULL && device >= 0);
    SCT_CHECK(sc_renderer_group_share(g, 2, NULL) == NULL);
    sc_renderer_group_destroy(g);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_group_gpu");
    sct_require_cuda();
    SCT_RUN(test_device_composite);
    SCT_RUN(test_group_checks);
    SCT_RUN(test_groups_knot);
    SCT_RUN(test_groups_two_devices);
    SCT_RUN(test_sanitize_mid);
    return sct_end();
}
