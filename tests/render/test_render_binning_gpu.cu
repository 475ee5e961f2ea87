/* test_render_binning_gpu.cu - the radix-sort binning (sc_renderer_desc.binning =
 * SC_BINNING_RADIX_SORT) against the split binning on the CUDA backend (gpu). Two renderers that
 * differ only in the binning render the same frames and must give:
 *  - the same hits, bit for bit (triangle id, depth, barycentrics: the ray cast breaks equal depths
 *    by the lower id, so the order of references inside a cell cannot show);
 *  - the same pixels in the views that show the grid (tile heat: the tile offsets; tests heat: the
 *    per-pixel tests; slab) and the shaded one, and the same tile offsets (test-only buffers);
 *  - the same counters: visible triangles, references, ray-triangle tests, tiles exited early, hit
 *    pixels, overflow passes, capacity grows, depth range.
 * Scenes: the built-in knot at a few resolutions and awkward target sizes (333x211), tiles of 1, 8,
 * 16 and 32 pixels, 1 to 1024 slabs, deformed over several frames; a dense knot (sub-pixel
 * triangles); grids whose every cell key is in use, so that the sort's padding key is also a real
 * cell's key (power-of-two tiles and slabs, a backdrop reaching the last tile's last slab); a grid of
 * one cell (no key bits); frames with no reference (camera turned away, empty mesh); a reference
 * buffer too small for the first frame (the overflow fallback, then the grow, a new sort storage and
 * frame graph); frames in flight; and the same without CUDA graphs (SLABCAST_CUDA_GRAPHS=0). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "sc_render_testing.h"
#include "sctest.h"
#include "sctest_cuda.h"
#include "slabcast.h"

/* The camera of a case. */
enum bin_camera {
    CAM_DEFAULT = 0, /* the renderer's default view of the mesh */
    CAM_FRONT,       /* from (0, 0, 3) towards the origin: the backdrop fills the target */
    CAM_AWAY         /* from (0, 0, 3) away from the mesh: no triangle in view */
};

typedef struct bin_case {
    const char *name;
    uint32_t knot;               /* built-in mesh resolution (4 r^2 triangles); 0: no knot */
    int backdrop;                /* nonzero: a quad far behind the knot, wider than the view */
    uint32_t width, height, tile_size, num_slabs;
    bin_camera camera;
    float twist;                 /* deformation amounts (wave: 0.02 always) */
    size_t initial_ref_capacity; /* 0: automatic */
    uint32_t frames;
} bin_case;

/* Room for every frame's references: these cases bin every frame with the sort. */
static const size_t k_roomy = (size_t)1 << 21;

static const bin_case k_cases[] = {
    {"knot 96x72 t8 s16", 24, 0, 96, 72, 8, 16, CAM_DEFAULT, 0.5f, k_roomy, 6},
    {"knot 333x211 t8 s64", 64, 0, 333, 211, 8, 64, CAM_DEFAULT, 0.5f, k_roomy, 5},
    {"knot 333x211 t16 s1", 64, 0, 333, 211, 16, 1, CAM_DEFAULT, 0.5f, k_roomy, 5},
    {"knot 333x211 t16 s16", 24, 0, 333, 211, 16, 16, CAM_DEFAULT, 0.7f, k_roomy, 5},
    {"knot 333x211 t8 s1", 48, 0, 333, 211, 8, 1, CAM_DEFAULT, 0.3f, k_roomy, 4},
    {"knot 333x211 t32 s1024", 48, 0, 333, 211, 32, 1024, CAM_DEFAULT, 0.5f, k_roomy, 4},
    {"knot 40x30 t1 s64", 24, 0, 40, 30, 1, 64, CAM_DEFAULT, 0.5f, k_roomy, 4},
    {"knot 640x480 t8 s16 (automatic capacity)", 128, 0, 640, 480, 8, 16, CAM_DEFAULT, 0.5f, 0, 5},
    {"dense knot 160x120 t8 s16", 256, 0, 160, 120, 8, 16, CAM_DEFAULT, 0.5f, k_roomy, 4},
    {"dense knot 333x211 t16 s64", 256, 0, 333, 211, 16, 64, CAM_DEFAULT, 0.5f, k_roomy, 3},
    /* Every key of the cell bits is a cell (64 tiles x 16 slabs = 2^10; 16 x 64; 64 x 1): the
     * backdrop is the farthest triangle pair, in the last slab, and reaches the last tile. */
    {"all keys 64x64 t8 s16", 24, 1, 64, 64, 8, 16, CAM_FRONT, 0.0f, k_roomy, 4},
    {"all keys 64x64 t16 s64", 24, 1, 64, 64, 16, 64, CAM_FRONT, 0.0f, k_roomy, 4},
    {"all keys 64x64 t8 s1", 24, 1, 64, 64, 8, 1, CAM_FRONT, 0.0f, k_roomy, 3},
    {"one cell 8x8 t8 s1", 24, 1, 8, 8, 8, 1, CAM_FRONT, 0.0f, k_roomy, 3},
    {"no reference (camera away)", 24, 0, 96, 72, 8, 16, CAM_AWAY, 0.5f, k_roomy, 3},
    {"no reference (empty mesh)", 0, 0, 96, 72, 8, 16, CAM_DEFAULT, 0.0f, 0, 3},
};
enum { NUM_CASES = sizeof k_cases / sizeof k_cases[0] };

/* The views compared, frame i showing k_modes[i % 4]. */
static const sc_view_mode k_modes[4] = {SC_VIEW_TILE_HEAT, SC_VIEW_TESTS_HEAT, SC_VIEW_SLAB, SC_VIEW_SHADED};

static float frame_time(uint32_t i) { return 0.37f * (float)(i + 1); }

/* The mesh of a case: the knot, then the backdrop (a square of side 20 at z = -2 facing +z, split
 * along its diagonal from the bottom-left to the top-right corner, so both triangles reach the
 * top-right tile); both optional. */
static void case_mesh(const bin_case &c, std::vector<float> &pos, std::vector<uint32_t> &idx)
{
    pos.clear();
    idx.clear();
    if (c.knot) {
        sc_mesh m;
        memset(&m, 0, sizeof m);
        if (sc_mesh_default(c.knot, &m) != SC_OK) {
            sct_fail(__FILE__, __LINE__, "sc_mesh_default(%u): %s", c.knot, sc_last_error());
            return;
        }
        pos.assign(m.positions, m.positions + 3 * (size_t)m.vertex_count);
        idx.assign(m.indices, m.indices + 3 * (size_t)m.triangle_count);
        sc_mesh_free(&m);
    }
    if (c.backdrop) {
        const uint32_t v0 = (uint32_t)(pos.size() / 3);
        const float quad[12] = {-10, -10, -2, 10, -10, -2, 10, 10, -2, -10, 10, -2};
        pos.insert(pos.end(), quad, quad + 12);
        const uint32_t tris[6] = {v0, v0 + 1, v0 + 2, v0, v0 + 2, v0 + 3};
        idx.insert(idx.end(), tris, tris + 6);
    }
}

/* A renderer of the case with the binning (NULL on failure, reported). */
static sc_renderer *case_renderer(const bin_case &c, sc_binning binning, const std::vector<float> &pos,
                                  const std::vector<uint32_t> &idx)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CUDA;
    d.width = c.width;
    d.height = c.height;
    d.tile_size = c.tile_size;
    d.num_slabs = c.num_slabs;
    d.initial_ref_capacity = c.initial_ref_capacity;
    d.binning = binning;
    d.stage_times = 1; /* the tile split's time is checked */
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: sc_renderer_create (binning %d): %s", c.name, (int)binning, sc_last_error());
        return NULL;
    }
    const sc_mesh_data md = {pos.empty() ? NULL : pos.data(), (uint32_t)(pos.size() / 3),
                             idx.empty() ? NULL : idx.data(), (uint32_t)(idx.size() / 3)};
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = c.twist;
    def.wave.amount = 0.02f;
    sc_status s = sc_renderer_set_mesh(r, &md);
    if (s == SC_OK) s = sc_renderer_set_deform(r, &def);
    if (s == SC_OK && c.camera != CAM_DEFAULT) {
        sc_camera_desc cam;
        memset(&cam, 0, sizeof cam);
        cam.eye[2] = 3.0f;
        cam.target[2] = c.camera == CAM_FRONT ? 0.0f : 6.0f;
        s = sc_renderer_set_camera(r, &cam);
    }
    if (s != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: set up: %s", c.name, sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static bool render(sc_renderer *r, sc_view_mode mode, float time, void *d_rgba)
{
    sc_shading_desc sh;
    memset(&sh, 0, sizeof sh);
    sh.mode = mode;
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    f.rgba = d_rgba;
    return sc_renderer_set_shading(r, &sh) == SC_OK && sc_renderer_render(r, &f) == SC_OK;
}

/* The counters of two frames' stats that must agree (every field but the times); the first that
 * differs in *what. */
static bool stats_equal(const sc_frame_stats &a, const sc_frame_stats &b, const char **what)
{
#define BIN_FIELD(f)    \
    if (a.f != b.f) {   \
        *what = #f;     \
        return false;   \
    }
    BIN_FIELD(triangles);
    BIN_FIELD(visible_triangles);
    BIN_FIELD(references);
    BIN_FIELD(ray_triangle_tests);
    BIN_FIELD(ray_tests_performed); /* the same cells' references, in any order: the same tests run */
    BIN_FIELD(tiles);
    BIN_FIELD(tiles_exited_early);
    BIN_FIELD(hit_pixels);
    BIN_FIELD(capacity_grows);
    BIN_FIELD(overflow_passes);
    BIN_FIELD(depth_min);
    BIN_FIELD(depth_max);
    BIN_FIELD(frame);
#undef BIN_FIELD
    *what = "";
    return true;
}

/* The first pixel whose hits differ (triangle or depth bits first), or -1. */
static long first_hit_difference(const std::vector<sc_hit> &a, const std::vector<sc_hit> &b, const char **what)
{
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].tri != b[i].tri) *what = "triangle";
        else if (memcmp(&a[i].depth, &b[i].depth, sizeof(float)) != 0) *what = "depth";
        else if (memcmp(&a[i], &b[i], sizeof(sc_hit)) != 0) *what = "barycentrics";
        else continue;
        return (long)i;
    }
    return -1;
}

/* The tile offsets of r's last frame (tiles + 1 entries, device) into out. */
static void read_tile_offsets(const sc_renderer *r, size_t tiles, std::vector<uint32_t> &out)
{
    out.assign(tiles + 1, 0xFFFFFFFFu);
    sc_backend_buffers b;
    memset(&b, 0, sizeof b);
    SCT_CHECK_OK(sc_renderer_testing_buffers(r, &b));
    if (!b.tile_offsets) {
        sct_fail(__FILE__, __LINE__, "no tile offsets");
        return;
    }
    SCT_CUDA(cudaMemcpy(out.data(), b.tile_offsets, out.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
}

/* One frame of both renderers, its results read back and compared (the frame is finished: stats
 * waits for it). Returns the radix renderer's stats in *radix_stats. */
static void compare_frame(const bin_case &c, uint32_t i, sc_renderer *split, sc_renderer *radix, unsigned char *d_img,
                          sc_frame_stats *radix_stats)
{
    const size_t npix = (size_t)c.width * c.height;
    const sc_view_mode mode = k_modes[i % 4];
    if (!render(split, mode, frame_time(i), d_img) || !render(radix, mode, frame_time(i), d_img + npix * 4)) {
        sct_fail(__FILE__, __LINE__, "%s frame %u: render: %s", c.name, i, sc_last_error());
        return;
    }
    sc_frame_stats a, b;
    SCT_CHECK_OK(sc_renderer_stats(split, &a));
    SCT_CHECK_OK(sc_renderer_stats(radix, &b));
    *radix_stats = b;
    const char *what = "";
    SCT_CHECK_MSG(stats_equal(a, b, &what),
                  "%s frame %u: %s differs (split: refs %llu tests %llu exited %llu hits %llu passes %u; radix: %llu "
                  "%llu %llu %llu %u)",
                  c.name, i, what, (unsigned long long)a.references, (unsigned long long)a.ray_triangle_tests,
                  (unsigned long long)a.tiles_exited_early, (unsigned long long)a.hit_pixels, a.overflow_passes,
                  (unsigned long long)b.references, (unsigned long long)b.ray_triangle_tests,
                  (unsigned long long)b.tiles_exited_early, (unsigned long long)b.hit_pixels, b.overflow_passes);
    std::vector<sc_hit> ha(npix), hb(npix);
    SCT_CHECK_OK(sc_renderer_read_hits(split, ha.data()));
    SCT_CHECK_OK(sc_renderer_read_hits(radix, hb.data()));
    const long px = first_hit_difference(ha, hb, &what);
    if (px >= 0) {
        const size_t k = (size_t)px;
        sct_fail(__FILE__, __LINE__,
                 "%s frame %u: pixel (%zu, %zu) %s differs: split tri %u depth %.9g, radix tri %u depth %.9g",
                 c.name, i, k % c.width, k / c.width, what, ha[k].tri, (double)ha[k].depth, hb[k].tri,
                 (double)hb[k].depth);
    }
    std::vector<unsigned char> img(npix * 8);
    SCT_CUDA(cudaMemcpy(img.data(), d_img, img.size(), cudaMemcpyDeviceToHost));
    SCT_CHECK_MSG(memcmp(img.data(), img.data() + npix * 4, npix * 4) == 0, "%s frame %u (view mode %d): pixels differ",
                  c.name, i, (int)mode);
    sc_grid_info g;
    SCT_CHECK_OK(sc_renderer_get_grid(radix, &g));
    std::vector<uint32_t> ta, tb;
    read_tile_offsets(split, (size_t)g.tiles_x * g.tiles_y, ta);
    read_tile_offsets(radix, (size_t)g.tiles_x * g.tiles_y, tb);
    SCT_CHECK_MSG(ta == tb, "%s frame %u: tile offsets differ", c.name, i);
    SCT_CHECK_MSG(tb.back() == (uint32_t)b.references,
                  "%s frame %u: the last tile offset %u is not the references %llu", c.name, i, tb.back(),
                  (unsigned long long)b.references);
}

/* Every frame of case c with both binnings, read after each frame. */
static void check_case(const bin_case &c)
{
    std::vector<float> pos;
    std::vector<uint32_t> idx;
    case_mesh(c, pos, idx);
    sc_renderer *split = case_renderer(c, SC_BINNING_SPLIT, pos, idx);
    sc_renderer *radix = case_renderer(c, SC_BINNING_RADIX_SORT, pos, idx);
    unsigned char *d_img = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_img, (size_t)c.width * c.height * 8));
    uint64_t refs = 0;
    for (uint32_t i = 0; split && radix && d_img && i < c.frames; ++i) {
        sc_frame_stats st;
        memset(&st, 0, sizeof st);
        compare_frame(c, i, split, radix, d_img, &st);
        refs += st.references;
        if (c.initial_ref_capacity)
            SCT_CHECK_MSG(st.overflow_passes == 0, "%s frame %u: overflowed (the case gives room for every frame)",
                          c.name, i);
        SCT_CHECK_MSG(st.stage_ms[SC_STAGE_TILE_SPLIT] > 0.0, "%s frame %u: no time for the sort (tile_split)", c.name,
                      i);
    }
    /* The cases that must bin something do; those that must not, do not. */
    if (c.knot && c.camera != CAM_AWAY) SCT_CHECK_MSG(refs > 0, "%s: no reference in any frame", c.name);
    else SCT_CHECK_MSG(refs == 0, "%s: %llu references", c.name, (unsigned long long)refs);
    sc_renderer_destroy(split);
    sc_renderer_destroy(radix);
    cudaFree(d_img);
}

static void test_binnings_agree(void)
{
    for (int k = 0; k < NUM_CASES; ++k) check_case(k_cases[k]);
}

/* A reference buffer smaller than the first frame's references (initial_ref_capacity 1: the
 * triangle count, the least the backend holds; every triangle of the knot is in view, and at this
 * size many straddle tiles): the first frame overflows (the fallback renders it, the same for both
 * binnings), the next grows the buffer (and the sort's temporary storage, and captures the frame
 * graph again) and sorts; every frame agrees with the split binning's. */
static void check_overflow_then_grow(void)
{
    const bin_case c = {"overflow then grow 333x211 t8 s16", 32, 0, 333, 211, 8, 16, CAM_DEFAULT, 0.5f, 1, 5};
    std::vector<float> pos;
    std::vector<uint32_t> idx;
    case_mesh(c, pos, idx);
    sc_renderer *split = case_renderer(c, SC_BINNING_SPLIT, pos, idx);
    sc_renderer *radix = case_renderer(c, SC_BINNING_RADIX_SORT, pos, idx);
    unsigned char *d_img = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_img, (size_t)c.width * c.height * 8));
    bool overflowed = false, sorted_after_grow = false;
    for (uint32_t i = 0; split && radix && d_img && i < c.frames; ++i) {
        sc_frame_stats st;
        memset(&st, 0, sizeof st);
        compare_frame(c, i, split, radix, d_img, &st);
        if (i == 0) SCT_CHECK_MSG(st.overflow_passes > 0, "the first frame did not overflow (%llu references)",
                                  (unsigned long long)st.references);
        overflowed = overflowed || st.overflow_passes > 0;
        sorted_after_grow = sorted_after_grow || (overflowed && st.overflow_passes == 0);
        if (i == 1) SCT_CHECK_MSG(st.capacity_grows > 0, "the second frame did not grow the buffer");
    }
    SCT_CHECK_MSG(sorted_after_grow, "no frame was binned by the sort after the buffer grew");
    sc_renderer_destroy(split);
    sc_renderer_destroy(radix);
    cudaFree(d_img);
}

static void test_overflow_then_grow(void) { check_overflow_then_grow(); }

/* Every frame enqueued before anything is read (three frames in flight, each slot's graph): the
 * images agree frame by frame, and the last frame's hits and counters. */
static void test_frames_in_flight(void)
{
    const bin_case c = {"in flight 333x211 t8 s16", 64, 0, 333, 211, 8, 16, CAM_DEFAULT, 0.5f, k_roomy, 7};
    const size_t npix = (size_t)c.width * c.height;
    std::vector<float> pos;
    std::vector<uint32_t> idx;
    case_mesh(c, pos, idx);
    sc_renderer *split = case_renderer(c, SC_BINNING_SPLIT, pos, idx);
    sc_renderer *radix = case_renderer(c, SC_BINNING_RADIX_SORT, pos, idx);
    unsigned char *d_img = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_img, npix * 8 * c.frames));
    bool ok = split && radix && d_img;
    for (uint32_t i = 0; ok && i < c.frames; ++i) {
        const sc_view_mode mode = k_modes[i % 4];
        ok = render(split, mode, frame_time(i), d_img + npix * 8 * i) &&
             render(radix, mode, frame_time(i), d_img + npix * 8 * i + npix * 4);
        SCT_CHECK_MSG(ok, "frame %u: render: %s", i, sc_last_error());
    }
    if (ok) {
        sc_frame_stats a, b;
        SCT_CHECK_OK(sc_renderer_stats(split, &a));
        SCT_CHECK_OK(sc_renderer_stats(radix, &b));
        const char *what = "";
        SCT_CHECK_MSG(stats_equal(a, b, &what), "last frame: %s differs", what);
        std::vector<unsigned char> img(npix * 8 * c.frames);
        SCT_CUDA(cudaMemcpy(img.data(), d_img, img.size(), cudaMemcpyDeviceToHost));
        for (uint32_t i = 0; i < c.frames; ++i)
            SCT_CHECK_MSG(memcmp(img.data() + npix * 8 * i, img.data() + npix * 8 * i + npix * 4, npix * 4) == 0,
                          "frame %u (view mode %d): pixels differ", i, (int)k_modes[i % 4]);
        std::vector<sc_hit> ha(npix), hb(npix);
        SCT_CHECK_OK(sc_renderer_read_hits(split, ha.data()));
        SCT_CHECK_OK(sc_renderer_read_hits(radix, hb.data()));
        SCT_CHECK_MSG(first_hit_difference(ha, hb, &what) < 0, "last frame: %s of a pixel differs", what);
    }
    sc_renderer_destroy(split);
    sc_renderer_destroy(radix);
    cudaFree(d_img);
}

/* The stages launched one by one on the renderer's stream every frame instead of a graph (the sort's
 * dispatch runs on the host per frame): a few cases, the overflow among them. */
static void test_without_graphs(void)
{
    setenv("SLABCAST_CUDA_GRAPHS", "0", 1);
    for (int k = 0; k < NUM_CASES; ++k)
        if (strstr(k_cases[k].name, "t8 s64") || strstr(k_cases[k].name, "all keys 64x64 t8 s16") ||
            strstr(k_cases[k].name, "one cell") || strstr(k_cases[k].name, "empty mesh"))
            check_case(k_cases[k]);
    check_overflow_then_grow();
    unsetenv("SLABCAST_CUDA_GRAPHS");
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_binning_gpu");
    sct_require_cuda();
    SCT_RUN(test_binnings_agree);
    SCT_RUN(test_overflow_then_grow);
    SCT_RUN(test_frames_in_flight);
    SCT_RUN(test_without_graphs);
    return sct_end();
}
