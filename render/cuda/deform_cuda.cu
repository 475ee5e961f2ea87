/* deform_cuda.cu - the deform stage of the CUDA backend: this frame's positions from the rest pose
 * (sc_deform_vertex per vertex), the caller's positions, or the rest pose. And, on demand only (the
 * test-only read of a frame's normals; frames compute the smooth normals in shade, for the hit
 * pixels), every vertex's smooth normal gathered over its triangles in triangle order
 * (sc_vertex_normal, no atomics), the CPU backend's arithmetic, so both give the same normals for
 * the same positions. */
#include <math.h>
#include <string.h>

#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "vertex_normal.h"

/* The frame's constants travel as the kernel's parameter: block 0 stores them for the frame's graph
 * (no copy of its own before the kernel). */
typedef struct deform_consts_words {
    uint32_t w[sizeof(sc_cuda_frame_consts) / sizeof(uint32_t)];
} deform_consts_words;
static_assert(sizeof(sc_cuda_frame_consts) % sizeof(uint32_t) == 0 &&
                  sizeof(sc_cuda_frame_consts) / sizeof(uint32_t) <= SC_CUDA_DEFORM_THREADS,
              "a thread of block 0 per word of the frame's constants");

__global__ void __launch_bounds__(SC_CUDA_DEFORM_THREADS)
sc_deform_kernel(sc_deform_eval e, deform_consts_words consts, uint32_t *consts_out, const float *rest,
                 const float *rest_normals, float *out, uint32_t n)
{
    if (blockIdx.x == 0 && threadIdx.x < sizeof consts.w / sizeof consts.w[0])
        consts_out[threadIdx.x] = consts.w[threadIdx.x];
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

sc_status sc_cuda_deform(const sc_cuda_state *st, const sc_deform_eval *e, const sc_cuda_frame_consts *c,
                         cudaStream_t s)
{
    uint32_t n = st->num_vertices;
    if (n == 0 || e->effects == 0) {
        SC_CUDA_CHECK(cudaMemcpyAsync(st->consts, c, sizeof *c, cudaMemcpyHostToDevice, s));
        if (n)
            SC_CUDA_CHECK(cudaMemcpyAsync(st->positions, st->rest_positions, sizeof(float) * 3 * (size_t)n,
                                          cudaMemcpyDeviceToDevice, s));
        return SC_OK;
    }
    deform_consts_words words;
    memcpy(&words, c, sizeof words);
    sc_deform_kernel<<<(n + SC_CUDA_DEFORM_THREADS - 1) / SC_CUDA_DEFORM_THREADS, SC_CUDA_DEFORM_THREADS, 0, s>>>(
        *e, words, (uint32_t *)st->consts, st->rest_positions, st->rest_normals, st->positions, n);
    SC_CUDA_CHECK_LAUNCH("sc_deform_kernel");
    return SC_OK;
}

/* The normal of vertex new_of_old[v] (NULL: of v) into out[v]: sc_vertex_normal, the function
 * shade computes the hit pixels' normals with (compiled without FMA contraction,
 * render/CMakeLists.txt, like the host code). */
__global__ void __launch_bounds__(SC_CUDA_NORMALS_THREADS)
sc_vertex_normals_kernel(sc_mesh_rings m, const uint32_t *new_of_old, float *out, uint32_t n)
{
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    float o[3];
    sc_vertex_normal(&m, new_of_old ? new_of_old[v] : v, o);
    for (int k = 0; k < 3; ++k) out[3 * (size_t)v + k] = o[k];
}

sc_status sc_cuda_vertex_normals(const sc_cuda_state *st, float *out, cudaStream_t s)
{
    uint32_t n = st->num_vertices;
    if (n == 0) return SC_OK;
    const sc_mesh_rings m = {st->adj_offsets, st->adj_tris, st->indices, st->positions};
    sc_vertex_normals_kernel<<<(n + SC_CUDA_NORMALS_THREADS - 1) / SC_CUDA_NORMALS_THREADS, SC_CUDA_NORMALS_THREADS, 0,
                               s>>>(m, st->new_of_old, out, n);
    SC_CUDA_CHECK_LAUNCH("sc_vertex_normals_kernel");
    return SC_OK;
}
