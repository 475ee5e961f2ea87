/* frame_stats.c - per-stage statistics over frames. */
#include "frame_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The library's stage names (sc_stage_name), the frame's column after them. */
const char *app_stage_name(int stage)
{
    if (stage == SC_STAGE_COUNT) return "frame";
    const char *name = stage >= 0 && stage < SC_STAGE_COUNT ? sc_stage_name((sc_stage)stage) : NULL;
    return name ? name : "?";
}

int app_frame_log_init(app_frame_log *log, int frames)
{
    memset(log, 0, sizeof *log);
    log->capacity = frames < 1 ? 1 : (frames > APP_FRAME_LOG_MAX ? APP_FRAME_LOG_MAX : frames);
    log->rng = 0x9E3779B97F4A7C15ull;
    log->frames = calloc((size_t)log->capacity, sizeof *log->frames);
    return log->frames ? 0 : -1;
}

static uint64_t next_random(uint64_t *state) /* xorshift64 */
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

void app_frame_log_add(app_frame_log *log, const sc_frame_stats *s)
{
    log->last = *s;
    ++log->seen;
    if (log->count < log->capacity) {
        log->frames[log->count++] = *s;
        return;
    }
    /* Reservoir sampling: frame number `seen` replaces a kept one with probability capacity / seen. */
    uint64_t j = next_random(&log->rng) % (uint64_t)log->seen;
    if (j < (uint64_t)log->capacity) log->frames[j] = *s;
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
    if (log->count == 0 || stage < 0 || stage > SC_STAGE_COUNT) return 0.0;
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

static void print_frame_count(const app_frame_log *log, FILE *f)
{
    if (log->seen > log->count) fprintf(f, "(%lld frames, %d sampled)\n", (long long)log->seen, log->count);
    else fprintf(f, "(%lld frames)\n", (long long)log->seen);
}

void app_frame_log_print(const app_frame_log *log, FILE *f)
{
    if (log->seen == 0) return;
    const sc_frame_stats *last = &log->last;
    fprintf(f, "%-12s %10s %10s   ", "stage", "median ms", "p95 ms");
    print_frame_count(log, f);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s)
        fprintf(f, "%-12s %10.4f %10.4f\n", app_stage_name(s), app_frame_log_quantile(log, s, 0.5),
                app_frame_log_quantile(log, s, 0.95));
    fprintf(f, "last frame: %llu triangles, %llu visible, %llu references, %llu ray-triangle tests (%llu run),\n"
               "            %llu of %llu tiles exited early, %llu hit pixels, depth [%g, %g], %u grows, "
               "%u overflow passes\n",
            (unsigned long long)last->triangles, (unsigned long long)last->visible_triangles,
            (unsigned long long)last->references, (unsigned long long)last->ray_triangle_tests,
            (unsigned long long)last->ray_tests_performed,
            (unsigned long long)last->tiles_exited_early, (unsigned long long)last->tiles,
            (unsigned long long)last->hit_pixels, last->depth_min, last->depth_max, last->capacity_grows,
            last->overflow_passes);
    if (last->shadow_lights > 0)
        fprintf(f, "shadows:    %u lights, %u light views, %llu receivers, %llu caster references,\n"
                   "            %llu shadow-ray tests, %llu rays blocked, %llu decided early, %u overflow passes\n",
                last->shadow_lights, last->light_views, (unsigned long long)last->shadow_receivers,
                (unsigned long long)last->shadow_references, (unsigned long long)last->shadow_ray_tests,
                (unsigned long long)last->shadow_rays_blocked, (unsigned long long)last->shadow_rays_early,
                last->shadow_overflow_passes);
    if (log->pipelined_frames > 0 && log->pipelined_ms > 0.0)
        fprintf(f, "pipelined: %d frames back to back in %.3f ms: %.4f ms per frame (%.0f frames/s)\n",
                log->pipelined_frames, log->pipelined_ms, log->pipelined_ms / log->pipelined_frames,
                1000.0 * log->pipelined_frames / log->pipelined_ms);
}

/* ---- JSON -------------------------------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong forms, no surrogates, at
 * most U+10FFFF), or 0. A NUL ends the string and is never a continuation byte, so this never
 * reads past the terminator. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;       /* overlong */
        else if (c == 0xED) hi = 0x9F;  /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;       /* overlong */
        else if (c == 0xF4) hi = 0x8F;  /* above U+10FFFF */
    } else return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; ++i)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return n;
}

void app_json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    fputc('"', f);
    while (*s) {
        unsigned char c = *s;
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                        : c == '\t' ? "\\t" : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
        if (esc) {
            fputs(esc, f);
            ++s;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            ++s;
        } else {
            size_t n = utf8_length(s);
            if (n == 0) {
                fputs("\\ufffd", f);
                ++s;
            } else {
                fwrite(s, 1, n, f);
                s += n;
            }
        }
    }
    fputc('"', f);
}

void app_json_number(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.6f", v);
    else fputs("null", f);
}

void app_json_number_or_null(FILE *f, int known, double v)
{
    if (known) app_json_number(f, v);
    else fputs("null", f);
}

void app_json_u64_or_null(FILE *f, int known, uint64_t v)
{
    if (known) fprintf(f, "%llu", (unsigned long long)v);
    else fputs("null", f);
}

static void json_stages(const app_frame_log *log, FILE *f)
{
    fputs("  \"stages\": {\n", f);
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        fprintf(f, "    \"%s\": {\"median_ms\": ", app_stage_name(s));
        app_json_number(f, app_frame_log_quantile(log, s, 0.5));
        fputs(", \"p95_ms\": ", f);
        app_json_number(f, app_frame_log_quantile(log, s, 0.95));
        fprintf(f, "}%s\n", s == SC_STAGE_COUNT ? "" : ",");
    }
    fputs("  }", f);
}

static void json_last_frame(const app_frame_log *log, FILE *f)
{
    const sc_frame_stats *last = &log->last;
    if (log->seen == 0) return; /* omitted: no frame was rendered */
    fprintf(f, ",\n  \"last_frame\": {\"triangles\": %llu, \"visible_triangles\": %llu, \"references\": %llu, "
               "\"ray_triangle_tests\": %llu, \"ray_tests_performed\": %llu, \"tiles\": %llu, "
               "\"tiles_exited_early\": %llu, \"hit_pixels\": %llu, ",
            (unsigned long long)last->triangles, (unsigned long long)last->visible_triangles,
            (unsigned long long)last->references, (unsigned long long)last->ray_triangle_tests,
            (unsigned long long)last->ray_tests_performed,
            (unsigned long long)last->tiles, (unsigned long long)last->tiles_exited_early,
            (unsigned long long)last->hit_pixels);
    /* The shadow pass: all 0 when shadows are off. */
    fprintf(f, "\"shadow_lights\": %u, \"light_views\": %u, \"shadow_receivers\": %llu, "
               "\"shadow_references\": %llu, \"shadow_ray_tests\": %llu, \"shadow_rays_blocked\": %llu, "
               "\"shadow_rays_early\": %llu, \"shadow_overflow_passes\": %u}",
            last->shadow_lights, last->light_views, (unsigned long long)last->shadow_receivers,
            (unsigned long long)last->shadow_references, (unsigned long long)last->shadow_ray_tests,
            (unsigned long long)last->shadow_rays_blocked, (unsigned long long)last->shadow_rays_early,
            last->shadow_overflow_passes);
}

static void json_pipelined(const app_frame_log *log, FILE *f)
{
    if (log->pipelined_frames <= 0 || !(log->pipelined_ms > 0.0)) {
        fputs(",\n  \"pipelined\": null", f);
        return;
    }
    fprintf(f, ",\n  \"pipelined\": {\"frames\": %d, \"ms\": ", log->pipelined_frames);
    app_json_number(f, log->pipelined_ms);
    fputs(", \"ms_per_frame\": ", f);
    app_json_number(f, log->pipelined_ms / log->pipelined_frames);
    fputc('}', f);
}

int app_frame_log_write_json(const app_frame_log *log, const char *path, const char *device, const char *mesh,
                             unsigned width, unsigned height, FILE *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(err, "slabcast: %s: cannot write the statistics: %s\n", path, strerror(errno));
        return -1;
    }
    fputs("{\n  \"device\": ", f);
    app_json_string(f, device);
    fputs(",\n  \"mesh\": ", f);
    app_json_string(f, mesh);
    fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n  \"frames\": %lld,\n", width, height, (long long)log->seen);
    json_stages(log, f);
    json_last_frame(log, f);
    json_pipelined(log, f);
    fputs("\n}\n", f);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(err, "slabcast: %s: writing the statistics failed: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
