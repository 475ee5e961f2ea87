/* deform.h - the deformers, shared by the CPU and CUDA backends (internal). Each deformer is one
 * section below: its per-frame constants (sc_<name>_frame: its descriptor at the frame time, with the
 * defaults of render_tuning.h, as fields of sc_deform_eval; host only) beside its per-vertex math
 * (sc_<name>_vertex; host and device). sc_deform_evaluate turns an sc_deform_desc and the frame time
 * into an sc_deform_eval once a frame, through a switch over sc_deformer without a default (a
 * deformer without its constants does not build); sc_deform_vertex maps a rest position and rest
 * normal to the deformed position. Order: pulse and noise (along the rest normal), then twist, bend,
 * wave.
 * Like projection and intersection, deformation is bit-identical across backends: the host C is
 * strict C11 and the CUDA code is compiled without contraction, so every float operation rounds once
 * the same way; the one library function whose last bits differ between a GPU and a C library, the
 * sine and cosine, is sc_sincosf below, written out in float operations. So the CPU and CUDA
 * backends deform the mesh to the same positions and render the same images. The per-frame
 * constants are computed once, on the host, and handed to either backend. */
#ifndef SC_DEFORM_H
#define SC_DEFORM_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "render_tuning.h"
#include "sc_hd.h"
#include "slabcast.h"

enum {
    SC_DEFORM_TWIST = 1u << 0,
    SC_DEFORM_BEND = 1u << 1,
    SC_DEFORM_WAVE = 1u << 2,
    SC_DEFORM_PULSE = 1u << 3,
    SC_DEFORM_NOISE = 1u << 4
};

typedef struct sc_deform_eval {
    uint32_t effects;              /* SC_DEFORM_* bits; 0: positions are the rest positions */
    float center[3];               /* rest bounding-box centre C */
    float twist_axis[3];           /* unit */
    float twist_rate;              /* radians per unit length along the axis */
    float bend_axis[3];            /* unit */
    float bend_dir[3];             /* unit, orthogonal to bend_axis */
    float bend_curvature;          /* 1 / radius; 0: no bend */
    float wave_dir[3];             /* unit */
    float wave_disp[3];            /* unit */
    float wave_k;                  /* 2 pi / wavelength */
    float wave_phase;              /* 2 pi f t */
    float wave_amp;
    float pulse_amp;
    float pulse_phase;
    float pulse_k;                 /* radians of phase per unit distance from C */
    float noise_amp;
    float noise_scale;             /* noise cells per unit length */
    float noise_offset[3];         /* noise-space drift */
    uint32_t noise_seed;
} sc_deform_eval;

/* ---- shared math ------------------------------------------------------------------------------ */

SC_HD static inline uint32_t sc_hash_u32(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Lattice coordinates are 32-bit and wrap (unsigned arithmetic: no overflow). */
SC_HD static inline float sc_lattice_value(uint32_t x, uint32_t y, uint32_t z, uint32_t seed)
{
    uint32_t h = sc_hash_u32(x ^ sc_hash_u32(y ^ sc_hash_u32(z ^ seed)));
    return (float)(h >> 8) * (1.0f / 16777216.0f); /* [0, 1) */
}

/* sin x and cos x, the same bits on every backend (correctly rounded float operations only): x
 * reduced to r in [-pi/4, pi/4] by k = the integer nearest x * 2 / pi, with pi / 2 in three parts
 * (Cody and Waite; k * the first part is exact for |k| < 2^16), then minimax polynomials of r (the
 * Cephes sinf / cosf coefficients) and k's quadrant: within 3e-7 of the true values for |x| <= 2^16.
 * Larger x is first taken modulo the float nearest 2 pi (exact), so the values stay in [-1, 1] and
 * periodic-looking but drift from sin x. NaN for x not finite. */
SC_HD static inline void sc_sincosf(float x, float *s_out, float *c_out)
{
    if (!(x - x == 0.0f)) { /* inf or NaN */
        *s_out = *c_out = x - x;
        return;
    }
    if (!(x >= -65536.0f && x <= 65536.0f)) x = fmodf(x, 6.28318548202514648f);
    const float k = floorf(SC_FADD(SC_FMUL(x, 0.636619772367581343f), 0.5f));
    float r = SC_FSUB(x, SC_FMUL(k, 1.5703125f));
    r = SC_FSUB(r, SC_FMUL(k, 4.837512969970703125e-4f));
    r = SC_FSUB(r, SC_FMUL(k, 7.54978995489188216e-8f));
    const float z = SC_FMUL(r, r);
    float ps = SC_FADD(SC_FMUL(-1.9515295891e-4f, z), 8.3321608736e-3f);
    ps = SC_FADD(SC_FMUL(ps, z), -1.6666654611e-1f);
    const float sn = SC_FADD(r, SC_FMUL(SC_FMUL(ps, z), r));
    float pc = SC_FADD(SC_FMUL(2.443315711809948e-5f, z), -1.388731625493765e-3f);
    pc = SC_FADD(SC_FMUL(pc, z), 4.166664568298827e-2f);
    const float cs = SC_FADD(SC_FSUB(1.0f, SC_FMUL(0.5f, z)), SC_FMUL(SC_FMUL(pc, z), z));
    /* k's quadrant: k mod 4 (k is an integral float; fmodf is exact). */
    float q = fmodf(k, 4.0f);
    if (q < 0.0f) q = SC_FADD(q, 4.0f);
    switch ((int)q) {
    case 0: *s_out = sn; *c_out = cs; break;
    case 1: *s_out = cs; *c_out = -sn; break;
    case 2: *s_out = -sn; *c_out = -cs; break;
    default: *s_out = -cs; *c_out = sn; break;
    }
}

SC_HD static inline float sc_sinf(float x)
{
    float s, c;
    sc_sincosf(x, &s, &c);
    return s;
}

SC_HD static inline float sc_smooth(float t) { return t * t * (3.0f - 2.0f * t); }
SC_HD static inline float sc_lerpf(float a, float b, float t) { return a + (b - a) * t; }

/* The lattice coordinate of an integral float, modulo 2^32; defined for every float (the
 * float-to-integer conversion is undefined out of range): beyond 2^31 in magnitude the value is
 * first reduced modulo 2^24 (exact in float), NaN gives 0. The same bits as (uint32_t)(int32_t)f
 * wherever that is defined. */
SC_HD static inline uint32_t sc_lattice_coord(float f)
{
    if (!(f >= -2147483648.0f && f < 2147483648.0f)) f = isfinite(f) ? fmodf(f, 16777216.0f) : 0.0f;
    return (uint32_t)(int32_t)f;
}

/* Smooth 3D value noise in [0, 1): trilinear interpolation of hashed lattice values with
 * smoothstep weights (C1 continuous). Defined for every float input: no undefined conversion (a
 * non-finite input gives a meaningless value, as the position it came from is). */
SC_HD static inline float sc_value_noise(float x, float y, float z, uint32_t seed)
{
    float fx = floorf(x), fy = floorf(y), fz = floorf(z);
    uint32_t ix = sc_lattice_coord(fx), iy = sc_lattice_coord(fy), iz = sc_lattice_coord(fz);
    float tx = sc_smooth(x - fx), ty = sc_smooth(y - fy), tz = sc_smooth(z - fz);
    float c[2][2];
    for (uint32_t dz = 0; dz < 2; ++dz)
        for (uint32_t dy = 0; dy < 2; ++dy)
            c[dz][dy] = sc_lerpf(sc_lattice_value(ix, iy + dy, iz + dz, seed),
                                 sc_lattice_value(ix + 1u, iy + dy, iz + dz, seed), tx);
    return sc_lerpf(sc_lerpf(c[0][0], c[0][1], ty), sc_lerpf(c[1][0], c[1][1], ty), tz);
}

/* Rotates q about the unit axis by angle (Rodrigues). */
SC_HD static inline void sc_rotate_axis(float q[3], const float k[3], float angle)
{
    float cs, sn;
    sc_sincosf(angle, &sn, &cs);
    float kq = k[0] * q[0] + k[1] * q[1] + k[2] * q[2];
    float cr[3] = {k[1] * q[2] - k[2] * q[1], k[2] * q[0] - k[0] * q[2], k[0] * q[1] - k[1] * q[0]};
    for (int i = 0; i < 3; ++i) q[i] = q[i] * cs + cr[i] * sn + k[i] * kq * (1.0f - cs);
}

/* ---- the per-frame constants' helpers (host) ---------------------------------------------------- */
/* The descriptor's floats are finite (the front end checks them); products of them that a float
 * cannot hold are computed in double. */

#define SC_DEFORM_TWO_PI 6.28318530717958647692f

/* A descriptor's field, or its default when the field is 0. */
static inline float sc_deform_or_default(float v, float def) { return v != 0.0f ? v : def; }

/* 2 pi f t reduced to [0, 2 pi), in double: f t of two finite floats may overflow a float (and
 * sinf(inf) is NaN), never a double. A product so large that its fraction is lost gives phase 0. */
static inline float sc_deform_phase(float frequency, float time)
{
    double cycles = (double)frequency * (double)time;
    double frac = cycles - floor(cycles);
    if (!(frac >= 0.0 && frac < 1.0)) frac = 0.0;
    return (float)(6.28318530717958647692 * frac);
}

/* sin(2 pi f t), through sc_deform_phase. */
static inline float sc_deform_sin_cycles(float frequency, float time)
{
    return sinf(sc_deform_phase(frequency, time));
}

/* Unit vector of v, or of (dx, dy, dz) when v is zero or not finite. */
static inline void sc_deform_unit_or(const float v[3], float dx, float dy, float dz, float out[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(l > 0.0f) || !isfinite(l)) {
        out[0] = dx; out[1] = dy; out[2] = dz;
        l = sqrtf(dx * dx + dy * dy + dz * dz);
        for (int i = 0; i < 3; ++i) out[i] /= l;
        return;
    }
    for (int i = 0; i < 3; ++i) out[i] = v[i] / l;
}

/* ---- twist: a turn about an axis through C, growing along it ---------------------------------- */

static inline void sc_twist_frame(const sc_twist_desc *d, float R, float time, sc_deform_eval *e)
{
    if (d->amount == 0.0f) return;
    e->effects |= SC_DEFORM_TWIST;
    sc_deform_unit_or(d->axis, 0, 1, 0, e->twist_axis);
    float f = sc_deform_or_default(d->frequency, SC_TWIST_FREQUENCY);
    e->twist_rate = d->amount * sc_deform_sin_cycles(f, time) / R;
}

SC_HD static inline void sc_twist_vertex(const sc_deform_eval *e, float q[3])
{
    float h = q[0] * e->twist_axis[0] + q[1] * e->twist_axis[1] + q[2] * e->twist_axis[2];
    sc_rotate_axis(q, e->twist_axis, e->twist_rate * h);
}

/* ---- bend: the line along an axis curved into an arc ---------------------------------------------- */

static inline void sc_bend_frame(const sc_bend_desc *d, float R, float time, sc_deform_eval *e)
{
    if (d->amount == 0.0f) return;
    e->effects |= SC_DEFORM_BEND;
    sc_deform_unit_or(d->axis, 0, 1, 0, e->bend_axis);
    float dir[3];
    sc_deform_unit_or(d->direction, 1, 0, 0, dir);
    float k = dir[0] * e->bend_axis[0] + dir[1] * e->bend_axis[1] + dir[2] * e->bend_axis[2];
    for (int i = 0; i < 3; ++i) dir[i] -= k * e->bend_axis[i];
    /* Parallel to the axis: take any perpendicular direction. */
    float alt[3] = {fabsf(e->bend_axis[0]) < 0.9f ? 1.0f : 0.0f, fabsf(e->bend_axis[0]) < 0.9f ? 0.0f : 1.0f, 0};
    if (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2] < 1e-8f) {
        float ka = alt[0] * e->bend_axis[0] + alt[1] * e->bend_axis[1] + alt[2] * e->bend_axis[2];
        for (int i = 0; i < 3; ++i) dir[i] = alt[i] - ka * e->bend_axis[i];
    }
    sc_deform_unit_or(dir, 1, 0, 0, e->bend_dir);
    float f = sc_deform_or_default(d->frequency, SC_BEND_FREQUENCY);
    e->bend_curvature = d->amount * sc_deform_sin_cycles(f, time) / R;
}

/* Bends the line along bend_axis into an arc of radius 1/k curving towards bend_dir (k =
 * bend_curvature, not 0: the caller skips a straight frame). */
SC_HD static inline void sc_bend_vertex(const sc_deform_eval *e, float q[3])
{
    const float *a = e->bend_axis, *d = e->bend_dir;
    float h = q[0] * a[0] + q[1] * a[1] + q[2] * a[2];
    float x = q[0] * d[0] + q[1] * d[1] + q[2] * d[2];
    float r = 1.0f / e->bend_curvature;
    float th = h * e->bend_curvature;
    float sn, cs;
    sc_sincosf(th, &sn, &cs);
    float x2 = r - (r - x) * cs;
    float h2 = (r - x) * sn;
    for (int i = 0; i < 3; ++i) q[i] += (x2 - x) * d[i] + (h2 - h) * a[i];
}

/* ---- wave: a travelling sine wave ------------------------------------------------------------------ */

static inline void sc_wave_frame(const sc_wave_desc *d, float R, float time, sc_deform_eval *e)
{
    if (d->amount == 0.0f) return;
    e->effects |= SC_DEFORM_WAVE;
    sc_deform_unit_or(d->direction, 1, 0, 0, e->wave_dir);
    sc_deform_unit_or(d->displacement, 0, 1, 0, e->wave_disp);
    e->wave_k = SC_DEFORM_TWO_PI / (sc_deform_or_default(d->wavelength, SC_WAVE_WAVELENGTH) * R);
    e->wave_phase = sc_deform_phase(sc_deform_or_default(d->frequency, SC_WAVE_FREQUENCY), time);
    e->wave_amp = d->amount * R;
}

SC_HD static inline void sc_wave_vertex(const sc_deform_eval *e, float q[3])
{
    float s = q[0] * e->wave_dir[0] + q[1] * e->wave_dir[1] + q[2] * e->wave_dir[2];
    float off = e->wave_amp * sc_sinf(e->wave_k * s - e->wave_phase);
    for (int i = 0; i < 3; ++i) q[i] += off * e->wave_disp[i];
}

/* ---- pulse: a radial wave from C along the rest normal ---------------------------------------------- */

static inline void sc_pulse_frame(const sc_pulse_desc *d, float R, float time, sc_deform_eval *e)
{
    if (d->amount == 0.0f) return;
    e->effects |= SC_DEFORM_PULSE;
    e->pulse_amp = d->amount * R;
    e->pulse_phase = sc_deform_phase(sc_deform_or_default(d->frequency, SC_PULSE_FREQUENCY), time);
    e->pulse_k = SC_DEFORM_TWO_PI * sc_deform_or_default(d->spatial_frequency, SC_PULSE_SPATIAL_FREQUENCY) / R;
}

SC_HD static inline void sc_pulse_vertex(const sc_deform_eval *e, const float n0[3], float q[3])
{
    float dist = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    float off = e->pulse_amp * sc_sinf(e->pulse_phase + e->pulse_k * dist);
    for (int i = 0; i < 3; ++i) q[i] += off * n0[i];
}

/* ---- noise: drifting value noise of the rest position, along the rest normal ------------------------ */

static inline void sc_noise_frame(const sc_noise_desc *d, float R, float time, sc_deform_eval *e)
{
    if (d->amount == 0.0f) return;
    e->effects |= SC_DEFORM_NOISE;
    e->noise_amp = d->amount * R;
    e->noise_scale = sc_deform_or_default(d->scale, SC_NOISE_SCALE) / R;
    /* A drift past 2^24 cells is all lattice (no fraction left); the lattice wraps (sc_lattice_coord). */
    double drift_d = (double)sc_deform_or_default(d->speed, SC_NOISE_SPEED) * (double)time;
    float drift = (float)fmax(-1e30, fmin(1e30, drift_d)); /* in float range: the conversion is defined */
    e->noise_offset[0] = 0.577f * drift;
    e->noise_offset[1] = 0.371f * drift;
    e->noise_offset[2] = 0.727f * drift;
    e->noise_seed = d->seed;
}

SC_HD static inline void sc_noise_vertex(const sc_deform_eval *e, const float p0[3], const float n0[3], float q[3])
{
    float nz = sc_value_noise((p0[0] - e->center[0]) * e->noise_scale + e->noise_offset[0],
                              (p0[1] - e->center[1]) * e->noise_scale + e->noise_offset[1],
                              (p0[2] - e->center[2]) * e->noise_scale + e->noise_offset[2], e->noise_seed);
    float off = e->noise_amp * (2.0f * nz - 1.0f);
    for (int i = 0; i < 3; ++i) q[i] += off * n0[i];
}

/* ---- the whole deformation ------------------------------------------------------------------------- */

/* The per-vertex constants of desc at time t (host, once a frame), for the rest mesh's centre and
 * bounding radius. desc's floats are finite (the front end checks them); desc NULL: no deformation. */
static inline void sc_deform_evaluate(const sc_deform_desc *d, const float center[3], float radius, float time,
                                      sc_deform_eval *e)
{
    memset(e, 0, sizeof *e);
    memcpy(e->center, center, sizeof e->center);
    if (!d) return;
    for (int k = 0; k < SC_DEFORMER_COUNT; ++k) {
        switch ((sc_deformer)k) {
        case SC_DEFORMER_TWIST: sc_twist_frame(&d->twist, radius, time, e); break;
        case SC_DEFORMER_BEND: sc_bend_frame(&d->bend, radius, time, e); break;
        case SC_DEFORMER_WAVE: sc_wave_frame(&d->wave, radius, time, e); break;
        case SC_DEFORMER_PULSE: sc_pulse_frame(&d->pulse, radius, time, e); break;
        case SC_DEFORMER_NOISE: sc_noise_frame(&d->noise, radius, time, e); break;
        case SC_DEFORMER_COUNT: break;
        }
    }
}

/* The deformed position of the vertex at rest position p0 with rest normal n0, in the order of
 * application (sc_deform_reach in render/api/resolve.c bounds it in the same order). */
SC_HD static inline void sc_deform_vertex(const sc_deform_eval *e, const float p0[3], const float n0[3], float out[3])
{
    float q[3] = {p0[0] - e->center[0], p0[1] - e->center[1], p0[2] - e->center[2]};
    if (e->effects & SC_DEFORM_PULSE) sc_pulse_vertex(e, n0, q);
    if (e->effects & SC_DEFORM_NOISE) sc_noise_vertex(e, p0, n0, q);
    if (e->effects & SC_DEFORM_TWIST) sc_twist_vertex(e, q);
    if ((e->effects & SC_DEFORM_BEND) && e->bend_curvature != 0.0f) sc_bend_vertex(e, q);
    if (e->effects & SC_DEFORM_WAVE) sc_wave_vertex(e, q);
    for (int i = 0; i < 3; ++i) out[i] = q[i] + e->center[i];
}

#endif /* SC_DEFORM_H */
