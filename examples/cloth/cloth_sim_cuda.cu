/* cloth_sim_cuda.cu - the cloth on the GPU (cloth_sim_cuda.h): the steps of cloth_kernels.h as kernels, one thread
 * per particle (integrate, collide) or per spring of one pass (no two springs of a pass share a
 * particle). One frame's substeps are captured once into a CUDA graph and replayed every frame. */
#include "cloth_sim_cuda.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "cloth_kernels.h"

enum { THREADS = 256 };

struct cloth_cuda {
    cloth_params params;
    cloth_field field;            /* phi in device memory */
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cudaGraphExec_t frame;        /* one frame's substeps */
    float *positions;             /* the scene's vertices; the cloth's from cloth */
    float *cloth;
    float *previous;              /* the cloth's positions one substep ago */
    float *phi;
    void *image;
    char device[256];
};

/* A failed CUDA call: its text and the runtime's reason in err, 0 returned. */
#define CUDA_TRY(call)                                                                                     \
    do {                                                                                                   \
        const cudaError_t e_ = (call);                                                                     \
        if (e_ != cudaSuccess) {                                                                           \
            snprintf(err, err_size, "%s failed: %s (%s)", #call, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
            return 0;                                                                                      \
        }                                                                                                  \
    } while (0)

__global__ void integrate_kernel(float *pos, float *prev, uint32_t count, cloth_params c)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) cloth_integrate(pos + 3 * (size_t)i, prev + 3 * (size_t)i, &c);
}

__global__ void springs_kernel(float *pos, uint32_t pass, uint32_t items, cloth_params c)
{
    const uint32_t item = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t i, j;
    cloth_spring_family f;
    if (item < items && cloth_spring_at(c.n, pass, item, &i, &j, &f))
        cloth_solve_spring(pos + 3 * (size_t)i, pos + 3 * (size_t)j, &f, &c);
}

__global__ void collide_kernel(float *pos, float *prev, uint32_t count, cloth_params c, cloth_field f)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) cloth_collide(pos + 3 * (size_t)i, prev + 3 * (size_t)i, &c, &f);
}

static unsigned blocks(uint32_t n) { return (n + THREADS - 1) / THREADS; }

/* Enqueues `steps` substeps on the stream. */
static int enqueue_steps(cloth_cuda *g, uint32_t steps, char *err, size_t err_size)
{
    const cloth_params c = g->params;
    const uint32_t count = c.n * c.n;
    for (uint32_t step = 0; step < steps; ++step) {
        integrate_kernel<<<blocks(count), THREADS, 0, g->stream>>>(g->cloth, g->previous, count, c);
        CUDA_TRY(cudaGetLastError());
        for (uint32_t it = 0; it < c.iterations; ++it)
            for (uint32_t pass = 0; pass < CLOTH_SPRING_PASSES; ++pass) {
                const uint32_t items = cloth_pass_items(c.n, pass);
                springs_kernel<<<blocks(items), THREADS, 0, g->stream>>>(g->cloth, pass, items, c);
                CUDA_TRY(cudaGetLastError());
            }
        collide_kernel<<<blocks(count), THREADS, 0, g->stream>>>(g->cloth, g->previous, count, c, g->field);
        CUDA_TRY(cudaGetLastError());
    }
    return 1;
}

/* Captures one frame's substeps into a graph. */
static int capture_frame(cloth_cuda *g, uint32_t steps, char *err, size_t err_size)
{
    CUDA_TRY(cudaStreamBeginCapture(g->stream, cudaStreamCaptureModeThreadLocal));
    const int ok = enqueue_steps(g, steps, err, err_size);
    cudaGraph_t graph = NULL;
    const cudaError_t ended = cudaStreamEndCapture(g->stream, &graph);
    if (!ok) {
        if (graph) cudaGraphDestroy(graph);
        return 0;
    }
    CUDA_TRY(ended);
    const cudaError_t made = cudaGraphInstantiate(&g->frame, graph, 0);
    cudaGraphDestroy(graph);
    CUDA_TRY(made);
    return 1;
}

static int create(cloth_cuda *g, const cloth_params *params, const cloth_field *field, const float *positions,
                  uint32_t vertex_count, uint32_t cloth_first_vertex, uint32_t steps, size_t image_bytes,
                  char *err, size_t err_size)
{
    int device = 0;
    cudaDeviceProp prop;
    CUDA_TRY(cudaGetDevice(&device));
    CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    snprintf(g->device, sizeof g->device, "%s", prop.name);
    g->params = *params;
    g->field = *field;
    const size_t cloth_floats = 3 * (size_t)params->n * params->n;
    const size_t phi_count = (size_t)field->nx * field->ny * field->nz;
    CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    CUDA_TRY(cudaEventCreate(&g->start));
    CUDA_TRY(cudaEventCreate(&g->stop));
    CUDA_TRY(cudaMalloc((void **)&g->positions, 3 * (size_t)vertex_count * sizeof(float)));
    CUDA_TRY(cudaMalloc((void **)&g->previous, cloth_floats * sizeof(float)));
    CUDA_TRY(cudaMalloc((void **)&g->phi, phi_count * sizeof(float)));
    CUDA_TRY(cudaMalloc(&g->image, image_bytes));
    g->cloth = g->positions + 3 * (size_t)cloth_first_vertex;
    g->field.phi = g->phi;
    CUDA_TRY(cudaMemcpy(g->positions, positions, 3 * (size_t)vertex_count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemcpy(g->previous, g->cloth, cloth_floats * sizeof(float), cudaMemcpyDeviceToDevice)); /* at rest */
    CUDA_TRY(cudaMemcpy(g->phi, field->phi, phi_count * sizeof(float), cudaMemcpyHostToDevice));
    return capture_frame(g, steps, err, err_size);
}

extern "C" int cloth_cuda_create(const cloth_params *params, const cloth_field *field, const float *positions,
                                 uint32_t vertex_count, uint32_t cloth_first_vertex, uint32_t steps,
                                 size_t image_bytes, cloth_cuda **out, char *err, size_t err_size)
{
    *out = NULL;
    cloth_cuda *g = (cloth_cuda *)calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_size, "out of host memory");
        return 0;
    }
    if (!create(g, params, field, positions, vertex_count, cloth_first_vertex, steps, image_bytes, err, err_size)) {
        cloth_cuda_destroy(g);
        return 0;
    }
    *out = g;
    return 1;
}

/* A failed call while tearing down: said on stderr (nothing else to do about it). */
static void report(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "cloth: %s failed: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

extern "C" void cloth_cuda_destroy(cloth_cuda *g)
{
    if (!g) return;
    if (g->stream) report(cudaStreamSynchronize(g->stream), "cudaStreamSynchronize"); /* nothing may use the buffers */
    if (g->frame) report(cudaGraphExecDestroy(g->frame), "cudaGraphExecDestroy");
    if (g->start) report(cudaEventDestroy(g->start), "cudaEventDestroy");
    if (g->stop) report(cudaEventDestroy(g->stop), "cudaEventDestroy");
    report(cudaFree(g->positions), "cudaFree");
    report(cudaFree(g->previous), "cudaFree");
    report(cudaFree(g->phi), "cudaFree");
    report(cudaFree(g->image), "cudaFree");
    if (g->stream) report(cudaStreamDestroy(g->stream), "cudaStreamDestroy");
    free(g);
}

extern "C" cudaStream_t cloth_cuda_stream(const cloth_cuda *g) { return g->stream; }
extern "C" const char *cloth_cuda_device(const cloth_cuda *g) { return g->device; }
extern "C" float *cloth_cuda_positions(const cloth_cuda *g) { return g->positions; }
extern "C" void *cloth_cuda_image(const cloth_cuda *g) { return g->image; }

extern "C" int cloth_cuda_advance(cloth_cuda *g, char *err, size_t err_size)
{
    CUDA_TRY(cudaEventRecord(g->start, g->stream));
    CUDA_TRY(cudaGraphLaunch(g->frame, g->stream));
    CUDA_TRY(cudaEventRecord(g->stop, g->stream));
    return 1;
}

extern "C" int cloth_cuda_advance_ms(cloth_cuda *g, float *ms, char *err, size_t err_size)
{
    CUDA_TRY(cudaEventSynchronize(g->stop));
    CUDA_TRY(cudaEventElapsedTime(ms, g->start, g->stop));
    return 1;
}

extern "C" int cloth_cuda_download(cloth_cuda *g, void *host, const void *device, size_t bytes, char *err,
                                   size_t err_size)
{
    CUDA_TRY(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, g->stream));
    CUDA_TRY(cudaStreamSynchronize(g->stream));
    return 1;
}
