/* cloth_sim_cpu.h - the cloth simulation in plain C on the host (the path of the CPU backend), on positions in
 * host memory that the renderer reads as they are. */
#ifndef CLOTH_SIM_CPU_H
#define CLOTH_SIM_CPU_H

#include "cloth.h"

typedef struct cloth_cpu {
    cloth_params params;
    cloth_field field;        /* host memory */
    float *positions;         /* the caller's: n * n particles x 3 floats */
    float *previous;          /* the positions one substep ago (owned) */
} cloth_cpu;

/* Starts the cloth at rest at `positions` (the cloth's part of the scene's position buffer, which the
 * simulation then owns and updates in place). Returns 0 when out of memory. */
int cloth_cpu_init(cloth_cpu *sim, const cloth_params *params, const cloth_field *field, float *positions);
/* Advances the cloth by `steps` substeps. */
void cloth_cpu_advance(cloth_cpu *sim, uint32_t steps);
void cloth_cpu_free(cloth_cpu *sim);

#endif /* CLOTH_SIM_CPU_H */
