/* main.c - slabcast: loads a mesh (or builds the default one), then opens the viewer when a display
 * is there, or renders headless: per-stage times, counters, the last frame as a PNG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

static void log_to_stderr(sc_log_level level, const char *message, void *user)
{
    (void)user;
    static const char *const k_level[] = {"error", "warning", "info", "debug"};
    fprintf(stderr, "slabcast: %s: %s\n", k_level[level], message);
}

/* Loads path (OBJ, PLY, STL; ".xz" decompressed by the loader). */
static int load_mesh(const char *path, app_scene *s)
{
    const char *base = strrchr(path, '/');
    snprintf(s->mesh_name, sizeof s->mesh_name, "%s", base ? base + 1 : path);
    sc_mesh_report report = {0};
    if (sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &s->mesh, &report) != SC_OK) return -1; /* message logged */
    unsigned long long dropped = report.dropped_bad_index + report.dropped_non_finite + report.dropped_zero_area;
    if (dropped)
        fprintf(stderr, "slabcast: %s: dropped %llu of %llu faces (bad index %llu, non-finite %llu, zero area %llu)\n",
                path, dropped, (unsigned long long)report.faces_read, (unsigned long long)report.dropped_bad_index,
                (unsigned long long)report.dropped_non_finite, (unsigned long long)report.dropped_zero_area);
    return 0;
}

int main(int argc, char **argv)
{
    app_options o;
    if (app_parse_options(argc, argv, &o, stderr) != 0) return 2;
    if (o.help) {
        app_print_usage(stdout);
        return 0;
    }
    sc_set_log_callback(log_to_stderr, NULL, SC_LOG_WARNING);

    app_scene s = {0};
    if (o.mesh_path) {
        if (load_mesh(o.mesh_path, &s) != 0) return 1;
    } else {
        if (sc_mesh_default(o.resolution, &s.mesh) != SC_OK) return 1;
        snprintf(s.mesh_name, sizeof s.mesh_name, "built-in torus knot");
    }
    if (o.subdivide) {
        sc_mesh fine;
        if (sc_mesh_subdivide_midpoint(&s.mesh, o.subdivide, &fine) != SC_OK) {
            sc_mesh_free(&s.mesh);
            return 1;
        }
        sc_mesh_free(&s.mesh);
        s.mesh = fine;
        size_t len = strlen(s.mesh_name);
        snprintf(s.mesh_name + len, sizeof s.mesh_name - len, " /%u", o.subdivide);
    }
    float lo[3], hi[3];
    app_bounds(s.mesh.positions, s.mesh.vertex_count, lo, hi);
    app_orbit_frame(lo, hi, &s.orbit);
    s.deform_mask = o.deform_mask;
    s.mode = o.mode;

    sc_renderer_desc rd = {0};
    rd.backend = o.backend;
    rd.width = o.width;
    rd.height = o.height;
    rd.tile_size = o.tile_size;
    rd.num_slabs = o.num_slabs;
    rd.cull_back_faces = o.cull_back_faces;
    rd.flat_shading = o.flat_shading;
    rd.num_threads = o.threads;
    if (sc_renderer_create(&rd, &s.renderer) != SC_OK) {
        sc_mesh_free(&s.mesh);
        return 1;
    }
    s.backend = sc_renderer_backend(s.renderer);
    sc_mesh_data md = sc_mesh_view(&s.mesh);
    sc_deform_desc dd = app_deform_desc(s.deform_mask);
    sc_shading_desc sh = {0};
    sh.mode = s.mode;
    int rc = 1;
    if (sc_renderer_set_mesh(s.renderer, &md) == SC_OK && sc_renderer_set_deform(s.renderer, &dd) == SC_OK &&
        sc_renderer_set_shading(s.renderer, &sh) == SC_OK) {
        int have_display = getenv("DISPLAY") || getenv("WAYLAND_DISPLAY");
        int want_window = o.window == APP_WINDOW_ON || (o.window == APP_WINDOW_AUTO && have_display);
        rc = 2;
        if (want_window && app_viewer_available()) rc = app_run_viewer(&o, &s);
        if (rc == 2) {
            if (o.window == APP_WINDOW_ON) {
                fprintf(stderr, "slabcast: no window could be opened (%s)\n",
                        app_viewer_available() ? "no display, or no OpenGL 4.5" : "built without GLFW");
                rc = 1;
            } else {
                if (want_window) fprintf(stderr, "slabcast: no window could be opened; rendering headless\n");
                rc = app_run_headless(&o, &s);
            }
        }
    }
    sc_renderer_destroy(s.renderer);
    sc_mesh_free(&s.mesh);
    return rc;
}
