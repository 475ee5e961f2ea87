/* bench_json.c - a sweep's results as JSON (schema: bench_report.h, docs/BENCH.md). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench_report.h"
#include "frame_stats.h"
#include "name_lists.h"

static void json_string_or_null(FILE *f, const char *s)
{
    if (s && *s) app_json_string(f, s);
    else fputs("null", f);
}

static void json_u32_array(FILE *f, const uint32_t *v, unsigned n)
{
    fputc('[', f);
    for (unsigned i = 0; i < n; ++i) fprintf(f, "%s%u", i ? ", " : "", v[i]);
    fputc(']', f);
}

/* A measured or modelled number with 6 significant digits (floors reach nanoseconds); null when not
 * known or not finite. */
static void json_g_or_null(FILE *f, int known, double v)
{
    if (known && isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

static void json_vec3(FILE *f, const float *v)
{
    fputc('[', f);
    for (int k = 0; k < 3; ++k) {
        if (k) fputs(", ", f);
        app_json_number(f, (double)v[k]);
    }
    fputc(']', f);
}

static void json_options_lists(const bench_options *o, FILE *f)
{
    fputs("    \"models\": [", f);
    for (unsigned i = 0; i < (o->model_count ? o->model_count : 1); ++i) {
        if (i) fputs(", ", f);
        app_json_string(f, o->model_count && o->models[i] ? o->models[i] : "builtin");
    }
    fputs("],\n    \"sizes\": [", f);
    for (unsigned i = 0; i < o->size_count; ++i)
        fprintf(f, "%s\"%ux%u\"", i ? ", " : "", o->sizes[i].width, o->sizes[i].height);
    fputs("],\n    \"tiles\": ", f);
    json_u32_array(f, o->tiles, o->tile_count);
    fputs(",\n    \"slabs\": ", f);
    json_u32_array(f, o->slabs, o->slab_count);
    fputs(",\n    \"subdivide\": ", f);
    json_u32_array(f, o->subdivides, o->subdivide_count);
    fputs(",\n    \"deform\": [", f);
    for (unsigned i = 0; i < o->deform_count; ++i) {
        char name[64];
        app_deform_set_names(o->deforms[i], name, sizeof name);
        fprintf(f, "%s\"%s\"", i ? ", " : "", name);
    }
    fputs("],\n    \"shadows\": [", f);
    for (unsigned i = 0; i < o->shadow_count; ++i) fprintf(f, "%s\"%s\"", i ? ", " : "", o->shadows[i] ? "on" : "off");
    fputs("],\n", f);
}

static void json_options(const bench_report *r, FILE *f)
{
    const bench_options *o = r->options;
    const int timed = r->device->device_timed;
    fputs("  \"options\": {\n", f);
    json_options_lists(o, f);
    fputs("    \"views\": ", f);
    app_json_u64_or_null(f, !o->has_camera, o->views);
    fputs(",\n    \"camera\": ", f);
    if (o->has_camera) {
        fputs("{\"eye\": ", f);
        json_vec3(f, o->camera);
        fputs(", \"target\": ", f);
        json_vec3(f, o->camera + 3);
        fputs(", \"fov_degrees\": ", f);
        app_json_number(f, (double)o->camera[6]);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n    \"frames\": %d,\n    \"warmup\": %d,\n    \"time\": ", bench_frames_for(o, timed),
            bench_warmup_for(o, timed));
    app_json_number(f, (double)o->start_time);
    fputs(",\n    \"dt\": ", f);
    app_json_number(f, (double)o->time_step);
    fprintf(f, ",\n    \"vertex_order\": \"%s\"", bench_vertex_order_name(o->vertex_order));
    fprintf(f, ",\n    \"backend\": \"%s\",\n    \"resolution\": ", bench_backend_name(o->backend));
    app_json_u64_or_null(f, o->resolution != 0, o->resolution);
    fputs(",\n    \"threads\": ", f);
    app_json_u64_or_null(f, o->threads != 0, o->threads);
    fputs(",\n    \"images\": ", f);
    json_string_or_null(f, o->images_dir);
    fprintf(f, ",\n    \"no_limits\": %s", o->no_limits ? "true" : "false");
    fputs(",\n    \"peers\": [", f);
    for (unsigned i = 0; i < o->peer_count; ++i) {
        if (i) fputs(", ", f);
        app_json_string(f, o->peers[i]);
    }
    fputs("]\n  },\n", f);
}

static void json_device(const bench_device *d, FILE *f)
{
    const int gpu = d->on_device; /* the GPU's properties; the host's threads otherwise */
    fprintf(f, "  \"device\": {\"backend\": \"%s\", \"name\": ", bench_backend_name(d->backend));
    app_json_string(f, d->name);
    fputs(", \"sm_count\": ", f);
    app_json_u64_or_null(f, gpu, (uint64_t)d->sm_count);
    fputs(", \"clock_khz\": ", f);
    app_json_u64_or_null(f, gpu && d->clock_khz > 0, (uint64_t)d->clock_khz);
    fputs(", \"memory_clock_khz\": ", f);
    app_json_u64_or_null(f, gpu && d->memory_clock_khz > 0, (uint64_t)d->memory_clock_khz);
    fputs(", \"memory_bus_bits\": ", f);
    app_json_u64_or_null(f, gpu && d->memory_bus_bits > 0, (uint64_t)d->memory_bus_bits);
    fputs(", \"compute_capability\": ", f);
    if (gpu) fprintf(f, "\"%d.%d\"", d->compute_major, d->compute_minor);
    else fputs("null", f);
    fputs(", \"total_memory_bytes\": ", f);
    app_json_u64_or_null(f, gpu, d->total_memory);
    fputs(", \"driver_version\": ", f);
    app_json_u64_or_null(f, gpu && d->driver_version > 0, (uint64_t)d->driver_version);
    fputs(", \"runtime_version\": ", f);
    app_json_u64_or_null(f, gpu && d->runtime_version > 0, (uint64_t)d->runtime_version);
    fputs(", \"threads\": ", f);
    app_json_u64_or_null(f, !gpu, d->threads);
    fputs("},\n", f);
}

static void json_quant(FILE *f, int known, const bench_quant *q)
{
    fputs("{\"median\": ", f);
    app_json_number_or_null(f, known, q->median);
    fputs(", \"p95\": ", f);
    app_json_number_or_null(f, known, q->p95);
    fputs(", \"max\": ", f);
    app_json_number_or_null(f, known, q->max);
    fputc('}', f);
}

/* The configuration's own fields: what was run. */
static void json_row_config(const bench_row *row, FILE *f)
{
    const bench_config *c = &row->config;
    char deform[64];
    app_deform_set_names(c->deform_mask, deform, sizeof deform);
    fprintf(f, "    {\"index\": %u, \"status\": \"%s\", \"error\": ", c->index, row->failed ? "failed" : "ok");
    json_string_or_null(f, row->failed ? row->error : NULL);
    fputs(",\n     \"model\": ", f);
    app_json_string(f, c->model_path ? c->model_path : "builtin");
    fputs(", \"model_name\": ", f);
    app_json_string(f, row->model_name);
    fprintf(f, ", \"subdivide\": %u, \"deform\": \"%s\",\n", c->subdivide, deform);
    fprintf(f, "     \"width\": %u, \"height\": %u, \"pixels\": %llu, \"tile_size\": %u, \"num_slabs\": %u, \"view\": ",
            c->width, c->height, (unsigned long long)c->width * c->height, c->tile_size, c->num_slabs);
    app_json_u64_or_null(f, c->views > 0, c->view);
    fputs(", \"views\": ", f);
    app_json_u64_or_null(f, c->views > 0, c->views);
    fputs(",\n     \"camera\": {\"eye\": ", f);
    json_vec3(f, row->camera.eye);
    fputs(", \"target\": ", f);
    json_vec3(f, row->camera.target);
    fputs(", \"up\": ", f);
    json_vec3(f, row->camera.up);
    fputs(", \"fov_degrees\": ", f);
    app_json_number(f, (double)row->fov_degrees);
    fputs(", \"near\": ", f);
    app_json_number(f, (double)row->camera.near_plane);
    fputs(", \"far\": ", f);
    app_json_number(f, (double)row->camera.far_plane);
    fprintf(f, "},\n     \"backend\": \"%s\", \"frames\": %d, \"warmup\": %d,\n", bench_backend_name(row->backend),
            row->frames, row->warmup);
}

static void json_row_times(const bench_row *row, FILE *f)
{
    int ok = !row->failed;
    fputs("     \"stages_ms\": {", f);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        fprintf(f, "%s\"%s\": ", s ? ", " : "", bench_stage_name(s));
        json_quant(f, ok, &row->stage[s]);
    }
    fputs("},\n     \"frame_stage_events_ms\": ", f);
    json_quant(f, ok, &row->frame_stage_events);
    fputs(",\n     \"render_call_ms\": ", f);
    json_quant(f, ok, &row->call);
    fputs(",\n     \"back_to_back\": {\"frames\": ", f);
    app_json_u64_or_null(f, ok, (uint64_t)row->back_to_back_frames);
    fputs(", \"ms\": ", f);
    app_json_number_or_null(f, ok, row->back_to_back_ms);
    fputs(", \"ms_per_frame\": ", f);
    app_json_number_or_null(f, ok && row->back_to_back_frames > 0, row->back_to_back_ms / row->back_to_back_frames);
    fputs(", \"fps\": ", f);
    app_json_number_or_null(f, ok, row->fps);
    fputs("},\n", f);
}

static void json_row_counters(const bench_row *row, FILE *f)
{
    int ok = !row->failed;
    const struct { const char *name; uint64_t v; } k[] = {
        {"triangles", row->triangles}, {"visible_triangles", row->visible_triangles},
        {"references", row->references}, {"ray_triangle_tests", row->ray_triangle_tests},
        {"ray_tests_performed", row->ray_tests_performed},
        {"tiles", row->tiles}, {"tiles_exited_early", row->tiles_exited_early},
        {"hit_pixels", row->hit_pixels}, {"capacity_grows", row->capacity_grows},
        {"overflow_passes", row->overflow_passes},
    };
    fputs("     ", f);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        fprintf(f, "\"%s\": ", k[i].name);
        app_json_u64_or_null(f, ok, k[i].v);
        fputs(i == 4 ? ",\n     " : ", ", f);
    }
    fputs("\"device_memory_used_bytes\": ", f);
    if (ok && row->device_memory_bytes >= 0) fprintf(f, "%lld", (long long)row->device_memory_bytes);
    else fputs("null", f);
}

/* Shadows: the setting, the light (null with shadows off or failed), and the shadow counters (0 with
 * shadows off; null when failed). */
static void json_row_shadows(const bench_row *row, FILE *f)
{
    int ok = !row->failed;
    fprintf(f, ",\n     \"shadows\": %s, \"light\": ", row->config.shadows ? "true" : "false");
    if (ok && row->config.shadows) {
        fprintf(f, "{\"type\": \"%s\", \"position\": ", row->light.type == SC_LIGHT_POINT ? "point" : "directional");
        json_vec3(f, row->light.position);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    const struct { const char *name; uint64_t v; } k[] = {
        {"shadow_lights", row->shadow_lights}, {"light_views", row->light_views},
        {"shadow_receivers", row->shadow_receivers}, {"shadow_references", row->shadow_references},
        {"shadow_ray_tests", row->shadow_ray_tests}, {"shadow_rays_blocked", row->shadow_rays_blocked},
        {"shadow_rays_early", row->shadow_rays_early}, {"shadow_overflow_passes", row->shadow_overflow_passes},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        fprintf(f, "%s\"%s\": ", i == 1 || i == 5 ? ",\n     " : ", ", k[i].name);
        app_json_u64_or_null(f, ok, k[i].v);
    }
}

/* The device's limits, once per run (null when not measured; limits_error says why, null when
 * --no-limits or measured). */
static void json_limits(const bench_report *r, FILE *f)
{
    const bench_device *d = r->device;
    fputs("  \"limits\": ", f);
    if (!d->limits_known) {
        fputs("null,\n  \"limits_error\": ", f);
        json_string_or_null(f, r->options->no_limits ? NULL : d->limits_why);
        fputs(",\n", f);
        return;
    }
    const sc_device_limits *l = &d->limits;
    fputs("{\"copy_gbs\": ", f);
    json_g_or_null(f, 1, l->copy_gbs);
    fputs(", \"ray_tests_per_s\": ", f);
    json_g_or_null(f, 1, l->ray_tests_per_s);
    fputs(", \"ray_hit_fraction\": ", f);
    json_g_or_null(f, 1, l->ray_hit_fraction);
    fprintf(f, ",\n             \"copy_bytes\": %llu, \"copy_ms\": ", (unsigned long long)l->copy_bytes);
    json_g_or_null(f, 1, l->copy_ms);
    fprintf(f, ", \"ray_tests\": %llu, \"ray_ms\": ", (unsigned long long)l->ray_tests);
    json_g_or_null(f, 1, l->ray_ms);
    fprintf(f, ", \"runs\": %u, \"threads\": %u},\n  \"limits_error\": null,\n", l->runs, l->threads);
}

/* The frame against its floor (bench_floor.h): per stage and "frame", the model's bytes and tests
 * (tests: the two casts and the frame only), their times at the limits, the floor, the measured median
 * over it, and the fractions of the copy bandwidth and test rate achieved; null as a whole without a
 * floor. */
static void json_row_floor(const bench_row *row, FILE *f)
{
    fputs(",\n     \"floor\": ", f);
    if (row->failed || !row->floor_known) {
        fputs("null", f);
        return;
    }
    fputc('{', f);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        const bench_floor_stage *g = &row->floor.stage[s];
        const int cast = s == SC_STAGE_RAYCAST || s == SC_STAGE_SHADOW_CAST || s == SC_STAGE_COUNT;
        fprintf(f, "%s\"%s\": {\"bytes\": %llu, \"tests\": ", s ? ",\n       " : "", bench_stage_name(s),
                (unsigned long long)g->bytes);
        app_json_u64_or_null(f, cast, g->tests);
        fputs(", \"bytes_ms\": ", f);
        json_g_or_null(f, 1, g->bytes_ms);
        fputs(", \"tests_ms\": ", f);
        json_g_or_null(f, cast, g->tests_ms);
        fputs(", \"ms\": ", f);
        json_g_or_null(f, 1, g->ms);
        fputs(", \"ratio\": ", f);
        json_g_or_null(f, 1, g->ratio);
        fputs(", \"frac_copy\": ", f);
        json_g_or_null(f, 1, g->frac_copy);
        fputs(", \"frac_tests\": ", f);
        json_g_or_null(f, cast, g->frac_tests);
        fputc('}', f);
    }
    fputc('}', f);
}

static void json_peer(const bench_peer_row *p, FILE *f)
{
    int ok = p->status == BENCH_PEER_OK;
    fputs("{\"name\": ", f);
    app_json_string(f, p->name);
    fprintf(f, ", \"status\": \"%s\", \"why\": ", bench_peer_status_name(p->status));
    json_string_or_null(f, ok ? NULL : p->why);
    fputs(", \"median_ms\": ", f);
    app_json_number_or_null(f, ok, p->result.median_ms);
    fputs(", \"p95_ms\": ", f);
    app_json_number_or_null(f, ok, p->result.p95_ms);
    fputs(", \"max_ms\": ", f);
    app_json_number_or_null(f, ok, p->result.max_ms);
    fputs(", \"agreement\": ", f);
    app_json_number_or_null(f, ok && p->result.agreement >= 0.0, p->result.agreement);
    fputs(", \"ratio\": ", f);
    app_json_number_or_null(f, ok, p->ratio);
    fputs(", \"speedup\": ", f);
    app_json_number_or_null(f, ok && p->ratio > 0.0, 1.0 / p->ratio);
    fputs(", \"note\": ", f);
    json_string_or_null(f, ok ? p->result.note : NULL);
    fputs(", \"detail\": ", f);
    json_string_or_null(f, ok ? p->result.detail : NULL);
    fputc('}', f);
}

static void json_row(const bench_row *row, FILE *f)
{
    json_row_config(row, f);
    json_row_times(row, f);
    json_row_counters(row, f);
    json_row_shadows(row, f);
    json_row_floor(row, f);
    fputs(",\n     \"peers\": [", f);
    for (unsigned i = 0; i < row->peer_count; ++i) {
        fputs(i ? ",\n       " : "\n       ", f);
        json_peer(&row->peers[i], f);
    }
    fputs("]}", f);
}

static size_t failed_rows(const bench_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->row_count; ++i) n += r->rows[i].failed != 0;
    return n;
}

void bench_json(const bench_report *r, FILE *f)
{
    fprintf(f, "{\n  \"schema\": %d,\n  \"program\": \"slabcast-bench\",\n  \"commit\": ", BENCH_JSON_SCHEMA);
    app_json_string(f, r->commit);
    fputs(",\n  \"command_line\": ", f);
    app_json_string(f, r->command_line);
    fputs(",\n", f);
    json_options(r, f);
    json_device(r->device, f);
    json_limits(r, f);
    fputs("  \"stages\": [", f);
    for (int s = 0; s < SC_STAGE_COUNT; ++s) fprintf(f, "%s\"%s\"", s ? ", " : "", bench_stage_name(s));
    fprintf(f, "],\n  \"configurations\": %zu,\n  \"failed\": %zu,\n  \"rows\": [", r->row_count, failed_rows(r));
    for (size_t i = 0; i < r->row_count; ++i) {
        fputs(i ? ",\n" : "\n", f);
        json_row(&r->rows[i], f);
    }
    fputs(r->row_count ? "\n  ]\n}\n" : "]\n}\n", f);
}
