/* test_mesh_subdivide.c - midpoint subdivision: counts, shared midpoints, winding, closedness, area
 * and volume kept (cpu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Closed and consistently oriented: every directed edge appears once and so does its reverse. */
static int closed_oriented(const sc_mesh *m)
{
    size_t ne = 3 * (size_t)m->triangle_count;
    uint64_t *e = malloc(ne * sizeof *e), *r = malloc(ne * sizeof *r);
    if (!e || !r) { free(e); free(r); return 0; }
    for (size_t t = 0; t < m->triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            uint64_t a = m->indices[3 * t + k], b = m->indices[3 * t + (k + 1) % 3];
            e[3 * t + k] = a << 32 | b;
            r[3 * t + k] = b << 32 | a;
        }
    qsort(e, ne, sizeof *e, cmp_u64);
    qsort(r, ne, sizeof *r, cmp_u64);
    int ok = 1;
    for (size_t i = 0; i < ne && ok; ++i) ok = e[i] == r[i] && (i == 0 || e[i] != e[i - 1]);
    free(e);
    free(r);
    return ok;
}

static void area_volume(const sc_mesh *m, double *area, double *volume)
{
    *area = *volume = 0;
    for (size_t t = 0; t < m->triangle_count; ++t) {
        const float *a = m->positions + 3 * (size_t)m->indices[3 * t], *b = m->positions + 3 * (size_t)m->indices[3 * t + 1],
                    *c = m->positions + 3 * (size_t)m->indices[3 * t + 2];
        double u[3], v[3], n[3];
        for (int k = 0; k < 3; ++k) { u[k] = (double)b[k] - a[k]; v[k] = (double)c[k] - a[k]; }
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
        *area += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        *volume += (a[0] * n[0] + a[1] * n[1] + a[2] * n[2]) / 6.0;
    }
}

static void test_one_triangle(void)
{
    float p[9] = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    uint32_t i[3] = {0, 1, 2};
    sc_mesh in = {p, i, 3, 1}, out;
    SCT_REQUIRE_OK(sc_mesh_subdivide_midpoint(&in, 1, &out));
    SCT_CHECK_EQ_U64(out.triangle_count, 4);
    SCT_CHECK_EQ_U64(out.vertex_count, 6);
    /* The three new vertices are the edge midpoints, and every child faces +z like the parent. */
    const float want[3][3] = {{1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (int w = 0; w < 3; ++w) {
        int found = 0;
        for (uint32_t v = 3; v < 6; ++v)
            found += memcmp(out.positions + 3 * v, want[w], sizeof want[w]) == 0;
        SCT_CHECK_MSG(found == 1, "midpoint %d found %d times", w, found);
    }
    double area, vol;
    area_volume(&out, &area, &vol);
    SCT_CHECK(fabs(area - 2.0) < 1e-12);
    for (uint32_t t = 0; t < 4; ++t) {
        const float *a = out.positions + 3 * out.indices[3 * t], *b = out.positions + 3 * out.indices[3 * t + 1],
                    *c = out.positions + 3 * out.indices[3 * t + 2];
        float nz = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        SCT_CHECK_MSG(nz > 0, "child %u flipped", t);
    }
    sc_mesh_free(&out);
}

static void test_closed_mesh_stays_closed(void)
{
    sc_mesh knot, sub;
    SCT_REQUIRE_OK(sc_mesh_default(12, &knot));
    SCT_REQUIRE(closed_oriented(&knot));
    SCT_REQUIRE_OK(sc_mesh_subdivide_midpoint(&knot, 2, &sub));
    SCT_CHECK_EQ_U64(sub.triangle_count, 16ull * knot.triangle_count);
    /* Closed: E = 3T/2 per level, and each level adds one vertex per edge. */
    uint64_t v1 = knot.vertex_count + 3ull * knot.triangle_count / 2;
    uint64_t v2 = v1 + 3ull * 4 * knot.triangle_count / 2;
    SCT_CHECK_EQ_U64(sub.vertex_count, v2);
    SCT_CHECK(closed_oriented(&sub));
    double a0, vol0, a2, vol2;
    area_volume(&knot, &a0, &vol0);
    area_volume(&sub, &a2, &vol2);
    SCT_CHECK_MSG(fabs(a2 - a0) < 1e-5 * a0, "area %g -> %g", a0, a2);
    SCT_CHECK_MSG(fabs(vol2 - vol0) < 1e-5 * fabs(vol0), "volume %g -> %g", vol0, vol2);
    sc_mesh copy;
    SCT_REQUIRE_OK(sc_mesh_subdivide_midpoint(&knot, 0, &copy));
    SCT_CHECK(copy.triangle_count == knot.triangle_count && copy.positions != knot.positions &&
              memcmp(copy.indices, knot.indices, 12ull * knot.triangle_count) == 0);
    sc_mesh_free(&copy);
    sc_mesh_free(&sub);
    sc_mesh_free(&knot);
}

static void quiet(sc_log_level l, const char *m, void *u) { (void)l; (void)m; (void)u; }

static void test_bad_input(void)
{
    sc_set_log_callback(quiet, NULL, SC_LOG_ERROR);
    float p[9] = {0};
    uint32_t i[3] = {0, 1, 3};
    sc_mesh in = {p, i, 3, 1}, out;
    SCT_CHECK(sc_mesh_subdivide_midpoint(&in, 1, &out) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_mesh_subdivide_midpoint(NULL, 1, &out) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(strstr(sc_last_error(), "NULL mesh") != NULL);
    i[2] = 2;
    SCT_CHECK(sc_mesh_subdivide_midpoint(&in, 1, NULL) == SC_ERROR_INVALID_ARGUMENT); /* names the output */
    SCT_CHECK(strstr(sc_last_error(), "NULL output mesh") != NULL);
    /* 32-bit index overflow is refused before any triangle is read (the array here holds one). */
    i[2] = 2;
    sc_mesh huge = {p, i, 3, 0x15555555u};
    SCT_CHECK(sc_mesh_subdivide_midpoint(&huge, 2, &out) == SC_ERROR_INVALID_ARGUMENT);
    SCT_REQUIRE_OK(sc_mesh_subdivide_midpoint(&(sc_mesh){p, i, 3, 0}, 3, &out));
    SCT_CHECK_EQ_U64(out.triangle_count, 0);
    sc_mesh_free(&out);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "mesh_subdivide");
    SCT_RUN(test_one_triangle);
    SCT_RUN(test_closed_mesh_stays_closed);
    SCT_RUN(test_bad_input);
    return sct_end();
}
