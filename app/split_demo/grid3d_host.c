/* grid3d_host.c - the host side of the 3-D uniform grid (grid3d_host.h): default sizes, the CPU grid
 * (split_multisplit_ref on the cell ids), neighbour counts through the grid and by brute force, and
 * the checks of a GPU result against them. Shared by demo_grid.c, demo_particles.cu and
 * tests/demo/test_grid3d_ref.c. */
#include "grid3d_host.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "split.h"

static void say(char *msg, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(char *msg, size_t cap, const char *fmt, ...)
{
    if (!msg || cap == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

uint32_t g3_auto_grid(uint64_t n)
{
    uint64_t g = 1;
    while (g < G3_MAX_G && (g + 1) * (g + 1) * (g + 1) * 4 <= n) ++g;
    return (uint32_t)g;
}

int g3_radius_ok(double r, uint32_t g)
{
    return g >= 1 && r > 0 && r * (double)g <= G3_MAX_RADIUS_CELLS;
}

float g3_max_radius(uint32_t g)
{
    float r = (float)(G3_MAX_RADIUS_CELLS / (g ? g : 1));
    while (r > 0 && !g3_radius_ok(r, g)) r = nextafterf(r, 0.0f);
    return r;
}

float g3_radius2(float r)
{
    return g3_mul(r, r);
}

/* "(cx, cy, cz)" of a cell id. */
static void cell_xyz(uint32_t cell, uint32_t g, char *out, size_t cap)
{
    snprintf(out, cap, "(%u, %u, %u)", cell % g, cell / g % g, cell / g / g);
}

int g3_cpu_grid_build(g3_cpu_grid *grid, const g3_point *by_id, size_t n, uint32_t g, char *msg, size_t cap)
{
    memset(grid, 0, sizeof *grid);
    if (g < 1 || g > G3_MAX_G) {
        say(msg, cap, "grid of %u cells per side is outside 1 .. %d", g, (int)G3_MAX_G);
        return 1;
    }
    grid->g = g;
    grid->num_cells = g * g * g;
    grid->n = n;
    grid->by_id = by_id;
    grid->cell_of_id = malloc((n ? n : 1) * sizeof *grid->cell_of_id);
    grid->ids = malloc((n ? n : 1) * sizeof *grid->ids);
    grid->offsets = malloc(((size_t)grid->num_cells + 1) * sizeof *grid->offsets);
    if (!grid->cell_of_id || !grid->ids || !grid->offsets) {
        say(msg, cap, "host allocation of the CPU grid (%zu points, %u cells) failed", n, grid->num_cells);
        g3_cpu_grid_free(grid);
        return 1;
    }
    for (size_t k = 0; k < n; ++k) grid->cell_of_id[k] = g3_cell_of(by_id[k], g);
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = n;
    d.buckets.rule = SPLIT_BUCKETS_IDS;
    d.buckets.num_buckets = grid->num_cells;
    d.buckets.bucket_ids = grid->cell_of_id;
    d.gather_index = grid->ids;        /* the input is indexed by id: the gather index lists ids */
    d.bucket_offsets = grid->offsets;
    d.unstable = 1; /* allows up to 2^24 cells; the reference places in input order all the same */
    if (split_multisplit_ref(&d) != SC_OK) {
        say(msg, cap, "split_multisplit_ref of %zu points into %u cells failed: %s", n, grid->num_cells,
            sc_last_error());
        g3_cpu_grid_free(grid);
        return 1;
    }
    return 0;
}

void g3_cpu_grid_free(g3_cpu_grid *grid)
{
    free(grid->cell_of_id);
    free(grid->ids);
    free(grid->offsets);
    grid->cell_of_id = grid->ids = grid->offsets = NULL;
}

void g3_count_grid(const g3_cpu_grid *grid, uint32_t id, float r2, uint32_t *count, uint64_t *id_sum)
{
    const uint32_t g = grid->g;
    const g3_point p = grid->by_id[id];
    const uint32_t cx = g3_cell_coord(p.x, g), cy = g3_cell_coord(p.y, g), cz = g3_cell_coord(p.z, g);
    const uint32_t x0 = cx ? cx - 1 : 0, x1 = cx + 1 < g ? cx + 1 : g - 1;
    uint32_t hits = 0;
    uint64_t sum = 0;
    for (uint32_t z = cz ? cz - 1 : 0; z <= cz + 1 && z < g; ++z)
        for (uint32_t y = cy ? cy - 1 : 0; y <= cy + 1 && y < g; ++y) {
            /* cells x0 .. x1 of the row are consecutive ids: one range of grouped points */
            const uint32_t lo = grid->offsets[g3_cell_id(x0, y, z, g)], hi = grid->offsets[g3_cell_id(x1, y, z, g) + 1];
            for (uint32_t k = lo; k < hi; ++k) {
                const uint32_t q = grid->ids[k];
                if (q != id && g3_within(p, grid->by_id[q], r2)) ++hits, sum += q;
            }
        }
    *count = hits;
    *id_sum = sum;
}

void g3_count_brute(const g3_point *by_id, size_t n, uint32_t id, float r2, uint32_t *count, uint64_t *id_sum)
{
    uint32_t hits = 0;
    uint64_t sum = 0;
    for (size_t q = 0; q < n; ++q)
        if (q != id && g3_within(by_id[id], by_id[q], r2)) ++hits, sum += q;
    *count = hits;
    *id_sum = sum;
}

void g3_cell_stats(const uint32_t *offsets, uint32_t num_cells, uint32_t *empty, uint32_t *max_per_cell)
{
    uint32_t e = 0, m = 0;
    for (uint32_t c = 0; c < num_cells; ++c) {
        const uint32_t k = offsets[c + 1] - offsets[c];
        e += k == 0;
        m = k > m ? k : m;
    }
    *empty = e;
    *max_per_cell = m;
}

int g3_points_by_id(const g3_point *grid_order, size_t n, g3_point *by_id, char *msg, size_t cap)
{
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!seen) {
        say(msg, cap, "host allocation of %zu flags failed", n);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; ++i) {
        const uint32_t id = grid_order[i].id;
        if (id >= n) {
            say(msg, cap, "grid position %zu holds point id %u, not below the %zu points", i, id, n);
            rc = 1;
        } else if (seen[id]) {
            say(msg, cap, "grid position %zu holds point id %u a second time", i, id);
            rc = 1;
        } else {
            seen[id] = 1;
            by_id[id] = grid_order[i];
        }
    }
    free(seen);
    return rc;
}

int g3_check_grouping(const g3_cpu_grid *ref, const g3_point *grid_order, const uint32_t *offsets, char *msg,
                      size_t cap)
{
    const uint32_t g = ref->g;
    char a[48], b[48];
    for (uint32_t c = 0; c <= ref->num_cells; ++c)
        if (offsets[c] != ref->offsets[c]) {
            if (c < ref->num_cells) cell_xyz(c, g, a, sizeof a);
            else snprintf(a, sizeof a, "(the end)");
            say(msg, cap, "cell offset %u (cell %u %s) is %u; the CPU grid has %u", c, c, a, offsets[c],
                ref->offsets[c]);
            return 1;
        }
    for (uint32_t c = 0; c < ref->num_cells; ++c)
        for (uint32_t i = offsets[c]; i < offsets[c + 1]; ++i) {
            const uint32_t id = grid_order[i].id, want = id < ref->n ? ref->cell_of_id[id] : UINT32_MAX;
            if (want != c) {
                cell_xyz(c, g, a, sizeof a);
                if (want != UINT32_MAX) cell_xyz(want, g, b, sizeof b);
                else snprintf(b, sizeof b, "(none: the id is not below n)");
                say(msg, cap, "grid position %u, in cell %u %s, holds point %u, which the CPU grid puts in cell %u %s",
                    i, c, a, id, want, b);
                return 1;
            }
        }
    return 0;
}

uint32_t g3_sample_id(uint64_t seed, size_t k, size_t n)
{
    return n ? (uint32_t)(g3_mix64(seed ^ (k * 0x9E3779B97F4A7C15ull + 1)) % n) : 0;
}

int g3_check_counts(const g3_cpu_grid *ref, const uint32_t *count_by_id, const uint64_t *id_sum_by_id, float r2,
                    size_t sample, uint64_t seed, int brute, char *msg, size_t cap)
{
    const size_t n = ref->n, checks = sample ? sample : n;
    for (size_t k = 0; k < checks && n; ++k) {
        const uint32_t id = sample ? g3_sample_id(seed, k, n) : (uint32_t)k;
        uint32_t want = 0;
        uint64_t want_sum = 0;
        g3_count_grid(ref, id, r2, &want, &want_sum);
        const g3_point p = ref->by_id[id];
        if (count_by_id[id] != want || id_sum_by_id[id] != want_sum) {
            say(msg, cap,
                "point %u at (%.9g, %.9g, %.9g), cell %u: %u neighbours with id sum %llu; the CPU grid finds %u with "
                "id sum %llu",
                id, p.x, p.y, p.z, ref->cell_of_id[id], count_by_id[id], (unsigned long long)id_sum_by_id[id], want,
                (unsigned long long)want_sum);
            return 1;
        }
        if (brute) {
            uint32_t all = 0;
            uint64_t all_sum = 0;
            g3_count_brute(ref->by_id, n, id, r2, &all, &all_sum);
            if (all != want || all_sum != want_sum) {
                say(msg, cap,
                    "point %u at (%.9g, %.9g, %.9g): the CPU grid finds %u neighbours (id sum %llu), brute force %u "
                    "(id sum %llu)",
                    id, p.x, p.y, p.z, want, (unsigned long long)want_sum, all, (unsigned long long)all_sum);
                return 1;
            }
        }
    }
    return 0;
}

static int same_bits(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

static int same_xyz(g3_point a, g3_point b)
{
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z) && a.id == b.id;
}

int g3_check_replay(const g3_point *pos_by_id, const g3_point *vel_by_id, size_t n, uint32_t steps, float dt,
                    size_t sample, uint64_t seed, char *msg, size_t cap)
{
    const size_t checks = sample ? sample : n;
    for (size_t k = 0; k < checks && n; ++k) {
        const uint32_t id = sample ? g3_sample_id(seed, k, n) : (uint32_t)k;
        g3_point p = g3_initial_point(id), v = g3_initial_velocity(id);
        for (uint32_t s = 0; s < steps; ++s) g3_integrate(&p, &v, dt);
        const g3_point got = pos_by_id[id];
        if (!same_xyz(got, p)) {
            say(msg, cap, "point %u is at (%.9g, %.9g, %.9g); the CPU's %u steps put it at (%.9g, %.9g, %.9g)", id,
                got.x, got.y, got.z, steps, p.x, p.y, p.z);
            return 1;
        }
        if (vel_by_id && !same_xyz(vel_by_id[id], v)) {
            const g3_point gv = vel_by_id[id];
            say(msg, cap,
                "point %u has velocity (%.9g, %.9g, %.9g) (record id %u); the CPU's %u steps give (%.9g, %.9g, %.9g)",
                id, gv.x, gv.y, gv.z, gv.id, steps, v.x, v.y, v.z);
            return 1;
        }
    }
    return 0;
}

int g3_check_result(const g3_point *grid_order, const g3_point *vel_order, const uint32_t *offsets,
                    const uint32_t *count_by_id, const uint64_t *id_sum_by_id, uint64_t count_total, size_t n,
                    uint32_t g, float r, uint32_t steps, float dt, char *msg, size_t cap)
{
    char why[400];
    why[0] = 0;
    const float r2 = g3_radius2(r);
    g3_point *pos = malloc((n ? n : 1) * sizeof *pos), *vel = vel_order ? malloc((n ? n : 1) * sizeof *vel) : NULL;
    g3_cpu_grid ref;
    memset(&ref, 0, sizeof ref);
    int rc = 1;
    const char *what = "ids";
    if (!pos || (vel_order && !vel)) {
        snprintf(why, sizeof why, "host allocation for %zu points failed", n);
        goto done;
    }
    if (g3_points_by_id(grid_order, n, pos, why, sizeof why)) goto done;
    if (vel)
        for (size_t i = 0; i < n; ++i) vel[grid_order[i].id] = vel_order[i];
    what = "positions";
    const size_t sample = n <= G3_CHECK_ALL_MAX ? 0 : G3_CHECK_SAMPLE;
    if (g3_check_replay(pos, vel, n, steps, dt, sample, 0x9A71ull + steps, why, sizeof why)) goto done;
    what = "grouping";
    if (g3_cpu_grid_build(&ref, pos, n, g, why, sizeof why)) goto done;
    if (g3_check_grouping(&ref, grid_order, offsets, why, sizeof why)) goto done;
    what = "neighbour counts";
    if (n <= G3_BRUTE_ALL_MAX) {
        if (g3_check_counts(&ref, count_by_id, id_sum_by_id, r2, 0, 0, 1, why, sizeof why)) goto done;
    } else {
        size_t brute = ((size_t)1 << 28) / n;
        brute = brute < 16 ? 16 : brute;
        if (g3_check_counts(&ref, count_by_id, id_sum_by_id, r2, sample, 0xC0DEull + steps, 0, why, sizeof why))
            goto done;
        what = "neighbour counts (brute force)";
        if (g3_check_counts(&ref, count_by_id, id_sum_by_id, r2, brute, 0xB00Full + steps, 1, why, sizeof why))
            goto done;
    }
    what = "neighbour total";
    uint64_t total = 0;
    for (size_t k = 0; k < n; ++k) total += count_by_id[k];
    if (total != count_total) {
        snprintf(why, sizeof why, "the device's running total is %llu; the counts of all points add up to %llu",
                 (unsigned long long)count_total, (unsigned long long)total);
        goto done;
    }
    rc = 0;
done:
    if (rc) say(msg, cap, "%s: %s", what, why);
    g3_cpu_grid_free(&ref);
    free(pos);
    free(vel);
    return rc;
}

int g3_parse_positive(const char *s, double *out)
{
    if (!s || !*s || *s == ' ' || *s == '\t' || *s == '+' || *s == '-') return -1;
    char *end = NULL;
    const double v = strtod(s, &end);
    if (end == s || *end != 0 || !isfinite(v) || !(v > 0)) return -1;
    *out = v;
    return 0;
}

int g3_resolve_grid(uint64_t n, uint32_t g_opt, double r_opt, const char *who, uint32_t *g, float *r)
{
    uint32_t cells = g_opt;
    if (cells == 0) {
        cells = g3_auto_grid(n);
        while (r_opt > 0 && cells > 1 && !g3_radius_ok((float)r_opt, cells)) --cells;
    }
    const float radius = r_opt > 0 ? (float)r_opt : (float)(0.75 / cells);
    if (!g3_radius_ok(radius, cells)) {
        fprintf(stderr, "%s: --radius %.9g is more than 0.999 of the cell side 1/%u; at most %.9g with --grid %u (or "
                        "a smaller --grid)\n", who, r_opt, cells, g3_max_radius(cells), cells);
        return 2;
    }
    *g = cells;
    *r = radius;
    return 0;
}
