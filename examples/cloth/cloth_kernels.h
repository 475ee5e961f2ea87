/* cloth_kernels.h - one step of the cloth for one particle or one spring: the code both paths run, the
 * C path in loops (cloth_sim_cpu.c) and the CUDA path one thread per particle or spring
 * (cloth_sim_cuda.cu), so the two compute the same simulation: with the kernels compiled without fused
 * multiply-adds (CMakeLists.txt), the same positions bit for bit.
 *
 * A substep: cloth_integrate on every particle; then `iterations` sweeps, each of CLOTH_SPRING_PASSES
 * passes over one colour of one spring family (cloth_spring_at), in which no two springs share a
 * particle, so a pass may run in any order or all at once and gives the same positions; then
 * cloth_collide on every particle. Positions are 3 floats a particle (the layout the renderer reads). */
#ifndef CLOTH_KERNELS_H
#define CLOTH_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "cloth.h"

#ifdef __CUDACC__
#define CLOTH_HD __host__ __device__ static inline
#else
#define CLOTH_HD static inline
#endif

/* The value cloth_field_sample gives outside the field's grid: far from the model. */
#define CLOTH_FAR 1.0e30f

/* Springs between particles (x, y) and (x + dx, y + dy) of the grid (particle y * n + x), in families by
 * offset, in the order a sweep runs them: long-range stretch limits first (64 and 8 particles apart
 * along x and y: they only pull, when the cloth is stretched over that distance, so that a sweep
 * carries the pull of the cloth's weight across it in a few passes instead of one particle per pass),
 * then the structural (1, 0), (0, 1), shear (1, 1), (1, -1) and bend (2, 0), (0, 2) springs. Each family
 * is split in two colours along one axis, coordinate / period even or odd (period: the spring's length
 * along that axis), so that the springs of one colour share no particle. */
enum { CLOTH_SPRING_FAMILIES = 10, CLOTH_SPRING_PASSES = 2 * CLOTH_SPRING_FAMILIES };
enum { CLOTH_STRUCTURAL = 0, CLOTH_SHEAR, CLOTH_BEND, CLOTH_LONG_RANGE, CLOTH_SPRING_KINDS };

typedef struct cloth_spring_family {
    int dx, dy;               /* the spring's other end, from its first particle */
    int along_y;              /* 0: the colour follows x, 1: y */
    uint32_t period;          /* colour = (coordinate / period) % 2 */
    int kind;                 /* CLOTH_STRUCTURAL ... CLOTH_LONG_RANGE (cloth_params.stiffness) */
} cloth_spring_family;

CLOTH_HD cloth_spring_family cloth_spring_family_of(uint32_t family)
{
    cloth_spring_family s = {1, 0, 0, 1, CLOTH_STRUCTURAL};
    switch (family) {
    case 0: s.dx = 64, s.period = 64, s.kind = CLOTH_LONG_RANGE; break;
    case 1: s.dx = 0, s.dy = 64, s.along_y = 1, s.period = 64, s.kind = CLOTH_LONG_RANGE; break;
    case 2: s.dx = 8, s.period = 8, s.kind = CLOTH_LONG_RANGE; break;
    case 3: s.dx = 0, s.dy = 8, s.along_y = 1, s.period = 8, s.kind = CLOTH_LONG_RANGE; break;
    case 5: s.dx = 0, s.dy = 1, s.along_y = 1; break;
    case 6: s.dy = 1, s.kind = CLOTH_SHEAR; break;
    case 7: s.dy = -1, s.kind = CLOTH_SHEAR; break;
    case 8: s.dx = 2, s.period = 2, s.kind = CLOTH_BEND; break;
    case 9: s.dx = 0, s.dy = 2, s.along_y = 1, s.period = 2, s.kind = CLOTH_BEND; break;
    default: break; /* 4: (1, 0) */
    }
    return s;
}

/* Coordinates of one colour on a line of n particles: period * ceil(n / (2 * period)) slots. */
CLOTH_HD uint32_t cloth_colour_slots(uint32_t n, uint32_t period)
{
    return period * ((n + 2 * period - 1) / (2 * period));
}

/* The number of items (threads) of pass `pass` (0 .. CLOTH_SPRING_PASSES - 1) on an n x n grid; some
 * items are no spring (cloth_spring_at gives 0 for them). */
CLOTH_HD uint32_t cloth_pass_items(uint32_t n, uint32_t pass)
{
    return n * cloth_colour_slots(n, cloth_spring_family_of(pass >> 1).period);
}

/* Item `item` of pass `pass`: 1 and the spring's particles *i, *j and its family in *f; 0 when the
 * item is no spring (past the grid's edge). Neighbouring items are neighbouring springs of one row
 * (neighbouring threads read neighbouring memory). */
CLOTH_HD int cloth_spring_at(uint32_t n, uint32_t pass, uint32_t item, uint32_t *i, uint32_t *j,
                             cloth_spring_family *f)
{
    *f = cloth_spring_family_of(pass >> 1);
    const uint32_t colour = pass & 1u, slots = cloth_colour_slots(n, f->period);
    const uint32_t line = f->along_y ? item % n : item / slots; /* the other coordinate */
    const uint32_t k = f->along_y ? item / n : item % slots;
    const uint32_t q = (k / f->period) * 2 * f->period + colour * f->period + k % f->period;
    if (q >= n || line >= n) return 0;
    const uint32_t x = f->along_y ? line : q, y = f->along_y ? q : line;
    const int64_t ex = (int64_t)x + f->dx, ey = (int64_t)y + f->dy;
    if (ex >= (int64_t)n || ey < 0 || ey >= (int64_t)n) return 0;
    *i = y * n + x;
    *j = (uint32_t)ey * n + (uint32_t)ex;
    return 1;
}

/* Moves the ends of a spring of family f towards its rest length (the particles' spacing times its
 * offset's length): equal masses, each end half the way, times the stiffness of its kind. A long-range
 * spring only pulls (a stretch limit: the cloth folds freely). Coincident ends have no direction and
 * stay. */
CLOTH_HD void cloth_solve_spring(float *pi, float *pj, const cloth_spring_family *f, const cloth_params *c)
{
    const float d[3] = {pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2]};
    const float len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (!(len2 > 1e-24f)) return;
    const float len = sqrtf(len2);
    const float rest = c->spacing * sqrtf((float)(f->dx * f->dx + f->dy * f->dy));
    if (f->kind == CLOTH_LONG_RANGE && len <= rest) return;
    const float s = 0.5f * c->stiffness[f->kind] * (len - rest) / len;
    for (int k = 0; k < 3; ++k) {
        pi[k] += s * d[k];
        pj[k] -= s * d[k];
    }
}

/* Verlet: the last substep's motion, damped, plus gravity, at most max_move long. */
CLOTH_HD void cloth_integrate(float *p, float *prev, const cloth_params *c)
{
    const float keep = 1.0f - c->damping;
    float v[3];
    for (int k = 0; k < 3; ++k) v[k] = (p[k] - prev[k]) * keep;
    v[1] -= c->gravity * c->dt * c->dt;
    const float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (len2 > c->max_move * c->max_move) {
        const float s = c->max_move / sqrtf(len2);
        for (int k = 0; k < 3; ++k) v[k] *= s;
    }
    for (int k = 0; k < 3; ++k) {
        prev[k] = p[k];
        p[k] += v[k];
    }
}

/* The field's value at p, trilinear between the 8 nodes around it, and its gradient (the derivative
 * of that interpolant) in grad; CLOTH_FAR and a zero gradient outside the grid. */
CLOTH_HD float cloth_field_sample(const cloth_field *f, const float p[3], float grad[3])
{
    const uint32_t dims[3] = {f->nx, f->ny, f->nz};
    uint32_t i[3];
    float t[3];
    for (int k = 0; k < 3; ++k) {
        const float g = (p[k] - f->origin[k]) / f->cell;
        if (!(g >= 0.0f && g <= (float)(dims[k] - 1))) { /* outside, or not a number */
            grad[0] = grad[1] = grad[2] = 0.0f;
            return CLOTH_FAR;
        }
        i[k] = (uint32_t)g;
        if (i[k] > dims[k] - 2) i[k] = dims[k] - 2;
        t[k] = g - (float)i[k];
    }
    const size_t sy = f->nx, sz = (size_t)f->nx * f->ny;
    const float *c = f->phi + i[0] + i[1] * sy + i[2] * sz;
    const float c000 = c[0], c100 = c[1], c010 = c[sy], c110 = c[sy + 1];
    const float c001 = c[sz], c101 = c[sz + 1], c011 = c[sz + sy], c111 = c[sz + sy + 1];
    const float c00 = c000 + (c100 - c000) * t[0], c10 = c010 + (c110 - c010) * t[0];
    const float c01 = c001 + (c101 - c001) * t[0], c11 = c011 + (c111 - c011) * t[0];
    const float c0 = c00 + (c10 - c00) * t[1], c1 = c01 + (c11 - c01) * t[1];
    const float uy = 1.0f - t[1], uz = 1.0f - t[2];
    grad[0] = ((c100 - c000) * uy * uz + (c110 - c010) * t[1] * uz + (c101 - c001) * uy * t[2] +
               (c111 - c011) * t[1] * t[2]) / f->cell;
    grad[1] = ((c10 - c00) * uz + (c11 - c01) * t[2]) / f->cell;
    grad[2] = (c1 - c0) / f->cell;
    return c0 + (c1 - c0) * t[2];
}

/* A contact: p moved `depth` along the unit normal nrm; the substep's motion (p - prev, from before the
 * move) keeps none of its part into the surface and (1 - friction) of its part along it, so a push out
 * adds no velocity. */
CLOTH_HD void cloth_contact(float *p, float *prev, const float nrm[3], float depth, float friction)
{
    float v[3];
    for (int k = 0; k < 3; ++k) v[k] = p[k] - prev[k];
    const float vn = v[0] * nrm[0] + v[1] * nrm[1] + v[2] * nrm[2];
    const float out = vn > 0.0f ? vn : 0.0f;
    for (int k = 0; k < 3; ++k) {
        const float tangential = v[k] - vn * nrm[k];
        p[k] += depth * nrm[k];
        prev[k] = p[k] - (tangential * (1.0f - friction) + out * nrm[k]);
    }
}

/* Keeps a particle finite, within the bounds, `thickness` out of the model (along the field's gradient)
 * and above the ground. */
CLOTH_HD void cloth_collide(float *p, float *prev, const cloth_params *c, const cloth_field *f)
{
    for (int k = 0; k < 3; ++k) {
        if (!isfinite(prev[k])) prev[k] = 0.0f;
        if (!isfinite(p[k])) p[k] = prev[k];
        p[k] = fminf(fmaxf(p[k], -c->bound), c->bound);
    }
    float g[3];
    const float phi = cloth_field_sample(f, p, g);
    if (phi < c->thickness) {
        const float len = sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        float nrm[3] = {0.0f, 1.0f, 0.0f}; /* a flat spot of the field: up */
        if (len > 1e-12f)
            for (int k = 0; k < 3; ++k) nrm[k] = g[k] / len;
        cloth_contact(p, prev, nrm, c->thickness - phi, c->friction);
    }
    const float floor_y = c->ground_y + c->thickness;
    if (p[1] < floor_y) {
        const float up[3] = {0.0f, 1.0f, 0.0f};
        cloth_contact(p, prev, up, floor_y - p[1], c->friction);
    }
}

#endif /* CLOTH_KERNELS_H */
