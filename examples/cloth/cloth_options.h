/* cloth_options.h - the cloth program's command line. */
#ifndef CLOTH_OPTIONS_H
#define CLOTH_OPTIONS_H

#include <slabcast.h>

typedef struct cloth_options {
    const char *mesh;         /* --mesh FILE; NULL: the built-in mesh */
    const char *out_dir;      /* --out-dir DIR; NULL: no frames written */
    uint32_t size;            /* --size N: particles per side; 0: the path's default */
    uint32_t steps;           /* --steps S: substeps per frame */
    uint32_t iterations;      /* --iterations I: constraint sweeps per substep */
    uint32_t frames;          /* --frames F */
    uint32_t save_every;      /* --save-every K: write every K-th frame (and the last) */
    uint32_t width, height;   /* --image WxH; 0: the path's default */
    sc_backend backend;       /* --backend auto|cpu|cuda */
    int shadows;              /* --no-shadows: 0 */
    int ground;               /* --no-ground: 0 */
} cloth_options;

/* Reads the command line into *o. Returns 1 to run, 0 after printing the help (exit 0), -1 after
 * printing what is wrong (exit 2). */
int cloth_parse_options(int argc, char **argv, cloth_options *o);

#endif /* CLOTH_OPTIONS_H */
