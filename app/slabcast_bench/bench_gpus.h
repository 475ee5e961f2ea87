/* bench_gpus.h - slabcast-bench --gpus: the scaling of sort-last rendering over renderer groups
 * (slabcast.h "Renderer groups"), one row per share count. */
#ifndef SLABCAST_BENCH_GPUS_H
#define SLABCAST_BENCH_GPUS_H

#include <stdio.h>

#include "bench_options.h"

/* Runs the first model at the first size, tile, slabs, subdivision and deformer set with a group of
 * o->gpus[i] shares for each i (share k on GPU k mod the GPUs present), frames and warm-up as the
 * sweep's, and prints the table to out (notes and errors to err). Returns the exit status: 0, or 1
 * when a row failed (no CUDA device, the library's error). */
int bench_run_gpus(const bench_options *o, FILE *out, FILE *err);

#endif
