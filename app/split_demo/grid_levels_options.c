/* grid_levels_options.c - the options of `split-demo grid-levels` (demo_grid_levels.cu): the usage
 * text, the parsers of --size, --camera and the floats, and gl_parse_options (grid_levels_options.h).
 * Plain C11. */
#include "grid_levels_options.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "grid_levels_host.h"
#include "slabcast.h"
#include "split.h"

#define W "grid-levels" /* the subcommand, in messages */

enum {
    MAX_SIDE = 16384    /* --size: each side at most */
};

/* ---- options -------------------------------------------------------------------------------- */

static void grid_levels_usage(FILE *f)
{
    fprintf(f,
            "usage: split-demo grid-levels [MODEL] [--size WxH] [--tile N] [--slabs S] [--time T]\n"
            "                              [--camera ex,ey,ez,tx,ty,tz,fov] [--out DIR] [--runs R]\n"
            "  one frame of MODEL rendered by slabcast (CUDA), then its grid built by the demo's kernels\n"
            "  two ways (ours: multisplit by tile + segmented split by slab; the thesis's: split by tile\n"
            "  column, segmented split by row, segmented split by slab), both checked cell by cell against\n"
            "  a CPU reference; a PNG per level and a table of counts and times per level\n"
            "  MODEL             a model file, in any format slabcast reads (.xz allowed); default: the built-in mesh\n"
            "  --size WxH        target size, each side 1 .. %d (default 1024x1024)\n"
            "  --tile N          tile edge in pixels, 1 .. %d (default 8); at most %d tiles across and up\n"
            "  --slabs S         depth slabs, 1 .. %d (default 16)\n"
            "  --time T          deformer time in seconds (default 1: the full twist of 1 radian per\n"
            "                    bounding radius about y, 0.25 Hz)\n"
            "  --camera ex,ey,ez,tx,ty,tz,fov  eye, target and vertical field of view in degrees (0 .. 180);\n"
            "                    default: the model's bounding sphere framed from a fixed direction\n"
            "  --out DIR         folder for the PNGs (default grid-levels; created)\n"
            "  --runs R          timed runs, 1 .. 1000 (default 5): medians after 1 warm-up\n",
            MAX_SIDE, SC_MAX_TILE_SIZE, SPLIT_MAX_BUCKETS, SC_MAX_SLABS);
}

static int bad_option(const char *option, const char *value, const char *valid)
{
    return demo_bad_value("split-demo " W, option, value, valid, grid_levels_usage);
}

/* A whole finite float. Returns 0, or -1. */
static int parse_float(const char *s, float *out)
{
    if (!s || !*s) return -1;
    char *end = NULL;
    errno = 0;
    const double v = strtod(s, &end);
    if (*end != '\0' || errno != 0 || !isfinite(v) || fabs(v) > 3.0e38) return -1;
    *out = (float)v;
    return 0;
}

/* "WxH" with each side in 1 .. MAX_SIDE. */
static int parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    const char *x = strchr(s, 'x');
    char a[32];
    if (!x || (size_t)(x - s) >= sizeof a) return -1;
    memcpy(a, s, (size_t)(x - s));
    a[x - s] = '\0';
    uint64_t vw = 0, vh = 0;
    if (demo_parse_u64(a, 1, MAX_SIDE, &vw) != 0 || demo_parse_u64(x + 1, 1, MAX_SIDE, &vh) != 0) return -1;
    *w = (uint32_t)vw, *h = (uint32_t)vh;
    return 0;
}

/* Seven comma-separated floats; the last (the field of view) in (0, 180). */
static int parse_camera(const char *s, float out[7])
{
    char tok[64];
    const char *p = s;
    for (int i = 0; i < 7; ++i) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof tok || (i < 6 && !comma) || (i == 6 && comma)) return -1;
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (parse_float(tok, &out[i]) != 0) return -1;
        p = comma ? comma + 1 : p + len;
    }
    return out[6] > 0 && out[6] < 180 ? 0 : -1;
}

/* 0 parsed, 1 --help printed (exit 0), 2 bad usage (printed). */
int gl_parse_options(int argc, char **argv, gl_opts *o)
{
    memset(o, 0, sizeof *o);
    o->width = o->height = 1024, o->tile = 8, o->slabs = 16, o->time = 1.0f, o->out_dir = "grid-levels", o->runs = 5;
    static const char *const names[] = {"--size", "--tile", "--slabs", "--time", "--camera", "--out", "--runs"};
    enum { NUM_NAMES = sizeof names / sizeof names[0] };
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            grid_levels_usage(stdout);
            return 1;
        }
        if (arg[0] != '-' || arg[1] == '\0') { /* the model ("-" alone is a file name too) */
            if (o->model) {
                fprintf(stderr, "split-demo " W ": a second model '%s' (the first: '%s'); give one\n", arg, o->model);
                grid_levels_usage(stderr);
                return 2;
            }
            o->model = arg;
            continue;
        }
        const char *value = NULL;
        const int which = demo_option("split-demo " W, argc, argv, &a, names, NUM_NAMES, &value);
        if (which < 0) {
            grid_levels_usage(stderr);
            return 2;
        }
        uint64_t v = 0;
        switch (which) {
        case 0:
            if (parse_size(value, &o->width, &o->height) != 0)
                return bad_option(names[which], value, "WxH, each side a whole number 1 .. 16384 (e.g. 1024x1024)");
            break;
        case 1:
            if (demo_parse_u64(value, 1, SC_MAX_TILE_SIZE, &v) != 0) return bad_option(names[which], value, "1 .. 32");
            o->tile = (uint32_t)v;
            break;
        case 2:
            if (demo_parse_u64(value, 1, SC_MAX_SLABS, &v) != 0) return bad_option(names[which], value, "1 .. 1024");
            o->slabs = (uint32_t)v;
            break;
        case 3:
            if (parse_float(value, &o->time) != 0) return bad_option(names[which], value, "a finite number of seconds");
            break;
        case 4:
            if (parse_camera(value, o->camera) != 0)
                return bad_option(names[which], value,
                                  "seven comma-separated finite numbers ex,ey,ez,tx,ty,tz,fov with fov in (0, 180) "
                                  "degrees");
            o->has_camera = 1;
            break;
        case 5:
            if (!*value) return bad_option(names[which], value, "a folder name");
            o->out_dir = value;
            break;
        default:
            if (demo_parse_u64(value, 1, 1000, &v) != 0) return bad_option(names[which], value, "1 .. 1000");
            o->runs = (int)v;
            break;
        }
    }
    gl_grid g;
    if (gl_grid_make(o->width, o->height, o->tile, o->slabs, &g) != 0) {
        const uint32_t tx = (o->width + o->tile - 1) / o->tile, ty = (o->height + o->tile - 1) / o->tile;
        uint32_t buckets = 1;
        while (buckets < o->slabs) buckets *= 2;
        if (tx > SPLIT_MAX_BUCKETS || ty > SPLIT_MAX_BUCKETS)
            fprintf(stderr, "split-demo " W ": --size %ux%u with --tile %u gives %u x %u tiles; each must be at most %d "
                            "(the thesis's first level splits by tile column, the second by row)\n",
                    o->width, o->height, o->tile, tx, ty, SPLIT_MAX_BUCKETS);
        else
            fprintf(stderr, "split-demo " W ": --size %ux%u, --tile %u, --slabs %u: %u tiles x %u slab buckets are 2^32 "
                            "cells or more; lower --slabs or raise --tile\n",
                    o->width, o->height, o->tile, o->slabs, tx * ty, buckets);
        grid_levels_usage(stderr);
        return 2;
    }
    return 0;
}
