/* test_bench_cuda.c - a small slabcast-bench sweep on the CUDA backend with the cpu peer, in
 * process (the GPU machine runs test binaries, not scripts): two sizes x two slab counts x shadows off
 * and on of a small built-in mesh; every row filled (per-stage GPU times, frame rate, counters, device
 * memory used; with shadows the shadow counters, a receiver per hit pixel; the floor against the GPU's
 * limits measured at the start), the cpu peer run on the
 * same frames with agreement >= 0.99 and, with shadows, its shadow mask equal to ours on every pixel,
 * and the JSON and CSV of the run valid. Exits 77 without a CUDA device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_options.h"
#include "bench_report.h"
#include "bench_run.h"
#include "bench_sweep.h"
#include "bench_test_parse.h"
#include "sctest_cuda.h"

static void check_quant(const bench_quant *q, const char *what, unsigned config)
{
    SCT_CHECK_MSG(isfinite(q->median) && q->median >= 0.0 && q->median <= q->p95 && q->p95 <= q->max,
                  "config %u: %s quantiles %g %g %g", config, what, q->median, q->p95, q->max);
}

static void check_row(const bench_row *r)
{
    unsigned i = r->config.index;
    SCT_CHECK_MSG(!r->failed, "config %u failed: %s", i, r->error);
    SCT_CHECK(r->backend == SC_BACKEND_CUDA);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) check_quant(&r->stage[s], s == SC_STAGE_COUNT ? "frame" : "stage", i);
    SCT_CHECK_MSG(r->stage[SC_STAGE_COUNT].median > 0.0, "config %u: frame time 0", i);
    SCT_CHECK_MSG(r->stage[SC_STAGE_RAYCAST].median > 0.0, "config %u: no ray cast time", i);
    SCT_CHECK_MSG(isfinite(r->fps) && r->fps > 0.0 && r->back_to_back_frames == r->frames, "config %u: fps", i);
    SCT_CHECK_EQ_U64(r->triangles, 4 * 32 * 32);
    SCT_CHECK(r->visible_triangles > 0 && r->references > 0 && r->ray_triangle_tests > 0 && r->hit_pixels > 0);
    SCT_CHECK(r->tiles > 0 && r->tiles_exited_early <= r->tiles);
    /* Known (cudaMemGetInfo answered); small renderers may fit pages the driver already holds, so 0 is
     * possible. */
    SCT_CHECK_MSG(r->device_memory_bytes >= 0, "config %u: device memory used %lld", i, (long long)r->device_memory_bytes);
    /* The floor against the GPU's limits: every stage that moves bytes has one; the ray cast's tests are
     * the frame's. */
    SCT_CHECK_MSG(r->floor_known, "config %u: no floor", i);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        const bench_floor_stage *g = &r->floor.stage[s];
        if (g->bytes > 0)
            SCT_CHECK_MSG(g->ms > 0.0 && isfinite(g->ratio) && g->ratio > 0.0, "config %u: stage %d floor %g, x %g", i, s,
                          g->ms, g->ratio);
    }
    SCT_CHECK_EQ_U64(r->floor.stage[SC_STAGE_RAYCAST].tests, r->ray_tests_performed);
    SCT_CHECK_MSG(r->hit_pixels <= r->ray_tests_performed && r->ray_tests_performed <= r->ray_triangle_tests,
                  "tests run %llu, hit pixels %llu, counter %llu", (unsigned long long)r->ray_tests_performed,
                  (unsigned long long)r->hit_pixels, (unsigned long long)r->ray_triangle_tests);
    SCT_REQUIRE(r->peer_count == 1);
    const bench_peer_row *p = &r->peers[0];
    SCT_CHECK(strcmp(p->name, "cpu") == 0);
    SCT_CHECK_MSG(p->status == BENCH_PEER_OK, "config %u: cpu peer: %s", i, p->why);
    SCT_CHECK_MSG(p->result.agreement >= 0.99, "config %u: cpu peer agreement %.5f", i, p->result.agreement);
    SCT_CHECK(p->result.median_ms > 0.0 && isfinite(p->ratio) && p->ratio > 0.0);
    if (!r->config.shadows) {
        SCT_CHECK(r->shadow_lights == 0 && r->shadow_receivers == 0 && r->shadow_ray_tests == 0);
        return;
    }
    SCT_CHECK_MSG(r->shadow_lights == 1 && r->light_views >= 1 && r->light_views <= 6, "config %u: %u lights, %u views",
                  i, r->shadow_lights, r->light_views);
    SCT_CHECK_MSG(r->shadow_receivers == r->hit_pixels, "config %u: %llu receivers, %llu hit pixels", i,
                  (unsigned long long)r->shadow_receivers, (unsigned long long)r->hit_pixels);
    SCT_CHECK(r->shadow_references > 0 && r->shadow_ray_tests > 0 && r->shadow_rays_blocked > 0);
    SCT_CHECK(r->shadow_rays_blocked <= r->shadow_receivers && r->shadow_rays_early <= r->shadow_receivers);
    char want[96];
    const unsigned pixels = r->config.width * r->config.height;
    snprintf(want, sizeof want, "shadow masks equal on %u of %u pixels", pixels, pixels);
    SCT_CHECK_MSG(strcmp(p->result.detail, want) == 0, "config %u: cpu peer: %s", i, p->result.detail);
}

/* The run's JSON and CSV read back. */
static void check_documents(const bench_report *report)
{
    char *text = NULL;
    size_t len = 0, where = 0;
    FILE *f = open_memstream(&text, &len);
    bench_json(report, f);
    fclose(f);
    SCT_CHECK_MSG(json_check(text, len, &where) == 0, "JSON invalid at %zu", where);
    SCT_CHECK(strstr(text, "\"backend\": \"cuda\"") && strstr(text, "\"sm_count\": ") && !strstr(text, "\"sm_count\": null"));
    SCT_CHECK(!strstr(text, "\"device_memory_used_bytes\": null"));
    SCT_CHECK(strstr(text, "\"limits\": {\"copy_gbs\": ") && !strstr(text, "\"floor\": null"));
    free(text);
    f = open_memstream(&text, &len);
    bench_csv(report, f);
    fclose(f);
    csv_table t;
    SCT_REQUIRE(csv_read(text, len, &t) == 0);
    SCT_CHECK_EQ_U64(t.count, 1 + 2 * report->row_count);
    for (size_t r = 1; r < t.count; ++r) SCT_CHECK(t.field_counts[r] == t.field_counts[0]);
    csv_table_free(&t);
    free(text);
}

static void test_cuda_sweep(void)
{
    char *argv[] = {"slabcast-bench", "--backend", "cuda", "--resolution", "32", "--size", "128x96,160x120",
                    "--slabs", "4,16", "--frames", "6", "--warmup", "2", "--peers", "cpu", "--shadows", "off,on", NULL};
    int argc = (int)(sizeof argv / sizeof argv[0]) - 1;
    bench_options o;
    SCT_REQUIRE(bench_parse_options(argc, argv, &o, stderr) == 0);
    bench_context ctx;
    char why[512];
    int ctx_rc = bench_context_init(&ctx, &o, why, sizeof why);
    SCT_CHECK_MSG(ctx_rc == 0, "context: %s", why);
    if (ctx_rc != 0) {
        bench_context_free(&ctx);
        return;
    }
    SCT_CHECK(ctx.backend == SC_BACKEND_CUDA && ctx.device.sm_count > 0 && ctx.device.runtime_version > 0);
    printf("      device %s, %d SMs\n", ctx.device.name, ctx.device.sm_count);
    SCT_CHECK_MSG(ctx.device.limits_known, "limits: %s", ctx.device.limits_why);
    printf("      limits: copy %.1f GB/s, %.4g ray-triangle tests/s\n", ctx.device.limits.copy_gbs,
           ctx.device.limits.ray_tests_per_s);
    bench_config *configs = NULL;
    size_t count = 0;
    SCT_REQUIRE(bench_sweep_expand(&o, &configs, &count, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(count, 8);
    bench_row *rows = calloc(count, sizeof *rows);
    SCT_REQUIRE(rows);
    size_t failed = bench_run_sweep(&ctx, configs, count, rows, NULL, NULL, stderr);
    SCT_CHECK_EQ_U64(failed, 0);
    for (size_t i = 0; i < count; ++i) check_row(&rows[i]);
    bench_report report = {&o, &ctx.device, "test", "slabcast-bench (test)", rows, count};
    check_documents(&report);
    bench_print_table(&report, stdout);
    free(rows);
    free(configs);
    bench_context_free(&ctx);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_cuda");
    sct_require_cuda();
    SCT_RUN(test_cuda_sweep);
    return sct_end();
}
