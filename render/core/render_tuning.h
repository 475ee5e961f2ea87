/* render_tuning.h - every tuning constant and default of the renderer, in one place (internal).
 * Plain enums and #defines so the header is usable from C (.c) and CUDA (.cu) alike. */
#ifndef RENDER_TUNING_H
#define RENDER_TUNING_H

enum {
    SC_DEFAULT_TILE_SIZE = 8,         /* pixels per tile edge */
    SC_DEFAULT_SLABS = 16,            /* depth slabs */
    SC_MAX_KEY_BITS = 32,             /* tile bits + slab bits of a reference key */
    SC_SPLIT_PASS_BITS = 11,          /* bucket bits of one multisplit pass (2048 buckets) */
    SC_MIN_REF_CAPACITY = 4096,       /* smallest reference buffer */
    SC_CPU_MAX_THREADS = 64,
    SC_CPU_TRIANGLES_PER_TASK = 16384 /* triangles per work item of the CPU projection */
};

/* Automatic initial reference capacity: this many references per triangle (at least the min). */
#define SC_REF_CAPACITY_PER_TRIANGLE 1.5
/* Growth factor when a frame's references overflow the buffer. */
#define SC_REF_CAPACITY_GROWTH 1.5

/* Conservative binning (classify.h says why these suffice): projected bounds and tile/edge tests
 * are widened by SC_BIN_MARGIN_PX + SC_BIN_MARGIN_REL * (big + k + S^2 / k) pixels, big the largest
 * absolute screen coordinate of the triangle, k the focal length in pixels, S the larger side of
 * the target: the rounding of the world-space ray test and of the projection, about 50 float ulps
 * (u = 2^-24) of those lengths at most; REL is 67 u. Triangles are clipped SC_BIN_MARGIN_NEAR of
 * their view extent in front of the near plane (and never further than half of it). */
#define SC_BIN_MARGIN_PX 0.0625f
#define SC_BIN_MARGIN_REL 4.0e-6f
#define SC_BIN_MARGIN_NEAR (1.0f / 65536.0f)
/* A triangle's depth key (its slab, the slab bounds) is its nearest depth lowered by this relative
 * amount, so that every computed hit depth on it is >= its key despite rounding: the early exit
 * compares hit depths with keys. */
#define SC_DEPTH_KEY_MARGIN (1.0f / 4096.0f)

/* Camera defaults. */
#define SC_DEFAULT_FOVY 1.04719755f       /* 60 degrees */
#define SC_DEFAULT_NEAR 0.01f
#define SC_DEFAULT_FAR 1000.0f

/* Deformation defaults (see sc_deform_desc). */
#define SC_TWIST_FREQUENCY 0.25f
#define SC_BEND_FREQUENCY 0.2f
#define SC_WAVE_WAVELENGTH 0.5f
#define SC_WAVE_FREQUENCY 0.5f
#define SC_PULSE_FREQUENCY 0.5f
#define SC_PULSE_SPATIAL_FREQUENCY 1.0f
#define SC_NOISE_SCALE 4.0f
#define SC_NOISE_SPEED 0.5f

/* Shading defaults (see sc_shading_desc). */
#define SC_LIGHT_DIR_X -0.4f
#define SC_LIGHT_DIR_Y -0.8f
#define SC_LIGHT_DIR_Z -0.45f
#define SC_AMBIENT 0.15f
#define SC_ALBEDO_R 0.85f
#define SC_ALBEDO_G 0.80f
#define SC_ALBEDO_B 0.72f
#define SC_BG_BOTTOM_R 0.10f
#define SC_BG_BOTTOM_G 0.11f
#define SC_BG_BOTTOM_B 0.14f
#define SC_BG_TOP_R 0.32f
#define SC_BG_TOP_G 0.36f
#define SC_BG_TOP_B 0.45f
#define SC_HEAT_MAX_TILE 1024.0f          /* references per tile shown hottest */
#define SC_HEAT_MAX_TESTS 256.0f          /* ray-triangle tests per pixel shown hottest */

#endif /* RENDER_TUNING_H */
