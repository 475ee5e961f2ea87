/* display_bench.c - what showing a frame costs on top of rendering it: the viewer's display path (map,
 * render into the display's device buffer, unmap, draw, HUD) at several sizes. Headless (an EGL context
 * on the NVIDIA GPU, drawing into an offscreen framebuffer of the frame's size), so the numbers hold no
 * window-system cost (a window's swap is the compositor's).
 * Per size and path:
 *   frame     a frame of the viewer's loop, back to back: map, render (the built-in 1M-triangle mesh,
 *             deforming), unmap, draw, HUD, flush; ms per frame over --frames frames, median of 9 runs;
 *   render    the same frames rendered into device memory alone;
 *   cost      frame - render: what showing a frame adds to the frame period;
 *   display   map + unmap + draw + HUD alone, each finished (glFinish, cudaDeviceSynchronize) before
 *             the next: the latency it adds to one frame (median over --frames);
 *   gl        the GPU time of draw + HUD (GL_TIME_ELAPSED; median).
 * Paths: interop (as the viewer runs it: nothing waits, the GPU interleaves the CUDA and GL contexts),
 * intr+cs (interop, the host waits for the CUDA stream before issuing GL), intr+fin (and for GL after
 * it), copy (the device -> host -> texture path). Each pipelined run also prints the host time spent in
 * each call per frame, which shows where a frame waits.
 * Usage: slabcast-display-bench [--sizes WxH,...] [--frames N] [--json FILE]
 * Exit 0, 1 on a failure (said on stderr), 2 bad usage, 77 no CUDA device or no NVIDIA EGL context. */
#include <cuda_runtime_api.h>
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hud.h"
#include "sc_display.h"
#include "sc_gl.h"
#include "sc_mesh.h"
#include "slabcast.h"

#define MAX_SIZES 8
#define WARMUP 20

typedef struct bench_config {
    int sizes[MAX_SIZES][2];
    int size_count;
    int frames;
    const char *json;
} bench_config;

typedef struct bench_result { double display_ms, gl_ms, frame_ms, render_ms; } bench_result;

/* A statistics panel and a legend bar as the viewer draws them (same sizes, same number of quads). */
static const char k_hud_text[] =
    "812.4 fps  1.23 ms/frame  GPU 0.341 ms  host 0.052 ms (avg 0.5 s)\n"
    "deform 0.021  project 0.034  bin 0.081  slab 0.062  raycast 0.127\nshade 0.016 ms\n"
    "triangles 1048576  visible 512345  references 1234567\n"
    "ray-triangle tests 23456789  tiles exited early 16000 of 16384\n"
    "1024x1024  tile 8 x 16 slabs  cuda backend  NVIDIA H100 80GB HBM3\n"
    "built-in torus knot  mode shaded  deform twist,wave  t 12.34 s\n"
    "cull off  flat off  vsync off   F1 or ?: keys";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int fail(const char *what)
{
    fprintf(stderr, "slabcast-display-bench: %s: %s\n", what, sc_last_error());
    return -1;
}

/* The HUD as the viewer draws it: the statistics panel, a legend of 64 colour boxes with its labels. */
static int draw_hud(app_hud *hud, int w, int h)
{
    if (app_hud_draw(hud, k_hud_text, 0, 0, w >= 1200 ? 2 : 1, w, h, NULL) != 0) return -1;
    app_hud_begin(hud);
    for (int i = 0; i < 64; ++i) {
        unsigned char c[4] = {(unsigned char)(4 * i), (unsigned char)(255 - 4 * i), 128, 255};
        if (app_hud_add_rect(hud, (app_rect){8 + 4 * i, h - 40, 4, 14}, c) != 0) return -1;
    }
    unsigned char white[4] = {255, 255, 255, 255};
    if (app_hud_add_text(hud, "0      16      256      1024+", 8, h - 24, 1, white) != 0) return -1;
    return app_hud_flush(hud, (app_rect){0, 0, w, h}, w, h);
}

/* Host milliseconds spent in each call of show_frame, summed (the pipelined runs print their means). */
enum { CALL_MAP, CALL_RENDER, CALL_UNMAP, CALL_DRAW, CALL_HUD, CALL_FLUSH, CALL_COUNT };
static const char *const k_call_names[CALL_COUNT] = {"map", "render", "unmap", "draw", "hud", "flush"};
static double g_call_ms[CALL_COUNT];
/* How a frame's GL part is ordered against the next frame's CUDA work: 0 not at all (the GPU
 * interleaves the contexts), 1 the host waits for CUDA before drawing, 2 and for GL after drawing. */
static int g_sync;

static void lap(int call, double *t)
{
    double now = now_ms();
    g_call_ms[call] += now - *t;
    *t = now;
}

/* map + unmap + draw + HUD (render first when r is given), then a flush as a window's swap does. */
static int show_frame(sc_renderer *r, sc_display *d, app_hud *hud, int w, int h, float t)
{
    void *dev = NULL;
    double t0 = now_ms();
    if (sc_display_map_cuda(d, NULL, &dev) != SC_OK) return fail("sc_display_map_cuda");
    lap(CALL_MAP, &t0);
    if (r) {
        sc_frame_desc f = {0};
        f.time = t;
        f.rgba = dev;
        if (sc_renderer_render(r, &f) != SC_OK) return fail("sc_renderer_render");
    }
    lap(CALL_RENDER, &t0);
    if (sc_display_unmap_cuda(d, NULL) != SC_OK) return fail("sc_display_unmap_cuda");
    if (g_sync >= 1 && cudaStreamSynchronize(NULL) != cudaSuccess) return fail("cudaStreamSynchronize");
    lap(CALL_UNMAP, &t0);
    if (sc_display_draw(d, w, h) != SC_OK) return fail("sc_display_draw");
    lap(CALL_DRAW, &t0);
    if (draw_hud(hud, w, h) != 0) {
        fprintf(stderr, "slabcast-display-bench: HUD: %s\n", app_hud_error());
        return -1;
    }
    lap(CALL_HUD, &t0);
    if (g_sync >= 2) glFinish();
    else glFlush();
    lap(CALL_FLUSH, &t0);
    return 0;
}

static int finish(void)
{
    glFinish();
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "slabcast-display-bench: cudaDeviceSynchronize failed\n");
        return -1;
    }
    return 0;
}

/* Seconds per frame of `frames` frames back to back (no wait between them, one at the end), as the
 * viewer's loop runs them: with_display 0 renders into device memory only, 1 maps, renders, unmaps,
 * draws and draws the HUD. */
static int pipelined_ms(sc_renderer *r, sc_display *d, app_hud *hud, int w, int h, void *ref, int frames,
                        int with_display, double *ms)
{
    if (finish() != 0) return -1;
    double t0 = now_ms();
    for (int i = 0; i < frames; ++i) {
        float t = 0.01f * (float)i;
        if (with_display) {
            if (show_frame(r, d, hud, w, h, t) != 0) return -1;
            continue;
        }
        sc_frame_desc f = {0};
        f.time = t;
        f.rgba = ref;
        if (sc_renderer_render(r, &f) != SC_OK) return fail("sc_renderer_render");
    }
    if (finish() != 0) return -1;
    *ms = (now_ms() - t0) / frames;
    return 0;
}

/* One size and path: the pipelined frame with and without the display (medians of REPEATS runs of
 * c->frames frames), then the display alone, each iteration finished: its latency and its GL time. */
#define REPEATS 9
static int measure(const bench_config *c, sc_renderer *r, sc_display *d, app_hud *hud, int w, int h, void *ref,
                   bench_result *out)
{
    double frame[REPEATS], render[REPEATS];
    int rc = pipelined_ms(r, d, hud, w, h, ref, WARMUP, 1, &frame[0]);
    memset(g_call_ms, 0, sizeof g_call_ms);
    for (int k = 0; rc == 0 && k < REPEATS; ++k) {
        rc = pipelined_ms(r, d, hud, w, h, ref, c->frames, 0, &render[k]);
        if (rc == 0) rc = pipelined_ms(r, d, hud, w, h, ref, c->frames, 1, &frame[k]);
    }
    printf("      host ms per pipelined frame:");
    for (int k = 0; k < CALL_COUNT; ++k) printf(" %s %.4f", k_call_names[k], g_call_ms[k] / (REPEATS * c->frames));
    printf("\n");
    int n = c->frames;
    double *disp = malloc(sizeof(double) * (size_t)n * 2), *gl = disp ? disp + n : NULL;
    GLuint q = 0;
    glGenQueries(1, &q);
    if (!disp) rc = -1;
    for (int i = -WARMUP; rc == 0 && i < n; ++i) {
        double t0 = now_ms();
        void *dev = NULL;
        if (sc_display_map_cuda(d, NULL, &dev) != SC_OK || sc_display_unmap_cuda(d, NULL) != SC_OK) {
            rc = fail("map / unmap");
            break;
        }
        glBeginQuery(GL_TIME_ELAPSED, q);
        if (sc_display_draw(d, w, h) != SC_OK) rc = fail("sc_display_draw");
        else if (draw_hud(hud, w, h) != 0) rc = fail("the HUD");
        glEndQuery(GL_TIME_ELAPSED);
        if (rc == 0) rc = finish();
        double t1 = now_ms();
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        if (i < 0) continue;
        disp[i] = t1 - t0;
        gl[i] = ns * 1e-6;
    }
    if (rc == 0) *out = (bench_result){median(disp, n), median(gl, n), median(frame, REPEATS), median(render, REPEATS)};
    if (glGetError() != GL_NO_ERROR && rc == 0) rc = fail("a GL call");
    glDeleteQueries(1, &q);
    free(disp);
    return rc;
}

/* An offscreen target of the frame's size: the display draws into it as into a window. */
static int bind_target(GLuint *fbo, GLuint *tex, int w, int h)
{
    glDeleteFramebuffers(1, fbo);
    glDeleteTextures(1, tex);
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE && glGetError() == GL_NO_ERROR) return 0;
    fprintf(stderr, "slabcast-display-bench: no %dx%d framebuffer\n", w, h);
    return -1;
}

static sc_renderer *create_renderer(sc_mesh *mesh)
{
    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_CUDA;
    rd.width = 64;
    rd.height = 64;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&rd, &r) != SC_OK) {
        fail("sc_renderer_create");
        return NULL;
    }
    sc_mesh_data md = sc_mesh_view(mesh);
    sc_deform_desc dd = {0};
    dd.twist.amount = 0.9f;
    dd.wave.amount = 0.04f;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &dd) != SC_OK) {
        fail("the mesh");
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static void print_row(FILE *json, int w, int h, const char *path, const bench_result *b, int first)
{
    printf("%5dx%-5d %-8s %9.4f %9.4f %9.4f %9.4f %9.4f\n", w, h, path, b->frame_ms, b->render_ms,
           b->frame_ms - b->render_ms, b->display_ms, b->gl_ms);
    if (json)
        fprintf(json,
                "%s\n  {\"width\":%d,\"height\":%d,\"path\":\"%s\",\"display_ms\":%.4f,\"gl_ms\":%.4f,"
                "\"frame_ms\":%.4f,\"render_ms\":%.4f}",
                first ? "" : ",", w, h, path, b->display_ms, b->gl_ms, b->frame_ms, b->render_ms);
}

static int run(const bench_config *c, sc_renderer *r, app_hud *hud, FILE *json)
{
    void *ref = NULL;
    GLuint fbo = 0, tex = 0;
    int rc = 0, first = 1;
    printf("%-11s %-8s %9s %9s %9s %9s %9s   (ms)\n", "size", "path", "frame", "render", "cost", "display",
           "gl");
    for (int s = 0; rc == 0 && s < c->size_count; ++s) {
        int w = c->sizes[s][0], h = c->sizes[s][1];
        cudaFree(ref);
        if (cudaMalloc(&ref, (size_t)w * h * 4) != cudaSuccess) return fail("cudaMalloc of the reference image");
        if (bind_target(&fbo, &tex, w, h) != 0 || sc_renderer_resize(r, (uint32_t)w, (uint32_t)h) != SC_OK) rc = -1;
        static const char *const k_path_names[] = {"interop", "intr+cs", "intr+fin", "copy"};
        for (int p = 0; rc == 0 && p < 4; ++p) {
            g_sync = p < 3 ? p : 0;
            sc_display_desc dd = {w, h, 1, p == 3 ? SC_DISPLAY_CUDA_COPY : SC_DISPLAY_CUDA_INTEROP};
            sc_display *d = NULL;
            if (sc_display_create(&dd, &d) != SC_OK) {
                rc = fail("sc_display_create");
                break;
            }
            glBindFramebuffer(GL_FRAMEBUFFER, fbo);
            bench_result b;
            rc = measure(c, r, d, hud, w, h, ref, &b);
            if (rc == 0) print_row(json, w, h, k_path_names[p], &b, first);
            first = 0;
            sc_display_destroy(d);
        }
    }
    cudaFree(ref);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    return rc;
}

static int parse_sizes(const char *s, bench_config *c)
{
    c->size_count = 0;
    while (*s && c->size_count < MAX_SIZES) {
        int w = 0, h = 0, n = 0;
        if (sscanf(s, "%dx%d%n", &w, &h, &n) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384) return -1;
        c->sizes[c->size_count][0] = w;
        c->sizes[c->size_count][1] = h;
        ++c->size_count;
        s += n;
        if (*s == ',') ++s;
        else if (*s) return -1;
    }
    return *s ? -1 : 0;
}

static int parse_args(int argc, char **argv, bench_config *c)
{
    *c = (bench_config){{{1024, 1024}, {1920, 1080}, {3840, 2160}}, 3, 200, NULL};
    for (int i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--sizes") == 0 && v && parse_sizes(v, c) == 0) ++i;
        else if (strcmp(argv[i], "--frames") == 0 && v && (c->frames = atoi(v)) >= 1 && c->frames <= 100000) ++i;
        else if (strcmp(argv[i], "--json") == 0 && v) c->json = argv[++i];
        else {
            fprintf(stderr, "usage: slabcast-display-bench [--sizes WxH,...] [--frames 1..100000] [--json FILE]\n"
                            "bad or incomplete argument: %s\n", argv[i]);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_config c;
    if (parse_args(argc, argv, &c) != 0) return 2;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "slabcast-display-bench: no CUDA device\n");
        return 77;
    }
    sc_gl_context_desc gd = {0, 0, 1, 0};
    sc_gl_context *ctx = NULL;
    if (sc_gl_context_create(&gd, &ctx) != SC_OK) {
        fprintf(stderr, "slabcast-display-bench: no NVIDIA OpenGL context: %s\n", sc_last_error());
        return 77;
    }
    printf("slabcast-display-bench: %s\n", sc_gl_context_description(ctx));
    FILE *json = c.json ? fopen(c.json, "w") : NULL;
    if (c.json && !json) fprintf(stderr, "slabcast-display-bench: cannot write %s\n", c.json);
    sc_mesh mesh = {0};
    app_hud *hud = NULL;
    sc_renderer *r = NULL;
    int rc = 1;
    if (sc_mesh_default(0, &mesh) != SC_OK) fail("sc_mesh_default");
    else if (app_hud_create(&hud) != 0) fprintf(stderr, "slabcast-display-bench: HUD: %s\n", app_hud_error());
    else if ((r = create_renderer(&mesh)) != NULL) {
        if (json) fputs("[", json);
        rc = run(&c, r, hud, json) == 0 ? 0 : 1;
        if (json) fputs("\n]\n", json);
    }
    if (json && (ferror(json) | fclose(json))) { /* both: the close flushes, and may fail itself */
        fprintf(stderr, "slabcast-display-bench: writing %s failed\n", c.json);
        rc = 1;
    }
    sc_renderer_destroy(r);
    app_hud_destroy(hud);
    sc_mesh_free(&mesh);
    sc_gl_context_destroy(ctx);
    return rc;
}
