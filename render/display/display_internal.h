/* display_internal.h - the sc_display struct, shared by the GL part and the CUDA part (interop and the
 * copy path). */
#ifndef SC_DISPLAY_INTERNAL_H
#define SC_DISPLAY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sc_display.h"

struct cudaGraphicsResource;

enum { SC_DISPLAY_NOTICE_SIZE = 256 };

struct sc_display {
    int width, height;
    size_t image_bytes;                /* width * height * 4 */
    int cuda_interop;
    sc_display_cuda_path cuda_path;    /* as asked */
    sc_display_cuda_path path_in_use;  /* INTEROP or COPY once the buffers exist; AUTO before */
    unsigned pbo, texture, program, vao;
    int loc_image_size, loc_viewport_size;
    struct cudaGraphicsResource *cuda_resource; /* interop: the registered texture, or NULL */
    void *staging;                     /* the device buffer CUDA writes (interop and copy path), or NULL */
    int texture_current;               /* the texture holds the latest frame (interop's unmap wrote it) */
    void *pinned;                      /* copy path: pinned host memory the image passes through, or NULL */
    int cuda_mapped;
    char notice[SC_DISPLAY_NOTICE_SIZE]; /* AUTO's fallback line, "" when none */
};

/* width * height * 4 in *bytes for a positive size; 0 when it fits neither a size_t nor a GLsizeiptr. */
static inline int sc_display_image_bytes(int width, int height, size_t *bytes)
{
    if (width <= 0 || height <= 0 || (size_t)width > (size_t)PTRDIFF_MAX / 4 / (size_t)height) return 0;
    *bytes = (size_t)width * (size_t)height * 4;
    return 1;
}

/* display_cuda.c (display_nocuda.c without CUDA): the CUDA side of the pixel buffer for the current
 * size, interop or copy path as cuda_path and path_in_use say; and its release (safe to repeat). */
sc_status sc_display_cuda_attach(sc_display *d);
void sc_display_cuda_release(sc_display *d);

#endif
