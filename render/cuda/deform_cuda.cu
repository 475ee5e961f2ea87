/* deform_cuda.cu - the deform and normals stages of the CUDA backend: this frame's positions from
 * the rest pose (sc_deform_vertex per vertex), the caller's positions, or the rest pose; smooth
 * vertex normals gathered per vertex over its triangles in triangle order (no atomics), with the
 * CPU backend's arithmetic, so both give the same normals for the same positions. */
#include <math.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"

__global__ void __launch_bounds__(SC_CUDA_DEFORM_THREADS)
sc_deform_kernel(sc_deform_eval e, const float *rest, const float *rest_normals, float *out, uint32_t n)
{
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    float p0[3], n0[3], q[3];
    for (int k = 0; k < 3; ++k) {
        p0[k] = rest[3 * (size_t)v + k];
        n0[k] = rest_normals[3 * (size_t)v + k];
    }
    sc_deform_vertex(&e, p0, n0, q);
    for (int k = 0; k < 3; ++k) out[3 * (size_t)v + k] = q[k];
}

sc_status sc_cuda_deform(const sc_cuda_state *st, const sc_deform_eval *e, cudaStream_t s)
{
    uint32_t n = st->num_vertices;
    if (n == 0) return SC_OK;
    if (e->effects == 0) {
        SC_CUDA_CHECK(cudaMemcpyAsync(st->positions, st->rest_positions, sizeof(float) * 3 * (size_t)n,
                                      cudaMemcpyDeviceToDevice, s));
        return SC_OK;
    }
    sc_deform_kernel<<<(n + SC_CUDA_DEFORM_THREADS - 1) / SC_CUDA_DEFORM_THREADS, SC_CUDA_DEFORM_THREADS, 0, s>>>(
        *e, st->rest_positions, st->rest_normals, st->positions, n);
    SC_CUDA_CHECK_LAUNCH("sc_deform_kernel");
    return SC_OK;
}

/* The normal of vertex v: the sum of the (unnormalised) face normals of its triangles, in the order
 * of the adjacency (triangle order, as the CPU accumulates), normalised; (0, 0, 0) when zero or not
 * finite. Compiled without FMA contraction (render/CMakeLists.txt), like the host code. */
__global__ void __launch_bounds__(SC_CUDA_NORMALS_THREADS)
sc_normals_kernel(const float *pos, const uint32_t *idx, const uint32_t *adj_offsets, const uint32_t *adj_tris,
                  float *normals, uint32_t n)
{
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    float o[3] = {0.0f, 0.0f, 0.0f};
    for (uint32_t j = adj_offsets[v], end = adj_offsets[v + 1]; j < end; ++j) {
        const uint32_t *f = idx + 3 * (size_t)adj_tris[j];
        const float *a = pos + 3 * (size_t)f[0], *b = pos + 3 * (size_t)f[1], *c = pos + 3 * (size_t)f[2];
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        float nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        if (!isfinite(nn[0]) || !isfinite(nn[1]) || !isfinite(nn[2])) continue;
        o[0] += nn[0]; o[1] += nn[1]; o[2] += nn[2];
    }
    float l = sqrtf(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    if (l > 0.0f && isfinite(l)) {
        o[0] /= l; o[1] /= l; o[2] /= l;
    } else {
        o[0] = o[1] = o[2] = 0.0f;
    }
    for (int k = 0; k < 3; ++k) normals[3 * (size_t)v + k] = o[k];
}

sc_status sc_cuda_normals(const sc_cuda_state *st, cudaStream_t s)
{
    uint32_t n = st->num_vertices;
    if (n == 0) return SC_OK;
    sc_normals_kernel<<<(n + SC_CUDA_NORMALS_THREADS - 1) / SC_CUDA_NORMALS_THREADS, SC_CUDA_NORMALS_THREADS, 0, s>>>(
        st->positions, st->indices, st->adj_offsets, st->adj_tris, st->normals, n);
    SC_CUDA_CHECK_LAUNCH("sc_normals_kernel");
    return SC_OK;
}
