/* test_render_gpu.cu - the CUDA backend against the CPU backend (the reference), pixel by pixel.
 *
 * Deformation is not bit-identical across backends (sinf, cosf), so each case renders on the GPU,
 * checks its deformed positions against the CPU backend's deformation (tolerance), and renders the
 * CPU backend with the GPU's positions (sc_frame_desc.positions): from there on both must agree
 * exactly: triangle id, depth (1e-5 relative allowed), barycentrics, and the counters that are
 * defined the same way (visible triangles, references, ray-triangle tests, tiles exited early, hit
 * pixels, depth range). A pixel may differ only where two triangles tie within the depth
 * tolerance, verified by intersecting both on the host; such pixels are counted and reported.
 * Images are compared per channel (at most one level apart, from transcendental functions).
 * SC_GPU_TIMING=1 adds a timing table (median stage times over 200 frames). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

extern "C" {
#include "intersect.h"
#include "sc_render_testing.h"
}
#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_models.h"
#include "sctest_cuda.h"
#include "slabcast.h"

static long g_ties = 0;

struct scene {
    const sc_mesh *mesh;
    uint32_t w, h, tile, slabs;
    int cull, flat;
    const sc_camera_desc *camera; /* NULL: the default view */
    sc_deform_desc deform;
    float time;
    size_t initial_ref_capacity;
    sc_view_mode mode;
};

static scene make_scene(const sc_mesh *m, uint32_t w, uint32_t h)
{
    scene s;
    memset(&s, 0, sizeof s);
    s.mesh = m;
    s.w = w;
    s.h = h;
    s.tile = 8;
    s.slabs = 16;
    return s;
}

static sc_renderer *create(const scene &s, sc_backend backend)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = s.w;
    d.height = s.h;
    d.tile_size = s.tile;
    d.num_slabs = s.slabs;
    d.cull_back_faces = s.cull;
    d.flat_shading = s.flat;
    d.initial_ref_capacity = s.initial_ref_capacity;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "create (%s): %s", backend == SC_BACKEND_CUDA ? "cuda" : "cpu", sc_last_error());
        return NULL;
    }
    sc_mesh_data md = sc_mesh_view(s.mesh);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    if (s.camera) SCT_CHECK_OK(sc_renderer_set_camera(r, s.camera));
    SCT_CHECK_OK(sc_renderer_set_deform(r, &s.deform));
    sc_shading_desc sh;
    memset(&sh, 0, sizeof sh);
    sh.mode = s.mode;
    SCT_CHECK_OK(sc_renderer_set_shading(r, &sh));
    return r;
}

/* Is pixel i a true tie between triangles a and b (both hit within 1e-5 relative depth)? */
static int is_tie(const sc_renderer *r, const float *pos, const uint32_t *idx, size_t i, uint32_t a, uint32_t b)
{
    if (a == SC_NO_HIT || b == SC_NO_HIT) return 0;
    sc_frame_params params;
    sc_renderer_testing_frame_params(r, &params);
    const sc_frame_params *p = &params;
    float dir[3];
    sc_pixel_ray_dir(p, (uint32_t)(i % p->width), (uint32_t)(i / p->width), dir);
    sc_ray ray;
    sc_ray_setup(&ray, p->eye, dir);
    float t[2], u, v;
    uint32_t tri[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        const uint32_t *f = idx + 3 * (size_t)tri[k];
        if (!sc_intersect(&ray, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], p->near_plane,
                          p->far_plane, &t[k], &u, &v))
            return 0;
    }
    return fabsf(t[0] - t[1]) <= 1e-5f * fmaxf(fabsf(t[0]), fabsf(t[1]));
}

/* Renders the scene on both backends and compares. Returns pixel mismatches (ties excluded). A GPU
 * frame whose references overflowed the buffer (rendered by the device's fallback passes) is
 * compared too, then rendered once more (the buffer has grown) and that frame compared, unless
 * fallback_only: then only the fallback frame is compared. */
static long compare_frame(const scene &s, const char *what, int render_twice, sc_frame_stats *gpu_stats);

static long compare(const scene &s, const char *what, sc_frame_stats *gpu_stats = NULL, bool fallback_only = false)
{
    sc_frame_stats st;
    long bad = compare_frame(s, what, 0, &st);
    if (bad >= 0 && st.overflow_passes > 0 && !fallback_only) {
        char again[160];
        snprintf(again, sizeof again, "%s (after the grow)", what);
        bad = compare_frame(s, again, 1, &st);
        SCT_CHECK_MSG(st.overflow_passes == 0 && st.capacity_grows == 1, "%s: passes %u grows %u", again,
                      st.overflow_passes, st.capacity_grows);
    }
    if (gpu_stats) *gpu_stats = st;
    return bad;
}

/* One comparison; render_twice: the GPU renders the frame twice and the second is compared. */
static long compare_frame(const scene &s, const char *what, int render_twice, sc_frame_stats *gpu_stats)
{
    const size_t npix = (size_t)s.w * s.h;
    const size_t nv = s.mesh->vertex_count;
    sc_renderer *g = create(s, SC_BACKEND_CUDA);
    sc_renderer *c = create(s, SC_BACKEND_CPU);
    if (!g || !c) {
        sc_renderer_destroy(g);
        sc_renderer_destroy(c);
        return -1;
    }
    void *d_rgba = NULL;
    SCT_CUDA(cudaMalloc(&d_rgba, npix * 4));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = s.time;
    f.rgba = d_rgba;
    long bad = 0;
    std::vector<sc_hit> gh(npix), ch(npix);
    std::vector<float> gpos(3 * nv + 1), cpos(3 * nv + 1);
    std::vector<uint8_t> gimg(npix * 4), cimg(npix * 4);
    sc_frame_stats gs, cs;
    for (int k = 0; k <= render_twice; ++k) {
        if (sc_renderer_render(g, &f) != SC_OK) {
            sct_fail(__FILE__, __LINE__, "%s: GPU render: %s", what, sc_last_error());
            bad = -1;
            goto done;
        }
        if (k < render_twice) SCT_CHECK_OK(sc_renderer_stats(g, &gs)); /* the host sees the overflow: grows */
    }
    SCT_CHECK_OK(sc_renderer_read_hits(g, gh.data()));
    SCT_CHECK_OK(sc_renderer_read_positions(g, gpos.data()));
    SCT_CHECK_OK(sc_renderer_stats(g, &gs));
    SCT_CUDA(cudaMemcpy(gimg.data(), d_rgba, npix * 4, cudaMemcpyDeviceToHost));
    {
        /* The CPU's own deformation, compared with the GPU's positions. */
        sc_frame_desc cf;
        memset(&cf, 0, sizeof cf);
        cf.time = s.time;
        SCT_CHECK_OK(sc_renderer_render(c, &cf));
        SCT_CHECK_OK(sc_renderer_read_positions(c, cpos.data()));
        /* Bit for bit (render/core/deform.h: the same float operations on both backends). */
        size_t differ = 0, first = 0;
        for (size_t k = 0; k < 3 * nv; ++k)
            if (memcmp(&cpos[k], &gpos[k], sizeof(float)) != 0 && differ++ == 0) first = k;
        SCT_CHECK_MSG(differ == 0, "%s: %zu deformed coordinates differ between the backends; the first: vertex %zu "
                      "coordinate %zu, cpu %.9g, cuda %.9g", what, differ, first / 3, first % 3,
                      differ ? (double)cpos[first] : 0.0, differ ? (double)gpos[first] : 0.0);
        /* The CPU with the GPU's positions. */
        cf.positions = gpos.data();
        cf.rgba = cimg.data();
        SCT_CHECK_OK(sc_renderer_render(c, &cf));
        SCT_CHECK_OK(sc_renderer_read_hits(c, ch.data()));
        SCT_CHECK_OK(sc_renderer_stats(c, &cs));
    }
    {
        long ties = 0;
        for (size_t i = 0; i < npix; ++i) {
            const sc_hit &a = gh[i], &b = ch[i];
            int ok = a.tri == b.tri;
            if (ok && a.tri != SC_NO_HIT)
                ok = fabsf(a.depth - b.depth) <= 1e-5f * fabsf(b.depth) && fabsf(a.u - b.u) <= 1e-5f &&
                     fabsf(a.v - b.v) <= 1e-5f;
            if (ok) continue;
            if (a.tri != b.tri && is_tie(c, gpos.data(), s.mesh->indices, i, a.tri, b.tri)) {
                ++ties;
                continue;
            }
            if (bad < 5)
                sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu): GPU tri %u depth %.9g, CPU tri %u depth %.9g", what,
                         i % s.w, i / s.w, a.tri, (double)a.depth, b.tri, (double)b.depth);
            ++bad;
        }
        g_ties += ties;
        if (bad) sct_fail(__FILE__, __LINE__, "%s: %ld of %zu pixels differ (%ld ties)", what, bad, npix, ties);
        if (ties) printf("  %s: %ld tie pixels (verified on the host)\n", what, ties);
    }
    SCT_CHECK_EQ_U64(gs.visible_triangles, cs.visible_triangles);
    SCT_CHECK_EQ_U64(gs.references, cs.references);
    if (gs.overflow_passes == 0) { /* the overflow fallback counts tests without slabs */
        SCT_CHECK_EQ_U64(gs.ray_triangle_tests, cs.ray_triangle_tests);
        SCT_CHECK_EQ_U64(gs.tiles_exited_early, cs.tiles_exited_early);
    } else {
        SCT_CHECK_MSG(gs.ray_triangle_tests >= cs.ray_triangle_tests, "%s: fallback tests %llu < slab tests %llu", what,
                      (unsigned long long)gs.ray_triangle_tests, (unsigned long long)cs.ray_triangle_tests);
        SCT_CHECK_EQ_U64(gs.tiles_exited_early, 0);
    }
    SCT_CHECK_EQ_U64(gs.hit_pixels, cs.hit_pixels);
    SCT_CHECK_EQ_U64(gs.tiles, cs.tiles);
    /* The tests run: at most the counter, at least one a hit pixel (its winner), on both backends; the
     * overflow fallback runs every one it counts. */
    for (int b = 0; b < 2; ++b) {
        const sc_frame_stats *s = b ? &cs : &gs;
        SCT_CHECK_MSG(s->hit_pixels <= s->ray_tests_performed && s->ray_tests_performed <= s->ray_triangle_tests,
                      "%s (%s): tests run %llu, hit pixels %llu, counter %llu", what, b ? "cpu" : "cuda",
                      (unsigned long long)s->ray_tests_performed, (unsigned long long)s->hit_pixels,
                      (unsigned long long)s->ray_triangle_tests);
    }
    if (gs.overflow_passes) SCT_CHECK_EQ_U64(gs.ray_tests_performed, gs.ray_triangle_tests);
    SCT_CHECK_MSG(gs.depth_min == cs.depth_min && gs.depth_max == cs.depth_max, "%s: depth range %g..%g vs %g..%g", what,
                  (double)gs.depth_min, (double)gs.depth_max, (double)cs.depth_min, (double)cs.depth_max);
    {
        long off1 = 0, off_more = 0;
        /* The fallback's per-pixel tests (no slabs) are not the slab ray cast's. */
        const bool heat_differs = gs.overflow_passes > 0 && s.mode == SC_VIEW_TESTS_HEAT;
        for (size_t i = 0; i < npix * 4 && !heat_differs; ++i) {
            int d = abs((int)gimg[i] - (int)cimg[i]);
            off1 += d == 1;
            off_more += d > 1;
        }
        SCT_CHECK_MSG(off_more == 0, "%s: %ld image channels differ by more than one level (%ld by one)", what, off_more,
                      off1);
        if (off1) printf("  %s: %ld image channels one level apart\n", what, off1);
    }
    if (gpu_stats) *gpu_stats = gs;
done:
    cudaFree(d_rgba);
    sc_renderer_destroy(g);
    sc_renderer_destroy(c);
    return bad;
}

static sc_camera_desc cam(float ex, float ey, float ez, float tx, float ty, float tz, float nearp = 0.0f,
                          float farp = 0.0f)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.eye[0] = ex; c.eye[1] = ey; c.eye[2] = ez;
    c.target[0] = tx; c.target[1] = ty; c.target[2] = tz;
    c.near_plane = nearp;
    c.far_plane = farp;
    return c;
}

/* A mesh from triangle corner lists. */
static void mesh_from(sc_mesh *m, const std::vector<float> &corners)
{
    memset(m, 0, sizeof *m);
    uint32_t nt = (uint32_t)(corners.size() / 9);
    m->vertex_count = 3 * nt;
    m->triangle_count = nt;
    m->positions = (float *)malloc(sizeof(float) * corners.size() + 1);
    m->indices = (uint32_t *)malloc(sizeof(uint32_t) * 3 * nt + 1);
    if (!corners.empty()) memcpy(m->positions, corners.data(), sizeof(float) * corners.size());
    for (uint32_t i = 0; i < 3 * nt; ++i) m->indices[i] = i;
}

static sc_deform_desc deformer(int which)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    if (which == 1 || which == 6) d.twist.amount = 1.2f;
    if (which == 2 || which == 6) d.bend.amount = 0.8f;
    if (which == 3 || which == 6) d.wave.amount = 0.05f;
    if (which == 4 || which == 6) d.pulse.amount = 0.03f;
    if (which == 5 || which == 6) { d.noise.amount = 0.03f; d.noise.seed = 7; }
    return d;
}

static void test_default_mesh_deformers(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(96, &m));
    const float *v0 = m.positions + 3 * 1000;
    sc_camera_desc cams[8] = {
        cam(0, 0, 3.2f, 0, 0, 0), cam(3, 0.5f, 0, 0, 0, 0), cam(-2, 2, -2, 0, 0, 0), cam(0, 3, 0.1f, 0, 0, 0),
        cam(0.3f, -0.2f, 1.6f, 0, 0, 0),
        cam(1.0f, 0.0f, 0.0f, 0.99f, 0.19f, -0.1f, 0.001f, 10.0f), /* inside the tube */
        cam(v0[0] * 1.03f, v0[1] * 1.03f, v0[2] * 1.03f + 0.02f, v0[0], v0[1], v0[2], 0.001f, 10.0f), /* very close */
        cam(0, 0, 0.05f, 0, 0, -1, 0.001f, 10.0f)};                                                /* centre */
    for (int d = 0; d <= 6; ++d)
        for (int k = 0; k < 8; ++k) {
            scene s = make_scene(&m, 256, 192);
            s.camera = &cams[k];
            s.deform = deformer(d);
            s.time = 0.37f + 0.1f * (float)k;
            s.cull = k & 1;
            char what[96];
            snprintf(what, sizeof what, "knot96 deformer %d camera %d", d, k);
            compare(s, what);
        }
    sc_mesh_free(&m);
}

static void test_default_mesh_1m_1024(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(0, &m));
    scene s = make_scene(&m, 1024, 1024);
    s.deform = deformer(1);
    s.deform.wave.amount = 0.05f;
    s.time = 0.7f;
    sc_frame_stats st;
    if (compare(s, "knot 1M 1024x1024 twist+wave", &st) == 0)
        printf("  1M knot: visible %llu, references %llu, tests %llu, exited %llu, hits %llu\n",
               (unsigned long long)st.visible_triangles, (unsigned long long)st.references,
               (unsigned long long)st.ray_triangle_tests, (unsigned long long)st.tiles_exited_early,
               (unsigned long long)st.hit_pixels);
    sc_mesh_free(&m);
}

static void test_one_triangle(void)
{
    sc_mesh m;
    mesh_from(&m, {-0.5f, -0.4f, 0, 0.6f, -0.3f, 0.1f, 0.0f, 0.5f, -0.2f});
    sc_camera_desc c = cam(0, 0, 2, 0, 0, 0);
    scene s = make_scene(&m, 64, 48);
    s.camera = &c;
    compare(s, "one triangle");
    s.cull = 1;
    compare(s, "one triangle culled side");
    sc_mesh_free(&m);
}

static void test_empty_mesh(void)
{
    sc_mesh m;
    mesh_from(&m, {});
    scene s = make_scene(&m, 40, 30);
    sc_frame_stats st;
    compare(s, "empty mesh", &st);
    SCT_CHECK_EQ_U64(st.hit_pixels, 0);
    SCT_CHECK_EQ_U64(st.references, 0);
    sc_mesh_free(&m);
}

static void test_close_up_triangle(void)
{
    sc_mesh m;
    mesh_from(&m, {-3, -3, 0, 3, -3, 0, 0, 3, 0, -0.2f, -0.1f, 0.3f, 0.3f, -0.2f, 0.2f, 0.1f, 0.4f, 0.25f});
    sc_camera_desc c = cam(0.1f, 0.05f, 0.5f, 0, 0, 0, 0.01f, 10.0f);
    scene s = make_scene(&m, 320, 240);
    s.camera = &c;
    sc_frame_stats st;
    compare(s, "close-up triangle", &st);
    SCT_CHECK_MSG(st.references > 100, "close-up: only %llu references", (unsigned long long)st.references);
    sc_mesh_free(&m);
}

static void test_long_thin_triangles(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() + 11);
    std::vector<float> v;
    for (int i = 0; i < 300; ++i) {
        float x0 = (float)sct_rng_unit(&rng) * 4 - 2, y0 = (float)sct_rng_unit(&rng) * 4 - 2;
        float z0 = -(float)sct_rng_unit(&rng) * 2 - 0.5f, z1 = -(float)sct_rng_unit(&rng) * 30 - 3;
        float w = 0.002f + 0.02f * (float)sct_rng_unit(&rng);
        float x1 = x0 + (float)sct_rng_unit(&rng) * 6 - 3, y1 = y0 + (float)sct_rng_unit(&rng) * 6 - 3;
        float tri[9] = {x0, y0, z0, x0 + w, y0 + w, z0, x1, y1, z1};
        v.insert(v.end(), tri, tri + 9);
    }
    sc_mesh m;
    mesh_from(&m, v);
    sc_camera_desc c = cam(0, 0, 1, 0, 0, -1, 0.1f, 100.0f);
    for (uint32_t slabs : {1u, 16u, 32u}) {
        scene s = make_scene(&m, 300, 200);
        s.camera = &c;
        s.slabs = slabs;
        char what[64];
        snprintf(what, sizeof what, "long thin, %u slabs", slabs);
        compare(s, what);
    }
    sc_mesh_free(&m);
}

static void test_resolutions_tiles_slabs(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(40, &m));
    const uint32_t sizes[4][2] = {{1, 1}, {8, 8}, {1000, 777}, {1920, 1080}};
    for (int i = 0; i < 4; ++i)
        for (uint32_t tile : {8u, 16u})
            for (uint32_t slabs : {1u, 16u, 32u}) {
                scene s = make_scene(&m, sizes[i][0], sizes[i][1]);
                s.tile = tile;
                s.slabs = slabs;
                s.deform = deformer(3);
                s.time = 0.2f;
                char what[96];
                snprintf(what, sizeof what, "knot40 %ux%u tile %u slabs %u", s.w, s.h, tile, slabs);
                compare(s, what);
            }
    /* Other tile sizes: 1, odd, the maximum. */
    for (uint32_t tile : {1u, 5u, 32u}) {
        scene s = make_scene(&m, 97, 61);
        s.tile = tile;
        char what[64];
        snprintf(what, sizeof what, "knot40 97x61 tile %u", tile);
        compare(s, what);
    }
    sc_mesh_free(&m);
}

static void test_view_modes(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(32, &m));
    for (int flat = 0; flat < 2; ++flat)
        for (int mode = 0; mode < SC_VIEW_MODE_COUNT; ++mode) {
            scene s = make_scene(&m, 160, 120);
            s.flat = flat;
            s.mode = (sc_view_mode)mode;
            s.deform = deformer(6);
            s.time = 1.1f;
            char what[64];
            snprintf(what, sizeof what, "view mode %d flat %d", mode, flat);
            compare(s, what);
        }
    sc_mesh_free(&m);
}

/* A frame whose references overflow the buffer is rendered exactly on the device in passes (no host
 * round trip), and the buffer grows before the next frame, which then takes the slab path. */
static void test_capacity_overflow(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(48, &m));
    scene s = make_scene(&m, 300, 200);
    s.initial_ref_capacity = 16; /* raised to the triangle count: the fallback needs one tile's worth */
    s.deform = deformer(1);
    s.time = 0.7f;
    sc_frame_stats st;
    compare(s, "capacity overflow (device passes)", &st, true);
    SCT_CHECK_MSG(st.overflow_passes >= 2, "overflow_passes = %u", st.overflow_passes);
    SCT_CHECK_MSG(st.capacity_grows == 0, "capacity_grows = %u", st.capacity_grows);

    /* The same renderer: frame 1 overflows, frame 2 grows first and fits; same image and hits. */
    sc_renderer *g = create(s, SC_BACKEND_CUDA);
    if (g) {
        const size_t npix = (size_t)s.w * s.h;
        std::vector<sc_hit> h1(npix), h2(npix);
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = s.time;
        sc_frame_stats a, b;
        SCT_CHECK_OK(sc_renderer_render(g, &f));
        SCT_CHECK_OK(sc_renderer_stats(g, &a));
        SCT_CHECK_OK(sc_renderer_read_hits(g, h1.data()));
        SCT_CHECK_OK(sc_renderer_render(g, &f));
        SCT_CHECK_OK(sc_renderer_stats(g, &b));
        SCT_CHECK_OK(sc_renderer_read_hits(g, h2.data()));
        SCT_CHECK(a.overflow_passes >= 2 && a.capacity_grows == 0);
        SCT_CHECK_MSG(b.overflow_passes == 0 && b.capacity_grows == 1, "frame 2: passes %u grows %u",
                      b.overflow_passes, b.capacity_grows);
        SCT_CHECK_EQ_U64(a.references, b.references);
        SCT_CHECK_EQ_U64(a.hit_pixels, b.hit_pixels);
        long diff = 0;
        for (size_t i = 0; i < npix; ++i)
            diff += h1[i].tri != h2[i].tri || memcmp(&h1[i], &h2[i], sizeof(sc_hit)) != 0;
        SCT_CHECK_MSG(diff == 0, "%ld pixels differ between the fallback frame and the slab frame", diff);
        sc_renderer_destroy(g);
    }
    sc_mesh_free(&m);
}

/* Many passes: a few large triangles around a camera inside the mesh, far more references than
 * triangles (the buffer holds the triangle count). */
static void test_overflow_many_passes(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(8, &m));
    const sc_camera_desc inside = cam(1.0f, 0.0f, 0.0f, 0.99f, 0.19f, -0.1f, 0.001f, 10.0f); /* inside the tube */
    scene s = make_scene(&m, 333, 257);
    s.camera = &inside;
    s.initial_ref_capacity = 1;
    s.tile = 5;
    sc_frame_stats st;
    compare(s, "overflow, many passes", &st, true);
    printf("  many passes: %u passes, %llu references, %u triangles\n", st.overflow_passes,
           (unsigned long long)st.references, m.triangle_count);
    SCT_CHECK_MSG(st.overflow_passes >= 8, "overflow_passes = %u (refs %llu, triangles %u)", st.overflow_passes,
                  (unsigned long long)st.references, m.triangle_count);
    sc_mesh_free(&m);
}

/* Stage times on (sc_render_options.stage_times), the other options as they are. */
static void time_stages(sc_renderer *r)
{
    sc_render_options o;
    SCT_CHECK_OK(sc_renderer_get_options(r, &o));
    o.stage_times = 1;
    SCT_CHECK_OK(sc_renderer_set_options(r, &o));
}

/* Frames enqueued back to back (more than the frames in flight, no wait between them) give the same
 * images as frames waited for one by one; the first renderer's frames timed stage by stage, the
 * second's not (the frame graph with and without its stage events). */
static void test_pipelined_frames(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(40, &m));
    scene s = make_scene(&m, 256, 200);
    s.deform = deformer(6);
    sc_renderer *a = create(s, SC_BACKEND_CUDA), *b = create(s, SC_BACKEND_CUDA);
    enum { N = 7 };
    const size_t bytes = (size_t)s.w * s.h * 4;
    uint8_t *d_img = NULL;
    SCT_CUDA(cudaMalloc(&d_img, 2 * N * bytes));
    if (a && b && d_img) {
        time_stages(a);
        for (int i = 0; i < N; ++i) {
            sc_frame_desc f;
            memset(&f, 0, sizeof f);
            f.time = 0.13f * (float)i;
            f.rgba = d_img + i * bytes;
            SCT_CHECK_OK(sc_renderer_render(a, &f));
        }
        sc_frame_stats sa, sb;
        SCT_CHECK_OK(sc_renderer_stats(a, &sa));
        for (int i = 0; i < N; ++i) {
            sc_frame_desc f;
            memset(&f, 0, sizeof f);
            f.time = 0.13f * (float)i;
            f.rgba = d_img + (N + i) * bytes;
            SCT_CHECK_OK(sc_renderer_render(b, &f));
            SCT_CHECK_OK(sc_renderer_stats(b, &sb));
        }
        std::vector<uint8_t> ha(N * bytes), hb(N * bytes);
        SCT_CUDA(cudaMemcpy(ha.data(), d_img, N * bytes, cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(hb.data(), d_img + N * bytes, N * bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; ++i)
            SCT_CHECK_MSG(memcmp(ha.data() + i * bytes, hb.data() + i * bytes, bytes) == 0,
                          "frame %d: pipelined image differs", i);
        SCT_CHECK_EQ_U64(sa.references, sb.references);
        SCT_CHECK_EQ_U64(sa.ray_triangle_tests, sb.ray_triangle_tests);
        SCT_CHECK(sa.frame_ms > 0.0 && sa.stage_ms[SC_STAGE_RAYCAST] > 0.0);
    }
    cudaFree(d_img);
    sc_renderer_destroy(a);
    sc_renderer_destroy(b);
    sc_mesh_free(&m);
}

static int load_dragon(sc_mesh *m)
{
    char path[1024];
    if (!sct_model_path("stanford-dragon.obj.xz", path, sizeof path)) return 0;
    return sc_mesh_load(path, SC_MESH_FORMAT_AUTO, m, NULL) == SC_OK;
}

static void test_dragon(void)
{
    sc_mesh m;
    if (!load_dragon(&m)) {
        sct_skip("stanford-dragon.obj.xz not found (set SLABCAST_MODELS)");
        return;
    }
    scene s = make_scene(&m, 640, 640);
    s.deform = deformer(1);
    s.deform.wave.amount = 0.05f;
    s.time = 0.3f;
    compare(s, "dragon 640x640 twist+wave");
    sc_mesh_free(&m);
}

static void test_sanitize_mid(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(24, &m));
    scene s = make_scene(&m, 120, 90);
    s.deform = deformer(6);
    s.time = 0.5f;
    s.initial_ref_capacity = 64; /* the overflow fallback too */
    compare(s, "sanitize_mid");
    sc_mesh_free(&m);
}

static void timing_one(const sc_mesh *m, const char *name)
{
    scene s = make_scene(m, 1024, 1024);
    s.deform = deformer(1);
    s.deform.wave.amount = 0.05f;
    sc_renderer *g = create(s, SC_BACKEND_CUDA);
    if (!g) return;
    time_stages(g);
    void *d_rgba = NULL;
    SCT_CUDA(cudaMalloc(&d_rgba, (size_t)1024 * 1024 * 4));
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.rgba = d_rgba;
    const int warm = 20, frames = 200;
    std::vector<double> st[SC_STAGE_COUNT + 1];
    sc_frame_stats fs;
    memset(&fs, 0, sizeof fs);
    for (int i = 0; i < warm + frames; ++i) {
        f.time = 0.01f * (float)i;
        if (sc_renderer_render(g, &f) != SC_OK) {
            sct_fail(__FILE__, __LINE__, "timing render: %s", sc_last_error());
            break;
        }
        SCT_CHECK_OK(sc_renderer_stats(g, &fs));
        if (i < warm) continue;
        double sum = 0;
        for (int k = 0; k < SC_STAGE_COUNT; ++k) {
            st[k].push_back(fs.stage_ms[k]);
            sum += fs.stage_ms[k];
        }
        st[SC_STAGE_COUNT].push_back(sum);
    }
    printf("  timing %s (%u triangles) 1024x1024, 16 slabs, twist+wave, median of %d frames (ms):\n", name,
           m->triangle_count, frames);
    for (int k = 0; k <= SC_STAGE_COUNT; ++k) {
        if (st[k].empty()) continue;
        std::sort(st[k].begin(), st[k].end());
        printf("    %-12s %8.4f\n", k < SC_STAGE_COUNT ? sc_stage_name((sc_stage)k) : "sum(gpu)", st[k][st[k].size() / 2]);
    }
    printf("    last frame: total_ms(host) %.3f, refs %llu, tests %llu, exited %llu\n", fs.total_ms,
           (unsigned long long)fs.references, (unsigned long long)fs.ray_triangle_tests,
           (unsigned long long)fs.tiles_exited_early);
    cudaFree(d_rgba);
    sc_renderer_destroy(g);
}

static void test_timing_table(void)
{
    if (!getenv("SC_GPU_TIMING")) {
        sct_skip("set SC_GPU_TIMING=1 for the timing table");
        return;
    }
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(0, &m));
    timing_one(&m, "knot");
    sc_mesh_free(&m);
    if (load_dragon(&m)) {
        timing_one(&m, "dragon");
        sc_mesh_free(&m);
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_gpu");
    sct_require_cuda();
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_one_triangle);
    SCT_RUN(test_empty_mesh);
    SCT_RUN(test_close_up_triangle);
    SCT_RUN(test_long_thin_triangles);
    SCT_RUN(test_capacity_overflow);
    SCT_RUN(test_overflow_many_passes);
    SCT_RUN(test_pipelined_frames);
    SCT_RUN(test_view_modes);
    SCT_RUN(test_resolutions_tiles_slabs);
    SCT_RUN(test_default_mesh_deformers);
    SCT_RUN(test_dragon);
    SCT_RUN(test_default_mesh_1m_1024);
    SCT_RUN(test_timing_table);
    printf("tie pixels in all: %ld\n", g_ties);
    return sct_end();
}
