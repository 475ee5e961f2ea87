/* shadow_cases.c - the shadow tests' scenes and frame check (see shadow_cases.h). */
#include "shadow_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dense_scene.h"
#include "render_test_util.h"
#include "sctest.h"

enum { SHADOW_PRINT_WRONG = 8 };

static double shadow_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint32_t shadow_threads(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 64 ? 64u : (uint32_t)n;
}

static int popcount8(uint8_t b)
{
    int n = 0;
    for (; b; b &= (uint8_t)(b - 1)) ++n;
    return n;
}

void shadow_frame_free(shadow_frame *f)
{
    free(f->hits);
    free(f->positions);
    free(f->mask);
    free(f->ref);
    memset(f, 0, sizeof *f);
}

sc_renderer *shadow_renderer(sc_backend backend, const shadow_case *c)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = c->width;
    d.height = c->height;
    d.cull_back_faces = c->cull;
    d.initial_ref_capacity = c->initial_ref_capacity;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: sc_renderer_create(%ux%u): %s", c->name, c->width, c->height, sc_last_error());
        return NULL;
    }
    const sc_mesh_data md = sc_mesh_view(c->mesh);
    sc_render_options o;
    memset(&o, 0, sizeof o);
    o.cull_back_faces = c->cull;
    o.shadows = c->shadows;
    const int has_camera = memcmp(c->camera.eye, c->camera.target, sizeof c->camera.eye) != 0;
    if (sc_renderer_set_mesh(r, &md) != SC_OK || (has_camera && sc_renderer_set_camera(r, &c->camera) != SC_OK) ||
        sc_renderer_set_deform(r, &c->deform) != SC_OK || sc_renderer_set_options(r, &o) != SC_OK ||
        sc_renderer_set_lights(r, c->num_lights ? c->lights : NULL, c->num_lights) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: setting up the renderer: %s", c->name, sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* After a frame rendered with r: its stats, hits, positions, mask and lights into f (allocated). */
static int shadow_read_back(sc_renderer *r, const shadow_case *c, shadow_frame *f, const char *what)
{
    memset(f, 0, sizeof *f);
    f->width = c->width;
    f->height = c->height;
    const size_t npix = (size_t)c->width * c->height;
    f->hits = malloc(npix * sizeof *f->hits);
    f->positions = malloc(sizeof(float) * 3 * ((size_t)c->mesh->vertex_count + 1));
    f->mask = malloc(npix + 1);
    if (!f->hits || !f->positions || !f->mask) {
        sct_fail(__FILE__, __LINE__, "%s: out of memory", what);
        shadow_frame_free(f);
        return -1;
    }
    if (sc_renderer_stats(r, &f->stats) != SC_OK || sc_renderer_read_hits(r, f->hits) != SC_OK ||
        sc_renderer_read_positions(r, f->positions) != SC_OK || sc_renderer_read_shadows(r, f->mask) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: read-back failed: %s", what, sc_last_error());
        shadow_frame_free(f);
        return -1;
    }
    f->num_lights = sc_sbf_lights_of(r, f->lights);
    for (size_t i = 0; i < npix; ++i) f->hit_pixels += f->hits[i].tri != SC_NO_HIT;
    return 0;
}

int shadow_render(sc_renderer *r, const shadow_case *c, const float *positions, shadow_frame *f, const char *what)
{
    memset(f, 0, sizeof *f);
    sc_frame_desc fd;
    memset(&fd, 0, sizeof fd);
    fd.time = c->time;
    fd.positions = positions;
    if (sc_renderer_render(r, &fd) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: render failed: %s", what, sc_last_error());
        return -1;
    }
    return shadow_read_back(r, c, f, what);
}

int shadow_render_case(sc_backend backend, const shadow_case *c, const float *positions, shadow_frame *f)
{
    memset(f, 0, sizeof *f);
    sc_renderer *r = shadow_renderer(backend, c);
    if (!r) return -1;
    const int rc = shadow_render(r, c, positions, f, c->name);
    sc_renderer_destroy(r);
    return rc;
}

/* "point at (x, y, z)" or "directional towards (x, y, z)" (the unit vector to the light). */
static void describe_light(const sc_light_params *l, char *buf, size_t size)
{
    const float *v = l->type == SC_LIGHT_POINT ? l->pos : l->to_light;
    snprintf(buf, size, "%s (%.9g, %.9g, %.9g)", l->type == SC_LIGHT_POINT ? "point at" : "directional towards",
             (double)v[0], (double)v[1], (double)v[2]);
}

/* "tri 12 at t 0.5" or "none". */
static void describe_blocker(uint32_t tri, float t, char *buf, size_t size)
{
    if (tri == SC_NO_HIT) snprintf(buf, size, "none");
    else snprintf(buf, size, "tri %u at t %.9g", tri, (double)t);
}

/* One wrong (pixel, light): what the renderer said, what the reference found with the tree and
 * without it (the two must agree: otherwise the reference's pruning is wrong). */
static void report_wrong(const shadow_case *c, const shadow_frame *f, const sc_sbf_scene *s, size_t px, uint32_t k,
                         const char *what)
{
    const sc_hit *h = &f->hits[px];
    const sc_light_params *l = &f->lights[k];
    float tt = 0.0f, te = 0.0f;
    const uint32_t tree = sc_sbf_blocker(s, h, l, &tt);
    const uint32_t all = sc_sbf_blocker_exhaustive(f->positions, c->mesh->indices, c->mesh->triangle_count, h, l, &te);
    char light[128], b_tree[64], b_all[64];
    describe_light(l, light, sizeof light);
    describe_blocker(tree, tt, b_tree, sizeof b_tree);
    describe_blocker(all, te, b_all, sizeof b_all);
    sct_fail(__FILE__, __LINE__,
             "%s: pixel (%zu, %zu) light %u, %s: renderer %s, reference %s; hit tri %u u %.9g v %.9g depth %.9g; "
             "blocker: reference %s, every triangle %s%s",
             what, px % f->width, px / f->width, k, light, (f->mask[px] >> k & 1u) ? "in shadow" : "lit",
             (f->ref[px] >> k & 1u) ? "in shadow" : "lit", h->tri, (double)h->u, (double)h->v, (double)h->depth,
             b_tree, b_all, (tree == SC_NO_HIT) != (all == SC_NO_HIT) ? " -- THE REFERENCE'S PRUNING IS WRONG" : "");
}

/* The mask against the reference, bit for bit. */
static void compare_masks(const shadow_case *c, shadow_frame *f, const sc_sbf_scene *s, const char *what)
{
    const size_t npix = (size_t)f->width * f->height;
    f->wrong = f->in_shadow = 0;
    for (size_t px = 0; px < npix; ++px) {
        f->in_shadow += (uint64_t)popcount8(f->ref[px]);
        const uint8_t diff = (uint8_t)(f->mask[px] ^ f->ref[px]);
        if (!diff) continue;
        for (uint32_t k = 0; k < 8; ++k) {
            if (!(diff >> k & 1u)) continue;
            if (f->wrong < SHADOW_PRINT_WRONG) {
                if (k < f->num_lights) {
                    report_wrong(c, f, s, px, k, what);
                } else {
                    sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu): mask 0x%02x has bit %u of no light", what,
                             px % f->width, px / f->width, f->mask[px], k);
                }
            }
            f->wrong++;
        }
    }
}

/* sc_frame_stats's shadow counters against the mask and the lights. */
static void check_stats(sc_backend backend, const shadow_frame *f, const char *what)
{
    const sc_frame_stats *st = &f->stats;
    const uint8_t bits = sc_sbf_shadow_bits(f->lights, f->num_lights);
    const uint32_t nshadow = (uint32_t)popcount8(bits);
    const size_t npix = (size_t)f->width * f->height;
    uint64_t set = 0;
    for (size_t px = 0; px < npix; ++px) set += (uint64_t)popcount8(f->mask[px]);
    SCT_CHECK_MSG(st->hit_pixels == f->hit_pixels, "%s: stats.hit_pixels %llu, %llu pixels hit", what,
                  (unsigned long long)st->hit_pixels, (unsigned long long)f->hit_pixels);
    SCT_CHECK_MSG(st->shadow_lights == nshadow, "%s: stats.shadow_lights %u, %u lights with shadows", what,
                  st->shadow_lights, nshadow);
    SCT_CHECK_MSG(st->shadow_receivers == f->hit_pixels * nshadow,
                  "%s: stats.shadow_receivers %llu, hit pixels x lights with shadows = %llu x %u", what,
                  (unsigned long long)st->shadow_receivers, (unsigned long long)f->hit_pixels, nshadow);
    SCT_CHECK_MSG(st->shadow_rays_blocked == set, "%s: stats.shadow_rays_blocked %llu, %llu bits set in the mask",
                  what, (unsigned long long)st->shadow_rays_blocked, (unsigned long long)set);
    SCT_CHECK_MSG(st->shadow_rays_early <= st->shadow_receivers, "%s: stats.shadow_rays_early %llu > receivers %llu",
                  what, (unsigned long long)st->shadow_rays_early, (unsigned long long)st->shadow_receivers);
    if (nshadow == 0 || f->hit_pixels == 0) {
        SCT_CHECK_MSG(st->shadow_ray_tests == 0 && st->shadow_references == 0 && st->light_views == 0 &&
                          st->shadow_rays_blocked == 0,
                      "%s: no shadow pass, yet stats say %llu tests, %llu references, %u light views", what,
                      (unsigned long long)st->shadow_ray_tests, (unsigned long long)st->shadow_references,
                      st->light_views);
    } else {
        uint32_t lo = 0, hi = 0;
        for (uint32_t k = 0; k < f->num_lights; ++k) {
            if (!f->lights[k].shadows) continue;
            lo += 1;
            hi += f->lights[k].type == SC_LIGHT_POINT ? 6u : 1u;
        }
        SCT_CHECK_MSG(st->light_views >= lo && st->light_views <= hi, "%s: stats.light_views %u, not in [%u, %u]", what,
                      st->light_views, lo, hi);
        SCT_CHECK_MSG(st->shadow_ray_tests >= set, "%s: stats.shadow_ray_tests %llu < %llu rays blocked", what,
                      (unsigned long long)st->shadow_ray_tests, (unsigned long long)set);
    }
    if (backend == SC_BACKEND_CPU)
        SCT_CHECK_MSG(st->shadow_overflow_passes == 0, "%s: CPU stats.shadow_overflow_passes %u", what,
                      st->shadow_overflow_passes);
}

/* A case must test something: some (pixel, light) pair in shadow and some lit. */
static void check_not_vacuous(const shadow_case *c, const shadow_frame *f, const char *what)
{
    SCT_CHECK_MSG(f->hit_pixels > 0, "%s: no pixel hit", what);
    if (!c->expect_shadow) return;
    const uint64_t pairs = f->hit_pixels * (uint64_t)popcount8(sc_sbf_shadow_bits(f->lights, f->num_lights));
    SCT_CHECK_MSG(f->in_shadow > 0 && f->in_shadow < pairs,
                  "%s: the reference has %llu of %llu (pixel, light) pairs in shadow: the case tests nothing", what,
                  (unsigned long long)f->in_shadow, (unsigned long long)pairs);
}

/* One frame of r against the reference: 0 and the frame in *f, or -1 after an sctest failure. */
static int check_frame(sc_backend backend, sc_renderer *r, const shadow_case *c, const float *positions,
                       const char *what, shadow_frame *f)
{
    const double t0 = shadow_now();
    if (shadow_render(r, c, positions, f, what) != 0) return -1;
    const double t1 = shadow_now();
    const size_t npix = (size_t)f->width * f->height;
    sc_sbf_scene *s = sc_sbf_build(f->positions, c->mesh->vertex_count, c->mesh->indices, c->mesh->triangle_count);
    f->ref = malloc(npix + 1);
    if (!s || !f->ref) {
        sct_fail(__FILE__, __LINE__, "%s: the reference ran out of memory", what);
        sc_sbf_free(s);
        shadow_frame_free(f);
        return -1;
    }
    sc_sbf_stats bs;
    sc_sbf_mask(s, f->hits, f->width, f->height, f->lights, f->num_lights, shadow_threads(), f->ref, &bs);
    compare_masks(c, f, s, what);
    sc_sbf_free(s);
    const sc_frame_stats *st = &f->stats;
    const double *ms = st->stage_ms;
    printf("  %s: %llu wrong of %llu shadow rays (%llu in shadow), %llu hit pixels, %u lights (%u with shadows); "
           "render %.2f s (frame %.1f ms, shadow stages %.1f + %.1f + %.1f + %.1f ms, %.3g caster references, %.3g "
           "shadow tests, %u grows, %u overflow passes, %u shadow overflow passes), reference %.2f s (tree %.2f s, "
           "%.3g box tests, %.3g ray tests)\n",
           what, (unsigned long long)f->wrong, (unsigned long long)bs.rays, (unsigned long long)f->in_shadow,
           (unsigned long long)f->hit_pixels, f->num_lights, popcount8(sc_sbf_shadow_bits(f->lights, f->num_lights)),
           t1 - t0, st->frame_ms, ms[SC_STAGE_SHADOW_RECEIVERS], ms[SC_STAGE_SHADOW_EMIT], ms[SC_STAGE_SHADOW_SPLIT],
           ms[SC_STAGE_SHADOW_CAST], (double)st->shadow_references, (double)st->shadow_ray_tests, st->capacity_grows,
           st->overflow_passes, st->shadow_overflow_passes, bs.build_s + bs.cast_s, bs.build_s, (double)bs.box_tests,
           (double)bs.ray_tests);
    fflush(stdout);
    SCT_CHECK_MSG(f->wrong == 0, "%s: %llu wrong (pixel, light) shadow decisions", what, (unsigned long long)f->wrong);
    check_stats(backend, f, what);
    check_not_vacuous(c, f, what);
    if (c->extra) c->extra(c, f, what);
    return 0;
}

int shadow_check_case(sc_backend backend, const shadow_case *c, const float *positions, shadow_frame *keep)
{
    sc_renderer *r = shadow_renderer(backend, c);
    if (!r) return -1;
    /* With a tiny initial capacity, a second frame: the first overflows (CPU: grows and redoes it;
     * CUDA: casts it without the slabs), the second runs on the grown buffers. */
    const int frames = c->initial_ref_capacity ? 2 : 1;
    shadow_frame f;
    int rc = 0;
    for (int i = 0; i < frames && rc == 0; ++i) {
        char what[256];
        snprintf(what, sizeof what, "%s: %s %ux%u%s", backend == SC_BACKEND_CUDA ? "cuda" : "cpu", c->name, c->width,
                 c->height, frames == 1 ? "" : i == 0 ? ", frame 1" : ", frame 2");
        rc = check_frame(backend, r, c, positions, what, &f);
        if (rc != 0) break;
        if (i + 1 < frames) {
            shadow_frame_free(&f);
        } else if (i > 0) {
            SCT_CHECK_MSG(f.stats.overflow_passes == 0 && f.stats.shadow_overflow_passes == 0,
                          "%s: the frame after the grow overflowed again (%u eye, %u shadow overflow passes)", what,
                          f.stats.overflow_passes, f.stats.shadow_overflow_passes);
        }
    }
    sc_renderer_destroy(r);
    if (rc != 0) return -1;
    if (keep) *keep = f;
    else shadow_frame_free(&f);
    return 0;
}

/* ---- Scenes ---------------------------------------------------------------------------------- */

static void tm_quad(test_mesh *t, const float a[3], const float b[3], const float c[3], const float d[3])
{
    const uint32_t i = tm_vertex(t, a[0], a[1], a[2]), j = tm_vertex(t, b[0], b[1], b[2]);
    const uint32_t k = tm_vertex(t, c[0], c[1], c[2]), l = tm_vertex(t, d[0], d[1], d[2]);
    tm_triangle(t, i, j, k);
    tm_triangle(t, i, k, l);
}

/* The plane y = y0 over [lo, hi]^2 in x and z, n x n quads sharing vertices, facing +y. */
static void tm_plane(test_mesh *t, float lo, float hi, float y0, uint32_t n)
{
    const uint32_t base = t->m.vertex_count;
    for (uint32_t j = 0; j <= n; ++j)
        for (uint32_t i = 0; i <= n; ++i)
            tm_vertex(t, lo + (hi - lo) * (float)i / (float)n, y0, lo + (hi - lo) * (float)j / (float)n);
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t a = base + j * (n + 1) + i, b = a + (n + 1), c = b + 1, d = a + 1;
            tm_triangle(t, a, b, c);
            tm_triangle(t, a, c, d);
        }
}

/* One face of a box: o + u i / n + v j / n, n x n quads facing u x v, diagonals alternating. */
static void tm_box_face(test_mesh *t, const float o[3], const float u[3], const float v[3], uint32_t n)
{
    const uint32_t base = t->m.vertex_count;
    for (uint32_t j = 0; j <= n; ++j)
        for (uint32_t i = 0; i <= n; ++i) {
            const float fi = (float)i / (float)n, fj = (float)j / (float)n;
            tm_vertex(t, o[0] + u[0] * fi + v[0] * fj, o[1] + u[1] * fi + v[1] * fj, o[2] + u[2] * fi + v[2] * fj);
        }
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t p00 = base + j * (n + 1) + i, p10 = p00 + 1, p01 = p00 + (n + 1), p11 = p01 + 1;
            if ((i + j) % 2) {
                tm_triangle(t, p00, p10, p11);
                tm_triangle(t, p00, p11, p01);
            } else {
                tm_triangle(t, p00, p10, p01);
                tm_triangle(t, p10, p11, p01);
            }
        }
}

/* A closed axis-aligned box lo..hi, n x n quads a face, counter-clockwise outwards. Dyadic corners
 * and a power-of-two n keep every vertex exact, so neighbouring faces share their edges exactly. */
static void tm_box(test_mesh *t, const float lo[3], const float hi[3], uint32_t n)
{
    const float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    const float X[3] = {dx, 0, 0}, Y[3] = {0, dy, 0}, Z[3] = {0, 0, dz};
    const float px[3] = {hi[0], lo[1], lo[2]}, py[3] = {lo[0], hi[1], lo[2]}, pz[3] = {lo[0], lo[1], hi[2]};
    tm_box_face(t, px, Y, Z, n); /* +x */
    tm_box_face(t, lo, Z, Y, n); /* -x */
    tm_box_face(t, py, Z, X, n); /* +y */
    tm_box_face(t, lo, X, Z, n); /* -y */
    tm_box_face(t, pz, X, Y, n); /* +z */
    tm_box_face(t, lo, Y, X, n); /* -z */
}

/* Where a model is, for placing lights: bounding-box centre and radius (as the program frames it),
 * the box, and the eye. */
typedef struct scene_place {
    float c[3], r, lo[3], hi[3], eye[3];
} scene_place;

static scene_place place_of(const sc_mesh *m, const sc_camera_desc *cam)
{
    scene_place s;
    memset(&s, 0, sizeof s);
    for (int k = 0; k < 3; ++k) s.lo[k] = s.hi[k] = m->positions[k];
    for (uint32_t i = 1; i < m->vertex_count; ++i)
        for (int k = 0; k < 3; ++k) {
            const float v = m->positions[3 * (size_t)i + k];
            s.lo[k] = v < s.lo[k] ? v : s.lo[k];
            s.hi[k] = v > s.hi[k] ? v : s.hi[k];
        }
    float r2 = 0.0f;
    for (int k = 0; k < 3; ++k) {
        s.c[k] = 0.5f * (s.lo[k] + s.hi[k]);
        const float e = 0.5f * (s.hi[k] - s.lo[k]);
        r2 += e * e;
        s.eye[k] = cam->eye[k];
    }
    s.r = r2 > 0.0f ? sqrtf(r2) : 1.0f;
    return s;
}

static sc_light_desc point_light(float x, float y, float z)
{
    sc_light_desc l;
    memset(&l, 0, sizeof l);
    l.type = SC_LIGHT_POINT;
    l.position[0] = x;
    l.position[1] = y;
    l.position[2] = z;
    return l;
}

static sc_light_desc dir_light(float x, float y, float z)
{
    sc_light_desc l;
    memset(&l, 0, sizeof l);
    l.type = SC_LIGHT_DIRECTIONAL;
    l.direction[0] = x;
    l.direction[1] = y;
    l.direction[2] = z;
    return l;
}

static sc_light_desc without_shadows(sc_light_desc l)
{
    l.no_shadows = 1;
    return l;
}

/* The lights the issue names, placed around a scene. */
typedef enum light_place {
    LIGHT_ABOVE,    /* point, high above the centre */
    LIGHT_BESIDE,   /* point, level with the centre, to the side */
    LIGHT_GRAZING,  /* point, just above the bottom of the box, far to the side: grazing the floor */
    LIGHT_INSIDE,   /* point, inside the bounding box, below and off the centre */
    LIGHT_BEHIND,   /* point, behind the camera */
    LIGHT_FAR,      /* point, 10^4 radii away */
    LIGHT_HORIZON,  /* directional, nearly horizontal */
    LIGHT_DOWN      /* directional, straight down */
} light_place;

static sc_light_desc light_at(const scene_place *s, light_place where)
{
    const float *c = s->c, r = s->r;
    switch (where) {
    case LIGHT_ABOVE:
        return point_light(c[0] + 0.15f * r, c[1] + 2.5f * r, c[2] + 0.1f * r);
    case LIGHT_BESIDE:
        return point_light(c[0] + 2.5f * r, c[1] + 0.15f * r, c[2] - 0.35f * r);
    case LIGHT_GRAZING:
        return point_light(c[0] - 3.0f * r, s->lo[1] + 0.01f * r, c[2] - 0.8f * r);
    case LIGHT_INSIDE:
        return point_light(c[0] + 0.25f * r, c[1] - 0.2f * r, c[2] + 0.2f * r);
    case LIGHT_BEHIND: {
        float p[3];
        for (int k = 0; k < 3; ++k) p[k] = s->eye[k] + 0.5f * (s->eye[k] - c[k]);
        return point_light(p[0], p[1] + 0.3f * r, p[2]);
    }
    case LIGHT_FAR: {
        const float k = 1e4f * r / sqrtf(6.0f);
        return point_light(c[0] + k, c[1] + 2.0f * k, c[2] + k);
    }
    case LIGHT_HORIZON:
        return dir_light(1.0f, -0.01f, 0.2f);
    case LIGHT_DOWN:
    default:
        return dir_light(0.0f, -1.0f, 0.0f);
    }
}

static sc_camera_desc camera_at(float ex, float ey, float ez, float tx, float ty, float tz)
{
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    c.eye[0] = ex; c.eye[1] = ey; c.eye[2] = ez;
    c.target[0] = tx; c.target[1] = ty; c.target[2] = tz;
    c.near_plane = 0.05f;
    c.far_plane = 100.0f;
    return c;
}

/* A case of mesh m with lights at the given places (a place | LIGHT_NO_SHADOWS: without shadows). */
enum { LIGHT_NO_SHADOWS = 0x100 };

static shadow_case make_case(const char *name, const sc_mesh *m, uint32_t w, uint32_t h, const sc_camera_desc *cam,
                             const int *places, uint32_t num_lights, int cull)
{
    shadow_case c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.mesh = m;
    c.width = w;
    c.height = h;
    c.camera = *cam;
    c.shadows = 1;
    c.cull = cull;
    c.expect_shadow = 1;
    const scene_place s = place_of(m, cam);
    c.num_lights = num_lights;
    for (uint32_t i = 0; i < num_lights; ++i) {
        c.lights[i] = light_at(&s, (light_place)(places[i] & 0xFF));
        if (places[i] & LIGHT_NO_SHADOWS) c.lights[i] = without_shadows(c.lights[i]);
    }
    return c;
}

static sc_deform_desc twist(float amount)
{
    sc_deform_desc d;
    memset(&d, 0, sizeof d);
    d.twist.amount = amount;
    return d;
}

/* The small scene: a plane of shared-vertex quads, a closed sphere over it, three overlapping and
 * intersecting quads over the sphere (two share an edge) and a wall standing on the plane. */
static void small_scene(test_mesh *t)
{
    tm_plane(t, -4.0f, 4.0f, 0.0f, 12);
    const float sc[3] = {0.0f, 1.3f, 0.0f};
    tm_sphere(t, sc, 1.0f, 12, 16, sct_base_seed() + 340);
    const float q1[4][3] = {{-1.4f, 2.7f, -0.2f}, {-1.4f, 2.7f, 1.0f}, {-0.2f, 2.7f, 1.0f}, {-0.2f, 2.7f, -0.2f}};
    const float q2[4][3] = {{-0.8f, 2.6f, -0.5f}, {-0.8f, 2.9f, 0.7f}, {0.4f, 2.9f, 0.7f}, {0.4f, 2.6f, -0.5f}};
    const float q3[4][3] = {{0.4f, 2.6f, -0.5f}, {0.4f, 2.9f, 0.7f}, {1.3f, 3.1f, 0.7f}, {1.3f, 3.0f, -0.5f}};
    const float wall[4][3] = {{2.8f, 0.0f, -1.5f}, {2.8f, 1.4f, -1.5f}, {2.8f, 1.4f, 0.5f}, {2.8f, 0.0f, 0.5f}};
    tm_quad(t, q1[0], q1[1], q1[2], q1[3]);
    tm_quad(t, q2[0], q2[1], q2[2], q2[3]);
    tm_quad(t, q3[0], q3[1], q3[2], q3[3]);
    tm_quad(t, wall[0], wall[1], wall[2], wall[3]);
}

static sc_camera_desc small_camera(void) { return camera_at(1.0f, 4.2f, 7.5f, 0.0f, 0.9f, 0.0f); }

/* ---- The reference on its own --------------------------------------------------------------- */

/* The tree against every-triangle on every pixel of a frame (hits from the eye-ray brute force). */
static void reference_agrees(const sc_mesh *m, const sc_camera_desc *cam, uint32_t w, uint32_t h,
                             const sc_light_params *lights, uint32_t n, const char *what)
{
    sc_renderer *r = make_renderer(w, h, 0, 0, 0);
    if (!r) return;
    const sc_mesh_data md = sc_mesh_view(m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK_OK(sc_renderer_set_camera(r, cam));
    const sc_frame_params p = test_params(r);
    sc_renderer_destroy(r);
    const size_t npix = (size_t)w * h;
    sc_hit *hits = malloc(npix * sizeof *hits);
    uint8_t *mask = malloc(npix);
    sc_brute_force(&p, m->positions, m->indices, m->triangle_count, shadow_threads(), hits);
    sc_sbf_scene *s = sc_sbf_build(m->positions, m->vertex_count, m->indices, m->triangle_count);
    SCT_REQUIRE(s && hits && mask);
    sc_sbf_mask(s, hits, w, h, lights, n, shadow_threads(), mask, NULL);
    uint64_t bad = 0, shadowed = 0, rays = 0;
    for (size_t px = 0; px < npix; ++px) {
        if (hits[px].tri == SC_NO_HIT) {
            SCT_CHECK_MSG(mask[px] == 0, "%s: pixel %zu without a hit has mask 0x%02x", what, px, mask[px]);
            continue;
        }
        for (uint32_t k = 0; k < n; ++k) {
            if (!lights[k].shadows) continue;
            float t;
            const int all = sc_sbf_blocker_exhaustive(m->positions, m->indices, m->triangle_count, &hits[px],
                                                      &lights[k], &t) != SC_NO_HIT;
            ++rays;
            shadowed += (uint64_t)all;
            if (all != (int)(mask[px] >> k & 1u) && bad++ < 5)
                sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu) light %u: tree %d, every triangle %d", what,
                         px % w, px / w, k, mask[px] >> k & 1u, all);
        }
    }
    SCT_CHECK_MSG(bad == 0, "%s: tree and every-triangle differ on %llu rays", what, (unsigned long long)bad);
    SCT_CHECK_MSG(shadowed > 0 && shadowed < rays, "%s: %llu of %llu rays in shadow", what,
                  (unsigned long long)shadowed, (unsigned long long)rays);
    printf("  %s: tree = every triangle on %llu rays (%llu in shadow)\n", what, (unsigned long long)rays,
           (unsigned long long)shadowed);
    sc_sbf_free(s);
    free(hits);
    free(mask);
}

static sc_light_params params_point(float x, float y, float z)
{
    sc_light_params l;
    memset(&l, 0, sizeof l);
    l.type = SC_LIGHT_POINT;
    l.shadows = 1;
    l.pos[0] = x; l.pos[1] = y; l.pos[2] = z;
    return l;
}

static sc_light_params params_dir(double x, double y, double z)
{
    sc_light_params l;
    memset(&l, 0, sizeof l);
    l.type = SC_LIGHT_DIRECTIONAL;
    l.shadows = 1;
    const double n = sqrt(x * x + y * y + z * z);
    l.to_light[0] = (float)(-x / n);
    l.to_light[1] = (float)(-y / n);
    l.to_light[2] = (float)(-z / n);
    return l;
}

/* A quad over a plane, light straight above: exactly the plane pixels under the quad are in shadow
 * (away from its edges); then the tree against every triangle on the small scene. */
void shadow_cases_reference_self_check(void)
{
    test_mesh t = {0};
    tm_plane(&t, -2.0f, 2.0f, 0.0f, 8);
    const uint32_t plane_tris = t.m.triangle_count;
    const float q[4][3] = {{-0.5f, 1.0f, -0.5f}, {-0.5f, 1.0f, 0.5f}, {0.5f, 1.0f, 0.5f}, {0.5f, 1.0f, -0.5f}};
    tm_quad(&t, q[0], q[1], q[2], q[3]);
    const sc_camera_desc cam = camera_at(0.3f, 4.0f, 3.0f, 0.0f, 0.0f, 0.0f);
    sc_renderer *r = make_renderer(160, 120, 0, 0, 0);
    SCT_REQUIRE(r);
    const sc_mesh_data md = sc_mesh_view(&t.m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    SCT_CHECK_OK(sc_renderer_set_camera(r, &cam));
    const sc_frame_params p = test_params(r);
    sc_renderer_destroy(r);
    sc_hit hits[160 * 120];
    uint8_t mask[160 * 120];
    sc_brute_force(&p, t.m.positions, t.m.indices, t.m.triangle_count, 2, hits);
    const sc_light_params lights[2] = {params_point(0.0f, 100.0f, 0.0f), params_dir(0.0, -1.0, 0.0)};
    sc_sbf_scene *s = sc_sbf_build(t.m.positions, t.m.vertex_count, t.m.indices, t.m.triangle_count);
    SCT_REQUIRE(s);
    sc_sbf_mask(s, hits, 160, 120, lights, 2, 2, mask, NULL);
    long under = 0, outside = 0, bad = 0;
    for (uint32_t px = 0; px < 160 * 120; ++px) {
        const sc_hit *h = &hits[px];
        if (h->tri == SC_NO_HIT || h->tri >= plane_tris) continue;
        float dir[3];
        sc_pixel_ray_dir(&p, px % 160, px / 160, dir);
        const double x = p.eye[0] + (double)h->depth * dir[0], z = p.eye[2] + (double)h->depth * dir[2];
        /* The point light is 100 above: its shadow is the quad widened by 1 % (the light's slope). */
        const double ax = fabs(x), az = fabs(z);
        int want = -1;
        if (ax < 0.49 && az < 0.49) want = 3, ++under;
        else if (ax > 0.52 || az > 0.52) want = 0, ++outside;
        if (want >= 0 && mask[px] != want && bad++ < 5)
            sct_fail(__FILE__, __LINE__, "quad over plane: plane pixel at (%.3f, %.3f): mask %u, expected %d", x, z,
                     mask[px], want);
    }
    SCT_CHECK_MSG(bad == 0, "quad over plane: %ld wrong pixels", bad);
    SCT_CHECK_MSG(under > 200 && outside > 200, "quad over plane: %ld pixels under the quad, %ld outside", under,
                  outside);
    sc_sbf_free(s);
    sc_mesh_free(&t.m);

    test_mesh small = {0};
    small_scene(&small);
    const sc_camera_desc sc = small_camera();
    const sc_light_params ls[4] = {params_point(0.4f, 7.0f, -0.3f), params_point(1.46f, 0.33f, 1.17f),
                                   params_dir(1.0, -0.01, 0.2), params_point(-6.0f, 0.12f, -2.0f)};
    reference_agrees(&small.m, &sc, 133, 97, ls, 4, "small scene, 4 lights");
    sc_mesh_free(&small.m);
}

/* ---- Small scenes through the renderer ------------------------------------------------------ */

void shadow_cases_small_point_lights(shadow_runner run)
{
    test_mesh t = {0};
    small_scene(&t);
    const sc_camera_desc cam = small_camera();
    const int places[4] = {LIGHT_ABOVE, LIGHT_BESIDE, LIGHT_GRAZING, LIGHT_INSIDE};
    shadow_case c = make_case("small scene, point lights above, beside, grazing, inside the box", &t.m, 333, 257, &cam,
                              places, 4, 0);
    run(&c);
    c.name = "small scene, point lights above, beside, grazing, inside the box, culling";
    c.cull = 1;
    c.width = 257;
    c.height = 333;
    run(&c);
    sc_mesh_free(&t.m);
}

void shadow_cases_small_far_lights(shadow_runner run)
{
    test_mesh t = {0};
    small_scene(&t);
    const sc_camera_desc cam = small_camera();
    const int places[4] = {LIGHT_BEHIND, LIGHT_FAR, LIGHT_HORIZON, LIGHT_DOWN};
    shadow_case c = make_case("small scene, behind the camera, 1e4 radii, horizon, straight down, culling", &t.m, 333,
                              257, &cam, places, 4, 1);
    run(&c);
    c.name = "small scene, behind the camera, 1e4 radii, horizon, straight down";
    c.cull = 0;
    c.width = 320;
    c.height = 199;
    run(&c);
    sc_mesh_free(&t.m);
}

void shadow_cases_small_deform_grow(shadow_runner run)
{
    test_mesh t = {0};
    small_scene(&t);
    const sc_camera_desc cam = small_camera();
    const int a[3] = {LIGHT_ABOVE | LIGHT_NO_SHADOWS, LIGHT_HORIZON, LIGHT_BESIDE};
    shadow_case c = make_case("small scene twisted, reference capacity 1, a light without shadows", &t.m, 333, 257,
                              &cam, a, 3, 1);
    c.deform = twist(1.0f);
    c.time = 0.9f;
    c.initial_ref_capacity = 1;
    run(&c);
    const int b[3] = {LIGHT_DOWN, LIGHT_INSIDE, LIGHT_FAR};
    c = make_case("small scene twisted, reference capacity 64", &t.m, 301, 203, &cam, b, 3, 0);
    c.deform = twist(-0.8f);
    c.time = 1.7f;
    c.initial_ref_capacity = 64;
    run(&c);
    sc_mesh_free(&t.m);
}

/* Shadows off, no lights, or every light without shadows: the mask is 0 everywhere (the reference
 * is all 0 then, and shadow_check_case's counters check that no shadow pass ran). */
void shadow_cases_small_off(shadow_runner run)
{
    test_mesh t = {0};
    small_scene(&t);
    const sc_camera_desc cam = small_camera();
    const int places[3] = {LIGHT_ABOVE, LIGHT_BESIDE, LIGHT_HORIZON};
    shadow_case c = make_case("small scene, shadows off", &t.m, 333, 257, &cam, places, 3, 0);
    c.shadows = 0;
    c.expect_shadow = 0;
    run(&c);
    c.name = "small scene, shadows on, no lights";
    c.shadows = 1;
    c.num_lights = 0;
    run(&c);
    c.name = "small scene, shadows on, every light without shadows";
    c.num_lights = 3;
    for (int i = 0; i < 3; ++i) c.lights[i].no_shadows = 1;
    run(&c);
    sc_mesh_free(&t.m);
}

/* ---- No leaks: a closed convex occluder over a plane, checked against geometry ------------- */

/* Triangles [0, plane_tris) are the plane y = 0; the rest a closed convex occluder: a box lo..hi, or
 * a tessellated sphere that contains the ball (c, r_in) and lies in the ball (c, r_out). */
typedef struct no_leak_scene {
    uint32_t plane_tris;
    int is_box;
    double lo[3], hi[3];
    double c[3], r_in, r_out;
} no_leak_scene;

/* Whether the shadow ray's path from p (to the point light, or towards a directional one) meets the
 * occluder grown (grow > 0) or shrunk (grow < 0) by a relative margin. */
static int occluder_meets(const no_leak_scene *s, const sc_light_params *l, const double p[3], double grow)
{
    double d[3];
    const double smax = l->type == SC_LIGHT_POINT ? 1.0 : INFINITY;
    for (int k = 0; k < 3; ++k) d[k] = l->type == SC_LIGHT_POINT ? (double)l->pos[k] - p[k] : (double)l->to_light[k];
    if (!s->is_box) {
        double cp[3], dd = 0.0, dc = 0.0;
        for (int k = 0; k < 3; ++k) {
            cp[k] = s->c[k] - p[k];
            dd += d[k] * d[k];
            dc += d[k] * cp[k];
        }
        double t = dc / dd;
        t = t < 0.0 ? 0.0 : t > smax ? smax : t;
        double dist2 = 0.0;
        for (int k = 0; k < 3; ++k) dist2 += (cp[k] - t * d[k]) * (cp[k] - t * d[k]);
        const double rad = grow > 0.0 ? s->r_out * (1.0 + grow) : s->r_in * (1.0 + grow);
        return dist2 < rad * rad;
    }
    double t0 = 0.0, t1 = smax;
    for (int k = 0; k < 3; ++k) {
        const double m = grow * (s->hi[k] - s->lo[k]);
        const double lo = s->lo[k] - m, hi = s->hi[k] + m;
        if (d[k] == 0.0) {
            if (p[k] <= lo || p[k] >= hi) return 0;
            continue;
        }
        double ta = (lo - p[k]) / d[k], tb = (hi - p[k]) / d[k];
        if (ta > tb) {
            const double x = ta;
            ta = tb;
            tb = x;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
        if (t0 >= t1) return 0;
    }
    return 1;
}

/* Plane pixels whose path to the light crosses the shrunk occluder must be in shadow and those that
 * miss the grown one lit; occluder pixels whose triangle faces away from the light must be in shadow
 * (their ray leaves the closed mesh through it: a leak through an edge or vertex shows here) and
 * those facing it lit. Light 0 is the one checked. */
static void no_leak_check(const shadow_case *c, const shadow_frame *f, const char *what)
{
    const no_leak_scene *s = c->extra_data;
    const sc_light_params *l = &f->lights[0];
    const size_t npix = (size_t)f->width * f->height;
    uint64_t counts[4] = {0, 0, 0, 0}, bad = 0; /* plane shadowed, plane lit, occluder back, occluder front */
    static const char *const kinds[4] = {"plane pixel in the exact shadow", "plane pixel outside the shadow",
                                         "occluder pixel facing away from the light",
                                         "occluder pixel facing the light"};
    for (size_t px = 0; px < npix; ++px) {
        const sc_hit *h = &f->hits[px];
        if (h->tri == SC_NO_HIT) continue;
        const float *v[3];
        for (int k = 0; k < 3; ++k) v[k] = f->positions + 3 * (size_t)c->mesh->indices[3 * (size_t)h->tri + k];
        double p[3], e1[3], e2[3];
        for (int k = 0; k < 3; ++k) {
            e1[k] = (double)v[1][k] - v[0][k];
            e2[k] = (double)v[2][k] - v[0][k];
            p[k] = v[0][k] + h->u * e1[k] + h->v * e2[k];
        }
        int kind = -1;
        if (h->tri < s->plane_tris) {
            if (occluder_meets(s, l, p, -1e-3)) kind = 0;
            else if (!occluder_meets(s, l, p, 1e-3)) kind = 1;
        } else {
            const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                                 e1[0] * e2[1] - e1[1] * e2[0]};
            double tl[3], nn = 0.0, ll = 0.0, nl = 0.0;
            for (int k = 0; k < 3; ++k) {
                tl[k] = l->type == SC_LIGHT_POINT ? (double)l->pos[k] - p[k] : (double)l->to_light[k];
                nn += n[k] * n[k];
                ll += tl[k] * tl[k];
                nl += n[k] * tl[k];
            }
            const double cosang = nl / sqrt(nn * ll);
            if (cosang < -0.02) kind = 2;
            else if (cosang > 0.02) kind = 3;
        }
        if (kind < 0) continue;
        counts[kind]++;
        const int want = kind == 0 || kind == 2, got = f->mask[px] & 1u;
        if (got != want && bad++ < 5)
            sct_fail(__FILE__, __LINE__, "%s: %s at pixel (%zu, %zu) (tri %u, point %.6f, %.6f, %.6f) is %s", what,
                     kinds[kind], px % f->width, px / f->width, h->tri, p[0], p[1], p[2], got ? "in shadow" : "lit");
    }
    SCT_CHECK_MSG(bad == 0, "%s: %llu pixels contradict the geometry", what, (unsigned long long)bad);
    for (int k = 0; k < 4; ++k)
        SCT_CHECK_MSG(counts[k] >= 50, "%s: only %llu of the %ss: the case tests too little", what,
                      (unsigned long long)counts[k], kinds[k]);
    printf("  %s: geometry agrees on %llu plane pixels in shadow, %llu lit, %llu occluder pixels facing away, %llu "
           "facing the light\n",
           what, (unsigned long long)counts[0], (unsigned long long)counts[1], (unsigned long long)counts[2],
           (unsigned long long)counts[3]);
}

void shadow_cases_no_leak_sphere(shadow_runner run)
{
    test_mesh t = {0};
    tm_plane(&t, -5.0f, 5.0f, 0.0f, 24);
    no_leak_scene s;
    memset(&s, 0, sizeof s);
    s.plane_tris = t.m.triangle_count;
    const float c[3] = {0.0f, 1.6f, 0.0f};
    const uint32_t first_vertex = t.m.vertex_count;
    tm_sphere(&t, c, 1.0f, 24, 32, sct_base_seed() + 341);
    /* r_in: the nearest face plane to the centre; r_out: the farthest vertex. */
    for (int k = 0; k < 3; ++k) s.c[k] = c[k];
    s.r_in = INFINITY;
    for (uint32_t i = first_vertex; i < t.m.vertex_count; ++i) {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += pow((double)t.m.positions[3 * (size_t)i + k] - c[k], 2.0);
        s.r_out = fmax(s.r_out, sqrt(d2));
    }
    for (uint32_t tri = s.plane_tris; tri < t.m.triangle_count; ++tri) {
        const float *v[3];
        for (int k = 0; k < 3; ++k) v[k] = t.m.positions + 3 * (size_t)t.m.indices[3 * (size_t)tri + k];
        double e1[3], e2[3], n[3], nn = 0.0, dist = 0.0;
        for (int k = 0; k < 3; ++k) {
            e1[k] = (double)v[1][k] - v[0][k];
            e2[k] = (double)v[2][k] - v[0][k];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int k = 0; k < 3; ++k) nn += n[k] * n[k];
        for (int k = 0; k < 3; ++k) dist += n[k] * ((double)v[0][k] - c[k]);
        s.r_in = fmin(s.r_in, fabs(dist) / sqrt(nn));
    }
    const sc_camera_desc cam = camera_at(0.5f, 4.0f, 7.5f, 0.0f, 0.5f, 0.3f);
    shadow_case sc;
    memset(&sc, 0, sizeof sc);
    sc.name = "no leak: closed sphere over a plane, point light";
    sc.mesh = &t.m;
    sc.width = 333;
    sc.height = 257;
    sc.camera = cam;
    sc.lights[0] = point_light(1.2f, 5.5f, -1.5f);
    sc.num_lights = 1;
    sc.shadows = 1;
    sc.expect_shadow = 1;
    sc.extra = no_leak_check;
    sc.extra_data = &s;
    run(&sc);
    sc.name = "no leak: closed sphere over a plane, point light, culling";
    sc.cull = 1;
    sc.width = 401;
    sc.height = 301;
    run(&sc);
    sc.name = "no leak: closed sphere over a plane, directional light";
    sc.cull = 0;
    sc.lights[0] = dir_light(-0.45f, -1.0f, 0.3f);
    run(&sc);
    sc_mesh_free(&t.m);
}

void shadow_cases_no_leak_box(shadow_runner run)
{
    test_mesh t = {0};
    tm_plane(&t, -6.0f, 6.0f, 0.0f, 24);
    no_leak_scene s;
    memset(&s, 0, sizeof s);
    s.plane_tris = t.m.triangle_count;
    s.is_box = 1;
    const float lo[3] = {-1.0f, 1.0f, -1.0f}, hi[3] = {1.0f, 3.0f, 1.0f};
    tm_box(&t, lo, hi, 8);
    for (int k = 0; k < 3; ++k) {
        s.lo[k] = lo[k];
        s.hi[k] = hi[k];
    }
    shadow_case c;
    memset(&c, 0, sizeof c);
    c.name = "no leak: closed box of 768 triangles over a plane, directional light";
    c.mesh = &t.m;
    c.width = 333;
    c.height = 257;
    c.camera = camera_at(1.5f, 5.0f, 8.0f, 0.3f, 0.8f, 0.3f);
    c.lights[0] = dir_light(0.35f, -1.0f, 0.25f);
    c.num_lights = 1;
    c.shadows = 1;
    c.expect_shadow = 1;
    c.extra = no_leak_check;
    c.extra_data = &s;
    run(&c);
    c.name = "no leak: closed box of 768 triangles over a plane, point light, culling";
    c.lights[0] = point_light(-2.0f, 6.5f, -1.0f);
    c.cull = 1;
    c.width = 400;
    c.height = 300;
    run(&c);
    sc_mesh_free(&t.m);
}

/* ---- Models ------------------------------------------------------------------------------------ */

/* Frames of a model: A) above, beside, grazing, inside the box, reference capacity 64; B) behind the
 * camera, 1e4 radii, horizon, straight down without shadows, culling, twisted; C) straight down and
 * inside the box, reference capacity 1 (only when wc is set). */
static void model_frames(shadow_runner run, const sc_mesh *m, const char *name, uint32_t w, uint32_t h, uint32_t wc,
                         uint32_t hc)
{
    const sc_camera_desc cam = dense_orbit_camera(m);
    char title[160];
    const int a[4] = {LIGHT_ABOVE, LIGHT_BESIDE, LIGHT_GRAZING, LIGHT_INSIDE};
    snprintf(title, sizeof title, "%s, above, beside, grazing, inside the box, capacity 64", name);
    shadow_case c = make_case(title, m, w, h, &cam, a, 4, 0);
    c.initial_ref_capacity = 64;
    run(&c);
    const int b[4] = {LIGHT_BEHIND, LIGHT_FAR, LIGHT_HORIZON, LIGHT_DOWN | LIGHT_NO_SHADOWS};
    snprintf(title, sizeof title, "%s twisted, behind the camera, 1e4 radii, horizon, culling", name);
    c = make_case(title, m, w, h, &cam, b, 4, 1);
    c.deform = twist(0.9f);
    c.time = 0.7f;
    run(&c);
    if (!wc) return;
    const int d[2] = {LIGHT_DOWN, LIGHT_INSIDE};
    snprintf(title, sizeof title, "%s, straight down, inside the box, capacity 1", name);
    c = make_case(title, m, wc, hc, &cam, d, 2, 0);
    c.initial_ref_capacity = 1;
    run(&c);
}

/* Loads a shared model (skips the test when absent). 0 when loaded. */
static int load_model(const char *file, uint32_t levels, sc_mesh *m)
{
    const int rc = dense_scene_load(file, levels, m);
    if (rc == 77) {
        char why[200];
        snprintf(why, sizeof why, "%s not found (SLABCAST_MODELS, ../shared/models, out/models)", file);
        sct_skip(why);
    }
    return rc;
}

void shadow_cases_bunny(shadow_runner run)
{
    sc_mesh m;
    if (load_model("stanford-bunny.obj.xz", 0, &m) != 0) return;
    model_frames(run, &m, "bunny", 333, 257, 517, 389);
    sc_mesh_free(&m);
}

/* The bunny standing on a ground square 40 radii wide, just below its lowest point: two triangles,
 * each spanning every tile of the frame and every light tile that holds receivers (the widest
 * casters and binning spans there are), most pixels receivers on the ground; lights placed around
 * the bunny alone (above, beside, grazing the ground: shadows as long as the frame). */
void shadow_cases_bunny_on_ground(shadow_runner run)
{
    sc_mesh m;
    if (load_model("stanford-bunny.obj.xz", 0, &m) != 0) return;
    const sc_camera_desc cam = dense_orbit_camera(&m);
    const scene_place s = place_of(&m, &cam);
    test_mesh t;
    memset(&t, 0, sizeof t);
    for (uint32_t i = 0; i < m.vertex_count; ++i)
        tm_vertex(&t, m.positions[3 * (size_t)i], m.positions[3 * (size_t)i + 1], m.positions[3 * (size_t)i + 2]);
    for (uint32_t i = 0; i < m.triangle_count; ++i)
        tm_triangle(&t, m.indices[3 * (size_t)i], m.indices[3 * (size_t)i + 1], m.indices[3 * (size_t)i + 2]);
    const float y = s.lo[1] - 0.002f * s.r, e = 20.0f * s.r;
    const float g0[3] = {s.c[0] - e, y, s.c[2] - e}, g1[3] = {s.c[0] - e, y, s.c[2] + e};
    const float g2[3] = {s.c[0] + e, y, s.c[2] + e}, g3[3] = {s.c[0] + e, y, s.c[2] - e};
    tm_quad(&t, g0, g1, g2, g3);
    const int places[3] = {LIGHT_ABOVE, LIGHT_BESIDE, LIGHT_GRAZING};
    shadow_case c = make_case("bunny on a ground of 40 radii, above, beside, grazing the ground", &t.m, 480, 360,
                              &cam, places, 3, 0);
    for (uint32_t i = 0; i < 3; ++i) c.lights[i] = light_at(&s, (light_place)places[i]); /* the bunny's places */
    run(&c);
    sc_mesh_free(&t.m);
    sc_mesh_free(&m);
}

void shadow_cases_dragon(shadow_runner run, uint32_t width, uint32_t height)
{
    sc_mesh m;
    if (load_model("stanford-dragon.obj.xz", 0, &m) != 0) return;
    model_frames(run, &m, "dragon", width, height, 0, 0);
    sc_mesh_free(&m);
}

void shadow_cases_knot(shadow_runner run, uint32_t width, uint32_t height)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(512, &m));
    const sc_camera_desc cam = dense_orbit_camera(&m);
    const int a[4] = {LIGHT_ABOVE, LIGHT_HORIZON, LIGHT_INSIDE, LIGHT_BEHIND};
    shadow_case c = make_case("built-in knot twisted, above, horizon, inside the box, behind the camera", &m, width,
                              height, &cam, a, 4, 1);
    c.deform = dense_bench_deform();
    c.time = 1.65f;
    run(&c);
    sc_mesh_free(&m);
}

void shadow_cases_dragon14m(shadow_runner run, uint32_t width, uint32_t height)
{
    sc_mesh m;
    if (load_model("stanford-dragon.obj.xz", 2, &m) != 0) return;
    const sc_camera_desc cam = dense_orbit_camera(&m);
    const scene_place s = place_of(&m, &cam);
    const float k = 3.0f * s.r / sqrtf(6.0f);
    shadow_case c;
    memset(&c, 0, sizeof c);
    c.mesh = &m;
    c.width = width;
    c.height = height;
    c.camera = cam;
    c.lights[0] = point_light(s.c[0] + k, s.c[1] + 2.0f * k, s.c[2] + k);
    c.num_lights = 1;
    c.shadows = 1;
    c.expect_shadow = 1;
    c.deform = dense_bench_deform();
    const float times[2] = {0.0f, 1.65f};
    for (int i = 0; i < 2; ++i) {
        char title[160];
        snprintf(title, sizeof title, "dragon subdivided twice (13.9M), default light, t=%g", (double)times[i]);
        c.name = title;
        c.time = times[i];
        run(&c);
    }
    sc_mesh_free(&m);
}

/* ---- View mode and API ------------------------------------------------------------------------ */

/* SC_VIEW_SHADOW: every hit pixel's colour is its mask's, distinct masks have distinct colours, and
 * the frame shows at least min_masks masks. */
static void check_view_shadow(const shadow_frame *f, const uint8_t *rgba, int min_masks, const char *what)
{
    uint32_t colour[256];
    int seen[256] = {0};
    uint64_t bad = 0;
    const size_t npix = (size_t)f->width * f->height;
    for (size_t px = 0; px < npix; ++px) {
        if (f->hits[px].tri == SC_NO_HIT) continue;
        const uint8_t m = f->mask[px];
        const uint32_t rgb = (uint32_t)rgba[4 * px] | (uint32_t)rgba[4 * px + 1] << 8 | (uint32_t)rgba[4 * px + 2] << 16;
        if (!seen[m]) {
            seen[m] = 1;
            colour[m] = rgb;
        } else if (colour[m] != rgb && bad++ < 5) {
            sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu) with mask 0x%02x is #%06x, another is #%06x", what,
                     px % f->width, px / f->width, m, rgb, colour[m]);
        }
    }
    SCT_CHECK_MSG(bad == 0, "%s: %llu pixels not of their mask's colour", what, (unsigned long long)bad);
    int masks = 0;
    for (int a = 0; a < 256; ++a) {
        if (!seen[a]) continue;
        ++masks;
        for (int b = a + 1; b < 256; ++b)
            SCT_CHECK_MSG(!seen[b] || colour[a] != colour[b], "%s: masks 0x%02x and 0x%02x share colour #%06x", what,
                          a, b, colour[a]);
    }
    SCT_CHECK_MSG(masks >= min_masks, "%s: %d distinct masks in the frame, expected at least %d", what, masks,
                  min_masks);
}

/* SC_VIEW_SHADED with lights that all cast shadows: a pixel in shadow for every light is ambient x
 * albedo, one colour, and no hit pixel is darker in any channel. */
static void check_view_shaded(const shadow_frame *f, const uint8_t *rgba, const char *what)
{
    const uint8_t all = sc_sbf_shadow_bits(f->lights, f->num_lights);
    const size_t npix = (size_t)f->width * f->height;
    int have = 0;
    uint8_t dark[3] = {0, 0, 0};
    uint64_t full = 0, bad = 0;
    for (size_t px = 0; px < npix; ++px) {
        if (f->hits[px].tri == SC_NO_HIT || f->mask[px] != all) continue;
        ++full;
        if (!have) {
            memcpy(dark, rgba + 4 * px, 3);
            have = 1;
        } else if (memcmp(dark, rgba + 4 * px, 3) != 0 && bad++ < 5) {
            sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu) in shadow for every light is (%u, %u, %u), another (%u, %u, %u)",
                     what, px % f->width, px / f->width, rgba[4 * px], rgba[4 * px + 1], rgba[4 * px + 2], dark[0],
                     dark[1], dark[2]);
        }
    }
    SCT_CHECK_MSG(full >= 20, "%s: only %llu pixels in shadow for every light", what, (unsigned long long)full);
    for (size_t px = 0; px < npix && have; ++px) {
        if (f->hits[px].tri == SC_NO_HIT) continue;
        const uint8_t *p = rgba + 4 * px;
        if ((p[0] < dark[0] || p[1] < dark[1] || p[2] < dark[2]) && bad++ < 5)
            sct_fail(__FILE__, __LINE__, "%s: pixel (%zu, %zu) mask 0x%02x is (%u, %u, %u), darker than shadow (%u, %u, %u)",
                     what, px % f->width, px / f->width, f->mask[px], p[0], p[1], p[2], dark[0], dark[1], dark[2]);
    }
    SCT_CHECK_MSG(bad == 0, "%s: %llu pixels wrongly shaded", what, (unsigned long long)bad);
}

/* Distinct colours among the hit pixels (up to 3 counted). */
static int hit_colours(const shadow_frame *f, const uint8_t *rgba)
{
    uint32_t first = 0;
    int n = 0;
    for (size_t px = 0; px < (size_t)f->width * f->height && n < 2; ++px) {
        if (f->hits[px].tri == SC_NO_HIT) continue;
        const uint32_t rgb = (uint32_t)rgba[4 * px] | (uint32_t)rgba[4 * px + 1] << 8 | (uint32_t)rgba[4 * px + 2] << 16;
        if (n == 0) first = rgb, n = 1;
        else if (rgb != first) n = 2;
    }
    return n;
}

/* Renders in view mode `mode` (shadows on or off) and reads the frame back. */
static int view_frame(sc_renderer *r, const shadow_case *c, sc_view_mode mode, int shadows,
                      shadow_render_rgba render_rgba, uint8_t *rgba, shadow_frame *f, const char *what)
{
    sc_shading_desc sh;
    memset(&sh, 0, sizeof sh);
    sh.mode = mode;
    sc_render_options o;
    memset(&o, 0, sizeof o);
    o.cull_back_faces = c->cull;
    o.shadows = shadows;
    if (sc_renderer_set_shading(r, &sh) != SC_OK || sc_renderer_set_options(r, &o) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "%s: %s", what, sc_last_error());
        return -1;
    }
    if (render_rgba(r, c->width, c->height, rgba) != 0) return -1;
    return shadow_read_back(r, c, f, what);
}

void shadow_check_view_modes(sc_backend backend, shadow_render_rgba render_rgba)
{
    test_mesh t = {0};
    small_scene(&t);
    const sc_camera_desc cam = small_camera();
    const int places[3] = {LIGHT_ABOVE, LIGHT_BESIDE, LIGHT_DOWN};
    shadow_case c = make_case("view modes", &t.m, 333, 257, &cam, places, 3, 0);
    sc_renderer *r = shadow_renderer(backend, &c);
    uint8_t *rgba = malloc(4 * (size_t)c.width * c.height);
    shadow_frame f;
    sc_view_legend lg;
    if (!r || !rgba) goto done;
    if (view_frame(r, &c, SC_VIEW_SHADOW, 1, render_rgba, rgba, &f, "shadow view") == 0) {
        check_view_shadow(&f, rgba, 4, "shadow view");
        SCT_CHECK_OK(sc_renderer_get_view_legend(r, &lg));
        SCT_CHECK_MSG(lg.mode == SC_VIEW_SHADOW && !lg.has_scale, "shadow view: legend mode %d, has_scale %d",
                      (int)lg.mode, lg.has_scale);
        shadow_frame_free(&f);
    }
    if (view_frame(r, &c, SC_VIEW_SHADOW, 0, render_rgba, rgba, &f, "shadow view, shadows off") == 0) {
        check_view_shadow(&f, rgba, 1, "shadow view, shadows off");
        SCT_CHECK_MSG(hit_colours(&f, rgba) == 1, "shadow view, shadows off: hit pixels of several colours");
        shadow_frame_free(&f);
    }
    if (view_frame(r, &c, SC_VIEW_SHADOW_TESTS, 1, render_rgba, rgba, &f, "shadow-tests view") == 0) {
        SCT_CHECK_OK(sc_renderer_get_view_legend(r, &lg));
        SCT_CHECK_MSG(lg.mode == SC_VIEW_SHADOW_TESTS && lg.has_scale && lg.log_scale && lg.max_value > 0.0f &&
                          lg.quantity && strstr(lg.quantity, "shadow"),
                      "shadow-tests view: legend mode %d, has_scale %d, log_scale %d, max %g, quantity \"%s\"",
                      (int)lg.mode, lg.has_scale, lg.log_scale, (double)lg.max_value,
                      lg.quantity ? lg.quantity : "(null)");
        SCT_CHECK_MSG(hit_colours(&f, rgba) == 2, "shadow-tests view: every hit pixel has one colour");
        const sc_backend_buffers b = test_buffers(r);
        if (backend == SC_BACKEND_CPU) {
            uint64_t sum = 0;
            SCT_CHECK_MSG(b.shadow_tests != NULL, "shadow-tests view: no per-pixel shadow tests buffer");
            for (size_t px = 0; b.shadow_tests && px < (size_t)c.width * c.height; ++px) sum += b.shadow_tests[px];
            SCT_CHECK_MSG(!b.shadow_tests || sum == f.stats.shadow_ray_tests,
                          "shadow-tests view: per-pixel tests sum to %llu, stats.shadow_ray_tests %llu",
                          (unsigned long long)sum, (unsigned long long)f.stats.shadow_ray_tests);
        }
        shadow_frame_free(&f);
    }
    if (view_frame(r, &c, SC_VIEW_SHADED, 1, render_rgba, rgba, &f, "shaded view") == 0) {
        check_view_shaded(&f, rgba, "shaded view");
        shadow_frame_free(&f);
    }
done:
    free(rgba);
    if (r) sc_renderer_destroy(r);
    sc_mesh_free(&t.m);
}

/* sc_renderer_set_lights(r, lights, count) fails with INVALID_ARGUMENT naming `field`. */
static void expect_rejected(sc_renderer *r, const sc_light_desc *lights, uint32_t count, const char *field,
                            const char *what)
{
    const sc_status st = sc_renderer_set_lights(r, lights, count);
    const char *msg = sc_last_error();
    SCT_CHECK_MSG(st == SC_ERROR_INVALID_ARGUMENT, "%s: sc_renderer_set_lights returned %d, not INVALID_ARGUMENT", what,
                  (int)st);
    SCT_CHECK_MSG(msg && strstr(msg, "sc_renderer_set_lights") && strstr(msg, field),
                  "%s: the message \"%s\" does not name sc_renderer_set_lights and %s", what, msg ? msg : "(null)",
                  field);
}

void shadow_check_light_api(sc_backend backend)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.width = 16;
    d.height = 16;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_light_desc got[SC_MAX_LIGHTS];
    uint32_t n = 99;
    SCT_CHECK_OK(sc_renderer_get_lights(r, got, &n));
    SCT_CHECK_EQ_U64(n, 0);
    sc_render_options o;
    SCT_CHECK_OK(sc_renderer_get_options(r, &o));
    SCT_CHECK_MSG(o.shadows == 0, "shadows are on by default");

    sc_light_desc l[SC_MAX_LIGHTS + 1];
    for (int i = 0; i <= SC_MAX_LIGHTS; ++i) l[i] = point_light(1.0f, 2.0f, (float)i);
    expect_rejected(r, l, SC_MAX_LIGHTS + 1, "lights", "5 lights");
    expect_rejected(r, NULL, 2, "lights", "NULL lights with count 2");
    sc_light_desc bad[3] = {point_light(0, 1, 0), point_light(0, 1, 0), dir_light(0, -1, 0)};
    bad[1].position[1] = NAN;
    expect_rejected(r, bad, 3, "lights[1].position", "NaN position");
    bad[1].position[1] = 1.0f;
    bad[1].position[2] = INFINITY;
    expect_rejected(r, bad, 3, "lights[1].position", "infinite position");
    bad[1].position[2] = 0.0f;
    bad[2].direction[1] = 0.0f;
    expect_rejected(r, bad, 3, "lights[2].direction", "zero direction");
    bad[2].direction[0] = NAN;
    expect_rejected(r, bad, 3, "lights[2].direction", "NaN direction");
    bad[2] = dir_light(0, -1, 0);
    bad[0].intensity = -1.0f;
    expect_rejected(r, bad, 3, "lights[0].intensity", "negative intensity");
    bad[0].intensity = NAN;
    expect_rejected(r, bad, 3, "lights[0].intensity", "NaN intensity");
    bad[0].intensity = 0.0f;
    bad[0].color[1] = -0.5f;
    expect_rejected(r, bad, 3, "lights[0].color", "negative colour");
    bad[0].color[1] = 0.0f;
    bad[0].type = (sc_light_type)7;
    expect_rejected(r, bad, 3, "lights[0].type", "unknown type");

    /* Resolution: colour 0 -> 1, intensity 0 -> 1, a direction made unit in double, then float. */
    sc_light_desc ok[2] = {point_light(1.0f, 2.0f, 3.0f), dir_light(3.0f, -0.3f, 4.0f)};
    ok[1].color[0] = 0.5f;
    ok[1].color[1] = 0.25f;
    ok[1].color[2] = 1.0f;
    ok[1].intensity = 2.0f;
    ok[1].no_shadows = 7;
    SCT_CHECK_OK(sc_renderer_set_lights(r, ok, 2));
    SCT_CHECK_OK(sc_renderer_get_lights(r, got, &n));
    SCT_CHECK_EQ_U64(n, 2);
    SCT_CHECK(got[0].type == SC_LIGHT_POINT && got[0].position[0] == 1.0f && got[0].position[1] == 2.0f &&
              got[0].position[2] == 3.0f);
    SCT_CHECK(got[0].color[0] == 1.0f && got[0].color[1] == 1.0f && got[0].color[2] == 1.0f && got[0].intensity == 1.0f);
    SCT_CHECK(got[0].no_shadows == 0);
    const double dd[3] = {3.0, (double)-0.3f, 4.0};
    const double len_f = sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]);
    for (int k = 0; k < 3; ++k)
        SCT_CHECK_MSG(got[1].direction[k] == (float)(dd[k] / len_f), "direction[%d] resolved to %.9g, not %.9g", k,
                      (double)got[1].direction[k], (double)(float)(dd[k] / len_f));
    SCT_CHECK(got[1].color[0] == 0.5f && got[1].color[1] == 0.25f && got[1].color[2] == 1.0f &&
              got[1].intensity == 2.0f);
    SCT_CHECK(got[1].no_shadows != 0);
    sc_light_params p[SC_MAX_LIGHTS];
    o.shadows = 1;
    SCT_CHECK_OK(sc_renderer_set_options(r, &o));
    SCT_CHECK_EQ_U64(sc_sbf_lights_of(r, p), 2);
    SCT_CHECK(p[0].shadows == 1 && p[1].shadows == 0);
    SCT_CHECK(p[1].color[0] == 1.0f && p[1].to_light[0] == -got[1].direction[0]);
    SCT_CHECK_OK(sc_renderer_get_options(r, &o));
    SCT_CHECK(o.shadows == 1);
    SCT_CHECK_OK(sc_renderer_set_lights(r, NULL, 0));
    SCT_CHECK_OK(sc_renderer_get_lights(r, got, &n));
    SCT_CHECK_EQ_U64(n, 0);
    SCT_CHECK_MSG(sc_renderer_set_lights(NULL, ok, 1) == SC_ERROR_INVALID_ARGUMENT, "a NULL renderer is accepted");
    sc_renderer_destroy(r);
}
