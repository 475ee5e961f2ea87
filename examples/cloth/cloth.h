/* cloth.h - the cloth example's shared types: the simulation's constants and the collision field, plain
 * C structs that the C path and the CUDA kernels both take by value. */
#ifndef CLOTH_H
#define CLOTH_H

#include <stdint.h>

/* The simulation of an n x n grid of particles of equal mass: Verlet integration with gravity and
 * damping, then `iterations` Gauss-Seidel sweeps over the springs (position-based distance constraints:
 * structural, shear, bend and long-range stretch limits), then collision with the model's field and the
 * ground. All lengths in the
 * scene's units (the model is scaled to 1 across its longest side), times in seconds. */
typedef struct cloth_params {
    uint32_t n;               /* particles per side */
    uint32_t iterations;      /* constraint sweeps per substep */
    float dt;                 /* one substep */
    float gravity;            /* acceleration along -y */
    float damping;            /* fraction of the velocity lost per substep */
    float spacing;            /* distance between neighbouring particles at rest */
    float stiffness[4];       /* fraction of a spring's error corrected per sweep, in (0, 1], for the
                                 structural, shear, bend and long-range springs (cloth_kernels.h) */
    float thickness;          /* distance the cloth keeps from the model and the ground */
    float friction;           /* fraction of the tangential velocity lost at a contact */
    float ground_y;           /* the ground plane's height */
    float max_move;           /* the most a particle moves in one substep (a speed limit) */
    float bound;              /* particles are kept within |x|, |y|, |z| <= bound */
} cloth_params;

/* A signed distance field of the model on a regular grid of nodes: negative inside, positive outside,
 * zero on the surface; sampled trilinearly (cloth_field_sample). Outside the grid the model is far. */
typedef struct cloth_field {
    const float *phi;         /* nx * ny * nz values, x fastest, then y, then z (host or device memory) */
    uint32_t nx, ny, nz;      /* nodes along each axis, >= 2 */
    float origin[3];          /* node (0, 0, 0) */
    float cell;               /* distance between neighbouring nodes */
} cloth_field;

#endif /* CLOTH_H */
