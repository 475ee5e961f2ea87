/* group.c - the renderer group (slabcast.h "Renderer groups"): its renderers, streams, events and
 * buffers on their devices, the mesh cut into halo shares, and the setters forwarded to every share.
 * The frame is group_frame.c's, the reads group_read.c's. */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "backend_registry.h"
#include "group_internal.h"
#include "sc_report.h"

sc_status sc_group_use_device(int d, int *previous)
{
    SC_CUDA_CHECK(cudaGetDevice(previous));
    if (d != *previous) SC_CUDA_CHECK(cudaSetDevice(d));
    return SC_OK;
}

void sc_group_restore_device(int previous) { (void)cudaSetDevice(previous); }

uint64_t sc_group_bytes_per_frame(const sc_renderer_group *g)
{
    const uint64_t n = (uint64_t)g->width * g->height;
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < g->count; ++k)
        if (g->shares[k].remote) bytes += n * (2 * sizeof(uint64_t) + sizeof(uint32_t));
    return bytes;
}

/* Device allocation of count elements of size bytes, the product overflow-checked. */
static sc_status device_alloc(void **p, uint64_t count, size_t size, const char *what)
{
    if (count > SIZE_MAX / size)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_group_create: %s of %llu elements overflows size_t", what,
                       (unsigned long long)count);
    SC_CUDA_CHECK(cudaMalloc(p, (size_t)count * size));
    return SC_OK;
}

/* The descriptor's checks and the shares' devices. */
static sc_status check_desc(const sc_group_desc *d, uint32_t *count)
{
    static const char *const call = "sc_renderer_group_create";
    if (d->renderer.backend != SC_BACKEND_DEFAULT && d->renderer.backend != SC_BACKEND_CUDA)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: a group renders on the CUDA backend; renderer.backend is \"%s\"",
                       call, sc_backend_name(d->renderer.backend) ? sc_backend_name(d->renderer.backend) : "unknown");
    if (d->devices && d->device_count == 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: devices given with device_count 0", call);
    if (!d->devices && d->device_count)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: device_count %u without devices", call, d->device_count);
    *count = d->shares ? d->shares : (d->devices ? d->device_count : 1u);
    if (*count > SC_GROUP_MAX_SHARES)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: %u shares; at most SC_GROUP_MAX_SHARES (%d)", call, *count,
                       SC_GROUP_MAX_SHARES);
    if (d->flags & ~(uint32_t)SC_GROUP_COPY_ALWAYS)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", call, d->flags);
    int present = 0;
    if (cudaGetDeviceCount(&present) != cudaSuccess || present == 0) {
        (void)cudaGetLastError();
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: no CUDA device", call);
    }
    for (uint32_t i = 0; d->devices && i < d->device_count; ++i)
        if (d->devices[i] < 0 || d->devices[i] >= present)
            return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: devices[%u] = %d, but this machine has %d CUDA device%s", call,
                           i, d->devices[i], present, present == 1 ? "" : "s");
    return SC_OK;
}

/* Peer access from device a to device b where the devices allow it (copies work either way). */
static sc_status enable_peer(int a, int b)
{
    int can = 0, previous;
    SC_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
    if (!can) return SC_OK;
    SC_TRY(sc_group_use_device(a, &previous));
    const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
    sc_group_restore_device(previous);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
        (void)cudaGetLastError();
        return SC_OK;
    }
    SC_CUDA_CHECK(e);
    return SC_OK;
}

/* Share k's renderer, stream, events and buffers on its device (current). */
static sc_status create_share(sc_renderer_group *g, const sc_group_desc *d, uint32_t k)
{
    sc_group_share *s = &g->shares[k];
    const uint64_t n = (uint64_t)g->width * g->height;
    sc_renderer_desc rd = d->renderer;
    rd.backend = SC_BACKEND_CUDA;
    if (k == 0 && d->renderer.stream) {
        s->stream = d->renderer.stream;
    } else {
        SC_CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
        s->own_stream = 1;
    }
    rd.stream = s->stream;
    SC_TRY(sc_renderer_create(&rd, &s->r));
    SC_CUDA_CHECK(cudaEventCreateWithFlags(&s->keys_done, cudaEventDisableTiming));
    SC_CUDA_CHECK(cudaEventCreateWithFlags(&s->image_done, cudaEventDisableTiming));
    SC_TRY(device_alloc((void **)&s->keys, n, sizeof *s->keys, "keys"));
    if (s->remote) {
        SC_TRY(device_alloc((void **)&s->winners, n, sizeof *s->winners, "winners"));
        SC_TRY(device_alloc((void **)&s->image, n, sizeof *s->image, "image"));
    }
    return SC_OK;
}

/* The display device's events and staging buffers (current). */
static sc_status create_display(sc_renderer_group *g)
{
    const uint64_t n = (uint64_t)g->width * g->height;
    SC_CUDA_CHECK(cudaEventCreateWithFlags(&g->winners_done, cudaEventDisableTiming));
    SC_CUDA_CHECK(cudaEventCreate(&g->start));
    SC_CUDA_CHECK(cudaEventCreate(&g->composite_start));
    SC_CUDA_CHECK(cudaEventCreate(&g->composite_end));
    SC_CUDA_CHECK(cudaEventCreate(&g->end));
    if (g->any_remote) {
        SC_TRY(device_alloc((void **)&g->stage_keys, n, sizeof *g->stage_keys, "staged keys"));
        SC_TRY(device_alloc((void **)&g->stage_image, n, sizeof *g->stage_image, "staged image"));
    }
    return SC_OK;
}

static sc_status create_all(sc_renderer_group *g, const sc_group_desc *d)
{
    int previous;
    SC_CUDA_CHECK(cudaGetDevice(&previous));
    for (uint32_t k = 0; k < g->count; ++k) {
        sc_group_share *s = &g->shares[k];
        s->device = d->devices ? d->devices[k % d->device_count] : previous;
        s->remote = k > 0 && (s->device != g->shares[0].device || (d->flags & SC_GROUP_COPY_ALWAYS));
        g->any_remote |= s->remote;
        int seen = 0;
        for (uint32_t j = 0; j < k; ++j) seen |= g->shares[j].device == s->device;
        g->devices += !seen;
    }
    for (uint32_t k = 1; k < g->count; ++k)
        if (g->shares[k].device != g->shares[0].device) {
            SC_TRY(enable_peer(g->shares[0].device, g->shares[k].device));
            SC_TRY(enable_peer(g->shares[k].device, g->shares[0].device));
        }
    for (uint32_t k = 0; k < g->count; ++k) {
        int was;
        SC_TRY(sc_group_use_device(g->shares[k].device, &was));
        const sc_status st = create_share(g, d, k);
        sc_group_restore_device(was);
        SC_TRY(st);
    }
    int was;
    SC_TRY(sc_group_use_device(g->shares[0].device, &was));
    const sc_status st = create_display(g);
    sc_group_restore_device(was);
    return st;
}

sc_status sc_renderer_group_create(const sc_group_desc *desc, sc_renderer_group **out)
{
    static const char *const call = "sc_renderer_group_create";
    if (!desc || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: desc and out must not be NULL", call);
    *out = NULL;
    uint32_t count = 0;
    SC_TRY(check_desc(desc, &count));
    sc_renderer_group *g = calloc(1, sizeof *g);
    if (!g) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", call);
    g->ops = sc_backend_find(SC_BACKEND_CUDA);
    g->count = count;
    g->width = desc->renderer.width;
    g->height = desc->renderer.height;
    const sc_status s = create_all(g, desc);
    if (s != SC_OK) {
        sc_renderer_group_destroy(g);
        return s;
    }
    *out = g;
    return SC_OK;
}

static void free_device(void *p)
{
    if (p) (void)cudaFree(p);
}

void sc_renderer_group_destroy(sc_renderer_group *g)
{
    if (!g) return;
    int previous = 0;
    (void)cudaGetDevice(&previous);
    for (uint32_t k = 0; k < g->count; ++k) {
        sc_group_share *s = &g->shares[k];
        (void)cudaSetDevice(s->device);
        if (s->stream) (void)cudaStreamSynchronize(s->stream);
        sc_renderer_destroy(s->r);
        free_device(s->keys);
        free_device(s->winners);
        free_device(s->image);
        if (s->keys_done) (void)cudaEventDestroy(s->keys_done);
        if (s->image_done) (void)cudaEventDestroy(s->image_done);
        if (s->own_stream) (void)cudaStreamDestroy(s->stream);
    }
    if (g->count) {
        (void)cudaSetDevice(g->shares[0].device);
        free_device(g->stage_keys);
        free_device(g->stage_image);
        cudaEvent_t *ev[] = {&g->winners_done, &g->start, &g->composite_start, &g->composite_end, &g->end};
        for (size_t i = 0; i < sizeof ev / sizeof ev[0]; ++i)
            if (*ev[i]) (void)cudaEventDestroy(*ev[i]);
    }
    (void)cudaGetLastError();
    (void)cudaSetDevice(previous);
    free(g);
}

sc_status sc_renderer_group_set_mesh(sc_renderer_group *g, const sc_mesh_data *mesh)
{
    static const char *const call = "sc_renderer_group_set_mesh";
    if (!g || !mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    g->has_mesh = 0;
    for (uint32_t k = 0; k < g->count; ++k) {
        sc_mesh_share share;
        SC_TRY(sc_mesh_share_make_halo(mesh, g->count, k, &share));
        int previous;
        sc_status s = sc_group_use_device(g->shares[k].device, &previous);
        if (s == SC_OK) {
            s = sc_renderer_set_mesh_share(g->shares[k].r, &share.mesh, &share.share);
            sc_group_restore_device(previous);
        }
        g->shares[k].triangles = share.mesh.triangle_count;
        sc_mesh_share_free(&share);
        SC_TRY(s);
    }
    g->triangles = mesh->triangle_count;
    g->has_mesh = 1;
    g->frames = 0;
    return SC_OK;
}

/* The setters: each share's renderer on its device. */
#define SC_GROUP_FORWARD(name, type)                                                                    \
    sc_status sc_renderer_group_##name(sc_renderer_group *g, const type *value)                         \
    {                                                                                                   \
        if (!g) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_group_" #name ": NULL group");   \
        for (uint32_t k = 0; k < g->count; ++k) {                                                       \
            int previous;                                                                               \
            SC_TRY(sc_group_use_device(g->shares[k].device, &previous));                               \
            const sc_status s = sc_renderer_##name(g->shares[k].r, value);                              \
            sc_group_restore_device(previous);                                                          \
            SC_TRY(s);                                                                                  \
        }                                                                                               \
        return SC_OK;                                                                                   \
    }

SC_GROUP_FORWARD(set_camera, sc_camera_desc)
SC_GROUP_FORWARD(set_deform, sc_deform_desc)
SC_GROUP_FORWARD(set_shading, sc_shading_desc)
SC_GROUP_FORWARD(set_options, sc_render_options)

cudaStream_t sc_renderer_group_stream(const sc_renderer_group *g) { return g ? g->shares[0].stream : NULL; }

sc_renderer *sc_renderer_group_share(const sc_renderer_group *g, uint32_t i, int *device)
{
    if (!g || i >= g->count) return NULL;
    if (device) *device = g->shares[i].device;
    return g->shares[i].r;
}
