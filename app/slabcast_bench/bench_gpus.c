/* bench_gpus.c - slabcast-bench --gpus (bench_gpus.h): for each share count N, a renderer group of N
 * halo shares of the model over the GPUs present (share k on GPU k mod GPUs), every frame rendered
 * into an image on GPU 0 and waited for (sc_renderer_group_stats): the median and p95 frame time, the
 * speed-up against N = 1 (or the first N), the composite's median time, the bytes copied between the
 * shares' buffers a frame and their rate over the frame. Where N exceeds the GPUs, the row says how
 * many shares each GPU holds, and a note says that the row measures several shares per GPU, not
 * scaling. With --json / --csv it writes the same rows as files (bench_gpus_report.c). Built without
 * CUDA, it says so and fails. */
#include "bench_gpus.h"

#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "bench_sweep.h"
#include "camera.h"
#include "deform_set.h"
#include "name_lists.h"
#include "slabcast.h"

#if SLABCAST_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#if SLABCAST_BENCH_CUDA
static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted values (nearest rank). */
static double quantile(const double *v, int n, double q)
{
    int i = (int)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int gpu_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

/* GPU 0's name into buf ("unknown" when its properties cannot be read). */
static void device_name(char *buf, size_t size)
{
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        snprintf(buf, size, "%s", prop.name);
        return;
    }
    (void)cudaGetLastError();
    snprintf(buf, size, "unknown");
}

/* One row: a group of row->shares over `present` GPUs. Returns 0 with row->ok set, or -1 with
 * row->error saying why. */
static int run_row(const bench_options *o, const bench_model *m, const sc_camera_desc *cam, int present,
                   bench_gpus_row *row)
{
    char *why = row->error;
    const size_t why_size = sizeof row->error;
    int devices[SC_GROUP_MAX_SHARES];
    const uint32_t used = row->shares < (uint32_t)present ? row->shares : (uint32_t)present;
    for (uint32_t k = 0; k < used; ++k) devices[k] = (int)k;
    row->devices = used;
    row->per_device = (row->shares + used - 1) / used;
    sc_group_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.renderer.backend = o->backend; /* the group refuses a backend it cannot run on */
    gd.renderer.width = o->sizes[0].width;
    gd.renderer.height = o->sizes[0].height;
    gd.renderer.tile_size = o->tiles[0];
    gd.renderer.num_slabs = o->slabs[0];
    gd.renderer.vertex_order = o->vertex_order;
    gd.shares = row->shares;
    gd.devices = devices;
    gd.device_count = used;
    const int frames = bench_frames_for(o, 1), warmup = bench_warmup_for(o, 1);
    double *frame_ms = malloc((size_t)frames * sizeof *frame_ms), *comp_ms = malloc((size_t)frames * sizeof *comp_ms);
    sc_renderer_group *g = NULL;
    void *rgba = NULL;
    int previous = 0, rc = -1;
    (void)cudaGetDevice(&previous);
    const sc_mesh_data md = sc_mesh_view(&m->mesh);
    const sc_deform_desc dd = app_deform_desc(o->deforms[0], 1.0f);
    if (!frame_ms || !comp_ms) {
        snprintf(why, why_size, "out of memory for %d frame times", frames);
        goto done;
    }
    if (sc_renderer_group_create(&gd, &g) != SC_OK || sc_renderer_group_set_mesh(g, &md) != SC_OK ||
        sc_renderer_group_set_camera(g, cam) != SC_OK || sc_renderer_group_set_deform(g, &dd) != SC_OK) {
        snprintf(why, why_size, "%s", sc_last_error());
        goto done;
    }
    if (cudaSetDevice(devices[0]) != cudaSuccess ||
        cudaMalloc(&rgba, 4 * (size_t)gd.renderer.width * gd.renderer.height) != cudaSuccess) {
        snprintf(why, why_size, "no device memory for the %ux%u image on GPU %d", gd.renderer.width,
                 gd.renderer.height, devices[0]);
        (void)cudaGetLastError();
        rgba = NULL;
        goto done;
    }
    for (int i = -warmup; i < frames; ++i) {
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = (float)((double)o->start_time + (double)(i < 0 ? 0 : i) * (double)o->time_step);
        f.rgba = rgba;
        sc_group_stats st;
        if (sc_renderer_group_render(g, &f) != SC_OK || sc_renderer_group_stats(g, &st) != SC_OK) {
            snprintf(why, why_size, "%s", sc_last_error());
            goto done;
        }
        if (i < 0) continue;
        frame_ms[i] = st.frame_ms;
        comp_ms[i] = st.composite_ms;
        row->bytes = st.bytes_moved;
        row->triangles_max = st.triangles_max;
    }
    qsort(frame_ms, (size_t)frames, sizeof *frame_ms, cmp_double);
    qsort(comp_ms, (size_t)frames, sizeof *comp_ms, cmp_double);
    row->frame_ms = quantile(frame_ms, frames, 0.5);
    row->frame_p95_ms = quantile(frame_ms, frames, 0.95);
    row->composite_ms = quantile(comp_ms, frames, 0.5);
    row->ok = 1;
    rc = 0;
done:
    sc_renderer_group_destroy(g);
    if (rgba) (void)cudaFree(rgba);
    (void)cudaSetDevice(previous);
    free(frame_ms);
    free(comp_ms);
    return rc;
}

/* The files asked for (--json, --csv); 0, or -1 when one could not be written (said on err). */
static int write_outputs(const bench_options *o, const bench_gpus_report *r, FILE *err)
{
    int rc = 0;
    if (o->json_path && bench_gpus_write_json(r, o->json_path, err) != 0) rc = -1;
    if (o->csv_path && bench_gpus_write_csv(r, o->csv_path, err) != 0) rc = -1;
    return rc;
}

/* The report without its rows, commit and command line: the run's settings, the model and the device.
 * Points into o, m and the caller's buffers, which must outlive it. */
static bench_gpus_report report_of(const bench_options *o, const bench_model *m, const char *model_name,
                                   const char *deform, const char *device, int present)
{
    bench_gpus_report r;
    memset(&r, 0, sizeof r);
    r.program = "slabcast-bench";
    r.device_name = device;
    r.gpus_present = present;
    r.model_path = o->model_count ? o->models[0] : NULL;
    r.model_name = model_name;
    r.triangles = m->mesh.triangle_count;
    r.width = o->sizes[0].width;
    r.height = o->sizes[0].height;
    r.tile_size = o->tiles[0];
    r.slabs = o->slabs[0];
    r.subdivide = o->subdivides[0];
    r.deform = deform;
    r.frames = bench_frames_for(o, 1);
    r.warmup = bench_warmup_for(o, 1);
    return r;
}

/* Runs every row of o->gpus into rows (o->gpu_count of them). Returns 1 when a row failed, else 0. */
static int run_rows(const bench_options *o, const bench_model *m, const sc_camera_desc *camera, int present,
                    bench_gpus_row *rows, FILE *err)
{
    int failed = 0;
    for (unsigned i = 0; i < o->gpu_count; ++i) {
        rows[i].shares = o->gpus[i];
        if ((uint32_t)present < o->gpus[i])
            fprintf(err, "slabcast-bench: --gpus %u: only %d GPU%s here: %u shares go round them\n", o->gpus[i],
                    present, present == 1 ? "" : "s", o->gpus[i]);
        if (run_row(o, m, camera, present, &rows[i]) != 0) {
            fprintf(err, "slabcast-bench: --gpus %u: %s\n", o->gpus[i], rows[i].error);
            failed = 1;
        }
    }
    return failed;
}
#endif

int bench_run_gpus(const bench_options *o, const char *commit, const char *command_line, FILE *out, FILE *err)
{
#if SLABCAST_BENCH_CUDA
    const int present = gpu_count();
    if (present == 0) {
        fprintf(err, "slabcast-bench: --gpus needs a CUDA device; none is present\n");
        return 1;
    }
    const char *path = o->model_count ? o->models[0] : NULL;
    bench_model m;
    bench_model_init(&m);
    char why[1024];
    if (bench_model_prepare(&m, 0, path, o->resolution, o->subdivides[0], why, sizeof why) != 0) {
        fprintf(err, "slabcast-bench: %s\n", why);
        bench_model_free(&m);
        return 1;
    }
    app_camera cam;
    app_camera_from_orbit(&cam, &m.orbit);
    if (o->has_camera) (void)app_camera_set(&cam, o->camera, o->camera + 3, o->camera[6]); /* checked when parsed */
    const sc_camera_desc camera = app_camera_desc(&cam);
    char model[208], deform[64], device[256];
    bench_model_short_name(path, model, sizeof model);
    app_deform_set_names(o->deforms[0], deform, sizeof deform);
    device_name(device, sizeof device);
    bench_gpus_row rows[BENCH_MAX_LIST];
    memset(rows, 0, sizeof rows);
    const int failed = run_rows(o, &m, &camera, present, rows, err);
    bench_gpus_report report = report_of(o, &m, model, deform, device, present);
    report.commit = commit;
    report.command_line = command_line;
    report.rows = rows;
    report.row_count = o->gpu_count;
    report.base = bench_gpus_base(rows, o->gpu_count);
    bench_gpus_table(out, &report);
    fflush(out);
    const int written = write_outputs(o, &report, err);
    bench_model_free(&m);
    return failed || written != 0 ? 1 : 0;
#else
    (void)o;
    (void)commit;
    (void)command_line;
    (void)out;
    fprintf(err, "slabcast-bench: --gpus: built without CUDA (renderer groups run on CUDA devices)\n");
    return 1;
#endif
}
