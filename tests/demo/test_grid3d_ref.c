/* test_grid3d_ref.c - the CPU side of the 3-D uniform grid of `split-demo grid` and `split-demo
 * particles` (app/split_demo/grid3d_host.c), without a GPU (cpu):
 *  - the CPU grid (split_multisplit_ref on the cell ids) on n = 0, 1, 7, 1000, 100003 of the demos'
 *    points and 1, 3, 64 cells per side, at the largest radius allowed and at half of it: its
 *    neighbour counts and id sums through the 27 cells equal brute force (every point, or a seeded
 *    sample for the large n), and a grid-ordered array made from it (shuffled inside each cell, as
 *    the unstable GPU split may order it) passes the demos' grouping check;
 *  - points on cell borders, one float step either side of them, on the box's faces and corners,
 *    and pairs one radius apart along an axis: the grid still finds what brute force finds;
 *  - the checks fail, naming the culprit, on crafted wrong results: a point moved to another cell,
 *    a wrong cell offset, a repeated id, a wrong neighbour count or id sum, a position or velocity
 *    one float step off the replayed trajectory;
 *  - the demos' whole pipeline emulated with the split library's CPU references (each step:
 *    integrate the cell-ordered records, cell ids, split_multisplit_ref, split_gather_ref of
 *    positions and velocities, the neighbour kernel's loop over grid positions) passes
 *    g3_check_result, the demos' check, at every step; a wrong total or a velocity gathered by a
 *    wrong index does not;
 *  - the particle step keeps points in the box; the default grid and the radius limit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid3d_host.h"
#include "sctest.h"
#include "split.h"

static char msg[512];

/* The demos' n points, by id. */
static g3_point *demo_points(size_t n)
{
    g3_point *p = malloc((n ? n : 1) * sizeof *p);
    if (p)
        for (size_t i = 0; i < n; ++i) p[i] = g3_initial_point(i);
    return p;
}

/* A grid-ordered array as the GPU produces it: the CPU grid's order, each cell's points shuffled. */
static g3_point *grid_order_of(const g3_cpu_grid *ref, uint64_t seed)
{
    g3_point *out = malloc((ref->n ? ref->n : 1) * sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < ref->n; ++i) out[i] = ref->by_id[ref->ids[i]];
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    for (uint32_t c = 0; c < ref->num_cells; ++c) {
        const uint32_t lo = ref->offsets[c], k = ref->offsets[c + 1] - lo;
        for (uint32_t j = k; j > 1; --j) { /* Fisher-Yates */
            const uint32_t r = sct_rng_below(&rng, j);
            const g3_point t = out[lo + j - 1];
            out[lo + j - 1] = out[lo + r];
            out[lo + r] = t;
        }
    }
    return out;
}

/* Counts by brute force for the ids g3_check_counts will look at (all, or the sample): an
 * independent "GPU" result. */
static void brute_counts(const g3_point *by_id, size_t n, float r2, size_t sample, uint64_t seed, uint32_t *count,
                         uint64_t *sum)
{
    const size_t checks = sample ? sample : n;
    for (size_t k = 0; k < checks && n; ++k) {
        const uint32_t id = sample ? g3_sample_id(seed, k, n) : (uint32_t)k;
        g3_count_brute(by_id, n, id, r2, &count[id], &sum[id]);
    }
}

/* The grid of by_id on g cells at radius r: grouping of a shuffled copy and counts against brute
 * force (every point when n <= 2000, else `sample` of them). */
static void check_grid_against_brute(const g3_point *by_id, size_t n, uint32_t g, float r, size_t sample,
                                     const char *what)
{
    g3_cpu_grid ref;
    SCT_REQUIRE(g3_cpu_grid_build(&ref, by_id, n, g, msg, sizeof msg) == 0);
    SCT_CHECK_EQ_U64(ref.offsets[0], 0);
    SCT_CHECK_EQ_U64(ref.offsets[ref.num_cells], n);
    g3_point *order = grid_order_of(&ref, 0x5eed + n + g);
    uint32_t *count = calloc(n ? n : 1, sizeof *count);
    uint64_t *sum = calloc(n ? n : 1, sizeof *sum);
    SCT_REQUIRE(order && count && sum);
    const int grouped = g3_check_grouping(&ref, order, ref.offsets, msg, sizeof msg);
    SCT_CHECK_MSG(grouped == 0, "%s, n %zu, g %u: grouping: %s", what, n, g, msg);
    const float r2 = g3_radius2(r);
    const size_t s = n <= 2000 ? 0 : sample;
    brute_counts(by_id, n, r2, s, 77, count, sum);
    const int counted = g3_check_counts(&ref, count, sum, r2, s, 77, 1, msg, sizeof msg);
    SCT_CHECK_MSG(counted == 0, "%s, n %zu, g %u, r %.9g: %s", what, n, g, r, msg);
    free(order), free(count), free(sum);
    g3_cpu_grid_free(&ref);
}

static void test_grid_matches_brute_force(void)
{
    static const size_t ns[] = {0, 1, 7, 1000, 100003};
    static const uint32_t gs[] = {1, 3, 64};
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ++ni)
        for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; ++gi) {
            const size_t n = ns[ni];
            const uint32_t g = gs[gi];
            g3_point *p = demo_points(n);
            SCT_REQUIRE(p != NULL);
            const float rmax = g3_max_radius(g);
            SCT_CHECK(g3_radius_ok(rmax, g));
            /* g = 1 at n 100003: every point is a neighbour of most others; a small sample */
            const size_t sample = g == 1 ? 40 : 400;
            check_grid_against_brute(p, n, g, rmax, sample, "demo points, largest radius");
            check_grid_against_brute(p, n, g, rmax / 2, sample, "demo points, half radius");
            free(p);
        }
}

/* Coordinates on and beside the borders of g cells: 0, 1, k/g, one float step either side, and
 * the same shifted by the radius. */
static size_t border_coords(uint32_t g, float r, float *c, size_t cap)
{
    size_t k = 0;
    for (uint32_t j = 0; j <= g && k + 6 <= cap; ++j) {
        const float b = (float)j / (float)g;
        c[k++] = b;
        c[k++] = nextafterf(b, 2.0f);
        c[k++] = nextafterf(b, -1.0f);
        c[k++] = b + r;
        c[k++] = nextafterf(b + r, 2.0f);
        c[k++] = nextafterf(b - r, -1.0f);
    }
    for (size_t i = 0; i < k; ++i) c[i] = c[i] < 0 ? 0 : c[i] > 1 ? 1 : c[i];
    return k;
}

static void test_borders_and_box_edges(void)
{
    static const uint32_t gs[] = {1, 3, 4};
    for (size_t gi = 0; gi < 3; ++gi) {
        const uint32_t g = gs[gi];
        const float r = g3_max_radius(g);
        float c[64];
        const size_t k = border_coords(g, r, c, 64);
        /* every (x, y, z) with x from the list and y, z from a few of it: borders, faces, corners */
        const size_t n = k * 5 * 5;
        g3_point *p = malloc(n * sizeof *p);
        SCT_REQUIRE(p != NULL);
        size_t m = 0;
        for (size_t a = 0; a < k; ++a)
            for (size_t b = 0; b < 5; ++b)
                for (size_t d = 0; d < 5; ++d) {
                    p[m].x = c[a], p[m].y = c[(b * 7) % k], p[m].z = c[(d * 11 + 3) % k];
                    p[m].id = (uint32_t)m;
                    ++m;
                }
        p[n - 1].x = 1, p[n - 1].y = 1, p[n - 1].z = 1; /* the far corner */
        p[n - 2].x = 0, p[n - 2].y = 0, p[n - 2].z = 0; /* the near corner */
        p[n - 3] = p[n - 4], p[n - 3].id = (uint32_t)(n - 3); /* two points at one position */
        check_grid_against_brute(p, n, g, r, 0, "border points");
        check_grid_against_brute(p, n, g, r / 3, 0, "border points, small radius");
        free(p);
    }
}

static void test_checks_catch_errors(void)
{
    const size_t n = 1000;
    const uint32_t g = 8;
    const float r2 = g3_radius2(0.75f / g);
    g3_point *p = demo_points(n);
    SCT_REQUIRE(p != NULL);
    g3_cpu_grid ref;
    SCT_REQUIRE(g3_cpu_grid_build(&ref, p, n, g, msg, sizeof msg) == 0);
    g3_point *order = grid_order_of(&ref, 3), *bad = malloc(n * sizeof *bad), *by_id = malloc(n * sizeof *by_id);
    uint32_t *offs = malloc((ref.num_cells + 1) * sizeof *offs), *count = malloc(n * sizeof *count);
    uint64_t *sum = malloc(n * sizeof *sum);
    SCT_REQUIRE(order && bad && by_id && offs && count && sum);
    memcpy(offs, ref.offsets, (ref.num_cells + 1) * sizeof *offs);
    SCT_REQUIRE(g3_check_grouping(&ref, order, offs, msg, sizeof msg) == 0);
    SCT_REQUIRE(g3_points_by_id(order, n, by_id, msg, sizeof msg) == 0);
    SCT_CHECK(memcmp(by_id, p, n * sizeof *p) == 0);

    /* a point moved to another cell: two records of different cells swapped (offsets unchanged) */
    memcpy(bad, order, n * sizeof *bad);
    size_t a = 0, b = n - 1;
    SCT_REQUIRE(ref.cell_of_id[bad[a].id] != ref.cell_of_id[bad[b].id]);
    const g3_point t = bad[a];
    bad[a] = bad[b], bad[b] = t;
    SCT_CHECK(g3_check_grouping(&ref, bad, offs, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "grid position 0,") != NULL, "message: %s", msg);

    /* a wrong cell offset: one cell one point longer, the next one shorter */
    uint32_t c = 0;
    while (c + 1 < ref.num_cells && offs[c + 1] == offs[c + 2]) ++c;
    SCT_REQUIRE(c + 1 < ref.num_cells);
    offs[c + 1] += 1;
    SCT_CHECK(g3_check_grouping(&ref, order, offs, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "cell offset") != NULL, "message: %s", msg);
    offs[c + 1] -= 1;
    offs[ref.num_cells] = (uint32_t)n - 1; /* the end */
    SCT_CHECK(g3_check_grouping(&ref, order, offs, msg, sizeof msg) == 1);
    offs[ref.num_cells] = (uint32_t)n;

    /* a repeated id, an id out of range */
    memcpy(bad, order, n * sizeof *bad);
    bad[17].id = bad[16].id;
    SCT_CHECK(g3_points_by_id(bad, n, by_id, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "grid position 17") != NULL, "message: %s", msg);
    bad[17].id = (uint32_t)n;
    SCT_CHECK(g3_points_by_id(bad, n, by_id, msg, sizeof msg) == 1);

    /* counts: right, then one count off, then one id sum off */
    for (uint32_t id = 0; id < n; ++id) g3_count_brute(p, n, id, r2, &count[id], &sum[id]);
    SCT_REQUIRE(g3_check_counts(&ref, count, sum, r2, 0, 0, 1, msg, sizeof msg) == 0);
    count[500] += 1;
    SCT_CHECK(g3_check_counts(&ref, count, sum, r2, 0, 0, 0, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "point 500 ") != NULL, "message: %s", msg);
    count[500] -= 1;
    uint32_t busy = 0;
    while (busy < n && count[busy] == 0) ++busy;
    SCT_REQUIRE(busy < n);
    sum[busy] += 1;
    SCT_CHECK(g3_check_counts(&ref, count, sum, r2, 0, 0, 0, msg, sizeof msg) == 1);
    sum[busy] -= 1;
    /* a sample that contains a wrong point catches it; the sample's ids are the ones checked */
    const uint32_t sampled = g3_sample_id(9, 3, n);
    count[sampled] ^= 4;
    SCT_CHECK(g3_check_counts(&ref, count, sum, r2, 10, 9, 0, msg, sizeof msg) == 1);
    count[sampled] ^= 4;
    SCT_CHECK(g3_check_counts(&ref, count, sum, r2, 10, 9, 0, msg, sizeof msg) == 0);

    /* the replay: 5 steps match; one coordinate one float step off, or a velocity of another point,
     * do not */
    g3_point *pos = malloc(n * sizeof *pos), *vel = malloc(n * sizeof *vel);
    SCT_REQUIRE(pos && vel);
    for (uint32_t id = 0; id < n; ++id) {
        pos[id] = g3_initial_point(id), vel[id] = g3_initial_velocity(id);
        for (int s = 0; s < 5; ++s) g3_integrate(&pos[id], &vel[id], 0.004f);
    }
    SCT_CHECK(g3_check_replay(pos, vel, n, 5, 0.004f, 0, 0, msg, sizeof msg) == 0);
    SCT_CHECK(g3_check_replay(pos, vel, n, 4, 0.004f, 0, 0, msg, sizeof msg) == 1);
    pos[321].y = nextafterf(pos[321].y, 2.0f);
    SCT_CHECK(g3_check_replay(pos, vel, n, 5, 0.004f, 0, 0, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "point 321 ") != NULL, "message: %s", msg);
    pos[321].y = nextafterf(pos[321].y, -1.0f);
    const g3_point keep = vel[123];
    vel[123] = vel[124];
    SCT_CHECK(g3_check_replay(pos, vel, n, 5, 0.004f, 0, 0, msg, sizeof msg) == 1);
    SCT_CHECK_MSG(strstr(msg, "point 123 ") != NULL, "message: %s", msg);
    vel[123] = keep;
    SCT_CHECK(g3_check_replay(pos, vel, n, 5, 0.004f, 0, 0, msg, sizeof msg) == 0);
    free(pos), free(vel);

    free(order), free(bad), free(by_id), free(offs), free(count), free(sum), free(p);
    g3_cpu_grid_free(&ref);
}

/* The neighbour kernel of grid3d.cu on the host: grid position i against the grid-ordered records
 * of the 27 cells around its cell (9 rows of consecutive cells), skipping position i itself. */
static void kernel_count(const g3_point *sorted, const uint32_t *offsets, uint32_t g, float r2, size_t n,
                         uint32_t *count_by_id, uint64_t *id_sum_by_id, uint64_t *total)
{
    for (size_t i = 0; i < n; ++i) {
        const g3_point p = sorted[i];
        const uint32_t cx = g3_cell_coord(p.x, g), cy = g3_cell_coord(p.y, g), cz = g3_cell_coord(p.z, g);
        const uint32_t x0 = cx ? cx - 1 : 0, x1 = cx + 1 < g ? cx + 1 : g - 1;
        const uint32_t z0 = cz ? cz - 1 : 0, z1 = cz + 1 < g ? cz + 1 : g - 1;
        const uint32_t y0 = cy ? cy - 1 : 0, y1 = cy + 1 < g ? cy + 1 : g - 1;
        uint32_t hits = 0;
        uint64_t sum = 0;
        for (uint32_t z = z0; z <= z1; ++z)
            for (uint32_t y = y0; y <= y1; ++y)
                for (uint32_t j = offsets[g3_cell_id(x0, y, z, g)]; j < offsets[g3_cell_id(x1, y, z, g) + 1]; ++j)
                    if (j != i && g3_within(p, sorted[j], r2)) ++hits, sum += sorted[j].id;
        count_by_id[p.id] = hits;
        id_sum_by_id[p.id] = sum;
        *total += hits;
    }
}

static void test_pipeline_emulated(void)
{
    const size_t n = 3001;
    const uint32_t g = 9, steps = 4;
    const float r = 0.75f / g, dt = 0.01f;
    g3_point *pos[2], *vel[2];
    for (int k = 0; k < 2; ++k) pos[k] = malloc(n * sizeof(g3_point)), vel[k] = malloc(n * sizeof(g3_point));
    uint32_t *cells = malloc(n * 4), *gidx = malloc(n * 4), *offs = malloc((g * g * g + 1) * 4);
    uint32_t *count = malloc(n * 4);
    uint64_t *sum = malloc(n * 8);
    SCT_REQUIRE(pos[0] && pos[1] && vel[0] && vel[1] && cells && gidx && offs && count && sum);
    for (size_t i = 0; i < n; ++i) pos[0][i] = g3_initial_point(i), vel[0][i] = g3_initial_velocity(i);
    int cur = 0;
    for (uint32_t step = 1; step <= steps; ++step) {
        for (size_t i = 0; i < n; ++i) {
            g3_integrate(&pos[cur][i], &vel[cur][i], dt);
            cells[i] = g3_cell_of(pos[cur][i], g);
        }
        split_desc d;
        memset(&d, 0, sizeof d);
        d.n = n, d.buckets.rule = SPLIT_BUCKETS_IDS, d.buckets.num_buckets = g * g * g, d.buckets.bucket_ids = cells;
        d.gather_index = gidx, d.bucket_offsets = offs, d.unstable = 1;
        SCT_REQUIRE_OK(split_multisplit_ref(&d));
        split_move_desc mp = {pos[cur], pos[1 - cur], sizeof(g3_point), gidx, n, 1};
        split_move_desc mv = {vel[cur], vel[1 - cur], sizeof(g3_point), gidx, n, 1};
        SCT_REQUIRE_OK(split_gather_ref(&mp));
        SCT_REQUIRE_OK(split_gather_ref(&mv));
        cur = 1 - cur;
        uint64_t total = 0;
        kernel_count(pos[cur], offs, g, g3_radius2(r), n, count, sum, &total);
        SCT_CHECK(total > 0);
        const int rc = g3_check_result(pos[cur], vel[cur], offs, count, sum, total, n, g, r, step, dt, msg, sizeof msg);
        SCT_CHECK_MSG(rc == 0, "step %u: %s", step, msg);
        if (step == steps) {
            SCT_CHECK(g3_check_result(pos[cur], vel[cur], offs, count, sum, total + 2, n, g, r, step, dt, msg,
                                      sizeof msg) == 1);
            SCT_CHECK_MSG(strstr(msg, "neighbour total") != NULL, "message: %s", msg);
            SCT_CHECK(g3_check_result(pos[cur], vel[cur], offs, count, sum, total, n, g, r, step - 1, dt, msg,
                                      sizeof msg) == 1);
            const g3_point t = vel[cur][10];
            vel[cur][10] = vel[cur][11], vel[cur][11] = t; /* a velocity gather by a wrong index */
            SCT_CHECK(g3_check_result(pos[cur], vel[cur], offs, count, sum, total, n, g, r, step, dt, msg,
                                      sizeof msg) == 1);
            SCT_CHECK_MSG(strstr(msg, "velocity") != NULL, "message: %s", msg);
        }
    }
    for (int k = 0; k < 2; ++k) free(pos[k]), free(vel[k]);
    free(cells), free(gidx), free(offs), free(count), free(sum);
}

static void test_particles_stay_in_box(void)
{
    for (uint32_t id = 0; id < 3000; ++id) {
        g3_point p = g3_initial_point(id), v = g3_initial_velocity(id);
        int inside = 1;
        for (int s = 0; s < 2000 && inside; ++s) {
            g3_integrate(&p, &v, 0.01f);
            inside = p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1 && p.z >= 0 && p.z <= 1 && p.id == id && v.id == id;
        }
        SCT_CHECK_MSG(inside, "point %u left the box: (%g, %g, %g)", id, p.x, p.y, p.z);
        if (!inside) return;
    }
    /* clusters: a quarter of the points, each within 0.15 of its centre */
    const g3_point c0 = g3_initial_point(0), c3 = g3_initial_point(19);
    SCT_CHECK(fabsf(c0.x - 0.3f) <= 0.15f && fabsf(c0.y - 0.3f) <= 0.15f && fabsf(c0.z - 0.35f) <= 0.15f);
    SCT_CHECK(fabsf(c3.x - 0.7f) <= 0.15f && fabsf(c3.y - 0.7f) <= 0.15f && fabsf(c3.z - 0.35f) <= 0.15f);
}

static void test_sizes_and_limits(void)
{
    SCT_CHECK_EQ_U64(g3_auto_grid(0), 1);
    SCT_CHECK_EQ_U64(g3_auto_grid(31), 1);
    SCT_CHECK_EQ_U64(g3_auto_grid(32), 2);
    SCT_CHECK_EQ_U64(g3_auto_grid(1u << 20), 64);
    SCT_CHECK_EQ_U64(g3_auto_grid(1u << 24), 161);
    SCT_CHECK_EQ_U64(g3_auto_grid(UINT64_MAX / 2), G3_MAX_G);
    SCT_CHECK(g3_radius_ok(0.999 / 64, 64));
    SCT_CHECK(!g3_radius_ok(1.0 / 64, 64));
    SCT_CHECK(!g3_radius_ok(0, 64));
    SCT_CHECK(g3_radius_ok(g3_max_radius(64), 64));
    SCT_CHECK(!g3_radius_ok(nextafterf(g3_max_radius(64), 1.0f), 64));
    SCT_CHECK(!g3_radius_ok(-0.001, 1));
    /* the subcommands' grid and radius: defaults, a radius that lowers G, a radius too big for G */
    uint32_t g = 0;
    float r = 0;
    SCT_CHECK(g3_resolve_grid(1u << 20, 0, 0, "test", &g, &r) == 0 && g == 64 && r == (float)(0.75 / 64));
    SCT_CHECK(g3_resolve_grid(1u << 20, 0, 0.1, "test", &g, &r) == 0 && g == 9 && r == 0.1f);
    SCT_CHECK(g3_resolve_grid(1u << 20, 8, 0, "test", &g, &r) == 0 && g == 8 && r == (float)(0.75 / 8));
    g = 77;
    SCT_CHECK(g3_resolve_grid(1u << 20, 8, 0.2, "test", &g, &r) == 2 && g == 77);
    /* cell ids: corners of the box and the clamp of 1.0 into the last cell */
    const g3_point lo = {0, 0, 0, 0}, hi = {1, 1, 1, 0};
    SCT_CHECK_EQ_U64(g3_cell_of(lo, 256), 0);
    SCT_CHECK_EQ_U64(g3_cell_of(hi, 256), (1u << 24) - 1);
    SCT_CHECK_EQ_U64(g3_cell_coord(0.5f, 4), 2);
    SCT_CHECK_EQ_U64(g3_cell_coord(nextafterf(0.5f, 0), 4), 1);
    SCT_CHECK_EQ_U64(g3_cell_coord(NAN, 4), 0);
    SCT_CHECK_EQ_U64(g3_cell_coord(-1.0f, 4), 0);
    SCT_CHECK_EQ_U64(g3_cell_coord(7.0f, 4), 3);
    /* a grid of 2^24 cells builds (the reference takes the wide bucket count) */
    g3_point *p = demo_points(5000);
    SCT_REQUIRE(p != NULL);
    check_grid_against_brute(p, 5000, 256, g3_max_radius(256), 0, "2^24 cells");
    free(p);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "grid3d_ref");
    SCT_RUN(test_grid_matches_brute_force);
    SCT_RUN(test_borders_and_box_edges);
    SCT_RUN(test_checks_catch_errors);
    SCT_RUN(test_pipeline_emulated);
    SCT_RUN(test_particles_stay_in_box);
    SCT_RUN(test_sizes_and_limits);
    return sct_end();
}
