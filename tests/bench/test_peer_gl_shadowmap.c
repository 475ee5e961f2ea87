/* test_peer_gl_shadowmap.c - the bench's gl-shadowmap peer (app/slabcast_bench/peer_gl_shadowmap.c,
 * included whole so that its static shadow mapper can be driven directly). One source, two binaries:
 *
 *  test_peer_gl_shadowmap_host (gl; built with PEER_GL_SHADOWMAP_GL_ONLY): the light's frustum holds
 *    the bounding sphere (every point of it inside the clip volume, the sphere touching its sides) and
 *    a light inside the sphere is refused; the deformation's reach; then the shadow mapper (its
 *    shaders, depth pass, lookup and decision target) on any OpenGL 4.5 context, Mesa's llvmpipe
 *    included, drawing the CPU backend's deformed positions of the knot lit by the bench's default
 *    light: its decisions against the CPU backend's exact shadows, frame after frame (the same pixels
 *    hit, at least 97 % of them decided alike, the rest printed, most at our shadows' edges), and the
 *    decision pictures written.
 *
 *  test_peer_gl_shadowmap (gl gpu): the whole peer (our CUDA renderer deforming, positions through
 *    CUDA-GL interop, GL timer queries) against our CUDA renderer's last frame with shadows; the scenes
 *    it skips (shadows off, a light inside the sphere) and refuses. Exits 77 without CUDA or an NVIDIA
 *    EGL device. */
#include "peer_gl_shadowmap.c"

#ifndef PEER_GL_SHADOWMAP_GL_ONLY
#include "sctest_cuda.h"
#endif
#include <unistd.h>

#include "deform_set.h"
#include "lights.h"
#include "orbit.h"
#include "sctest.h"
#include "sctest_gl.h"

enum { W = 320, H = 240, FRAMES = 3, WARMUP = 1, KNOT_RESOLUTION = 48 };

static const float k_times[FRAMES] = {0.15f, 0.5f, 0.85f};

/* The knot, framed as the bench frames it, with the bench's camera, deformation and default light. */
typedef struct scene {
    sc_mesh mesh;
    app_orbit orbit;
    sc_camera_desc camera;
    sc_deform_desc deform;
    sc_light_desc light;
} scene;

static int scene_init(scene *s)
{
    memset(s, 0, sizeof *s);
    if (sc_mesh_default(KNOT_RESOLUTION, &s->mesh) != SC_OK) return -1;
    app_fit_mesh(s->mesh.positions, s->mesh.vertex_count, s->mesh.indices, s->mesh.triangle_count, &s->orbit, NULL);
    s->camera = app_orbit_camera(&s->orbit);
    s->deform = app_deform_desc(APP_DEFORM_DEFAULT, 1.0f);
    s->light = app_default_light(s->orbit.center, s->orbit.radius);
    return 0;
}

/* A renderer of the scene on `backend`, shadows on or off, or NULL (reported). */
static sc_renderer *scene_renderer(sc_backend backend, const scene *s, int shadows)
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
    const sc_mesh_data md = sc_mesh_view(&s->mesh);
    sc_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.shadows = shadows;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_camera(r, &s->camera) != SC_OK ||
        sc_renderer_set_deform(r, &s->deform) != SC_OK || sc_renderer_set_lights(r, &s->light, 1) != SC_OK ||
        sc_renderer_set_options(r, &ro) != SC_OK) {
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

/* The scene as the bench hands it to a peer (our hits and shadows given by the caller). */
static bench_peer_scene peer_scene(const scene *s)
{
    bench_peer_scene sc;
    memset(&sc, 0, sizeof sc);
    sc.mesh = &s->mesh;
    sc.width = W;
    sc.height = H;
    sc.camera = s->camera;
    sc.deform = s->deform;
    sc.times = k_times;
    sc.frames = FRAMES;
    sc.warmup = WARMUP;
    for (int k = 0; k < 3; ++k) sc.framing_center[k] = s->orbit.center[k];
    sc.framing_radius = s->orbit.radius;
    sc.shadows = 1;
    sc.light = s->light;
    return sc;
}

static uint64_t count_shadowed(const uint8_t *decisions, size_t n)
{
    uint64_t k = 0;
    for (size_t i = 0; i < n; ++i) k += decisions[i] == BENCH_SHADOWED;
    return k;
}

/* ---- The light's frustum and the reach (no GL) ------------------------------------------------- */

/* Points spread over the sphere (a Fibonacci lattice), and the sphere's extreme points along the
 * view's axes, all land inside the light's clip volume; the sphere touches its sides. */
static void test_light_view_holds_sphere(void)
{
    const float center[3] = {0.3f, -0.2f, 0.1f};
    const double radius = 1.3;
    const double dir[3] = {1.0 / sqrt(6.0), 2.0 / sqrt(6.0), 1.0 / sqrt(6.0)};
    float light[3];
    for (int k = 0; k < 3; ++k) light[k] = (float)(center[k] + 3.0 * radius * dir[k]);
    peer_gl_view v;
    double distance = 0.0;
    SCT_REQUIRE(gl_shadowmap_light_view(light, center, radius, &v, &distance) == 0);
    SCT_CHECK(fabs(distance - 3.0 * radius) < 1e-5);
    double widest = 0.0, nearest = 1.0, farthest = 0.0;
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        const double z = 1.0 - (2.0 * i + 1.0) / n, r = sqrt(1.0 - z * z), a = 2.399963229728653 * i;
        const double p[3] = {center[0] + radius * r * cos(a), center[1] + radius * r * sin(a), center[2] + radius * z};
        double d[3], x = 0.0, y = 0.0, w = 0.0;
        for (int k = 0; k < 3; ++k) d[k] = p[k] - v.eye[k];
        for (int k = 0; k < 3; ++k) {
            x += d[k] * v.right[k];
            y += d[k] * v.up[k];
            w += d[k] * v.forward[k];
        }
        const double cx = v.proj[0] * x, cy = v.proj[1] * y, cz = v.proj[2] * w + v.proj[3];
        SCT_CHECK_MSG(w > 0.0 && fabs(cx) <= w && fabs(cy) <= w && cz >= -1e-6 * w && cz <= w * (1.0 + 1e-6),
                      "sphere point %d outside the light's clip volume: (%g, %g, %g, %g)", i, cx, cy, cz, w);
        widest = fmax(widest, fmax(fabs(cx), fabs(cy)) / w);
        nearest = fmin(nearest, cz / w);
        farthest = fmax(farthest, cz / w);
    }
    printf("      widest |ndc| %.5f, light depth %.5f .. %.5f\n", widest, nearest, farthest);
    SCT_CHECK_MSG(widest > 0.98, "the frustum is loose: the sphere reaches only %.4f of it", widest);
    SCT_CHECK(nearest < 0.01 && farthest > 0.99);
    /* Inside the sphere, on it, and at its centre: refused. */
    float inside[3];
    for (int k = 0; k < 3; ++k) inside[k] = (float)(center[k] + 0.5 * radius * dir[k]);
    SCT_CHECK(gl_shadowmap_light_view(inside, center, radius, &v, &distance) == -1);
    SCT_CHECK(fabs(distance - 0.5 * radius) < 1e-5);
    SCT_CHECK(gl_shadowmap_light_view(center, center, radius, &v, &distance) == -1);
    float on[3] = {center[0], (float)(center[1] + radius), center[2]};
    SCT_CHECK(gl_shadowmap_light_view(on, center, radius, &v, &distance) == -1);
}

static void test_reach(void)
{
    /* The sphere widens by the library's bound on the deformation (its cases: test_render_names). */
    sc_deform_desc d = app_deform_desc(APP_DEFORM_DEFAULT, 1.0f);
    SCT_CHECK(fabs(sc_deform_reach(&d) - (1.0 + (double)d.wave.amount)) < 1e-12);
    /* The peer refuses a light one map cannot hold, naming why. */
    scene s;
    SCT_REQUIRE(scene_init(&s) == 0);
    bench_peer_scene sc = peer_scene(&s);
    peer_gl_view light;
    SCT_CHECK_OK(gl_shadowmap_scene_light(&sc, &light));
    for (int k = 0; k < 3; ++k) sc.light.position[k] = s.orbit.center[k] + 0.1f * s.orbit.radius;
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    SCT_CHECK(gl_shadowmap_scene_light(&sc, &light) == SC_ERROR_UNSUPPORTED);
    SCT_CHECK_MSG(strstr(sc_last_error(), "inside the mesh's bounding sphere"), "%s", sc_last_error());
    sc.light.type = SC_LIGHT_DIRECTIONAL;
    SCT_CHECK(gl_shadowmap_scene_light(&sc, &light) == SC_ERROR_UNSUPPORTED);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    sc_mesh_free(&s.mesh);
}

#ifdef PEER_GL_SHADOWMAP_GL_ONLY
/* ---- The shadow mapper on any GL context, from the CPU backend's positions ---------------------- */

static void print_compare(const char *label, const bench_shadow_compare *c)
{
    printf("      %s: agreement %.5f over %llu pixels both hit (only ours %llu, only GL %llu); %llu differ: %llu lit "
           "in the map where ours is shadowed, %llu the reverse, %llu within %d px of our shadow edges\n",
           label, c->agreement, (unsigned long long)c->both_hit, (unsigned long long)c->only_ours,
           (unsigned long long)c->only_theirs, (unsigned long long)c->differ, (unsigned long long)c->they_lit,
           (unsigned long long)c->they_shadowed, (unsigned long long)c->differ_at_edges, BENCH_EDGE_RADIUS);
}

/* The decisions agree as a 4096^2 map can: the same pixels hit (GL's edge rule and ours differ on a
 * few), most decisions alike, the differences mostly at our shadows' edges. */
static void check_compare(const char *label, const bench_shadow_compare *c, uint64_t our_shadowed)
{
    print_compare(label, c);
    SCT_CHECK_MSG(c->both_hit > 0 && c->only_ours + c->only_theirs <= c->both_hit / 100, "%s: the pixels hit differ",
                  label);
    SCT_CHECK_MSG(our_shadowed >= c->both_hit / 50, "%s: only %llu pixels of ours in shadow: the scene tests little",
                  label, (unsigned long long)our_shadowed);
    SCT_CHECK_MSG(c->agreement >= 0.97, "%s: agreement %.5f below 0.97", label, c->agreement);
    SCT_CHECK_MSG(2 * c->differ_at_edges >= c->differ, "%s: only %llu of %llu differences at our shadow edges", label,
                  (unsigned long long)c->differ_at_edges, (unsigned long long)c->differ);
}


static sc_status upload_positions(const gl_shadowmap *g, const float *positions)
{
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, g->vbo));
    SC_GL(glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)g->vertices * 3 * (GLsizeiptr)sizeof(float), positions));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return SC_OK;
}

/* The CPU backend's frames drawn by the shadow mapper (its passes timed with queries, as the peer
 * does), each frame's decisions against the CPU backend's shadows; the last frame's pictures. */
static void test_host_scene(void)
{
    scene s;
    SCT_REQUIRE(scene_init(&s) == 0);
    sc_renderer *r = scene_renderer(SC_BACKEND_CPU, &s, 1);
    const bench_peer_scene sc = peer_scene(&s);
    gl_shadowmap g;
    memset(&g, 0, sizeof g);
    GLuint queries[2] = {0, 0};
    const size_t n = (size_t)W * H;
    float *positions = malloc(3 * sizeof(float) * s.mesh.vertex_count);
    sc_hit *hits = malloc(n * sizeof *hits);
    uint8_t *mask = malloc(n), *ours = malloc(n), *theirs = malloc(n);
    peer_gl_view camera, light;
    if (r && positions && hits && mask && ours && theirs && peer_gl_view_of(&s.camera, W, H, &camera) &&
        gl_shadowmap_scene_light(&sc, &light) == SC_OK) {
        SCT_CHECK_OK(gl_shadowmap_create(&g, W, H, GL_SHADOWMAP_SIZE, &s.mesh));
        SCT_CHECK_OK(gl_shadowmap_set_views(&g, &camera, &light));
        glGenQueries(2, queries);
        SCT_CHECK(sc_gl_check("glGenQueries", __FILE__, __LINE__) == SC_OK);
        for (int i = 0; g.depth_program && i < FRAMES && !sct_current_failed(); ++i) {
            SCT_CHECK_OK(render_at(r, k_times[i]));
            SCT_CHECK_OK(sc_renderer_read_positions(r, positions));
            SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
            SCT_CHECK_OK(sc_renderer_read_shadows(r, mask));
            SCT_CHECK_OK(upload_positions(&g, positions));
            SCT_CHECK_OK(gl_shadowmap_draw(&g, queries[0], queries[1]));
            GLuint64 ns[2] = {0, 0};
            for (int q = 0; q < 2; ++q) glGetQueryObjectui64v(queries[q], GL_QUERY_RESULT, &ns[q]);
            SCT_CHECK(sc_gl_check("glGetQueryObjectui64v", __FILE__, __LINE__) == SC_OK);
            SCT_CHECK_OK(gl_shadowmap_read(&g, theirs));
            bench_our_decisions(hits, mask, n, ours);
            bench_shadow_compare c;
            bench_shadow_compare_decisions(ours, theirs, W, H, &c);
            char what[128];
            snprintf(what, sizeof what, "t = %.2f (depth %.3f + camera %.3f ms GL)", (double)k_times[i],
                     (double)ns[0] * 1e-6, (double)ns[1] * 1e-6);
            check_compare(what, &c, count_shadowed(ours, n));
        }
        /* The pictures of the last frame, as --images writes them. */
        char dir[] = "/tmp/test_peer_gl_shadowmap_XXXXXX", path[128], why[512];
        SCT_REQUIRE(mkdtemp(dir));
        snprintf(path, sizeof path, "%s/gl-shadowmap-diff-1.png", dir);
        SCT_CHECK_MSG(bench_decisions_diff_png(path, W, H, ours, theirs, why, sizeof why) == 0, "%s", why);
        SCT_CHECK(access(path, R_OK) == 0);
        unlink(path);
        rmdir(dir);
    } else {
        SCT_CHECK_MSG(0, "set up of the scene failed");
    }
    if (queries[0]) glDeleteQueries(2, queries);
    gl_shadowmap_destroy(&g);
    free(positions);
    free(hits);
    free(mask);
    free(ours);
    free(theirs);
    sc_renderer_destroy(r);
    sc_mesh_free(&s.mesh);
}

#else
/* ---- The whole peer (CUDA and an NVIDIA EGL device) ----------------------------------------------- */

/* Our CUDA renderer's last frame of the scene with shadows, then the peer on the same scene. */
static void test_peer_scene(void)
{
    scene s;
    SCT_REQUIRE(scene_init(&s) == 0);
    sc_renderer *r = scene_renderer(SC_BACKEND_CUDA, &s, 1);
    const size_t n = (size_t)W * H;
    sc_hit *hits = malloc(n * sizeof *hits);
    uint8_t *mask = malloc(n), *ours = malloc(n);
    if (r && hits && mask && ours) {
        SCT_CHECK_OK(render_at(r, k_times[FRAMES - 1]));
        SCT_CHECK_OK(sc_renderer_read_hits(r, hits));
        SCT_CHECK_OK(sc_renderer_read_shadows(r, mask));
        bench_our_decisions(hits, mask, n, ours);
    }
    sc_renderer_destroy(r);
    if (r && hits && mask && ours && !sct_current_failed()) {
        bench_peer_scene sc = peer_scene(&s);
        sc.our_hits = hits;
        sc.our_shadows = mask;
        bench_peer_result res;
        char why[512] = "";
        const int rc = bench_peer_gl_shadowmap.run(&sc, &res, why, sizeof why);
        if (rc == 77) {
            sct_skip(why);
        } else if (rc != 0) {
            sct_fail(__FILE__, __LINE__, "the peer failed (%d): %s", rc, why);
        } else {
            printf("      agreement %.5f, median %.4f ms, p95 %.4f ms, max %.4f ms (%s)\n      %s\n", res.agreement,
                   res.median_ms, res.p95_ms, res.max_ms, res.note, res.detail);
            SCT_CHECK_MSG(res.agreement >= 0.97, "agreement %.5f below 0.97", res.agreement);
            SCT_CHECK(res.median_ms > 0.0 && res.p95_ms >= res.median_ms && res.max_ms >= res.p95_ms);
            SCT_CHECK(strstr(res.detail, "depth pass") && strstr(res.detail, "4096^2 map"));
            SCT_CHECK(count_shadowed(ours, n) >= n / 100);
        }
    }
    free(hits);
    free(mask);
    free(ours);
    sc_mesh_free(&s.mesh);
}

/* Scenes the peer skips (77, saying why) and refuses (-1): *out marked not compared each time. */
static void test_peer_skips_and_refuses(void)
{
    scene s;
    SCT_REQUIRE(scene_init(&s) == 0);
    const size_t n = (size_t)W * H;
    sc_hit *hits = calloc(n, sizeof *hits);
    uint8_t *mask = calloc(n, 1);
    SCT_REQUIRE(hits && mask);
    bench_peer_scene sc = peer_scene(&s);
    sc.our_hits = hits;
    sc.our_shadows = mask;
    bench_peer_result res;
    char why[512] = "";
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    sc.shadows = 0;
    SCT_CHECK(bench_peer_gl_shadowmap.run(&sc, &res, why, sizeof why) == 77);
    SCT_CHECK_MSG(strstr(why, "shadows off") && res.agreement < 0.0, "%s", why);
    sc.shadows = 1;
    for (int k = 0; k < 3; ++k) sc.light.position[k] = s.orbit.center[k];
    SCT_CHECK(bench_peer_gl_shadowmap.run(&sc, &res, why, sizeof why) == 77);
    SCT_CHECK_MSG(strstr(why, "inside the mesh's bounding sphere") && res.agreement < 0.0, "%s", why);
    bench_peer_scene empty;
    memset(&empty, 0, sizeof empty);
    SCT_CHECK(bench_peer_gl_shadowmap.run(&empty, &res, why, sizeof why) == -1);
    SCT_CHECK(why[0] != '\0' && res.agreement < 0.0);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    free(hits);
    free(mask);
    sc_mesh_free(&s.mesh);
}
#endif /* PEER_GL_SHADOWMAP_GL_ONLY */

int main(int argc, char **argv)
{
#ifdef PEER_GL_SHADOWMAP_GL_ONLY
    sct_begin(argc, argv, "peer_gl_shadowmap_host");
    SCT_RUN(test_light_view_holds_sphere);
    SCT_RUN(test_reach);
    sc_gl_context *gl = sct_require_gl(0);
    SCT_RUN(test_host_scene);
    sc_gl_context_destroy(gl);
#else
    sct_begin(argc, argv, "peer_gl_shadowmap");
    sct_require_cuda();
    sc_gl_context_destroy(sct_require_gl(1)); /* the peer makes its own: only whether one can be made */
    SCT_RUN(test_light_view_holds_sphere);
    SCT_RUN(test_reach);
    SCT_RUN(test_peer_skips_and_refuses);
    SCT_RUN(test_peer_scene);
#endif
    return sct_end();
}
