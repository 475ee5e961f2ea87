/* composite_nccl.c - sc_renderer_composite_nccl (sc_nccl.h): the keys all-reduced by minimum, the
 * owners' pixels reduced by maximum onto the root, on the renderer's stream. */
#include <cuda_runtime_api.h>

#include "nccl_loader.h"
#include "renderer_internal.h"
#include "sc_nccl.h"
#include "sc_report.h"

/* An NCCL call through the loaded entry points f (nccl_loader.h). */
#define SC_NCCL_CHECK(f, call)                                                                            \
    do {                                                                                                  \
        ncclResult_t sc_nccl_res_ = (f)->call;                                                            \
        if (sc_nccl_res_ != ncclSuccess)                                                                  \
            return SC_FAIL(SC_ERROR_CUDA, "nccl %s failed: %s", #call, (f)->get_error_string(sc_nccl_res_)); \
    } while (0)

uint64_t sc_nccl_frame_bytes(uint32_t width, uint32_t height)
{
    const uint64_t n = (uint64_t)width * height;
    return n * (sizeof(uint64_t) + sizeof(uint32_t));
}

static sc_status check(const sc_renderer *r, const sc_nccl_desc *nccl, const uint64_t *keys, const uint32_t *image)
{
    static const char *const call = "sc_renderer_composite_nccl";
    if (!r || !nccl || !nccl->comm || !keys || !image)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL renderer, descriptor, communicator or buffer", call);
    if (nccl->ranks < 1 || nccl->rank < 0 || nccl->rank >= nccl->ranks || nccl->root < 0 || nccl->root >= nccl->ranks)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: rank %d and root %d must lie in 0 .. ranks - 1 (ranks %d)", call,
                       nccl->rank, nccl->root, nccl->ranks);
    return SC_OK;
}

sc_status sc_nccl_composite_keys(const sc_renderer *r, const sc_nccl_desc *nccl, uint64_t *keys)
{
    SC_TRY(check(r, nccl, keys, (const uint32_t *)keys));
    const size_t n = (size_t)r->params.width * r->params.height;
    const sc_nccl_fns *f;
    SC_TRY(sc_nccl_functions(&f));
    SC_TRY(sc_renderer_hit_keys(r, keys));
    SC_NCCL_CHECK(f, all_reduce(keys, keys, n, ncclUint64, ncclMin, (ncclComm_t)nccl->comm, r->desc.stream));
    return SC_OK;
}

sc_status sc_nccl_merge_image(const sc_renderer *r, const sc_nccl_desc *nccl, const uint64_t *keys, uint32_t *image)
{
    SC_TRY(check(r, nccl, keys, image));
    const sc_nccl_fns *f;
    SC_TRY(sc_nccl_functions(&f));
    const size_t n = (size_t)r->params.width * r->params.height;
    const cudaStream_t stream = r->desc.stream;
    SC_CUDA_CHECK(cudaMemsetAsync(image, 0, n * sizeof *image, stream));
    SC_TRY(sc_renderer_shade_keys(r, keys, image, 4 * (size_t)r->params.width, nccl->rank == nccl->root));
    SC_NCCL_CHECK(f, reduce(image, image, n, ncclUint32, ncclMax, nccl->root, (ncclComm_t)nccl->comm, stream));
    return SC_OK;
}

sc_status sc_renderer_composite_nccl(const sc_renderer *r, const sc_nccl_desc *nccl, uint64_t *keys,
                                     uint32_t *image, void *rgba, size_t pitch)
{
    SC_TRY(check(r, nccl, keys, image));
    const int root = nccl->rank == nccl->root;
    const size_t row = 4 * (size_t)r->params.width;
    if (root && rgba && pitch && pitch < row)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_composite_nccl: pitch %zu is below width x 4 = %zu bytes",
                       pitch, row);
    SC_TRY(sc_nccl_composite_keys(r, nccl, keys));
    if (root && !rgba) return SC_OK;
    SC_TRY(sc_nccl_merge_image(r, nccl, keys, image));
    if (!root) return SC_OK;
    SC_CUDA_CHECK(cudaMemcpy2DAsync(rgba, pitch ? pitch : row, image, row, row, r->params.height,
                                    cudaMemcpyDeviceToDevice, r->desc.stream));
    return SC_OK;
}
