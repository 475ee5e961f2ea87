/* shade_cpu.c - shading and visualisation into RGBA8 (row 0 at the bottom) from the hit buffer:
 * sc_shade_pixel (shade.h, shared with the CUDA backend) for every pixel, rows spread over
 * threads. */
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "shade.h"

typedef struct shade_ctx {
    const sc_frame_params *p;
    const sc_shade_params *s;
    sc_shade_buffers b;
    uint8_t *rgba;
    size_t pitch;
} shade_ctx;

static void shade_row(void *arg, uint32_t y, uint32_t worker)
{
    (void)worker;
    const shade_ctx *c = arg;
    uint8_t *row = c->rgba + (size_t)y * c->pitch;
    for (uint32_t x = 0; x < c->p->width; ++x) {
        uint32_t packed = sc_shade_pixel(c->s, c->p, &c->b, x, y);
        memcpy(row + 4 * (size_t)x, &packed, 4);
    }
}

void sc_cpu_shade(const sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s, uint8_t *rgba,
                  size_t pitch)
{
    shade_ctx c = {.p = p, .s = s, .rgba = rgba, .pitch = pitch};
    c.b = (sc_shade_buffers){.hits = st->hits, .tests = st->tests, .tile_offsets = st->tile_offsets,
                             .tri_keys = st->tri_keys, .indices = st->indices, .positions = st->positions,
                             .normals = st->normals, .shadow_mask = st->shadow_mask,
                             .shadow_tests = st->shadow_tests};
    sc_cpu_parallel_for(st->threads, p->height, shade_row, &c);
}
