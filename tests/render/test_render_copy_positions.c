/* test_render_copy_positions.c - sc_renderer_copy_positions on the CPU backend (backend memory is host
 * memory there): the positions it copies are those sc_renderer_read_positions gives, frame by frame,
 * deformed or the caller's; its errors (NULL, no mesh, no frame yet) leave dst untouched (cpu). */
#include <stdlib.h>
#include <string.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_log.h"
#include "slabcast.h"

enum { W = 64, H = 48 };

/* A CPU renderer of the default knot (resolution 12) with a twist and a wave, or NULL (reported). */
static sc_renderer *knot_renderer(sc_mesh *m)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = W;
    d.height = H;
    d.num_threads = 2;
    sc_renderer *r = NULL;
    if (sc_mesh_default(12, m) != SC_OK || sc_renderer_create(&d, &r) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        return NULL;
    }
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.8f;
    def.wave.amount = 0.05f;
    const sc_mesh_data md = sc_mesh_view(m);
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_set_deform(r, &def) != SC_OK) {
        sct_fail(__FILE__, __LINE__, "set up: %s", sc_last_error());
        sc_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static sc_status render_at(sc_renderer *r, float time, const float *positions)
{
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.time = time;
    f.positions = positions;
    return sc_renderer_render(r, &f);
}

/* Frame by frame the copy equals the read, and follows the deformation. */
static void test_copy_equals_read(void)
{
    sc_mesh m;
    sc_renderer *r = knot_renderer(&m);
    SCT_REQUIRE(r);
    const size_t n = 3 * (size_t)m.vertex_count;
    float *copied = malloc(n * sizeof(float)), *read = malloc(n * sizeof(float)), *before = malloc(n * sizeof(float));
    SCT_REQUIRE(copied && read && before);
    memcpy(before, m.positions, n * sizeof(float));
    const float times[] = {0.3f, 0.9f, 1.7f};
    for (int i = 0; i < 3; ++i) {
        SCT_REQUIRE_OK(render_at(r, times[i], NULL));
        SCT_CHECK_OK(sc_renderer_copy_positions(r, copied));
        SCT_CHECK_OK(sc_renderer_read_positions(r, read));
        SCT_CHECK_MSG(memcmp(copied, read, n * sizeof(float)) == 0, "frame %d: the copy differs from the read", i);
        SCT_CHECK_MSG(memcmp(copied, before, n * sizeof(float)) != 0, "frame %d: the positions did not change", i);
        memcpy(before, copied, n * sizeof(float));
    }
    free(copied);
    free(read);
    free(before);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

/* A frame drawn from the caller's positions: the copy is those positions. */
static void test_copy_of_caller_positions(void)
{
    sc_mesh m;
    sc_renderer *r = knot_renderer(&m);
    SCT_REQUIRE(r);
    const size_t n = 3 * (size_t)m.vertex_count;
    float *given = malloc(n * sizeof(float)), *copied = malloc(n * sizeof(float));
    SCT_REQUIRE(given && copied);
    for (size_t i = 0; i < n; ++i) given[i] = m.positions[i] * 0.9f + 0.01f * (float)(i % 7);
    SCT_REQUIRE_OK(render_at(r, 0.5f, given));
    SCT_CHECK_OK(sc_renderer_copy_positions(r, copied));
    SCT_CHECK(memcmp(copied, given, n * sizeof(float)) == 0);
    free(given);
    free(copied);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
}

/* Expects INVALID_ARGUMENT naming `needle`, and dst left as it was. */
static void expect_invalid(const sc_renderer *r, float *dst, size_t n, const char *needle, int line)
{
    if (dst) for (size_t i = 0; i < n; ++i) dst[i] = -7.0f;
    sc_status s = sc_renderer_copy_positions(r, dst);
    if (s != SC_ERROR_INVALID_ARGUMENT || !strstr(sc_last_error(), needle))
        sct_fail(__FILE__, line, "expected INVALID_ARGUMENT naming \"%s\", got %d: %s", needle, (int)s,
                 sc_last_error());
    for (size_t i = 0; dst && i < n; ++i)
        if (dst[i] != -7.0f) {
            sct_fail(__FILE__, line, "dst[%zu] changed by a rejected call", i);
            break;
        }
}

static void test_copy_errors(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    float one[3];
    expect_invalid(NULL, one, 3, "NULL", __LINE__);

    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = W;
    d.height = H;
    sc_renderer *bare = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &bare));
    expect_invalid(bare, one, 3, "no mesh", __LINE__);
    sc_renderer_destroy(bare);

    sc_mesh m;
    sc_renderer *r = knot_renderer(&m);
    SCT_REQUIRE(r);
    const size_t n = 3 * (size_t)m.vertex_count;
    float *dst = malloc(n * sizeof(float));
    SCT_REQUIRE(dst);
    expect_invalid(r, dst, n, "no frame", __LINE__);    /* mesh set, nothing rendered */
    SCT_CHECK_OK(render_at(r, 0.25f, NULL));
    expect_invalid(r, NULL, 0, "NULL", __LINE__);
    SCT_CHECK_OK(sc_renderer_copy_positions(r, dst));
    const sc_mesh_data md = sc_mesh_view(&m);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &md));
    expect_invalid(r, dst, n, "no frame", __LINE__);    /* a new mesh: its first frame not rendered */
    SCT_CHECK_OK(render_at(r, 0.25f, NULL));
    SCT_CHECK_OK(sc_renderer_copy_positions(r, dst));
    SCT_CHECK_OK(sc_renderer_resize(r, W + 8, H));
    expect_invalid(r, dst, n, "no frame", __LINE__);    /* a new size, as documented */
    SCT_CHECK_OK(render_at(r, 0.25f, NULL));
    SCT_CHECK_OK(sc_renderer_copy_positions(r, dst));
    free(dst);
    sc_renderer_destroy(r);
    sc_mesh_free(&m);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

/* An empty mesh has nothing to copy: NULL is accepted once a frame is rendered. */
static void test_copy_empty_mesh(void)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CPU;
    d.width = W;
    d.height = H;
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&d, &r));
    sc_mesh_data empty;
    memset(&empty, 0, sizeof empty);
    SCT_CHECK_OK(sc_renderer_set_mesh(r, &empty));
    SCT_CHECK_OK(render_at(r, 0.0f, NULL));
    SCT_CHECK_OK(sc_renderer_copy_positions(r, NULL));
    sc_renderer_destroy(r);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_copy_positions");
    SCT_RUN(test_copy_equals_read);
    SCT_RUN(test_copy_of_caller_positions);
    SCT_RUN(test_copy_errors);
    SCT_RUN(test_copy_empty_mesh);
    return sct_end();
}
