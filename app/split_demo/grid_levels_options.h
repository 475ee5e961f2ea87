/* grid_levels_options.h - the command line of `split-demo grid-levels` (demo_grid_levels.cu): the
 * options struct and its parser, with the usage text. Plain C (no CUDA types); usable from .c and
 * .cu files alike. */
#ifndef SPLIT_DEMO_GRID_LEVELS_OPTIONS_H
#define SPLIT_DEMO_GRID_LEVELS_OPTIONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_opts {
    const char *model;       /* NULL: the built-in mesh */
    uint32_t width, height, tile, slabs;
    float time;
    int has_camera;
    float camera[7];         /* eye x, y, z, target x, y, z, vertical field of view in degrees */
    const char *out_dir;
    int runs;
} gl_opts;

/* Parses argv[1 .. argc-1] (argv[0] is the subcommand's name) into *o, its defaults first: the
 * built-in mesh, --size 1024x1024, --tile 8, --slabs 16, --time 1, no --camera, --out grid-levels,
 * --runs 5; then checks that the size, tile and slabs make a grid (gl_grid_make).
 * Returns 0 parsed, 1 --help (or -h) printed on stdout (the caller exits 0), 2 bad usage (the message
 * naming the option and the usage printed on stderr; the caller exits 2). */
int gl_parse_options(int argc, char **argv, gl_opts *o);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_GRID_LEVELS_OPTIONS_H */
