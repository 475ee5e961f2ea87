/* peer_cpu.c - the `cpu` peer: this renderer's CPU backend on the same frames (mesh, camera, size,
 * grid, deformers and times), timed by the backend's own frame time (host time), its last frame's
 * hits compared with ours. Beside the CUDA backend it gives the GPU's speed-up and checks that both
 * backends see the same triangles; it renders every frame of the configuration, so it is slow at
 * large sizes. */
#include "bench_peer.h"

static int cpu_run(const bench_peer_scene *sc, bench_peer_result *out, char *why, size_t why_size)
{
    static const bench_renderer_peer how = {"cpu", SC_BACKEND_CPU, SC_BINNING_SPLIT, 0,
                                            "cpu backend, host time per frame"};
    return bench_peer_run_renderer(sc, &how, out, why, why_size);
}

const bench_peer bench_peer_cpu = {
    "cpu",
    "this renderer's cpu backend (plain C, threads over tiles) on the same frames",
    cpu_run,
    0,
};
