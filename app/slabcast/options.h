/* options.h - command line of the slabcast program. */
#ifndef SLABCAST_APP_OPTIONS_H
#define SLABCAST_APP_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "slabcast.h"

typedef enum app_window_mode { APP_WINDOW_AUTO = 0, APP_WINDOW_ON, APP_WINDOW_OFF } app_window_mode;
/* --interop: how the viewer shows CUDA frames (sc_display_cuda_path). */
typedef enum app_interop_mode { APP_INTEROP_AUTO = 0, APP_INTEROP_ON, APP_INTEROP_OFF } app_interop_mode;

/* A set of deformers (--deform, the viewer's T key, slabcast-bench's --deform): bit d for deformer d
 * (sc_deformer). */
#define APP_DEFORM_BIT(deformer) (1u << (unsigned)(deformer))
#define APP_DEFORM_ALL ((1u << SC_DEFORMER_COUNT) - 1u)
/* The set the programs run when none is given. */
#define APP_DEFORM_DEFAULT (APP_DEFORM_BIT(SC_DEFORMER_TWIST) | APP_DEFORM_BIT(SC_DEFORMER_WAVE))

/* Valid ranges of the numeric options (printed by --help, enforced by app_parse_options). */
#define APP_MAX_IMAGE_SIDE 16384u      /* --size: each side 1 .. this */
#define APP_MAX_FRAMES 1000000u        /* --frames: 1 .. this */
#define APP_MAX_THREADS 1024u          /* --threads: 1 .. this */
#define APP_MIN_RESOLUTION 3u          /* --resolution (sc_mesh_default's range) */
#define APP_MAX_RESOLUTION 16384u
#define APP_MAX_SUBDIVIDE 6u           /* --subdivide: 0 .. this */
/* Frame times stay within +-APP_MAX_TIME seconds: float time keeps better than 1/100 s there, so
 * the periodic deformations stay smooth; beyond, frames would repeat or jump. */
#define APP_MAX_TIME 100000.0
#define APP_MIN_DT 1e-6                /* --dt: APP_MIN_DT .. APP_MAX_DT seconds */
#define APP_MAX_DT 3600.0
/* --max-mesh-bytes: 1 .. 2^62 (suffixes K, M, G, T: powers of 1024); counts: 1 .. 2^32 - 1. */
#define APP_MAX_MESH_BYTES (UINT64_C(1) << 62)
#define APP_MAX_MESH_COUNT UINT64_C(0xFFFFFFFF)
#define APP_MAX_MODELS 64u             /* model files on one command line (the viewer's Tab cycles them) */
#define APP_MAX_HEAT 1e9               /* --heat-max: (0, this] */
#define APP_MAX_DEFORM_AMOUNT 10.0     /* --deform-amount: 0 .. this (1: the default motion) */
#define APP_MAX_DEFORM_SPEED 100.0     /* --deform-speed: -this .. this (1: real time) */

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
/* Builds the deformation descriptor for the deformers in mask, each at its typical amount
 * (sc_deformer_typical_amount: a visible, smooth motion) times amount (1: the default motion). */
sc_deform_desc app_deform_desc(unsigned mask, float amount);

/* The image format of a file name's extension (case-insensitive: .png, .jpg, .jpeg, .bmp, .tga);
 * APP_IMAGE_UNKNOWN for anything else, no extension included. */
app_image_format app_image_format_of(const char *path);

#endif
