/* sc_display.h - shows the renderer's RGBA8 image with OpenGL: a texture drawn by a full-screen pass
 * (shaders/display.vert, display.frag, embedded at build time). CUDA writes a device buffer that is
 * copied into the texture on the GPU through interop (the texture registered with CUDA), or through
 * the host where interop cannot be used; the CPU backend's image goes through a pixel-unpack buffer.
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

/* How a display with cuda_interop brings CUDA's image to GL. */
typedef enum sc_display_cuda_path {
    /* Interop; where the texture cannot be registered with CUDA (the GL context is not on the
     * NVIDIA GPU, a remote display, ...), the copy path instead, with a notice (sc_display_notice)
     * passed once to the log callback as SC_LOG_WARNING. */
    SC_DISPLAY_CUDA_AUTO = 0,
    /* Interop only: a failed registration fails sc_display_create and sc_display_resize. */
    SC_DISPLAY_CUDA_INTEROP,
    /* Never registers: CUDA writes a device buffer that unmap copies device -> host -> pixel buffer. */
    SC_DISPLAY_CUDA_COPY
} sc_display_cuda_path;

typedef struct sc_display_desc {
    int width, height;   /* image size in pixels, > 0 */
    int cuda_interop;    /* nonzero: the image comes from CUDA device memory (sc_display_map_cuda/unmap) */
    sc_display_cuda_path cuda_path; /* with cuda_interop: how it reaches GL (zero: AUTO) */
} sc_display_desc;

sc_status sc_display_create(const sc_display_desc *desc, sc_display **out_display);
void sc_display_destroy(sc_display *display);
/* Reallocates the buffers and texture (and re-registers the texture with CUDA, or reallocates the copy
 * path's buffers). Not for the per-frame path. An AUTO display keeps the copy path once it took it. */
sc_status sc_display_resize(sc_display *display, int width, int height);
void sc_display_size(const sc_display *display, int *width, int *height);
/* The GL name of the pixel buffer sc_display_upload and the copy path fill: width * height * 4 bytes,
 * RGBA8, row 0 at the bottom (interop frames go straight into the texture, not through it). */
unsigned sc_display_pixel_buffer(const sc_display *display);

/* Fills the pixel buffer from host memory (the CPU backend's path). */
sc_status sc_display_upload(sc_display *display, const void *rgba);
/* Gives CUDA the image's device memory: *device_rgba (width * height * 4 bytes, row 0 at the bottom) is
 * valid for kernels on `stream` until unmap: a device buffer allocated at create and resize (both
 * paths). */
sc_status sc_display_map_cuda(sc_display *display, cudaStream_t stream, void **device_rgba);
/* Interop: maps the texture, copies the buffer into it device to device and unmaps it, all ordered on
 * `stream`, no wait (GL's draw is ordered after). Copy path: copies the staging buffer
 * into pinned host memory on `stream`, waits for `stream` (the price of the fallback: the frame's
 * kernels must finish before the host has the image), then fills the pixel buffer from it as
 * sc_display_upload does. */
sc_status sc_display_unmap_cuda(sc_display *display, cudaStream_t stream);
/* For a display with cuda_interop: SC_DISPLAY_CUDA_INTEROP or SC_DISPLAY_CUDA_COPY, the path its frames
 * take (never AUTO). SC_DISPLAY_CUDA_AUTO for NULL or a display without cuda_interop. */
sc_display_cuda_path sc_display_cuda_path_in_use(const sc_display *display);
/* The line logged when AUTO fell back to the copy path, naming the CUDA error, e.g. "CUDA-GL interop
 * unavailable (cudaErrorOperatingSystem: OS call failed or operation not supported on this OS):
 * frames are copied device -> host -> texture"; NULL when there was no fallback (a forced COPY is not
 * one). Valid until the display is destroyed. */
const char *sc_display_notice(const sc_display *display);

/* Draws the latest image over the whole viewport of the current framebuffer (1:1 when the viewport has
 * the image's size, scaled otherwise); an image in the pixel buffer (upload, copy path) is first copied
 * into the texture, once. */
sc_status sc_display_draw(sc_display *display, int viewport_width, int viewport_height);

#ifdef __cplusplus
}
#endif
#endif
