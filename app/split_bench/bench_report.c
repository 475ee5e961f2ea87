/* bench_report.c - split_bench's rows: rates from the byte models, the JSON file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static bench_row *g_rows;
static size_t g_count, g_cap;

static struct {
    char gpu[256];
    int sm_count, driver, runtime;
    size_t l2_bytes;
    char commit[64];
    double copy_gbs;
    char options[256];
} g_head;

void report_add(bench_row *row, double copy_gbs)
{
    if (row->ms > 0) {
        row->gitems = (double)row->n / (row->ms * 1e6);
        row->gbs = row->model_bytes > 0 ? row->model_bytes / (row->ms * 1e6) : 0.0;
        row->frac_copy = row->gbs > 0 && copy_gbs > 0 ? row->gbs / copy_gbs : 0.0;
    }
    if (g_count == g_cap) {
        size_t cap = g_cap ? 2 * g_cap : 256;
        bench_row *r = (bench_row *)realloc(g_rows, cap * sizeof *r);
        if (!r) {
            fprintf(stderr, "split_bench: out of host memory\n");
            exit(1);
        }
        g_rows = r;
        g_cap = cap;
    }
    g_rows[g_count++] = *row;
}

static void copy_str(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

void report_set_header(const char *gpu_name, int sm_count, int driver_version, int runtime_version,
                       size_t l2_bytes, const char *git_commit, double copy_gbs, const char *options)
{
    copy_str(g_head.gpu, sizeof g_head.gpu, gpu_name);
    g_head.sm_count = sm_count;
    g_head.driver = driver_version;
    g_head.runtime = runtime_version;
    g_head.l2_bytes = l2_bytes;
    copy_str(g_head.commit, sizeof g_head.commit, git_commit);
    g_head.copy_gbs = copy_gbs;
    copy_str(g_head.options, sizeof g_head.options, options);
}

void report_cell(const bench_row *row, char *buf, size_t size)
{
    if (row->ms <= 0) {
        snprintf(buf, size, "%s", "failed");
        return;
    }
    if (row->frac_copy > 0)
        snprintf(buf, size, "%8.3f ms %6.1f G %3.0f%%", row->ms, row->gitems, 100.0 * row->frac_copy);
    else
        snprintf(buf, size, "%8.3f ms %6.1f G", row->ms, row->gitems);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double x)
{
    if (x != x || x > 1e300 || x < -1e300) fputs("null", f);
    else fprintf(f, "%.10g", x);
}

int report_write_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    char when[32] = "";
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    fputs("{\n  \"program\": \"split_bench\",\n  \"time_utc\": ", f);
    json_str(f, when);
    fputs(",\n  \"gpu\": ", f);
    json_str(f, g_head.gpu);
    fprintf(f, ",\n  \"sm_count\": %d,\n  \"driver_version\": %d,\n  \"runtime_version\": %d,\n  \"l2_bytes\": %zu,\n",
            g_head.sm_count, g_head.driver, g_head.runtime, g_head.l2_bytes);
    fputs("  \"git_commit\": ", f);
    json_str(f, g_head.commit);
    fputs(",\n  \"options\": ", f);
    json_str(f, g_head.options);
    fputs(",\n  \"copy_gbs\": ", f);
    json_num(f, g_head.copy_gbs);
    fputs(",\n  \"copy_model\": \"cudaMemcpyAsync device to device, bytes read + written\",\n"
          "  \"byte_models\": {\n"
          "    \"split keys\": \"12 bytes per key (count pass reads 4, scatter reads 4 and writes 4)\",\n"
          "    \"split pairs\": \"20 bytes per pair (count 4, scatter reads 8 and writes 8)\",\n"
          "    \"segmented pairs\": \"20 bytes per pair + 4 per segment offset read + 4 per bucket offset written\",\n"
          "    \"move\": \"n * (2 * record_bytes + 4): record read, record written, index read\"\n"
          "  },\n  \"rows\": [\n",
          f);
    for (size_t i = 0; i < g_count; ++i) {
        const bench_row *r = &g_rows[i];
        fputs("    {\"section\": ", f);
        json_str(f, r->section);
        fputs(", \"impl\": ", f);
        json_str(f, r->impl);
        fputs(", \"payload\": ", f);
        json_str(f, r->payload);
        fputs(", \"dist\": ", f);
        json_str(f, r->dist);
        fprintf(f, ", \"n\": %llu, \"buckets\": %u, \"passes\": %u, \"ms\": ", (unsigned long long)r->n, r->buckets,
                r->passes);
        json_num(f, r->ms);
        fputs(", \"g_items_per_s\": ", f);
        json_num(f, r->gitems);
        fputs(", \"model_bytes\": ", f);
        json_num(f, r->model_bytes);
        fputs(", \"gb_per_s\": ", f);
        json_num(f, r->gbs);
        fputs(", \"frac_copy\": ", f);
        json_num(f, r->frac_copy);
        fprintf(f, ", \"verified\": %s, \"note\": ", r->verified > 0 ? "true" : r->verified < 0 ? "false" : "null");
        json_str(f, r->note);
        fprintf(f, "}%s\n", i + 1 < g_count ? "," : "");
    }
    fputs("  ]\n}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
