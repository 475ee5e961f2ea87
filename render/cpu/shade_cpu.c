/* shade_cpu.c - shading and visualisation into RGBA8 (row 0 at the bottom) from the hit buffer:
 * sc_shade_pixel_vn (shade.h, shared with the CUDA backend) for every pixel, rows spread over
 * threads; a hit pixel shaded smooth takes its triangle's vertex normals from their one-rings
 * (sc_vertex_normal), once per run of pixels on the same triangle. */
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

/* A row of pixels. Smooth shading keeps the last hit triangle's vertex normals: neighbouring pixels
 * often hit the same triangle (all of a row's pixels on a large one), and its normals are the same
 * bits however often they are computed. */
static void shade_row(void *arg, uint32_t y, uint32_t worker)
{
    (void)worker;
    const shade_ctx *c = arg;
    uint8_t *row = c->rgba + (size_t)y * c->pitch;
    const int smooth = sc_shade_uses_vertex_normals(c->s, c->p);
    const sc_mesh_rings m = {c->b.adj_offsets, c->b.adj_tris, c->b.indices, c->b.positions};
    uint32_t cached = SC_NO_HIT;
    float vn[3][3];
    for (uint32_t x = 0; x < c->p->width; ++x) {
        const float (*have)[3] = NULL;
        const uint32_t tri = smooth ? c->b.hits[(size_t)y * c->p->width + x].tri : SC_NO_HIT;
        if (tri != SC_NO_HIT) {
            if (tri != cached) {
                for (int k = 0; k < 3; ++k) sc_vertex_normal(&m, c->b.indices[3 * (size_t)tri + k], vn[k]);
                cached = tri;
            }
            have = (const float (*)[3])vn;
        }
        uint32_t packed = sc_shade_pixel_vn(c->s, c->p, &c->b, x, y, have);
        memcpy(row + 4 * (size_t)x, &packed, 4);
    }
}

void sc_cpu_shade(const sc_cpu_state *st, const sc_frame_params *p, const sc_shade_params *s, uint8_t *rgba,
                  size_t pitch)
{
    shade_ctx c = {.p = p, .s = s, .rgba = rgba, .pitch = pitch};
    c.b = (sc_shade_buffers){.hits = st->hits, .tests = st->tests, .tile_offsets = st->tile_offsets,
                             .tri_keys = st->tri_keys, .indices = st->indices, .positions = st->positions,
                             .adj_offsets = st->adj_offsets, .adj_tris = st->adj_tris,
                             .shadow_mask = st->shadow_mask, .shadow_tests = st->shadow_tests};
    sc_cpu_parallel_for(st->threads, p->height, shade_row, &c);
}
