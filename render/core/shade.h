/* shade.h - colours of the shading and visualisation modes, shared by the CPU and CUDA backends
 * (internal). Colours are floats in [0, 1]; sc_pack_rgba8 rounds them into a pixel.
 * Every function here is defined for every float input (NaN and infinities included): values are
 * clamped into range before any float-to-integer conversion, which is undefined behaviour out of
 * range in C and gives arbitrary values on a GPU. */
#ifndef SC_SHADE_H
#define SC_SHADE_H

#include <math.h>
#include <stdint.h>

#include "sc_hd.h"

/* v clamped to [0, 1]; NaN gives 0. */
SC_HD static inline float sc_clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

SC_HD static inline uint32_t sc_pack_rgba8(float r, float g, float b)
{
    uint32_t R = (uint32_t)(sc_clamp01(r) * 255.0f + 0.5f);
    uint32_t G = (uint32_t)(sc_clamp01(g) * 255.0f + 0.5f);
    uint32_t B = (uint32_t)(sc_clamp01(b) * 255.0f + 0.5f);
    return R | G << 8 | B << 16 | 0xFFu << 24; /* bytes R, G, B, A in memory (little-endian) */
}

/* Heat colour map: black, blue, magenta, orange, yellow, white over v in [0, 1]. */
SC_HD static inline void sc_heat(float v, float rgb[3])
{
    v = sc_clamp01(v);
    const float stops[6][3] = {{0.0f, 0.0f, 0.0f}, {0.1f, 0.15f, 0.75f}, {0.75f, 0.1f, 0.6f},
                               {1.0f, 0.5f, 0.05f}, {1.0f, 0.95f, 0.2f}, {1.0f, 1.0f, 1.0f}};
    float f = v * 5.0f; /* in [0, 5]: the cast below is defined */
    int i = (int)f;
    if (i > 4) i = 4;
    float t = f - (float)i;
    for (int k = 0; k < 3; ++k) rgb[k] = stops[i][k] + (stops[i + 1][k] - stops[i][k]) * t;
}

/* log2(1 + count) / log2(1 + max), in [0, 1]. A max so small that log2(1 + max) rounds to 0 (or
 * one that is not a positive number) shows every nonzero count hottest and 0 coldest. */
SC_HD static inline float sc_log_scale(float count, float max)
{
    float den = log2f(1.0f + max);
    if (!(den > 0.0f)) return count > 0.0f ? 1.0f : 0.0f;
    return sc_clamp01(log2f(1.0f + count) / den);
}

/* A saturated colour per index (hue from a hash), for triangle ids. */
SC_HD static inline void sc_id_colour(uint32_t id, float rgb[3])
{
    uint32_t h = id * 0x9E3779B1u;
    h ^= h >> 15; h *= 0x85EBCA77u; h ^= h >> 13;
    rgb[0] = 0.25f + 0.75f * (float)(h & 0xFF) / 255.0f;
    rgb[1] = 0.25f + 0.75f * (float)((h >> 8) & 0xFF) / 255.0f;
    rgb[2] = 0.25f + 0.75f * (float)((h >> 16) & 0xFF) / 255.0f;
}

/* Hue wheel position v in [0, 1) as a colour, for slab indices (a non-finite v is taken as 0). */
SC_HD static inline void sc_hue(float v, float rgb[3])
{
    if (!isfinite(v)) v = 0.0f;
    float h = sc_clamp01(v - floorf(v)) * 6.0f; /* in [0, 6]: the cast below is defined */
    int i = (int)h;
    float f = h - (float)i;
    float q = 1.0f - f;
    switch (i) {
    case 0: rgb[0] = 1; rgb[1] = f; rgb[2] = 0; break;
    case 1: rgb[0] = q; rgb[1] = 1; rgb[2] = 0; break;
    case 2: rgb[0] = 0; rgb[1] = 1; rgb[2] = f; break;
    case 3: rgb[0] = 0; rgb[1] = q; rgb[2] = 1; break;
    case 4: rgb[0] = f; rgb[1] = 0; rgb[2] = 1; break;
    default: rgb[0] = 1; rgb[1] = 0; rgb[2] = q; break;
    }
}

#endif /* SC_SHADE_H */
