/* grid3d_host.h - the host side of the 3-D uniform grid of `split-demo grid` and `split-demo
 * particles` (grid3d.cu builds the same grid on the GPU), shared with their CPU test
 * (tests/demo/test_grid3d_ref.c):
 *   - the point record (three floats and the point's id, 16 bytes), used for positions and velocities;
 *   - the input as pure functions of the point's index: g3_initial_point (uniform in the unit box,
 *     plus four dense clusters holding a quarter of the points, so cells are uneven) and
 *     g3_initial_velocity; the particle step g3_integrate (gravity, elastic bounce off the walls);
 *   - the cell of a point (G^3 cells of side 1/G over the box [0, 1]^3, cell id (cz * G + cy) * G + cx)
 *     and the neighbour test d^2 <= r^2;
 * all inline and __host__ __device__ under nvcc (G3_HD), written with one rounding per operation
 * (__fmul_rn / __fadd_rn / __fsub_rn on the device, so no FMA contraction; plain float operations on
 * the host, where C11 does not contract across them), so host and device agree bit for bit; then
 *   - the CPU grid: each point's cell, and split_multisplit_ref on the cell ids (IDS rule) giving the
 *     points grouped by cell and the cell offsets; the neighbour count (and the sum of the neighbours'
 *     ids) of a point through the 27 cells around it, and by brute force over all points;
 *   - the checks of a GPU result against them, each naming the first mismatch in a message.
 * Neighbours of a point: the other points q (q's id differs) with g3_within(p, q, r^2); the radius
 * is at most G3_MAX_RADIUS_CELLS of the cell side, which (with one rounding per operation) keeps
 * every such q within one cell of p's in each axis, so the 27 cells find exactly what brute force
 * finds. Plain C; usable from .c and .cu files alike. */
#ifndef SPLIT_DEMO_GRID3D_HOST_H
#define SPLIT_DEMO_GRID3D_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define G3_HD __host__ __device__
#else
#define G3_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A point's position (or velocity) and its id: 16 bytes, moved as one record. */
typedef struct g3_point {
    float x, y, z;
    uint32_t id;
} g3_point;

enum { G3_MAX_G = 256 };                /* cells per side: up to 2^24 cells, the wide multisplit's limit */
#define G3_MAX_RADIUS_CELLS 0.999       /* the largest radius, as a fraction of the cell side */
#define G3_GRAVITY 1.0f                 /* g3_integrate: acceleration along -z, box units per time^2 */
#define G3_CLUSTERS 4                   /* dense clusters of g3_initial_point */

/* ---- one rounding per operation, the same on host and device ---- */
G3_HD static inline float g3_mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

G3_HD static inline float g3_add(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

G3_HD static inline float g3_sub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

G3_HD static inline uint64_t g3_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform draw k of point i in [0, 1): a 24-bit integer times 2^-24 (exact). */
G3_HD static inline float g3_unit(uint64_t i, uint32_t k)
{
    const uint32_t bits = (uint32_t)(g3_mix64(i * 16u + k + 0x9E3779B97F4A7C15ull) >> 40);
    return g3_mul((float)bits, 1.0f / 16777216.0f);
}

G3_HD static inline float g3_clamp01(float v)
{
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* One coordinate of a cluster point: centre + 0.1 * (u1 + u2 + u3 - 1.5), denser at the centre. */
G3_HD static inline float g3_cluster_coord(float centre, uint64_t i, uint32_t k)
{
    const float s = g3_add(g3_add(g3_unit(i, k), g3_unit(i, k + 1)), g3_unit(i, k + 2));
    return g3_clamp01(g3_add(centre, g3_mul(0.1f, g3_sub(s, 1.5f))));
}

/* The initial position of point i: one point in 16 goes to each of the 4 clusters (a quarter of
 * all), the rest are uniform in [0, 1)^3. */
G3_HD static inline g3_point g3_initial_point(uint64_t i)
{
    g3_point p;
    const uint32_t slot = (uint32_t)(i % 16u);
    if (slot < G3_CLUSTERS) {
        const uint32_t c = slot;
        p.x = g3_cluster_coord((c & 1u) ? 0.7f : 0.3f, i, 0);
        p.y = g3_cluster_coord((c & 2u) ? 0.7f : 0.3f, i, 3);
        p.z = g3_cluster_coord(c == 0 || c == 3 ? 0.35f : 0.65f, i, 6);
    } else {
        p.x = g3_unit(i, 0);
        p.y = g3_unit(i, 1);
        p.z = g3_unit(i, 2);
    }
    p.id = (uint32_t)i;
    return p;
}

/* The initial velocity of point i: each component uniform in [-0.5, 0.5). */
G3_HD static inline g3_point g3_initial_velocity(uint64_t i)
{
    g3_point v;
    v.x = g3_sub(g3_unit(i, 9), 0.5f);
    v.y = g3_sub(g3_unit(i, 10), 0.5f);
    v.z = g3_sub(g3_unit(i, 11), 0.5f);
    v.id = (uint32_t)i;
    return v;
}

/* One axis of a step: move by v * dt, reflect off the walls 0 and 1 (velocity reversed), clamp. */
G3_HD static inline void g3_move_axis(float *p, float *v, float dt)
{
    float x = g3_add(*p, g3_mul(*v, dt));
    if (x < 0.0f) {
        x = -x;
        *v = -*v;
    } else if (x > 1.0f) {
        x = g3_sub(2.0f, x);
        *v = -*v;
    }
    *p = g3_clamp01(x);
}

/* One step of the particle system: gravity along -z, then the move with elastic bounces. */
G3_HD static inline void g3_integrate(g3_point *p, g3_point *v, float dt)
{
    v->z = g3_sub(v->z, g3_mul(G3_GRAVITY, dt));
    g3_move_axis(&p->x, &v->x, dt);
    g3_move_axis(&p->y, &v->y, dt);
    g3_move_axis(&p->z, &v->z, dt);
}

/* The cell coordinate of x in [0, 1] on g cells per side (x outside, or NaN, is clamped). */
G3_HD static inline uint32_t g3_cell_coord(float x, uint32_t g)
{
    const float s = g3_mul(x, (float)g);
    if (!(s > 0.0f)) return 0;
    if (s >= (float)g) return g - 1;
    return (uint32_t)s;
}

G3_HD static inline uint32_t g3_cell_id(uint32_t cx, uint32_t cy, uint32_t cz, uint32_t g)
{
    return (cz * g + cy) * g + cx;
}

G3_HD static inline uint32_t g3_cell_of(g3_point p, uint32_t g)
{
    return g3_cell_id(g3_cell_coord(p.x, g), g3_cell_coord(p.y, g), g3_cell_coord(p.z, g), g);
}

/* The neighbour test: d^2 <= r2, d^2 summed as ((dx^2 + dy^2) + dz^2), one rounding per operation. */
G3_HD static inline int g3_within(g3_point p, g3_point q, float r2)
{
    const float dx = g3_sub(q.x, p.x), dy = g3_sub(q.y, p.y), dz = g3_sub(q.z, p.z);
    return g3_add(g3_add(g3_mul(dx, dx), g3_mul(dy, dy)), g3_mul(dz, dz)) <= r2;
}

/* ---- host: sizes and options ---- */

/* The default cells per side for n points: the largest G <= G3_MAX_G with G^3 <= n / 4 (at least 1). */
uint32_t g3_auto_grid(uint64_t n);

/* 1 when 0 < r <= G3_MAX_RADIUS_CELLS / g. */
int g3_radius_ok(double r, uint32_t g);

/* The largest float radius g3_radius_ok takes on g cells per side. */
float g3_max_radius(uint32_t g);

/* The grid size and radius of `split-demo grid` and `particles` from their options (g_opt 0: from
 * n, no finer than r_opt allows; r_opt 0: 0.75 of a cell): 0, or 2 after printing (prefixed by who)
 * that the radius is more than 0.999 of a cell. */
int g3_resolve_grid(uint64_t n, uint32_t g_opt, double r_opt, const char *who, uint32_t *g, float *r);

/* r^2 as both sides test it (one float multiply). */
float g3_radius2(float r);

/* ---- host: the CPU grid ---- */

typedef struct g3_cpu_grid {
    uint32_t g, num_cells;
    size_t n;
    const g3_point *by_id; /* the points, indexed by id (not owned) */
    uint32_t *cell_of_id;  /* n: the cell of each point */
    uint32_t *ids;         /* n: point ids grouped by cell, ascending within a cell (split_multisplit_ref) */
    uint32_t *offsets;     /* num_cells + 1: cell c holds ids[offsets[c] .. offsets[c+1]) */
} g3_cpu_grid;

/* Builds the grid of the n points by_id[0 .. n-1] (by_id[k].id == k) on g cells per side: each
 * point's cell, then split_multisplit_ref (IDS rule: bucket = cell, gather_index = the ids grouped
 * by cell, bucket_offsets = the cell offsets). Returns 0, or 1 with a message in msg (allocation or
 * the reference's error). */
int g3_cpu_grid_build(g3_cpu_grid *grid, const g3_point *by_id, size_t n, uint32_t g, char *msg, size_t cap);
void g3_cpu_grid_free(g3_cpu_grid *grid);

/* The neighbours of point id through the 27 cells around its cell: their number and the sum of
 * their ids. */
void g3_count_grid(const g3_cpu_grid *grid, uint32_t id, float r2, uint32_t *count, uint64_t *id_sum);

/* The same by brute force over all n points of by_id. */
void g3_count_brute(const g3_point *by_id, size_t n, uint32_t id, float r2, uint32_t *count, uint64_t *id_sum);

/* Empty cells and the most points in one cell of a cell-offset table. */
void g3_cell_stats(const uint32_t *offsets, uint32_t num_cells, uint32_t *empty, uint32_t *max_per_cell);

/* ---- host: the checks (0 pass, 1 fail with the first mismatch named in msg) ---- */

/* The points of a grid-ordered array (n records, e.g. copied back from the GPU) indexed by id:
 * every id must be below n and appear once. by_id gets n records. */
int g3_points_by_id(const g3_point *grid_order, size_t n, g3_point *by_id, char *msg, size_t cap);

/* A grid-ordered array and its cell offsets (num_cells + 1 entries) against the CPU grid: the same
 * offsets, and every record in the range of the cell the CPU puts it in (so each cell holds the
 * same set of ids, in any order). */
int g3_check_grouping(const g3_cpu_grid *ref, const g3_point *grid_order, const uint32_t *offsets, char *msg,
                      size_t cap);

/* Neighbour counts and id sums (by id, n each) against the CPU grid's count: for every point when
 * sample == 0, else for `sample` ids drawn from seed. brute != 0: the CPU grid's count is itself
 * compared with brute force over all points for the same ids. */
int g3_check_counts(const g3_cpu_grid *ref, const uint32_t *count_by_id, const uint64_t *id_sum_by_id, float r2,
                    size_t sample, uint64_t seed, int brute, char *msg, size_t cap);

/* The ids checked by g3_check_counts with sample > 0: draw k of seed. */
uint32_t g3_sample_id(uint64_t seed, size_t k, size_t n);

/* Positions (and velocities, when vel_by_id is not NULL) by id against the initial state advanced by
 * `steps` steps of g3_integrate, bit for bit: every point when sample == 0, else `sample` ids drawn
 * from seed. */
int g3_check_replay(const g3_point *pos_by_id, const g3_point *vel_by_id, size_t n, uint32_t steps, float dt,
                    size_t sample, uint64_t seed, char *msg, size_t cap);

/* Every check of one GPU result (host copies), in order, stopping at the first failure:
 *   ids: grid_order holds each id below n once (g3_points_by_id);
 *   positions: each point where `steps` steps of g3_integrate from its initial state put it (0 steps:
 *     the initial points), and its velocity (vel_order, grid order like grid_order, when not NULL);
 *   grouping: the CPU grid built from these positions (split_multisplit_ref) has the same cell
 *     offsets, and each cell the same points (g3_check_grouping);
 *   counts: count_by_id and id_sum_by_id against the CPU grid's count for every point when
 *     n <= G3_CHECK_ALL_MAX, else for G3_CHECK_SAMPLE seeded ids; brute force over all points for every
 *     point when n <= G3_BRUTE_ALL_MAX, else for max(16, 2^28 / n) seeded ids;
 *   total: count_total (the device's running sum) equals the sum of count_by_id.
 * Returns 0, or 1 with "<what failed>: <the first mismatch>" in msg. */
enum { G3_CHECK_ALL_MAX = 1 << 20, G3_CHECK_SAMPLE = 8192, G3_BRUTE_ALL_MAX = 20000 };
int g3_check_result(const g3_point *grid_order, const g3_point *vel_order, const uint32_t *offsets,
                    const uint32_t *count_by_id, const uint64_t *id_sum_by_id, uint64_t count_total, size_t n,
                    uint32_t g, float r, uint32_t steps, float dt, char *msg, size_t cap);

/* Parses a whole decimal or exponent-form number (strtod, nothing after it) that is finite and > 0.
 * Returns 0, or -1 (nothing printed). */
int g3_parse_positive(const char *s, double *out);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_GRID3D_HOST_H */
