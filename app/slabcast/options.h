/* options.h - command line of the slabcast program. */
#ifndef SLABCAST_APP_OPTIONS_H
#define SLABCAST_APP_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "deform_set.h"
#include "option_limits.h"
#include "slabcast.h"

typedef enum app_window_mode { APP_WINDOW_AUTO = 0, APP_WINDOW_ON, APP_WINDOW_OFF } app_window_mode;
/* --interop: how the viewer shows CUDA frames (sc_display_cuda_path). */
typedef enum app_interop_mode { APP_INTEROP_AUTO = 0, APP_INTEROP_ON, APP_INTEROP_OFF } app_interop_mode;

/* Headless frame counts when --frames is not given: on a backend whose frames are timed on the
 * device (sc_backend_info.device_timed), and on one timed by the host's clock (slower by far). */
#define APP_HEADLESS_FRAMES_DEVICE 500
#define APP_HEADLESS_FRAMES_HOST 3

/* Image files --out can write, chosen by the file name's extension. */
typedef enum app_image_format {
    APP_IMAGE_PNG = 0,
    APP_IMAGE_JPG,
    APP_IMAGE_BMP,
    APP_IMAGE_TGA,
    APP_IMAGE_UNKNOWN
} app_image_format;

typedef struct app_options {
    const char *mesh_path;       /* the first model file (mesh_paths[0]); NULL: built-in mesh */
    const char *mesh_paths[APP_MAX_MODELS]; /* --mesh FILE (repeatable) and file names without an option */
    unsigned mesh_count;
    uint32_t resolution;         /* built-in mesh resolution; 0: library default (1M triangles) */
    uint32_t subdivide;          /* midpoint subdivision levels applied after loading (x4 triangles each) */
    uint32_t width, height;
    sc_backend backend;
    uint32_t tile_size, num_slabs;
    int cull_back_faces, flat_shading;
    unsigned deform_mask;        /* deformers on: APP_DEFORM_BIT(d) for each */
    float deform_amount;         /* scales every deformer (default 1) */
    float deform_speed;          /* animation seconds per second of wall time, viewer (default 1) */
    float heat_max;              /* tiles / tests views: the count shown hottest; 0: the renderer's default */
    sc_view_mode mode;
    int frames;                  /* 0: automatic */
    float start_time;
    float time_step;             /* seconds between frames (default 1/60) */
    const char *out_path;        /* image of the last frame; NULL: none (headless default slabcast.png) */
    app_image_format out_format; /* from out_path's extension (PNG when out_path is NULL) */
    const char *stats_json;      /* NULL: none */
    app_window_mode window;
    uint32_t threads;
    uint32_t gpus;               /* --gpus N: headless over a renderer group of N shares; 0: one renderer */
    uint64_t max_mesh_bytes;     /* loader limits; 0: the loader's default */
    uint64_t max_vertices;
    uint64_t max_triangles;
    uint64_t max_xz_ratio;
    int verbose;                 /* log info and debug lines, and keep source locations in errors */
    int has_camera;              /* --camera given: camera[] = eye xyz, target xyz, fov in degrees */
    float camera[7];
    int no_hud;                  /* --no-hud: the viewer starts with its statistics overlay off */
    const char *record_dir;      /* --record DIR: the viewer writes every frame as DIR/frame-NNNNNN.png */
    app_interop_mode interop;    /* --interop auto|on|off */
    const char *state_log;       /* --state-log FILE: the viewer appends its state as JSON after each input */
    const char *viewer_option;   /* the first viewer-only option given (--no-hud, --state-log, --interop,
                                    --deform-speed), refused with --headless; NULL: none */
    int shadows;                 /* --shadows: sc_render_options.shadows on from the first frame */
    sc_light_desc lights[SC_MAX_LIGHTS]; /* --light (repeatable), in the order given */
    unsigned light_count;        /* 0: none given (the default light when --shadows is) */
    int help;
} app_options;

/* Parses argv into *out (defaults first). Returns 0, or -1 after writing one line to `err` that
 * names the option, the value and what is valid. */
int app_parse_options(int argc, char **argv, app_options *out, FILE *err);
void app_print_usage(FILE *f);
const char *app_mode_name(sc_view_mode mode);

/* The image format of a file name's extension (case-insensitive: .png, .jpg, .jpeg, .bmp, .tga);
 * APP_IMAGE_UNKNOWN for anything else, no extension included. */
app_image_format app_image_format_of(const char *path);

#endif
