/* grid3d.cu - the 3-D uniform grid on the GPU (grid3d.h): the point generation, cell id and
 * neighbour-count kernels, and the grid's calls of the split library (one unstable
 * split_multisplit on the cell ids, split_gather of the records). The arithmetic the host
 * repeats (generation, cells, the neighbour test) is grid3d_host.h's, so the CPU checks in
 * grid3d_host.c see the same bits. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "grid3d.h"


__device__ __forceinline__ g3_point g3_load(const g3_point *points, uint64_t i)
{
    const float4 v = __ldg((const float4 *)points + i);
    g3_point p;
    p.x = v.x, p.y = v.y, p.z = v.z, p.id = __float_as_uint(v.w);
    return p;
}

__device__ __forceinline__ void g3_store(g3_point *points, uint64_t i, g3_point p)
{
    ((float4 *)points)[i] = make_float4(p.x, p.y, p.z, __uint_as_float(p.id));
}

__global__ void g3_generate_kernel(g3_point *points, g3_point *vel, uint64_t n)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        g3_store(points, i, g3_initial_point(i));
        if (vel) g3_store(vel, i, g3_initial_velocity(i));
    }
}

__global__ void g3_cells_kernel(const g3_point *__restrict__ points, uint32_t *__restrict__ cells, uint64_t n,
                                uint32_t g)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        cells[i] = g3_cell_of(g3_load(points, i), g);
}

/* One thread per grid position i: the neighbours of sorted[i] in the 27 cells around its cell. The
 * cells x0 .. x1 of a row (fixed y, z) have consecutive ids, so their points are one range. */
__global__ void __launch_bounds__(G3_THREADS)
    g3_count_kernel(const g3_point *__restrict__ sorted, const uint32_t *__restrict__ offsets, uint32_t g, float r2,
                    uint64_t n, uint32_t *__restrict__ count_by_id, unsigned long long *__restrict__ id_sum_by_id,
                    unsigned long long *count_total)
{
    const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long hits = 0;
    if (i < n) {
        const g3_point p = g3_load(sorted, i);
        const uint32_t cx = g3_cell_coord(p.x, g), cy = g3_cell_coord(p.y, g), cz = g3_cell_coord(p.z, g);
        const uint32_t x0 = cx ? cx - 1 : 0, x1 = cx + 1 < g ? cx + 1 : g - 1;
        const uint32_t z0 = cz ? cz - 1 : 0, z1 = cz + 1 < g ? cz + 1 : g - 1;
        const uint32_t y0 = cy ? cy - 1 : 0, y1 = cy + 1 < g ? cy + 1 : g - 1;
        unsigned long long sum = 0;
        for (uint32_t z = z0; z <= z1; ++z)
            for (uint32_t y = y0; y <= y1; ++y) {
                const uint32_t lo = __ldg(offsets + g3_cell_id(x0, y, z, g));
                const uint32_t hi = __ldg(offsets + g3_cell_id(x1, y, z, g) + 1);
                for (uint32_t j = lo; j < hi; ++j) {
                    const g3_point q = g3_load(sorted, j);
                    if (j != i && g3_within(p, q, r2)) ++hits, sum += q.id;
                }
            }
        if (p.id < n) {
            count_by_id[p.id] = (uint32_t)hits;
            id_sum_by_id[p.id] = sum;
        }
    }
    /* the total: a warp sum, one atomic per warp */
    for (int d = 16; d > 0; d /= 2) hits += __shfl_down_sync(0xFFFFFFFFu, hits, d);
    if ((threadIdx.x & 31u) == 0 && hits) atomicAdd(count_total, hits);
}

int g3_grid_device_bytes(size_t n, uint32_t g, size_t *bytes)
{
    const uint64_t cells = (uint64_t)g * g * g;
    const uint64_t per_point = 4 + 4, per_cell = 4 + 8;
    if (n > (SIZE_MAX - (cells + 1) * per_cell - ((size_t)1 << 20)) / per_point) return 1;
    *bytes = (size_t)(n * per_point + (cells + 1) * per_cell + ((size_t)1 << 20));
    return 0;
}

int g3_grid_create(g3_gpu_grid *grid, const char *who, size_t n, uint32_t g)
{
    memset(grid, 0, sizeof *grid);
    grid->who = who;
    if (n < 1 || n > UINT32_MAX || g < 1 || g > G3_MAX_G) {
        fprintf(stderr, "split-demo %s: a grid of %zu points on %u cells per side is outside 1 .. 2^32-1 points, "
                        "1 .. %d cells\n", who, n, g, (int)G3_MAX_G);
        return 1;
    }
    grid->g = g;
    grid->num_cells = g * g * g;
    grid->n = n;
    DEMO_CUDA(who, cudaMalloc((void **)&grid->cell_ids, n * sizeof(uint32_t)));
    DEMO_CUDA(who, cudaMalloc((void **)&grid->gather_index, n * sizeof(uint32_t)));
    DEMO_CUDA(who, cudaMalloc((void **)&grid->offsets, ((size_t)grid->num_cells + 1) * sizeof(uint32_t)));
    split_desc *d = &grid->bin;
    memset(d, 0, sizeof *d);
    d->key_type = SPLIT_KEY_U32;
    d->n = n;
    d->buckets.rule = SPLIT_BUCKETS_IDS; /* bucket = cell id; no keys are read or moved */
    d->buckets.num_buckets = grid->num_cells;
    d->buckets.bucket_ids = grid->cell_ids;
    d->gather_index = grid->gather_index;
    d->bucket_offsets = grid->offsets;
    d->unstable = 1; /* any order within a cell; B > 2048 takes the wide path */
    DEMO_SPLIT(who, split_multisplit(NULL, &grid->temp_bytes, d, 0)); /* phase 1: the size */
    DEMO_CUDA(who, cudaMalloc(&grid->temp, grid->temp_bytes ? grid->temp_bytes : 1));
    return 0;
}

void g3_grid_destroy(g3_gpu_grid *grid)
{
    cudaFree(grid->cell_ids);
    cudaFree(grid->gather_index);
    cudaFree(grid->offsets);
    cudaFree(grid->temp);
    grid->cell_ids = grid->gather_index = grid->offsets = NULL;
    grid->temp = NULL;
}

int g3_generate(const char *who, g3_point *points, g3_point *vel, size_t n, cudaStream_t s)
{
    g3_generate_kernel<<<demo_blocks_for(n, G3_THREADS), G3_THREADS, 0, s>>>(points, vel, n);
    DEMO_CUDA(who, cudaGetLastError());
    return 0;
}

int g3_grid_cells(const g3_gpu_grid *grid, const g3_point *points, cudaStream_t s)
{
    g3_cells_kernel<<<demo_blocks_for(grid->n, G3_THREADS), G3_THREADS, 0, s>>>(points, grid->cell_ids, grid->n, grid->g);
    DEMO_CUDA(grid->who, cudaGetLastError());
    return 0;
}

int g3_grid_bin(const g3_gpu_grid *grid, cudaStream_t s)
{
    size_t bytes = grid->temp_bytes;
    DEMO_SPLIT(grid->who, split_multisplit(grid->temp, &bytes, &grid->bin, s));
    return 0;
}

int g3_grid_reorder(const g3_gpu_grid *grid, const void *src, void *dst, size_t record_bytes, cudaStream_t s)
{
    split_move_desc mv = {src, dst, record_bytes, grid->gather_index, grid->n, 1};
    DEMO_SPLIT(grid->who, split_gather(&mv, s));
    return 0;
}

int g3_grid_count(const g3_gpu_grid *grid, const g3_point *sorted, float r2, uint32_t *count_by_id,
                  uint64_t *id_sum_by_id, unsigned long long *count_total, cudaStream_t s)
{
    const uint64_t blocks = (grid->n + G3_THREADS - 1) / G3_THREADS; /* n < 2^32: fits a grid's x */
    g3_count_kernel<<<(unsigned)blocks, G3_THREADS, 0, s>>>(sorted, grid->offsets, grid->g, r2, grid->n, count_by_id,
                                                            (unsigned long long *)id_sum_by_id, count_total);
    DEMO_CUDA(grid->who, cudaGetLastError());
    return 0;
}

int g3_demo_start(const char *sub, uint64_t n, uint32_t g_opt, double r_opt, size_t own_bytes, const char *things,
                  const char *hint, uint32_t *g, float *r)
{
    char who[64];
    snprintf(who, sizeof who, "split-demo %s", sub);
    if (g3_resolve_grid(n, g_opt, r_opt, who, g, r)) return 2;
    const int no_device = demo_require_device(sub);
    if (no_device) return no_device;
    const size_t headroom = (size_t)256 << 20;
    size_t grid_bytes = 0, free_bytes = 0, total_bytes = 0;
    if (g3_grid_device_bytes(n, *g, &grid_bytes) || grid_bytes > SIZE_MAX - headroom - own_bytes) {
        fprintf(stderr, "%s: the size of a grid of %llu %s overflows\n", who, (unsigned long long)n, things);
        return 1;
    }
    const size_t need = grid_bytes + own_bytes + headroom;
    const cudaError_t e = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: cudaMemGetInfo failed: %s\n", who, cudaGetErrorString(e));
        return 1;
    }
    if (need > free_bytes) {
        fprintf(stderr, "%s: %llu %s on %u^3 cells need about %.2f GiB of GPU memory (with 256 MiB headroom); %.2f GiB "
                        "free: use a smaller %s\n",
                who, (unsigned long long)n, things, *g, need / 1073741824.0, free_bytes / 1073741824.0, hint);
        return 1;
    }
    return 0;
}
