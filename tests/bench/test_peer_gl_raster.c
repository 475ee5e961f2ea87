/* test_peer_gl_raster.c - the bench's gl-raster peer (app/slabcast_bench/peer_gl_raster.c, included
 * whole so that its static rasteriser can be driven directly). One source, two binaries:
 *
 *  test_peer_gl_raster_host (gl; built with PEER_GL_RASTER_GL_ONLY): the peer's rasteriser (its
 *    shaders, projection, reversed-Z depth and id target) on any OpenGL 4.5 context, Mesa's llvmpipe
 *    included, drawing the CPU backend's deformed positions uploaded from the host; its ids against the
 *    CPU backend's hits, frame after frame, with the camera outside the mesh (every default of
 *    sc_camera_desc) and inside its bounds (a near plane that cuts visible triangles). Also: the view
 *    it builds is bit for bit the front end's (sc_renderer_testing_frame_params).
 *
 *  test_peer_gl_raster (gl gpu): the whole peer (our CUDA renderer deforming, the positions across
 *    through sc_renderer_copy_positions into a GL buffer mapped into CUDA, GL timer queries) against
 *    our CUDA renderer's last frame, and sc_renderer_copy_positions into device memory. Exits 77
 *    without CUDA or an NVIDIA EGL device. */
#include "peer_gl_raster.c"

#ifndef PEER_GL_RASTER_GL_ONLY
#include "sctest_cuda.h"
#endif
#include "sc_render_testing.h"
#include "sctest.h"
#include "sctest_gl.h"

enum { W = 320, H = 240, FRAMES = 3, WARMUP = 2, KNOT_RESOLUTION = 64 };

static const float k_times[FRAMES] = {0.15f, 0.5f, 0.85f};

/* The camera outside the knot, every other field its default (60 degrees, near 0.01, far 1000: the
 * depth precision a bench run sees). */
static sc_camera_desc outside_camera(void)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.eye[0] = 0.6f;
    c.eye[1] = 1.1f;
    c.eye[2] = 3.4f;
    return c;
}

/* The camera inside the knot's bounds, looking along a tube, with a near plane that cuts triangles in
 * view (test_inside_scene_is_cut_by_near checks that it does). */
static sc_camera_desc inside_camera(void)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.eye[2] = 0.35f;
    c.target[0] = 1.0f;
    c.target[1] = 0.2f;
    c.fovy = 1.2f;
    c.near_plane = 0.3f;
    c.far_plane = 50.0f;
    return c;
}

static sc_deform_desc scene_deform(void)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    d.twist.amount = 0.5f;
    d.wave.amount = 0.03f;
    return d;
}

/* A renderer of the knot on `backend` with the camera and the scene's deformation, or NULL (reported). */
static sc_renderer *scene_renderer(sc_backend backend, const sc_mesh *m, const sc_camera_desc *camera)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = W;
    d.height = H;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "sc_renderer_create: %s", sc_last_error());
        return NULL;
    }
    const sc_mesh_data md = sc_mesh_view(m);
    const sc_deform_desc def = scene_deform();
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_camera(r, camera) != SC_OK ||
        sc_renderer_set_deform(r, &def) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static sc_status render_at(sc_renderer *r, float time)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    return sc_renderer_render(r, &f);
}

#ifdef PEER_GL_RASTER_GL_ONLY
/* ---- The rasteriser on any GL context, from the CPU backend's positions ------------------------- */

/* How the ids and our hits differ, printed beside the agreement. */
static void print_agreement(const char *label, const sc_hit *hits, const uint32_t *ids, size_t n)
{
    size_t same_hit = 0, same_miss = 0, we_only = 0, they_only = 0, other = 0;
    for (size_t i = 0; i < n; ++i) {
        const int ours = hits[i].tri != SC_NO_HIT, theirs = ids[i] != SC_NO_HIT;
        if (ours && theirs) *(hits[i].tri == ids[i] ? &same_hit : &other) += 1;
        else if (ours) we_only += 1;
        else if (theirs) they_only += 1;
        else same_miss += 1;
    }
    printf("      %s: agreement %.5f (same triangle %zu, both miss %zu, other triangle %zu, "
           "only ours hit %zu, only GL hit %zu)\n",
           label, bench_peer_agreement_ids(hits, ids, n), same_hit, same_miss, other, we_only, they_only);
}


static sc_status upload_positions(const gl_raster *g, const float *positions)
{
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, g->vbo));
    SC_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)g->vertices * 3 * (GLsizeiptr)sizeof(float), positions));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return SC_OK;
}

/* Draws the CPU backend's frames with the rasteriser (each timed with a query, as the peer does) and
 * checks each frame's ids against the CPU backend's hits. */
static void check_host_scene(const char *label, const sc_camera_desc *camera, double min_agreement)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(KNOT_RESOLUTION, &m));
    sc_renderer *r = scene_renderer(SC_BACKEND_CPU, &m, camera);
    gl_raster g;
    memset(&g, 0, sizeof g);
    GLuint queries[FRAMES] = {0};
    const size_t n = (size_t)W * H;
    float *positions = malloc(3 * sizeof(float) * m.vertex_count);
    sc_hit *hits = malloc(n * sizeof *hits);
    uint32_t *ids = malloc(n * sizeof *ids);
    peer_gl_view view;
    if (r && positions && hits && ids && peer_gl_view_of(camera, W, H, &view)) {
        SCT_CHECK_OK(gl_raster_create(&g, W, H, &m));
        SCT_CHECK_OK(gl_raster_set_view(&g, &view));
        glGenQueries(FRAMES, queries); /* one a frame, as the peer has */
        SCT_CHECK(sc_gl_check("glGenQueries", __FILE__, __LINE__) == SC_OK);
        for (int i = 0; g.program && i < FRAMES && !sct_current_failed(); ++i) {
            SCT_CHECK_OK(render_at(r, k_times[i]));
            SCT_CHECK_OK(sc_renderer_read_positions(r, positions));
            SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
            SCT_CHECK_OK(upload_positions(&g, positions));
            SCT_CHECK_OK(gl_raster_draw(&g, queries[i]));
            GLuint64 ns = 0;
            glGetQueryObjectui64v(queries[i], GL_QUERY_RESULT, &ns);
            SCT_CHECK(sc_gl_check("glGetQueryObjectui64v", __FILE__, __LINE__) == SC_OK);
            SCT_CHECK_OK(gl_raster_read_ids(&g, ids));
            char what[96];
            snprintf(what, sizeof what, "%s, t = %.2f (%.3f ms GL)", label, (double)k_times[i], (double)ns * 1e-6);
            print_agreement(what, hits, ids, n);
            const double a = bench_peer_agreement_ids(hits, ids, n);
            SCT_CHECK_MSG(a >= min_agreement, "%s: agreement %.5f below %.3f", what, a, min_agreement);
        }
    } else {
        SCT_CHECK_MSG(0, "set up of %s failed", label);
    }
    if (queries[0]) glDeleteQueries(FRAMES, queries);
    gl_raster_destroy(&g);
    free(positions);
    free(hits);
    free(ids);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

static void test_host_camera_outside(void)
{
    const sc_camera_desc c = outside_camera();
    check_host_scene("outside", &c, 0.99);
}

static void test_host_camera_inside(void)
{
    const sc_camera_desc c = inside_camera();
    check_host_scene("inside", &c, 0.99);
}

/* The inside scene tests the near plane: moving it in to 0.01 changes what a good share of the
 * pixels see (the CPU backend's hits). */
static void test_inside_scene_is_cut_by_near(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(KNOT_RESOLUTION, &m));
    sc_camera_desc cut = inside_camera(), uncut = inside_camera();
    uncut.near_plane = 0.01f;
    sc_renderer *a = scene_renderer(SC_BACKEND_CPU, &m, &cut), *b = scene_renderer(SC_BACKEND_CPU, &m, &uncut);
    const size_t n = (size_t)W * H;
    sc_hit *ha = malloc(n * sizeof *ha), *hb = malloc(n * sizeof *hb);
    if (a && b && ha && hb) {
        SCT_CHECK_OK(render_at(a, k_times[FRAMES - 1]));
        SCT_CHECK_OK(render_at(b, k_times[FRAMES - 1]));
        SCT_CHECK_OK(sc_renderer_read_hits(a, ha));
        SCT_CHECK_OK(sc_renderer_read_hits(b, hb));
        size_t differ = 0, hit = 0;
        for (size_t i = 0; i < n; ++i) {
            differ += ha[i].tri != hb[i].tri;
            hit += ha[i].tri != SC_NO_HIT;
        }
        printf("      near %.2f against 0.01: %zu of %zu pixels see another triangle; %zu hit\n",
               (double)cut.near_plane, differ, n, hit);
        SCT_CHECK_MSG(differ >= n / 20, "the near plane changes only %zu pixels", differ);
        SCT_CHECK_MSG(hit >= n / 4, "only %zu pixels hit", hit);
    }
    free(ha);
    free(hb);
    sc_renderer_destroy(a);
    sc_renderer_destroy(b);
    sc_mesh_free(&m);
}

/* The view the rasteriser builds is the front end's, bit for bit, and its depth is 1 at the near
 * plane and 0 at the far one. */
static void test_view_is_the_ray_casters(void)
{
    const sc_camera_desc inside = inside_camera(), outside = outside_camera();
    sc_camera_desc tilted = outside_camera();
    tilted.up[0] = 0.3f;
    tilted.up[1] = 0.2f;
    tilted.up[2] = -1.0f;
    tilted.fovy = 0.4f;
    tilted.near_plane = 2.0f;
    tilted.far_plane = 6.5f;
    const sc_camera_desc *cams[3] = {&outside, &inside, &tilted};
    const uint32_t sizes[3][2] = {{W, H}, {97, 61}, {64, 480}};
    for (int c = 0; c < 3; ++c)
        for (int s = 0; s < 3; ++s) {
            sc_renderer_desc d;
            memset(&d, 0, sizeof d);
            d.backend = SC_BACKEND_CPU;
            d.width = sizes[s][0];
            d.height = sizes[s][1];
            sc_renderer *r = NULL;
            SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
            SCT_CHECK_OK(sc_renderer_set_camera(r, cams[c]));
            sc_frame_params p;
            sc_renderer_testing_frame_params(r, &p);
            sc_renderer_destroy(r);
            peer_gl_view v;
            SCT_REQUIRE(peer_gl_view_of(cams[c], sizes[s][0], sizes[s][1], &v));
            const int same_basis = memcmp(v.eye, p.eye, sizeof v.eye) == 0 &&
                                   memcmp(v.right, p.right, sizeof v.right) == 0 &&
                                   memcmp(v.up, p.up, sizeof v.up) == 0 &&
                                   memcmp(v.forward, p.forward, sizeof v.forward) == 0;
            SCT_CHECK_MSG(same_basis, "camera %d, %ux%u: the view basis differs from the front end's", c,
                          sizes[s][0], sizes[s][1]);
            SCT_CHECK_MSG(v.proj[0] == p.proj_x && v.proj[1] == p.proj_y,
                          "camera %d, %ux%u: scale (%g, %g), ours (%g, %g)", c, sizes[s][0], sizes[s][1],
                          (double)v.proj[0], (double)v.proj[1], (double)p.proj_x, (double)p.proj_y);
            const double near_depth = ((double)v.proj[2] * p.near_plane + v.proj[3]) / p.near_plane;
            const double far_depth = ((double)v.proj[2] * p.far_plane + v.proj[3]) / p.far_plane;
            SCT_CHECK_MSG(fabs(near_depth - 1.0) < 1e-6 && fabs(far_depth) < 1e-6,
                          "camera %d: depth %.9f at near, %.9f at far", c, near_depth, far_depth);
        }
}

#else
/* ---- The whole peer (CUDA and an NVIDIA EGL device) ----------------------------------------------- */

/* sc_renderer_copy_positions on the CUDA backend: into device memory the positions read_positions
 * gives, ordered on the renderer's stream; a host pointer refused. */
static void test_copy_positions_device(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(KNOT_RESOLUTION, &m));
    const sc_camera_desc cam = outside_camera();
    sc_renderer *r = scene_renderer(SC_BACKEND_CUDA, &m, &cam);
    const size_t bytes = 3 * sizeof(float) * m.vertex_count;
    float *dev = NULL, *read = malloc(bytes), *copied = malloc(bytes);
    SCT_CUDA(cudaMalloc((void **)&dev, bytes));
    if (r && dev && read && copied) {
        sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
        SCT_CHECK(sc_renderer_copy_positions(r, dev) == SC_ERROR_INVALID_ARGUMENT); /* no frame yet */
        for (int i = 0; i < FRAMES; ++i) {
            SCT_CHECK_OK(render_at(r, k_times[i]));
            SCT_CHECK_OK(sc_renderer_copy_positions(r, dev));
            SCT_CHECK(sc_renderer_copy_positions(r, copied) == SC_ERROR_INVALID_ARGUMENT); /* host memory */
            SCT_CHECK_OK(sc_renderer_read_positions(r, read)); /* waits for the stream: the copy is done */
            SCT_CUDA(cudaMemcpy(copied, dev, bytes, cudaMemcpyDeviceToHost));
            SCT_CHECK_MSG(memcmp(copied, read, bytes) == 0, "frame %d: the device copy differs from the read", i);
        }
        sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    }
    if (dev) SCT_CUDA(cudaFree(dev));
    free(read);
    free(copied);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

/* Our CUDA renderer's last frame of the scene, then the peer on the same scene. */
static void check_peer_scene(const char *label, const sc_camera_desc *camera, double min_agreement)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(KNOT_RESOLUTION, &m));
    sc_renderer *r = scene_renderer(SC_BACKEND_CUDA, &m, camera);
    const size_t n = (size_t)W * H;
    sc_hit *hits = malloc(n * sizeof *hits);
    if (r && hits) {
        SCT_CHECK_OK(render_at(r, k_times[FRAMES - 1]));
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
    }
    sc_renderer_destroy(r);
    if (r && hits && !sct_current_failed()) {
        bench_peer_scene sc;
        memset(&sc, 0, sizeof sc);
        sc.mesh = &m;
        sc.width = W;
        sc.height = H;
        sc.camera = *camera;
        sc.deform = scene_deform();
        sc.times = k_times;
        sc.frames = FRAMES;
        sc.warmup = WARMUP;
        sc.our_hits = hits;
        bench_peer_result res;
        char why[512] = "";
        const int rc = bench_peer_gl_raster.run(&sc, &res, why, sizeof why);
        if (rc == 77) {
            sct_skip(why);
        } else if (rc != 0) {
            sct_fail(__FILE__, __LINE__, "%s: the peer failed (%d): %s", label, rc, why);
        } else {
            printf("      %s: agreement %.5f, median %.4f ms, p95 %.4f ms, max %.4f ms (%s)\n", label, res.agreement,
                   res.median_ms, res.p95_ms, res.max_ms, res.note);
            SCT_CHECK_MSG(res.agreement >= min_agreement, "%s: agreement %.5f below %.3f", label, res.agreement,
                          min_agreement);
            SCT_CHECK(res.median_ms > 0.0 && res.p95_ms >= res.median_ms && res.max_ms >= res.p95_ms);
            SCT_CHECK(strcmp(res.note, "GL timer queries, EGL device") == 0);
        }
    }
    free(hits);
    sc_mesh_free(&m);
}

static void test_peer_camera_outside(void)
{
    const sc_camera_desc c = outside_camera();
    check_peer_scene("outside", &c, 0.99);
}

static void test_peer_camera_inside(void)
{
    const sc_camera_desc c = inside_camera();
    check_peer_scene("inside", &c, 0.99);
}

/* Scenes the peer refuses: -1 and a reason, *out marked not compared. */
static void test_peer_rejects_bad_scene(void)
{
    bench_peer_scene sc;
    memset(&sc, 0, sizeof sc);
    bench_peer_result res;
    char why[256] = "";
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    SCT_CHECK(bench_peer_gl_raster.run(&sc, &res, why, sizeof why) == -1);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    SCT_CHECK(why[0] != '\0' && res.agreement < 0.0);
}
#endif /* PEER_GL_RASTER_GL_ONLY */

int main(int argc, char **argv)
{
#ifdef PEER_GL_RASTER_GL_ONLY
    sct_begin(argc, argv, "peer_gl_raster_host");
    sc_gl_context *gl = sct_require_gl(0);
    SCT_RUN(test_view_is_the_ray_casters);
    SCT_RUN(test_inside_scene_is_cut_by_near);
    SCT_RUN(test_host_camera_outside);
    SCT_RUN(test_host_camera_inside);
    sc_gl_context_destroy(gl);
#else
    sct_begin(argc, argv, "peer_gl_raster");
    sct_require_cuda();
    sc_gl_context_destroy(sct_require_gl(1)); /* the peer makes its own: only whether one can be made */
    SCT_RUN(test_peer_rejects_bad_scene);
    SCT_RUN(test_copy_positions_device);
    SCT_RUN(test_peer_camera_outside);
    SCT_RUN(test_peer_camera_inside);
#endif
    return sct_end();
}
