/* main.c - cloth: slabcast embedded in a simulation. A cloth of N x N particles falls onto a model
 * standing on the ground; the simulation owns the scene's position buffer and hands it to the renderer
 * every frame as sc_frame_desc.positions, with no copy of its own, in the memory the renderer's backend
 * computes in (sc_backend_get_info: buffer_memory):
 *  - the CUDA backend: device memory, advanced by CUDA kernels (cloth_sim_cuda.cu) on the renderer's stream;
 *  - the CPU backend: host memory, advanced by plain C (cloth_sim_cpu.c).
 * The renderer keeps the vertices in the caller's order (SC_VERTEX_ORDER_KEEP): the scene is laid out
 * coherently already (the model as loaded, the cloth row by row with its triangles in the same order),
 * so the first-use order would buy little and would cost a permutation of the positions every frame.
 *
 * Each frame prints the simulation's time (CUDA events on the GPU, the host clock on the CPU) and the
 * renderer's (sc_frame_stats.frame_ms: GPU time on the GPU), so the renderer's share is plain. */
#include <slabcast.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cloth.h"
#include "cloth_field.h"
#include "cloth_image.h"
#include "cloth_options.h"
#include "cloth_png.h"
#include "cloth_scene.h"
#include "cloth_sim_cpu.h"
#if CLOTH_CUDA /* set by CMakeLists.txt when the package has the CUDA backend */
#include "cloth_sim_cuda.h"
#endif

enum {
    FIELD_RESOLUTION = 128,  /* collision field cells across the model's longest side */
    FIELD_PAD = 4,           /* and this many more on every side */
    ERR_SIZE = 1024
};
static const double FRAME_SECONDS = 1.0 / 60.0;

/* A failed slabcast call: the library's message for it. */
#define SC_CHECK(call)                                                                               \
    do {                                                                                             \
        if ((call) != SC_OK) {                                                                       \
            fprintf(stderr, "cloth: %s failed: %s\n", #call, sc_last_error());                       \
            goto done;                                                                               \
        }                                                                                            \
    } while (0)

/* A failed call of this program's own (the simulation, the scene): its message in err. */
#define CHECK(ok)                                                                                    \
    do {                                                                                             \
        if (!(ok)) {                                                                                 \
            fprintf(stderr, "cloth: %s\n", err);                                                     \
            goto done;                                                                               \
        }                                                                                            \
    } while (0)

static void log_warnings(sc_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == SC_LOG_WARNING) fprintf(stderr, "cloth: warning: %s\n", message);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The cloth's constants for the scene and the options. */
static cloth_params make_params(const cloth_scene *s, const cloth_field *f, const cloth_options *o)
{
    cloth_params c;
    memset(&c, 0, sizeof c);
    c.n = s->n;
    c.iterations = o->iterations;
    c.dt = (float)(FRAME_SECONDS / o->steps);
    c.gravity = 9.81f;
    c.damping = 0.002f;
    c.spacing = s->spacing;
    c.stiffness[0] = 1.0f, c.stiffness[1] = 0.8f, c.stiffness[2] = 0.2f, c.stiffness[3] = 1.0f;
    c.thickness = 1.5f * f->cell;
    c.friction = 0.4f;
    c.ground_y = 0.0f;
    c.max_move = f->cell; /* less than the surface's shell in the field: no particle skips through it */
    c.bound = 10.0f;
    return c;
}

/* The renderer's stages, in the order of sc_stage (slabcast.h). */
static const char *const STAGE_NAMES[] = {"deform", "normals", "project", "reduce", "scan", "emit", "tile_split",
                                          "slab_split", "raycast", "shadow_receivers", "shadow_emit",
                                          "shadow_split", "shadow_cast", "shade"};
_Static_assert(sizeof STAGE_NAMES / sizeof *STAGE_NAMES == SC_STAGE_COUNT, "a name for every sc_stage");

/* Where the renderer's time goes: the mean of each stage over the frames timed, and the last frame's
 * counts. */
static void report_renderer(const double *stage_sum, uint32_t frames, const sc_frame_stats *last)
{
    printf("cloth: renderer stages, mean ms:");
    for (int k = 0; k < SC_STAGE_COUNT; ++k)
        if (stage_sum[k] > 0.0) printf(" %s %.3f", STAGE_NAMES[k], stage_sum[k] / frames);
    printf("\ncloth: last frame: %llu of %llu triangles visible, %llu references, %llu ray-triangle tests, "
           "%llu pixels hit, %u overflow passes; shadows: %llu receivers, %llu caster references, %llu tests, "
           "%u overflow passes\n",
           (unsigned long long)last->visible_triangles, (unsigned long long)last->triangles,
           (unsigned long long)last->references, (unsigned long long)last->ray_triangle_tests,
           (unsigned long long)last->hit_pixels, last->overflow_passes, (unsigned long long)last->shadow_receivers,
           (unsigned long long)last->shadow_references, (unsigned long long)last->shadow_ray_tests,
           last->shadow_overflow_passes);
}

/* The cloth after the run: every coordinate finite, and its height range. */
static int report_cloth(const float *p, uint32_t count, uint32_t frames)
{
    float lo = INFINITY, hi = -INFINITY;
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const float *q = p + 3 * (size_t)i;
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
            ++bad;
            continue;
        }
        lo = fminf(lo, q[1]), hi = fmaxf(hi, q[1]);
    }
    if (bad) {
        fprintf(stderr, "cloth: FAILED: %u of %u particles are not finite after %u frames\n", bad, count, frames);
        return 0;
    }
    printf("cloth: after %u frames (%.2f s simulated): particles between heights %.4f and %.4f, all finite\n",
           frames, frames * FRAME_SECONDS, lo, hi);
    return 1;
}

int main(int argc, char **argv)
{
    cloth_options o;
    const int parsed = cloth_parse_options(argc, argv, &o);
    if (parsed <= 0) return parsed == 0 ? 0 : 2;

    int rc = 1, gpu = 0;
    char err[ERR_SIZE] = "";
    cloth_scene scene;
    cloth_field field;
    float *field_values = NULL;
    cloth_cpu cpu_sim;
    sc_renderer *r = NULL;
    uint8_t *host_image = NULL; /* the frame in host memory, for the PNGs */
    sc_hit *hits = NULL;
    float *cloth_host = NULL;   /* the GPU's cloth copied back at the end */
    void *image = NULL;         /* where the renderer writes: host or device memory */
    float *positions = NULL;    /* the scene's positions the simulation updates: host or device memory */
#if CLOTH_CUDA
    cloth_cuda *gpu_sim = NULL;
#endif
    memset(&scene, 0, sizeof scene);
    memset(&field, 0, sizeof field);
    memset(&cpu_sim, 0, sizeof cpu_sim);
    sc_set_log_callback(log_warnings, NULL, SC_LOG_WARNING);

    /* The path: the backend's buffers in device memory take the CUDA kernels, in host memory plain C. */
    sc_backend_info info, cuda_info;
    SC_CHECK(sc_backend_get_info(o.backend, &info));
    if (!info.available) {
        fprintf(stderr, "cloth: the %s backend is not available: %s\n", info.name, info.unavailable_reason);
        goto done;
    }
    gpu = info.buffer_memory == SC_MEMORY_DEVICE;
#if !CLOTH_CUDA
    if (gpu) {
        if (o.backend != SC_BACKEND_DEFAULT) {
            fprintf(stderr, "cloth: the %s backend needs the CUDA kernels, and this build of cloth has none "
                            "(build it against a slabcast package with CUDA)\n", info.name);
            goto done;
        }
        printf("cloth: built without CUDA kernels: taking the CPU backend\n");
        SC_CHECK(sc_backend_get_info(SC_BACKEND_CPU, &info));
        gpu = 0;
    }
#endif
    SC_CHECK(sc_backend_get_info(SC_BACKEND_CUDA, &cuda_info));
    if (gpu)
        printf("cloth: path: GPU - CUDA kernels advance the cloth in device memory; renderer backend %s on %s "
               "(%s paths)\n", info.name, info.device, info.code_path);
    else
        printf("cloth: path: CPU - plain C advances the cloth in host memory; renderer backend %s (%s)\n", info.name,
               info.device);
    if (!cuda_info.available) printf("cloth: no GPU path here: %s\n", cuda_info.unavailable_reason);
    if (o.out_dir && mkdir(o.out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cloth: cannot make %s: %s\n", o.out_dir, strerror(errno));
        goto done;
    }
    const uint32_t n = o.size ? o.size : gpu ? 1024 : 128;
    const uint32_t width = o.width ? o.width : gpu ? 1024 : 512, height = o.height ? o.height : gpu ? 1024 : 512;
    const size_t image_bytes = (size_t)width * height * 4;

    /* The scene and the model's collision field, built once. */
    double t0 = now_ms();
    CHECK(cloth_scene_build(o.mesh, gpu ? 512 : 128, o.ground, n, &scene, err, sizeof err));
    printf("cloth: scene: %s, %u triangles; cloth %ux%u = %u particles, %u triangles; %u triangles in all (%.0f ms)\n",
           o.mesh ? o.mesh : "the built-in mesh", scene.model.triangle_count, n, n, n * n,
           scene.triangle_count - scene.cloth_first_tri, scene.triangle_count, now_ms() - t0);
    t0 = now_ms();
    const sc_mesh_data model = cloth_scene_model(&scene);
    CHECK(cloth_field_build(&model, FIELD_RESOLUTION, FIELD_PAD, &field, &field_values, err, sizeof err));
    printf("cloth: collision field: %ux%ux%u nodes, cell %.4f (%.0f ms)\n", field.nx, field.ny, field.nz, field.cell,
           now_ms() - t0);
    const cloth_params params = make_params(&scene, &field, &o);
    printf("cloth: %u substeps of %.3f ms a frame, %u constraint sweeps each\n", o.steps, params.dt * 1e3,
           o.iterations);

    /* The simulation, on the scene's position buffer in the backend's memory. */
    if (gpu) {
#if CLOTH_CUDA
        CHECK(cloth_cuda_create(&params, &field, scene.positions, scene.vertex_count, scene.cloth_first_vertex,
                                o.steps, image_bytes, &gpu_sim, err, sizeof err));
        positions = cloth_cuda_positions(gpu_sim);
        image = cloth_cuda_image(gpu_sim);
#endif
    } else {
        if (!cloth_cpu_init(&cpu_sim, &params, &field, scene.positions + 3 * (size_t)scene.cloth_first_vertex) ||
            !(image = malloc(image_bytes))) {
            fprintf(stderr, "cloth: out of memory\n");
            goto done;
        }
        positions = scene.positions;
    }

    /* The renderer: the same memory, the same stream, the caller's vertex order. */
    sc_renderer_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.backend = info.backend;
    rd.width = width;
    rd.height = height;
    rd.vertex_order = SC_VERTEX_ORDER_KEEP;
#if CLOTH_CUDA
    if (gpu) rd.stream = cloth_cuda_stream(gpu_sim);
#endif
    SC_CHECK(sc_renderer_create(&rd, &r));
    const sc_mesh_data mesh = cloth_scene_mesh(&scene);
    const sc_camera_desc camera = cloth_scene_camera(&scene);
    const sc_light_desc light = cloth_scene_light(&scene);
    sc_shading_desc shading;
    memset(&shading, 0, sizeof shading);
    cloth_model_albedo(shading.albedo);
    sc_render_options ro;
    memset(&ro, 0, sizeof ro);
    ro.shadows = o.shadows;
    ro.stage_times = 1; /* the report gives the renderer's stages */
    SC_CHECK(sc_renderer_set_mesh(r, &mesh));
    SC_CHECK(sc_renderer_set_camera(r, &camera));
    SC_CHECK(sc_renderer_set_shading(r, &shading));
    SC_CHECK(sc_renderer_set_lights(r, &light, 1));
    SC_CHECK(sc_renderer_set_options(r, &ro));

    if (o.out_dir) {
        host_image = gpu ? malloc(image_bytes) : image;
        hits = malloc((size_t)width * height * sizeof *hits);
        if (!host_image || !hits) {
            fprintf(stderr, "cloth: out of memory for the frames' pixels\n");
            goto done;
        }
    }

    /* The frames: advance the cloth, render the positions where they are, print both times. */
    double sim_sum = 0.0, render_sum = 0.0, stage_sum[SC_STAGE_COUNT] = {0};
    uint32_t timed = 0;
    sc_frame_stats stats;
    memset(&stats, 0, sizeof stats);
    for (uint32_t f = 0; f < o.frames; ++f) {
        double sim_ms = 0.0;
        if (gpu) {
#if CLOTH_CUDA
            CHECK(cloth_cuda_advance(gpu_sim, err, sizeof err));
#endif
        } else {
            const double start = now_ms();
            cloth_cpu_advance(&cpu_sim, o.steps);
            sim_ms = now_ms() - start;
        }
        sc_frame_desc frame;
        memset(&frame, 0, sizeof frame);
        frame.time = (float)((f + 1) * FRAME_SECONDS);
        frame.positions = positions;
        frame.rgba = image;
        SC_CHECK(sc_renderer_render(r, &frame));
        SC_CHECK(sc_renderer_stats(r, &stats)); /* on the GPU, waits for the frame */
#if CLOTH_CUDA
        if (gpu) {
            float ms = 0.0f;
            CHECK(cloth_cuda_advance_ms(gpu_sim, &ms, err, sizeof err));
            sim_ms = ms;
        }
#endif
        const double total = sim_ms + stats.frame_ms;
        printf("frame %4u: sim %8.3f ms  render %8.3f ms  (render %4.1f%% of %.3f ms)", f, sim_ms, stats.frame_ms,
               total > 0.0 ? 100.0 * stats.frame_ms / total : 0.0, total);
        if (f > 0 || o.frames == 1) { /* the first frame pays one-time costs */
            sim_sum += sim_ms, render_sum += stats.frame_ms, ++timed;
            for (int k = 0; k < SC_STAGE_COUNT; ++k) stage_sum[k] += stats.stage_ms[k];
        }

        if (o.out_dir && (f % o.save_every == 0 || f + 1 == o.frames)) {
#if CLOTH_CUDA
            if (gpu) CHECK(cloth_cuda_download(gpu_sim, host_image, image, image_bytes, err, sizeof err));
#endif
            SC_CHECK(sc_renderer_read_hits(r, hits));
            cloth_coverage cov;
            cloth_image_parts(host_image, hits, width, height, scene.ground_first_tri, scene.cloth_first_tri, &cov);
            char path[4096];
            snprintf(path, sizeof path, "%s/frame-%04u.png", o.out_dir, f);
            if (!cloth_write_png(path, host_image, width, height)) {
                printf("\n");
                fprintf(stderr, "cloth: cannot write %s: %s\n", path, strerror(errno));
                goto done;
            }
            const double all = (double)width * height / 100.0;
            printf("  pixels: model %.1f%% cloth %.1f%% ground %.1f%% -> %s", cov.model / all, cov.cloth / all,
                   cov.ground / all, path);
        }
        printf("\n");
        fflush(stdout);
    }
    if (timed && sim_sum + render_sum > 0.0) {
        printf("cloth: mean of %u frames: sim %.3f ms, render %.3f ms: the renderer takes %.1f%% of the frame\n",
               timed, sim_sum / timed, render_sum / timed, 100.0 * render_sum / (sim_sum + render_sum));
        report_renderer(stage_sum, timed, &stats);
    }

    /* The cloth at the end: finite everywhere. */
    const uint32_t count = n * n;
    const float *cloth = scene.positions + 3 * (size_t)scene.cloth_first_vertex;
#if CLOTH_CUDA
    if (gpu) {
        if (!(cloth_host = malloc(3 * (size_t)count * sizeof(float)))) {
            fprintf(stderr, "cloth: out of memory\n");
            goto done;
        }
        CHECK(cloth_cuda_download(gpu_sim, cloth_host, positions + 3 * (size_t)scene.cloth_first_vertex,
                                  3 * (size_t)count * sizeof(float), err, sizeof err));
        cloth = cloth_host;
    }
#endif
    if (report_cloth(cloth, count, o.frames)) rc = 0;

done:
    sc_renderer_destroy(r); /* first: it may still read the positions (CUDA: it waits for its frames) */
#if CLOTH_CUDA
    cloth_cuda_destroy(gpu_sim); /* the device buffers: positions and image */
#endif
    if (host_image != image) free(host_image);
    if (!gpu) free(image);
    free(hits);
    free(cloth_host);
    cloth_cpu_free(&cpu_sim);
    free(field_values);
    cloth_scene_free(&scene);
    return rc;
}
