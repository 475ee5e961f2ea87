/* viewer_glfw.c - the interactive viewer: a GLFW window, the renderer writing straight into the
 * display's pixel buffer through CUDA-GL interop (or uploaded from the CPU backend), orbit controls. */
#include "app.h"

#ifdef SLABCAST_HAVE_GLFW
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "frame_stats.h"
#include "glfw_loader.h"
#include "sc_display.h"

typedef struct viewer {
    const app_options *options;
    app_scene *scene;
    GLFWwindow *window;
    sc_display *display;
    int fb_width, fb_height;
    int resized;
    int dragging;
    double last_x, last_y;
    int paused;
    int save_requested;
    int deform_preset;
    int cull, flat;
    int options_changed;
} viewer;

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

static const unsigned k_deform_presets[] = {
    APP_DEFORM_TWIST | APP_DEFORM_WAVE, APP_DEFORM_TWIST, APP_DEFORM_BEND, APP_DEFORM_WAVE, APP_DEFORM_PULSE,
    APP_DEFORM_NOISE, APP_DEFORM_TWIST | APP_DEFORM_BEND | APP_DEFORM_WAVE | APP_DEFORM_PULSE | APP_DEFORM_NOISE, 0,
};

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode; (void)mods;
    viewer *v = glfwGetWindowUserPointer(win);
    if (action != GLFW_PRESS) return;
    if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(win, 1);
    else if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + SC_VIEW_MODE_COUNT) {
        v->scene->mode = (sc_view_mode)(key - GLFW_KEY_1);
        sc_shading_desc sh = {0};
        sh.mode = v->scene->mode;
        sc_renderer_set_shading(v->scene->renderer, &sh);
    } else if (key == GLFW_KEY_SPACE) v->paused = !v->paused;
    else if (key == GLFW_KEY_S) v->save_requested = 1;
    else if (key == GLFW_KEY_D) {
        v->deform_preset = (v->deform_preset + 1) % (int)(sizeof k_deform_presets / sizeof k_deform_presets[0]);
        v->scene->deform_mask = k_deform_presets[v->deform_preset];
        sc_deform_desc d = app_deform_desc(v->scene->deform_mask);
        sc_renderer_set_deform(v->scene->renderer, &d);
    } else if (key == GLFW_KEY_C) { v->cull = !v->cull; v->options_changed = 1; }
    else if (key == GLFW_KEY_F) { v->flat = !v->flat; v->options_changed = 1; }
}

static void on_mouse_button(GLFWwindow *win, int button, int action, int mods)
{
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(win);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        v->dragging = action == GLFW_PRESS;
        glfwGetCursorPos(win, &v->last_x, &v->last_y);
    }
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(win);
    if (!v->dragging) return;
    app_orbit_rotate(&v->scene->orbit, (float)(v->last_x - x) * 0.008f, (float)(y - v->last_y) * 0.008f);
    v->last_x = x;
    v->last_y = y;
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(win);
    app_orbit_zoom(&v->scene->orbit, dy > 0 ? 0.9f : 1.0f / 0.9f);
}

static void on_framebuffer_size(GLFWwindow *win, int w, int h)
{
    viewer *v = glfwGetWindowUserPointer(win);
    if (w > 0 && h > 0 && (w != v->fb_width || h != v->fb_height)) {
        v->fb_width = w;
        v->fb_height = h;
        v->resized = 1;
    }
}

/* Culling and flat shading as toggled: per-frame settings of the renderer, from the next frame on
 * (no new renderer, no mesh upload). */
static int apply_render_options(viewer *v)
{
    sc_render_options ro = {v->cull, v->flat};
    if (sc_renderer_set_options(v->scene->renderer, &ro) != SC_OK) {
        fprintf(stderr, "slabcast: %s\n", sc_last_error());
        return -1;
    }
    return 0;
}

static int save_screenshot(viewer *v, const char *path)
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
    app_image_format format = v->options->out_path ? v->options->out_format : APP_IMAGE_PNG;
    int rc = -1;
    if (glGetError() != GL_NO_ERROR) fprintf(stderr, "slabcast: %s: reading the window's pixels failed\n", path);
    else rc = app_write_image(path, format, px, (unsigned)w, (unsigned)h);
    if (rc == 0) printf("slabcast: wrote %s\n", path);
    free(px);
    return rc;
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
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    viewer v = {0};
    v.options = o;
    v.scene = s;
    v.cull = o->cull_back_faces;
    v.flat = o->flat_shading;
    v.window = glfwCreateWindow((int)o->width, (int)o->height, "slabcast", NULL, NULL);
    if (!v.window) {
        snprintf(why, why_size, "no OpenGL 4.5 core window: %s", g_glfw_error[0] ? g_glfw_error : "no reason given");
        glfwTerminate();
        return 2;
    }
    glfwSetWindowUserPointer(v.window, &v);
    glfwMakeContextCurrent(v.window);
    glfwSwapInterval(0);
    if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress)) {
        snprintf(why, why_size, "no OpenGL 4.5 core entry points in the window's context");
        glfwDestroyWindow(v.window);
        glfwTerminate();
        return 2;
    }
    g_window_open = 1;
    int rc = 0;
    glfwGetFramebufferSize(v.window, &v.fb_width, &v.fb_height);
    glfwSetKeyCallback(v.window, on_key);
    glfwSetMouseButtonCallback(v.window, on_mouse_button);
    glfwSetCursorPosCallback(v.window, on_cursor);
    glfwSetScrollCallback(v.window, on_scroll);
    glfwSetFramebufferSizeCallback(v.window, on_framebuffer_size);
    printf("slabcast: window %dx%d, OpenGL %s (%s), %s backend\n", v.fb_width, v.fb_height,
           (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER),
           s->backend == SC_BACKEND_CUDA ? "cuda" : "cpu");

    void *host_rgba = NULL;
    if (rc == 0 && (sc_renderer_resize(s->renderer, (uint32_t)v.fb_width, (uint32_t)v.fb_height) != SC_OK ||
                    sc_display_create(&(sc_display_desc){.width = v.fb_width, .height = v.fb_height,
                                                         .cuda_interop = s->backend == SC_BACKEND_CUDA},
                                      &v.display) != SC_OK))
        rc = 1;
    int reported = 0; /* the failure's message is already out */
    if (rc == 0 && s->backend != SC_BACKEND_CUDA && !(host_rgba = malloc((size_t)v.fb_width * v.fb_height * 4))) {
        fprintf(stderr, "slabcast: out of memory for a %dx%d frame\n", v.fb_width, v.fb_height);
        rc = reported = 1;
    }

    double t_sim = o->start_time, t_prev = glfwGetTime(), t_title = t_prev;
    int frames_done = 0, frames_since_title = 0;
    while (rc == 0 && !glfwWindowShouldClose(v.window) && (o->frames == 0 || frames_done < o->frames)) {
        glfwPollEvents();
        if (v.options_changed) {
            v.options_changed = 0;
            if (apply_render_options(&v) != 0) { rc = 1; break; }
        }
        if (v.resized) {
            v.resized = 0;
            free(host_rgba);
            host_rgba = NULL;
            if (sc_renderer_resize(s->renderer, (uint32_t)v.fb_width, (uint32_t)v.fb_height) != SC_OK ||
                sc_display_resize(v.display, v.fb_width, v.fb_height) != SC_OK) {
                rc = 1;
                break;
            }
            if (s->backend != SC_BACKEND_CUDA && !(host_rgba = malloc((size_t)v.fb_width * v.fb_height * 4))) {
                fprintf(stderr, "slabcast: out of memory for a %dx%d frame\n", v.fb_width, v.fb_height);
                rc = reported = 1;
                break;
            }
        }
        double now = glfwGetTime();
        /* A fixed step when a frame count is given (reproducible runs), wall time otherwise. */
        if (!v.paused) t_sim += o->frames ? o->time_step : now - t_prev;
        t_prev = now;
        sc_camera_desc cam = app_orbit_camera(&s->orbit);
        if (sc_renderer_set_camera(s->renderer, &cam) != SC_OK ||
            render_into_display(&v, (float)t_sim, host_rgba) != SC_OK ||
            sc_display_draw(v.display, v.fb_width, v.fb_height) != SC_OK) {
            rc = 1;
            break;
        }
        if (v.save_requested) {
            v.save_requested = 0;
            save_screenshot(&v, o->out_path ? o->out_path : "slabcast.png");
        }
        ++frames_done;
        ++frames_since_title;
        if (o->frames && frames_done == o->frames && o->out_path && save_screenshot(&v, o->out_path) != 0)
            rc = reported = 1;
        glfwSwapBuffers(v.window);
        if (now - t_title > 0.5) {
            sc_frame_stats st;
            if (sc_renderer_stats(s->renderer, &st) == SC_OK) {
                char title[512];
                snprintf(title, sizeof title,
                         "slabcast - %s - %.1f fps - frame %.3f ms (raycast %.3f) - %llu refs - %s", s->mesh_name,
                         frames_since_title / (now - t_title), st.frame_ms, st.stage_ms[SC_STAGE_RAYCAST],
                         (unsigned long long)st.references, app_mode_name(s->mode));
                glfwSetWindowTitle(v.window, title);
            }
            t_title = now;
            frames_since_title = 0;
        }
    }
    if (rc != 0 && !reported) app_report_error("viewer stopped");
    free(host_rgba);
    sc_display_destroy(v.display);
    glfwDestroyWindow(v.window);
    glfwTerminate();
    return rc;
}

#else /* no GLFW in this build */

int app_viewer_available(char *why, size_t why_size)
{
    snprintf(why, why_size, "this slabcast was built without GLFW");
    return 0;
}

int app_run_viewer(const app_options *o, app_scene *s, char *why, size_t why_size)
{
    (void)o; (void)s;
    snprintf(why, why_size, "this slabcast was built without GLFW");
    return 2;
}

#endif
