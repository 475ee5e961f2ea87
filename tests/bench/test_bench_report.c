/* test_bench_report.c - slabcast-bench's JSON and CSV writers, read back: the JSON is one valid
 * document (a strict checker) with every field of the schema, null where a number is unknown; the
 * CSV is RFC 4180 (every record as wide as the header, hostile text quoted and read back unchanged),
 * one record per configuration and per peer. Also the command line's quoting and the table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_options.h"
#include "bench_report.h"
#include "bench_test_parse.h"
#include "sctest.h"

/* A model name with every character CSV and JSON must escape. */
static const char k_hostile[] = "we,ird \"model\"\nname\x01.obj";

/* Two configurations: the first ran (a peer that ran, one skipped), the second failed. */
typedef struct fixture {
    bench_options options;
    bench_device device;
    bench_row rows[2];
    bench_report report;
} fixture;

static void fill_ok_row(bench_row *r)
{
    r->config = (bench_config){0, 0, k_hostile, 1, 5, 64, 48, 8, 4, 1, 3, 1};
    snprintf(r->model_name, sizeof r->model_name, "we,ird");
    r->backend = SC_BACKEND_CPU;
    r->frames = 3;
    r->warmup = 1;
    r->camera.eye[2] = 5.0f;
    r->camera.up[1] = 1.0f;
    r->camera.near_plane = 0.1f;
    r->camera.far_plane = 10.0f;
    r->fov_degrees = 45.0f;
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) r->stage[s] = (bench_quant){0.25 * (s + 1), 0.5 * (s + 1), 1.0 * (s + 1)};
    r->call = (bench_quant){3.0, 4.0, 5.0};
    r->frame_stage_events = (bench_quant){2.5, 3.5, 6.5};
    r->back_to_back_frames = 3;
    r->back_to_back_ms = 9.0;
    r->fps = 333.333;
    r->triangles = 576;
    r->visible_triangles = 500;
    r->references = 900;
    r->ray_triangle_tests = 40000;
    r->ray_tests_performed = 40000; /* the ray cast's floor tests (test_bench_floor tells the two apart) */
    r->tiles = 48;
    r->tiles_exited_early = 7;
    r->hit_pixels = 400;
    r->device_memory_bytes = -1;
    r->light.type = SC_LIGHT_POINT;
    r->light.position[0] = 1.5f;
    r->light.position[1] = 3.0f;
    r->light.position[2] = -0.25f;
    r->shadow_lights = 1;
    r->light_views = 2;
    r->shadow_receivers = 400;
    r->shadow_references = 1234;
    r->shadow_ray_tests = 56789;
    r->shadow_rays_blocked = 120;
    r->shadow_rays_early = 300;
    r->peer_count = 2;
    r->peers[0] = (bench_peer_row){"cpu", BENCH_PEER_OK, {5.5, 6.5, 7.5, 0.995, "host, \"quoted\"", "masks, \"equal\""},
                                   0.5, ""};
    r->peers[1] = (bench_peer_row){"gl-raster", BENCH_PEER_SKIPPED, {0, 0, 0, -1.0, "", ""}, NAN, "no GL: none"};
}

static void fixture_init(fixture *f, sc_backend backend)
{
    memset(f, 0, sizeof *f);
    char *argv[] = {"slabcast-bench", "--size", "64x48", "--frames", "3", NULL};
    SCT_CHECK(bench_parse_options(5, argv, &f->options, stderr) == 0);
    f->device.backend = backend;
    /* what sc_backend_get_info says of each backend */
    f->device.on_device = f->device.asynchronous = f->device.device_timed = backend == SC_BACKEND_CUDA;
    snprintf(f->device.name, sizeof f->device.name, backend == SC_BACKEND_CUDA ? "NVIDIA <H100> & co" : "cpu");
    f->device.threads = 4;
    f->device.sm_count = 132;
    f->device.clock_khz = 1980000;
    f->device.driver_version = 13000;
    f->device.runtime_version = 13000;
    f->device.compute_major = 9;
    f->device.total_memory = 85ull << 30;
    fill_ok_row(&f->rows[0]);
    if (backend == SC_BACKEND_CUDA) f->rows[0].device_memory_bytes = 123456789;
    bench_row *bad = &f->rows[1];
    bad->config = (bench_config){1, 1, NULL, 0, 0, 96, 64, 8, 16, 0, 0, 0};
    snprintf(bad->model_name, sizeof bad->model_name, "builtin");
    bad->failed = 1;
    snprintf(bad->error, sizeof bad->error, "sc_renderer_create: \"bad\"\tgrid\n");
    bad->device_memory_bytes = -1;
    bad->fps = NAN;
    f->report = (bench_report){&f->options, &f->device, "abc123-dirty", "slabcast-bench --size 64x48 'a b'", f->rows, 2};
}

/* The writer's output as a string (free it). */
static char *capture(void (*body)(const bench_report *, FILE *), const bench_report *r, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    body(r, f);
    fclose(f);
    return text;
}

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) ++n;
    return n;
}

/* ---- JSON -------------------------------------------------------------------------------------- */

static void check_json_valid(const char *text, size_t len)
{
    size_t where = 0;
    SCT_CHECK_MSG(json_check(text, len, &where) == 0, "invalid JSON at byte %zu: ...%.60s", where, text + where);
}

/* The fixture's frame quantiles (stage SC_STAGE_COUNT: 0.25, 0.5 and 1 x (SC_STAGE_COUNT + 1)) as the
 * writers print them. */
static void frame_text(const char *fmt, char *buf, size_t size)
{
    const double k = SC_STAGE_COUNT + 1;
    snprintf(buf, size, fmt, 0.25 * k, 0.5 * k, 1.0 * k);
}

static void test_json_cpu(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CPU);
    size_t len = 0;
    char *j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    char frame[128];
    frame_text("\"frame\": {\"median\": %.6f, \"p95\": %.6f, \"max\": %.6f}", frame, sizeof frame);
    SCT_CHECK_MSG(strstr(j, frame), "JSON lacks %s", frame);
    static const char *const k_fields[] = {
        "\"schema\": 1", "\"program\": \"slabcast-bench\"", "\"commit\": \"abc123-dirty\"",
        "\"command_line\": \"slabcast-bench --size 64x48 'a b'\"", "\"sizes\": [\"64x48\"]",
        "\"device\": {\"backend\": \"cpu\", \"name\": \"cpu\", \"sm_count\": null", "\"threads\": 4}",
        "\"configurations\": 2", "\"failed\": 1", "\"status\": \"ok\"", "\"status\": \"failed\"",
        "\"error\": \"sc_renderer_create: \\\"bad\\\"\\tgrid\\n\"", "\"model\": \"we,ird \\\"model\\\"\\nname\\u0001.obj\"",
        "\"subdivide\": 1", "\"deform\": \"twist,wave\"", "\"pixels\": 3072", "\"view\": 1, \"views\": 3",
        "\"view\": null, \"views\": null", "\"raycast\": {\"median\": 2.250000, \"p95\": 4.500000, \"max\": 9.000000}",
        "\"render_call_ms\": {\"median\": 3.000000",
        "\"frame_stage_events_ms\": {\"median\": 2.500000, \"p95\": 3.500000, \"max\": 6.500000}",
        "\"back_to_back\": {\"frames\": 3, \"ms\": 9.000000, \"ms_per_frame\": 3.000000, \"fps\": 333.333000}",
        "\"tiles_exited_early\": 7", "\"device_memory_used_bytes\": null", "\"agreement\": 0.995000",
        "\"ratio\": 0.500000, \"speedup\": 2.000000", "\"status\": \"skipped\", \"why\": \"no GL: none\"",
        "\"fps\": null", "\"triangles\": null", "\"note\": \"host, \\\"quoted\\\"\"",
        "\"detail\": \"masks, \\\"equal\\\"\"", "\"shadows\": [\"off\"]", "\"images\": null",
        "\"shadows\": true, \"light\": {\"type\": \"point\", \"position\": [1.500000, 3.000000, -0.250000]}",
        "\"shadow_lights\": 1", "\"light_views\": 2", "\"shadow_receivers\": 400", "\"shadow_references\": 1234",
        "\"shadow_ray_tests\": 56789", "\"shadow_rays_blocked\": 120", "\"shadow_rays_early\": 300",
        "\"shadow_overflow_passes\": 0", "\"shadows\": false, \"light\": null", "\"shadow_receivers\": null",
    };
    for (size_t i = 0; i < sizeof k_fields / sizeof k_fields[0]; ++i)
        SCT_CHECK_MSG(strstr(j, k_fields[i]), "JSON lacks %s", k_fields[i]);
    SCT_CHECK_EQ_U64(count_of(j, "\"index\":"), 2);
    SCT_CHECK_EQ_U64(count_of(j, "\"stages_ms\":"), 2);
    /* Every stage (sc_stage, the shadow pass's included) and the frame, in every row, in the stage list
     * once, named by the names every output shares. */
    char list[1024] = "\"stages\": [";
    for (int s = 0; s < SC_STAGE_COUNT; ++s)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", s ? ", " : "", bench_stage_name(s));
    SCT_CHECK_MSG(strstr(j, list), "JSON lacks %s", list);
    static const char *const k_stages[] = {"deform", "normals", "project", "reduce", "scan", "emit", "tile_split",
                                           "slab_split", "raycast", "shade"};
    for (size_t i = 0; i < sizeof k_stages / sizeof k_stages[0]; ++i)
        SCT_CHECK_MSG(strstr(list, k_stages[i]), "stage %s missing", k_stages[i]);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\": {\"median\"", bench_stage_name(s));
        SCT_CHECK_MSG(count_of(j, key) == 2, "stage %s not in both rows", bench_stage_name(s));
    }
    free(j);
}

static void test_json_cuda(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CUDA);
    size_t len = 0;
    char *j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"name\": \"NVIDIA <H100> & co\", \"sm_count\": 132, \"clock_khz\": 1980000"));
    SCT_CHECK(strstr(j, "\"compute_capability\": \"9.0\""));
    SCT_CHECK(strstr(j, "\"driver_version\": 13000, \"runtime_version\": 13000, \"threads\": null"));
    SCT_CHECK(strstr(j, "\"device_memory_used_bytes\": 123456789"));
    free(j);
}

/* No rows at all still makes a valid document. */
static void test_json_empty(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CPU);
    f.report.row_count = 0;
    size_t len = 0;
    char *j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"rows\": []"));
    free(j);
}

/* The checker itself refuses what is not JSON (so the tests above mean something). */
static void test_json_checker(void)
{
    static const char *const k_bad[] = {"{", "{\"a\": }", "[1,]", "{\"a\" 1}", "nan", "01", "1.", "\"\x01\"", "\"\\x\"",
                                        "{} {}", "[1 2]", "-", "tru"};
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; ++i)
        SCT_CHECK_MSG(json_check(k_bad[i], strlen(k_bad[i]), NULL) != 0, "accepted: %s", k_bad[i]);
    static const char *const k_good[] = {"{}", "[]", "{\"a\": [1, -0.5e+3, true, false, null, \"\\u00e9\"]}", " 0 "};
    for (size_t i = 0; i < sizeof k_good / sizeof k_good[0]; ++i)
        SCT_CHECK_MSG(json_check(k_good[i], strlen(k_good[i]), NULL) == 0, "refused: %s", k_good[i]);
}

/* ---- CSV --------------------------------------------------------------------------------------- */

static const char *cell(const csv_table *t, size_t record, const char *column)
{
    long c = csv_column(t, column);
    if (c < 0 || record >= t->count || (size_t)c >= t->field_counts[record]) return "<missing>";
    return t->records[record][c];
}

static void test_csv(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CPU);
    size_t len = 0;
    char *text = capture(bench_csv, &f.report, &len);
    SCT_REQUIRE(text);
    csv_table t;
    SCT_REQUIRE(csv_read(text, len, &t) == 0);
    /* Header, the first configuration and its two peers, the failed configuration. */
    SCT_REQUIRE(t.count == 5);
    for (size_t r = 1; r < t.count; ++r)
        SCT_CHECK_MSG(t.field_counts[r] == t.field_counts[0], "record %zu has %zu fields, the header %zu", r,
                      t.field_counts[r], t.field_counts[0]);
    SCT_CHECK(strcmp(cell(&t, 1, "model"), k_hostile) == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "kind"), "slabcast") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "raycast_median_ms"), "2.250000") == 0);
    char frame[64];
    frame_text("%.6f", frame, sizeof frame); /* the median */
    SCT_CHECK(strcmp(cell(&t, 1, "frame_median_ms"), frame) == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "shadows"), "on") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "light_x"), "1.500000") == 0 && strcmp(cell(&t, 1, "light_z"), "-0.250000") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "shadow_ray_tests"), "56789") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "light_views"), "2") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "peer_detail"), "") == 0);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) {
        char column[64];
        snprintf(column, sizeof column, "%s_p95_ms", bench_stage_name(s));
        SCT_CHECK_MSG(csv_column(&t, column) >= 0, "no column %s", column);
    }
    SCT_CHECK(strcmp(cell(&t, 1, "tiles_exited_early"), "7") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "device_memory_used_bytes"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "peer"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "command_line"), "slabcast-bench --size 64x48 'a b'") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "kind"), "peer") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "peer"), "cpu") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "model"), k_hostile) == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "frame_median_ms"), "5.500000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "raycast_median_ms"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "peer_agreement"), "0.995000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "ratio"), "0.500000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "speedup"), "2.000000") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "peer_note"), "host, \"quoted\"") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "peer_detail"), "masks, \"equal\"") == 0);
    SCT_CHECK(strcmp(cell(&t, 2, "shadow_ray_tests"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "status"), "skipped") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "error"), "no GL: none") == 0);
    SCT_CHECK(strcmp(cell(&t, 3, "frame_median_ms"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "status"), "failed") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "error"), "sc_renderer_create: \"bad\"\tgrid\n") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "fps"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "config"), "1") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "view"), "") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "commit"), "abc123-dirty") == 0);
    SCT_CHECK(strcmp(cell(&t, 4, "shadows"), "off") == 0 && strcmp(cell(&t, 4, "light_x"), "") == 0);
    csv_table_free(&t);
    free(text);
}

static void test_csv_field(void)
{
    static const struct { const char *in, *out; } k_cases[] = {
        {"plain", "plain"}, {"", ""}, {"a,b", "\"a,b\""}, {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {"two\nlines", "\"two\nlines\""}, {"cr\r", "\"cr\r\""},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; ++i) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        bench_csv_field(f, k_cases[i].in);
        fclose(f);
        SCT_CHECK_MSG(strcmp(text, k_cases[i].out) == 0, "%s -> %s", k_cases[i].in, text);
        free(text);
    }
}

/* ---- the command line and the table ------------------------------------------------------------ */

static void test_command_line(void)
{
    char *argv[] = {"slabcast-bench", "a b", "it's", "--size=64x48,32x32", "", "x;y", NULL};
    char *s = bench_command_line(6, argv);
    SCT_REQUIRE(s);
    SCT_CHECK_MSG(strcmp(s, "slabcast-bench 'a b' 'it'\\''s' --size=64x48,32x32 '' 'x;y'") == 0, "%s", s);
    free(s);
}

static void test_table(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CPU);
    size_t len = 0;
    char *text = capture(bench_print_table, &f.report, &len);
    SCT_REQUIRE(text);
    SCT_CHECK(strstr(text, "2 configurations on cpu (cpu, 4 threads), 3 frames each after"));
    char frame[64];
    frame_text("%.3f/%.3f/%.3f", frame, sizeof frame);
    SCT_CHECK_MSG(strstr(text, frame), "no %s", frame);
    SCT_CHECK(strstr(text, "shadows: point light (1.5, 3, -0.25), 2 light views, 400 receivers, 1234 caster refs, "
                           "56.8k shadow-ray tests, 120 blocked, 300 decided early, 0 overflow passes"));
    SCT_CHECK(strstr(text, "          masks, \"equal\"\n"));
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) SCT_CHECK_MSG(strstr(text, bench_stage_name(s)), "no %s", bench_stage_name(s));
    SCT_CHECK(strstr(text, "peer cpu: 5.500 ms median (p95 6.500, max 7.500), agreement 0.9950: ours is 2.00x faster"));
    SCT_CHECK(strstr(text, "peer gl-raster: skipped: no GL: none"));
    SCT_CHECK(strstr(text, "failed: sc_renderer_create"));
    SCT_CHECK(strstr(text, "median ms per stage"));
    free(text);
}

/* ---- the floor ---------------------------------------------------------------------------------- */

/* The fixture with measured limits (100 GB/s, 2e9 tests/s) and the first row's floor computed: every
 * output carries it (the failed row none); without limits (--no-limits) the outputs say so. */
static void fixture_with_floor(fixture *f)
{
    fixture_init(f, SC_BACKEND_CPU);
    f->device.limits_known = 1;
    f->device.limits = (sc_device_limits){100.0, 2e9, 0.125, 5.0, 1.0, 268435456, 2000000, 7, 4};
    f->rows[0].vertices = 300;
    bench_row_floor(&f->device, &f->rows[0]);
    bench_row_floor(&f->device, &f->rows[1]);
}

static void test_floor_outputs(void)
{
    fixture f;
    fixture_with_floor(&f);
    SCT_REQUIRE(f.rows[0].floor_known && !f.rows[1].floor_known);
    /* The ray cast (8x8 tiles, 7 exited early): at least ceil(40000 / 64) = 625 of the 900 references read,
     * 52 bytes each, and 3072 hits of 16 bytes; 40000 tests at 2e9/s = 0.02 ms, above 81652 bytes at
     * 100 GB/s. */
    const bench_floor_stage *rc = &f.rows[0].floor.stage[SC_STAGE_RAYCAST];
    SCT_CHECK_EQ_U64(rc->bytes, 81652);
    SCT_CHECK_EQ_U64(rc->tests, 40000);
    SCT_CHECK(fabs(rc->ms - 0.02) < 1e-12 && fabs(rc->ratio - 2.25 / 0.02) < 1e-9);
    size_t len = 0;
    char *j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    static const char *const k_fields[] = {
        "\"limits\": {\"copy_gbs\": 100, \"ray_tests_per_s\": 2e+09, \"ray_hit_fraction\": 0.125",
        "\"copy_bytes\": 268435456, \"copy_ms\": 5, \"ray_tests\": 2000000, \"ray_ms\": 1, \"runs\": 7, \"threads\": 4}",
        "\"limits_error\": null", "\"no_limits\": false",
        "\"floor\": {\"deform\": {\"bytes\": 7200, \"tests\": null, \"bytes_ms\": 7.2e-05, \"tests_ms\": null",
        "\"normals\": {\"bytes\": 0, \"tests\": null, \"bytes_ms\": 0, \"tests_ms\": null, \"ms\": 0, \"ratio\": null",
        "\"raycast\": {\"bytes\": 81652, \"tests\": 40000, \"bytes_ms\": 0.00081652, \"tests_ms\": 0.02, \"ms\": 0.02, "
        "\"ratio\": 112.5, \"frac_copy\": 0.000362898, \"frac_tests\": 0.00888889}",
        "\"frame\": {\"bytes\": ", "\"ray_tests_performed\": 40000,",
    };
    for (size_t i = 0; i < sizeof k_fields / sizeof k_fields[0]; ++i)
        SCT_CHECK_MSG(strstr(j, k_fields[i]), "JSON lacks %s", k_fields[i]);
    SCT_CHECK_EQ_U64(count_of(j, "\"floor\": null"), 1); /* the failed row */
    SCT_CHECK_EQ_U64(count_of(j, "\"floor\": {"), 1);
    free(j);
    char *text = capture(bench_csv, &f.report, &len);
    SCT_REQUIRE(text);
    csv_table t;
    SCT_REQUIRE(csv_read(text, len, &t) == 0);
    SCT_REQUIRE(t.count == 5);
    for (size_t r = 1; r < t.count; ++r) SCT_CHECK(t.field_counts[r] == t.field_counts[0]);
    SCT_CHECK(strcmp(cell(&t, 1, "raycast_floor_bytes"), "81652") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "raycast_floor_tests"), "40000") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "raycast_floor_ms"), "0.02") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "raycast_x_floor"), "112.5") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "deform_floor_bytes"), "7200") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "normals_x_floor"), "") == 0);       /* no floor */
    SCT_CHECK(csv_column(&t, "deform_floor_tests") < 0);             /* tests: the casts and the frame only */
    SCT_CHECK(csv_column(&t, "shadow-cast_frac_tests") >= 0 && csv_column(&t, "frame_frac_tests") >= 0);
    SCT_CHECK(strcmp(cell(&t, 2, "raycast_floor_bytes"), "") == 0);  /* a peer's record */
    SCT_CHECK(strcmp(cell(&t, 4, "frame_floor_ms"), "") == 0);       /* the failed row */
    for (size_t r = 1; r < t.count; ++r) SCT_CHECK(strcmp(cell(&t, r, "limits_copy_gbs"), "100") == 0);
    SCT_CHECK(strcmp(cell(&t, 1, "limits_ray_tests_per_s"), "2e+09") == 0);
    csv_table_free(&t);
    free(text);
    text = capture(bench_print_table, &f.report, &len);
    SCT_REQUIRE(text);
    SCT_CHECK(strstr(text, "at 100.0 GB/s of copy bandwidth, the casts' ray-triangle tests at 2 G/s (12.5% hits)"));
    SCT_CHECK(strstr(text, "floor ms per stage") && strstr(text, "x floor per stage (median ms / floor ms)"));
    SCT_CHECK(strstr(text, "% of the copy bandwidth per stage"));
    SCT_CHECK_MSG(strstr(text, " 112x"), "the ray cast's x floor:\n%s", text);
    free(text);
}

static void test_floor_not_measured(void)
{
    fixture f;
    fixture_init(&f, SC_BACKEND_CPU);
    f.options.no_limits = 1;
    size_t len = 0;
    char *j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"limits\": null,\n  \"limits_error\": null") && strstr(j, "\"no_limits\": true"));
    SCT_CHECK_EQ_U64(count_of(j, "\"floor\": null"), 2);
    free(j);
    char *text = capture(bench_print_table, &f.report, &len);
    SCT_CHECK(text && strstr(text, "floor: not measured (--no-limits)"));
    free(text);
    /* Asked for, but the measurement failed: its reason in the JSON and the table. */
    f.options.no_limits = 0;
    snprintf(f.device.limits_why, sizeof f.device.limits_why, "sc_backend_measure_limits: \"no\" room");
    j = capture(bench_json, &f.report, &len);
    SCT_REQUIRE(j);
    check_json_valid(j, len);
    SCT_CHECK(strstr(j, "\"limits_error\": \"sc_backend_measure_limits: \\\"no\\\" room\""));
    free(j);
    text = capture(bench_print_table, &f.report, &len);
    SCT_CHECK(text && strstr(text, "floor: the device's limits could not be measured: sc_backend_measure_limits"));
    free(text);
}

/* ---- the device --------------------------------------------------------------------------------- */

/* What the benchmark says it ran on is what the library says of the backend. */
static void test_device_query(void)
{
    sc_backend_info info;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CPU, &info));
    bench_device d;
    char why[256] = "";
    const int queried = bench_device_query(SC_BACKEND_CPU, 0, &d, why, sizeof why);
    SCT_CHECK_MSG(queried == 0, "%s", why);
    SCT_REQUIRE(queried == 0);
    SCT_CHECK(d.backend == SC_BACKEND_CPU && strcmp(d.name, "cpu") == 0);
    SCT_CHECK(!d.on_device && d.asynchronous == info.asynchronous && d.device_timed == info.device_timed);
    SCT_CHECK_EQ_U64(d.threads, info.worker_threads);
    SCT_CHECK(d.sm_count == 0 && d.total_memory == 0);
    SCT_REQUIRE(bench_device_query(SC_BACKEND_CPU, 3, &d, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(d.threads, 3);
    uint64_t free_bytes = 0;
    SCT_CHECK(bench_device_free_memory(SC_BACKEND_CPU, &free_bytes) == -1); /* host memory: not measured */
    void *pixels = NULL;
    SCT_REQUIRE(bench_pixels_alloc(SC_BACKEND_CPU, 4, 2, &pixels, why, sizeof why) == 0 && pixels);
    memset(pixels, 0xab, 4 * 2 * 4); /* host memory, where the CPU backend wants it */
    bench_pixels_free(SC_BACKEND_CPU, pixels);
    SCT_CHECK(bench_pixels_alloc(SC_BACKEND_CPU, 0, 2, &pixels, why, sizeof why) == -1 && pixels == NULL);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_report");
    SCT_RUN(test_json_cpu);
    SCT_RUN(test_json_cuda);
    SCT_RUN(test_json_empty);
    SCT_RUN(test_json_checker);
    SCT_RUN(test_csv);
    SCT_RUN(test_csv_field);
    SCT_RUN(test_command_line);
    SCT_RUN(test_table);
    SCT_RUN(test_floor_outputs);
    SCT_RUN(test_floor_not_measured);
    SCT_RUN(test_device_query);
    return sct_end();
}
