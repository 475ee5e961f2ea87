/* viewer_glfw.c - the interactive viewer: a GLFW window, the renderer writing straight into the
 * display's pixel buffer through CUDA-GL interop (or uploaded from the CPU backend), the frame loop
 * and the settings that need the renderer. Input: viewer_input.c; overlays: viewer_overlay.c. */
#include "app.h"

#ifdef SLABCAST_HAVE_GLFW
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "frame_stats.h"
#include "viewer_internal.h"
#include "viewer_state.h"

/* GLFW's last error: kept while the window is being opened (the caller reports it once, with the
 * fallback it takes), printed at once after that. */
static char g_glfw_error[256];
static int g_window_open;

static void on_glfw_error(int code, const char *message)
{
    snprintf(g_glfw_error, sizeof g_glfw_error, "GLFW error 0x%x: %s", (unsigned)code, message);
    if (g_window_open) fprintf(stderr, "slabcast: %s\n", g_glfw_error);
}

int app_viewer_available(char *why, size_t why_size)
{
    return app_glfw_load(why, why_size) == 0;
}

/* ---- settings that need the renderer ----------------------------------------------------------- */

/* Culling and flat shading as toggled: per-frame settings of the renderer, from the next frame on
 * (no new renderer, no mesh upload). */
static int apply_render_options(viewer *v)
{
    sc_render_options ro = {v->cull, v->flat};
    if (sc_renderer_set_options(v->scene->renderer, &ro) != SC_OK) {
        app_viewer_report("culling / flat shading");
        return -1;
    }
    return 0;
}

/* A new tile size or slab count: the renderer changes its grid in place (no new renderer, no mesh
 * upload); when that fails the grid in force stays, and so do the numbers shown. */
static void apply_grid(viewer *v, unsigned old_tile, unsigned old_slabs)
{
    if (sc_renderer_set_grid(v->scene->renderer, v->tile_size, v->num_slabs) == SC_OK) return;
    fprintf(stderr, "slabcast: tile %u x %u slabs: %s; keeping tile %u x %u slabs\n", v->tile_size, v->num_slabs,
            sc_last_error(), old_tile, old_slabs);
    v->tile_size = old_tile;
    v->num_slabs = old_slabs;
}

/* ---- output ------------------------------------------------------------------------------------ */

static int save_screenshot(viewer *v, const char *path, app_image_format format)
{
    int w = v->fb_width, h = v->fb_height;
    unsigned char *px = malloc((size_t)w * h * 4);
    if (!px) {
        fprintf(stderr, "slabcast: out of memory for a %dx%d screenshot\n", w, h);
        return -1;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    int rc = -1;
    if (glGetError() != GL_NO_ERROR) fprintf(stderr, "slabcast: %s: reading the window's pixels failed\n", path);
    else rc = app_write_image(path, format, px, (unsigned)w, (unsigned)h);
    if (rc == 0) {
        printf("slabcast: wrote %s\n", path);
        fflush(stdout);
    }
    free(px);
    return rc;
}

static void save_numbered_screenshot(viewer *v)
{
    char path[64];
    if (app_reserve_screenshot_path(path, sizeof path) == 0 && save_screenshot(v, path, APP_IMAGE_PNG) == 0)
        ++v->screenshots;
}

/* One frame into the display's pixel buffer. */
static sc_status render_into_display(viewer *v, float t, void *host_rgba)
{
    sc_frame_desc f = {0};
    f.time = t;
    if (v->scene->backend == SC_BACKEND_CUDA) {
        void *dev = NULL;
        sc_status st = sc_display_map_cuda(v->display, NULL, &dev);
        if (st != SC_OK) return st;
        f.rgba = dev;
        st = sc_renderer_render(v->scene->renderer, &f);
        sc_status st2 = sc_display_unmap_cuda(v->display, NULL);
        return st != SC_OK ? st : st2;
    }
    f.rgba = host_rgba;
    sc_status st = sc_renderer_render(v->scene->renderer, &f);
    if (st != SC_OK) return st;
    return sc_display_upload(v->display, host_rgba);
}


/* ---- the window -------------------------------------------------------------------------------- */

static int open_window(viewer *v, char *why, size_t why_size)
{
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    v->window = glfwCreateWindow((int)v->options->width, (int)v->options->height, "slabcast", NULL, NULL);
    if (!v->window) {
        snprintf(why, why_size, "no OpenGL 4.5 core window: %s", g_glfw_error[0] ? g_glfw_error : "no reason given");
        return -1;
    }
    glfwSetWindowUserPointer(v->window, v);
    glfwMakeContextCurrent(v->window);
    glfwSwapInterval(0);
    if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress)) {
        snprintf(why, why_size, "no OpenGL 4.5 core entry points in the window's context");
        glfwDestroyWindow(v->window);
        v->window = NULL;
        return -1;
    }
    return 0;
}

static int alloc_host_frame(const viewer *v, void **host_rgba)
{
    free(*host_rgba);
    *host_rgba = NULL;
    if (v->scene->backend == SC_BACKEND_CUDA) return 0;
    *host_rgba = malloc((size_t)v->fb_width * v->fb_height * 4);
    if (*host_rgba) return 0;
    fprintf(stderr, "slabcast: out of memory for a %dx%d frame\n", v->fb_width, v->fb_height);
    return -1;
}

/* Settings changed by input since the last frame: 0, or 1 (reported) / -1 (library error pending). */
static int apply_changes(viewer *v, void **host_rgba, unsigned *tile_applied, unsigned *slabs_applied)
{
    app_scene *s = v->scene;
    if (v->options_changed) {
        v->options_changed = 0;
        if (apply_render_options(v) != 0) return 1;
    }
    if (v->grid_changed) {
        v->grid_changed = 0;
        apply_grid(v, *tile_applied, *slabs_applied);
        *tile_applied = v->tile_size;
        *slabs_applied = v->num_slabs;
    }
    if (v->resized) {
        v->resized = 0;
        if (sc_renderer_resize(s->renderer, (uint32_t)v->fb_width, (uint32_t)v->fb_height) != SC_OK ||
            sc_display_resize(v->display, v->fb_width, v->fb_height) != SC_OK)
            return -1;
        if (alloc_host_frame(v, host_rgba) != 0) return 1;
    }
    return 0;
}

int app_run_viewer(const app_options *o, app_scene *s, char *why, size_t why_size)
{
    if (app_glfw_load(why, why_size) != 0) return 2;
    g_glfw_error[0] = '\0';
    g_window_open = 0;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        snprintf(why, why_size, "GLFW could not start: %s", g_glfw_error[0] ? g_glfw_error : "no reason given");
        return 2;
    }
    viewer v = {0};
    v.options = o;
    v.scene = s;
    v.cull = o->cull_back_faces;
    v.flat = o->flat_shading;
    v.hud_on = !o->no_hud;
    v.tile_size = o->tile_size ? o->tile_size : 8;
    v.num_slabs = o->num_slabs ? o->num_slabs : 16;
    v.t_base = o->start_time;
    v.home = s->camera;
    v.log_event = "start"; /* the state log's first line: the state before any input */
    if (open_window(&v, why, why_size) != 0) {
        glfwTerminate();
        return 2;
    }
    g_window_open = 1;
    int rc = 0, reported = 0; /* reported: the failure's message is already out */
    if (o->state_log && !(v.state_log = fopen(o->state_log, "a"))) {
        fprintf(stderr, "slabcast: --state-log %s: cannot open for appending\n", o->state_log);
        rc = reported = 1;
    }
    glfwGetFramebufferSize(v.window, &v.fb_width, &v.fb_height);
    app_viewer_bind_input(&v);
    app_viewer_find_gpu_name(&v);
    printf("slabcast: window %dx%d, OpenGL %s (%s), %s backend\n", v.fb_width, v.fb_height,
           (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER),
           s->backend == SC_BACKEND_CUDA ? "cuda" : "cpu");
    fflush(stdout);

    void *host_rgba = NULL;
    if (rc == 0 && (sc_renderer_resize(s->renderer, (uint32_t)v.fb_width, (uint32_t)v.fb_height) != SC_OK ||
                    sc_display_create(&(sc_display_desc){.width = v.fb_width, .height = v.fb_height,
                                                         .cuda_interop = s->backend == SC_BACKEND_CUDA},
                                      &v.display) != SC_OK))
        rc = 1;
    if (rc == 0 && alloc_host_frame(&v, &host_rgba) != 0) rc = reported = 1;

    unsigned tile_applied = v.tile_size, slabs_applied = v.num_slabs;
    double t_prev = glfwGetTime(), t_stats = t_prev - APP_STATS_PERIOD;
    int frames_done = 0, frames_since_stats = 0;
    while (rc == 0 && !glfwWindowShouldClose(v.window) && (o->frames == 0 || frames_done < o->frames)) {
        glfwPollEvents();
        int changes = apply_changes(&v, &host_rgba, &tile_applied, &slabs_applied);
        if (changes != 0) {
            rc = 1;
            reported = changes > 0;
            break;
        }
        double now = glfwGetTime();
        /* A fixed step when a frame count is given (frame i at --time + i --dt, as headless), wall time
         * otherwise. */
        if (!v.paused && !o->frames) v.t_base += now - t_prev;
        t_prev = now;
        sc_camera_desc cam = app_camera_desc(&s->camera);
        if (sc_renderer_set_camera(s->renderer, &cam) != SC_OK ||
            render_into_display(&v, (float)app_viewer_time(&v), host_rgba) != SC_OK ||
            sc_display_draw(v.display, v.fb_width, v.fb_height) != SC_OK) {
            rc = 1;
            break;
        }
        if (!v.paused && o->frames) ++v.sim_frames;
        ++frames_done;
        ++frames_since_stats;
        app_viewer_poll_stats(&v);
        if (now - t_stats >= APP_STATS_PERIOD) {
            sc_frame_stats st = app_viewer_period_stats(&v);
            double elapsed = frames_done > 1 ? now - t_stats : 0.0;
            double fps = elapsed > 0.0 ? frames_since_stats / elapsed : 0.0;
            app_viewer_update_stats_text(&v, &st, fps, fps > 0.0 ? 1e3 / fps : st.total_ms);
            char title[512];
            snprintf(title, sizeof title, "slabcast - %s - %.1f fps - frame %.3f ms - %s", s->mesh_name, fps,
                     st.frame_ms, app_mode_name(s->mode));
            glfwSetWindowTitle(v.window, title);
            t_stats = now;
            frames_since_stats = 0;
        }
        app_viewer_draw_overlays(&v);
        if (v.save_requested) {
            v.save_requested = 0;
            save_numbered_screenshot(&v);
        }
        if (o->frames && frames_done == o->frames && o->out_path &&
            save_screenshot(&v, o->out_path, o->out_format) != 0)
            rc = reported = 1;
        app_viewer_write_state(&v);
        glfwSwapBuffers(v.window);
    }
    if (rc != 0 && !reported) app_report_error("viewer stopped");
    free(host_rgba);
    app_hud_destroy(v.hud);
    sc_display_destroy(v.display);
    if (v.state_log) fclose(v.state_log);
    glfwDestroyWindow(v.window);
    glfwTerminate();
    return rc;
}

#else /* no GLFW in this build */

int app_run_viewer(const app_options *o, app_scene *s, char *why, size_t why_size)
{
    (void)o; (void)s;
    snprintf(why, why_size, "this slabcast was built without GLFW");
    return 2;
}

int app_viewer_available(char *why, size_t why_size)
{
    snprintf(why, why_size, "this slabcast was built without GLFW");
    return 0;
}

#endif
