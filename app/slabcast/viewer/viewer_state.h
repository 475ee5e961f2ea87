/* viewer_state.h - what the viewer shows and how it is set, as plain data: written as one JSON line
 * per handled input for tests (--state-log), and the numbered screenshot files. */
#ifndef SLABCAST_APP_VIEWER_STATE_H
#define SLABCAST_APP_VIEWER_STATE_H

#include <stddef.h>
#include <stdio.h>

#include "camera.h"
#include "hud.h"
#include "slabcast.h"

typedef struct app_viewer_state {
    const char *event;           /* the binding's name that changed it */
    app_camera camera;
    sc_view_mode mode;
    unsigned tile_size, num_slabs;
    int paused;
    double time;
    int hud, help, vsync, fullscreen, cull, flat, shadows;
    unsigned light_count;        /* lights set on the renderer; 0: the shading's single light */
    sc_light_desc light;         /* the first of them (what Ctrl+Left drag moves), when light_count > 0 */
    float center[3], radius;     /* the model's framing, that the light orbits */
    unsigned deform_mask;
    float deform_amount, deform_speed, heat_max;
    const char *model;           /* the model shown: its file name, or "built-in" */
    int model_index, model_count;
    int width, height;           /* framebuffer */
    app_rect hud_rect;           /* the HUD's panels: statistics and stage graph (0 size when off) */
    app_rect legend_rect;        /* the colour legend (0 size: off, or a mode without a scale) */
    app_rect banner_rect;        /* the notice banner (0 size: none shown) */
    int screenshots;             /* written by the screenshot key */
} app_viewer_state;

/* One JSON object on one line, flushed. */
void app_viewer_state_write(FILE *f, const app_viewer_state *s);
/* Reserves the first free "slabcast-NNNN.png" (NNNN from 0001) in the current directory by creating
 * it empty, so no file is ever overwritten, not even by another viewer. 0, or -1 with a message on
 * stderr. */
int app_reserve_screenshot_path(char *path, size_t size);

#endif
