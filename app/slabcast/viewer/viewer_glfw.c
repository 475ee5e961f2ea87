/* viewer_glfw.c - the interactive viewer: a GLFW window, the renderer writing straight into the
 * display's pixel buffer through CUDA-GL interop (or uploaded from the CPU backend), the frame loop
 * and the settings that need the renderer. Input: viewer_input.c; overlays: viewer_overlay.c. */
#include "app.h"

#ifdef SLABCAST_HAVE_GLFW
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_report.h"
#include "frame_stats.h"
#include "progress.h"
#include "scene.h"
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

/* Culling, flat shading and shadows as toggled: per-frame settings of the renderer, from the next
 * frame on (no new renderer, no mesh upload). */
static int apply_render_options(viewer *v)
{
    sc_render_options ro = {0};
    if (sc_renderer_get_options(v->scene->renderer, &ro) != SC_OK) { /* the others as they are */
        app_viewer_report("culling / flat shading / shadows");
        return -1;
    }
    ro.cull_back_faces = v->cull;
    ro.flat_shading = v->flat;
    ro.shadows = v->shadows;
    if (sc_renderer_set_options(v->scene->renderer, &ro) != SC_OK) {
        app_viewer_report("culling / flat shading / shadows");
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

static int save_screenshot(viewer *v, const char *path, app_image_format format, int say)
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
    if (rc == 0 && say) {
        printf("slabcast: wrote %s\n", path);
        fflush(stdout);
    }
    free(px);
    return rc;
}

static void save_numbered_screenshot(viewer *v)
{
    char path[64];
    if (app_reserve_screenshot_path(path, sizeof path) == 0 && save_screenshot(v, path, APP_IMAGE_PNG, 1) == 0)
        ++v->screenshots;
}

/* Whether the renderer's frames are in device memory (sc_backend_info.buffer_memory): then the
 * display takes them from CUDA (interop or its copy path) and no host frame is needed. */
static int frames_on_device(const viewer *v)
{
    return v->scene->backend_info.buffer_memory == SC_MEMORY_DEVICE;
}

/* One frame into the display's pixel buffer. */
static sc_status render_into_display(viewer *v, float t, void *host_rgba)
{
    sc_frame_desc f = {0};
    f.time = t;
    if (frames_on_device(v)) {
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

/* The display: CUDA frames through interop, or copied through the host when interop is off
 * (--interop off) or fails (auto: said once, on stderr by the library's log and on screen). */
static sc_status create_display(viewer *v)
{
    static const sc_display_cuda_path k_path[] = {
        [APP_INTEROP_AUTO] = SC_DISPLAY_CUDA_AUTO, [APP_INTEROP_ON] = SC_DISPLAY_CUDA_INTEROP,
        [APP_INTEROP_OFF] = SC_DISPLAY_CUDA_COPY};
    sc_display_desc d = {0};
    d.width = v->fb_width;
    d.height = v->fb_height;
    d.cuda_interop = frames_on_device(v);
    d.cuda_path = k_path[v->options->interop];
    sc_status st = sc_display_create(&d, &v->display);
    if (st != SC_OK) return st;
    const char *notice = sc_display_notice(v->display);
    if (notice) app_viewer_notice(v, notice);
    if (d.cuda_interop)
        printf("slabcast: frames reach the window through %s\n",
               sc_display_cuda_path_in_use(v->display) == SC_DISPLAY_CUDA_COPY ? "a device -> host -> texture copy"
                                                                                 : "CUDA-GL interop");
    return SC_OK;
}

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
    if (frames_on_device(v)) return 0;
    *host_rgba = malloc((size_t)v->fb_width * v->fb_height * 4);
    if (*host_rgba) return 0;
    fprintf(stderr, "slabcast: out of memory for a %dx%d frame\n", v->fb_width, v->fb_height);
    return -1;
}

/* At exit: the frame rate over the frames after the first APP_RATE_WARMUP (whole frames through the
 * window: render, show, overlays, swap), for scripts and for the record. */
#define APP_RATE_WARMUP 10
static void print_rate(const viewer *v, int frames, double seconds, int counted)
{
    if (counted < 1 || !(seconds > 0.0)) return;
    printf("slabcast: %d frames in the window, the last %d in %.3f s: %.1f fps, %.3f ms a frame (vsync %s, %dx%d)\n",
           frames, counted, seconds, counted / seconds, 1e3 * seconds / counted, v->vsync ? "on" : "off",
           v->fb_width, v->fb_height);
    fflush(stdout);
}

/* ---- models ------------------------------------------------------------------------------------ */

/* A load in the window: after APP_PROGRESS_DELAY (progress.h) seconds, a bar with what is happening, redrawn at
 * most 20 times a second; closing the window (Esc) cancels the load. */
typedef struct load_progress {
    viewer *v;
    double start, last_draw;
} load_progress;

static void draw_progress(viewer *v, const char *what, double fraction)
{
    int w = v->fb_width, h = v->fb_height;
    int bw = w * 3 / 5, bh = h / 40 > 6 ? h / 40 : 6, bx = (w - bw) / 2, by = h / 2 - bh / 2;
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, w, h);
    glClearColor(0.08f, 0.08f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(bx - 2, by - 2, bw + 4, bh + 4);
    glClearColor(0.6f, 0.6f, 0.65f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glScissor(bx, by, bw, bh);
    glClearColor(0.15f, 0.15f, 0.18f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    int done = fraction >= 0.0 ? (int)(bw * (fraction > 1.0 ? 1.0 : fraction)) : 0;
    if (done > 0) {
        glScissor(bx, by, done, bh);
        glClearColor(0.25f, 0.55f, 0.95f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
    char text[320];
    if (fraction >= 0.0) snprintf(text, sizeof text, "%s  %d%%", what, (int)(fraction * 100.0));
    else snprintf(text, sizeof text, "%s", what);
    int scale = w >= 1200 ? 2 : 1;
    if (!v->hud_failed && (v->hud || app_hud_create(&v->hud) == 0))
        (void)app_hud_draw(v->hud, text, bx, h - by + 8, scale, w, h, NULL);
    while (glGetError() != GL_NO_ERROR) {}
    glfwSwapBuffers(v->window);
}

static int on_load_progress(void *user, const char *what, double fraction)
{
    load_progress *p = user;
    double now = glfwGetTime();
    if (what[0] && now - p->start >= APP_PROGRESS_DELAY && now - p->last_draw >= 0.05) {
        p->last_draw = now;
        draw_progress(p->v, what, fraction);
        glfwPollEvents();
    }
    app_progress_terminal(what, fraction, now - p->start);
    return glfwWindowShouldClose(p->v->window);
}

/* Tab / Shift+Tab / a drop: the model requested. A failure keeps the model shown and says
 * why on screen and on stderr. The grid, mode, deformers and their settings stay. */
static void switch_model(viewer *v)
{
    int next = v->model_request;
    v->model_request = -1;
    if (next < 0 || next >= v->model_count || next == v->model_index) return;
    load_progress lp = {v, glfwGetTime(), 0.0};
    char why[512] = "";
    int rc = app_scene_load(v->options, v->models[next], on_load_progress, &lp, v->scene, why, sizeof why);
    app_progress_terminal_end();
    if (rc != 0) {
        app_viewer_notice(v, why);
        return;
    }
    v->model_index = next;
    v->home = v->scene->camera;
    sc_deform_desc d = app_deform_desc(v->scene->deform_mask, v->deform_amount);
    if (sc_renderer_set_deform(v->scene->renderer, &d) != SC_OK) app_viewer_report("deformers");
    v->shading_changed = 1;
}

/* The models Tab cycles through: the command line's files, or the built-in mesh. */
static void init_models(viewer *v)
{
    const app_options *o = v->options;
    v->model_count = o->mesh_count ? (int)o->mesh_count : 1;
    for (int i = 0; i < v->model_count; ++i) v->models[i] = o->mesh_count ? o->mesh_paths[i] : NULL;
}

/* --record DIR: every frame shown, numbered from 1. */
static int record_frame(viewer *v, long index)
{
    char path[4096];
    if (app_record_path(v->options->record_dir, index, path, sizeof path) != 0) return -1;
    return save_screenshot(v, path, APP_IMAGE_PNG, 0);
}

/* Settings changed by input since the last frame: 0, or 1 (reported) / -1 (library error pending). */
static int apply_changes(viewer *v, void **host_rgba, unsigned *tile_applied, unsigned *slabs_applied)
{
    app_scene *s = v->scene;
    if (v->options_changed) {
        v->options_changed = 0;
        if (apply_render_options(v) != 0) return 1;
    }
    if (v->lights_changed) {
        v->lights_changed = 0;
        if (app_scene_apply_lights(s) != 0) app_viewer_report("the light");
    }
    if (v->shading_changed) {
        v->shading_changed = 0;
        sc_shading_desc sh = {0};
        sh.mode = s->mode;
        sh.heat_max = v->heat_max;
        if (sc_renderer_set_shading(s->renderer, &sh) != SC_OK) app_viewer_report("view mode");
    }
    if (v->model_request >= 0) switch_model(v);
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
    v.shadows = o->shadows;
    v.hud_on = !o->no_hud;
    v.tile_size = o->tile_size ? o->tile_size : 8;
    v.num_slabs = o->num_slabs ? o->num_slabs : 16;
    v.t_base = o->start_time;
    v.home = s->camera;
    v.deform_amount = o->deform_amount;
    v.deform_speed = o->deform_speed;
    v.heat_max = o->heat_max;
    init_models(&v);
    v.model_request = -1;
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
    printf("slabcast: window %dx%d, OpenGL %s (%s), %s backend\n", v.fb_width, v.fb_height,
           (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER),
           s->backend_info.name);
    fflush(stdout);

    void *host_rgba = NULL;
    if (rc == 0 && (sc_renderer_resize(s->renderer, (uint32_t)v.fb_width, (uint32_t)v.fb_height) != SC_OK ||
                    create_display(&v) != SC_OK))
        rc = 1;
    if (rc == 0 && alloc_host_frame(&v, &host_rgba) != 0) rc = reported = 1;
    if (rc == 0 && s->backend_note[0]) app_viewer_notice(&v, s->backend_note); /* the automatic choice fell back */

    unsigned tile_applied = v.tile_size, slabs_applied = v.num_slabs;
    double t_prev = glfwGetTime(), t_stats = t_prev - APP_STATS_PERIOD, t_counted = t_prev;
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
        if (!v.paused && !o->frames) v.t_base += (now - t_prev) * v.deform_speed;
        t_prev = now;
        sc_camera_desc cam = app_camera_desc(&s->camera);
        if (sc_renderer_set_camera(s->renderer, &cam) != SC_OK ||
            render_into_display(&v, (float)app_viewer_time(&v), host_rgba) != SC_OK ||
            sc_display_draw(v.display, v.fb_width, v.fb_height) != SC_OK) {
            rc = 1;
            break;
        }
        if (!v.paused && o->frames) ++v.sim_frames;
        if (++frames_done == APP_RATE_WARMUP) t_counted = glfwGetTime();
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
        if (o->record_dir && record_frame(&v, frames_done) != 0) {
            rc = reported = 1;
            break;
        }
        if (o->frames && frames_done == o->frames && o->out_path &&
            save_screenshot(&v, o->out_path, o->out_format, 1) != 0)
            rc = reported = 1;
        app_viewer_write_state(&v);
        glfwSwapBuffers(v.window);
    }
    if (rc != 0 && !reported) app_report_error("viewer stopped");
    if (rc == 0) print_rate(&v, frames_done, glfwGetTime() - t_counted, frames_done - APP_RATE_WARMUP);
    if (rc == 0 && o->record_dir && frames_done > 0)
        printf("slabcast: wrote %d frames to %s/frame-NNNNNN.png\n", frames_done, o->record_dir);
    free(host_rgba);
    for (int i = 0; i < v.dropped_count; ++i) free(v.dropped[i]);
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
