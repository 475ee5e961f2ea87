/* peer_gl_interop.c - the CUDA-GL side of the OpenGL peers (peer_gl_interop.h). */
#include "peer_gl_interop.h"

#include <glad/gl.h>
#include <cuda_gl_interop.h>

#include <stdio.h>
#include <string.h>

#include "sc_report.h"

sc_status peer_gl_check_scene(const char *peer, const bench_peer_scene *s)
{
    if (!s || !s->mesh || !s->times || !s->our_hits)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: the scene lacks its mesh, times or our hits", peer);
    if (s->width == 0 || s->height == 0 || s->frames < 1 || s->warmup < 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: scene of %ux%u, %d frames, %d warm-up: nothing to time", peer,
                       s->width, s->height, s->frames, s->warmup);
    return SC_OK;
}

/* A headless context on NVIDIA's EGL device (CUDA interop needs it); none: skip. */
static sc_status open_gl(peer_gl_interop *x)
{
    sc_gl_context_desc d;
    memset(&d, 0, sizeof d);
    d.require_nvidia = 1;
    sc_status s = sc_gl_context_create(&d, &x->gl);
    if (s != SC_OK) x->skip = 1;
    SC_TRY(s);
    GLint bits = 0;
    SC_GL(glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits));
    if (bits <= 0) {
        x->skip = 1;
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: %s has no GL_TIME_ELAPSED counter", x->peer,
                       sc_gl_context_description(x->gl));
    }
    return SC_OK;
}

/* The CUDA device of the GL context (cudaGLGetDevices; when it cannot tell, the current device and
 * the registration decides), and the renderer's stream. No CUDA device: skip. */
static sc_status open_cuda(peer_gl_interop *x)
{
    cudaError_t e = cudaGetDevice(&x->device_before);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) x->skip = 1;
    SC_CUDA_CHECK(e);
    unsigned count = 0;
    int device = x->device_before;
    e = cudaGLGetDevices(&count, &device, 1, cudaGLDeviceListAll);
    if (e == cudaSuccess && count == 0) {
        x->skip = 1;
        return SC_FAIL(SC_ERROR_NO_DEVICE, "%s: the GPU of %s is no CUDA device of this process", x->peer,
                       sc_gl_context_description(x->gl));
    }
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* not told: keep the current device */
        device = x->device_before;
    }
    if (device != x->device_before) {
        SC_CUDA_CHECK(cudaSetDevice(device));
        x->device_changed = 1;
    }
    SC_CUDA_CHECK(cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking));
    x->stream_made = 1;
    return SC_OK;
}

/* Our CUDA renderer with the scene, the source of every frame's deformed positions. */
static sc_status open_renderer(peer_gl_interop *x)
{
    const bench_peer_scene *sc = x->scene;
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CUDA;
    d.width = sc->width;
    d.height = sc->height;
    d.tile_size = sc->tile_size;
    d.num_slabs = sc->num_slabs;
    d.vertex_order = sc->vertex_order;
    d.stream = x->stream;
    sc_status s = sc_renderer_create(&d, &x->renderer);
    if (s == SC_ERROR_UNSUPPORTED || s == SC_ERROR_NO_DEVICE) x->skip = 1;
    SC_TRY(s);
    const sc_mesh_data md = sc_mesh_view(sc->mesh);
    SC_TRY(sc_renderer_set_mesh(x->renderer, &md));
    SC_TRY(sc_renderer_set_camera(x->renderer, &sc->camera));
    return sc_renderer_set_deform(x->renderer, &sc->deform);
}

sc_status peer_gl_interop_open(peer_gl_interop *x, const char *peer, const bench_peer_scene *scene)
{
    memset(x, 0, sizeof *x);
    x->peer = peer;
    x->scene = scene;
    SC_TRY(open_gl(x));
    SC_TRY(open_cuda(x));
    return open_renderer(x);
}

sc_status peer_gl_interop_register(peer_gl_interop *x, unsigned vbo)
{
    SC_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&x->positions, vbo, cudaGraphicsRegisterFlagsWriteDiscard));
    return SC_OK;
}

/* This frame's positions into the vertex buffer, on the renderer's stream: map (orders after GL's
 * earlier draws), copy device to device, unmap (orders GL's later draws after the copy). */
static sc_status copy_positions(peer_gl_interop *x)
{
    const size_t need = 3 * sizeof(float) * (size_t)x->scene->mesh->vertex_count;
    SC_CUDA_CHECK(cudaGraphicsMapResources(1, &x->positions, x->stream));
    void *ptr = NULL;
    size_t bytes = 0;
    cudaError_t e = cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, x->positions);
    sc_status s = e == cudaSuccess ? SC_OK
                                   : sc_cuda_report(e, "cudaGraphicsResourceGetMappedPointer", __FILE__, __LINE__);
    if (s == SC_OK && bytes < need)
        s = SC_FAIL(SC_ERROR_GL, "%s: the mapped vertex buffer holds %zu bytes, %zu needed", x->peer, bytes, need);
    if (s == SC_OK) s = sc_renderer_copy_positions(x->renderer, (float *)ptr);
    e = cudaGraphicsUnmapResources(1, &x->positions, x->stream);
    if (s == SC_OK && e != cudaSuccess) s = sc_cuda_report(e, "cudaGraphicsUnmapResources", __FILE__, __LINE__);
    return s;
}

/* The host waits for the CUDA side before the peer issues GL's commands: GL's own wait for the
 * unmapped buffer may come after a glBeginQuery, and the queries are to time GL's passes alone. */
sc_status peer_gl_interop_positions(peer_gl_interop *x, float time)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    SC_TRY(sc_renderer_render(x->renderer, &f));
    SC_TRY(copy_positions(x));
    SC_CUDA_CHECK(cudaStreamSynchronize(x->stream));
    return SC_OK;
}

sc_status peer_gl_interop_finish(peer_gl_interop *x)
{
    sc_frame_stats stats;
    SC_TRY(sc_renderer_stats(x->renderer, &stats));
    SC_CUDA_CHECK(cudaStreamSynchronize(x->stream));
    return SC_OK;
}

/* In dependency order: the renderer (it waits for its stream) before the registration it wrote
 * through, CUDA's hold on the buffer before GL deletes it. */
void peer_gl_interop_release_cuda(peer_gl_interop *x)
{
    sc_renderer_destroy(x->renderer);
    x->renderer = NULL;
    if (x->positions) (void)cudaGraphicsUnregisterResource(x->positions);
    x->positions = NULL;
    if (x->stream_made) (void)cudaStreamDestroy(x->stream);
    x->stream_made = 0;
    (void)cudaGetLastError(); /* a failure on the way out is not the run's */
}

void peer_gl_interop_close(peer_gl_interop *x)
{
    peer_gl_interop_release_cuda(x); /* when the peer has not already */
    if (x->gl) sc_gl_context_destroy(x->gl);
    if (x->device_changed) (void)cudaSetDevice(x->device_before);
    (void)cudaGetLastError();
    memset(x, 0, sizeof *x);
}
