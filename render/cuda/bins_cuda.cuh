/* bins_cuda.cuh - the tiles project binned a visible triangle to, visited from its 16-byte record
 * (backend_cuda.h: SC_CUDA_BINS_*), for emit (bin_cuda.cu) and the overflow fallback
 * (overflow_cuda.cu), so both walk exactly the tiles project counted (internal, CUDA only). */
#ifndef SC_BINS_CUDA_CUH
#define SC_BINS_CUDA_CUH

#include "backend_cuda.h"
#include "classify.h"

/* Calls visit(tile) for every tile in [lo, hi) that triangle t (record rec) was binned to, in
 * increasing tile order: the tiles of the record's mask, or, for a span of more than 32 tiles, those
 * of the same classification project made (positions pos, indices idx). */
template <typename Visit>
__device__ __forceinline__ void sc_cuda_visit_tiles(const sc_frame_params &p, uint32_t t, uint4 rec, const float *pos,
                                                    const uint32_t *idx, uint32_t lo, uint32_t hi, Visit visit)
{
    if (!(rec.y & SC_CUDA_BINS_RECLASSIFY)) {
        const uint32_t w = (rec.y & 0xFFFFu) + 1, h = (rec.y >> 16) + 1;
        if (rec.x + (h - 1) * p.tiles_x + (w - 1) < lo || rec.x >= hi) return;
        uint32_t mask = rec.z;
        while (mask) {
            const uint32_t bit = __ffs(mask) - 1;
            mask &= mask - 1;
            const uint32_t dy = bit / w, dx = bit - dy * w;
            const uint32_t tile = rec.x + dy * p.tiles_x + dx;
            if (tile >= lo && tile < hi) visit(tile);
        }
        return;
    }
    if (rec.x >= hi) return; /* the span starts past the range */
    const uint32_t *f = idx + 3 * (size_t)t;
    sc_tri_setup s;
    if (!sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s))
        return; /* never: project found it visible */
    for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty) {
        const uint32_t row = ty * p.tiles_x;
        if (row + s.tx1 < lo) continue;
        if (row + s.tx0 >= hi) break;
        for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx) {
            const uint32_t tile = row + tx;
            if (tile >= lo && tile < hi && sc_tri_overlaps_tile(&p, &s, tx, ty)) visit(tile);
        }
    }
}

#endif /* SC_BINS_CUDA_CUH */
