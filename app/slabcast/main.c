/* main.c - slabcast: loads the first model (scene.c; or builds the default one), then opens the viewer
 * when a display is there, or renders headless: per-stage times, counters, the last frame as an image. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "app_report.h"
#include "progress.h"
#include "scene.h"

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

/* ---- the scene --------------------------------------------------------------------------------- */

/* --camera's eye, target and fov (checked when parsed) over the model's framing. */
static void apply_camera_option(const app_options *o, app_scene *s)
{
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
    rd.stage_times = 1; /* the HUD and the summary show each stage */
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) {
        app_report_error(NULL);
        return -1;
    }
    s->backend = sc_renderer_backend(s->renderer);
    if (sc_backend_get_info(s->backend, &s->backend_info) != SC_OK) {
        app_report_error("the backend's description");
        sc_renderer_destroy(s->renderer);
        s->renderer = NULL;
        return -1;
    }
    return 0;
}

/* With --backend auto and no usable device the renderer takes a backend that runs on the host: say
 * so, and why, on stderr and in the scene (the viewer shows it). */
static void note_backend_fallback(const app_options *o, app_scene *s)
{
    if (o->backend != SC_BACKEND_DEFAULT || s->backend_info.buffer_memory != SC_MEMORY_HOST) return;
    /* The library says why its device backend is not available (not built, no device, no answer). */
    char *note = s->backend_note;
    const char *name = s->backend_info.name;
    snprintf(note, sizeof s->backend_note, "no device backend: rendering on the %s backend", name);
    for (int b = 0; b < SC_BACKEND_COUNT; ++b) {
        sc_backend_info info;
        if (sc_backend_get_info((sc_backend)b, &info) != SC_OK || info.buffer_memory != SC_MEMORY_DEVICE ||
            info.available)
            continue;
        snprintf(note, sizeof s->backend_note, "no %s backend (%.180s): rendering on the %s backend", info.name,
                 info.unavailable_reason[0] ? info.unavailable_reason : "not available", name);
        break;
    }
    fprintf(stderr, "slabcast: %s\n", note);
}

/* The first model (the first file named, or the built-in mesh), with a progress bar on a terminal;
 * a failure is said in one line, "slabcast: " and app_scene_load's reason (naming the file). */
static int load_first_model(const app_options *o, app_scene *s)
{
    s->deform_mask = o->deform_mask;
    s->mode = o->mode;
    char why[1024];
    int rc = app_scene_load(o, o->mesh_count ? o->mesh_paths[0] : NULL, app_progress_terminal_fn, NULL, s, why,
                            sizeof why);
    app_progress_terminal_end();
    if (rc != 0) fprintf(stderr, "slabcast: %s\n", why);
    return rc;
}

/* ---- window or headless ------------------------------------------------------------------------ */

static int env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

/* The viewer when a window is wanted and can open; headless otherwise. A fallback from the window
 * (no display, no GLFW, no OpenGL 4.5) is said once on stderr with its reason, the image path and the
 * viewer's options that then do nothing. */
static int run(const app_options *o, app_scene *s)
{
    if (o->window == APP_WINDOW_OFF || o->gpus) return app_run_headless(o, s);
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
    char unused[96] = "";
    if (o->viewer_option) snprintf(unused, sizeof unused, " (viewer options such as %s have no effect)", o->viewer_option);
    fprintf(stderr, "slabcast: no window (%s): rendering headless; the last frame goes to %s%s\n", why,
            o->out_path ? o->out_path : "slabcast.png", unused);
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
    sc_set_log_callback(app_log_to_stderr, NULL, o.verbose ? SC_LOG_DEBUG : SC_LOG_WARNING);
    if (check_writable("--out", o.out_path) != 0 || check_writable("--stats-json", o.stats_json) != 0 ||
        (o.record_dir && app_check_record_dir(o.record_dir) != 0))
        return 1;

    /* The renderer first: a bad grid (--size, --tile, --slabs) fails before a large mesh loads. */
    app_scene s = {0};
    if (create_renderer(&o, &s) != 0) return 1;
    note_backend_fallback(&o, &s);
    int rc = 1;
    if (load_first_model(&o, &s) == 0) {
        apply_camera_option(&o, &s);
        if (app_scene_init_lights(&o, &s) != 0) app_report_error("the lights");
        else rc = run(&o, &s);
    }
    sc_renderer_destroy(s.renderer);
    sc_mesh_free(&s.mesh);
    return rc;
}
