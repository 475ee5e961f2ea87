/* test_render_vertex_order.c - sc_renderer_desc.vertex_order on the CPU backend (cpu): on seeded
 * meshes of awkward sizes (a lone unused vertex, one triangle numbered backwards, a shuffled height
 * field with unused and non-finite vertices, a subdivided knot with unused vertices among its own,
 * a mesh already in first-use order) a renderer keeping the caller's order and one with the default
 * first-use order give the same hits, pixels, shadow masks and positions, bit for bit, and positions
 * come back in the caller's order; inside, the default renderer holds exactly the first-use order
 * (none when the caller's order already is it) and gives the same smooth normals (computed over its
 * order, read in the caller's); a new mesh replaces the order; a value that is no sc_vertex_order is
 * refused naming the field. */
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sc_render_testing.h"
#include "sctest.h"
#include "sctest_log.h"
#include "slabcast.h"
#include "vertex_order_cases.h"

static void *host_alloc(size_t bytes) { return malloc(bytes); }
static void host_release(void *p) { free(p); }
static int host_copy(void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return 0;
}
static const vo_memory k_host = {host_alloc, host_release, host_copy, host_copy};

static void test_scenes(void)
{
    for (int k = 0; k < VO_SCENE_COUNT; ++k) {
        sc_mesh m;
        const char *name = NULL;
        if (vo_scene_make(k, sct_base_seed(), &m, &name) != 0) continue;
        vo_check_scene(SC_BACKEND_CPU, &k_host, &m, name);
        sc_mesh_free(&m);
    }
}

static sc_renderer *cpu_renderer(sc_vertex_order order)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = 40;
    d.height = 30;
    d.num_threads = 2;
    d.vertex_order = order;
    sc_renderer *r = NULL;
    if (sc_renderer_create(&d, &r) != SC_OK) sct_fail(__FILE__, __LINE__, "create: %s", sc_last_error());
    return r;
}

static sc_backend_buffers buffers_of(const sc_renderer *r)
{
    sc_backend_buffers b;
    if (sc_renderer_testing_buffers(r, &b) != SC_OK) memset(&b, 0, sizeof b);
    return b;
}

/* Inside: the permutation is the reference first-use order (none for a mesh already in it, and none
 * with SC_VERTEX_ORDER_KEEP), and a frame's smooth normals, computed over either order, are the same
 * bits in the caller's order. */
static void test_internal_order(void)
{
    for (int k = 0; k < VO_SCENE_COUNT; ++k) {
        sc_mesh m;
        const char *name = NULL;
        if (vo_scene_make(k, sct_base_seed(), &m, &name) != 0) continue;
        const sc_mesh_data md = sc_mesh_view(&m);
        uint32_t *ref = malloc(sizeof(uint32_t) * m.vertex_count + 1);
        SCT_REQUIRE(ref);
        vo_first_use_ref(&md, ref);
        int identity = 1;
        for (uint32_t v = 0; v < m.vertex_count; ++v) identity = identity && ref[v] == v;
        SCT_CHECK_MSG(identity == (k == 0 || k == VO_SCENE_IN_ORDER), "%s: first-use order is%s the caller's", name,
                      identity ? "" : " not");
        sc_renderer *keep = cpu_renderer(SC_VERTEX_ORDER_KEEP), *first = cpu_renderer(SC_VERTEX_ORDER_FIRST_USE);
        SCT_REQUIRE(keep && first);
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = 0.5f;
        SCT_CHECK_OK(sc_renderer_set_mesh(keep, &md));
        SCT_CHECK_OK(sc_renderer_set_mesh(first, &md));
        SCT_CHECK_OK(sc_renderer_render(keep, &f));
        SCT_CHECK_OK(sc_renderer_render(first, &f));
        const sc_backend_buffers bk = buffers_of(keep), bf = buffers_of(first);
        SCT_CHECK_MSG(bk.new_of_old == NULL, "%s: SC_VERTEX_ORDER_KEEP holds a permutation", name);
        if (identity) {
            SCT_CHECK_MSG(bf.new_of_old == NULL, "%s: a mesh in first-use order was permuted", name);
        } else if (!bf.new_of_old) {
            sct_fail(__FILE__, __LINE__, "%s: the first-use renderer holds no permutation", name);
        } else {
            uint64_t wrong = 0;
            for (uint32_t v = 0; v < m.vertex_count; ++v) wrong += bf.new_of_old[v] != ref[v];
            SCT_CHECK_MSG(wrong == 0, "%s: %llu vertices not in first-use order", name, (unsigned long long)wrong);
        }
        /* The smooth normals, computed by each renderer over its own vertex order and read in the
         * caller's: the same bits. */
        const size_t v3 = 3 * (size_t)m.vertex_count;
        float *nk = malloc(v3 * sizeof(float) + 1), *nf = malloc(v3 * sizeof(float) + 1);
        SCT_REQUIRE(nk && nf);
        SCT_CHECK_OK(sc_renderer_testing_read_normals(keep, nk));
        SCT_CHECK_OK(sc_renderer_testing_read_normals(first, nf));
        uint64_t normals = 0;
        for (uint32_t v = 0; v < m.vertex_count; ++v)
            normals += memcmp(nk + 3 * (size_t)v, nf + 3 * (size_t)v, 3 * sizeof(float)) != 0;
        SCT_CHECK_MSG(normals == 0, "%s: %llu normals differ", name, (unsigned long long)normals);
        free(nk);
        free(nf);
        sc_renderer_destroy(keep);
        sc_renderer_destroy(first);
        free(ref);
        sc_mesh_free(&m);
    }
}

/* A second mesh replaces the first's order (here: a permuted mesh, then one kept as given, then the
 * permuted one again), positions coming back in each mesh's caller order. */
static void test_new_mesh(void)
{
    sc_mesh a, b;
    const char *na = NULL, *nb = NULL;
    SCT_REQUIRE(vo_scene_make(2, sct_base_seed(), &a, &na) == 0);
    if (vo_scene_make(VO_SCENE_IN_ORDER, sct_base_seed(), &b, &nb) != 0) {
        sc_mesh_free(&a);
        return;
    }
    sc_renderer *r = cpu_renderer(SC_VERTEX_ORDER_FIRST_USE);
    SCT_REQUIRE(r);
    const sc_mesh *order[3] = {&a, &b, &a};
    for (int i = 0; i < 3; ++i) {
        const sc_mesh *m = order[i];
        const sc_mesh_data md = sc_mesh_view(m);
        const size_t n = 3 * (size_t)m->vertex_count;
        float *back = malloc(n * sizeof(float));
        SCT_REQUIRE(back);
        SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
        SCT_CHECK_MSG((buffers_of(r).new_of_old != NULL) == (m == &a), "mesh %d: permutation %s", i,
                      buffers_of(r).new_of_old ? "held" : "missing");
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.positions = m->positions; /* the rest pose, from the caller */
        SCT_CHECK_OK(sc_renderer_render(r, &f));
        SCT_CHECK_OK(sc_renderer_read_positions(r, back));
        SCT_CHECK_MSG(memcmp(back, m->positions, n * sizeof(float)) == 0, "mesh %d: positions not the caller's", i);
        free(back);
    }
    sc_renderer_destroy(r);
    sc_mesh_free(&a);
    sc_mesh_free(&b);
}

/* sc_renderer_desc.vertex_order: a value that is no sc_vertex_order is INVALID_ARGUMENT naming the
 * field; both values are accepted, 0 being the first-use order. */
static void test_bad_vertex_order(void)
{
    const int bad[] = {2, -1, 1000};
    for (int i = 0; i < 3; ++i) {
        sc_renderer_desc d;
        memset(&d, 0, sizeof d);
        d.backend = SC_BACKEND_CPU;
        d.width = d.height = 16;
        d.vertex_order = (sc_vertex_order)bad[i];
        sc_renderer *r = NULL;
        const sc_status s = sc_renderer_create(&d, &r);
        SCT_CHECK_MSG(s == SC_ERROR_INVALID_ARGUMENT && strstr(sc_last_error(), "vertex_order") && r == NULL,
                      "vertex_order %d: status %d: %s", bad[i], (int)s, sc_last_error());
        sc_renderer_destroy(r);
    }
    SCT_CHECK(SC_VERTEX_ORDER_FIRST_USE == 0);
    for (int o = SC_VERTEX_ORDER_FIRST_USE; o <= SC_VERTEX_ORDER_KEEP; ++o) {
        sc_renderer *r = cpu_renderer((sc_vertex_order)o);
        SCT_CHECK(r != NULL);
        sc_renderer_destroy(r);
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_vertex_order");
    /* Quiet: the scenes' non-finite vertices warn at every set_mesh, and the refusals are on purpose
     * (each failure's message is in the check that fails). */
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_WARNING);
    SCT_RUN(test_scenes);
    SCT_RUN(test_internal_order);
    SCT_RUN(test_new_mesh);
    SCT_RUN(test_bad_vertex_order);
    return sct_end();
}
