/* headless.c - renders frames without a window: per-stage times and counters (each frame waited for),
 * then on an asynchronous backend (CUDA) the same number of frames back to back (the real-time loop,
 * no wait between frames), the last frame as an image; with --record, every measured frame as an
 * image. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "app.h"
#include "app_report.h"
#include "frame_stats.h"
#include "lights.h"

static double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* Frame i's time, computed in double (the options keep every frame within +-APP_MAX_TIME). */
static float frame_time(const app_options *o, int i)
{
    return (float)((double)o->start_time + (double)i * (double)o->time_step);
}

static int write_image(const app_image *img, const char *path, app_image_format format, int say);

/* The lights set (--light, or the default one), so a run says where its shadows come from. */
static void print_lights(const app_options *o, const app_scene *s)
{
    if (s->light_count == 0) return;
    printf("slabcast: shadows %s, %u light%s:", o->shadows ? "on" : "off", s->light_count,
           s->light_count == 1 ? "" : "s");
    for (uint32_t i = 0; i < s->light_count; ++i) {
        char text[128];
        app_light_format(&s->lights[i], text, sizeof text);
        printf("%s %s%s", i ? "," : "", text, s->light_default ? " (default)" : "");
    }
    printf("\n");
}

/* --record DIR: frame n (from 1) as DIR/frame-NNNNNN.png. */
static int record_frame(const app_image *img, const char *dir, int n)
{
    char path[4096];
    return app_record_path(dir, n, path, sizeof path) == 0 ? write_image(img, path, APP_IMAGE_PNG, 0) : -1;
}

/* Renders warm-up frames (time of frame 0), then `frames` frames with their statistics in log. */
static int render_measured(const app_options *o, app_scene *s, const app_image *record, void *pixels, int frames,
                           int warmup, app_frame_log *log)
{
    for (int i = 0; i < frames + warmup; ++i) {
        sc_frame_desc f = {0};
        f.time = frame_time(o, i < warmup ? 0 : i - warmup);
        f.rgba = pixels;
        if (sc_renderer_render(s->renderer, &f) != SC_OK) return -1;
        if (i >= warmup) {
            sc_frame_stats st;
            if (sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
            app_frame_log_add(log, &st);
            if (record && record_frame(record, o->record_dir, i - warmup + 1) != 0) return -2;
        }
    }
    return 0;
}

/* Frames back to back as a real-time loop runs them: no wait between frames, one at the end. */
static int render_pipelined(const app_options *o, app_scene *s, void *pixels, int frames, app_frame_log *log)
{
    double t0 = app_now_ms();
    for (int i = 0; i < frames; ++i) {
        sc_frame_desc f = {0};
        f.time = frame_time(o, i);
        f.rgba = pixels;
        if (sc_renderer_render(s->renderer, &f) != SC_OK) return -1;
    }
    sc_frame_stats st;
    if (sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
    log->pipelined_frames = frames;
    log->pipelined_ms = app_now_ms() - t0;
    return 0;
}

/* Copies the frame to the host and writes it in the given format; says so on stdout when `say`. */
static int write_image(const app_image *img, const char *path, app_image_format format, int say)
{
    void *host = malloc((size_t)img->width * img->height * 4);
    if (!host) {
        fprintf(stderr, "slabcast: out of memory for a %ux%u image\n", img->width, img->height);
        return -1;
    }
    int rc = app_image_to_host(img, host) == 0 && app_write_image(path, format, host, img->width, img->height) == 0
                 ? 0 : -1;
    free(host);
    if (rc == 0 && say) printf("slabcast: wrote %s\n", path);
    return rc;
}

int app_run_headless(const app_options *o, app_scene *s)
{
    if (o->gpus) return app_run_headless_group(o, s);
    unsigned w = o->width, h = o->height;
    const sc_backend_info *info = &s->backend_info;
    const char *backend = info->name;
    /* Timed on the device: many cheap frames and a warm-up; timed on the host: a few, none to warm. */
    int frames = o->frames ? o->frames
                           : (info->device_timed ? APP_HEADLESS_FRAMES_DEVICE : APP_HEADLESS_FRAMES_HOST);
    int warmup = info->device_timed ? (frames >= 50 ? 20 : frames / 5) : 0;
    const char *out_path = o->out_path ? o->out_path : "slabcast.png";
    app_image_format format = o->out_path ? o->out_format : APP_IMAGE_PNG;

    app_image img;
    if (app_image_alloc(&img, s->backend, w, h) != 0) return 1;
    app_frame_log log;
    if (app_frame_log_init(&log, frames) != 0) {
        fprintf(stderr, "slabcast: out of memory for the statistics of %d frames\n", frames);
        app_image_free(&img);
        return 1;
    }
    sc_camera_desc cam = app_camera_desc(&s->camera);
    int rc = 0;
    if (sc_renderer_set_camera(s->renderer, &cam) != SC_OK) {
        app_report_error("the camera");
        rc = 1;
    }
    if (rc == 0)
        printf("slabcast: %s backend, %s: %u triangles, %ux%u, %d frames (%d warm-up), deform 0x%x, mode %s\n",
               backend, s->mesh_name, s->mesh.triangle_count, w, h, frames, warmup, s->deform_mask,
               app_mode_name(s->mode));
    if (rc == 0) print_lights(o, s);
    int measured = rc == 0 ? render_measured(o, s, o->record_dir ? &img : NULL, img.pixels, frames, warmup, &log) : 0;
    if (measured == -2) rc = 1; /* --record: the write said why */
    if (rc == 0 && (measured != 0 || (info->asynchronous && render_pipelined(o, s, img.pixels, frames, &log) != 0))) {
        app_report_error(NULL);
        rc = 1;
    }
    if (rc == 0 && o->record_dir) printf("slabcast: wrote %d frames to %s/frame-NNNNNN.png\n", frames, o->record_dir);
    if (rc == 0) {
        app_frame_log_print(&log, stdout);
        if (write_image(&img, out_path, format, 1) != 0) rc = 1;
        else if (o->stats_json && app_frame_log_write_json(&log, o->stats_json, backend, s->mesh_name,
                                                             w, h, stderr) != 0)
            rc = 1;
    }
    app_frame_log_free(&log);
    app_image_free(&img);
    return rc;
}
