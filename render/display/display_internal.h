/* display_internal.h - the sc_display struct, shared by the GL part and the CUDA interop part. */
#ifndef SC_DISPLAY_INTERNAL_H
#define SC_DISPLAY_INTERNAL_H

#include "sc_display.h"

struct cudaGraphicsResource;

struct sc_display {
    int width, height;
    int cuda_interop;
    unsigned pbo, texture, program, vao;
    int loc_image_size, loc_viewport_size;
    struct cudaGraphicsResource *cuda_resource; /* registered pbo, or NULL */
    int cuda_mapped;
};

/* display_cuda.c */
sc_status sc_display_cuda_register(sc_display *d);
void sc_display_cuda_unregister(sc_display *d);

#endif
