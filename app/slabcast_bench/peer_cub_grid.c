/* peer_cub_grid.c - the `cub-grid` peer: this renderer on the backend that builds its grid the way
 * tile renderers such as Gaussian splatting bin (SC_BINNING_RADIX_SORT, the CUDA backend's: one
 * (tile, slab) key per reference, CUB's radix sort of the key-value pairs over the key bits, cell
 * ranges found after), then the same ray cast and shade; timed by the renderer's GPU frame time as
 * ours is, its hits compared with ours (they must be identical). It shows what the multisplit and
 * segmented split buy.
 * The sort covers the whole reference buffer (the frame's count stays on the device, no read-back), so
 * the buffer is sized once to this scene's references (a probe frame) plus 2 %: what a tuned renderer
 * of that kind would do, not the default headroom. */
#include <stdio.h>

#include "bench_peer.h"

/* The backend that builds the grid by radix sort and runs here (sc_backend_info.radix_binning): 0 and
 * *out, or 77 (skip) with why: none is built, or the one built does not run here. */
static int find_radix_backend(sc_backend *out, char *why, size_t why_size)
{
    snprintf(why, why_size, "cub-grid: no backend of this build sorts its grid by radix");
    for (int b = SC_BACKEND_DEFAULT + 1; sc_backend_name((sc_backend)b); ++b) {
        sc_backend_info info;
        if (sc_backend_get_info((sc_backend)b, &info) != SC_OK || !info.radix_binning) continue;
        if (info.available) {
            *out = info.backend;
            return 0;
        }
        snprintf(why, why_size, "cub-grid: %s", info.unavailable_reason);
    }
    return 77;
}

static int cub_run(const bench_peer_scene *sc, bench_peer_result *out, char *why, size_t why_size)
{
    bench_renderer_peer how = {"cub-grid", SC_BACKEND_DEFAULT, SC_BINNING_RADIX_SORT, 1,
                               "CUDA backend, CUB radix-sort grid, GPU frame time"};
    int rc = find_radix_backend(&how.backend, why, why_size);
    return rc != 0 ? rc : bench_peer_run_renderer(sc, &how, out, why, why_size);
}

const bench_peer bench_peer_cub_grid = {
    "cub-grid",
    "our pipeline with the grid built by CUB's radix sort of (tile, slab) keys, as tile splatting renderers bin",
    cub_run,
    0,
};
