/* cloth_options.c - the cloth program's command line (cloth_options.h). */
#include "cloth_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: cloth [--mesh FILE] [--size N] [--steps S] [--iterations I] [--frames F] [--out-dir DIR]\n"
    "             [--save-every K] [--image WxH] [--backend auto|cpu|cuda] [--no-shadows] [--no-ground]\n"
    "A cloth of N x N particles falls onto a model resting on the ground; the simulation owns the\n"
    "positions and hands them to slabcast every frame without a copy: CUDA kernels on a device buffer\n"
    "when the CUDA backend runs, plain C on a host buffer on the CPU backend.\n"
    "  --mesh FILE      the model: OBJ, PLY or STL (.xz too); default: the built-in mesh\n"
    "  --size N         cloth particles per side, 2 .. 4096 (default: 1024 on the GPU, 128 on the CPU)\n"
    "  --steps S        simulation substeps per frame of 1/60 s (default 8)\n"
    "  --iterations I   constraint sweeps per substep (default 4)\n"
    "  --frames F       frames to simulate and render (default 120)\n"
    "  --out-dir DIR    write frames as DIR/frame-0000.png, ... (made if missing)\n"
    "  --save-every K   with --out-dir: every K-th frame, and the last (default 1)\n"
    "  --image WxH      image size (default: 1024x1024 on the GPU, 512x512 on the CPU)\n"
    "  --backend NAME   auto (default: the GPU when there is one), cpu or cuda\n"
    "  --no-shadows     no shadow rays (default: the cloth's shadows from one point light)\n"
    "  --no-ground      no ground square in the mesh (the cloth still lands on the ground plane)\n";

/* A whole number in [lo, hi]; 0 and a message on anything else. */
static int parse_u32(const char *option, const char *text, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end = NULL;
    errno = 0;
    const unsigned long v = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < lo || v > hi) {
        fprintf(stderr, "cloth: %s %s: expected a whole number from %u to %u\n", option, text, lo, hi);
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

static int parse_size(const char *text, uint32_t *w, uint32_t *h)
{
    const char *x = strchr(text, 'x');
    char first[32];
    if (!x || (size_t)(x - text) >= sizeof first) {
        fprintf(stderr, "cloth: --image %s: expected WxH, e.g. 1024x768\n", text);
        return 0;
    }
    memcpy(first, text, (size_t)(x - text));
    first[x - text] = '\0';
    return parse_u32("--image width", first, 1, 8192, w) && parse_u32("--image height", x + 1, 1, 8192, h);
}

int cloth_parse_options(int argc, char **argv, cloth_options *o)
{
    memset(o, 0, sizeof *o);
    o->steps = 8, o->iterations = 4, o->frames = 120, o->save_every = 1, o->shadows = 1, o->ground = 1;
    o->backend = SC_BACKEND_DEFAULT;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(a, "--no-shadows")) {
            o->shadows = 0;
            continue;
        }
        if (!strcmp(a, "--no-ground")) {
            o->ground = 0;
            continue;
        }
        static const char *const valued[] = {"--mesh", "--out-dir", "--size", "--steps", "--iterations",
                                             "--frames", "--save-every", "--image", "--backend"};
        int known = 0;
        for (size_t k = 0; k < sizeof valued / sizeof *valued; ++k) known |= !strcmp(a, valued[k]);
        if (!known) {
            fprintf(stderr, "cloth: unknown argument %s\n%s", a, USAGE);
            return -1;
        }
        if (!v) {
            fprintf(stderr, "cloth: %s needs a value\n", a);
            return -1;
        }
        int ok = 1;
        if (!strcmp(a, "--mesh")) o->mesh = v;
        else if (!strcmp(a, "--out-dir")) o->out_dir = v;
        else if (!strcmp(a, "--size")) ok = parse_u32(a, v, 2, 4096, &o->size);
        else if (!strcmp(a, "--steps")) ok = parse_u32(a, v, 1, 1000, &o->steps);
        else if (!strcmp(a, "--iterations")) ok = parse_u32(a, v, 1, 1000, &o->iterations);
        else if (!strcmp(a, "--frames")) ok = parse_u32(a, v, 1, 1000000, &o->frames);
        else if (!strcmp(a, "--save-every")) ok = parse_u32(a, v, 1, 1000000, &o->save_every);
        else if (!strcmp(a, "--image")) ok = parse_size(v, &o->width, &o->height);
        else if (!sc_backend_from_name(v, &o->backend)) {
            fprintf(stderr, "cloth: --backend %s: expected auto, cpu or cuda\n", v);
            ok = 0;
        }
        if (!ok) return -1;
        ++i;
    }
    return 1;
}
