/* multisplit_u32.cu - count and scatter kernels for uint32_t keys (explicit instantiations). */
#include "multisplit_kernels.cuh"

template sc_status split_launch_count<uint32_t>(const split_kernel_params &, int, cudaStream_t);
template sc_status split_launch_scatter<uint32_t>(const split_kernel_params &, int, int, cudaStream_t);
