/* bench_sweep.h - the configurations of a sweep: every combination of the option lists (models,
 * subdivision levels, deformer sets, sizes, tiles, slabs, views, shadow settings), in an order that
 * keeps each model loaded across all of its configurations and puts the shadow settings of one view
 * side by side. */
#ifndef SLABCAST_BENCH_SWEEP_H
#define SLABCAST_BENCH_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "bench_options.h"

typedef struct bench_config {
    unsigned index;              /* 0-based place in the sweep */
    unsigned model;              /* index into bench_options.models (0 for the default built-in mesh) */
    const char *model_path;      /* NULL: the built-in mesh */
    uint32_t subdivide;
    unsigned deform_mask;        /* deformers on: APP_DEFORM_BIT(d) for each (deform_set.h) */
    uint32_t width, height;
    uint32_t tile_size, num_slabs;
    uint32_t view, views;        /* view k of N on the orbit; views == 0: the fixed --camera */
    int shadows;                 /* nonzero: the default light with shadows (app_default_light) */
} bench_config;

/* The number of configurations (the product of the lists' lengths, computed without overflow) and
 * the factors in words ("2 models x 3 sizes x 2 slab counts"), for the message before a run or a
 * refusal. Returns 0, or -1 when the product passes BENCH_MAX_CONFIGS: then why says so, naming the
 * factors and what to shorten. */
int bench_sweep_count(const bench_options *o, uint64_t *count, char *factors, size_t factors_size, char *why,
                      size_t why_size);

/* Every configuration, in sweep order: model, subdivision, deformer set, size, tile, slabs, view,
 * shadows (the last varies fastest). *out is malloc'ed (free it). Returns 0, or -1 with why (too many, out
 * of memory). */
int bench_sweep_expand(const bench_options *o, bench_config **out, size_t *count, char *why, size_t why_size);

/* The model's short name: "builtin", or the file's base name without ".xz" and its format extension
 * ("models/dragon.obj.xz" -> "dragon"). */
void bench_model_short_name(const char *path, char *buf, size_t size);

/* One line naming a configuration: "dragon 1920x1080 tile 8 slabs 16 deform twist,wave", with
 * " subdivide N" when N > 0, " view K/N" on an orbit of several views, " camera" for --camera and
 * " shadows" with shadows on. */
void bench_config_label(const bench_config *c, char *buf, size_t size);

#endif
