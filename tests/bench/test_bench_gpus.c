/* test_bench_gpus.c - slabcast-bench --gpus's writers (bench_gpus.h) on reports made by hand, read
 * back: the JSON is one valid document (the strict checker of bench_test_parse.h) with the run's
 * fields and one object per row, speed-ups against the 1-share row, a failed row's numbers null and
 * its error escaped; the CSV is RFC 4180 with the header and one record per row, every record as wide
 * as the header. Also the speed-up base, the table, the file writers and a stream error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_gpus.h"
#include "bench_test_parse.h"
#include "sctest.h"

/* An error with a quote and a backslash, which JSON escapes and CSV quotes. */
static const char k_error[] = "sc_renderer_group_create: \"peer access\" refused on C:\\gpu1, sorry";
static const char k_error_json[] = "\"sc_renderer_group_create: \\\"peer access\\\" refused on C:\\\\gpu1, sorry\"";
static const char k_command_line[] = "slabcast-bench dragon.obj --gpus 1,2,4,8 --json 'out \"x\".json'";

/* Three rows that ran (1, 2 and 4 shares on 2 GPUs: 4 shares put 2 on each) and one that failed. */
typedef struct fixture {
    bench_gpus_row rows[4];
    bench_gpus_report report;
} fixture;

static bench_gpus_row ok_row(uint32_t shares, uint32_t devices, double frame_ms, double p95_ms, double composite_ms,
                             uint64_t bytes, uint64_t triangles_max)
{
    bench_gpus_row r;
    memset(&r, 0, sizeof r);
    r.shares = shares;
    r.devices = devices;
    r.per_device = (shares + devices - 1) / devices;
    r.frame_ms = frame_ms;
    r.frame_p95_ms = p95_ms;
    r.composite_ms = composite_ms;
    r.bytes = bytes;
    r.triangles_max = triangles_max;
    r.ok = 1;
    return r;
}

static bench_gpus_row failed_row(uint32_t shares, const char *error)
{
    bench_gpus_row r;
    memset(&r, 0, sizeof r);
    r.shares = shares;
    r.devices = 2;
    r.per_device = 4;
    r.frame_ms = 99.0; /* left over from frames before the failure: not written */
    r.bytes = 12345;
    snprintf(r.error, sizeof r.error, "%s", error);
    return r;
}

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->rows[0] = ok_row(1, 1, 4.0, 4.5, 0.0, 0, 871414);
    f->rows[1] = ok_row(2, 2, 2.5, 3.0, 0.25, 20000000, 450000);
    f->rows[2] = ok_row(4, 2, 1.6, 2.0, 0.5, 48000000, 230000);
    f->rows[3] = failed_row(8, k_error);
    bench_gpus_report *r = &f->report;
    r->program = "slabcast-bench";
    r->commit = "abc123-dirty";
    r->command_line = k_command_line;
    r->device_name = "NVIDIA H100 80GB HBM3";
    r->gpus_present = 2;
    r->model_path = "../shared/models/stanford-dragon.obj.xz";
    r->model_name = "stanford-dragon";
    r->triangles = 871414;
    r->width = 1920;
    r->height = 1080;
    r->tile_size = 8;
    r->slabs = 16;
    r->subdivide = 0;
    r->deform = "twist,wave";
    r->frames = 200;
    r->warmup = 20;
    r->rows = f->rows;
    r->row_count = 4;
    r->base = bench_gpus_base(f->rows, 4);
}

/* The writer's output as a string (free it); NULL when the writer reported an error. */
static char *capture(int (*body)(FILE *, const bench_gpus_report *), const bench_gpus_report *r, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f) return NULL;
    const int rc = body(f, r);
    fclose(f);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) ++n;
    return n;
}

/* ---- the speed-up base ------------------------------------------------------------------------- */

/* The first ok row of 1 share wherever it is, else the first ok row, else none. */
static void test_base(void)
{
    bench_gpus_row rows[4] = {failed_row(1, "x"), ok_row(2, 2, 2.0, 2.0, 0.1, 1, 1), ok_row(1, 1, 3.0, 3.0, 0.0, 0, 1),
                              ok_row(1, 1, 5.0, 5.0, 0.0, 0, 1)};
    SCT_CHECK(bench_gpus_base(rows, 4) == &rows[2]);
    SCT_CHECK(bench_gpus_base(rows, 2) == &rows[1]); /* the 1-share row failed: the first ok row */
    SCT_CHECK(bench_gpus_base(rows, 1) == NULL);
    SCT_CHECK(bench_gpus_base(rows, 0) == NULL);
}

/* ---- JSON -------------------------------------------------------------------------------------- */

static void check_json_valid(const char *text, size_t len)
{
    size_t where = 0;
    SCT_CHECK_MSG(json_check(text, len, &where) == 0, "invalid JSON at byte %zu: ...%.60s", where, text + where);
}

/* The object of the row of `shares` shares, from its "{" to its "}" (free it); NULL when absent. */
static char *row_object(const char *json, uint32_t shares)
{
    char key[48];
    snprintf(key, sizeof key, "{\"shares\": %u,", shares);
    const char *start = strstr(json, key);
    if (!start) return NULL;
    int depth = 0, in_string = 0;
    for (const char *p = start; *p; ++p) {
        if (in_string) {
            if (*p == '\\' && p[1]) ++p;
            else if (*p == '"') in_string = 0;
            continue;
        }
        if (*p == '"') in_string = 1;
        else if (*p == '{') ++depth;
        else if (*p == '}' && --depth == 0) {
            const size_t n = (size_t)(p + 1 - start);
            char *s = malloc(n + 1);
            if (s) {
                memcpy(s, start, n);
                s[n] = '\0';
            }
            return s;
        }
    }
    return NULL;
}

static void check_has(const char *text, const char *const *needles, size_t count, const char *what)
{
    for (size_t i = 0; i < count; ++i) SCT_CHECK_MSG(strstr(text, needles[i]), "%s lacks %s", what, needles[i]);
}

static void test_json_run_fields(void)
{
    fixture f;
    fixture_init(&f);
    size_t len = 0;
    char *j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    static const char *const k_fields[] = {
        "\"schema\": 1", "\"program\": \"slabcast-bench\"", "\"mode\": \"gpus\"", "\"commit\": \"abc123-dirty\"",
        "\"command_line\": \"slabcast-bench dragon.obj --gpus 1,2,4,8 --json 'out \\\"x\\\".json'\"",
        "\"device_name\": \"NVIDIA H100 80GB HBM3\"", "\"gpus_present\": 2",
        "\"model\": \"../shared/models/stanford-dragon.obj.xz\"", "\"model_name\": \"stanford-dragon\"",
        "\"triangles\": 871414", "\"width\": 1920", "\"height\": 1080", "\"tile_size\": 8", "\"num_slabs\": 16",
        "\"subdivide\": 0", "\"deform\": \"twist,wave\"", "\"frames\": 200", "\"warmup\": 20",
        "\"speed_up_base\": 1", "\"rows\": [",
    };
    check_has(j, k_fields, sizeof k_fields / sizeof k_fields[0], "JSON");
    SCT_CHECK_EQ_U64(count_of(j, "{\"shares\": "), 4);
    SCT_CHECK_EQ_U64(count_of(j, "\"status\": \"ok\""), 3);
    SCT_CHECK_EQ_U64(count_of(j, "\"status\": \"failed\""), 1);
    free(j);
}

static void test_json_ok_rows(void)
{
    fixture f;
    fixture_init(&f);
    size_t len = 0;
    char *j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    char *one = row_object(j, 1), *two = row_object(j, 2), *four = row_object(j, 4);
    SCT_REQUIRE(one && two && four);
    static const char *const k_one[] = {
        "\"gpus\": 1", "\"shares_per_gpu\": 1", "\"error\": null", "\"frame_ms\": {\"median\": 4.000000, \"p95\": 4.500000}",
        "\"speed_up\": 1.000000", "\"composite_ms\": 0.000000", "\"bytes_per_frame\": 0", "\"gb_per_s\": 0.000000",
        "\"largest_share_triangles\": 871414", "\"shares_share_a_gpu\": false",
    };
    check_has(one, k_one, sizeof k_one / sizeof k_one[0], "the 1-share row");
    /* 4.0 ms at 1 share, 2.5 at 2: 1.6x; 20 MB over 2.5 ms: 8 GB/s. */
    static const char *const k_two[] = {
        "\"gpus\": 2", "\"shares_per_gpu\": 1", "\"status\": \"ok\"", "\"frame_ms\": {\"median\": 2.500000, \"p95\": 3.000000}",
        "\"speed_up\": 1.600000", "\"composite_ms\": 0.250000", "\"bytes_per_frame\": 20000000", "\"gb_per_s\": 8.000000",
        "\"largest_share_triangles\": 450000", "\"shares_share_a_gpu\": false",
    };
    check_has(two, k_two, sizeof k_two / sizeof k_two[0], "the 2-share row");
    /* 4.0 / 1.6 = 2.5x; 48 MB over 1.6 ms: 30 GB/s; two shares on each of 2 GPUs. */
    static const char *const k_four[] = {
        "\"gpus\": 2", "\"shares_per_gpu\": 2", "\"speed_up\": 2.500000", "\"gb_per_s\": 30.000000",
        "\"bytes_per_frame\": 48000000", "\"shares_share_a_gpu\": true",
    };
    check_has(four, k_four, sizeof k_four / sizeof k_four[0], "the 4-share row");
    free(one);
    free(two);
    free(four);
    free(j);
}

/* A failed row: its error escaped, every number (and the layout, as the table shows it) null. */
static void test_json_failed_row(void)
{
    fixture f;
    fixture_init(&f);
    size_t len = 0;
    char *j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    char *row = row_object(j, 8);
    SCT_REQUIRE(row);
    char error[256];
    snprintf(error, sizeof error, "\"error\": %s", k_error_json);
    const char *const k_nulls[] = {
        "\"status\": \"failed\"", "\"gpus\": null", "\"shares_per_gpu\": null",
        "\"frame_ms\": {\"median\": null, \"p95\": null}", "\"speed_up\": null", "\"composite_ms\": null",
        "\"bytes_per_frame\": null", "\"gb_per_s\": null", "\"largest_share_triangles\": null",
        "\"shares_share_a_gpu\": null", error,
    };
    check_has(row, k_nulls, sizeof k_nulls / sizeof k_nulls[0], "the failed row");
    SCT_CHECK_MSG(!strstr(row, "99") && !strstr(row, "12345"), "the failed row has numbers: %s", row);
    free(row);
    free(j);
}

/* No row ran: no base, every row's numbers null, still valid. A number that is not finite (a speed-up
 * against a zero frame time) is null too. */
static void test_json_no_ok_row(void)
{
    fixture f;
    fixture_init(&f);
    bench_gpus_row rows[2] = {failed_row(1, "out of memory"), failed_row(2, k_error)};
    f.report.rows = rows;
    f.report.row_count = 2;
    f.report.base = bench_gpus_base(rows, 2);
    size_t len = 0;
    char *j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"speed_up_base\": null"));
    SCT_CHECK_EQ_U64(count_of(j, "\"status\": \"failed\""), 2);
    SCT_CHECK_EQ_U64(count_of(j, "\"speed_up\": null"), 2);
    SCT_CHECK(strstr(j, "\"error\": \"out of memory\""));
    free(j);

    bench_gpus_row zero[2] = {ok_row(1, 1, 0.0, 0.0, 0.0, 100, 1), ok_row(2, 2, 1.0, 1.0, 0.0, 100, 1)};
    f.report.rows = zero;
    f.report.base = bench_gpus_base(zero, 2);
    j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    char *row = row_object(j, 1);
    SCT_REQUIRE(row);
    SCT_CHECK_MSG(strstr(row, "\"speed_up\": null") && strstr(row, "\"gb_per_s\": null"), "%s", row);
    SCT_CHECK(strstr(j, "\"speed_up\": 0.000000")); /* 0 ms / 1 ms */
    free(row);
    free(j);
}

static void test_json_empty(void)
{
    fixture f;
    fixture_init(&f);
    f.report.row_count = 0;
    f.report.base = bench_gpus_base(f.rows, 0);
    size_t len = 0;
    char *j = capture(bench_gpus_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"rows\": []"));
    SCT_CHECK(strstr(j, "\"speed_up_base\": null"));
    free(j);
}

/* ---- CSV --------------------------------------------------------------------------------------- */

static const char *const k_columns[] = {
    "shares", "gpus", "shares_per_gpu", "status", "error", "frame_median_ms", "frame_p95_ms", "speed_up",
    "composite_ms", "bytes_per_frame", "gb_per_s", "largest_share_triangles", "shares_share_a_gpu", "model",
    "model_name", "triangles", "width", "height", "tile_size", "num_slabs", "subdivide", "deform", "frames",
    "warmup", "speed_up_base", "device_name", "gpus_present", "commit", "command_line",
};
#define COLUMNS (sizeof k_columns / sizeof k_columns[0])

static const char *cell(const csv_table *t, size_t record, const char *column)
{
    long c = csv_column(t, column);
    if (c < 0 || record >= t->count || (size_t)c >= t->field_counts[record]) return "<missing>";
    return t->records[record][c];
}

/* Reads the report's CSV into t: the header as k_columns, then rows records as wide. 0 or -1. */
static int read_csv(const bench_gpus_report *r, size_t rows, csv_table *t)
{
    size_t len = 0;
    char *text = capture(bench_gpus_csv, r, &len);
    if (!text) return -1;
    int rc = csv_read(text, len, t);
    free(text);
    SCT_CHECK_MSG(rc == 0, "the CSV does not read back");
    if (rc != 0) return -1;
    SCT_CHECK_MSG(t->count == rows + 1, "%zu records, not a header and %zu rows", t->count, rows);
    SCT_CHECK_MSG(t->field_counts[0] == COLUMNS, "the header has %zu fields, not %zu", t->field_counts[0], COLUMNS);
    for (size_t i = 0; i < COLUMNS && i < t->field_counts[0]; ++i)
        SCT_CHECK_MSG(strcmp(t->records[0][i], k_columns[i]) == 0, "column %zu: %s, not %s", i, t->records[0][i],
                      k_columns[i]);
    for (size_t i = 1; i < t->count; ++i)
        SCT_CHECK_MSG(t->field_counts[i] == t->field_counts[0], "record %zu has %zu fields, the header %zu", i,
                      t->field_counts[i], t->field_counts[0]);
    return t->count == rows + 1 ? 0 : -1;
}

static void test_csv(void)
{
    fixture f;
    fixture_init(&f);
    csv_table t;
    SCT_REQUIRE(read_csv(&f.report, 4, &t) == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "shares"), "1") == 0 && strcmp(cell(&t, 2, "shares"), "2") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "shares"), "4") == 0 && strcmp(cell(&t, 4, "shares"), "8") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "speed_up"), "1.000000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "speed_up"), "1.600000") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "speed_up"), "2.500000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "frame_median_ms"), "2.500000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "frame_p95_ms"), "3.000000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "composite_ms"), "0.250000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "bytes_per_frame"), "20000000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "gb_per_s"), "8.000000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "largest_share_triangles"), "450000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "shares_share_a_gpu"), "false") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "shares_per_gpu"), "2") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "shares_share_a_gpu"), "true") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "status"), "ok") == 0 && strcmp(cell(&t, 1, "error"), "") == 0);
    /* The failed row: its error read back unchanged, its numbers empty. */
    SCT_CHECK(strcmp(cell(&t, 4, "status"), "failed") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "error"), k_error) == 0);
    static const char *const k_empty[] = {"gpus", "shares_per_gpu", "frame_median_ms", "frame_p95_ms", "speed_up",
                                          "composite_ms", "bytes_per_frame", "gb_per_s", "largest_share_triangles",
                                          "shares_share_a_gpu"};
    for (size_t i = 0; i < sizeof k_empty / sizeof k_empty[0]; ++i)
        SCT_CHECK_MSG(strcmp(cell(&t, 4, k_empty[i]), "") == 0, "failed row's %s: %s", k_empty[i],
                      cell(&t, 4, k_empty[i]));
    /* The run's columns, in every record. */
    for (size_t i = 1; i < t.count; ++i) {
        SCT_CHECK(strcmp(cell(&t, i, "model"), "../shared/models/stanford-dragon.obj.xz") == 0);
        SCT_CHECK(strcmp(cell(&t, i, "command_line"), k_command_line) == 0);
        SCT_CHECK(strcmp(cell(&t, i, "speed_up_base"), "1") == 0);
    }
    SCT_CHECK(strcmp(cell(&t, 1, "deform"), "twist,wave") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "device_name"), "NVIDIA H100 80GB HBM3") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "commit"), "abc123-dirty") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "triangles"), "871414") == 0 && strcmp(cell(&t, 1, "gpus_present"), "2") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "width"), "1920") == 0 && strcmp(cell(&t, 1, "num_slabs"), "16") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "frames"), "200") == 0 && strcmp(cell(&t, 1, "warmup"), "20") == 0);
    csv_table_free(&t);
}

/* No row ran, and no rows at all: the header and a record per row, no base. */
static void test_csv_no_ok_row(void)
{
    fixture f;
    fixture_init(&f);
    bench_gpus_row rows[1] = {failed_row(2, k_error)};
    f.report.rows = rows;
    f.report.row_count = 1;
    f.report.base = bench_gpus_base(rows, 1);
    csv_table t;
    SCT_REQUIRE(read_csv(&f.report, 1, &t) == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "speed_up_base"), "") == 0 && strcmp(cell(&t, 1, "speed_up"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "error"), k_error) == 0);
    csv_table_free(&t);
    f.report.row_count = 0;
    SCT_REQUIRE(read_csv(&f.report, 0, &t) == 0);
    csv_table_free(&t);
}

/* ---- the table, the files, a stream's error ---------------------------------------------------- */

static void test_table(void)
{
    fixture f;
    fixture_init(&f);
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    SCT_REQUIRE(s);
    bench_gpus_table(s, &f.report);
    fclose(s);
    SCT_REQUIRE(text);
    static const char *const k_lines[] = {
        "slabcast-bench --gpus: stanford-dragon, 871414 triangles, 1920x1080, tile 8, slabs 16; 2 GPUs present\n",
        "     2       2          1        2.500      3.000     1.60x         0.250         20.0       8.0       450000\n",
        "     8       - failed\n", "speed-up: against 1 share;",
        "note: 4 shares on 2 GPUs (2 per GPU): several shares share a GPU",
    };
    check_has(text, k_lines, sizeof k_lines / sizeof k_lines[0], "the table");
    SCT_CHECK_EQ_U64(count_of(text, "note:"), 1);
    free(text);
}

/* The file at path holds exactly what body writes to a stream. */
static void check_file_is(const char *path, int (*body)(FILE *, const bench_gpus_report *),
                          const bench_gpus_report *r, const char *what)
{
    FILE *in = fopen(path, "rb");
    char buf[8192];
    size_t n = in ? fread(buf, 1, sizeof buf, in) : 0;
    if (in) fclose(in);
    size_t len = 0;
    char *want = capture(body, r, &len);
    SCT_CHECK_MSG(want && len < sizeof buf && n == len && memcmp(buf, want, len) == 0,
                  "%s file: %zu bytes, the stream writer gives %zu", what, n, len);
    free(want);
}

/* The writers to files: the document as on a stream; a file that cannot be opened named on err. */
static void test_files(void)
{
    fixture f;
    fixture_init(&f);
    char path[] = "/tmp/test_bench_gpus_XXXXXX"; /* mkstemp's template: it replaces the Xs */
    int fd = mkstemp(path);
    SCT_REQUIRE(fd >= 0);
    close(fd);
    char *err_text = NULL;
    size_t err_len = 0;
    FILE *err = open_memstream(&err_text, &err_len);
    SCT_REQUIRE(err);
    /* Each file holds what the stream writer gives. */
    SCT_CHECK(bench_gpus_write_json(&f.report, path, err) == 0);
    check_file_is(path, bench_gpus_json, &f.report, "JSON");
    SCT_CHECK(bench_gpus_write_csv(&f.report, path, err) == 0);
    check_file_is(path, bench_gpus_csv, &f.report, "CSV");
    remove(path);
    static const char k_bad[] = "/nonexistent-folder-of-test-bench-gpus/out.json";
    SCT_CHECK(bench_gpus_write_json(&f.report, k_bad, err) == -1);
    SCT_CHECK(bench_gpus_write_csv(&f.report, "/nonexistent-folder-of-test-bench-gpus/out.csv", err) == -1);
    fclose(err);
    SCT_REQUIRE(err_text);
    SCT_CHECK_MSG(strstr(err_text, "slabcast-bench: /nonexistent-folder-of-test-bench-gpus/out.json: cannot write"),
                  "%s", err_text);
    SCT_CHECK_MSG(strstr(err_text, "/nonexistent-folder-of-test-bench-gpus/out.csv: cannot write"), "%s", err_text);
    free(err_text);
}

/* A stream that refuses writes: the writers say so. */
static void test_stream_error(void)
{
    fixture f;
    fixture_init(&f);
    FILE *ro = fopen("/dev/null", "r");
    SCT_REQUIRE(ro);
    SCT_CHECK(bench_gpus_json(ro, &f.report) == -1);
    clearerr(ro);
    SCT_CHECK(bench_gpus_csv(ro, &f.report) == -1);
    fclose(ro);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_gpus");
    SCT_RUN(test_base);
    SCT_RUN(test_json_run_fields);
    SCT_RUN(test_json_ok_rows);
    SCT_RUN(test_json_failed_row);
    SCT_RUN(test_json_no_ok_row);
    SCT_RUN(test_json_empty);
    SCT_RUN(test_csv);
    SCT_RUN(test_csv_no_ok_row);
    SCT_RUN(test_table);
    SCT_RUN(test_files);
    SCT_RUN(test_stream_error);
    return sct_end();
}
