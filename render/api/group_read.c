/* group_read.c - a renderer group's last frame read back (slabcast.h "Renderer groups"): its hits,
 * made from the winners (sc_hits_from_keys_device) with each owner's u and v
 * (sc_renderer_resolve_keys), and its times. Both wait for the frame; the hits' device buffers are
 * allocated for the call and freed before it returns (not a per-frame path). */
#include <cuda_runtime_api.h>
#include <stdlib.h>

#include "group_internal.h"
#include "sc_report.h"

/* hits (device, n) from winners (device, on share k's device), with share k's u and v; share k's
 * device current. */
static sc_status resolve_on_share(sc_renderer_group *g, uint32_t k, const uint64_t *winners, sc_hit *hits,
                                  int make)
{
    const sc_group_share *s = &g->shares[k];
    const uint64_t n = (uint64_t)g->width * g->height;
    if (make) SC_TRY(g->ops->hits_from_keys(hits, winners, n, s->stream));
    SC_TRY(sc_renderer_resolve_keys(s->r, winners, hits));
    SC_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return SC_OK;
}

/* The hits of the display device's shares, into host memory out. */
static sc_status read_display(sc_renderer_group *g, sc_hit *out, sc_hit *dev)
{
    const sc_group_share *d = &g->shares[0];
    const uint64_t n = (uint64_t)g->width * g->height;
    SC_CUDA_CHECK(cudaStreamSynchronize(d->stream));
    SC_TRY(resolve_on_share(g, 0, d->keys, dev, 1));
    for (uint32_t k = 1; k < g->count; ++k)
        if (!g->shares[k].remote) SC_TRY(resolve_on_share(g, k, d->keys, dev, 0));
    SC_CUDA_CHECK(cudaMemcpy(out, dev, n * sizeof *out, cudaMemcpyDeviceToHost));
    return SC_OK;
}

/* A remote share's hits (its own pixels) over out; share k's device current. */
static sc_status read_remote(sc_renderer_group *g, uint32_t k, sc_hit *out, sc_hit *dev, sc_hit *host)
{
    const uint64_t n = (uint64_t)g->width * g->height;
    SC_TRY(resolve_on_share(g, k, g->shares[k].winners, dev, 1));
    SC_CUDA_CHECK(cudaMemcpy(host, dev, n * sizeof *host, cudaMemcpyDeviceToHost));
    /* The ids share k owns: its even cut of sc_mesh_share_make_halo. */
    const uint64_t t = g->triangles;
    const uint64_t first = t * k / g->count, end = t * (k + 1) / g->count;
    for (uint64_t i = 0; i < n; ++i)
        if (host[i].tri != SC_NO_HIT && host[i].tri >= first && host[i].tri < end) out[i] = host[i];
    return SC_OK;
}

static sc_status read_all(sc_renderer_group *g, sc_hit *out, sc_hit **dev, sc_hit *host)
{
    const uint64_t n = (uint64_t)g->width * g->height;
    for (uint32_t k = 0; k < g->count; ++k) {
        const sc_group_share *s = &g->shares[k];
        if (k > 0 && !s->remote) continue;
        int previous;
        SC_TRY(sc_group_use_device(s->device, &previous));
        sc_status st = SC_OK;
        if (cudaMalloc((void **)dev, n * sizeof **dev) != cudaSuccess) {
            (void)cudaGetLastError();
            st = SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_group_read_hits: no device memory for the hits");
        }
        if (st == SC_OK) st = k == 0 ? read_display(g, out, *dev) : read_remote(g, k, out, *dev, host);
        if (*dev) (void)cudaFree(*dev);
        *dev = NULL;
        sc_group_restore_device(previous);
        SC_TRY(st);
    }
    return SC_OK;
}

sc_status sc_renderer_group_read_hits(sc_renderer_group *g, sc_hit *out)
{
    static const char *const call = "sc_renderer_group_read_hits";
    if (!g || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    if (!g->frames) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: no frame rendered since the mesh was set", call);
    const uint64_t n = (uint64_t)g->width * g->height;
    if (n > SIZE_MAX / sizeof(sc_hit)) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: the hits overflow size_t", call);
    sc_hit *host = NULL;
    if (g->any_remote && !(host = malloc((size_t)n * sizeof *host)))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", call);
    sc_hit *dev = NULL;
    const sc_status s = read_all(g, out, &dev, host);
    free(host);
    return s;
}

static sc_status elapsed(cudaEvent_t a, cudaEvent_t b, double *ms)
{
    float t = 0.0f;
    SC_CUDA_CHECK(cudaEventElapsedTime(&t, a, b));
    *ms = t;
    return SC_OK;
}

static sc_status read_times(sc_renderer_group *g, sc_group_stats *out)
{
    SC_CUDA_CHECK(cudaStreamSynchronize(g->shares[0].stream));
    SC_TRY(elapsed(g->start, g->end, &out->frame_ms));
    SC_TRY(elapsed(g->composite_start, g->composite_end, &out->composite_ms));
    return SC_OK;
}

sc_status sc_renderer_group_stats(sc_renderer_group *g, sc_group_stats *out)
{
    static const char *const call = "sc_renderer_group_stats";
    if (!g || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    if (!g->frames) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: no frame rendered since the mesh was set", call);
    sc_group_stats st = {0};
    st.bytes_moved = sc_group_bytes_per_frame(g);
    st.shares = g->count;
    st.devices = g->devices;
    st.triangles = g->triangles;
    for (uint32_t k = 0; k < g->count; ++k)
        if (g->shares[k].triangles > st.triangles_max) st.triangles_max = g->shares[k].triangles;
    int previous;
    SC_TRY(sc_group_use_device(g->shares[0].device, &previous));
    const sc_status s = read_times(g, &st);
    sc_group_restore_device(previous);
    SC_TRY(s);
    *out = st;
    return SC_OK;
}
