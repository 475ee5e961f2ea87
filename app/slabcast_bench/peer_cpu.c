/* peer_cpu.c - the `cpu` peer: this renderer's CPU backend on the same frames (mesh, camera, size,
 * grid, deformers and times), timed by the backend's own frame time (host time), its last frame's
 * hits compared with ours. Beside the CUDA backend it gives the GPU's speed-up and checks that both
 * backends see the same triangles; it renders every frame of the configuration, so it is slow at
 * large sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_peer.h"
#include "sc_status.h"

/* What one run holds; released by cpu_release. */
typedef struct cpu_run_state {
    sc_renderer *renderer;
    void *pixels;
    double *ms;
    sc_hit *hits;
} cpu_run_state;

static void cpu_release(cpu_run_state *s)
{
    sc_renderer_destroy(s->renderer);
    free(s->pixels);
    free(s->ms);
    free(s->hits);
    memset(s, 0, sizeof *s);
}

static int fail_library(char *why, size_t why_size)
{
    const char *msg = sc_last_error();
    snprintf(why, why_size, "cpu backend: %s", msg[0] ? msg : "failed (no reason was given)");
    return -1;
}

/* The buffers of a width x height frame, the sizes overflow-checked. */
static int cpu_alloc(const bench_peer_scene *sc, cpu_run_state *s, char *why, size_t why_size)
{
    size_t pixels = (size_t)sc->width * sc->height;
    if (sc->width && pixels / sc->width != sc->height) pixels = SIZE_MAX;
    if (pixels > SIZE_MAX / sizeof(sc_hit) || sc->frames < 1) {
        snprintf(why, why_size, "a %ux%u frame does not fit in memory", sc->width, sc->height);
        return -1;
    }
    s->pixels = malloc(pixels * 4);
    s->hits = malloc(pixels * sizeof *s->hits);
    s->ms = malloc((size_t)sc->frames * sizeof *s->ms);
    if (s->pixels && s->hits && s->ms) return 0;
    snprintf(why, why_size, "out of memory for a %ux%u frame", sc->width, sc->height);
    return -1;
}

static int cpu_create(const bench_peer_scene *sc, cpu_run_state *s, char *why, size_t why_size)
{
    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_CPU;
    rd.width = sc->width;
    rd.height = sc->height;
    rd.tile_size = sc->tile_size;
    rd.num_slabs = sc->num_slabs;
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) return fail_library(why, why_size);
    sc_mesh_data md = sc_mesh_view(sc->mesh);
    if (sc_renderer_set_mesh(s->renderer, &md) != SC_OK || sc_renderer_set_camera(s->renderer, &sc->camera) != SC_OK ||
        sc_renderer_set_deform(s->renderer, &sc->deform) != SC_OK)
        return fail_library(why, why_size);
    return 0;
}

static int cpu_frame(cpu_run_state *s, float time, double *ms)
{
    sc_frame_desc f = {0};
    f.time = time;
    f.rgba = s->pixels;
    sc_frame_stats st;
    if (sc_renderer_render(s->renderer, &f) != SC_OK || sc_renderer_stats(s->renderer, &st) != SC_OK) return -1;
    if (ms) *ms = st.frame_ms;
    return 0;
}

static int cpu_run(const bench_peer_scene *sc, bench_peer_result *out, char *why, size_t why_size)
{
    cpu_run_state s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    out->agreement = -1.0;
    int rc = cpu_alloc(sc, &s, why, why_size);
    if (rc == 0) rc = cpu_create(sc, &s, why, why_size);
    for (int i = 0; rc == 0 && i < sc->warmup; ++i)
        if (cpu_frame(&s, sc->times[0], NULL) != 0) rc = fail_library(why, why_size);
    for (int i = 0; rc == 0 && i < sc->frames; ++i)
        if (cpu_frame(&s, sc->times[i], &s.ms[i]) != 0) rc = fail_library(why, why_size);
    if (rc == 0 && sc_renderer_read_hits(s.renderer, s.hits) != SC_OK) rc = fail_library(why, why_size);
    if (rc == 0) {
        bench_peer_set_times(s.ms, (size_t)sc->frames, out);
        if (sc->our_hits) out->agreement = bench_peer_agreement(sc->our_hits, s.hits, (size_t)sc->width * sc->height);
        snprintf(out->note, sizeof out->note, "cpu backend, %d frames each waited for, host time per frame",
                 sc->frames);
    }
    cpu_release(&s);
    return rc;
}

const bench_peer bench_peer_cpu = {
    "cpu",
    "this renderer's cpu backend (plain C, threads over tiles) on the same frames",
    cpu_run,
};
