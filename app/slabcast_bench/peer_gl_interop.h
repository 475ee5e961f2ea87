/* peer_gl_interop.h - what the OpenGL peers of slabcast-bench (peer_gl_raster.c, peer_gl_shadowmap.c)
 * share on the CUDA side: a headless GL context on NVIDIA's EGL device (CUDA-GL interop needs one),
 * the CUDA device of that context, and our CUDA renderer as the deformer of every frame, whose
 * positions go device to device (sc_renderer_copy_positions, on the renderer's stream) into a GL
 * vertex buffer registered with CUDA (cudaGraphicsGLRegisterBuffer): they never visit the host.
 *
 * A peer opens it (peer_gl_interop_open), makes its GL objects in the context, registers its vertex
 * buffer (peer_gl_interop_register), and per frame calls peer_gl_interop_positions before its GL
 * passes: the host waits for the frame's CUDA work there, so no wait for CUDA falls inside a GL timer
 * query issued after it. At the end: peer_gl_interop_release_cuda (the renderer, the registration, the
 * stream), then the peer deletes its GL objects, then peer_gl_interop_close (the context; the
 * caller's CUDA device restored). Every failure sets `skip` when it means "cannot run here" (no
 * NVIDIA EGL device, no CUDA device): the peer returns 77 then. Built with CUDA only. */
#ifndef SLABCAST_BENCH_PEER_GL_INTEROP_H
#define SLABCAST_BENCH_PEER_GL_INTEROP_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "bench_peer.h"
#include "sc_gl.h"
#include "sc_status.h"

/* What one run holds; zero where not made. */
typedef struct peer_gl_interop {
    const char *peer;                    /* the peer's name, for messages */
    const bench_peer_scene *scene;
    int skip;                            /* the failure means "cannot run here": 77 */
    int device_before, device_changed;   /* the caller's current CUDA device, restored at the end */
    sc_gl_context *gl;
    cudaStream_t stream;                 /* the renderer's; the interop maps on it */
    int stream_made;
    sc_renderer *renderer;
    cudaGraphicsResource_t positions;    /* the peer's vertex buffer registered with CUDA */
} peer_gl_interop;

/* The scene has what a GL peer needs (mesh, times, our hits, frames): else INVALID_ARGUMENT naming the
 * peer. */
sc_status peer_gl_check_scene(const char *peer, const bench_peer_scene *scene);
/* Zeroes *x, then makes the GL context (current on this thread; it must have GL_TIME_ELAPSED), finds
 * its CUDA device, makes the stream and our CUDA renderer with the scene's mesh, camera and
 * deformation (no lights: it only deforms). */
sc_status peer_gl_interop_open(peer_gl_interop *x, const char *peer, const bench_peer_scene *scene);
/* Registers the GL buffer `vbo` (at least 3 floats a vertex of the scene's mesh) for the positions. */
sc_status peer_gl_interop_register(peer_gl_interop *x, unsigned vbo);
/* One frame's positions: our renderer deforms at `time` (no image), the positions are copied into the
 * registered buffer, and the host waits for the stream. */
sc_status peer_gl_interop_positions(peer_gl_interop *x, float time);
/* Our renderer's errors (it waits for its frames) and the stream's, after the last frame. */
sc_status peer_gl_interop_finish(peer_gl_interop *x);
/* Releases the CUDA side (renderer, registration, stream); the GL context stays current. */
void peer_gl_interop_release_cuda(peer_gl_interop *x);
/* Destroys the context and restores the caller's CUDA device; *x is zero afterwards. */
void peer_gl_interop_close(peer_gl_interop *x);

#endif
