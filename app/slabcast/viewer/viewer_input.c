/* viewer_input.c - the viewer's keys and mouse: every event goes through the binding table
 * (viewer_bindings.h) to one action. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lights.h"
#include "scene.h"
#include "viewer_internal.h"

/* The table's codes are GLFW's. */
_Static_assert(APP_KEY_ESCAPE == GLFW_KEY_ESCAPE && APP_KEY_F1 == GLFW_KEY_F1 && APP_KEY_F11 == GLFW_KEY_F11 &&
                   APP_KEY_LEFT == GLFW_KEY_LEFT && APP_KEY_RIGHT == GLFW_KEY_RIGHT &&
                   APP_KEY_SLASH == GLFW_KEY_SLASH && APP_KEY_EQUAL == GLFW_KEY_EQUAL &&
                   APP_KEY_KP_ADD == GLFW_KEY_KP_ADD && APP_KEY_KP_SUBTRACT == GLFW_KEY_KP_SUBTRACT &&
                   APP_KEY_LEFT_BRACKET == GLFW_KEY_LEFT_BRACKET && APP_KEY_COMMA == GLFW_KEY_COMMA &&
                   APP_KEY_1 == GLFW_KEY_1 && APP_KEY_1 + 7 == GLFW_KEY_8 && 'W' == GLFW_KEY_W &&
                   APP_KEY_SPACE == GLFW_KEY_SPACE,
               "viewer_bindings.h's key codes must be GLFW's");
_Static_assert(APP_MOD_SHIFT == GLFW_MOD_SHIFT && APP_MOD_CONTROL == GLFW_MOD_CONTROL &&
                   APP_BUTTON_RIGHT == GLFW_MOUSE_BUTTON_RIGHT && APP_BUTTON_MIDDLE == GLFW_MOUSE_BUTTON_MIDDLE,
               "viewer_bindings.h's buttons and modifiers must be GLFW's");

/* The T key's sets of deformers, in turn: the default set, each deformer alone (in sc_deformer's
 * order), all of them, none. Counted from the library, so a deformer added to it joins the cycle. */
enum { DEFORM_PRESETS = SC_DEFORMER_COUNT + 3 };

static unsigned deform_preset(int i)
{
    if (i == 0) return APP_DEFORM_DEFAULT;
    if (i <= SC_DEFORMER_COUNT) return APP_DEFORM_BIT(i - 1);
    return i == SC_DEFORMER_COUNT + 1 ? APP_DEFORM_ALL : 0u;
}

void app_viewer_report(const char *what)
{
    fprintf(stderr, "slabcast: %s: %s\n", what, sc_last_error());
}

void app_viewer_notice(viewer *v, const char *message)
{
    snprintf(v->notice, sizeof v->notice, "%s", message);
    v->notice_until = glfwGetTime() + APP_NOTICE_SECONDS;
    fprintf(stderr, "slabcast: %s\n", message);
}

/* ---- actions ----------------------------------------------------------------------------------- */

/* F: the whole model in view, looking the same way with the same field of view. */
static void frame_model(app_camera *c)
{
    float dir[3], len = 0.0f;
    for (int k = 0; k < 3; ++k) {
        dir[k] = c->eye[k] - c->target[k];
        len += dir[k] * dir[k];
    }
    len = sqrtf(len);
    if (!(len > 0.0f)) return;
    float dist = c->radius / sinf(0.5f * c->fovy);
    for (int k = 0; k < 3; ++k) {
        c->target[k] = c->center[k];
        c->eye[k] = c->center[k] + dir[k] / len * dist;
    }
}

static void toggle_fullscreen(viewer *v)
{
    if (!v->fullscreen) {
        GLFWmonitor *m = glfwGetPrimaryMonitor();
        const GLFWvidmode *mode = m ? glfwGetVideoMode(m) : NULL;
        if (!mode) {
            fprintf(stderr, "slabcast: fullscreen: no monitor found\n");
            return;
        }
        glfwGetWindowPos(v->window, &v->win_x, &v->win_y);
        glfwGetWindowSize(v->window, &v->win_w, &v->win_h);
        glfwSetWindowMonitor(v->window, m, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(v->window, NULL, v->win_x, v->win_y, v->win_w, v->win_h, 0);
    }
    v->fullscreen = glfwGetWindowMonitor(v->window) != NULL;
}

static unsigned scaled(unsigned value, int up, unsigned lo, unsigned hi)
{
    unsigned n = up > 0 ? value * 2 : value / 2;
    return n < lo ? lo : (n > hi ? hi : n);
}

static void apply_deform(viewer *v)
{
    sc_deform_desc d = app_deform_desc(v->scene->deform_mask, v->deform_amount);
    if (sc_renderer_set_deform(v->scene->renderer, &d) != SC_OK) app_viewer_report("deformers");
}

/* 9 / 0: the count shown hottest in the tiles and tests views, halved or doubled from the one in
 * force (the renderer's default until first changed). */
static void change_heat_max(viewer *v, int up)
{
    sc_view_legend lg;
    if (sc_renderer_get_view_legend(v->scene->renderer, &lg) != SC_OK || !lg.has_scale || lg.discrete) return;
    float m = (v->heat_max > 0.0f ? v->heat_max : lg.max_value) * (up > 0 ? 2.0f : 0.5f);
    if (m >= 1.0f && m <= (float)APP_MAX_HEAT) v->heat_max = m;
    v->shading_changed = 1;
}

/* L and Ctrl+Left drag need a light: with none set yet, the default one (placed from the framing,
 * and again from each model loaded after). 0, or -1 (said on stderr). */
static int ensure_light(viewer *v)
{
    if (v->scene->light_count > 0) return 0;
    if (app_scene_use_default_light(v->scene) == 0) return 0;
    app_viewer_report("the default light");
    return -1;
}

/* L: shadows on / off from the next frame (sc_render_options.shadows). */
static void toggle_shadows(viewer *v)
{
    if (!v->shadows && ensure_light(v) != 0) return;
    v->shadows = !v->shadows;
    v->options_changed = 1;
}

/* Ctrl+Left drag: the first light orbits the framing centre (a point light at its distance, a
 * directional light's direction turns), as the camera orbits under a plain drag; the light follows
 * the cursor on the side of the model that faces the viewer. Applied once before the next frame. */
static void move_light(viewer *v, float dx, float dy)
{
    if (ensure_light(v) != 0) return;
    app_light_orbit(&v->scene->lights[0], v->scene->orbit.center, dx * 0.008f, -dy * 0.008f);
    v->lights_changed = 1;
}

static void run_action(viewer *v, const app_binding *b, int mods)
{
    app_scene *s = v->scene;
    int shift = (mods & APP_MOD_SHIFT) != 0;
    switch (b->action) {
    case APP_ACT_QUIT: glfwSetWindowShouldClose(v->window, 1); break;
    case APP_ACT_HELP: v->help_on = !v->help_on; break;
    case APP_ACT_HUD: v->hud_on = !v->hud_on; break;
    case APP_ACT_MODE: s->mode = (sc_view_mode)b->param; v->shading_changed = 1; break;
    case APP_ACT_HEAT_MAX: change_heat_max(v, b->param); break;
    case APP_ACT_DEFORM_AMOUNT: {
        float a = v->deform_amount * (b->param > 0 ? 1.25f : 0.8f);
        v->deform_amount = a > (float)APP_MAX_DEFORM_AMOUNT ? (float)APP_MAX_DEFORM_AMOUNT : a;
        apply_deform(v);
        break;
    }
    case APP_ACT_DEFORM_SPEED: {
        float sp = v->deform_speed * (b->param > 0 ? 2.0f : 0.5f);
        if (fabsf(sp) <= (float)APP_MAX_DEFORM_SPEED && fabsf(sp) >= 1.0f / 64.0f) v->deform_speed = sp;
        break;
    }
    case APP_ACT_MODEL: {
        int n = v->model_count;
        v->model_request = ((v->model_index + b->param) % n + n) % n;
        break;
    }
    case APP_ACT_PAUSE: v->paused = !v->paused; break;
    case APP_ACT_STEP:
        v->paused = 1;
        v->t_base += b->param * (shift ? 1.0 : (double)v->options->time_step);
        break;
    case APP_ACT_DEFORM_NEXT: {
        v->deform_preset = (v->deform_preset + 1) % DEFORM_PRESETS;
        s->deform_mask = deform_preset(v->deform_preset);
        apply_deform(v);
        break;
    }
    case APP_ACT_CULL: v->cull = !v->cull; v->options_changed = 1; break;
    case APP_ACT_FLAT: v->flat = !v->flat; v->options_changed = 1; break;
    case APP_ACT_SHADOWS: toggle_shadows(v); break;
    case APP_ACT_SCREENSHOT: v->save_requested = 1; break;
    case APP_ACT_FRAME: frame_model(&s->camera); break;
    case APP_ACT_RESET: s->camera = v->home; break;
    case APP_ACT_FOV: app_camera_add_fov(&s->camera, 5.0f * (float)b->param); break;
    case APP_ACT_PRINT_CAMERA: {
        char line[256];
        app_camera_format(&s->camera, line, sizeof line);
        printf("%s\n", line);
        fflush(stdout);
        break;
    }
    case APP_ACT_FLY: {
        float step = APP_FLY_STEP * (shift ? 5.0f : 1.0f);
        static const float k_dir[6][3] = {{0, 0, 1}, {0, 0, -1}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
        const float *d = k_dir[b->param];
        app_camera_fly(&s->camera, d[0] * step, d[1] * step, d[2] * step);
        break;
    }
    case APP_ACT_TILE: v->tile_size = scaled(v->tile_size, b->param, 1, SC_MAX_TILE_SIZE); v->grid_changed = 1; break;
    case APP_ACT_SLABS: v->num_slabs = scaled(v->num_slabs, b->param, 1, SC_MAX_SLABS); v->grid_changed = 1; break;
    case APP_ACT_VSYNC: v->vsync = !v->vsync; glfwSwapInterval(v->vsync); break;
    case APP_ACT_FULLSCREEN: toggle_fullscreen(v); break;
    case APP_ACT_ORBIT: case APP_ACT_PAN: case APP_ACT_ZOOM: case APP_ACT_LIGHT: break; /* mouse: the callbacks */
    }
    v->log_event = b->name;
}

/* ---- input callbacks: all through the binding table -------------------------------------------- */

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    viewer *v = glfwGetWindowUserPointer(win);
    if (action == GLFW_RELEASE) return;
    const app_binding *b = app_binding_for_key(key, mods);
    if (!b) return;
    /* Held keys repeat only where repeating means something (moving, stepping, zooming the fov). */
    if (action == GLFW_REPEAT && b->action != APP_ACT_FLY && b->action != APP_ACT_STEP && b->action != APP_ACT_FOV)
        return;
    run_action(v, b, mods);
}

static void on_mouse_button(GLFWwindow *win, int button, int action, int mods)
{
    viewer *v = glfwGetWindowUserPointer(win);
    if (action == GLFW_PRESS && !v->drag) {
        v->drag = app_binding_for_drag(button, mods);
        glfwGetCursorPos(win, &v->last_x, &v->last_y);
    } else if (action == GLFW_RELEASE && v->drag && v->drag->code == button) {
        v->log_event = v->drag->name;
        v->drag = NULL;
    }
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(win);
    if (!v->drag) return;
    float dx = (float)(x - v->last_x), dy = (float)(y - v->last_y);
    if (v->drag->action == APP_ACT_ORBIT) {
        app_camera_orbit(&v->scene->camera, -dx * 0.008f, dy * 0.008f);
    } else if (v->drag->action == APP_ACT_PAN) {
        float h = (float)(v->fb_height > 0 ? v->fb_height : 1);
        app_camera_pan(&v->scene->camera, -dx / h, dy / h); /* the model follows the cursor */
    } else if (v->drag->action == APP_ACT_LIGHT) {
        move_light(v, dx, dy);
    }
    v->last_x = x;
    v->last_y = y;
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(win);
    if (dy == 0.0) return;
    app_camera_zoom(&v->scene->camera, dy > 0 ? 0.9f : 1.0f / 0.9f);
    size_t n = 0;
    const app_binding *all = app_bindings(&n);
    for (size_t i = 0; i < n; ++i)
        if (all[i].kind == APP_INPUT_SCROLL) v->log_event = all[i].name;
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

/* Files dropped on the window join the models Tab cycles through; the first of them is shown next. */
static void on_drop(GLFWwindow *win, int count, const char **paths)
{
    viewer *v = glfwGetWindowUserPointer(win);
    int first = -1;
    for (int i = 0; i < count; ++i) {
        if (v->model_count >= APP_VIEWER_MODELS) {
            fprintf(stderr, "slabcast: %s: not added, the viewer holds at most %d models\n", paths[i],
                    APP_VIEWER_MODELS);
            continue;
        }
        char *copy = strdup(paths[i]);
        if (!copy) continue;
        v->dropped[v->dropped_count++] = copy;
        if (first < 0) first = v->model_count;
        v->models[v->model_count++] = copy;
    }
    if (first >= 0) {
        v->model_request = first;
        v->log_event = "drop";
    }
}

void app_viewer_bind_input(viewer *v)
{
    glfwSetDropCallback(v->window, on_drop);
    glfwSetKeyCallback(v->window, on_key);
    glfwSetMouseButtonCallback(v->window, on_mouse_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
    glfwSetFramebufferSizeCallback(v->window, on_framebuffer_size);
}
