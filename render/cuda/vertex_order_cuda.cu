/* vertex_order_cuda.cu - the CUDA backend's positions between the caller's vertex order and its own
 * (sc_backend_ops.h: the permutation new_of_old given at set_mesh, held on the device): the caller's
 * frame positions in (a scatter: coalesced reads of the caller's array), this frame's positions out
 * for read_positions and copy_positions (a gather: coalesced writes). One thread per vertex, no
 * allocation, no wait; the words move as they are (a NaN keeps its payload). With no permutation
 * both are plain device-to-device copies. */
#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"

/* to[new_of_old[v]] = from[v] for the caller's vertices v < n (positions as 3 words each). */
__global__ void __launch_bounds__(SC_CUDA_PERMUTE_THREADS)
sc_positions_from_caller_kernel(const uint32_t *__restrict__ new_of_old, const uint32_t *__restrict__ from,
                                uint32_t *__restrict__ to, uint32_t n)
{
    const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    const size_t i = 3 * (size_t)new_of_old[v], o = 3 * (size_t)v;
    const uint32_t x = from[o], y = from[o + 1], z = from[o + 2];
    to[i] = x;
    to[i + 1] = y;
    to[i + 2] = z;
}

/* to[v - first] = from[new_of_old[v]] for the caller's vertices first <= v < first + count. */
__global__ void __launch_bounds__(SC_CUDA_PERMUTE_THREADS)
sc_positions_to_caller_kernel(const uint32_t *__restrict__ new_of_old, const uint32_t *__restrict__ from,
                              uint32_t *__restrict__ to, uint32_t first, uint32_t count)
{
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count) return;
    const size_t i = 3 * (size_t)new_of_old[first + k], o = 3 * (size_t)k;
    const uint32_t x = from[i], y = from[i + 1], z = from[i + 2];
    to[o] = x;
    to[o + 1] = y;
    to[o + 2] = z;
}

static unsigned blocks_for(uint32_t n) { return (n + SC_CUDA_PERMUTE_THREADS - 1) / SC_CUDA_PERMUTE_THREADS; }

sc_status sc_cuda_positions_from_caller(const sc_cuda_state *st, const float *caller, cudaStream_t s)
{
    const uint32_t n = st->num_vertices;
    if (n == 0) return SC_OK;
    SC_TRY(sc_cuda_require_device_memory(caller, "sc_renderer_render: frame.positions"));
    if (!st->new_of_old) {
        SC_CUDA_CHECK(cudaMemcpyAsync(st->positions, caller, sizeof(float) * 3 * (size_t)n, cudaMemcpyDeviceToDevice, s));
        return SC_OK;
    }
    sc_positions_from_caller_kernel<<<blocks_for(n), SC_CUDA_PERMUTE_THREADS, 0, s>>>(
        st->new_of_old, (const uint32_t *)caller, (uint32_t *)st->positions, n);
    SC_CUDA_CHECK_LAUNCH("sc_positions_from_caller_kernel");
    return SC_OK;
}

sc_status sc_cuda_positions_to_caller(const sc_cuda_state *st, uint32_t first, uint32_t count, float *dst,
                                      cudaStream_t s)
{
    if (count == 0) return SC_OK;
    if (!st->new_of_old) {
        SC_CUDA_CHECK(cudaMemcpyAsync(dst, st->positions + 3 * (size_t)first, sizeof(float) * 3 * (size_t)count,
                                      cudaMemcpyDeviceToDevice, s));
        return SC_OK;
    }
    sc_positions_to_caller_kernel<<<blocks_for(count), SC_CUDA_PERMUTE_THREADS, 0, s>>>(
        st->new_of_old, (const uint32_t *)st->positions, (uint32_t *)dst, first, count);
    SC_CUDA_CHECK_LAUNCH("sc_positions_to_caller_kernel");
    return SC_OK;
}
