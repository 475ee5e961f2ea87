/* test_mesh_reorder.c - sc_mesh_reorder_vertices: a permutation, the same triangles corner by corner,
 * vertices numbered by first use, unused ones last in their order, bad input refused with the mesh
 * unchanged (cpu). */
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"

static sc_mesh copy_mesh(const sc_mesh *m)
{
    sc_mesh c = *m;
    c.positions = malloc((size_t)m->vertex_count * 3 * sizeof(float) + 1);
    c.indices = malloc((size_t)m->triangle_count * 3 * sizeof(uint32_t) + 1);
    if (c.positions) memcpy(c.positions, m->positions, (size_t)m->vertex_count * 3 * sizeof(float));
    if (c.indices) memcpy(c.indices, m->indices, (size_t)m->triangle_count * 3 * sizeof(uint32_t));
    return c;
}

/* r is m reordered with old_of_new: check it. */
static void check_reordered(const sc_mesh *m, const sc_mesh *r, const uint32_t *old_of_new, uint32_t used)
{
    SCT_REQUIRE(r->vertex_count == m->vertex_count && r->triangle_count == m->triangle_count);
    const uint32_t V = m->vertex_count;
    uint8_t *seen = calloc((size_t)V + 1, 1);
    SCT_REQUIRE(seen != NULL);
    uint64_t bad = 0;
    for (uint32_t v = 0; v < V; ++v) {
        if (old_of_new[v] >= V || seen[old_of_new[v]]++) ++bad;
        else if (memcmp(r->positions + 3 * (size_t)v, m->positions + 3 * (size_t)old_of_new[v], 3 * sizeof(float)))
            ++bad;
    }
    SCT_CHECK_MSG(bad == 0, "%llu vertices are not a permutation of the old ones", (unsigned long long)bad);
    uint32_t next = 0;
    for (size_t i = 0; i < 3 * (size_t)m->triangle_count; ++i) {
        const uint32_t nv = r->indices[i];
        if (nv >= V || old_of_new[nv] != m->indices[i]) ++bad;
        if (nv > next) ++bad; /* first use in order */
        if (nv == next) ++next;
    }
    SCT_CHECK_MSG(bad == 0, "%llu corners wrong", (unsigned long long)bad);
    SCT_CHECK_EQ_U64(next, used);
    for (uint32_t v = used + 1; v < V; ++v) /* the unused ones keep their order */
        SCT_CHECK(old_of_new[v] > old_of_new[v - 1]);
    free(seen);
}

static void test_subdivided_knot(void)
{
    sc_mesh knot, sub;
    SCT_REQUIRE_OK(sc_mesh_default(10, &knot));
    SCT_REQUIRE_OK(sc_mesh_subdivide_midpoint(&knot, 2, &sub));
    sc_mesh r = copy_mesh(&sub);
    uint32_t *old_of_new = malloc((size_t)sub.vertex_count * sizeof *old_of_new);
    SCT_REQUIRE(r.positions && r.indices && old_of_new);
    SCT_REQUIRE_OK(sc_mesh_reorder_vertices(&r, old_of_new));
    check_reordered(&sub, &r, old_of_new, sub.vertex_count);
    sc_mesh_free(&r);
    sc_mesh_free(&sub);
    sc_mesh_free(&knot);
    free(old_of_new);
}

static void test_unused_vertices_last(void)
{
    /* 7 vertices, 2 triangles using 4 of them in the order 5, 2, 6, 2, 0. */
    float p[21];
    for (int i = 0; i < 21; ++i) p[i] = (float)i;
    uint32_t idx[6] = {5, 2, 6, 2, 0, 6};
    sc_mesh m = {p, idx, 7, 2};
    sc_mesh r = copy_mesh(&m);
    uint32_t old_of_new[7];
    SCT_REQUIRE(r.positions && r.indices);
    SCT_REQUIRE_OK(sc_mesh_reorder_vertices(&r, old_of_new));
    const uint32_t want_idx[6] = {0, 1, 2, 1, 3, 2}, want_old[7] = {5, 2, 6, 0, 1, 3, 4};
    SCT_CHECK(memcmp(r.indices, want_idx, sizeof want_idx) == 0);
    SCT_CHECK(memcmp(old_of_new, want_old, sizeof want_old) == 0);
    check_reordered(&m, &r, old_of_new, 4);
    SCT_REQUIRE_OK(sc_mesh_reorder_vertices(&r, NULL)); /* already in order: unchanged */
    SCT_CHECK(memcmp(r.indices, want_idx, sizeof want_idx) == 0);
    sc_mesh_free(&r);
}

static void test_bad_input(void)
{
    float p[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[3] = {0, 1, 3};
    sc_mesh m = {p, idx, 3, 1};
    SCT_CHECK(sc_mesh_reorder_vertices(&m, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 3 && p[3] == 1.0f); /* unchanged */
    SCT_CHECK(sc_mesh_reorder_vertices(NULL, NULL) == SC_ERROR_INVALID_ARGUMENT);
    sc_mesh empty = {NULL, NULL, 0, 0};
    SCT_CHECK_OK(sc_mesh_reorder_vertices(&empty, NULL));
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "mesh_reorder");
    SCT_RUN(test_subdivided_knot);
    SCT_RUN(test_unused_vertices_last);
    SCT_RUN(test_bad_input);
    return sct_end();
}
