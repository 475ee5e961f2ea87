/* grid3d.h - the 3-D uniform grid on the GPU, shared by `split-demo grid` (static points) and
 * `split-demo particles` (re-binned every step); grid3d.cu holds the kernels.
 *
 * N points (g3_point records: x, y, z in the box [0, 1]^3 and the point's id) are binned into G^3
 * cells of side 1/G (G <= 256, so up to 2^24 cells), cell id (cz * G + cy) * G + cx
 * (grid3d_host.h):
 *   cells:      a kernel writes each point's cell id (g3_grid_cells);
 *   bin:        ONE unstable split_multisplit with the IDS rule (bucket = cell id, B = G^3: the wide
 *               path for B > 2048) writing the gather index (grid order -> input position) and the
 *               cell offsets (bucket_offsets, G^3 + 1 entries) (g3_grid_bin);
 *   reorder:    split_gather of 16-byte records by that index, positions (and velocities) into
 *               cell order (g3_grid_reorder);
 *   neighbours: one thread per point of the grid-ordered array visits the 27 cells around its cell
 *               (9 rows of 3 consecutive cell ids, each one range of points) and counts the other
 *               points within the radius (g3_within, one rounding per operation), with the sum of
 *               their ids; both are written by id, and the block's counts are added to a running
 *               total (twice the neighbour pairs) (g3_grid_count).
 * g3_grid_create allocates everything (the multisplit's temporary storage sized by its two-phase
 * query) once; the calls above only enqueue work on the stream: no allocation, no synchronisation.
 * Every function returns 0, or prints "split-demo <who>: ..." naming the failed call and returns 1. */
#ifndef SPLIT_DEMO_GRID3D_H
#define SPLIT_DEMO_GRID3D_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "grid3d_host.h"
#include "split.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { G3_THREADS = 256 }; /* threads per block of the grid's and the particles' kernels */

typedef struct g3_gpu_grid {
    const char *who;        /* the subcommand, in messages */
    uint32_t g, num_cells;  /* cells per side, g^3 */
    size_t n;               /* points */
    uint32_t *cell_ids;     /* n: the cell of each point, in input order (the multisplit's bucket ids) */
    uint32_t *gather_index; /* n: grid position -> input position */
    uint32_t *offsets;      /* num_cells + 1: cell c holds grid positions [offsets[c], offsets[c + 1]) */
    void *temp;             /* the multisplit's temporary storage */
    size_t temp_bytes;
    split_desc bin;         /* the multisplit, set up once */
} g3_gpu_grid;

/* Device bytes of a grid of n points and g^3 cells, besides the caller's point arrays: an estimate
 * for the memory check before g3_grid_create (the multisplit's temporary storage counted as two
 * counters per cell and 1 MiB). Returns 0, or 1 when it overflows size_t. */
int g3_grid_device_bytes(size_t n, uint32_t g, size_t *bytes);

/* The start `split-demo grid` and `particles` share (sub: the subcommand's name, in messages): the
 * grid size and radius from the options (g3_resolve_grid), a CUDA device (demo_require_device), and a
 * grid of n `things` on g^3 cells plus own_bytes of the subcommand's own within the GPU's free memory
 * with 256 MiB to spare (else a message with the bytes needed and free, naming hint: what to lower).
 * Returns 0 to go on with *g and *r set, else the exit status: 2 bad options, 77 (or 1 with
 * SLABCAST_REQUIRE_GPU=1) without a device, 1 short of memory. */
int g3_demo_start(const char *sub, uint64_t n, uint32_t g_opt, double r_opt, size_t own_bytes, const char *things,
                  const char *hint, uint32_t *g, float *r);

/* Allocates the grid's arrays and temporary storage for n points (1 <= n < 2^32) on g^3 cells. */
int g3_grid_create(g3_gpu_grid *grid, const char *who, size_t n, uint32_t g);
void g3_grid_destroy(g3_gpu_grid *grid);

/* Writes points[i]'s initial position (g3_initial_point) and, when vel is not NULL, its initial
 * velocity (g3_initial_velocity), for i < n. */
int g3_generate(const char *who, g3_point *points, g3_point *vel, size_t n, cudaStream_t s);

/* grid->cell_ids[i] = the cell of points[i], i < n. */
int g3_grid_cells(const g3_gpu_grid *grid, const g3_point *points, cudaStream_t s);

/* The multisplit of grid->cell_ids: grid->gather_index and grid->offsets. */
int g3_grid_bin(const g3_gpu_grid *grid, cudaStream_t s);

/* dst[i] = src[gather_index[i]] for n records of record_bytes (split_gather). */
int g3_grid_reorder(const g3_gpu_grid *grid, const void *src, void *dst, size_t record_bytes, cudaStream_t s);

/* The neighbours within sqrt(r2) of each point of the grid-ordered array `sorted` (n points, binned
 * into grid->offsets): count_by_id[id] and id_sum_by_id[id]; *count_total (device) += the sum of
 * all counts. */
int g3_grid_count(const g3_gpu_grid *grid, const g3_point *sorted, float r2, uint32_t *count_by_id,
                  uint64_t *id_sum_by_id, unsigned long long *count_total, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_GRID3D_H */
