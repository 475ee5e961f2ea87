/* cloth_sim_cpu.c - the cloth on the host (cloth_sim_cpu.h): the steps of cloth_kernels.h in loops, one particle or
 * spring after the other, in the order the CUDA path runs them in parallel. */
#include "cloth_sim_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "cloth_kernels.h"

int cloth_cpu_init(cloth_cpu *sim, const cloth_params *params, const cloth_field *field, float *positions)
{
    const size_t floats = 3 * (size_t)params->n * params->n;
    sim->params = *params;
    sim->field = *field;
    sim->positions = positions;
    sim->previous = malloc(floats * sizeof(float));
    if (!sim->previous) return 0;
    memcpy(sim->previous, positions, floats * sizeof(float)); /* at rest */
    return 1;
}

void cloth_cpu_advance(cloth_cpu *sim, uint32_t steps)
{
    const cloth_params *c = &sim->params;
    const uint32_t count = c->n * c->n;
    float *p = sim->positions, *prev = sim->previous;
    for (uint32_t step = 0; step < steps; ++step) {
        for (uint32_t i = 0; i < count; ++i) cloth_integrate(p + 3 * (size_t)i, prev + 3 * (size_t)i, c);
        for (uint32_t it = 0; it < c->iterations; ++it)
            for (uint32_t pass = 0; pass < CLOTH_SPRING_PASSES; ++pass) {
                const uint32_t items = cloth_pass_items(c->n, pass);
                for (uint32_t item = 0; item < items; ++item) {
                    uint32_t i, j;
                    cloth_spring_family f;
                    if (cloth_spring_at(c->n, pass, item, &i, &j, &f))
                        cloth_solve_spring(p + 3 * (size_t)i, p + 3 * (size_t)j, &f, c);
                }
            }
        for (uint32_t i = 0; i < count; ++i) cloth_collide(p + 3 * (size_t)i, prev + 3 * (size_t)i, c, &sim->field);
    }
}

void cloth_cpu_free(cloth_cpu *sim)
{
    free(sim->previous);
    memset(sim, 0, sizeof *sim);
}
