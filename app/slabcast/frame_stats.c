/* frame_stats.c - per-stage statistics over frames. */
#include "frame_stats.h"

#include <stdlib.h>
#include <string.h>

static const char *const k_stage_names[SC_STAGE_COUNT + 1] = {
    [SC_STAGE_DEFORM] = "deform",       [SC_STAGE_NORMALS] = "normals",   [SC_STAGE_PROJECT] = "project",
    [SC_STAGE_REDUCE] = "reduce",       [SC_STAGE_SCAN] = "scan",         [SC_STAGE_EMIT] = "emit",
    [SC_STAGE_TILE_SPLIT] = "tile_split", [SC_STAGE_SLAB_SPLIT] = "slab_split",
    [SC_STAGE_RAYCAST] = "raycast",     [SC_STAGE_SHADE] = "shade",       [SC_STAGE_COUNT] = "frame",
};

const char *app_stage_name(int stage) { return stage >= 0 && stage <= SC_STAGE_COUNT ? k_stage_names[stage] : "?"; }

int app_frame_log_init(app_frame_log *log, int capacity)
{
    log->count = 0;
    log->capacity = capacity > 0 ? capacity : 1;
    log->frames = calloc((size_t)log->capacity, sizeof *log->frames);
    return log->frames ? 0 : -1;
}

void app_frame_log_add(app_frame_log *log, const sc_frame_stats *s)
{
    if (log->count < log->capacity) log->frames[log->count++] = *s;
}

void app_frame_log_free(app_frame_log *log)
{
    free(log->frames);
    memset(log, 0, sizeof *log);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double app_frame_log_quantile(const app_frame_log *log, int stage, double q)
{
    if (log->count == 0) return 0.0;
    double *v = malloc((size_t)log->count * sizeof *v);
    if (!v) return 0.0;
    for (int i = 0; i < log->count; ++i)
        v[i] = stage == SC_STAGE_COUNT ? log->frames[i].frame_ms : log->frames[i].stage_ms[stage];
    qsort(v, (size_t)log->count, sizeof *v, cmp_double);
    int k = (int)(q * (log->count - 1) + 0.5);
    double r = v[k < 0 ? 0 : (k >= log->count ? log->count - 1 : k)];
    free(v);
    return r;
}

void app_frame_log_print(const app_frame_log *log, FILE *f)
{
    if (log->count == 0) return;
    const sc_frame_stats *last = &log->frames[log->count - 1];
    fprintf(f, "%-12s %10s %10s   (%d frames)\n", "stage", "median ms", "p95 ms", log->count);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s)
        fprintf(f, "%-12s %10.4f %10.4f\n", app_stage_name(s), app_frame_log_quantile(log, s, 0.5),
                app_frame_log_quantile(log, s, 0.95));
    fprintf(f, "last frame: %llu triangles, %llu visible, %llu references, %llu ray-triangle tests,\n"
               "            %llu of %llu tiles exited early, %llu hit pixels, depth [%g, %g], %u grows, "
               "%u overflow passes\n",
            (unsigned long long)last->triangles, (unsigned long long)last->visible_triangles,
            (unsigned long long)last->references, (unsigned long long)last->ray_triangle_tests,
            (unsigned long long)last->tiles_exited_early, (unsigned long long)last->tiles,
            (unsigned long long)last->hit_pixels, last->depth_min, last->depth_max, last->capacity_grows,
            last->overflow_passes);
    if (log->pipelined_frames > 0)
        fprintf(f, "pipelined: %d frames back to back in %.3f ms: %.4f ms per frame (%.0f frames/s)\n",
                log->pipelined_frames, log->pipelined_ms, log->pipelined_ms / log->pipelined_frames,
                1000.0 * log->pipelined_frames / log->pipelined_ms);
}

int app_frame_log_write_json(const app_frame_log *log, const char *path, const char *device, const char *mesh,
                             unsigned width, unsigned height, FILE *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(err, "slabcast: cannot write %s\n", path);
        return -1;
    }
    const sc_frame_stats *last = log->count ? &log->frames[log->count - 1] : NULL;
    fprintf(f, "{\n  \"device\": \"%s\",\n  \"mesh\": \"%s\",\n  \"width\": %u,\n  \"height\": %u,\n"
               "  \"frames\": %d,\n  \"stages\": {\n",
            device, mesh, width, height, log->count);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s)
        fprintf(f, "    \"%s\": {\"median_ms\": %.6f, \"p95_ms\": %.6f}%s\n", app_stage_name(s),
                app_frame_log_quantile(log, s, 0.5), app_frame_log_quantile(log, s, 0.95),
                s == SC_STAGE_COUNT ? "" : ",");
    fprintf(f, "  }");
    if (last)
        fprintf(f, ",\n  \"last_frame\": {\"triangles\": %llu, \"visible_triangles\": %llu, \"references\": %llu, "
                   "\"ray_triangle_tests\": %llu, \"tiles\": %llu, \"tiles_exited_early\": %llu, "
                   "\"hit_pixels\": %llu}",
                (unsigned long long)last->triangles, (unsigned long long)last->visible_triangles,
                (unsigned long long)last->references, (unsigned long long)last->ray_triangle_tests,
                (unsigned long long)last->tiles, (unsigned long long)last->tiles_exited_early,
                (unsigned long long)last->hit_pixels);
    if (log->pipelined_frames > 0)
        fprintf(f, ",\n  \"pipelined\": {\"frames\": %d, \"ms\": %.6f, \"ms_per_frame\": %.6f}", log->pipelined_frames,
                log->pipelined_ms, log->pipelined_ms / log->pipelined_frames);
    fprintf(f, "\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}
