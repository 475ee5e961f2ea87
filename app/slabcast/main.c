/* main.c - slabcast: loads a mesh (or builds the default one), then opens the viewer when a display
 * is there, or renders headless: per-stage times, counters, the last frame as an image. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

/* The CUDA runtime only where the CUDA backend is built (SLABCAST_WITH_CUDA). */
#if SLABCAST_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

/* ---- errors and log lines ---------------------------------------------------------------------- */

/* Errors the libraries report are kept, not printed, until the program gives up: then
 * app_report_error prints the last one as one line. So an error a library wraps in another, or one
 * it recovers from, is not shown, and no failure is printed twice. Warnings are printed at once.
 * The log callback may run on the CPU backend's worker threads, hence the lock. */
static pthread_mutex_t g_error_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_error[1024];

static void log_to_stderr(sc_log_level level, const char *message, void *user)
{
    (void)user;
    static const char *const k_level[] = {"error", "warning", "info", "debug"};
    char line[sizeof g_error];
    snprintf(line, sizeof line, "%s", message);
    if (level == SC_LOG_ERROR) {
        pthread_mutex_lock(&g_error_lock);
        memcpy(g_error, line, sizeof g_error);
        pthread_mutex_unlock(&g_error_lock);
        return;
    }
    fprintf(stderr, "slabcast: %s: %s\n", (unsigned)level < 4 ? k_level[level] : "log", line);
}

void app_report_error(const char *context)
{
    char msg[sizeof g_error];
    pthread_mutex_lock(&g_error_lock);
    memcpy(msg, g_error, sizeof msg);
    g_error[0] = '\0';
    pthread_mutex_unlock(&g_error_lock);
    if (!msg[0]) snprintf(msg, sizeof msg, "%s", sc_last_error());
    if (!msg[0]) snprintf(msg, sizeof msg, "failed (no reason was given)");
    if (context) fprintf(stderr, "slabcast: %s: %s\n", context, msg);
    else fprintf(stderr, "slabcast: %s\n", msg);
}

/* ---- checks before any work -------------------------------------------------------------------- */

/* The folder of an output file must exist and be writable: found now, not after the frames. */
static int check_writable(const char *option, const char *path)
{
    if (!path) return 0;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) >= sizeof dir) return 0; /* let the write itself report it */
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) == 0) return 0;
    fprintf(stderr, "slabcast: %s %s: cannot write in %s: %s\n", option, path, dir, strerror(errno));
    return -1;
}

/* --subdivide multiplies the triangles by 4 per level: refused before any memory is spent when the
 * result passes the triangle limit (the loader's, or --max-triangles) or 32-bit indices. */
static int check_subdivision(const app_options *o, uint32_t triangles)
{
    uint64_t limit = o->max_triangles ? o->max_triangles : SC_MESH_DEFAULT_MAX_TRIANGLES;
    if (limit > UINT32_MAX) limit = UINT32_MAX;
    /* At most 2^32 triangles x 4^APP_MAX_SUBDIVIDE: no overflow in 64 bits. */
    uint64_t t = (uint64_t)triangles << (2 * o->subdivide);
    if (t <= limit) return 0;
    fprintf(stderr,
            "slabcast: --subdivide %u: %u triangles would become %llu, over the limit of %llu triangles; "
            "subdivide less, or raise the limit with --max-triangles (at most 4294967295)\n",
            o->subdivide, triangles, (unsigned long long)t, (unsigned long long)limit);
    return -1;
}

/* ---- the scene --------------------------------------------------------------------------------- */

/* Loads path (OBJ, PLY, STL; ".xz" decompressed by the loader) within the limits of the options.
 * The loader names the file in its messages and warns about dropped faces itself. */
static int load_mesh(const app_options *o, app_scene *s)
{
    const char *base = strrchr(o->mesh_path, '/');
    snprintf(s->mesh_name, sizeof s->mesh_name, "%s", base ? base + 1 : o->mesh_path);
    sc_mesh_limits limits = {o->max_mesh_bytes, o->max_vertices, o->max_triangles, o->max_xz_ratio};
    sc_mesh_report report = {0};
    if (sc_mesh_load_limited(o->mesh_path, SC_MESH_FORMAT_AUTO, &limits, &s->mesh, &report) != SC_OK) {
        app_report_error(NULL);
        return -1;
    }
    return 0;
}

static int build_mesh(const app_options *o, app_scene *s)
{
    if (o->mesh_path) {
        if (load_mesh(o, s) != 0) return -1;
    } else {
        if (sc_mesh_default(o->resolution, &s->mesh) != SC_OK) {
            app_report_error("--resolution");
            return -1;
        }
        snprintf(s->mesh_name, sizeof s->mesh_name, "built-in torus knot");
    }
    if (o->subdivide) {
        if (check_subdivision(o, s->mesh.triangle_count) != 0) return -1;
        sc_mesh fine;
        if (sc_mesh_subdivide_midpoint(&s->mesh, o->subdivide, &fine) != SC_OK) {
            app_report_error("--subdivide");
            return -1;
        }
        sc_mesh_free(&s->mesh);
        s->mesh = fine;
        size_t len = strlen(s->mesh_name);
        snprintf(s->mesh_name + len, sizeof s->mesh_name - len, " /%u", o->subdivide);
    }
    return 0;
}

/* Bounds, camera framing and, for a model too large or small for float, the move that fixes it. */
static void frame_mesh(app_scene *s)
{
    app_fit fit;
    app_fit_mesh(s->mesh.positions, s->mesh.vertex_count, s->mesh.indices, s->mesh.triangle_count, &s->orbit, &fit);
    if (fit.moved)
        fprintf(stderr,
                "slabcast: %s: the model (radius %.3g around %.3g, %.3g, %.3g) is outside float's comfortable "
                "range; it is rendered moved to the origin and scaled by 2^%d\n",
                s->mesh_name, fit.radius, fit.offset[0], fit.offset[1], fit.offset[2], fit.scale_log2);
}

/* The view: the framing, or --camera's eye, target and fov (checked when parsed). */
static void set_camera(const app_options *o, app_scene *s)
{
    app_camera_from_orbit(&s->camera, &s->orbit);
    if (o->has_camera) (void)app_camera_set(&s->camera, o->camera, o->camera + 3, o->camera[6]);
}

static int create_renderer(const app_options *o, app_scene *s)
{
    sc_renderer_desc rd = {0};
    rd.backend = o->backend;
    rd.width = o->width;
    rd.height = o->height;
    rd.tile_size = o->tile_size;
    rd.num_slabs = o->num_slabs;
    rd.cull_back_faces = o->cull_back_faces;
    rd.flat_shading = o->flat_shading;
    rd.num_threads = o->threads;
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) {
        app_report_error(NULL);
        return -1;
    }
    s->backend = sc_renderer_backend(s->renderer);
    return 0;
}

/* With --backend auto and no usable GPU the renderer takes the CPU backend: say so, and why. */
static void note_backend_fallback(const app_options *o, const app_scene *s)
{
    if (o->backend != SC_BACKEND_DEFAULT || s->backend != SC_BACKEND_CPU) return;
#if !SLABCAST_WITH_CUDA
    fprintf(stderr, "slabcast: no CUDA backend (built without CUDA): rendering on the cpu backend\n");
#else
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        fprintf(stderr, "slabcast: no CUDA GPU (%s: %s): rendering on the cpu backend\n", cudaGetErrorName(e),
                cudaGetErrorString(e));
    } else if (count == 0) {
        fprintf(stderr, "slabcast: no CUDA GPU (no device found): rendering on the cpu backend\n");
    } else {
        fprintf(stderr, "slabcast: the CUDA backend is not available in this build (%d device%s found): rendering "
                        "on the cpu backend\n", count, count == 1 ? "" : "s");
    }
#endif
}

static int set_scene(const app_options *o, app_scene *s)
{
    s->deform_mask = o->deform_mask;
    s->mode = o->mode;
    sc_mesh_data md = sc_mesh_view(&s->mesh);
    if (sc_renderer_set_mesh(s->renderer, &md) != SC_OK) {
        app_report_error(o->mesh_path ? o->mesh_path : s->mesh_name);
        return -1;
    }
    sc_deform_desc dd = app_deform_desc(s->deform_mask);
    sc_shading_desc sh = {0};
    sh.mode = s->mode;
    if (sc_renderer_set_deform(s->renderer, &dd) != SC_OK || sc_renderer_set_shading(s->renderer, &sh) != SC_OK) {
        app_report_error(NULL);
        return -1;
    }
    return 0;
}

/* ---- window or headless ------------------------------------------------------------------------ */

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* The viewer when a window is wanted and can open; headless otherwise. A fallback from the window
 * (no display, no GLFW, no OpenGL 4.5) is said once on stderr with its reason and the image path. */
static int run(const app_options *o, app_scene *s)
{
    if (o->window == APP_WINDOW_OFF) return app_run_headless(o, s);
    char why[512] = "";
    int rc = 2;
    if (o->window == APP_WINDOW_AUTO && !env_set("DISPLAY") && !env_set("WAYLAND_DISPLAY"))
        snprintf(why, sizeof why, "no display: $DISPLAY and $WAYLAND_DISPLAY are unset");
    else if (app_viewer_available(why, sizeof why))
        rc = app_run_viewer(o, s, why, sizeof why);
    if (rc != 2) return rc;
    if (o->window == APP_WINDOW_ON) {
        fprintf(stderr, "slabcast: --window: no window could be opened: %s\n", why);
        return 1;
    }
    fprintf(stderr, "slabcast: no window (%s): rendering headless; the last frame goes to %s\n", why,
            o->out_path ? o->out_path : "slabcast.png");
    return app_run_headless(o, s);
}

int main(int argc, char **argv)
{
    app_options o;
    if (app_parse_options(argc, argv, &o, stderr) != 0) return 2;
    if (o.help) {
        app_print_usage(stdout);
        return 0;
    }
    sc_set_log_callback(log_to_stderr, NULL, o.verbose ? SC_LOG_DEBUG : SC_LOG_WARNING);
    if (check_writable("--out", o.out_path) != 0 || check_writable("--stats-json", o.stats_json) != 0) return 1;

    /* The renderer first: a bad grid (--size, --tile, --slabs) fails before a large mesh loads. */
    app_scene s = {0};
    if (create_renderer(&o, &s) != 0) return 1;
    note_backend_fallback(&o, &s);
    int rc = 1;
    if (build_mesh(&o, &s) == 0) {
        frame_mesh(&s);
        set_camera(&o, &s);
        if (set_scene(&o, &s) == 0) rc = run(&o, &s);
    }
    sc_renderer_destroy(s.renderer);
    sc_mesh_free(&s.mesh);
    return rc;
}
