/* bench_gpus.h - slabcast-bench --gpus: the scaling of sort-last rendering over renderer groups
 * (slabcast.h "Renderer groups"), one row per share count, as a table for people and as JSON and CSV
 * files (docs/BENCH.md "--gpus with --json and --csv").
 *
 * JSON (schema 1, "mode": "gpus"; field names are stable, a later schema only adds fields):
 *   { "schema": 1, "program": "slabcast-bench", "mode": "gpus", "commit", "command_line",
 *     "device_name" (GPU 0's), "gpus_present", "model" (the path, or "builtin"), "model_name",
 *     "triangles", "width", "height", "tile_size", "num_slabs", "subdivide", "deform" (the set),
 *     "frames", "warmup", "speed_up_base" (the shares of the row speed-ups are against, or null),
 *     "rows": [ { "shares", "gpus", "shares_per_gpu", "status": "ok"|"failed", "error" (null when ok),
 *                 "frame_ms": {"median", "p95"}, "speed_up", "composite_ms", "bytes_per_frame",
 *                 "gb_per_s", "largest_share_triangles", "shares_share_a_gpu": true|false } ] }
 *   A failed row has every field but shares, status and error null; a number that is not finite
 *   (a speed-up against a zero frame time) is null too.
 *
 * CSV (RFC 4180, the sweep's quoting: bench_csv_field): a header record, then one record per row with
 * the row's fields (frame_median_ms, frame_p95_ms for frame_ms; true/false for shares_share_a_gpu)
 * followed by the run's (the top-level JSON fields but schema, program, mode and rows); a number not
 * known is an empty field. */
#ifndef SLABCAST_BENCH_GPUS_H
#define SLABCAST_BENCH_GPUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_options.h"

/* One share count's measurements. The numbers mean something only when ok. */
typedef struct bench_gpus_row {
    uint32_t shares;             /* shares in the group */
    uint32_t devices;            /* GPUs they were spread over: min(shares, GPUs present) */
    uint32_t per_device;         /* the most shares one GPU holds (> 1: several shares share a GPU) */
    double frame_ms;             /* median frame time (GPU 0's stream, frame start to merged image) */
    double frame_p95_ms;         /* its p95 */
    double composite_ms;         /* median time of the composite (the keys' copies and minimum on GPU 0) */
    uint64_t bytes;              /* bytes copied between the shares' buffers a frame */
    uint64_t triangles_max;      /* the largest share's triangles, its halo included */
    int ok;                      /* 1: measured; 0: failed, error says why */
    char error[512];             /* the reason of a failed row; "" when ok */
} bench_gpus_row;

/* A --gpus run's results and what they ran on, for the writers below. */
typedef struct bench_gpus_report {
    const char *program;         /* "slabcast-bench" */
    const char *commit;          /* SLABCAST_BENCH_COMMIT ("unknown" outside a git checkout) */
    const char *command_line;    /* bench_command_line */
    const char *device_name;     /* GPU 0's name */
    int gpus_present;            /* CUDA devices present */
    const char *model_path;      /* NULL: the built-in mesh */
    const char *model_name;      /* bench_model_short_name */
    uint64_t triangles;          /* the model's, at the subdivision level */
    uint32_t width, height, tile_size, slabs, subdivide;
    const char *deform;          /* the deformer set's names ("twist,wave", "none") */
    int frames, warmup;          /* timed and warm-up frames per row */
    const bench_gpus_row *rows;
    size_t row_count;
    const bench_gpus_row *base;  /* the row speed-ups are against (bench_gpus_base); NULL: none */
} bench_gpus_report;

/* The row speed-ups are measured against: the first ok row of 1 share, else the first ok row; NULL
 * when no row is ok. */
const bench_gpus_row *bench_gpus_base(const bench_gpus_row *rows, size_t count);

/* The table for people: a header line naming the run, one line per row (a failed row says so), what
 * the speed-up is against, and a note per row whose shares share a GPU. */
void bench_gpus_table(FILE *out, const bench_gpus_report *r);

/* The JSON and CSV documents on a stream (the files' contents, above). Return 0, or -1 when the
 * stream reports an error. */
int bench_gpus_json(FILE *f, const bench_gpus_report *r);
int bench_gpus_csv(FILE *f, const bench_gpus_report *r);

/* Writes the document to path; 0, or -1 after a "slabcast-bench: PATH: reason" line on err. */
int bench_gpus_write_json(const bench_gpus_report *r, const char *path, FILE *err);
int bench_gpus_write_csv(const bench_gpus_report *r, const char *path, FILE *err);

/* Runs the first model at the first size, tile, slabs, subdivision and deformer set with a group of
 * o->gpus[i] shares for each i (share k on GPU k mod the GPUs present), frames and warm-up as the
 * sweep's, prints the table to out (notes and errors to err) and writes o->json_path and o->csv_path
 * when given. commit and command_line go into those files. Returns the exit status: 0, or 1 when a
 * row failed (no CUDA device, the library's error) or a file could not be written. */
int bench_run_gpus(const bench_options *o, const char *commit, const char *command_line, FILE *out, FILE *err);

#endif
