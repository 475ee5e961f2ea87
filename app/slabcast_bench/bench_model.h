/* bench_model.h - the mesh of the configurations being run: a model read once (or the built-in mesh
 * built once), fitted and framed as the slabcast program frames it, and subdivided for each
 * subdivision level of the sweep. The sweep runs each model's configurations one after another, so
 * one model is held at a time. */
#ifndef SLABCAST_BENCH_MODEL_H
#define SLABCAST_BENCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "orbit.h"
#include "sc_mesh.h"

typedef struct bench_model {
    int model;                   /* the model held (bench_config.model); -1: none */
    const char *path;            /* its file; NULL: built-in */
    int failed;                  /* reading it failed: error holds why (kept for its other configurations) */
    char error[768];
    sc_mesh base;                /* as read, fitted into float's comfortable range */
    uint32_t subdivide;          /* levels of `mesh` */
    int has_mesh;
    sc_mesh mesh;                /* base subdivided `subdivide` times (a copy also at 0 levels) */
    app_orbit orbit;             /* the framing of `mesh` */
} bench_model;

void bench_model_init(bench_model *m);
void bench_model_free(bench_model *m);

/* Makes `mesh` the given model at the given subdivision level (its vertices as loaded and
 * subdivided: the renderer's vertex order is its own option), reading the model only when another
 * one is held. resolution: the built-in mesh's (0: the library's default). Returns 0, or -1 with why
 * (the library's message naming the file, or the subdivision over the triangle limit). */
int bench_model_prepare(bench_model *m, int model, const char *path, uint32_t resolution, uint32_t subdivide,
                        char *why, size_t why_size);

#endif
