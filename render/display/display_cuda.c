/* display_cuda.c - the display's CUDA side. CUDA always writes a device staging buffer (cudaMalloc:
 * GPU memory for certain). Interop: the texture is registered with CUDA, and unmap copies the staging
 * buffer into it device to device (cudaMemcpy2DToArrayAsync; no wait, no pixel-buffer copy in GL).
 * Copy path: unmap copies the staging buffer through pinned host memory into the pixel buffer. AUTO
 * falls back from the first to the second when registration fails. */
#include <glad/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "display_internal.h"
#include "display_testing.h"
#include "sc_report.h"

static _Thread_local int fail_next_register; /* display_testing.h: a cudaError_t value, 0 for none */

void sc_display_testing_fail_next_register(int cuda_error) { fail_next_register = cuda_error; }

static cudaError_t register_texture(sc_display *d)
{
    cudaError_t err = (cudaError_t)fail_next_register;
    fail_next_register = 0;
    if (err == cudaSuccess)
        err = cudaGraphicsGLRegisterImage(&d->cuda_resource, d->texture, GL_TEXTURE_2D,
                                          cudaGraphicsRegisterFlagsWriteDiscard);
    if (err != cudaSuccess) d->cuda_resource = NULL;
    return err;
}

/* Reports a failed allocation of the copy path naming the buffer and its size. */
static sc_status copy_alloc_failed(cudaError_t err, const sc_display *d, const char *call, const char *buffer)
{
    char what[192];
    snprintf(what, sizeof what, "%s of the display's %s (%zu bytes, %dx%d RGBA8)", call, buffer, d->image_bytes,
             d->width, d->height);
    return sc_cuda_report(err, what, __FILE__, __LINE__);
}

static sc_status allocate_staging(sc_display *d)
{
    if (d->staging) return SC_OK;
    cudaError_t err = cudaMalloc(&d->staging, d->image_bytes);
    if (err == cudaSuccess) return SC_OK;
    d->staging = NULL;
    return copy_alloc_failed(err, d, "cudaMalloc", "device staging buffer");
}

static sc_status allocate_copy_buffers(sc_display *d)
{
    SC_TRY(allocate_staging(d));
    cudaError_t err = cudaMallocHost(&d->pinned, d->image_bytes);
    if (err != cudaSuccess) {
        cudaFree(d->staging); /* both or neither */
        d->staging = d->pinned = NULL;
        return copy_alloc_failed(err, d, "cudaMallocHost", "pinned host buffer");
    }
    return SC_OK;
}

/* AUTO after a failed registration: the copy path, and the notice, logged once. */
static sc_status fall_back_to_copy(sc_display *d, cudaError_t why)
{
    (void)cudaGetLastError(); /* the failed registration's error is handled here */
    SC_TRY(allocate_copy_buffers(d));
    d->path_in_use = SC_DISPLAY_CUDA_COPY;
    snprintf(d->notice, sizeof d->notice,
             "CUDA-GL interop unavailable (%s: %s): frames are copied device -> host -> texture",
             cudaGetErrorName(why), cudaGetErrorString(why));
    sc_log(SC_LOG_WARNING, "%s", d->notice);
    return SC_OK;
}

sc_status sc_display_cuda_attach(sc_display *d)
{
    if (d->path_in_use == SC_DISPLAY_CUDA_COPY) return allocate_copy_buffers(d);
    cudaError_t err = register_texture(d);
    if (err == cudaSuccess) {
        d->path_in_use = SC_DISPLAY_CUDA_INTEROP;
        return allocate_staging(d);
    }
    if (d->cuda_path == SC_DISPLAY_CUDA_INTEROP)
        return sc_cuda_report(err, "cudaGraphicsGLRegisterImage of the display's texture (cuda_path INTEROP; "
                                   "SC_DISPLAY_CUDA_AUTO would copy frames instead)", __FILE__, __LINE__);
    return fall_back_to_copy(d, err);
}

void sc_display_cuda_release(sc_display *d)
{
    if (d->cuda_resource) {
        cudaGraphicsUnregisterResource(d->cuda_resource);
        d->cuda_resource = NULL;
    }
    if (d->staging) cudaFree(d->staging);
    if (d->pinned) cudaFreeHost(d->pinned);
    d->staging = d->pinned = NULL;
    d->cuda_mapped = 0;
}

sc_status sc_display_map_cuda(sc_display *d, cudaStream_t stream, void **device_rgba)
{
    if (!d || !device_rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: NULL argument");
    if (!d->cuda_interop)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: display was created without cuda_interop");
    if (d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: already mapped");
    (void)stream; /* the staging buffer is free: the last unmap's copy is ordered before any later work */
    int copy = d->path_in_use == SC_DISPLAY_CUDA_COPY;
    if (!d->staging || (copy ? !d->pinned : !d->cuda_resource))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "sc_display_map_cuda: the display has no CUDA buffer (its last resize failed)");
    *device_rgba = d->staging;
    d->cuda_mapped = 1;
    return SC_OK;
}

/* The copy path's frame: staging -> pinned on `stream`, a wait for it, pinned -> pixel buffer. */
static sc_status unmap_copy(sc_display *d, cudaStream_t stream)
{
    SC_CUDA_CHECK(cudaMemcpyAsync(d->pinned, d->staging, d->image_bytes, cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return sc_display_upload(d, d->pinned);
}

/* Interop's frame: the texture mapped as a CUDA array, the staging buffer copied into it on `stream`,
 * unmapped (GL's later use of the texture is ordered after the copy; the host does not wait). */
static sc_status unmap_interop(sc_display *d, cudaStream_t stream)
{
    SC_CUDA_CHECK(cudaGraphicsMapResources(1, &d->cuda_resource, stream));
    struct cudaArray *array = NULL;
    size_t row = (size_t)d->width * 4;
    cudaError_t err = cudaGraphicsSubResourceGetMappedArray(&array, d->cuda_resource, 0, 0);
    if (err == cudaSuccess)
        err = cudaMemcpy2DToArrayAsync(array, 0, 0, d->staging, row, row, (size_t)d->height,
                                       cudaMemcpyDeviceToDevice, stream);
    cudaError_t unmap = cudaGraphicsUnmapResources(1, &d->cuda_resource, stream);
    if (err != cudaSuccess) return sc_cuda_report(err, "copying the frame into the display's texture", __FILE__, __LINE__);
    if (unmap != cudaSuccess) return sc_cuda_report(unmap, "cudaGraphicsUnmapResources", __FILE__, __LINE__);
    d->texture_current = 1; /* the texture holds the frame: no pixel-buffer copy in sc_display_draw */
    return SC_OK;
}

sc_status sc_display_unmap_cuda(sc_display *d, cudaStream_t stream)
{
    if (!d || !d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_unmap_cuda: not mapped");
    d->cuda_mapped = 0;
    if (d->path_in_use == SC_DISPLAY_CUDA_COPY) return unmap_copy(d, stream);
    return unmap_interop(d, stream);
}
