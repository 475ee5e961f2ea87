/* bench_gpus_report.c - a --gpus run's results (bench_gpus.h) as the table on stdout and as the JSON
 * and CSV documents (schema and columns: bench_gpus.h, docs/BENCH.md). Pure writers: they read the
 * report and touch nothing else, so the tests run them on the CPU. */
#include <math.h>
#include <string.h>

#include "bench_gpus.h"
#include "bench_report.h"
#include "frame_stats.h"

/* ---- what the outputs share -------------------------------------------------------------------- */

const bench_gpus_row *bench_gpus_base(const bench_gpus_row *rows, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (rows[i].ok && rows[i].shares == 1) return &rows[i];
    for (size_t i = 0; i < count; ++i)
        if (rows[i].ok) return &rows[i];
    return NULL;
}

/* The base's median frame time over the row's; NAN when either was not measured. */
static double speed_up(const bench_gpus_row *base, const bench_gpus_row *row)
{
    return base && row->ok ? base->frame_ms / row->frame_ms : NAN;
}

/* The bytes copied a frame over the frame time, in GB/s; NAN when not measured or the time is 0. */
static double gb_per_s(const bench_gpus_row *row)
{
    return row->ok && row->frame_ms > 0.0 ? (double)row->bytes / (row->frame_ms * 1e6) : NAN;
}

/* Whether several shares of the row sit on one GPU (the row then measures the sort-last path, not
 * multi-GPU scaling). */
static int shares_share_a_gpu(const bench_gpus_row *row) { return row->per_device > 1; }

/* ---- the table --------------------------------------------------------------------------------- */

static void table_row(FILE *out, const bench_gpus_row *base, const bench_gpus_row *r)
{
    if (!r->ok) {
        fprintf(out, "%6u %7s failed\n", r->shares, "-");
        return;
    }
    const double gbs = gb_per_s(r);
    fprintf(out, "%6u %7u %10u %12.3f %10.3f %8.2fx %13.3f %12.1f %9.1f %12llu\n", r->shares, r->devices,
            r->per_device, r->frame_ms, r->frame_p95_ms, base ? speed_up(base, r) : 0.0, r->composite_ms,
            (double)r->bytes / 1e6, isnan(gbs) ? 0.0 : gbs, (unsigned long long)r->triangles_max);
}

void bench_gpus_table(FILE *out, const bench_gpus_report *r)
{
    const bench_gpus_row *base = r->base;
    fprintf(out, "slabcast-bench --gpus: %s, %llu triangles, %ux%u, tile %u, slabs %u; %d GPU%s present\n",
            r->model_name, (unsigned long long)r->triangles, r->width, r->height, r->tile_size, r->slabs,
            r->gpus_present, r->gpus_present == 1 ? "" : "s");
    fprintf(out, "%6s %7s %10s %12s %10s %9s %13s %12s %9s %12s\n", "shares", "GPUs", "shares/GPU", "frame ms",
            "p95 ms", "speed-up", "composite ms", "MB a frame", "GB/s", "largest share");
    for (size_t i = 0; i < r->row_count; ++i) table_row(out, base, &r->rows[i]);
    if (base)
        fprintf(out, "speed-up: against %u share%s; GB/s: the bytes copied between shares' buffers (keys, winners, "
                     "images) over the frame time; composite: the keys' copies and minimum on GPU 0\n",
                base->shares, base->shares == 1 ? "" : "s");
    for (size_t i = 0; i < r->row_count; ++i) {
        const bench_gpus_row *row = &r->rows[i];
        if (row->ok && shares_share_a_gpu(row))
            fprintf(out, "note: %u shares on %u GPU%s (%u per GPU): several shares share a GPU, so this row measures "
                         "the sort-last path, not multi-GPU scaling\n",
                    row->shares, row->devices, row->devices == 1 ? "" : "s", row->per_device);
    }
}

/* ---- JSON -------------------------------------------------------------------------------------- */

/* What was run, once. */
static void json_run(FILE *f, const bench_gpus_report *r)
{
    fputs("{\n  \"schema\": 1,\n  \"program\": ", f);
    app_json_string(f, r->program);
    fputs(",\n  \"mode\": \"gpus\",\n  \"commit\": ", f);
    app_json_string(f, r->commit);
    fputs(",\n  \"command_line\": ", f);
    app_json_string(f, r->command_line);
    fputs(",\n  \"device_name\": ", f);
    app_json_string(f, r->device_name);
    fprintf(f, ",\n  \"gpus_present\": %d,\n  \"model\": ", r->gpus_present);
    app_json_string(f, r->model_path ? r->model_path : "builtin");
    fputs(",\n  \"model_name\": ", f);
    app_json_string(f, r->model_name);
    fprintf(f, ",\n  \"triangles\": %llu, \"width\": %u, \"height\": %u, \"tile_size\": %u, \"num_slabs\": %u, "
               "\"subdivide\": %u,\n  \"deform\": ",
            (unsigned long long)r->triangles, r->width, r->height, r->tile_size, r->slabs, r->subdivide);
    app_json_string(f, r->deform);
    fprintf(f, ",\n  \"frames\": %d, \"warmup\": %d,\n  \"speed_up_base\": ", r->frames, r->warmup);
    app_json_u64_or_null(f, r->base != NULL, r->base ? r->base->shares : 0);
    fputs(",\n", f);
}

static void json_row(FILE *f, const bench_gpus_report *r, const bench_gpus_row *row)
{
    const int ok = row->ok;
    fprintf(f, "    {\"shares\": %u, \"gpus\": ", row->shares);
    app_json_u64_or_null(f, ok, row->devices);
    fputs(", \"shares_per_gpu\": ", f);
    app_json_u64_or_null(f, ok, row->per_device);
    fprintf(f, ", \"status\": \"%s\", \"error\": ", ok ? "ok" : "failed");
    if (ok) fputs("null", f);
    else app_json_string(f, row->error);
    fputs(",\n     \"frame_ms\": {\"median\": ", f);
    app_json_number_or_null(f, ok, row->frame_ms);
    fputs(", \"p95\": ", f);
    app_json_number_or_null(f, ok, row->frame_p95_ms);
    fputs("}, \"speed_up\": ", f);
    app_json_number_or_null(f, ok, speed_up(r->base, row));
    fputs(", \"composite_ms\": ", f);
    app_json_number_or_null(f, ok, row->composite_ms);
    fputs(",\n     \"bytes_per_frame\": ", f);
    app_json_u64_or_null(f, ok, row->bytes);
    fputs(", \"gb_per_s\": ", f);
    app_json_number_or_null(f, ok, gb_per_s(row));
    fputs(", \"largest_share_triangles\": ", f);
    app_json_u64_or_null(f, ok, row->triangles_max);
    fputs(", \"shares_share_a_gpu\": ", f);
    fputs(!ok ? "null" : shares_share_a_gpu(row) ? "true" : "false", f);
    fputc('}', f);
}

int bench_gpus_json(FILE *f, const bench_gpus_report *r)
{
    json_run(f, r);
    fputs("  \"rows\": [", f);
    for (size_t i = 0; i < r->row_count; ++i) {
        fputs(i ? ",\n" : "\n", f);
        json_row(f, r, &r->rows[i]);
    }
    fputs(r->row_count ? "\n  ]\n}\n" : "]\n}\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---- CSV --------------------------------------------------------------------------------------- */

/* One record being written, or the header: the column functions below name each column once, so the
 * header and the records cannot drift apart. */
typedef struct gpus_csv {
    bench_csv_record rec;
    const bench_gpus_report *r;
    const bench_gpus_row *row;
} gpus_csv;

static void csv_put(gpus_csv *c, const char *name, const char *value) { bench_csv_put(&c->rec, name, value); }

static void csv_u64(gpus_csv *c, const char *name, int known, uint64_t v) { bench_csv_u64(&c->rec, name, known, v); }

/* A number as the sweep's CSV writes it (%.6f); empty when not known or not finite. */
static void csv_num(gpus_csv *c, const char *name, int known, double v) { bench_csv_num(&c->rec, name, known, v); }

/* The row's own fields. */
static void csv_row_columns(gpus_csv *c)
{
    const bench_gpus_row *row = c->row;
    const int ok = row->ok;
    csv_u64(c, "shares", 1, row->shares);
    csv_u64(c, "gpus", ok, row->devices);
    csv_u64(c, "shares_per_gpu", ok, row->per_device);
    csv_put(c, "status", ok ? "ok" : "failed");
    csv_put(c, "error", ok ? "" : row->error);
    csv_num(c, "frame_median_ms", ok, row->frame_ms);
    csv_num(c, "frame_p95_ms", ok, row->frame_p95_ms);
    csv_num(c, "speed_up", ok, speed_up(c->r->base, row));
    csv_num(c, "composite_ms", ok, row->composite_ms);
    csv_u64(c, "bytes_per_frame", ok, row->bytes);
    csv_num(c, "gb_per_s", ok, gb_per_s(row));
    csv_u64(c, "largest_share_triangles", ok, row->triangles_max);
    csv_put(c, "shares_share_a_gpu", !ok ? "" : shares_share_a_gpu(row) ? "true" : "false");
}

/* What was run, in every record. */
static void csv_run_columns(gpus_csv *c)
{
    const bench_gpus_report *r = c->r;
    csv_put(c, "model", r->model_path ? r->model_path : "builtin");
    csv_put(c, "model_name", r->model_name ? r->model_name : "");
    csv_u64(c, "triangles", 1, r->triangles);
    csv_u64(c, "width", 1, r->width);
    csv_u64(c, "height", 1, r->height);
    csv_u64(c, "tile_size", 1, r->tile_size);
    csv_u64(c, "num_slabs", 1, r->slabs);
    csv_u64(c, "subdivide", 1, r->subdivide);
    csv_put(c, "deform", r->deform ? r->deform : "");
    csv_u64(c, "frames", 1, (uint64_t)r->frames);
    csv_u64(c, "warmup", 1, (uint64_t)r->warmup);
    csv_u64(c, "speed_up_base", r->base != NULL, r->base ? r->base->shares : 0);
    csv_put(c, "device_name", r->device_name ? r->device_name : "");
    csv_u64(c, "gpus_present", 1, (uint64_t)r->gpus_present);
    csv_put(c, "commit", r->commit ? r->commit : "");
    csv_put(c, "command_line", r->command_line ? r->command_line : "");
}

static void csv_record(gpus_csv *c)
{
    c->rec.first = 1;
    csv_row_columns(c);
    csv_run_columns(c);
    fputs("\r\n", c->rec.f);
}

int bench_gpus_csv(FILE *f, const bench_gpus_report *r)
{
    static const bench_gpus_row k_empty; /* the header needs a row to walk the columns, not its values */
    gpus_csv c = {{f, 1, 1}, r, &k_empty};
    csv_record(&c);
    c.rec.header = 0;
    for (size_t i = 0; i < r->row_count; ++i) {
        c.row = &r->rows[i];
        csv_record(&c);
    }
    return ferror(f) ? -1 : 0;
}

/* ---- files ------------------------------------------------------------------------------------- */

static int write_file(const bench_gpus_report *r, const char *path, int (*body)(FILE *, const bench_gpus_report *),
                      const char *what, FILE *err)
{
    FILE *f = bench_file_open(path, what, err);
    if (!f) return -1;
    const int failed = body(f, r) != 0;
    return bench_file_close(f, failed, path, what, err);
}

int bench_gpus_write_json(const bench_gpus_report *r, const char *path, FILE *err)
{
    return write_file(r, path, bench_gpus_json, "--gpus JSON results", err);
}

int bench_gpus_write_csv(const bench_gpus_report *r, const char *path, FILE *err)
{
    return write_file(r, path, bench_gpus_csv, "--gpus CSV results", err);
}
