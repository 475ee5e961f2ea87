/* viewer_internal.h - the viewer's state, shared by its parts: the window and frame loop
 * (viewer_glfw.c), input through the binding table (viewer_input.c) and the overlays
 * (viewer_overlay.c). Only where GLFW is built. */
#ifndef SLABCAST_APP_VIEWER_INTERNAL_H
#define SLABCAST_APP_VIEWER_INTERNAL_H

#include "app.h"
#include "glfw_loader.h"
#include "hud.h"
#include "sc_display.h"
#include "viewer_bindings.h"

#define APP_FLY_STEP 0.1f        /* radii per key press (Shift: 5 times) */
#define APP_STATS_PERIOD 0.5     /* seconds between statistics samples (HUD, title) */
#define APP_NOTICE_SECONDS 10.0  /* a fallback's banner stays this long (the HUD keeps the line) */
#define APP_VIEWER_MODELS 256    /* model files the viewer cycles through (command line and dropped) */

typedef struct viewer {
    const app_options *options;
    app_scene *scene;
    GLFWwindow *window;
    sc_display *display;
    app_hud *hud;
    int hud_on, help_on, hud_failed;
    app_rect hud_rect;
    int fb_width, fb_height;
    int resized;
    const app_binding *drag;     /* the drag in progress, NULL: none */
    double last_x, last_y;
    int paused;
    double t_base;               /* animation time of frame 0 of the fixed-step count, or wall-clock time */
    long sim_frames;             /* frames advanced with a fixed step (--frames) */
    int save_requested;
    int screenshots;
    int deform_preset;
    float deform_amount;         /* scales the deformers (Up / Down) */
    float deform_speed;          /* animation seconds per wall-clock second (PageUp / PageDown) */
    float heat_max;              /* tiles / tests views: count shown hottest (9 / 0); 0: renderer's default */
    /* The models Tab cycles through: the command line's files (or the built-in mesh, NULL), then
     * files dropped on the window (owned copies). */
    const char *models[APP_VIEWER_MODELS];
    char *dropped[APP_VIEWER_MODELS];
    int model_count, model_index, dropped_count;
    int model_request;           /* the model to show next (Tab, a drop); -1: none */
    int shading_changed;         /* mode or heat_max changed: sc_renderer_set_shading before the next frame */
    int cull, flat, shadows;     /* sc_render_options (B, N, L) */
    int options_changed;
    int lights_changed;          /* a light moved (Ctrl+Left drag): sc_renderer_set_lights before the next frame */
    unsigned tile_size, num_slabs;
    int grid_changed;
    int vsync, fullscreen;
    int win_x, win_y, win_w, win_h;  /* the window before fullscreen */
    app_camera home;             /* R: the camera at start */
    FILE *state_log;
    const char *log_event;       /* set by a handled input; the state is logged after the next frame */
    char stats_text[1536];
    /* Statistics of the frames finished in the current sampling period (sc_renderer_poll_stats,
     * which never waits for the device), averaged for the HUD when the period ends. */
    uint64_t last_stats_frame;
    int stats_count;
    sc_frame_stats stats_sum, stats_last;
    sc_frame_stats stats_shown;  /* the period's averages the HUD shows (app_viewer_update_stats_text) */
    /* A fallback the user should know about (no GPU: cpu backend; interop failed: copy path), set once
     * by the frame loop: shown as a banner until notice_until (glfwGetTime seconds) and as a HUD line. */
    char notice[256];
    double notice_until;
    /* Overlays of the frame drawn last, in window pixels (0 size: not drawn), for the state log: the
     * colour legend of the view mode's scale (bottom-left) and the notice banner (bottom-centre). */
    app_rect legend_rect, banner_rect;
} viewer;

/* viewer_input.c */
/* Installs the key, mouse button, cursor and scroll callbacks (all dispatch through the table) and
 * the framebuffer-size one. */
void app_viewer_bind_input(viewer *v);
/* Prints "slabcast: <what>: <the library's last error>" on stderr. */
void app_viewer_report(const char *what);
/* A message for the user: on stderr, as a banner for APP_NOTICE_SECONDS and as the HUD's last line. */
void app_viewer_notice(viewer *v, const char *message);

/* viewer_overlay.c */
/* The animation time of the frame about to be rendered. */
double app_viewer_time(const viewer *v);
void app_viewer_poll_stats(viewer *v);
sc_frame_stats app_viewer_period_stats(viewer *v);
void app_viewer_update_stats_text(viewer *v, const sc_frame_stats *st, double fps, double host_ms);
/* The HUD and help panels over the image; a failure turns them off for good, said once. */
void app_viewer_draw_overlays(viewer *v);
/* --state-log: one line after a handled input. */
void app_viewer_write_state(viewer *v);

#endif
