/* rgba_store.cuh - one packed RGBA8 pixel (byte 0 red) written into a caller's image on the device
 * (internal to cuda/: the shade, the owners' shade of a composite, the composite's image merge). The
 * caller's rows may have any pitch, so a pixel that is not 4-byte aligned is written as bytes. */
#ifndef SC_RGBA_STORE_CUH
#define SC_RGBA_STORE_CUH

#include <stdint.h>

__device__ static inline void sc_store_rgba8(uint8_t *dst, uint32_t packed)
{
    if (((uintptr_t)dst & 3u) == 0) {
        *(uint32_t *)dst = packed;
    } else {
        for (int k = 0; k < 4; ++k) dst[k] = (uint8_t)(packed >> (8 * k));
    }
}

#endif /* SC_RGBA_STORE_CUH */
