/* multisplit_u64.cu - count and scatter kernels for uint64_t keys (explicit instantiations). */
#include "multisplit_column_launch.cuh"

template sc_status split_launch_count<uint64_t>(const split_kernel_params &, int, cudaStream_t);
template sc_status split_launch_scatter<uint64_t>(const split_kernel_params &, int, int, cudaStream_t);
