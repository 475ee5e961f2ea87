/* peer_cub_grid.c - the `cub-grid` peer: this renderer on the CUDA backend with its grid built the way
 * tile renderers such as Gaussian splatting bin (SC_BINNING_RADIX_SORT: one (tile, slab) key per
 * reference, CUB's radix sort of the key-value pairs over the key bits, cell ranges found after), then
 * the same ray cast and shade. Same frames as ours (mesh, camera, size, grid, deformers, times), each
 * waited for, timed by the renderer's GPU frame time as ours is; its last frame's hits compared with
 * ours (they must be identical). It shows what the multisplit and segmented split buy.
 * The sort covers the whole reference buffer (the frame's count stays on the device, no read-back), so
 * the buffer is sized once to this scene's references (a probe frame) plus 2 %: what a tuned renderer
 * of that kind would do, not the default headroom. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_peer.h"
#include "sc_status.h"

typedef struct cub_run_state {
    sc_renderer *renderer;
    void *pixels;                /* device image */
    double *ms;
    sc_hit *hits;
} cub_run_state;

static void cub_release(cub_run_state *s)
{
    sc_renderer_destroy(s->renderer);
    if (s->pixels) cudaFree(s->pixels);
    free(s->ms);
    free(s->hits);
    memset(s, 0, sizeof *s);
}

static int fail_library(char *why, size_t why_size)
{
    const char *msg = sc_last_error();
    snprintf(why, why_size, "cub-grid: %s", msg[0] ? msg : "failed (no reason was given)");
    return -1;
}

static int cub_alloc(const bench_peer_scene *sc, cub_run_state *s, char *why, size_t why_size)
{
    size_t pixels = (size_t)sc->width * sc->height;
    if (sc->width && pixels / sc->width != sc->height) pixels = SIZE_MAX;
    if (pixels > SIZE_MAX / sizeof(sc_hit) || sc->frames < 1) {
        snprintf(why, why_size, "cub-grid: a %ux%u frame does not fit in memory", sc->width, sc->height);
        return -1;
    }
    cudaError_t e = cudaMalloc(&s->pixels, pixels * 4);
    if (e != cudaSuccess) {
        s->pixels = NULL;
        snprintf(why, why_size, "cub-grid: cudaMalloc of a %ux%u image: %s", sc->width, sc->height,
                 cudaGetErrorString(e));
        return -1;
    }
    s->hits = malloc(pixels * sizeof *s->hits);
    s->ms = malloc((size_t)sc->frames * sizeof *s->ms);
    if (s->hits && s->ms) return 0;
    snprintf(why, why_size, "cub-grid: out of host memory for a %ux%u frame", sc->width, sc->height);
    return -1;
}

static int cub_frame(cub_run_state *s, float time, double *ms, uint64_t *references)
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

/* A renderer of the scene with the radix-sort binning and `capacity` references (0: the default). */
static int cub_create(const bench_peer_scene *sc, size_t capacity, cub_run_state *s, char *why, size_t why_size)
{
    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_CUDA;
    rd.width = sc->width;
    rd.height = sc->height;
    rd.tile_size = sc->tile_size;
    rd.num_slabs = sc->num_slabs;
    rd.binning = SC_BINNING_RADIX_SORT;
    rd.initial_ref_capacity = capacity;
    if (sc_renderer_create(&rd, &s->renderer) != SC_OK) return fail_library(why, why_size);
    sc_mesh_data md = sc_mesh_view(sc->mesh);
    if (sc_renderer_set_mesh(s->renderer, &md) != SC_OK || sc_renderer_set_camera(s->renderer, &sc->camera) != SC_OK ||
        sc_renderer_set_deform(s->renderer, &sc->deform) != SC_OK)
        return fail_library(why, why_size);
    return 0;
}

/* The scene's references at the first time (a probe renderer), plus 2 % and a little. */
static int probe_capacity(const bench_peer_scene *sc, cub_run_state *s, size_t *capacity, char *why, size_t why_size)
{
    uint64_t refs = 0;
    if (cub_create(sc, 0, s, why, why_size) != 0) return -1;
    if (cub_frame(s, sc->times[0], NULL, &refs) != 0) return fail_library(why, why_size);
    sc_renderer_destroy(s->renderer);
    s->renderer = NULL;
    uint64_t want = refs + refs / 50 + 1024;
    *capacity = want > UINT64_C(0xFFFFFFFE) ? (size_t)UINT64_C(0xFFFFFFFE) : (size_t)want;
    return 0;
}

static int cub_run(const bench_peer_scene *sc, bench_peer_result *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->agreement = -1.0;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        (void)cudaGetLastError();
        snprintf(why, why_size, "cub-grid: no CUDA device");
        return 77;
    }
    cub_run_state s;
    memset(&s, 0, sizeof s);
    size_t capacity = 0;
    int rc = cub_alloc(sc, &s, why, why_size);
    if (rc == 0) rc = probe_capacity(sc, &s, &capacity, why, why_size);
    if (rc == 0) rc = cub_create(sc, capacity, &s, why, why_size);
    for (int i = 0; rc == 0 && i < sc->warmup; ++i)
        if (cub_frame(&s, sc->times[0], NULL, NULL) != 0) rc = fail_library(why, why_size);
    for (int i = 0; rc == 0 && i < sc->frames; ++i)
        if (cub_frame(&s, sc->times[i], &s.ms[i], NULL) != 0) rc = fail_library(why, why_size);
    if (rc == 0 && sc_renderer_read_hits(s.renderer, s.hits) != SC_OK) rc = fail_library(why, why_size);
    if (rc == 0) {
        bench_peer_set_times(s.ms, (size_t)sc->frames, out);
        if (sc->our_hits) out->agreement = bench_peer_agreement(sc->our_hits, s.hits, (size_t)sc->width * sc->height);
        snprintf(out->note, sizeof out->note, "CUDA backend, CUB radix-sort grid, %zu reference slots, GPU frame time",
                 capacity);
    }
    cub_release(&s);
    return rc;
}

const bench_peer bench_peer_cub_grid = {
    "cub-grid",
    "our pipeline with the grid built by CUB's radix sort of (tile, slab) keys, as tile splatting renderers bin",
    cub_run,
};
