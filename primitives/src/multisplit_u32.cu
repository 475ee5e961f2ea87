/* multisplit_u32.cu - count and scatter kernels for uint32_t keys (explicit instantiations), and the
 * bucket offsets of a split that moves no records. */
#include "multisplit_column_launch.cuh"

template sc_status split_launch_count<uint32_t>(const split_kernel_params &, int, cudaStream_t);
template sc_status split_launch_scatter<uint32_t>(const split_kernel_params &, int, int, cudaStream_t);

/* The count-only path's bucket offsets: one block runs what block 0 of a scatter kernel does. */
__global__ void split_bucket_offsets_kernel(split_kernel_params p)
{
    split_wait_prior_grids();
    split_write_bucket_offsets(p);
}

sc_status split_launch_bucket_offsets(const split_kernel_params &p, cudaStream_t stream)
{
    SC_CUDA_CHECK(split_launch_dependent(split_bucket_offsets_kernel, 1, SPLIT_ELEMENTWISE_THREADS, 0, stream, p));
    return SC_OK;
}
