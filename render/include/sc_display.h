/* sc_display.h - shows the renderer's RGBA8 image with OpenGL: a pixel-unpack buffer that CUDA writes
 * through interop (or the host fills), copied into a texture and drawn by a full-screen pass
 * (shaders/display.vert, display.frag, embedded at build time).
 * Needs a current OpenGL 4.5 core context (sc_gl.h's headless one, or a GLFW window's) with GL loaded
 * by GLAD. Image row 0 is the bottom row (as in slabcast.h and OpenGL). Plain C; no GL, EGL or CUDA types beyond cudaStream_t. */
#ifndef SC_DISPLAY_H
#define SC_DISPLAY_H

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUstream_st *cudaStream_t;
typedef struct sc_display sc_display;

typedef struct sc_display_desc {
    int width, height;   /* image size in pixels, > 0 */
    int cuda_interop;    /* nonzero: register the pixel buffer with CUDA (sc_display_map_cuda) */
} sc_display_desc;

sc_status sc_display_create(const sc_display_desc *desc, sc_display **out_display);
void sc_display_destroy(sc_display *display);
/* Reallocates the buffer and texture (and re-registers them with CUDA). Not for the per-frame path. */
sc_status sc_display_resize(sc_display *display, int width, int height);
void sc_display_size(const sc_display *display, int *width, int *height);
/* The GL name of the pixel buffer: width * height * 4 bytes, RGBA8, row 0 at the bottom. */
unsigned sc_display_pixel_buffer(const sc_display *display);

/* Fills the pixel buffer from host memory (the CPU backend's path). */
sc_status sc_display_upload(sc_display *display, const void *rgba);
/* Maps the pixel buffer for CUDA: *device_rgba is valid for kernels on `stream` until unmap. */
sc_status sc_display_map_cuda(sc_display *display, cudaStream_t stream, void **device_rgba);
sc_status sc_display_unmap_cuda(sc_display *display, cudaStream_t stream);

/* Copies the pixel buffer into the texture and draws it over the whole viewport of the current
 * framebuffer (1:1 when the viewport has the image's size, scaled otherwise). */
sc_status sc_display_draw(sc_display *display, int viewport_width, int viewport_height);

#ifdef __cplusplus
}
#endif
#endif
