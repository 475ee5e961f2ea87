/* bench_report.h - the results of a sweep for people (a table on stdout) and for programs (JSON and
 * CSV files). Every number of every row is written; one unknown (a failed configuration, device
 * memory on the cpu backend, a skipped peer) is null in JSON and an empty field in CSV.
 *
 * JSON (schema 1; docs/BENCH.md lists every field). Field names are stable: a later schema only adds
 * fields, and renaming or removing one raises "schema".
 *   { "schema": 1, "program": "slabcast-bench", "commit": "<git describe --always --dirty>",
 *     "command_line": "...", "options": {...the lists and counts in force...},
 *     "device": {"backend", "name", "sm_count", "clock_khz", "memory_clock_khz", "memory_bus_bits",
 *                "compute_capability", "total_memory_bytes", "driver_version", "runtime_version",
 *                "threads"},
 *     "limits": {"copy_gbs", "ray_tests_per_s", "ray_hit_fraction", "copy_bytes", "copy_ms", "ray_tests",
 *                "ray_ms", "runs", "threads"} | null, "limits_error": "why" | null,
 *     "stages": ["deform", ..., "shade"], "configurations": N, "failed": K,
 *     "rows": [ { "index", "status": "ok"|"failed", "error", "model", "model_name", "subdivide",
 *                 "deform", "width", "height", "pixels", "tile_size", "num_slabs", "view", "views",
 *                 "camera": {"eye", "target", "up", "fov_degrees", "near", "far"}, "backend",
 *                 "frames", "warmup",
 *                 "stages_ms": {"<stage>": {"median", "p95", "max"}, ..., "frame": {...}},
 *                 "frame_stage_events_ms": {"median", "p95", "max"},
 *                 "render_call_ms": {"median", "p95", "max"},
 *                 "back_to_back": {"frames", "ms", "ms_per_frame", "fps"},
 *                 "triangles", "visible_triangles", "references", "ray_triangle_tests",
 *                 "ray_tests_performed", "tiles",
 *                 "tiles_exited_early", "hit_pixels", "capacity_grows", "overflow_passes",
 *                 "device_memory_used_bytes",
 *                 "shadows": true|false, "light": {"type", "position"} | null, "shadow_lights",
 *                 "light_views", "shadow_receivers", "shadow_references", "shadow_ray_tests",
 *                 "shadow_rays_blocked", "shadow_rays_early", "shadow_overflow_passes",
 *                 "floor": {"<stage>": {"bytes", "tests", "bytes_ms", "tests_ms", "ms", "ratio",
 *                                       "frac_copy", "frac_tests"}, ..., "frame": {...}} | null,
 *                 "peers": [ {"name", "status": "ok"|"skipped"|"failed", "why", "median_ms",
 *                             "p95_ms", "max_ms", "agreement", "ratio", "speedup", "note",
 *                             "detail"} ] } ] }
 *   ratio = our median frame / the peer's median frame; speedup = its inverse ("ours is N x faster").
 *   floor (bench_floor.h): the stage's modelled bytes and tests (tests null but for the two casts and the
 *   frame), their times at the measured limits, the floor, ratio = median / floor ("x floor"), and the
 *   fractions of the copy bandwidth and test rate achieved; null without limits (--no-limits).
 *
 * CSV (RFC 4180: comma-separated, CRLF line ends, a field with a comma, quote, CR or LF quoted and
 * its quotes doubled): one header row, then per configuration one row (kind "slabcast") followed by
 * one row per peer (kind "peer": the configuration's columns, the peer's frame times in the frame_*
 * columns, its agreement, ratio and speedup; the stage, counter and floor columns empty). Our rows
 * carry per stage and the frame <stage>_floor_bytes, _floor_ms, _x_floor, _frac_copy (the casts and the
 * frame also _floor_tests, _frac_tests). The device, its limits, the commit and the command line are
 * columns of every row. */
#ifndef SLABCAST_BENCH_REPORT_H
#define SLABCAST_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "bench_device.h"
#include "bench_options.h"
#include "bench_run.h"

#define BENCH_JSON_SCHEMA 1

/* A sweep's results and what they ran on. */
typedef struct bench_report {
    const bench_options *options;
    const bench_device *device;
    const char *commit;          /* "unknown" outside a git checkout */
    const char *command_line;    /* bench_command_line */
    const bench_row *rows;
    size_t row_count;
} bench_report;

/* "ok", "skipped", "failed". */
const char *bench_peer_status_name(bench_peer_status status);

/* The name of stage s (0 .. SC_STAGE_COUNT, the last the frame), as app_stage_name gives it, in every
 * output (JSON keys, CSV columns, table, plot legend); "stage<s>" where that has none. */
const char *bench_stage_name(int stage);

/* The command line as one string, each argument shell-quoted where needed ('a b' -> "'a b'"). malloc'ed
 * (free it); NULL when out of memory. */
char *bench_command_line(int argc, char *const *argv);

/* The JSON and CSV documents on a stream (the files' contents). */
void bench_json(const bench_report *r, FILE *f);
void bench_csv(const bench_report *r, FILE *f);
/* One CSV field, quoted when it must be (RFC 4180). */
void bench_csv_field(FILE *f, const char *s);

/* One CSV record being written, or the header (header = 1: each column's name instead of its value),
 * so one list of column calls writes both and they cannot drift apart. first: no separator before the
 * next field (set it at the start of each record). */
typedef struct bench_csv_record {
    FILE *f;
    int header;
    int first;
} bench_csv_record;
/* A field: name in the header, value in a record. */
void bench_csv_put(bench_csv_record *c, const char *name, const char *value);
/* An integer; empty when not known. */
void bench_csv_u64(bench_csv_record *c, const char *name, int known, uint64_t v);
/* A number as %.6f; empty when not known or not finite. */
void bench_csv_num(bench_csv_record *c, const char *name, int known, double v);

/* A results file: bench_file_open opens path for writing (NULL, with a message naming the file on
 * err, when it cannot); bench_file_close closes it, -1 with a message when the writing failed
 * (failed nonzero, a stream error or the close), else 0. */
FILE *bench_file_open(const char *path, const char *what, FILE *err);
int bench_file_close(FILE *f, int failed, const char *path, const char *what, FILE *err);

/* Writes the document to path; 0, or -1 after a "slabcast-bench: PATH: reason" line on err. */
int bench_write_json(const bench_report *r, const char *path, FILE *err);
int bench_write_csv(const bench_report *r, const char *path, FILE *err);

/* The table for people: one line per configuration (frame times, frame rate, counters, memory), with
 * shadows on a line of the shadow counters under it, a line per peer (and its detail) under that,
 * then the median time of each stage per configuration, then the device's limits and per
 * configuration each stage's floor, x floor and fraction of the copy bandwidth. */
void bench_print_table(const bench_report *r, FILE *out);

#endif
