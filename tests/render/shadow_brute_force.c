/* shadow_brute_force.c - every shadow ray against every triangle, pruned by a tree of widened boxes
 * (see shadow_brute_force.h). */
#include "shadow_brute_force.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "intersect.h"

enum {
    SBF_MAX_LEVELS = 40,  /* tree levels: 2^39 leaves is far beyond 2^32 triangles */
    SBF_MAX_THREADS = 64,
    SBF_ROWS_PER_GRAB = 2 /* rows a thread takes at a time */
};

typedef struct sbf_box { float lo[3], hi[3]; } sbf_box;

struct sc_sbf_scene {
    const float *positions;
    const uint32_t *indices;
    uint32_t triangle_count;
    uint32_t count;                      /* finite triangles, in the tree */
    uint32_t *order;                     /* tree position -> triangle id */
    float *verts;                        /* count x 9: a, b, c in tree order */
    uint32_t levels;                     /* level 0: the leaves; levels - 1: the root */
    uint32_t level_size[SBF_MAX_LEVELS];
    size_t level_start[SBF_MAX_LEVELS];  /* first box of each level in boxes */
    sbf_box *boxes;
    double margin;                       /* the boxes' widening, world units */
    double build_s;                      /* seconds sc_sbf_build took */
};

static double sbf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int sbf_finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static const float *sbf_vertex(const float *positions, const uint32_t *indices, uint32_t tri, int k)
{
    return positions + 3 * (size_t)indices[3 * (size_t)tri + (size_t)k];
}

static int sbf_tri_finite(const float *positions, const uint32_t *indices, uint32_t tri)
{
    for (int k = 0; k < 3; ++k)
        if (!sbf_finite3(sbf_vertex(positions, indices, tri, k))) return 0;
    return 1;
}

/* Spreads the low 10 bits of x to every third bit (Morton code). */
static uint32_t sbf_spread10(uint32_t x)
{
    x &= 0x3FFu;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

/* Sorts keys with their payload (LSD radix, 8 bits a pass); tk, tv: scratch of the same size. */
static void sbf_radix_sort(uint32_t *keys, uint32_t *vals, uint32_t *tk, uint32_t *tv, uint32_t n)
{
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (uint32_t i = 0; i < n; ++i) count[((keys[i] >> shift) & 0xFFu) + 1]++;
        for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
        for (uint32_t i = 0; i < n; ++i) {
            const size_t at = count[(keys[i] >> shift) & 0xFFu]++;
            tk[at] = keys[i];
            tv[at] = vals[i];
        }
        memcpy(keys, tk, sizeof *keys * n);
        memcpy(vals, tv, sizeof *vals * n);
    }
}

/* The finite triangles, Morton-ordered by centroid; the scene's margin from their bounds. Returns 0,
 * -1 when memory runs out. */
static int sbf_order(sc_sbf_scene *s)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, maxabs = 0.0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->triangle_count; ++t) {
        if (!sbf_tri_finite(s->positions, s->indices, t)) continue;
        ++n;
        for (int k = 0; k < 3; ++k) {
            const float *v = sbf_vertex(s->positions, s->indices, t, k);
            for (int i = 0; i < 3; ++i) {
                lo[i] = fmin(lo[i], v[i]);
                hi[i] = fmax(hi[i], v[i]);
                maxabs = fmax(maxabs, fabs(v[i]));
            }
        }
    }
    s->count = n;
    double extent = 0.0;
    for (int i = 0; i < 3; ++i) extent = n ? fmax(extent, hi[i] - lo[i]) : 0.0;
    /* Widen by the relative margin of the scene's size and place; never 0, so flat boxes have room. */
    s->margin = SC_SBF_MARGIN_REL * (extent + maxabs) + 1e-30;
    uint32_t *keys = malloc(sizeof *keys * ((size_t)n + 1)), *tk = malloc(sizeof *tk * ((size_t)n + 1));
    uint32_t *tv = malloc(sizeof *tv * ((size_t)n + 1));
    s->order = malloc(sizeof *s->order * ((size_t)n + 1));
    if (!keys || !tk || !tv || !s->order) {
        free(keys);
        free(tk);
        free(tv);
        return -1;
    }
    uint32_t j = 0;
    for (uint32_t t = 0; t < s->triangle_count; ++t) {
        if (!sbf_tri_finite(s->positions, s->indices, t)) continue;
        uint32_t q[3];
        for (int i = 0; i < 3; ++i) {
            double c = 0.0;
            for (int k = 0; k < 3; ++k) c += sbf_vertex(s->positions, s->indices, t, k)[i];
            const double span = hi[i] - lo[i];
            const double f = span > 0.0 ? (c / 3.0 - lo[i]) / span : 0.0;
            q[i] = (uint32_t)fmin(fmax(f * 1024.0, 0.0), 1023.0);
        }
        keys[j] = sbf_spread10(q[0]) | sbf_spread10(q[1]) << 1 | sbf_spread10(q[2]) << 2;
        s->order[j++] = t;
    }
    sbf_radix_sort(keys, s->order, tk, tv, n);
    free(keys);
    free(tk);
    free(tv);
    return 0;
}

/* The triangles' vertices in tree order, the leaves' widened boxes and the levels above them. */
static int sbf_tree(sc_sbf_scene *s)
{
    const uint32_t n = s->count;
    s->verts = malloc(sizeof(float) * 9 * ((size_t)n + 1));
    const uint32_t leaves = (n + SC_SBF_LEAF - 1) / SC_SBF_LEAF;
    size_t total = 0;
    uint32_t size = leaves ? leaves : 1;
    s->levels = 0;
    for (;;) {
        s->level_start[s->levels] = total;
        s->level_size[s->levels] = size;
        total += size;
        s->levels++;
        if (size == 1) break;
        size = (size + 1) / 2;
    }
    s->boxes = malloc(sizeof *s->boxes * total);
    if (!s->verts || !s->boxes) return -1;
    for (uint32_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) memcpy(s->verts + 9 * (size_t)i + 3 * k, sbf_vertex(s->positions, s->indices, s->order[i], k), 3 * sizeof(float));
    const float m = (float)s->margin;
    for (uint32_t l = 0; l < s->level_size[0]; ++l) {
        sbf_box *b = &s->boxes[l];
        for (int i = 0; i < 3; ++i) {
            b->lo[i] = INFINITY;
            b->hi[i] = -INFINITY;
        }
        const uint32_t end = (l + 1) * SC_SBF_LEAF < n ? (l + 1) * SC_SBF_LEAF : n;
        for (uint32_t t = l * SC_SBF_LEAF; t < end; ++t)
            for (int k = 0; k < 9; ++k) {
                const float v = s->verts[9 * (size_t)t + k];
                b->lo[k % 3] = fminf(b->lo[k % 3], v);
                b->hi[k % 3] = fmaxf(b->hi[k % 3], v);
            }
        /* m is thousands of ulps of every coordinate: the rounding of these sums cannot matter. */
        for (int i = 0; i < 3; ++i) {
            b->lo[i] -= m;
            b->hi[i] += m;
        }
    }
    for (uint32_t lv = 1; lv < s->levels; ++lv) {
        const sbf_box *below = s->boxes + s->level_start[lv - 1];
        sbf_box *here = s->boxes + s->level_start[lv];
        for (uint32_t i = 0; i < s->level_size[lv]; ++i) {
            here[i] = below[2 * i];
            if (2 * i + 1 < s->level_size[lv - 1])
                for (int k = 0; k < 3; ++k) {
                    here[i].lo[k] = fminf(here[i].lo[k], below[2 * i + 1].lo[k]);
                    here[i].hi[k] = fmaxf(here[i].hi[k], below[2 * i + 1].hi[k]);
                }
        }
    }
    return 0;
}

sc_sbf_scene *sc_sbf_build(const float *positions, uint32_t vertex_count, const uint32_t *indices,
                           uint32_t triangle_count)
{
    (void)vertex_count;
    const double t0 = sbf_now();
    sc_sbf_scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->positions = positions;
    s->indices = indices;
    s->triangle_count = triangle_count;
    if (sbf_order(s) != 0 || sbf_tree(s) != 0) {
        sc_sbf_free(s);
        return NULL;
    }
    s->build_s = sbf_now() - t0;
    return s;
}

void sc_sbf_free(sc_sbf_scene *s)
{
    if (!s) return;
    free(s->order);
    free(s->verts);
    free(s->boxes);
    free(s);
}

/* Whether the segment o + t d, t in [t0, t1], meets box b (double: exact enough against the margin;
 * a NaN from 0 x inf keeps the box, which is the safe side). */
static int sbf_segment_box(const double o[3], const double inv[3], const double d[3], const sbf_box *b, double t0,
                           double t1)
{
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0.0) {
            if (o[k] < b->lo[k] || o[k] > b->hi[k]) return 0;
            continue;
        }
        double ta = ((double)b->lo[k] - o[k]) * inv[k], tb = ((double)b->hi[k] - o[k]) * inv[k];
        if (ta > tb) {
            const double x = ta;
            ta = tb;
            tb = x;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t0 > t1) return 0;
    }
    return 1;
}

typedef struct sbf_counts { uint64_t box_tests, ray_tests; } sbf_counts;

/* The shadow ray (org, dir, [0, tmax]) through the tree, skipping triangle `skip`: the first blocker
 * found, or SC_NO_HIT. */
static uint32_t sbf_trace(const sc_sbf_scene *s, uint32_t skip, const float org[3], const float dir[3], float tmax,
                          float *t_out, sbf_counts *c)
{
    if (s->count == 0) return SC_NO_HIT;
    sc_ray ray;
    sc_ray_setup(&ray, org, dir);
    double o[3], d[3], inv[3];
    for (int k = 0; k < 3; ++k) {
        o[k] = org[k];
        d[k] = dir[k];
        inv[k] = 1.0 / d[k];
    }
    /* t is in units of |dir|: a fraction of the way to a point light, a length for a directional one. */
    const double slack = isfinite(tmax) ? SC_SBF_SLACK_REL * (double)tmax : s->margin;
    const double t0 = -slack, t1 = isfinite(tmax) ? (double)tmax + slack : INFINITY;
    uint32_t stack_level[2 * SBF_MAX_LEVELS], stack_index[2 * SBF_MAX_LEVELS];
    int top = 0;
    stack_level[0] = s->levels - 1;
    stack_index[0] = 0;
    ++top;
    while (top > 0) {
        --top;
        const uint32_t lv = stack_level[top], i = stack_index[top];
        c->box_tests++;
        if (!sbf_segment_box(o, inv, d, &s->boxes[s->level_start[lv] + i], t0, t1)) continue;
        if (lv > 0) {
            for (uint32_t child = 2 * i + 2; child-- > 2 * i;)
                if (child < s->level_size[lv - 1]) {
                    stack_level[top] = lv - 1;
                    stack_index[top] = child;
                    ++top;
                }
            continue;
        }
        const uint32_t end = (i + 1) * SC_SBF_LEAF < s->count ? (i + 1) * SC_SBF_LEAF : s->count;
        for (uint32_t t = i * SC_SBF_LEAF; t < end; ++t) {
            if (s->order[t] == skip) continue;
            const float *v = s->verts + 9 * (size_t)t;
            float th, u, w;
            c->ray_tests++;
            if (sc_intersect(&ray, v, v + 3, v + 6, 0.0f, tmax, &th, &u, &w)) {
                *t_out = th;
                return s->order[t];
            }
        }
    }
    return SC_NO_HIT;
}

/* The contract's shadow ray of a hit towards light l. */
static void sbf_hit_ray(const float *positions, const uint32_t *indices, const sc_hit *hit,
                        const sc_light_params *l, float org[3], float dir[3], float *tmax)
{
    sc_shadow_ray(l, sbf_vertex(positions, indices, hit->tri, 0), sbf_vertex(positions, indices, hit->tri, 1),
                  sbf_vertex(positions, indices, hit->tri, 2), hit->u, hit->v, org, dir, tmax);
}

uint32_t sc_sbf_blocker(const sc_sbf_scene *s, const sc_hit *hit, const sc_light_params *l, float *t_out)
{
    float org[3], dir[3], tmax, t = 0.0f;
    sbf_counts c = {0, 0};
    sbf_hit_ray(s->positions, s->indices, hit, l, org, dir, &tmax);
    const uint32_t b = sbf_trace(s, hit->tri, org, dir, tmax, &t, &c);
    if (t_out) *t_out = t;
    return b;
}

uint32_t sc_sbf_blocker_exhaustive(const float *positions, const uint32_t *indices, uint32_t triangle_count,
                                   const sc_hit *hit, const sc_light_params *l, float *t_out)
{
    float org[3], dir[3], tmax;
    sbf_hit_ray(positions, indices, hit, l, org, dir, &tmax);
    sc_ray ray;
    sc_ray_setup(&ray, org, dir);
    for (uint32_t t = 0; t < triangle_count; ++t) {
        if (t == hit->tri || !sbf_tri_finite(positions, indices, t)) continue;
        float th, u, v;
        if (sc_intersect(&ray, sbf_vertex(positions, indices, t, 0), sbf_vertex(positions, indices, t, 1),
                         sbf_vertex(positions, indices, t, 2), 0.0f, tmax, &th, &u, &v)) {
            if (t_out) *t_out = th;
            return t;
        }
    }
    return SC_NO_HIT;
}

typedef struct sbf_shared {
    const sc_sbf_scene *s;
    const sc_hit *hits;
    uint32_t width, height;
    const sc_light_params *lights;
    uint32_t num_lights;
    uint8_t *out;
    atomic_uint next_row;
} sbf_shared;

typedef struct sbf_job {
    sbf_shared *sh;
    sbf_counts counts;
    uint64_t rays, blocked;
} sbf_job;

static void sbf_pixel(sbf_job *j, size_t px)
{
    const sbf_shared *sh = j->sh;
    const sc_hit *hit = &sh->hits[px];
    uint8_t mask = 0;
    if (hit->tri != SC_NO_HIT)
        for (uint32_t k = 0; k < sh->num_lights; ++k) {
            if (!sh->lights[k].shadows) continue;
            float org[3], dir[3], tmax, t;
            sbf_hit_ray(sh->s->positions, sh->s->indices, hit, &sh->lights[k], org, dir, &tmax);
            j->rays++;
            if (sbf_trace(sh->s, hit->tri, org, dir, tmax, &t, &j->counts) != SC_NO_HIT) {
                mask |= (uint8_t)(1u << k);
                j->blocked++;
            }
        }
    sh->out[px] = mask;
}

static void *sbf_rows(void *arg)
{
    sbf_job *j = arg;
    sbf_shared *sh = j->sh;
    for (;;) {
        const uint32_t y0 = atomic_fetch_add(&sh->next_row, SBF_ROWS_PER_GRAB);
        if (y0 >= sh->height) break;
        const uint32_t y1 = y0 + SBF_ROWS_PER_GRAB < sh->height ? y0 + SBF_ROWS_PER_GRAB : sh->height;
        for (uint32_t y = y0; y < y1; ++y)
            for (uint32_t x = 0; x < sh->width; ++x) sbf_pixel(j, (size_t)y * sh->width + x);
    }
    return NULL;
}

void sc_sbf_mask(const sc_sbf_scene *s, const sc_hit *hits, uint32_t width, uint32_t height,
                 const sc_light_params *lights, uint32_t num_lights, uint32_t num_threads, uint8_t *out,
                 sc_sbf_stats *stats)
{
    const double t0 = sbf_now();
    if (num_threads < 1) num_threads = 1;
    if (num_threads > SBF_MAX_THREADS) num_threads = SBF_MAX_THREADS;
    if (num_lights > SC_MAX_LIGHTS) num_lights = SC_MAX_LIGHTS;
    sbf_shared sh = {s, hits, width, height, lights, num_lights, out, 0};
    atomic_init(&sh.next_row, 0u);
    sbf_job jobs[SBF_MAX_THREADS];
    pthread_t th[SBF_MAX_THREADS];
    int started[SBF_MAX_THREADS] = {0};
    memset(jobs, 0, sizeof jobs);
    for (uint32_t i = 0; i < num_threads; ++i) jobs[i].sh = &sh;
    for (uint32_t i = 1; i < num_threads; ++i) started[i] = pthread_create(&th[i], NULL, sbf_rows, &jobs[i]) == 0;
    sbf_rows(&jobs[0]); /* takes the rows of threads that could not start too */
    for (uint32_t i = 1; i < num_threads; ++i)
        if (started[i]) pthread_join(th[i], NULL);
    if (!stats) return;
    memset(stats, 0, sizeof *stats);
    for (uint32_t i = 0; i < num_threads; ++i) {
        stats->rays += jobs[i].rays;
        stats->blocked += jobs[i].blocked;
        stats->box_tests += jobs[i].counts.box_tests;
        stats->ray_tests += jobs[i].counts.ray_tests;
    }
    stats->build_s = s->build_s;
    stats->cast_s = sbf_now() - t0;
}

uint32_t sc_sbf_lights_of(const sc_renderer *r, sc_light_params out[SC_MAX_LIGHTS])
{
    sc_light_desc d[SC_MAX_LIGHTS];
    uint32_t n = 0;
    sc_render_options o;
    memset(out, 0, sizeof(sc_light_params) * SC_MAX_LIGHTS);
    if (sc_renderer_get_lights(r, d, &n) != SC_OK || sc_renderer_get_options(r, &o) != SC_OK) return 0;
    if (n > SC_MAX_LIGHTS) n = SC_MAX_LIGHTS;
    for (uint32_t i = 0; i < n; ++i) {
        sc_light_params *p = &out[i];
        p->type = (uint32_t)d[i].type;
        p->shadows = o.shadows && !d[i].no_shadows ? 1u : 0u;
        for (int k = 0; k < 3; ++k) {
            p->pos[k] = d[i].position[k];
            p->to_light[k] = d[i].type == SC_LIGHT_DIRECTIONAL ? -d[i].direction[k] : 0.0f;
            p->color[k] = d[i].color[k] * d[i].intensity;
        }
    }
    return n;
}

uint8_t sc_sbf_shadow_bits(const sc_light_params *lights, uint32_t num_lights)
{
    uint8_t bits = 0;
    for (uint32_t i = 0; i < num_lights && i < SC_MAX_LIGHTS; ++i)
        if (lights[i].shadows) bits |= (uint8_t)(1u << i);
    return bits;
}
