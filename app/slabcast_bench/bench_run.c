/* bench_run.c - one configuration at a time: renderer, frames, numbers, peers. */
#include "bench_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_image.h"
#include "camera.h"
#include "deform_set.h"
#include "frame_stats.h"
#include "lights.h"
#include "sc_status.h"

#define BENCH_PI 3.14159265358979323846

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* The library's last message (or a fallback) into why; returns -1. */
static int library_error(const char *what, char *why, size_t why_size)
{
    const char *msg = sc_last_error();
    snprintf(why, why_size, "%s%s%s", what ? what : "", what ? ": " : "", msg[0] ? msg : "failed (no reason was given)");
    return -1;
}

/* ---- the context ------------------------------------------------------------------------------- */

/* The backend a renderer of these options gets: a 1x1 renderer created and destroyed (the CUDA
 * context is made here, so it is not counted in any configuration's memory). */
static int probe_backend(const bench_options *o, sc_backend *out, char *why, size_t why_size)
{
    sc_renderer_desc rd = {0};
    rd.backend = o->backend;
    rd.width = 1;
    rd.height = 1;
    rd.num_threads = o->threads;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&rd, &r) != SC_OK) {
        char what[32];
        snprintf(what, sizeof what, "--backend %s", bench_backend_name(o->backend));
        return library_error(what, why, why_size);
    }
    *out = sc_renderer_backend(r);
    sc_renderer_destroy(r);
    return 0;
}

int bench_context_init(bench_context *ctx, const bench_options *o, char *why, size_t why_size)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->options = o;
    bench_model_init(&ctx->model);
    if (probe_backend(o, &ctx->backend, why, why_size) != 0) return -1;
    if (bench_device_query(ctx->backend, o->threads, &ctx->device, why, why_size) != 0) return -1;
    if (!o->no_limits) (void)bench_device_measure_limits(&ctx->device, o->threads); /* said by the caller */
    for (unsigned i = 0; i < o->peer_count; ++i) {
        const bench_peer *p = bench_peer_find(o->peers[i]);
        if (!p) {
            snprintf(why, why_size, "--peers: %s is not built in this build", o->peers[i]);
            return -1;
        }
        ctx->peers[ctx->peer_count++] = p;
    }
    return 0;
}

void bench_context_free(bench_context *ctx)
{
    bench_model_free(&ctx->model);
}

/* ---- one configuration ------------------------------------------------------------------------- */

/* What one configuration holds while it runs; released by run_release. */
typedef struct run_state {
    const bench_options *o;
    const bench_config *c;
    sc_backend backend;
    sc_renderer *renderer;
    void *pixels;
    float *times;                /* the timed frames' times */
    sc_hit *hits;                /* our last frame's hits (host), when peers compare with them or with
                                    shadows on --images draws them */
    uint8_t *shadows;            /* our last frame's shadow mask (host), with shadows on, when peers or
                                    --images need it */
    app_frame_log log;
    int log_ready;
} run_state;

static void run_release(run_state *s)
{
    sc_renderer_destroy(s->renderer);
    s->renderer = NULL;
    bench_pixels_free(s->backend, s->pixels);
    s->pixels = NULL;
    free(s->times);
    s->times = NULL;
    free(s->hits);
    s->hits = NULL;
    free(s->shadows);
    s->shadows = NULL;
    if (s->log_ready) app_frame_log_free(&s->log);
    s->log_ready = 0;
}

/* The view: the model's framing turned by 360 k / N degrees about the vertical axis, or --camera. */
static void config_camera(const bench_options *o, const bench_config *c, const app_orbit *framing, bench_row *row)
{
    app_orbit orbit = *framing;
    if (c->views > 1) orbit.yaw += (float)(2.0 * BENCH_PI * (double)c->view / (double)c->views);
    app_camera cam;
    app_camera_from_orbit(&cam, &orbit);
    if (c->views == 0) (void)app_camera_set(&cam, o->camera, o->camera + 3, o->camera[6]); /* checked when parsed */
    row->camera = app_camera_desc(&cam);
    row->fov_degrees = app_camera_fov_degrees(&cam);
}

/* Frame i's time, computed in double (the options keep every frame within +-APP_MAX_TIME). */
static int make_times(run_state *s, int frames, char *why, size_t why_size)
{
    s->times = malloc((size_t)frames * sizeof *s->times); /* frames <= BENCH_MAX_FRAMES */
    if (!s->times) {
        snprintf(why, why_size, "out of memory for %d frame times", frames);
        return -1;
    }
    for (int i = 0; i < frames; ++i)
        s->times[i] = (float)((double)s->o->start_time + (double)i * (double)s->o->time_step);
    return 0;
}

/* A renderer of the configuration's grid with the model, the view and the deformers. */
static int create_renderer(run_state *s, const bench_model *m, const bench_row *row, char *why, size_t why_size)
{
    sc_renderer_desc rd = {0};
    rd.backend = s->backend;
    rd.width = s->c->width;
    rd.height = s->c->height;
    rd.tile_size = s->c->tile_size;
    rd.num_slabs = s->c->num_slabs;
    rd.num_threads = s->o->threads;
    rd.vertex_order = s->o->vertex_order;
    rd.stage_times = 1; /* the untimed frames: measure() turns it off */
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) return library_error(NULL, why, why_size);
    sc_mesh_data md = sc_mesh_view(&m->mesh);
    sc_deform_desc dd = app_deform_desc(s->c->deform_mask, 1.0f);
    if (sc_renderer_set_mesh(s->renderer, &md) != SC_OK || sc_renderer_set_camera(s->renderer, &row->camera) != SC_OK ||
        sc_renderer_set_deform(s->renderer, &dd) != SC_OK)
        return library_error(NULL, why, why_size);
    if (!s->c->shadows) return 0;
    /* Shadows on: the default light, and the option (the others as the renderer was created). */
    sc_render_options ro;
    if (sc_renderer_set_lights(s->renderer, &row->light, 1) != SC_OK ||
        sc_renderer_get_options(s->renderer, &ro) != SC_OK)
        return library_error("shadows", why, why_size);
    ro.shadows = 1;
    if (sc_renderer_set_options(s->renderer, &ro) != SC_OK) return library_error("shadows", why, why_size);
    return 0;
}

static int render_at(run_state *s, float time)
{
    sc_frame_desc f = {0};
    f.time = time;
    f.rgba = s->pixels;
    return sc_renderer_render(s->renderer, &f) == SC_OK ? 0 : -1;
}

/* Warm-up frames at the first frame's time, then the timed frames, each waited for (its stats read)
 * before the next, as the slabcast program's headless run does. *wall_ms: the timed frames' wall
 * time. */
static int render_measured(run_state *s, int frames, int warmup, double *wall_ms)
{
    for (int i = 0; i < warmup; ++i)
        if (render_at(s, s->times[0]) != 0) return -1;
    double t0 = now_ms();
    for (int i = 0; i < frames; ++i) {
        sc_frame_stats st;
        if (render_at(s, s->times[i]) != 0 || sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
        app_frame_log_add(&s->log, &st);
    }
    *wall_ms = now_ms() - t0;
    return 0;
}

/* The stage events on or off from the next frame on (the other options as they are). */
static int set_stage_times(run_state *s, int on)
{
    sc_render_options ro;
    if (sc_renderer_get_options(s->renderer, &ro) != SC_OK) return -1;
    ro.stage_times = on;
    return sc_renderer_set_options(s->renderer, &ro) == SC_OK ? 0 : -1;
}

/* The same frames back to back, no wait between them and one at the end: the real-time loop. */
static int render_back_to_back(run_state *s, int frames, double *wall_ms)
{
    double t0 = now_ms();
    for (int i = 0; i < frames; ++i)
        if (render_at(s, s->times[i]) != 0) return -1;
    sc_frame_stats st;
    if (sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
    *wall_ms = now_ms() - t0;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantiles of the host time of each render call (app_frame_log keeps the stage times only). */
static bench_quant call_quantiles(const app_frame_log *log)
{
    bench_quant q = {0.0, 0.0, 0.0};
    if (log->count == 0) return q;
    double *v = malloc((size_t)log->count * sizeof *v);
    if (!v) return (bench_quant){NAN, NAN, NAN};
    for (int i = 0; i < log->count; ++i) v[i] = log->frames[i].total_ms;
    qsort(v, (size_t)log->count, sizeof *v, cmp_double);
    int n = log->count;
    q.median = v[(int)(0.5 * (n - 1) + 0.5)];
    q.p95 = v[(int)(0.95 * (n - 1) + 0.5)];
    q.max = v[n - 1];
    free(v);
    return q;
}

/* Median, p95 and max of stage s (SC_STAGE_COUNT: the frame) over the log's frames. */
static bench_quant log_quantiles(const app_frame_log *log, int s)
{
    return (bench_quant){app_frame_log_quantile(log, s, 0.5), app_frame_log_quantile(log, s, 0.95),
                         app_frame_log_quantile(log, s, 1.0)};
}

/* The quantiles and the last frame's counters into the row. */
static void fill_numbers(const app_frame_log *log, bench_row *row)
{
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) row->stage[s] = log_quantiles(log, s);
    row->call = call_quantiles(log);
    const sc_frame_stats *l = &log->last;
    row->triangles = l->triangles;
    row->visible_triangles = l->visible_triangles;
    row->references = l->references;
    row->ray_triangle_tests = l->ray_triangle_tests;
    row->ray_tests_performed = l->ray_tests_performed;
    row->tiles = l->tiles;
    row->tiles_exited_early = l->tiles_exited_early;
    row->hit_pixels = l->hit_pixels;
    row->capacity_grows = l->capacity_grows;
    row->overflow_passes = l->overflow_passes;
    row->shadow_lights = l->shadow_lights;
    row->light_views = l->light_views;
    row->shadow_receivers = l->shadow_receivers;
    row->shadow_references = l->shadow_references;
    row->shadow_ray_tests = l->shadow_ray_tests;
    row->shadow_rays_blocked = l->shadow_rays_blocked;
    row->shadow_rays_early = l->shadow_rays_early;
    row->shadow_overflow_passes = l->shadow_overflow_passes;
}

/* Our last frame's hits in host memory, for the peers to compare with. */
static int read_our_hits(run_state *s, char *why, size_t why_size)
{
    size_t pixels = (size_t)s->c->width * s->c->height; /* sides <= 16384: fits */
    if (pixels > SIZE_MAX / sizeof *s->hits) {
        snprintf(why, why_size, "a %ux%u hit buffer does not fit in memory", s->c->width, s->c->height);
        return -1;
    }
    s->hits = malloc(pixels * sizeof *s->hits);
    if (!s->hits) {
        snprintf(why, why_size, "out of memory for a %ux%u hit buffer", s->c->width, s->c->height);
        return -1;
    }
    return sc_renderer_read_hits(s->renderer, s->hits) == SC_OK ? 0 : library_error(NULL, why, why_size);
}

/* Our last frame's shadow mask in host memory (shadows on). */
static int read_our_shadows(run_state *s, char *why, size_t why_size)
{
    s->shadows = malloc((size_t)s->c->width * s->c->height);
    if (!s->shadows) {
        snprintf(why, why_size, "out of memory for a %ux%u shadow mask", s->c->width, s->c->height);
        return -1;
    }
    return sc_renderer_read_shadows(s->renderer, s->shadows) == SC_OK ? 0 : library_error(NULL, why, why_size);
}

/* --images: our shadow decisions as <dir>/slabcast-shadow-<#>.png. */
static int write_our_image(run_state *s, char *why, size_t why_size)
{
    const size_t pixels = (size_t)s->c->width * s->c->height;
    char path[4096];
    if (bench_image_path(path, sizeof path, s->o->images_dir, "slabcast-shadow", s->c->index + 1) != 0) {
        snprintf(why, why_size, "--images %s: the folder's name is too long", s->o->images_dir);
        return -1;
    }
    uint8_t *decisions = malloc(pixels);
    if (!decisions) {
        snprintf(why, why_size, "out of memory for a %ux%u picture", s->c->width, s->c->height);
        return -1;
    }
    bench_our_decisions(s->hits, s->shadows, pixels, decisions);
    int rc = bench_decisions_png(path, s->c->width, s->c->height, decisions, why, why_size);
    free(decisions);
    return rc;
}

/* Renders the configuration and measures it; the renderer is destroyed before the peers run. */
static int measure(bench_context *ctx, run_state *s, bench_row *row, char *why, size_t why_size)
{
    uint64_t free_before = 0, free_after = 0;
    int frames = row->frames, warmup = row->warmup;
    if (make_times(s, frames, why, why_size) != 0) return -1;
    if (app_frame_log_init(&s->log, frames) != 0) {
        snprintf(why, why_size, "out of memory for the statistics of %d frames", frames);
        return -1;
    }
    s->log_ready = 1;
    if (bench_pixels_alloc(s->backend, s->c->width, s->c->height, &s->pixels, why, why_size) != 0) return -1;
    int memory_known = bench_device_free_memory(s->backend, &free_before) == 0;
    if (create_renderer(s, &ctx->model, row, why, why_size) != 0) return -1;
    double measured_ms = 0.0, back_ms = 0.0;
    if (render_measured(s, frames, warmup, &measured_ms) != 0) return library_error(NULL, why, why_size);
    fill_numbers(&s->log, row);
    row->frame_stage_events = row->stage[SC_STAGE_COUNT];
    if (ctx->device.asynchronous) {
        /* The frames again without stage events (the warm-up captures the ring's graphs again), then
         * back to back: frames queue on the device and overlap. */
        s->log.count = 0;
        if (set_stage_times(s, 0) != 0 || render_measured(s, frames, warmup, &measured_ms) != 0)
            return library_error(NULL, why, why_size);
        row->stage[SC_STAGE_COUNT] = log_quantiles(&s->log, SC_STAGE_COUNT);
        if (render_back_to_back(s, frames, &back_ms) != 0) return library_error(NULL, why, why_size);
    } else {
        back_ms = measured_ms; /* each frame is done in its call: back to back is the timed loop */
    }
    memory_known = memory_known && bench_device_free_memory(s->backend, &free_after) == 0;
    /* Memory freed meanwhile by another process could make the difference negative: 0 then. */
    row->device_memory_bytes = !memory_known ? -1 : free_before > free_after ? (int64_t)(free_before - free_after) : 0;
    row->back_to_back_frames = frames;
    row->back_to_back_ms = back_ms;
    row->fps = back_ms > 0.0 ? 1000.0 * frames / back_ms : NAN;
    const int images = s->c->shadows && s->o->images_dir;
    if ((ctx->peer_count || images) && read_our_hits(s, why, why_size) != 0) return -1;
    if (s->c->shadows && (ctx->peer_count || images) && read_our_shadows(s, why, why_size) != 0) return -1;
    if (images && write_our_image(s, why, why_size) != 0) return -1;
    sc_renderer_destroy(s->renderer);
    s->renderer = NULL;
    return 0;
}

/* Each peer on the same work. Returns -1 when one failed (its row says why). */
static int run_peers(bench_context *ctx, run_state *s, bench_row *row)
{
    bench_peer_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.mesh = &ctx->model.mesh;
    scene.width = s->c->width;
    scene.height = s->c->height;
    scene.tile_size = s->c->tile_size;
    scene.num_slabs = s->c->num_slabs;
    scene.camera = row->camera;
    scene.deform = app_deform_desc(s->c->deform_mask, 1.0f);
    scene.times = s->times;
    scene.frames = row->frames;
    scene.warmup = row->warmup;
    scene.cpu_threads = s->o->threads;
    scene.vertex_order = s->o->vertex_order;
    scene.our_hits = s->hits;
    for (int k = 0; k < 3; ++k) scene.framing_center[k] = ctx->model.orbit.center[k];
    scene.framing_radius = ctx->model.orbit.radius;
    scene.shadows = s->c->shadows;
    if (s->c->shadows) scene.light = row->light;
    scene.our_shadows = s->shadows;
    scene.image_dir = s->c->shadows ? s->o->images_dir : NULL;
    scene.config_number = s->c->index + 1;
    int rc = 0;
    for (unsigned i = 0; i < ctx->peer_count; ++i) {
        bench_peer_row *p = &row->peers[row->peer_count++];
        memset(p, 0, sizeof *p);
        p->name = ctx->peers[i]->name;
        p->ratio = NAN;
        p->result.agreement = -1.0;
        if (ctx->peers[i]->needs_shadows && !scene.shadows) {
            p->status = BENCH_PEER_SKIPPED;
            snprintf(p->why, sizeof p->why, "%s compares shadows: this configuration has shadows off", p->name);
            continue;
        }
        int r = ctx->peers[i]->run(&scene, &p->result, p->why, sizeof p->why);
        if (r == 0) {
            p->status = BENCH_PEER_OK;
            p->why[0] = '\0';
            if (p->result.median_ms > 0.0) p->ratio = row->stage[SC_STAGE_COUNT].median / p->result.median_ms;
        } else {
            p->status = r == 77 ? BENCH_PEER_SKIPPED : BENCH_PEER_FAILED;
            if (!p->why[0]) snprintf(p->why, sizeof p->why, "%s", r == 77 ? "cannot run here" : "failed");
            if (r != 77) rc = -1;
        }
    }
    return rc;
}

/* The frame's floor from the last timed frame's counters, the mesh and the target, against the run's
 * limits (bench_floor.h). */
void bench_row_floor(const bench_device *device, bench_row *row)
{
    row->floor_known = 0;
    if (row->failed || !device->limits_known) return;
    const bench_config *c = &row->config;
    bench_floor_input in;
    memset(&in, 0, sizeof in);
    in.vertices = row->vertices;
    in.triangles = row->triangles;
    in.pixels = (uint64_t)c->width * c->height;
    in.tiles = row->tiles;
    in.tile_size = c->tile_size;
    in.num_slabs = c->num_slabs;
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d)
        if ((c->deform_mask & APP_DEFORM_BIT(d)) && sc_deformer_reads_normals((sc_deformer)d) == 1)
            in.reads_normals = 1;
    in.visible_triangles = row->visible_triangles;
    in.references = row->references;
    in.ray_triangle_tests = row->ray_triangle_tests;
    in.ray_tests_performed = row->ray_tests_performed;
    in.tiles_exited_early = row->tiles_exited_early;
    in.hit_pixels = row->hit_pixels;
    in.shadow_lights = row->shadow_lights;
    in.shadow_receivers = row->shadow_receivers;
    in.shadow_references = row->shadow_references;
    in.shadow_ray_tests = row->shadow_ray_tests;
    double median[SC_STAGE_COUNT + 1];
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) median[s] = row->stage[s].median;
    row->floor_known = bench_floor_compute(&in, &device->limits, median, &row->floor) == 0;
}

/* The row before anything runs: the configuration, and every number unknown. */
static void row_begin(const bench_context *ctx, const bench_config *c, bench_row *row)
{
    memset(row, 0, sizeof *row);
    row->config = *c;
    bench_model_short_name(c->model_path, row->model_name, sizeof row->model_name);
    row->backend = ctx->backend;
    row->frames = bench_frames_for(ctx->options, ctx->device.device_timed);
    row->warmup = bench_warmup_for(ctx->options, ctx->device.device_timed);
    row->device_memory_bytes = -1;
    row->fps = NAN;
}

int bench_run_config(bench_context *ctx, const bench_config *c, bench_row *row)
{
    const bench_options *o = ctx->options;
    row_begin(ctx, c, row);
    sc_clear_error();
    if (bench_model_prepare(&ctx->model, (int)c->model, c->model_path, o->resolution, c->subdivide, row->error,
                            sizeof row->error) != 0) {
        row->failed = 1;
        return -1;
    }
    config_camera(o, c, &ctx->model.orbit, row);
    row->vertices = ctx->model.mesh.vertex_count;
    if (c->shadows) row->light = app_default_light(ctx->model.orbit.center, ctx->model.orbit.radius);
    run_state s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.c = c;
    s.backend = ctx->backend;
    int rc = 0;
    if (measure(ctx, &s, row, row->error, sizeof row->error) != 0) {
        row->failed = 1;
        rc = -1;
    } else {
        bench_row_floor(&ctx->device, row);
        if (ctx->peer_count) rc = run_peers(ctx, &s, row);
    }
    run_release(&s);
    return rc;
}

/* "slabcast-bench: [3/24] dragon 1920x1080 ...: why" for a failed configuration or peer. */
static void say_failure(const bench_row *row, size_t index, size_t count, FILE *err)
{
    char label[400];
    bench_config_label(&row->config, label, sizeof label);
    if (row->failed) {
        fprintf(err, "slabcast-bench: [%zu/%zu] %s: %s\n", index + 1, count, label, row->error);
        return;
    }
    for (unsigned i = 0; i < row->peer_count; ++i)
        if (row->peers[i].status == BENCH_PEER_FAILED)
            fprintf(err, "slabcast-bench: [%zu/%zu] %s: peer %s: %s\n", index + 1, count, label, row->peers[i].name,
                    row->peers[i].why);
}

size_t bench_run_sweep(bench_context *ctx, const bench_config *configs, size_t count, bench_row *rows,
                       bench_progress_fn progress, void *user, FILE *err)
{
    size_t failed = 0;
    for (size_t i = 0; i < count; ++i) {
        if (progress) progress(user, &configs[i], i, count);
        if (bench_run_config(ctx, &configs[i], &rows[i]) == 0) continue;
        ++failed;
        if (progress) progress(user, NULL, i, count); /* ends the progress line before the message */
        if (err) say_failure(&rows[i], i, count, err);
    }
    return failed;
}
