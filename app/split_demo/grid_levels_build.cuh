/* grid_levels_build.cuh - the demo's grid build on the device for `split-demo grid-levels`: the
 * bin and emit kernels, the device buffers of the build (dev_state), the work functions that launch
 * each step on a stream (bin, the CUB scan, emit, and each split level of ours and of the thesis's
 * way, alone or all of a way: demo_work_fn, as demo_time times them), and the allocations sized
 * against the free GPU memory. Every function is static: demo_grid_levels.cu alone includes this
 * file, after defining W (the subcommand, in messages). */
#ifndef SPLIT_DEMO_GRID_LEVELS_BUILD_CUH
#define SPLIT_DEMO_GRID_LEVELS_BUILD_CUH

#ifndef W
#error "grid_levels_build.cuh: define W (the subcommand, in messages) before including it"
#endif

#include <cub/device/device_scan.cuh>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"
#include "grid_levels_host.h"
#include "sc_mesh.h"
#include "split.h"

static const size_t HEADROOM = (size_t)256 << 20; /* GPU memory left free beside the demo's buffers */
enum { GL_THREADS = 256 }; /* per block of the build's kernels */

/* ---- the demo's grid build on the device ---------------------------------------------------- */

/* bin: one thread per triangle. gl_bin_triangle (grid_levels_host.h) projects its vertices with the
 * demo's camera and gives its tile range and depth key; counts[t] is its reference count. The frame's
 * depth range: keys are positive (>= the near plane), so their bits order as the floats do: each warp
 * reduces its threads' least and greatest key bits, and one lane per warp takes atomicMin / atomicMax
 * on depth_bits[0] / depth_bits[1] (set to ~0 and 0 before). */
__global__ void bin_triangles(const float *__restrict__ pos, const uint32_t *__restrict__ idx, uint32_t n_tri,
                              gl_camera cam, gl_grid g, gl_bin *__restrict__ bins,
                              unsigned long long *__restrict__ counts, unsigned *__restrict__ depth_bits)
{
    unsigned lo = 0xFFFFFFFFu, hi = 0;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n_tri; t += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t *v = idx + t * 3;
        const gl_bin b = gl_bin_triangle(&cam, &g, pos + (size_t)v[0] * 3, pos + (size_t)v[1] * 3, pos + (size_t)v[2] * 3);
        bins[t] = b;
        counts[t] = gl_bin_refs(&b);
        if (b.visible) lo = min(lo, __float_as_uint(b.key)), hi = max(hi, __float_as_uint(b.key));
    }
    /* every lane reaches here: the loop has no early exit */
#if __CUDA_ARCH__ >= 800
    lo = __reduce_min_sync(0xFFFFFFFFu, lo);
    hi = __reduce_max_sync(0xFFFFFFFFu, hi);
#else
    for (int o = 16; o > 0; o >>= 1) { /* no warp-reduce instruction before sm_80 */
        lo = min(lo, __shfl_xor_sync(0xFFFFFFFFu, lo, o));
        hi = max(hi, __shfl_xor_sync(0xFFFFFFFFu, hi, o));
    }
#endif
    if ((threadIdx.x & 31) == 0 && hi != 0) {
        atomicMin(&depth_bits[0], lo);
        atomicMax(&depth_bits[1], hi);
    }
}

/* emit: one thread per triangle writes its references from offsets[t] on: for each tile of its range,
 * rows bottom to top, tiles left to right: the tile id, the column, the key (row and slab) and the
 * triangle id. (A thread per triangle is the plain way; a huge triangle makes one thread write
 * thousands of references, which the renderer's own emit spreads over threads.) */
__global__ void emit_references(const gl_bin *__restrict__ bins, const unsigned long long *__restrict__ offsets,
                                uint32_t n_tri, gl_grid g, const unsigned *__restrict__ depth_bits,
                                uint32_t *__restrict__ ref_tile, uint32_t *__restrict__ ref_col,
                                uint32_t *__restrict__ ref_key, uint32_t *__restrict__ ref_tri)
{
    const float dmin = __uint_as_float(depth_bits[0]), dmax = __uint_as_float(depth_bits[1]);
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n_tri; t += (uint64_t)gridDim.x * blockDim.x) {
        const gl_bin b = bins[t];
        if (!b.visible) continue;
        const uint32_t slab = gl_slab_of(b.key, dmin, dmax, g.slabs);
        uint64_t r = offsets[t];
        for (uint32_t ty = b.ty0; ty <= b.ty1; ++ty)
            for (uint32_t tx = b.tx0; tx <= b.tx1; ++tx, ++r) {
                ref_tile[r] = ty * g.tiles_x + tx;
                ref_col[r] = tx;
                ref_key[r] = gl_ref_key(ty, slab, g.slab_bits);
                ref_tri[r] = (uint32_t)t;
            }
    }
}

/* Device buffers of the build. */
typedef struct dev_state {
    gl_grid g;
    gl_camera cam;
    uint32_t n_tri;
    float *pos;
    uint32_t *idx;
    gl_bin *bins;
    unsigned long long *counts, *offsets; /* n_tri + 1 each; counts[n_tri] = 0, offsets[n_tri] = total */
    unsigned *depth_bits;                 /* least and greatest key bits */
    void *scan_temp;
    size_t scan_bytes;
    uint32_t *ref_arrays;                 /* every per-reference array, one allocation */
    uint32_t *offset_arrays;              /* every offset table, one allocation */
    gl_build_bufs b;
    void *temp;                           /* the split calls' temporary storage (the largest need) */
    size_t temp_bytes;
} dev_state;

static void free_dev(dev_state *d)
{
    cudaFree(d->pos), cudaFree(d->idx), cudaFree(d->bins), cudaFree(d->counts), cudaFree(d->offsets);
    cudaFree(d->depth_bits), cudaFree(d->scan_temp), cudaFree(d->ref_arrays), cudaFree(d->offset_arrays);
    cudaFree(d->temp);
    memset(d, 0, sizeof *d);
}

static int work_bin(void *vd, cudaStream_t s)
{
    dev_state *d = (dev_state *)vd;
    DEMO_CUDA(W, cudaMemsetAsync(d->depth_bits, 0xFF, sizeof(unsigned), s));
    DEMO_CUDA(W, cudaMemsetAsync(d->depth_bits + 1, 0, sizeof(unsigned), s));
    bin_triangles<<<demo_blocks_for(d->n_tri, GL_THREADS), GL_THREADS, 0, s>>>(d->pos, d->idx, d->n_tri, d->cam, d->g, d->bins, d->counts,
                                                     d->depth_bits);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

static int work_scan(void *vd, cudaStream_t s)
{
    dev_state *d = (dev_state *)vd;
    size_t bytes = d->scan_bytes;
    DEMO_CUDA(W, cub::DeviceScan::ExclusiveSum(d->scan_temp, bytes, d->counts, d->offsets, (int64_t)d->n_tri + 1, s));
    return 0;
}

static int work_emit(void *vd, cudaStream_t s)
{
    dev_state *d = (dev_state *)vd;
    emit_references<<<demo_blocks_for(d->n_tri, GL_THREADS), GL_THREADS, 0, s>>>(d->bins, d->offsets, d->n_tri, d->g, d->depth_bits,
                                                       (uint32_t *)d->b.ref_tile, (uint32_t *)d->b.ref_col,
                                                       (uint32_t *)d->b.ref_key, (uint32_t *)d->b.ref_tri);
    DEMO_CUDA(W, cudaGetLastError());
    return 0;
}

/* One level of a build: level 1 a multisplit, the others segmented splits. */
static int run_level(dev_state *d, int thesis, int level, cudaStream_t s)
{
    const split_desc desc = thesis ? gl_desc_thesis(&d->g, &d->b, level) : gl_desc_ours(&d->g, &d->b, level);
    size_t bytes = d->temp_bytes;
    if (level == 1)
        DEMO_SPLIT(W, split_multisplit(d->temp, &bytes, &desc, s));
    else
        DEMO_SPLIT(W, split_segmented(d->temp, &bytes, &desc, s));
    return 0;
}

static int work_ours_1(void *vd, cudaStream_t s) { return run_level((dev_state *)vd, 0, 1, s); }
static int work_ours_2(void *vd, cudaStream_t s) { return run_level((dev_state *)vd, 0, 2, s); }
static int work_thesis_1(void *vd, cudaStream_t s) { return run_level((dev_state *)vd, 1, 1, s); }
static int work_thesis_2(void *vd, cudaStream_t s) { return run_level((dev_state *)vd, 1, 2, s); }
static int work_thesis_3(void *vd, cudaStream_t s) { return run_level((dev_state *)vd, 1, 3, s); }
static int work_ours_all(void *vd, cudaStream_t s) { return work_ours_1(vd, s) || work_ours_2(vd, s); }
static int work_thesis_all(void *vd, cudaStream_t s)
{
    return work_thesis_1(vd, s) || work_thesis_2(vd, s) || work_thesis_3(vd, s);
}

/* Free GPU memory minus the headroom, or 0 after printing why it could not be read. */
static int fits(const char *what, size_t need)
{
    size_t free_bytes = 0, total_bytes = 0;
    DEMO_CUDA(W, cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > SIZE_MAX - HEADROOM || need + HEADROOM > free_bytes) {
        fprintf(stderr, "split-demo " W ": %s need %.2f GiB of GPU memory and 256 MiB of headroom; %.2f GiB are free: "
                        "lower --size or use a smaller model\n", what, need / 1073741824.0, free_bytes / 1073741824.0);
        return 1;
    }
    return 0;
}

/* Per-triangle buffers; the positions are this frame's (copied on the device from the renderer). */
static int alloc_triangles(dev_state *d, const sc_mesh *m)
{
    const size_t t = m->triangle_count, v = m->vertex_count;
    const size_t need = v * 12 + t * 12 + t * sizeof(gl_bin) + 2 * (t + 1) * 8 + 256;
    if (fits("the triangles' buffers", need)) return 1;
    DEMO_CUDA(W, cudaMalloc((void **)&d->pos, v * 12 + 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d->idx, t * 12 + 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d->bins, t * sizeof(gl_bin) + 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d->counts, (t + 1) * 8));
    DEMO_CUDA(W, cudaMalloc((void **)&d->offsets, (t + 1) * 8));
    DEMO_CUDA(W, cudaMalloc((void **)&d->depth_bits, 2 * sizeof(unsigned)));
    DEMO_CUDA(W, cudaMemset(d->counts, 0, (t + 1) * 8)); /* counts[t]: the scan's last entry, always 0 */
    DEMO_CUDA(W, cudaMemcpy(d->idx, m->indices, t * 12, cudaMemcpyHostToDevice));
    d->n_tri = m->triangle_count;
    DEMO_CUDA(W, cub::DeviceScan::ExclusiveSum(NULL, d->scan_bytes, d->counts, d->offsets, (int64_t)t + 1));
    DEMO_CUDA(W, cudaMalloc(&d->scan_temp, d->scan_bytes ? d->scan_bytes : 1));
    return 0;
}

/* Per-reference buffers (14 arrays of n), the offset tables, and the largest temporary storage. */
static int alloc_references(dev_state *d, size_t n)
{
    const gl_grid *g = &d->g;
    const size_t cells = (size_t)g->tiles * g->slab_buckets, nn = n ? n : 1;
    const size_t offsets = (g->tiles + 1) + 2 * (cells + 1) + (g->tiles_x + 1) + ((size_t)g->tiles + 1);
    if (fits("the references' buffers", (14 * nn + offsets) * 4)) return 1;
    DEMO_CUDA(W, cudaMalloc((void **)&d->ref_arrays, 14 * nn * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&d->offset_arrays, offsets * 4));
    uint32_t *p = d->ref_arrays, *q = d->offset_arrays;
    gl_build_bufs *b = &d->b;
    b->n = n;
    b->ref_tile = p, p += nn, b->ref_col = p, p += nn, b->ref_key = p, p += nn, b->ref_tri = p, p += nn;
    b->o_key1 = p, p += nn, b->o_tri1 = p, p += nn, b->o_key2 = p, p += nn, b->o_tri2 = p, p += nn;
    b->t_key1 = p, p += nn, b->t_tri1 = p, p += nn, b->t_key2 = p, p += nn, b->t_tri2 = p, p += nn;
    b->t_key3 = p, p += nn, b->t_tri3 = p;
    b->o_tile_off = q, q += g->tiles + 1, b->o_cell_off = q, q += cells + 1, b->t_cell_off = q, q += cells + 1;
    b->t_col_off = q, q += g->tiles_x + 1, b->t_colrow_off = q;
    size_t need = 0;
    for (int thesis = 0; thesis < 2; ++thesis)
        for (int level = 1; level <= 2 + thesis; ++level) {
            const split_desc desc = thesis ? gl_desc_thesis(g, b, level) : gl_desc_ours(g, b, level);
            size_t bytes = 0;
            if (level == 1)
                DEMO_SPLIT(W, split_multisplit(NULL, &bytes, &desc, 0));
            else
                DEMO_SPLIT(W, split_segmented(NULL, &bytes, &desc, 0));
            need = bytes > need ? bytes : need;
        }
    if (fits("the split calls' temporary storage", need)) return 1;
    DEMO_CUDA(W, cudaMalloc(&d->temp, need ? need : 1));
    d->temp_bytes = need;
    return 0;
}

#endif /* SPLIT_DEMO_GRID_LEVELS_BUILD_CUH */
