/* demo.h - the subcommands of split-demo (app/split_demo) and the helpers they share: CUDA and
 * split-library error checks, the "no CUDA device" rule, and CUDA-event timing (median of several
 * runs after one warm-up). Plain C; usable from the subcommands' .c and .cu files alike. */
#ifndef SPLIT_DEMO_DEMO_H
#define SPLIT_DEMO_DEMO_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A subcommand: argv[0] is the subcommand's name, argv[1 .. argc-1] its options.
 * Returns the process exit status: 0 verified, 1 a check or a call failed (the message names it),
 * 2 bad usage (the message names the option and its valid values), 77 no CUDA device (1 when
 * SLABCAST_REQUIRE_GPU=1). */
typedef int (*demo_fn)(int argc, char **argv);

int demo_grid(int argc, char **argv);    /* demo_grid.c */
int demo_records(int argc, char **argv); /* demo_records.cu */
int demo_particles(int argc, char **argv); /* demo_particles.cu */
int demo_join(int argc, char **argv);      /* demo_join.cu */
int demo_grid_levels(int argc, char **argv); /* demo_grid_levels.cu */

/* The CUDA error check of every subcommand: prints "split-demo <what>: <call> failed: <error>" and
 * returns 1 from the calling function. */
#define DEMO_CUDA(what, call)                                                                       \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "split-demo %s: %s failed: %s\n", (what), #call, cudaGetErrorString(e_)); \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

/* The same for split-library calls (sc_status, details in sc_last_error()). */
#define DEMO_SPLIT(what, call)                                                                      \
    do {                                                                                            \
        if ((call) != SC_OK) {                                                                      \
            fprintf(stderr, "split-demo %s: %s failed: %s\n", (what), #call, sc_last_error());      \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

/* The blocks of a grid-stride kernel launch of `threads` threads a block over `items` items: one
 * thread per item, at least 1 block and at most 8192 (the kernels loop over the rest). */
unsigned demo_blocks_for(uint64_t items, unsigned threads);

/* 0 when a CUDA device is present; otherwise prints why and returns 77, or 1 when
 * SLABCAST_REQUIRE_GPU=1 (as the test framework does: "no device" is then a failure). */
int demo_require_device(const char *what);

/* Parses a whole decimal unsigned number (digits only, no sign, no spaces) in [lo, hi] into *out.
 * Returns 0, or -1 (nothing printed) when s is not such a number. */
int demo_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* One option of a subcommand's command line: argv[*a] as "--name", "--name=value" or "--name value"
 * (then *a moves past the value) for a name of names[0 .. count-1], each of which takes a value.
 * Returns the name's index with *value set, or -1 after printing "who: unknown option 'X'; valid: ..."
 * or "who: --name needs a value" (the caller prints its usage and exits 2). */
int demo_option(const char *who, int argc, char **argv, int *a, const char *const *names, int count,
                const char **value);

/* A bad option value: prints "who: OPTION: 'VALUE' is not valid; valid: VALID", then the subcommand's
 * usage (to stderr); returns 2, the bad-usage exit status. */
int demo_bad_value(const char *who, const char *option, const char *value, const char *valid, void (*usage)(FILE *));

/* The median of v[0 .. n-1] (sorts v); 0 for n == 0. */
float demo_median(float *v, int n);

/* Work to time: enqueues everything on stream s and returns 0, or prints why and returns nonzero. */
typedef int (*demo_work_fn)(void *ctx, cudaStream_t s);

/* Times fn on stream s with CUDA events: one warm-up run (module load, first launches), then runs
 * timed runs, each from an event before its first launch to an event after its last; *median_ms is
 * the median. Returns 0, or 1 after printing the failed call (a fn failure returns fn's status). */
int demo_time(const char *what, demo_work_fn fn, void *ctx, cudaStream_t s, int runs, float *median_ms);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_DEMO_H */
