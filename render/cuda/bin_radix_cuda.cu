/* bin_radix_cuda.cu - the radix-sort binning (SC_BINNING_RADIX_SORT): the grid that bin_cuda.cu's
 * splits build, built instead the way tile renderers such as Gaussian splatting bin, so that the
 * benchmark can measure what the split library buys. The ray cast and shade that follow are the
 * same; so are the cell offsets and reference values they read (cell c = tile << slab_bits | slab,
 * references in cell order in ref_values[0]) and the tile offsets of the tile heat view.
 *
 * Emit (stage emit): bin_cuda.cu's emit, with the cell as the key, into pair 1. Then the keys of the
 * buffer's unused tail [references, capacity) are set to the largest key of the key bits: CUB's
 * DeviceRadixSort takes its item count from the host, and the frame's count lives on the device (no
 * read-back, no wait per frame), so the sort runs over the whole capacity (the frame graph is
 * captured per capacity). The padding sorts after every reference: its key is >= every cell's, and
 * the sort is stable with the padding after the references in its input.
 *
 * Sort (stage tile_split): cub::DeviceRadixSort::SortPairs over bits [0, tile_bits + slab_bits) (the
 * cell's bits, no more), pair 1 -> pair 0: keys in cell order, values the triangle ids the ray cast
 * reads. The keys_in / keys_out form leaves the output where the ray cast reads it whatever the
 * number of passes; CUB then takes its alternate buffers from the temporary storage (a key and a
 * value array of the capacity when the sort makes more than one pass).
 *
 * Ranges (stage slab_split): cell_offsets[c] = the first reference of cell c, c = 0 .. cells (entry
 * cells = the frame's references). The offsets are zeroed, the last reference of every run of equal
 * keys writes its end at entry key + 1 (a comparison with its neighbour), and an inclusive max-scan
 * of entries 1 .. cells (CUB DeviceScan, in place) carries each end over the empty cells after it.
 * The tile offsets (2^tile_bits + 1 entries, as the tile multisplit's bucket offsets) are then read
 * at each tile's first cell.
 *
 * Order inside a cell is the emit's (unspecified, as in the split binning, whose tile multisplit is
 * unstable); the ray cast does not depend on it (equal depths go to the lower triangle id, tests are
 * counted per slab read). After an overflow (finalize) emit and the padding write nothing, the sort
 * moves what the buffer holds, and the ranges see no reference; the overflow fallback
 * (overflow_cuda.cu) bins and ray casts that frame, and the host grows the buffer before a later
 * frame (the temporary storage with it, backend_cuda.cu). */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include "backend_cuda.h"
#include "sc_report.h"

/* Threads per block of the padding, run-end and tile-offset kernels: one element per thread, memory
 * bound, any full block does. */
enum { RADIX_THREADS = SC_CUDA_RADIX_THREADS };

/* The key bits of a cell, tile_bits + slab_bits (at most SC_MAX_KEY_BITS = 32: the front end's grid
 * layout refuses more). */
static int cell_bits(const sc_frame_params *p) { return (int)(p->tile_bits + p->slab_bits); }

/* The padding key: all cell bits set, >= every cell's key. */
static uint32_t pad_key(const sc_frame_params *p)
{
    const int bits = cell_bits(p);
    return bits >= 32 ? 0xFFFFFFFFu : (uint32_t)((1ull << bits) - 1ull);
}

/* Cells of the grid: num_tiles << slab_bits, at most 2^32 (so 64-bit). */
static unsigned long long num_cells(const sc_frame_params *p)
{
    return (unsigned long long)p->num_tiles << p->slab_bits;
}

/* Blocks of RADIX_THREADS covering n elements, one each (n <= 2^32: at most 2^24 blocks). */
static unsigned int blocks_for(unsigned long long n)
{
    return (unsigned int)((n + RADIX_THREADS - 1) / RADIX_THREADS);
}

/* The sort of a frame, or its temporary storage size (temp NULL): pair 1 -> pair 0 over the cell
 * bits, every slot of the capacity (at most 2^32 - 2: cuda_reserve refuses more, so 32-bit counts). */
static cudaError_t sort_cells(void *temp, size_t &bytes, const sc_cuda_state *st, const sc_frame_params *p,
                              cudaStream_t s)
{
    return cub::DeviceRadixSort::SortPairs(temp, bytes, st->ref_keys[1], st->ref_keys[0], st->ref_values[1],
                                           st->ref_values[0], (uint32_t)st->ref_capacity, 0, cell_bits(p), s);
}

/* The max-scan of the run ends, in place over cell offsets 1 .. cells, or its temporary storage size. */
static cudaError_t scan_cells(void *temp, size_t &bytes, const sc_cuda_state *st, const sc_frame_params *p,
                              cudaStream_t s)
{
    uint32_t *ends = st->cell_offsets + 1;
    return cub::DeviceScan::InclusiveScan(temp, bytes, ends, ends, ::cuda::maximum<uint32_t>{}, num_cells(p), s);
}

sc_status sc_cuda_radix_temp_bytes(const sc_cuda_state *st, const sc_frame_params *p, size_t *bytes)
{
    size_t sort_bytes = 0, scan_bytes = 0;
    *bytes = 0;
    if (st->ref_capacity > 0) SC_CUDA_CHECK(sort_cells(NULL, sort_bytes, st, p, 0));
    SC_CUDA_CHECK(scan_cells(NULL, scan_bytes, st, p, 0));
    *bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
    return SC_OK;
}

/* Keys [references, capacity) = pad (none after an overflow: the fallback renders the frame). */
__global__ void __launch_bounds__(RADIX_THREADS)
sc_radix_pad_kernel(const sc_cuda_globals *g, uint32_t *keys, unsigned long long capacity, uint32_t pad)
{
    if (g->overflow) return;
    const unsigned long long i = (unsigned long long)g->split_count + blockIdx.x * (unsigned long long)blockDim.x +
                                 threadIdx.x;
    if (i < capacity) keys[i] = pad;
}

sc_status sc_cuda_radix_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    SC_TRY(sc_cuda_emit_cells(st, p, st->ref_keys[1], st->ref_values[1], s));
    const unsigned long long cap = st->ref_capacity;
    if (cap == 0) return SC_OK; /* never in a frame: a mesh reserves references */
    sc_radix_pad_kernel<<<blocks_for(cap), RADIX_THREADS, 0, s>>>(st->globals, st->ref_keys[1], cap, pad_key(p));
    SC_CUDA_CHECK_LAUNCH("sc_radix_pad_kernel");
    return SC_OK;
}

sc_status sc_cuda_radix_sort(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    if (st->ref_capacity == 0) return SC_OK;
    if (!st->split_temp)
        return SC_FAIL(SC_ERROR_CUDA, "renderer (CUDA): the radix sort has no temporary storage");
    size_t bytes = st->split_temp_bytes; /* too small: CUB refuses before launching anything */
    SC_CUDA_CHECK(sort_cells(st->split_temp, bytes, st, p, s));
    return SC_OK;
}

/* For the last reference of every run of equal keys among the frame's (sorted) references: its end
 * at entry key + 1 of the zeroed cell offsets. */
__global__ void __launch_bounds__(RADIX_THREADS)
sc_radix_run_ends_kernel(const sc_cuda_globals *g, const uint32_t *keys, uint32_t *cell_offsets)
{
    const unsigned long long n = g->split_count; /* 0 after an overflow */
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t key = keys[i];
    if (i + 1 == n || keys[i + 1] != key) cell_offsets[(size_t)key + 1] = (uint32_t)(i + 1);
}

/* Tile t's offset = its first cell's (t < num_tiles), else the frame's references (entry cells). */
__global__ void __launch_bounds__(RADIX_THREADS)
sc_radix_tile_offsets_kernel(uint32_t num_tiles, uint32_t slab_bits, uint32_t entries, const uint32_t *cell_offsets,
                             uint32_t *tile_offsets)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= entries) return;
    const uint32_t t = i < num_tiles ? i : num_tiles;
    tile_offsets[i] = cell_offsets[(size_t)t << slab_bits];
}

sc_status sc_cuda_radix_ranges(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    const unsigned long long cells = num_cells(p);
    SC_CUDA_CHECK(cudaMemsetAsync(st->cell_offsets, 0, (size_t)(cells + 1) * sizeof(uint32_t), s));
    if (st->ref_capacity > 0) {
        sc_radix_run_ends_kernel<<<blocks_for(st->ref_capacity), RADIX_THREADS, 0, s>>>(st->globals, st->ref_keys[0],
                                                                                       st->cell_offsets);
        SC_CUDA_CHECK_LAUNCH("sc_radix_run_ends_kernel");
    }
    if (!st->split_temp) return SC_FAIL(SC_ERROR_CUDA, "renderer (CUDA): the cell scan has no temporary storage");
    size_t bytes = st->split_temp_bytes;
    SC_CUDA_CHECK(scan_cells(st->split_temp, bytes, st, p, s));
    const uint32_t entries = (uint32_t)sc_cuda_tile_buckets(p->tile_bits) + 1u; /* <= 2^22 + 1 */
    sc_radix_tile_offsets_kernel<<<blocks_for(entries), RADIX_THREADS, 0, s>>>(p->num_tiles, p->slab_bits, entries,
                                                                              st->cell_offsets, st->tile_offsets);
    SC_CUDA_CHECK_LAUNCH("sc_radix_tile_offsets_kernel");
    return SC_OK;
}
