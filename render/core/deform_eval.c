/* deform_eval.c - host: an sc_deform_desc at time t as per-vertex constants (sc_deform_eval). The
 * descriptor's floats are finite (renderer.c checks them); products of them that a float cannot
 * hold are computed in double. */
#include <math.h>
#include <string.h>

#include "render_tuning.h"
#include "deform_eval.h"

static const float SC_TWO_PI = 6.28318530717958647692f;

static float or_default(float v, float def) { return v != 0.0f ? v : def; }

/* 2 pi f t reduced to [0, 2 pi), in double: f t of two finite floats may overflow a float (and
 * sinf(inf) is NaN), never a double. A product so large that its fraction is lost gives phase 0. */
static float phase_of(float frequency, float time)
{
    double cycles = (double)frequency * (double)time;
    double frac = cycles - floor(cycles);
    if (!(frac >= 0.0 && frac < 1.0)) frac = 0.0;
    return (float)(6.28318530717958647692 * frac);
}

/* sin(2 pi f t), through phase_of. */
static float sin_cycles(float frequency, float time) { return sinf(phase_of(frequency, time)); }

/* Unit vector of v, or of def when v is zero or not finite. */
static void unit_or(const float v[3], float dx, float dy, float dz, float out[3])
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

void sc_deform_evaluate(const sc_deform_desc *d, const float center[3], float radius, float time, sc_deform_eval *e)
{
    memset(e, 0, sizeof *e);
    memcpy(e->center, center, sizeof e->center);
    if (!d) return;
    const float R = radius;
    if (d->twist.amount != 0.0f) {
        e->effects |= SC_DEFORM_TWIST;
        unit_or(d->twist.axis, 0, 1, 0, e->twist_axis);
        float f = or_default(d->twist.frequency, SC_TWIST_FREQUENCY);
        e->twist_rate = d->twist.amount * sin_cycles(f, time) / R;
    }
    if (d->bend.amount != 0.0f) {
        e->effects |= SC_DEFORM_BEND;
        unit_or(d->bend.axis, 0, 1, 0, e->bend_axis);
        float dir[3];
        unit_or(d->bend.direction, 1, 0, 0, dir);
        float k = dir[0] * e->bend_axis[0] + dir[1] * e->bend_axis[1] + dir[2] * e->bend_axis[2];
        for (int i = 0; i < 3; ++i) dir[i] -= k * e->bend_axis[i];
        /* Parallel to the axis: take any perpendicular direction. */
        float alt[3] = {fabsf(e->bend_axis[0]) < 0.9f ? 1.0f : 0.0f, fabsf(e->bend_axis[0]) < 0.9f ? 0.0f : 1.0f, 0};
        if (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2] < 1e-8f) {
            float ka = alt[0] * e->bend_axis[0] + alt[1] * e->bend_axis[1] + alt[2] * e->bend_axis[2];
            for (int i = 0; i < 3; ++i) dir[i] = alt[i] - ka * e->bend_axis[i];
        }
        unit_or(dir, 1, 0, 0, e->bend_dir);
        float f = or_default(d->bend.frequency, SC_BEND_FREQUENCY);
        e->bend_curvature = d->bend.amount * sin_cycles(f, time) / R;
    }
    if (d->wave.amount != 0.0f) {
        e->effects |= SC_DEFORM_WAVE;
        unit_or(d->wave.direction, 1, 0, 0, e->wave_dir);
        unit_or(d->wave.displacement, 0, 1, 0, e->wave_disp);
        e->wave_k = SC_TWO_PI / (or_default(d->wave.wavelength, SC_WAVE_WAVELENGTH) * R);
        e->wave_phase = phase_of(or_default(d->wave.frequency, SC_WAVE_FREQUENCY), time);
        e->wave_amp = d->wave.amount * R;
    }
    if (d->pulse.amount != 0.0f) {
        e->effects |= SC_DEFORM_PULSE;
        e->pulse_amp = d->pulse.amount * R;
        e->pulse_phase = phase_of(or_default(d->pulse.frequency, SC_PULSE_FREQUENCY), time);
        e->pulse_k = SC_TWO_PI * or_default(d->pulse.spatial_frequency, SC_PULSE_SPATIAL_FREQUENCY) / R;
    }
    if (d->noise.amount != 0.0f) {
        e->effects |= SC_DEFORM_NOISE;
        e->noise_amp = d->noise.amount * R;
        e->noise_scale = or_default(d->noise.scale, SC_NOISE_SCALE) / R;
        /* A drift past 2^24 cells is all lattice (no fraction left); the lattice wraps (deform.h). */
        double drift_d = (double)or_default(d->noise.speed, SC_NOISE_SPEED) * (double)time;
        float drift = (float)fmax(-1e30, fmin(1e30, drift_d)); /* in float range: the conversion is defined */
        e->noise_offset[0] = 0.577f * drift;
        e->noise_offset[1] = 0.371f * drift;
        e->noise_offset[2] = 0.727f * drift;
        e->noise_seed = d->noise.seed;
    }
}
