/* headless_group.c - slabcast --gpus N: the headless run over a renderer group (slabcast.h "Renderer
 * groups"): N halo shares of the scene's mesh, share k on GPU k mod the GPUs present (several shares
 * a GPU when N exceeds them, said on stderr), the image composited on GPU 0. Frames are each waited
 * for (sc_renderer_group_stats): the median and p95 frame time and composite time, the bytes copied
 * between shares a frame; the last frame is written as the headless run writes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "app_report.h"

#if SLABCAST_WITH_CUDA
#include <cuda_runtime_api.h>

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *v, int n, double q)
{
    const int i = (int)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

/* The group of the options' grid and look, with the scene's mesh and view. */
static sc_renderer_group *make_group(const app_options *o, const app_scene *s, const int *devices, uint32_t used)
{
    sc_group_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.renderer.backend = o->backend; /* the group refuses a backend it cannot run on */
    gd.renderer.width = o->width;
    gd.renderer.height = o->height;
    gd.renderer.tile_size = o->tile_size;
    gd.renderer.num_slabs = o->num_slabs;
    gd.renderer.cull_back_faces = o->cull_back_faces;
    gd.renderer.flat_shading = o->flat_shading;
    gd.shares = o->gpus;
    gd.devices = devices;
    gd.device_count = used;
    sc_renderer_group *g = NULL;
    const sc_mesh_data md = sc_mesh_view(&s->mesh);
    const sc_camera_desc cam = app_camera_desc(&s->camera);
    const sc_deform_desc dd = app_deform_desc(s->deform_mask, o->deform_amount);
    sc_shading_desc sh = {0};
    sh.mode = s->mode;
    sh.heat_max = o->heat_max;
    if (sc_renderer_group_create(&gd, &g) != SC_OK || sc_renderer_group_set_mesh(g, &md) != SC_OK ||
        sc_renderer_group_set_camera(g, &cam) != SC_OK || sc_renderer_group_set_deform(g, &dd) != SC_OK ||
        sc_renderer_group_set_shading(g, &sh) != SC_OK) {
        app_report_error("the renderer group");
        sc_renderer_group_destroy(g);
        return NULL;
    }
    return g;
}

/* Warm-up frames, then `frames` frames each waited for; their times into frame_ms and comp_ms. */
static int render_frames(const app_options *o, sc_renderer_group *g, void *pixels, int frames, int warmup,
                         double *frame_ms, double *comp_ms, sc_group_stats *last)
{
    for (int i = -warmup; i < frames; ++i) {
        sc_frame_desc f = {0};
        f.time = (float)((double)o->start_time + (double)(i < 0 ? 0 : i) * (double)o->time_step);
        f.rgba = pixels;
        if (sc_renderer_group_render(g, &f) != SC_OK || sc_renderer_group_stats(g, last) != SC_OK) {
            app_report_error(NULL);
            return -1;
        }
        if (i < 0) continue;
        frame_ms[i] = last->frame_ms;
        comp_ms[i] = last->composite_ms;
    }
    return 0;
}

static int write_last(const app_options *o, const app_image *img)
{
    const char *path = o->out_path ? o->out_path : "slabcast.png";
    void *host = malloc((size_t)img->width * img->height * 4);
    if (!host) {
        fprintf(stderr, "slabcast: out of memory for a %ux%u image\n", img->width, img->height);
        return -1;
    }
    const int rc = app_image_to_host(img, host) == 0 &&
                           app_write_image(path, o->out_path ? o->out_format : APP_IMAGE_PNG, host, img->width,
                                           img->height) == 0
                       ? 0
                       : -1;
    free(host);
    if (rc == 0) printf("slabcast: wrote %s\n", path);
    return rc;
}

int app_run_headless_group(const app_options *o, app_scene *s)
{
    int present = 0;
    if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) {
        (void)cudaGetLastError();
        fprintf(stderr, "slabcast: --gpus needs a CUDA device; none is present\n");
        return 1;
    }
    sc_renderer_destroy(s->renderer); /* the group holds the mesh from here on */
    s->renderer = NULL;
    int devices[SC_GROUP_MAX_SHARES];
    const uint32_t used = o->gpus < (uint32_t)present ? o->gpus : (uint32_t)present;
    for (uint32_t k = 0; k < used; ++k) devices[k] = (int)k;
    if (used < o->gpus)
        fprintf(stderr, "slabcast: --gpus %u: %d GPU%s here: %u shares per GPU (round robin); the image is the same, "
                        "the times are not those of %u GPUs\n",
                o->gpus, present, present == 1 ? "" : "s", (o->gpus + used - 1) / used, o->gpus);
    const int frames = o->frames ? o->frames : APP_HEADLESS_FRAMES_DEVICE;
    const int warmup = frames >= 50 ? 20 : frames / 5;
    double *frame_ms = malloc((size_t)frames * sizeof *frame_ms), *comp_ms = malloc((size_t)frames * sizeof *comp_ms);
    if (!frame_ms || !comp_ms) {
        fprintf(stderr, "slabcast: out of memory for the times of %d frames\n", frames);
        free(frame_ms);
        free(comp_ms);
        return 1;
    }
    (void)cudaSetDevice(devices[0]);
    app_image img;
    int rc = 1;
    sc_renderer_group *g = make_group(o, s, devices, used);
    /* The image where the group's first share (the display device) wants it. */
    if (g && app_image_alloc(&img, sc_renderer_backend(sc_renderer_group_share(g, 0, NULL)), o->width, o->height) == 0) {
        printf("slabcast: %u shares on %u GPU%s, %s: %u triangles, %ux%u, %d frames (%d warm-up), deform 0x%x, "
               "mode %s\n",
               o->gpus, used, used == 1 ? "" : "s", s->mesh_name, s->mesh.triangle_count, o->width, o->height, frames,
               warmup, s->deform_mask, app_mode_name(s->mode));
        sc_group_stats last;
        if (render_frames(o, g, img.pixels, frames, warmup, frame_ms, comp_ms, &last) == 0) {
            qsort(frame_ms, (size_t)frames, sizeof *frame_ms, cmp_double);
            qsort(comp_ms, (size_t)frames, sizeof *comp_ms, cmp_double);
            printf("slabcast: frame %.3f ms (p95 %.3f), composite %.3f ms (p95 %.3f), %.1f MB copied between shares a "
                   "frame, largest share %llu triangles\n",
                   quantile(frame_ms, frames, 0.5), quantile(frame_ms, frames, 0.95), quantile(comp_ms, frames, 0.5),
                   quantile(comp_ms, frames, 0.95), (double)last.bytes_moved / 1e6,
                   (unsigned long long)last.triangles_max);
            rc = write_last(o, &img) == 0 ? 0 : 1;
        }
        app_image_free(&img);
    }
    sc_renderer_group_destroy(g);
    free(frame_ms);
    free(comp_ms);
    return rc;
}
#else
int app_run_headless_group(const app_options *o, app_scene *s)
{
    (void)o;
    (void)s;
    fprintf(stderr, "slabcast: --gpus: built without CUDA (renderer groups run on CUDA devices)\n");
    return 1;
}
#endif
