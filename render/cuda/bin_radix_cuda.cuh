/* bin_radix_cuda.cuh - the radix-sort binning of the CUDA backend (SC_BINNING_RADIX_SORT): the grid
 * of bin_cuda.cu's splits, built the way tile renderers bin (a key per reference, CUB's radix sort,
 * each cell's range from the sorted keys). bin_radix_cuda.cu says how (internal, CUDA only). */
#ifndef SC_BIN_RADIX_CUDA_CUH
#define SC_BIN_RADIX_CUDA_CUH

#include <stddef.h>
#include <stdint.h>

#include "backend_cuda.h"

/* bin_cuda.cu: the emit of the split binning with the cell as key (tile << slab_bits | slab), into
 * (keys, values) instead of pair 0. */
sc_status sc_cuda_emit_cells(const sc_cuda_state *st, const sc_frame_params *p, uint32_t *keys, uint32_t *values,
                             cudaStream_t s);

/* bin_radix_cuda.cu. The temporary storage of the sort and the scan (one buffer, used one after the
 * other) for grid p and the state's reference capacity; the backend keeps it where the split
 * binning keeps the split library's (st->split_temp), sized when the grid or the capacity changes. */
sc_status sc_cuda_radix_temp_bytes(const sc_cuda_state *st, const sc_frame_params *p, size_t *bytes);
/* The three stages of a frame, in the slots of the split binning's: emit (cell keys into pair 1,
 * the unused tail padded), sort (pair 1 -> pair 0), ranges (cell and tile offsets). */
sc_status sc_cuda_radix_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_radix_sort(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);
sc_status sc_cuda_radix_ranges(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s);

#endif /* SC_BIN_RADIX_CUDA_CUH */
