/* shade_cpu.c - shading and visualisation into RGBA8 (row 0 at the bottom) from the hit buffer:
 * Lambert + ambient with one directional light (two-sided: the normal is turned towards the
 * viewer), smooth (interpolated vertex normals) or flat, over a vertical background gradient; or
 * one of the visualisation modes (sc_view_mode). Rows are spread over threads. */
#include <math.h>
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "render_tuning.h"
#include "shade.h"

typedef struct shade_ctx {
    const sc_cpu_state *st;
    const sc_frame_params *p;
    const sc_shading_desc *s;
    uint8_t *rgba;
    size_t pitch;
    float light[3];              /* unit vector towards the light */
} shade_ctx;

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) { v[0] /= l; v[1] /= l; v[2] /= l; }
}

/* The shading normal of a hit, facing the viewer. */
static void hit_normal(const shade_ctx *c, const sc_hit *h, const float dir[3], float n[3])
{
    const sc_cpu_state *st = c->st;
    const uint32_t *f = st->indices + 3 * (size_t)h->tri;
    if (c->p->flat_shading) {
        const float *a = st->positions + 3 * (size_t)f[0], *b = st->positions + 3 * (size_t)f[1],
                    *d = st->positions + 3 * (size_t)f[2];
        float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    } else {
        float w0 = 1.0f - h->u - h->v;
        const float *n0 = st->normals + 3 * (size_t)f[0], *n1 = st->normals + 3 * (size_t)f[1],
                    *n2 = st->normals + 3 * (size_t)f[2];
        for (int k = 0; k < 3; ++k) n[k] = w0 * n0[k] + h->u * n1[k] + h->v * n2[k];
    }
    normalize3(n);
    if (n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 0.0f) {
        n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2];
    }
}

static void shade_row(void *arg, uint32_t y, uint32_t worker)
{
    (void)worker;
    const shade_ctx *c = arg;
    const sc_frame_params *p = c->p;
    const sc_shading_desc *s = c->s;
    const sc_cpu_state *st = c->st;
    uint8_t *row = c->rgba + (size_t)y * c->pitch;
    float gy = ((float)y + 0.5f) / (float)p->height;
    float bg[3];
    for (int k = 0; k < 3; ++k) bg[k] = s->background_bottom[k] + (s->background_top[k] - s->background_bottom[k]) * gy;
    for (uint32_t x = 0; x < p->width; ++x) {
        size_t px = (size_t)y * p->width + x;
        const sc_hit *h = &st->hits[px];
        float rgb[3] = {bg[0], bg[1], bg[2]};
        switch (s->mode) {
        case SC_VIEW_TILE_HEAT: {
            uint32_t tile = (y / p->tile_size) * p->tiles_x + x / p->tile_size;
            float count = (float)(st->tile_offsets[tile + 1] - st->tile_offsets[tile]);
            sc_heat(sc_log_scale(count, s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TILE), rgb);
            break;
        }
        case SC_VIEW_TESTS_HEAT:
            sc_heat(sc_log_scale((float)st->tests[px], s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TESTS), rgb);
            break;
        default:
            if (h->tri == SC_NO_HIT) break;
            if (s->mode == SC_VIEW_TRIANGLE_ID) {
                sc_id_colour(h->tri, rgb);
            } else if (s->mode == SC_VIEW_DEPTH) {
                float span = p->depth_max - p->depth_min;
                float v = span > 0.0f ? (h->depth - p->depth_min) / span : 0.0f;
                rgb[0] = rgb[1] = rgb[2] = 1.0f - sc_clamp01(v);
            } else if (s->mode == SC_VIEW_SLAB) {
                sc_hue((float)sc_slab_of(p, st->tri_keys[h->tri]) / (float)p->num_slabs, rgb);
            } else {
                float dir[3], n[3];
                sc_pixel_ray_dir(p, x, y, dir);
                hit_normal(c, h, dir, n);
                if (s->mode == SC_VIEW_NORMALS) {
                    for (int k = 0; k < 3; ++k) rgb[k] = 0.5f * (n[k] + 1.0f);
                } else {
                    float lambert = n[0] * c->light[0] + n[1] * c->light[1] + n[2] * c->light[2];
                    float amb = s->ambient < 0.0f ? 0.0f : s->ambient;
                    float l = amb + (1.0f - amb) * (lambert > 0.0f ? lambert : 0.0f);
                    for (int k = 0; k < 3; ++k) rgb[k] = s->albedo[k] * l;
                }
            }
            break;
        }
        uint32_t packed = sc_pack_rgba8(rgb[0], rgb[1], rgb[2]);
        memcpy(row + 4 * (size_t)x, &packed, 4);
    }
}

void sc_cpu_shade(const sc_cpu_state *st, const sc_frame_params *p, const sc_shading_desc *s, uint8_t *rgba,
                  size_t pitch)
{
    shade_ctx c = {.st = st, .p = p, .s = s, .rgba = rgba, .pitch = pitch};
    for (int k = 0; k < 3; ++k) c.light[k] = -s->light_dir[k];
    normalize3(c.light);
    sc_cpu_parallel_for(st->threads, p->height, shade_row, &c);
}
