/* cloth_sim_cuda.h - the cloth simulation as CUDA kernels (the path of the CUDA backend): one thread per
 * particle or spring, on a position buffer in device memory that holds the whole scene and that the
 * renderer reads each frame as it is. Everything runs on one stream, which the renderer shares
 * (sc_renderer_desc.stream): a frame's substeps, the renderer's frame and the next substeps follow
 * each other on the device without the host waiting in between. Callable from C. */
#ifndef CLOTH_SIM_CUDA_H
#define CLOTH_SIM_CUDA_H

#include <stddef.h>

#include <slabcast.h> /* cudaStream_t, as the CUDA runtime declares it */

#include "cloth.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cloth_cuda cloth_cuda;

/* Takes the scene to the device: positions (vertex_count x 3 floats, host) whose vertices from
 * cloth_first_vertex on are the cloth's n x n particles at rest, and the collision field (host); makes
 * the stream, an image buffer of image_bytes and the graph of one frame's `steps` substeps. Returns 0
 * with a message in err on failure (*out NULL). */
int cloth_cuda_create(const cloth_params *params, const cloth_field *field, const float *positions,
                      uint32_t vertex_count, uint32_t cloth_first_vertex, uint32_t steps, size_t image_bytes,
                      cloth_cuda **out, char *err, size_t err_size);
void cloth_cuda_destroy(cloth_cuda *sim); /* NULL is ignored; waits for the stream */

cudaStream_t cloth_cuda_stream(const cloth_cuda *sim);
const char *cloth_cuda_device(const cloth_cuda *sim);  /* the GPU's name */
float *cloth_cuda_positions(const cloth_cuda *sim); /* device: the scene's vertex_count x 3 floats */
void *cloth_cuda_image(const cloth_cuda *sim);      /* device: image_bytes */

/* Enqueues one frame's substeps between two events; returns without waiting. */
int cloth_cuda_advance(cloth_cuda *sim, char *err, size_t err_size);
/* The GPU time of the last cloth_cuda_advance, in ms (waits for it). */
int cloth_cuda_advance_ms(cloth_cuda *sim, float *ms, char *err, size_t err_size);
/* Copies bytes from device memory to host memory after the work on the stream, and waits for it. */
int cloth_cuda_download(cloth_cuda *sim, void *host, const void *device, size_t bytes, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif
#endif /* CLOTH_SIM_CUDA_H */
