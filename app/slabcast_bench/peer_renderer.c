/* peer_renderer.c - the peers that are this renderer with other settings (the cpu backend, the
 * radix-sort binning): the same frames (mesh, camera, size, grid, deformers, times, and with shadows
 * on the same light and option), each waited for, timed by the renderer's own frame time (GPU time on
 * CUDA, host time on the CPU backend), the last frame's hits compared with ours (and with shadows on,
 * its shadow mask, in the detail). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_peer.h"
#include "sc_status.h"

#if SLABCAST_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

typedef struct run_state {
    const bench_renderer_peer *how;
    sc_renderer *renderer;
    void *pixels;                /* where the backend wants the caller's buffers */
    double *ms;
    sc_hit *hits;
    uint8_t *shadows;            /* the last frame's shadow mask, with shadows on */
} run_state;

/* Whether the backend wants the caller's buffers in device memory (sc_backend_info.buffer_memory). */
static int buffers_on_device(sc_backend backend)
{
    sc_backend_info info;
    return sc_backend_get_info(backend, &info) == SC_OK && info.buffer_memory == SC_MEMORY_DEVICE;
}

/* An image of `bytes` where the backend wants it; NULL when it cannot be had (device memory in a
 * build without CUDA included). */
static void *alloc_image(sc_backend backend, size_t bytes)
{
    if (!buffers_on_device(backend)) return malloc(bytes);
#if SLABCAST_BENCH_CUDA
    void *p = NULL;
    if (cudaMalloc(&p, bytes) == cudaSuccess) return p;
    (void)cudaGetLastError();
#endif
    return NULL;
}

static void free_image(sc_backend backend, void *p)
{
    if (!p) return;
    if (!buffers_on_device(backend)) {
        free(p);
        return;
    }
#if SLABCAST_BENCH_CUDA
    cudaFree(p);
#endif
}

static void release(run_state *s)
{
    sc_renderer_destroy(s->renderer);
    free_image(s->how->backend, s->pixels);
    free(s->ms);
    free(s->hits);
    free(s->shadows);
    s->renderer = NULL;
    s->pixels = s->ms = NULL;
    s->hits = NULL;
    s->shadows = NULL;
}

static int fail_library(const run_state *s, char *why, size_t why_size)
{
    const char *msg = sc_last_error();
    snprintf(why, why_size, "%s: %s", s->how->name, msg[0] ? msg : "failed (no reason was given)");
    return -1;
}

/* The buffers of a width x height frame, the sizes overflow-checked. */
static int alloc_buffers(const bench_peer_scene *sc, run_state *s, char *why, size_t why_size)
{
    size_t pixels = (size_t)sc->width * sc->height;
    if (sc->width && pixels / sc->width != sc->height) pixels = SIZE_MAX;
    if (pixels > SIZE_MAX / sizeof(sc_hit) || sc->frames < 1) {
        snprintf(why, why_size, "%s: a %ux%u frame does not fit in memory", s->how->name, sc->width, sc->height);
        return -1;
    }
    s->pixels = alloc_image(s->how->backend, pixels * 4);
    s->hits = malloc(pixels * sizeof *s->hits);
    s->ms = malloc((size_t)sc->frames * sizeof *s->ms);
    if (sc->shadows) s->shadows = malloc(pixels);
    if (s->pixels && s->hits && s->ms && (s->shadows || !sc->shadows)) return 0;
    snprintf(why, why_size, "%s: out of memory for a %ux%u frame", s->how->name, sc->width, sc->height);
    return -1;
}

static int create(const bench_peer_scene *sc, size_t capacity, run_state *s, char *why, size_t why_size)
{
    sc_renderer_desc rd = {0};
    rd.backend = s->how->backend;
    rd.binning = s->how->binning;
    rd.width = sc->width;
    rd.height = sc->height;
    rd.tile_size = sc->tile_size;
    rd.num_slabs = sc->num_slabs;
    rd.initial_ref_capacity = capacity;
    rd.num_threads = sc->cpu_threads; /* the CPU backend's; the CUDA backend ignores it */
    rd.vertex_order = sc->vertex_order;
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) return fail_library(s, why, why_size);
    sc_mesh_data md = sc_mesh_view(sc->mesh);
    if (sc_renderer_set_mesh(s->renderer, &md) != SC_OK || sc_renderer_set_camera(s->renderer, &sc->camera) != SC_OK ||
        sc_renderer_set_deform(s->renderer, &sc->deform) != SC_OK)
        return fail_library(s, why, why_size);
    if (!sc->shadows) return 0;
    sc_render_options ro;
    if (sc_renderer_set_lights(s->renderer, &sc->light, 1) != SC_OK || sc_renderer_get_options(s->renderer, &ro) != SC_OK)
        return fail_library(s, why, why_size);
    ro.shadows = 1;
    return sc_renderer_set_options(s->renderer, &ro) == SC_OK ? 0 : fail_library(s, why, why_size);
}

/* With shadows on, how many pixels' shadow masks equal ours, in out->detail. */
static void compare_shadows(const bench_peer_scene *sc, const run_state *s, bench_peer_result *out)
{
    if (!sc->shadows || !sc->our_shadows) return;
    const size_t pixels = (size_t)sc->width * sc->height;
    size_t same = 0;
    for (size_t i = 0; i < pixels; ++i) same += s->shadows[i] == sc->our_shadows[i];
    snprintf(out->detail, sizeof out->detail, "shadow masks equal on %zu of %zu pixels", same, pixels);
}

static int frame(run_state *s, float time, double *ms, uint64_t *references)
{
    sc_frame_desc f = {0};
    f.time = time;
    f.rgba = s->pixels;
    sc_frame_stats st;
    if (sc_renderer_render(s->renderer, &f) != SC_OK || sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
    if (ms) *ms = st.frame_ms;
    if (references) *references = st.references;
    return 0;
}

/* size_refs_to_scene: the scene's references at the first time (a probe renderer), plus 2 % and a
 * little, as the reference capacity. */
static int reference_capacity(const bench_peer_scene *sc, run_state *s, size_t *capacity, char *why, size_t why_size)
{
    *capacity = 0;
    if (!s->how->size_refs_to_scene) return 0;
    uint64_t refs = 0;
    if (create(sc, 0, s, why, why_size) != 0) return -1;
    if (frame(s, sc->times[0], NULL, &refs) != 0) return fail_library(s, why, why_size);
    sc_renderer_destroy(s->renderer);
    s->renderer = NULL;
    uint64_t want = refs + refs / 50 + 1024;
    *capacity = want > UINT64_C(0xFFFFFFFE) ? (size_t)UINT64_C(0xFFFFFFFE) : (size_t)want;
    return 0;
}

int bench_peer_run_renderer(const bench_peer_scene *sc, const bench_renderer_peer *how, bench_peer_result *out,
                            char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->agreement = -1.0;
    run_state s = {how, NULL, NULL, NULL, NULL, NULL};
    size_t capacity = 0;
    int rc = alloc_buffers(sc, &s, why, why_size);
    if (rc == 0) rc = reference_capacity(sc, &s, &capacity, why, why_size);
    if (rc == 0) rc = create(sc, capacity, &s, why, why_size);
    for (int i = 0; rc == 0 && i < sc->warmup; ++i)
        if (frame(&s, sc->times[0], NULL, NULL) != 0) rc = fail_library(&s, why, why_size);
    for (int i = 0; rc == 0 && i < sc->frames; ++i)
        if (frame(&s, sc->times[i], &s.ms[i], NULL) != 0) rc = fail_library(&s, why, why_size);
    if (rc == 0 && sc_renderer_read_hits(s.renderer, s.hits) != SC_OK) rc = fail_library(&s, why, why_size);
    if (rc == 0 && sc->shadows && sc_renderer_read_shadows(s.renderer, s.shadows) != SC_OK)
        rc = fail_library(&s, why, why_size);
    if (rc == 0) {
        compare_shadows(sc, &s, out);
        bench_peer_set_times(s.ms, (size_t)sc->frames, out);
        if (sc->our_hits) out->agreement = bench_peer_agreement(sc->our_hits, s.hits, (size_t)sc->width * sc->height);
        snprintf(out->note, sizeof out->note, "%s, %d frames each waited for%s", how->note, sc->frames,
                 capacity ? ", reference slots sized to the scene" : "");
    }
    release(&s);
    return rc;
}
