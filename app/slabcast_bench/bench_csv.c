/* bench_csv.c - a sweep's results as CSV (RFC 4180; columns: bench_report.h, docs/BENCH.md). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench_report.h"
#include "frame_stats.h"
#include "name_lists.h"

void bench_csv_field(FILE *f, const char *s)
{
    if (!s) s = "";
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* One record being written, or the header: the column functions below name each column once, so the
 * header and the rows cannot drift apart. */
typedef struct csv_out {
    bench_csv_record rec;
    const bench_report *r;
    const bench_row *row;
    const bench_peer_row *peer;  /* a peer's record; NULL: ours */
} csv_out;

void bench_csv_put(bench_csv_record *c, const char *name, const char *value)
{
    if (!c->first) fputc(',', c->f);
    c->first = 0;
    bench_csv_field(c->f, c->header ? name : value);
}

void bench_csv_u64(bench_csv_record *c, const char *name, int known, uint64_t v)
{
    char buf[32] = "";
    if (known) snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    bench_csv_put(c, name, buf);
}

void bench_csv_num(bench_csv_record *c, const char *name, int known, double v)
{
    char buf[64] = "";
    if (known && isfinite(v)) snprintf(buf, sizeof buf, "%.6f", v);
    bench_csv_put(c, name, buf);
}

static void csv_put(csv_out *c, const char *name, const char *value) { bench_csv_put(&c->rec, name, value); }

static void csv_text(csv_out *c, const char *name, const char *value) { csv_put(c, name, value ? value : ""); }

static void csv_u64(csv_out *c, const char *name, int known, uint64_t v) { bench_csv_u64(&c->rec, name, known, v); }

static void csv_num(csv_out *c, const char *name, int known, double v) { bench_csv_num(&c->rec, name, known, v); }

/* A number with 6 significant digits (floors reach nanoseconds, limits hundreds of billions). */
static void csv_g(csv_out *c, const char *name, int known, double v)
{
    char buf[64] = "";
    if (known && isfinite(v)) snprintf(buf, sizeof buf, "%.6g", v);
    csv_put(c, name, buf);
}

static void csv_quant(csv_out *c, const char *stage, const char *unit, int known, const bench_quant *q)
{
    char name[64];
    snprintf(name, sizeof name, "%s_median%s", stage, unit);
    csv_num(c, name, known, q->median);
    snprintf(name, sizeof name, "%s_p95%s", stage, unit);
    csv_num(c, name, known, q->p95);
    snprintf(name, sizeof name, "%s_max%s", stage, unit);
    csv_num(c, name, known, q->max);
}

/* What the configuration is (the same in its peers' records). */
static void csv_config_columns(csv_out *c)
{
    const bench_row *row = c->row;
    const bench_config *cf = &row->config;
    char deform[64];
    app_deform_set_names(cf->deform_mask, deform, sizeof deform);
    csv_u64(c, "config", 1, cf->index);
    csv_text(c, "kind", c->peer ? "peer" : "slabcast");
    csv_text(c, "peer", c->peer ? c->peer->name : "");
    const char *status = c->peer ? bench_peer_status_name(c->peer->status) : row->failed ? "failed" : "ok";
    csv_text(c, "status", status);
    csv_text(c, "error", c->peer ? (c->peer->status == BENCH_PEER_OK ? "" : c->peer->why) : row->failed ? row->error : "");
    csv_text(c, "model", cf->model_path ? cf->model_path : "builtin");
    csv_text(c, "model_name", row->model_name);
    csv_u64(c, "subdivide", 1, cf->subdivide);
    csv_text(c, "deform", deform);
    csv_u64(c, "width", 1, cf->width);
    csv_u64(c, "height", 1, cf->height);
    csv_u64(c, "pixels", 1, (uint64_t)cf->width * cf->height);
    csv_u64(c, "tile_size", 1, cf->tile_size);
    csv_u64(c, "num_slabs", 1, cf->num_slabs);
    csv_u64(c, "view", cf->views > 0, cf->view);
    csv_u64(c, "views", cf->views > 0, cf->views);
    csv_text(c, "shadows", cf->shadows ? "on" : "off");
    const int light = cf->shadows && !row->failed;
    csv_num(c, "light_x", light, (double)row->light.position[0]);
    csv_num(c, "light_y", light, (double)row->light.position[1]);
    csv_num(c, "light_z", light, (double)row->light.position[2]);
    csv_text(c, "backend", c->peer ? c->peer->name : bench_backend_name(row->backend));
    csv_u64(c, "frames", 1, (uint64_t)row->frames);
    csv_u64(c, "warmup", 1, (uint64_t)row->warmup);
}

/* Frame times: ours, or the peer's. */
static void csv_frame_columns(csv_out *c)
{
    const bench_row *row = c->row;
    if (c->peer) {
        int ok = c->peer->status == BENCH_PEER_OK;
        bench_quant q = {c->peer->result.median_ms, c->peer->result.p95_ms, c->peer->result.max_ms};
        csv_quant(c, "frame", "_ms", ok, &q);
    } else {
        csv_quant(c, "frame", "_ms", !row->failed, &row->stage[SC_STAGE_COUNT]);
    }
}

/* Our own numbers (empty in a peer's record). */
static void csv_our_columns(csv_out *c)
{
    const bench_row *row = c->row;
    int ours = !c->peer && !row->failed;
    for (int s = 0; s < SC_STAGE_COUNT; ++s) csv_quant(c, bench_stage_name(s), "_ms", ours, &row->stage[s]);
    csv_quant(c, "frame_stage_events", "_ms", ours, &row->frame_stage_events);
    csv_quant(c, "render_call", "_ms", ours, &row->call);
    csv_num(c, "back_to_back_ms_per_frame", ours && row->back_to_back_frames > 0,
            row->back_to_back_ms / (row->back_to_back_frames > 0 ? row->back_to_back_frames : 1));
    csv_num(c, "fps", ours, row->fps);
    csv_u64(c, "triangles", ours, row->triangles);
    csv_u64(c, "visible_triangles", ours, row->visible_triangles);
    csv_u64(c, "references", ours, row->references);
    csv_u64(c, "ray_triangle_tests", ours, row->ray_triangle_tests);
    csv_u64(c, "ray_tests_performed", ours, row->ray_tests_performed);
    csv_u64(c, "tiles", ours, row->tiles);
    csv_u64(c, "tiles_exited_early", ours, row->tiles_exited_early);
    csv_u64(c, "hit_pixels", ours, row->hit_pixels);
    csv_u64(c, "capacity_grows", ours, row->capacity_grows);
    csv_u64(c, "overflow_passes", ours, row->overflow_passes);
    csv_u64(c, "device_memory_used_bytes", ours && row->device_memory_bytes >= 0, (uint64_t)row->device_memory_bytes);
    csv_u64(c, "shadow_lights", ours, row->shadow_lights);
    csv_u64(c, "light_views", ours, row->light_views);
    csv_u64(c, "shadow_receivers", ours, row->shadow_receivers);
    csv_u64(c, "shadow_references", ours, row->shadow_references);
    csv_u64(c, "shadow_ray_tests", ours, row->shadow_ray_tests);
    csv_u64(c, "shadow_rays_blocked", ours, row->shadow_rays_blocked);
    csv_u64(c, "shadow_rays_early", ours, row->shadow_rays_early);
    csv_u64(c, "shadow_overflow_passes", ours, row->shadow_overflow_passes);
}

/* Our frame against its floor (bench_floor.h), per stage and the frame: <stage>_floor_bytes,
 * _floor_ms, _x_floor (median / floor), _frac_copy; the two casts and the frame also _floor_tests and
 * _frac_tests. Empty in a peer's record, without a floor, and where a stage's floor is 0. */
static void csv_floor_columns(csv_out *c)
{
    const bench_row *row = c->row;
    const int known = !c->peer && !row->failed && row->floor_known;
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        const bench_floor_stage *g = &row->floor.stage[s];
        const char *stage = bench_stage_name(s);
        const int cast = s == SC_STAGE_RAYCAST || s == SC_STAGE_SHADOW_CAST || s == SC_STAGE_COUNT;
        char name[64];
        snprintf(name, sizeof name, "%s_floor_bytes", stage);
        csv_u64(c, name, known, g->bytes);
        if (cast) {
            snprintf(name, sizeof name, "%s_floor_tests", stage);
            csv_u64(c, name, known, g->tests);
        }
        snprintf(name, sizeof name, "%s_floor_ms", stage);
        csv_g(c, name, known, g->ms);
        snprintf(name, sizeof name, "%s_x_floor", stage);
        csv_g(c, name, known, g->ratio);
        snprintf(name, sizeof name, "%s_frac_copy", stage);
        csv_g(c, name, known, g->frac_copy);
        if (cast) {
            snprintf(name, sizeof name, "%s_frac_tests", stage);
            csv_g(c, name, known, g->frac_tests);
        }
    }
}

/* The peer's comparison (empty in our record). */
static void csv_peer_columns(csv_out *c)
{
    const bench_peer_row *p = c->peer;
    int ok = p && p->status == BENCH_PEER_OK;
    csv_num(c, "peer_agreement", ok && p->result.agreement >= 0.0, ok ? p->result.agreement : 0.0);
    csv_num(c, "ratio", ok, ok ? p->ratio : 0.0);
    csv_num(c, "speedup", ok && p->ratio > 0.0, ok && p->ratio > 0.0 ? 1.0 / p->ratio : 0.0);
    csv_text(c, "peer_note", ok ? p->result.note : "");
    csv_text(c, "peer_detail", ok ? p->result.detail : "");
}

/* What it ran on, in every record. */
static void csv_run_columns(csv_out *c)
{
    const bench_device *d = c->r->device;
    const int gpu = d->on_device; /* the GPU's properties; the host's threads otherwise */
    csv_text(c, "device", d->name);
    csv_u64(c, "device_sms", gpu, (uint64_t)d->sm_count);
    csv_u64(c, "device_clock_khz", gpu && d->clock_khz > 0, (uint64_t)d->clock_khz);
    csv_u64(c, "driver_version", gpu && d->driver_version > 0, (uint64_t)d->driver_version);
    csv_u64(c, "runtime_version", gpu && d->runtime_version > 0, (uint64_t)d->runtime_version);
    csv_u64(c, "cpu_threads", !gpu, d->threads);
    csv_g(c, "limits_copy_gbs", d->limits_known, d->limits.copy_gbs);
    csv_g(c, "limits_ray_tests_per_s", d->limits_known, d->limits.ray_tests_per_s);
    csv_text(c, "commit", c->r->commit);
    csv_text(c, "command_line", c->r->command_line);
}

static void csv_record(csv_out *c)
{
    c->rec.first = 1;
    csv_config_columns(c);
    csv_frame_columns(c);
    csv_our_columns(c);
    csv_floor_columns(c);
    csv_peer_columns(c);
    csv_run_columns(c);
    fputs("\r\n", c->rec.f);
}

void bench_csv(const bench_report *r, FILE *f)
{
    static const bench_row k_empty; /* the header needs a row to walk the columns, not its values */
    csv_out c = {{f, 1, 1}, r, &k_empty, NULL};
    csv_record(&c);
    c.rec.header = 0;
    for (size_t i = 0; i < r->row_count; ++i) {
        c.row = &r->rows[i];
        c.peer = NULL;
        csv_record(&c);
        for (unsigned p = 0; p < r->rows[i].peer_count; ++p) {
            c.peer = &r->rows[i].peers[p];
            csv_record(&c);
        }
    }
}
