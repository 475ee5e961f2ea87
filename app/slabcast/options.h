/* options.h - command line of the slabcast program. */
#ifndef SLABCAST_APP_OPTIONS_H
#define SLABCAST_APP_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "slabcast.h"

typedef enum app_window_mode { APP_WINDOW_AUTO = 0, APP_WINDOW_ON, APP_WINDOW_OFF } app_window_mode;

enum {
    APP_DEFORM_TWIST = 1 << 0,
    APP_DEFORM_BEND = 1 << 1,
    APP_DEFORM_WAVE = 1 << 2,
    APP_DEFORM_PULSE = 1 << 3,
    APP_DEFORM_NOISE = 1 << 4
};

typedef struct app_options {
    const char *mesh_path;       /* NULL: built-in mesh */
    uint32_t resolution;         /* built-in mesh resolution; 0: library default (1M triangles) */
    uint32_t subdivide;          /* midpoint subdivision levels applied after loading (x4 triangles each) */
    uint32_t width, height;
    sc_backend backend;
    uint32_t tile_size, num_slabs;
    int cull_back_faces, flat_shading;
    unsigned deform_mask;        /* APP_DEFORM_* */
    sc_view_mode mode;
    int frames;                  /* 0: automatic */
    float start_time;
    float time_step;             /* seconds between frames; 0: 1/60 */
    const char *out_path;        /* PNG of the last frame; NULL: none (headless default slabcast.png) */
    const char *stats_json;      /* NULL: none */
    app_window_mode window;
    uint32_t threads;
    int help;
} app_options;

/* Parses argv into *out (defaults first). Returns 0, or -1 after writing a message naming the bad
 * argument to `err`. */
int app_parse_options(int argc, char **argv, app_options *out, FILE *err);
void app_print_usage(FILE *f);
const char *app_mode_name(sc_view_mode mode);
/* Builds the deformation descriptor for the effects in mask, scaled for a visible, smooth motion. */
sc_deform_desc app_deform_desc(unsigned mask);

#endif
