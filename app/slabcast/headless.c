/* headless.c - renders frames without a window: per-stage times and counters (each frame waited for),
 * then the same number of frames back to back (the real-time loop, no wait between frames), the last
 * frame as PNG. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "app.h"
#include "frame_stats.h"

static double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

int app_run_headless(const app_options *o, app_scene *s)
{
    unsigned w = o->width, h = o->height;
    int frames = o->frames ? o->frames : (s->backend == SC_BACKEND_CUDA ? 500 : 3);
    int warmup = s->backend == SC_BACKEND_CUDA ? (frames >= 50 ? 20 : frames / 5) : 0;
    const char *out_path = o->out_path ? o->out_path : "slabcast.png";

    app_image img;
    if (app_image_alloc(&img, s->backend, w, h) != 0) return 1;
    app_frame_log log;
    if (app_frame_log_init(&log, frames) != 0) {
        fprintf(stderr, "slabcast: out of memory\n");
        app_image_free(&img);
        return 1;
    }
    sc_camera_desc cam = app_orbit_camera(&s->orbit);
    int rc = 0;
    if (sc_renderer_set_camera(s->renderer, &cam) != SC_OK) rc = 1;
    printf("slabcast: %s backend, %s: %u triangles, %ux%u, %d frames (%d warm-up), deform 0x%x, mode %s\n",
           s->backend == SC_BACKEND_CUDA ? "cuda" : "cpu", s->mesh_name, s->mesh.triangle_count, w, h, frames,
           warmup, s->deform_mask, app_mode_name(s->mode));
    for (int i = 0; i < frames + warmup && rc == 0; ++i) {
        sc_frame_desc f = {0};
        f.time = o->start_time + (float)(i < warmup ? 0 : i - warmup) * o->time_step;
        f.rgba = img.pixels;
        if (sc_renderer_render(s->renderer, &f) != SC_OK) { rc = 1; break; }
        if (i >= warmup) {
            sc_frame_stats st;
            if (sc_renderer_stats(s->renderer, &st) != SC_OK) { rc = 1; break; }
            app_frame_log_add(&log, &st);
        }
    }
    /* Frames back to back as a real-time loop runs them: no wait between frames, one at the end. */
    if (rc == 0 && s->backend == SC_BACKEND_CUDA) {
        double t0 = app_now_ms();
        int i = 0;
        for (; i < frames; ++i) {
            sc_frame_desc f = {0};
            f.time = o->start_time + (float)i * o->time_step;
            f.rgba = img.pixels;
            if (sc_renderer_render(s->renderer, &f) != SC_OK) break;
        }
        sc_frame_stats st;
        if (i < frames || sc_renderer_stats(s->renderer, &st) != SC_OK) {
            rc = 1;
        } else {
            log.pipelined_frames = frames;
            log.pipelined_ms = app_now_ms() - t0;
        }
    }
    if (rc == 0) {
        app_frame_log_print(&log, stdout);
        void *host = malloc((size_t)w * h * 4);
        if (!host || app_image_to_host(&img, host) != 0 || app_write_png(out_path, host, w, h) != 0) rc = 1;
        else printf("slabcast: wrote %s\n", out_path);
        free(host);
        if (rc == 0 && o->stats_json &&
            app_frame_log_write_json(&log, o->stats_json, s->backend == SC_BACKEND_CUDA ? "cuda" : "cpu",
                                     s->mesh_name, w, h, stderr) != 0)
            rc = 1;
    }
    app_frame_log_free(&log);
    app_image_free(&img);
    return rc;
}
