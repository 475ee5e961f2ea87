/* display_cuda.c - CUDA-OpenGL interop for the display's pixel buffer. */
#include <glad/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "display_internal.h"
#include "sc_report.h"

sc_status sc_display_cuda_register(sc_display *d)
{
    SC_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&d->cuda_resource, d->pbo, cudaGraphicsRegisterFlagsWriteDiscard));
    return SC_OK;
}

void sc_display_cuda_unregister(sc_display *d)
{
    if (!d->cuda_resource) return;
    if (d->cuda_mapped) cudaGraphicsUnmapResources(1, &d->cuda_resource, 0);
    cudaGraphicsUnregisterResource(d->cuda_resource);
    d->cuda_resource = NULL;
    d->cuda_mapped = 0;
}

sc_status sc_display_map_cuda(sc_display *d, cudaStream_t stream, void **device_rgba)
{
    if (!d || !device_rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: NULL argument");
    if (!d->cuda_resource)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: display was created without cuda_interop");
    if (d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: already mapped");
    SC_CUDA_CHECK(cudaGraphicsMapResources(1, &d->cuda_resource, stream));
    size_t size = 0;
    cudaError_t err = cudaGraphicsResourceGetMappedPointer(device_rgba, &size, d->cuda_resource);
    if (err != cudaSuccess) {
        cudaGraphicsUnmapResources(1, &d->cuda_resource, stream);
        return sc_cuda_report(err, "cudaGraphicsResourceGetMappedPointer", __FILE__, __LINE__);
    }
    if (size < (size_t)d->width * (size_t)d->height * 4) {
        cudaGraphicsUnmapResources(1, &d->cuda_resource, stream);
        return SC_FAIL(SC_ERROR_GL, "sc_display_map_cuda: mapped buffer has %zu bytes, %zu needed", size,
                       (size_t)d->width * (size_t)d->height * 4);
    }
    d->cuda_mapped = 1;
    return SC_OK;
}

sc_status sc_display_unmap_cuda(sc_display *d, cudaStream_t stream)
{
    if (!d || !d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_unmap_cuda: not mapped");
    d->cuda_mapped = 0;
    SC_CUDA_CHECK(cudaGraphicsUnmapResources(1, &d->cuda_resource, stream));
    return SC_OK;
}
