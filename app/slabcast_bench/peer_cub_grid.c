/* peer_cub_grid.c - the `cub-grid` peer: this renderer on the CUDA backend with its grid built the way
 * tile renderers such as Gaussian splatting bin (SC_BINNING_RADIX_SORT: one (tile, slab) key per
 * reference, CUB's radix sort of the key-value pairs over the key bits, cell ranges found after), then
 * the same ray cast and shade; timed by the renderer's GPU frame time as ours is, its hits compared
 * with ours (they must be identical). It shows what the multisplit and segmented split buy.
 * The sort covers the whole reference buffer (the frame's count stays on the device, no read-back), so
 * the buffer is sized once to this scene's references (a probe frame) plus 2 %: what a tuned renderer
 * of that kind would do, not the default headroom. */
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "bench_peer.h"

static int cub_run(const bench_peer_scene *sc, bench_peer_result *out, char *why, size_t why_size)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        (void)cudaGetLastError();
        snprintf(why, why_size, "cub-grid: no CUDA device");
        return 77;
    }
    static const bench_renderer_peer how = {"cub-grid", SC_BACKEND_CUDA, SC_BINNING_RADIX_SORT, 1,
                                            "CUDA backend, CUB radix-sort grid, GPU frame time"};
    return bench_peer_run_renderer(sc, &how, out, why, why_size);
}

const bench_peer bench_peer_cub_grid = {
    "cub-grid",
    "our pipeline with the grid built by CUB's radix sort of (tile, slab) keys, as tile splatting renderers bin",
    cub_run,
    0,
};
