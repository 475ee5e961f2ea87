/* bench_table.c - a sweep's results as a table for people. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench_report.h"
#include "frame_stats.h"
#include "name_lists.h"

/* A count in at most 7 characters: 1234, 12.3k, 1.23M, 4.56G. */
static void short_count(uint64_t v, char *buf, size_t size)
{
    if (v < 10000) snprintf(buf, size, "%llu", (unsigned long long)v);
    else if (v < 1000000) snprintf(buf, size, "%.1fk", (double)v / 1e3);
    else if (v < 1000000000) snprintf(buf, size, "%.2fM", (double)v / 1e6);
    else snprintf(buf, size, "%.2fG", (double)v / 1e9);
}

static void table_header(const bench_report *r, FILE *out)
{
    const bench_device *d = r->device;
    const bench_options *o = r->options;
    fprintf(out, "slabcast-bench: %zu configuration%s on %s (%s", r->row_count, r->row_count == 1 ? "" : "s",
            bench_backend_name(d->backend), d->name);
    if (d->on_device) fprintf(out, ", %d SMs", d->sm_count);
    else fprintf(out, ", %u threads", d->threads);
    int frames = bench_frames_for(o, d->device_timed);
    fprintf(out, "), %d frame%s each after %d warm-up, commit %s\n", frames, frames == 1 ? "" : "s",
            bench_warmup_for(o, d->device_timed), r->commit);
    fprintf(out, "%4s  %-22s %-32s %-27s %9s %8s %8s %8s %8s %11s %9s  %s\n", "#", "model size", "grid",
            "frame ms median/p95/max", "fps", "tris", "visible", "refs", "tests", "early-exit", "memory", "deform");
}

static void table_row(const bench_row *row, FILE *out)
{
    const bench_config *c = &row->config;
    char what[64], grid[64], deform[48];
    app_deform_set_names(c->deform_mask, deform, sizeof deform);
    snprintf(what, sizeof what, "%.14s %ux%u", row->model_name, c->width, c->height);
    size_t n = (size_t)snprintf(grid, sizeof grid, "tile %u slabs %u", c->tile_size, c->num_slabs);
    if (c->subdivide && n < sizeof grid) n += (size_t)snprintf(grid + n, sizeof grid - n, " sub %u", c->subdivide);
    if (c->views > 1 && n < sizeof grid) snprintf(grid + n, sizeof grid - n, " view %u/%u", c->view + 1, c->views);
    if (c->views == 0 && n < sizeof grid) snprintf(grid + n, sizeof grid - n, " camera");
    fprintf(out, "%4u  %-22s %-32s ", c->index + 1, what, grid);
    if (row->failed) {
        fprintf(out, "failed: %s\n", row->error);
        return;
    }
    const bench_quant *f = &row->stage[SC_STAGE_COUNT];
    char times[64], t[5][16], mem[24] = "-";
    snprintf(times, sizeof times, "%.3f/%.3f/%.3f", f->median, f->p95, f->max);
    short_count(row->triangles, t[0], sizeof t[0]);
    short_count(row->visible_triangles, t[1], sizeof t[1]);
    short_count(row->references, t[2], sizeof t[2]);
    short_count(row->ray_triangle_tests, t[3], sizeof t[3]);
    snprintf(t[4], sizeof t[4], "%llu/%llu", (unsigned long long)row->tiles_exited_early,
             (unsigned long long)row->tiles);
    if (row->device_memory_bytes >= 0) snprintf(mem, sizeof mem, "%.1f MiB", (double)row->device_memory_bytes / 1048576.0);
    fprintf(out, "%-27s %9.1f %8s %8s %8s %8s %11s %9s  %s\n", times, row->fps, t[0], t[1], t[2], t[3], t[4], mem,
            deform);
}

/* With shadows on: the light and the shadow pass's counters, under the configuration's line. */
static void table_shadows(const bench_row *row, FILE *out)
{
    if (row->failed || !row->config.shadows) return;
    char t[5][16];
    short_count(row->shadow_receivers, t[0], sizeof t[0]);
    short_count(row->shadow_references, t[1], sizeof t[1]);
    short_count(row->shadow_ray_tests, t[2], sizeof t[2]);
    short_count(row->shadow_rays_blocked, t[3], sizeof t[3]);
    short_count(row->shadow_rays_early, t[4], sizeof t[4]);
    fprintf(out,
            "        shadows: point light (%.4g, %.4g, %.4g), %u light view%s, %s receivers, %s caster refs, "
            "%s shadow-ray tests, %s blocked, %s decided early, %u overflow pass%s\n",
            (double)row->light.position[0], (double)row->light.position[1], (double)row->light.position[2],
            row->light_views, row->light_views == 1 ? "" : "s", t[0], t[1], t[2], t[3], t[4],
            row->shadow_overflow_passes, row->shadow_overflow_passes == 1 ? "" : "es");
}

static void table_peer(const bench_peer_row *p, FILE *out)
{
    if (p->status != BENCH_PEER_OK) {
        fprintf(out, "        peer %s: %s: %s\n", p->name, bench_peer_status_name(p->status), p->why);
        return;
    }
    fprintf(out, "        peer %s: %.3f ms median (p95 %.3f, max %.3f)", p->name, p->result.median_ms,
            p->result.p95_ms, p->result.max_ms);
    if (p->result.agreement >= 0.0) fprintf(out, ", agreement %.4f", p->result.agreement);
    if (p->ratio > 0.0 && isfinite(p->ratio))
        fprintf(out, ": ours is %.2fx %s\n", p->ratio <= 1.0 ? 1.0 / p->ratio : p->ratio,
                p->ratio <= 1.0 ? "faster" : "slower");
    else
        fputc('\n', out);
    if (p->result.detail[0]) fprintf(out, "          %s\n", p->result.detail);
}

/* The title and the header line of a table with a column per stage and "frame": each column as wide
 * as its stage's name, at least 10 (widths into width). */
static void table_stage_header(const char *title, int width[SC_STAGE_COUNT + 1], FILE *out)
{
    fprintf(out, "%s\n%4s ", title, "#");
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        const size_t n = strlen(bench_stage_name(s));
        width[s] = n > 10 ? (int)n : 10;
        fprintf(out, " %*s", width[s], bench_stage_name(s));
    }
    fputc('\n', out);
}

/* Median ms of every stage per configuration; a column as wide as its stage's name, at least 10. */
static void table_stages(const bench_report *r, FILE *out)
{
    int width[SC_STAGE_COUNT + 1];
    table_stage_header("\nmedian ms per stage", width, out);
    for (size_t i = 0; i < r->row_count; ++i) {
        const bench_row *row = &r->rows[i];
        if (row->failed) continue;
        fprintf(out, "%4u ", row->config.index + 1);
        for (int s = 0; s <= SC_STAGE_COUNT; ++s) fprintf(out, " %*.4f", width[s], row->stage[s].median);
        fputc('\n', out);
    }
}

/* What one table of the floor shows per stage: the floor's time, the measured median over it, or the
 * fraction of the copy bandwidth achieved. */
typedef enum floor_column { FLOOR_MS, FLOOR_RATIO, FLOOR_COPY } floor_column;

/* One floor table: a line per configuration with a floor, a column per stage as wide as in the table
 * of medians; "-" where the stage has no floor (no bytes and no tests: normals, reduce, scan, the
 * shadow stages with shadows off). */
static void table_floor(const bench_report *r, floor_column what, const char *title, FILE *out)
{
    int width[SC_STAGE_COUNT + 1];
    table_stage_header(title, width, out);
    for (size_t i = 0; i < r->row_count; ++i) {
        const bench_row *row = &r->rows[i];
        if (row->failed || !row->floor_known) continue;
        fprintf(out, "%4u ", row->config.index + 1);
        for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
            const bench_floor_stage *g = &row->floor.stage[s];
            const double v = what == FLOOR_MS ? g->ms : what == FLOOR_RATIO ? g->ratio : 100.0 * g->frac_copy;
            char cell[32] = "-";
            if (g->ms > 0.0 && isfinite(v)) {
                if (what == FLOOR_MS) snprintf(cell, sizeof cell, "%.4g", v);
                else if (what == FLOOR_RATIO) snprintf(cell, sizeof cell, "%.3gx", v);
                else snprintf(cell, sizeof cell, "%.3g%%", v);
            }
            fprintf(out, " %*s", width[s], cell);
        }
        fputc('\n', out);
    }
}

/* The frame against its floor (bench_floor.h, docs/BENCH.md): the limits measured, then the floor in
 * ms, x floor (median / floor) and the fraction of the copy bandwidth per stage. */
static void table_floors(const bench_report *r, FILE *out)
{
    const bench_device *d = r->device;
    if (!d->limits_known) {
        if (r->options->no_limits) fputs("\nfloor: not measured (--no-limits)\n", out);
        else fprintf(out, "\nfloor: the device's limits could not be measured: %s\n", d->limits_why);
        return;
    }
    const sc_device_limits *l = &d->limits;
    fprintf(out,
            "\nfloor (docs/BENCH.md): the bytes each stage must move at %.1f GB/s of copy bandwidth, the casts' "
            "ray-triangle tests at %.4g G/s (%.1f%% hits), both measured on this %s in this run; lower bounds: a "
            "stage in the caches can pass them\n",
            l->copy_gbs, l->ray_tests_per_s * 1e-9, 100.0 * l->ray_hit_fraction, d->on_device ? "device" : "host");
    table_floor(r, FLOOR_MS, "floor ms per stage", out);
    table_floor(r, FLOOR_RATIO, "x floor per stage (median ms / floor ms)", out);
    table_floor(r, FLOOR_COPY, "% of the copy bandwidth per stage (model bytes / median / copy bandwidth)", out);
}

void bench_print_table(const bench_report *r, FILE *out)
{
    table_header(r, out);
    for (size_t i = 0; i < r->row_count; ++i) {
        table_row(&r->rows[i], out);
        table_shadows(&r->rows[i], out);
        for (unsigned p = 0; p < r->rows[i].peer_count; ++p) table_peer(&r->rows[i].peers[p], out);
    }
    table_stages(r, out);
    table_floors(r, out);
}
