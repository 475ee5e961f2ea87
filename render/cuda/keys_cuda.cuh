/* keys_cuda.cuh - a share's hit as a key on the device (internal to cuda/: keys_cuda.cu,
 * shade_keys_cuda.cu): the whole mesh's id of a share's triangle, and the key of a hit the share
 * owns (render/core/composite.h's key; SC_HIT_KEY_NONE for a triangle it does not own). */
#ifndef SC_KEYS_CUDA_CUH
#define SC_KEYS_CUDA_CUH

#include <stdint.h>

#include "composite.h"
#include "slabcast.h"

/* The whole mesh's id of local triangle t. */
__device__ static inline uint32_t whole_id(const uint32_t *ids, uint32_t first, uint32_t t)
{
    return ids ? ids[t] : first + t;
}

/* The key of hit h of a share, SC_HIT_KEY_NONE when the share does not own its triangle. */
__device__ static inline uint64_t owned_key(const sc_hit &h, const uint32_t *ids, uint32_t first, uint32_t owned_first,
                                            uint32_t owned_end)
{
    if (h.tri == SC_NO_HIT) return SC_HIT_KEY_NONE;
    const uint32_t id = whole_id(ids, first, h.tri);
    if (id < owned_first || id >= owned_end) return SC_HIT_KEY_NONE;
    return sc_hit_key(id, h.depth);
}

#endif /* SC_KEYS_CUDA_CUH */
