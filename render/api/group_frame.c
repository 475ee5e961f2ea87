/* group_frame.c - a renderer group's frame (slabcast.h "Renderer groups"), enqueued on the shares'
 * streams with events between them, no allocation and no wait of its own:
 *   1. every share renders (no image) and writes its keys (sc_renderer_hit_keys);
 *   2. the display stream waits for every share's keys, copies each remote share's into the staging
 *      buffer and takes the minimum into share 0's keys (sc_hit_keys_composite_device): the winners;
 *      then copies the winners to each remote share's device;
 *   3. every share shades the pixels it owns (sc_renderer_shade_keys; share 0 the background too):
 *      in place into the image when it is on the display device, else into its own zeroed image,
 *      which the display stream copies back and lays over the image (its nonzero words: the owner's
 *      pixels, alpha 255; zeros elsewhere).
 * Buffers are reused frame after frame; the stream order and events keep a frame's writes after the
 * previous frame's reads of the same buffer (each share's stream runs its frames in order, and the
 * display stream waits for every share's keys of the next frame before it writes a share's winners). */
#include <cuda_runtime_api.h>
#include <string.h>

#include "group_internal.h"
#include "resolve.h"
#include "sc_report.h"

/* Copies bytes from src on device sdev to dst on device ddev, on stream s (the display's). */
static sc_status copy_between(void *dst, int ddev, const void *src, int sdev, size_t bytes, cudaStream_t s)
{
    if (ddev == sdev) SC_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    else SC_CUDA_CHECK(cudaMemcpyPeerAsync(dst, ddev, src, sdev, bytes, s));
    return SC_OK;
}

static sc_status record_event(cudaEvent_t e, cudaStream_t s)
{
    SC_CUDA_CHECK(cudaEventRecord(e, s));
    return SC_OK;
}

static sc_status wait_event(cudaStream_t s, cudaEvent_t e)
{
    SC_CUDA_CHECK(cudaStreamWaitEvent(s, e, 0));
    return SC_OK;
}

/* Step 1 for share k (its device current). */
static sc_status render_share(sc_renderer_group *g, uint32_t k, float time)
{
    sc_group_share *s = &g->shares[k];
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    SC_TRY(sc_renderer_render(s->r, &f));
    SC_TRY(sc_renderer_hit_keys(s->r, s->keys));
    SC_CUDA_CHECK(cudaEventRecord(s->keys_done, s->stream));
    return SC_OK;
}

/* Step 2 (the display device current). */
static sc_status composite(sc_renderer_group *g)
{
    const sc_group_share *d = &g->shares[0];
    const uint64_t n = (uint64_t)g->width * g->height;
    for (uint32_t k = 1; k < g->count; ++k) SC_CUDA_CHECK(cudaStreamWaitEvent(d->stream, g->shares[k].keys_done, 0));
    SC_CUDA_CHECK(cudaEventRecord(g->composite_start, d->stream));
    for (uint32_t k = 1; k < g->count; ++k) {
        const sc_group_share *s = &g->shares[k];
        const uint64_t *part = s->keys;
        if (s->remote) {
            SC_TRY(copy_between(g->stage_keys, d->device, s->keys, s->device, n * sizeof *s->keys, d->stream));
            part = g->stage_keys;
        }
        SC_TRY(g->ops->keys_min(d->keys, part, n, d->stream));
    }
    SC_CUDA_CHECK(cudaEventRecord(g->composite_end, d->stream));
    for (uint32_t k = 1; k < g->count; ++k) {
        const sc_group_share *s = &g->shares[k];
        if (s->remote)
            SC_TRY(copy_between(s->winners, s->device, d->keys, d->device, n * sizeof *d->keys, d->stream));
    }
    SC_CUDA_CHECK(cudaEventRecord(g->winners_done, d->stream));
    return SC_OK;
}

/* Step 3's shading by share k (its device current). */
static sc_status shade_share(sc_renderer_group *g, uint32_t k, void *rgba, size_t pitch)
{
    sc_group_share *s = &g->shares[k];
    const uint64_t n = (uint64_t)g->width * g->height;
    if (s->remote) {
        SC_CUDA_CHECK(cudaMemsetAsync(s->image, 0, n * sizeof *s->image, s->stream));
        SC_TRY(sc_renderer_shade_keys(s->r, s->winners, s->image, 4 * (size_t)g->width, 0));
    } else {
        SC_TRY(sc_renderer_shade_keys(s->r, g->shares[0].keys, rgba, pitch, k == 0));
    }
    if (k > 0) SC_CUDA_CHECK(cudaEventRecord(s->image_done, s->stream));
    return SC_OK;
}

/* Step 3's merge (the display device current). */
static sc_status merge(sc_renderer_group *g, void *rgba, size_t pitch)
{
    const sc_group_share *d = &g->shares[0];
    const uint64_t n = (uint64_t)g->width * g->height;
    for (uint32_t k = 1; k < g->count; ++k) {
        const sc_group_share *s = &g->shares[k];
        SC_CUDA_CHECK(cudaStreamWaitEvent(d->stream, s->image_done, 0));
        if (!s->remote) continue;
        SC_TRY(copy_between(g->stage_image, d->device, s->image, s->device, n * sizeof *s->image, d->stream));
        SC_TRY(g->ops->pixels_over(rgba, pitch, g->stage_image, g->width, g->height, d->stream));
    }
    return SC_OK;
}

/* Makes share k's device current, the caller's in *previous. */
static sc_status on_share_device(sc_renderer_group *g, uint32_t k, int *previous)
{
    return sc_group_use_device(g->shares[k].device, previous);
}

static sc_status render_frame(sc_renderer_group *g, const sc_frame_desc *frame, size_t pitch)
{
    int previous;
    SC_TRY(on_share_device(g, 0, &previous));
    sc_status s = record_event(g->start, g->shares[0].stream);
    sc_group_restore_device(previous);
    SC_TRY(s);
    for (uint32_t k = 0; k < g->count; ++k) {
        SC_TRY(on_share_device(g, k, &previous));
        s = render_share(g, k, frame->time);
        sc_group_restore_device(previous);
        SC_TRY(s);
    }
    SC_TRY(on_share_device(g, 0, &previous));
    s = composite(g);
    sc_group_restore_device(previous);
    SC_TRY(s);
    /* Every share's later work (this frame's shading, the next frame's keys) after the winners. */
    for (uint32_t k = 1; k < g->count; ++k) {
        SC_TRY(on_share_device(g, k, &previous));
        s = wait_event(g->shares[k].stream, g->winners_done);
        sc_group_restore_device(previous);
        SC_TRY(s);
    }
    if (frame->rgba) {
        for (uint32_t k = 0; k < g->count; ++k) {
            SC_TRY(on_share_device(g, k, &previous));
            s = shade_share(g, k, frame->rgba, pitch);
            sc_group_restore_device(previous);
            SC_TRY(s);
        }
        SC_TRY(on_share_device(g, 0, &previous));
        s = merge(g, frame->rgba, pitch);
        sc_group_restore_device(previous);
        SC_TRY(s);
    }
    SC_TRY(on_share_device(g, 0, &previous));
    s = record_event(g->end, g->shares[0].stream);
    sc_group_restore_device(previous);
    return s;
}

sc_status sc_renderer_group_render(sc_renderer_group *g, const sc_frame_desc *frame)
{
    static const char *const call = "sc_renderer_group_render";
    if (!g || !frame) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    if (!g->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: no mesh set", call);
    if (frame->positions || frame->surface)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: a group takes neither frame positions nor a surface", call);
    size_t pitch = 4 * (size_t)g->width;
    if (frame->rgba) SC_TRY(sc_resolve_pitch(frame->rgba_pitch, g->width, g->height, call, &pitch));
    SC_TRY(render_frame(g, frame, pitch));
    ++g->frames;
    return SC_OK;
}
