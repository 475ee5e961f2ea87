/* gather_scatter.cu - split_gather / split_scatter: records of any multiple of 4 bytes.
 *
 * The n records are viewed as n * (record_bytes / W) words of W = 16, 8 or 4 bytes (the widest
 * that src, dst and record_bytes allow). Thread g moves word g of the contiguous side (dst for
 * gather, src for scatter), so consecutive threads touch consecutive words there and the records of
 * the indexed side are read / written as whole runs of words. Multi-pass: pass p moves only the
 * records whose indexed position lies in window p = [p*n/P, (p+1)*n/P); one launch per pass.
 * num_passes = 0: P from the pass-count model (move_model.h) and the device's L2. */
#include "gather_scatter.h"
#include "gather_scatter_kernel.cuh"
#include "move_model.h"
#include "sc_report.h"
#include "split.h"
#include "split_tuning.h"

namespace {

template <typename W, bool GATHER>
sc_status launch_passes(const split_move_desc *d, uint32_t passes, uint32_t sms, cudaStream_t stream)
{
    const uint32_t wpr = (uint32_t)(d->record_bytes / sizeof(W));
    const uint64_t total = (uint64_t)d->n * wpr;
    const uint64_t want = (total + MOVE_THREADS - 1) / MOVE_THREADS, most = (uint64_t)sms * MOVE_GRID_BLOCKS_PER_SM;
    const uint32_t grid = (uint32_t)(want < most ? want : most);
    const fast_div fd = make_fast_div(wpr);
    const bool wide = total >= ((uint64_t)1 << 32);
    for (uint32_t p = 0; p < passes; ++p) {
        uint64_t lo = passes == 1 ? 0 : (uint64_t)p * d->n / passes;
        uint64_t hi = passes == 1 ? d->n : (uint64_t)(p + 1) * d->n / passes;
        if (lo == hi) continue;
        if (wide)
            move_kernel<W, GATHER, true><<<grid, MOVE_THREADS, 0, stream>>>((const W *)d->src, (W *)d->dst, d->index,
                                                                          total, wpr, fd, lo, hi);
        else
            move_kernel<W, GATHER, false><<<grid, MOVE_THREADS, 0, stream>>>((const W *)d->src, (W *)d->dst, d->index,
                                                                           total, wpr, fd, lo, hi);
        SC_CUDA_CHECK_LAUNCH("move_kernel");
    }
    return SC_OK;
}

/* The L2 of the current device, for the pass-count model. */
sc_status device_l2_bytes(uint64_t *bytes)
{
    int l2 = 0;
    SC_TRY(sc_cuda_device_attribute(cudaDevAttrL2CacheSize, &l2));
    *bytes = l2 > 0 ? (uint64_t)l2 : 0u;
    return SC_OK;
}

/* desc's pass count: its own, or the model's for this device (num_passes = 0). */
sc_status resolve_passes(const split_move_desc *d, int scatter, uint32_t *passes)
{
    if (*passes != 0) return SC_OK;
    uint64_t l2 = 0;
    SC_TRY(device_l2_bytes(&l2));
    *passes = split_move_model_passes(d->n, d->record_bytes, l2, scatter);
    return SC_OK;
}

template <bool GATHER>
sc_status move(const split_move_desc *d, cudaStream_t stream, const char *who)
{
    uint32_t wb = 0, passes = 0;
    SC_TRY(split_move_check(d, who, &wb, &passes));
    if (d->n == 0) return SC_OK;
    SC_TRY(resolve_passes(d, !GATHER, &passes));
    uint32_t sms = 1;
    SC_TRY(sc_cuda_device_sms(&sms));
    if (wb == 16) return launch_passes<uint4, GATHER>(d, passes, sms, stream);
    if (wb == 8) return launch_passes<uint2, GATHER>(d, passes, sms, stream);
    return launch_passes<uint32_t, GATHER>(d, passes, sms, stream);
}

} // namespace

extern "C" sc_status split_gather(const split_move_desc *desc, cudaStream_t stream)
{
    return move<true>(desc, stream, "split_gather");
}

extern "C" sc_status split_scatter(const split_move_desc *desc, cudaStream_t stream)
{
    return move<false>(desc, stream, "split_scatter");
}

extern "C" sc_status split_move_passes(const split_move_desc *desc, int scatter, uint32_t *passes)
{
    if (!passes) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "split_move_passes: passes is NULL");
    uint32_t wb = 0, p = 0;
    SC_TRY(split_move_check(desc, "split_move_passes", &wb, &p));
    if (desc->n == 0) p = p ? p : 1u;
    else SC_TRY(resolve_passes(desc, scatter, &p));
    *passes = p;
    return SC_OK;
}
