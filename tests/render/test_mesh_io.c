/* test_mesh_io.c - OBJ, PLY (ASCII, binary little-endian) and STL (ASCII, binary) loaders: good
 * files, malformed files (SC_ERROR_PARSE naming file and line), degenerate input dropped with
 * counts; the built-in knot is a closed, outward-oriented 2-manifold; the shared benchmark models
 * load when present (cpu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_log.h"
#include "sctest_models.h"

static sc_status parse(const char *text, const char *name, sc_mesh *m, sc_mesh_report *rep)
{
    memset(rep, 0, sizeof *rep);
    return sc_mesh_parse(text, strlen(text), name, SC_MESH_FORMAT_AUTO, m, rep);
}

static void check_message(const char *needle)
{
    SCT_CHECK_MSG(strstr(sc_last_error(), needle) != NULL, "message '%s' lacks '%s'", sc_last_error(), needle);
}

static void test_obj_good(void)
{
    const char *text = "# a quad and a triangle\n"
                       "v 0 0 0\nv 1 0 0\nv 1 1 0\r\nv 0 1 0 1.0\n"
                       "vn 0 0 1\nvt 0 0\ng group\nusemtl x\n"
                       "f 1 2 3 4\n"
                       "f -4/1/1 -3//1 -2/2\n";
    sc_mesh m;
    sc_mesh_report rep;
    SCT_REQUIRE_OK(parse(text, "good.obj", &m, &rep));
    SCT_CHECK_EQ_U64(m.vertex_count, 4);
    SCT_CHECK_EQ_U64(m.triangle_count, 3);
    const uint32_t want[9] = {0, 1, 2, 0, 2, 3, 0, 1, 2};
    for (int i = 0; i < 9; ++i) SCT_CHECK_EQ_U64(m.indices[i], want[i]);
    SCT_CHECK(m.positions[3 * 2 + 0] == 1.0f && m.positions[3 * 2 + 1] == 1.0f);
    SCT_CHECK_EQ_U64(rep.faces_read, 3);
    sc_mesh_free(&m);
}

static void test_obj_errors(void)
{
    sc_mesh m;
    sc_mesh_report rep;
    SCT_CHECK(parse("v 0 0 0\nv 1 0\n", "short.obj", &m, &rep) == SC_ERROR_PARSE);
    check_message("short.obj:2:");
    SCT_CHECK(parse("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2\n", "face.obj", &m, &rep) == SC_ERROR_PARSE);
    check_message("face.obj:5:");
    SCT_CHECK(parse("v 0 0 0\nf 1 x 2\n", "alpha.obj", &m, &rep) == SC_ERROR_PARSE);
    check_message("alpha.obj:2:");
    SCT_CHECK(parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "zero.obj", &m, &rep) == SC_ERROR_PARSE);
    check_message("zero.obj:4:");
    SCT_CHECK(parse("v 0 0 zz\n", "num.obj", &m, &rep) == SC_ERROR_PARSE);
    check_message("num.obj:1:");
    SCT_CHECK(m.positions == NULL && m.triangle_count == 0);
}

static void test_degenerate_input_dropped(void)
{
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nv nan 0 0\nv 0 inf 0\n"
                       "f 1 2 3\n"     /* kept */
                       "f 1 2 4\n"     /* collinear: zero area */
                       "f 1 1 3\n"     /* repeated vertex: zero area */
                       "f 1 2 9\n"     /* out of range */
                       "f -9 1 2\n"    /* out of range (negative) */
                       "f 1 5 3\n"     /* NaN */
                       "f 6 2 3\n";    /* Inf */
    sc_mesh m;
    sc_mesh_report rep;
    SCT_REQUIRE_OK(parse(text, "degenerate.obj", &m, &rep));
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    SCT_CHECK_EQ_U64(rep.faces_read, 7);
    SCT_CHECK_EQ_U64(rep.dropped_zero_area, 2);
    SCT_CHECK_EQ_U64(rep.dropped_bad_index, 2);
    SCT_CHECK_EQ_U64(rep.dropped_non_finite, 2);
    sc_mesh_free(&m);

    /* sc_mesh_clean of NULL, or of a mesh without arrays, changes nothing and reads nothing. */
    sc_mesh_clean(NULL, &rep);
    sc_mesh_clean(NULL, NULL);
    sc_mesh empty = {NULL, NULL, 5, 7};
    memset(&rep, 0, sizeof rep);
    sc_mesh_clean(&empty, &rep);
    SCT_CHECK(empty.triangle_count == 7 && empty.vertex_count == 5);
    SCT_CHECK_EQ_U64(rep.dropped_bad_index + rep.dropped_non_finite + rep.dropped_zero_area, 0);
}

/* Faces before their vertices (OBJ allows forward references; PLY may list faces first): checked
 * once the file is complete, still dropped with their line when out of range. */
static void test_forward_references(void)
{
    sc_mesh m;
    sc_mesh_report rep;
    SCT_REQUIRE_OK(parse("f 1 2 3\nf 1 2 5\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 9 9 9\n", "forward.obj", &m, &rep));
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    SCT_CHECK_EQ_U64(m.vertex_count, 3);
    SCT_CHECK_EQ_U64(rep.dropped_bad_index, 1);
    SCT_CHECK_EQ_U64(rep.removed_unused_vertices, 1);
    sc_mesh_free(&m);
    const char *ply = "ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int vertex_indices\n"
                      "element vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
                      "3 2 1 0\n0 0 0\n1 0 0\n0 1 0\n";
    SCT_REQUIRE_OK(parse(ply, "faces_first.ply", &m, &rep));
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    SCT_CHECK(m.indices[0] == 2 && m.indices[1] == 1 && m.indices[2] == 0);
    SCT_CHECK(m.positions[3 * 2 + 1] == 1.0f);
    sc_mesh_free(&m);
}

static void test_ply_ascii(void)
{
    const char *text = "ply\nformat ascii 1.0\ncomment made by hand\n"
                       "element vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
                       "element face 2\nproperty list uchar int vertex_indices\n"
                       "element extra 1\nproperty list uchar float junk\nproperty int k\n"
                       "end_header\n"
                       "0 0 0 255\n1 0 0 0\n1 1 0 7\n0 1 0 9\n"
                       "4 0 1 2 3\n3 3 2 1\n"
                       "2 0.5 0.25 17\n";
    sc_mesh m;
    sc_mesh_report rep;
    SCT_REQUIRE_OK(parse(text, "quad.ply", &m, &rep));
    SCT_CHECK_EQ_U64(m.vertex_count, 4);
    SCT_CHECK_EQ_U64(m.triangle_count, 3);
    SCT_CHECK(m.positions[3 * 3 + 1] == 1.0f);
    SCT_CHECK_EQ_U64(m.indices[6], 3);
    sc_mesh_free(&m);

    const char *bad = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                      "end_header\n0 0 0\n1 q 0\n";
    SCT_CHECK(parse(bad, "bad.ply", &m, &rep) == SC_ERROR_PARSE);
    check_message("bad.ply:9:");
    const char *hdr = "ply\nformat ascii 1.0\nelement vertex 2\nproperty floot x\nend_header\n";
    SCT_CHECK(parse(hdr, "hdr.ply", &m, &rep) == SC_ERROR_PARSE);
    check_message("hdr.ply:4:");
    const char *be = "ply\nformat binary_big_endian 1.0\nend_header\n";
    SCT_CHECK(parse(be, "be.ply", &m, &rep) == SC_ERROR_UNSUPPORTED);
    SCT_CHECK(parse("plyx\n", "notply.ply", &m, &rep) == SC_ERROR_PARSE);
    check_message("notply.ply:1:");
}

static void put_u32(unsigned char **p, uint32_t v) { for (int i = 0; i < 4; ++i) *(*p)++ = (unsigned char)(v >> (8 * i)); }
static void put_f32(unsigned char **p, float f) { uint32_t v; memcpy(&v, &f, 4); put_u32(p, v); }

static void test_ply_binary(void)
{
    const char *hdr = "ply\nformat binary_little_endian 1.0\n"
                      "element vertex 3\nproperty double x\nproperty float y\nproperty float z\nproperty short s\n"
                      "element face 1\nproperty list uchar uint vertex_index\nend_header\n";
    unsigned char buf[512], *p = buf;
    memcpy(p, hdr, strlen(hdr));
    p += strlen(hdr);
    const float v[3][3] = {{0, 0, 1}, {2, 0, 1}, {0, 3, 1}};
    for (int i = 0; i < 3; ++i) {
        double x = v[i][0];
        memcpy(p, &x, 8);
        p += 8;
        put_f32(&p, v[i][1]);
        put_f32(&p, v[i][2]);
        *p++ = 0x34; *p++ = 0x12;
    }
    *p++ = 3;
    put_u32(&p, 2); put_u32(&p, 1); put_u32(&p, 0);
    sc_mesh m;
    sc_mesh_report rep = {0};
    SCT_REQUIRE_OK(sc_mesh_parse(buf, (size_t)(p - buf), "bin.ply", SC_MESH_FORMAT_AUTO, &m, &rep));
    SCT_CHECK_EQ_U64(m.vertex_count, 3);
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    SCT_CHECK(m.positions[3] == 2.0f && m.positions[7] == 3.0f && m.positions[8] == 1.0f);
    SCT_CHECK(m.indices[0] == 2 && m.indices[1] == 1 && m.indices[2] == 0);
    sc_mesh_free(&m);
    /* Truncated binary data. */
    SCT_CHECK(sc_mesh_parse(buf, (size_t)(p - buf) - 3, "trunc.ply", SC_MESH_FORMAT_AUTO, &m, &rep) == SC_ERROR_PARSE);
    check_message("trunc.ply: byte");
}

static void test_stl(void)
{
    const char *text = "solid demo\n"
                       " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\n"
                       " facet normal 0 0 1\n  outer loop\n   vertex 1 0 0\n   vertex 1 1 0\n   vertex 0 1 0\n  endloop\n endfacet\n"
                       "endsolid demo\n";
    sc_mesh m;
    sc_mesh_report rep;
    SCT_REQUIRE_OK(parse(text, "demo.stl", &m, &rep));
    SCT_CHECK_EQ_U64(m.triangle_count, 2);
    SCT_CHECK_EQ_U64(m.vertex_count, 4); /* welded */
    SCT_CHECK(m.indices[3] == m.indices[1] && m.indices[5] == m.indices[2]);
    sc_mesh_free(&m);
    const char *bad = "solid demo\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 q\n";
    SCT_CHECK(parse(bad, "bad.stl", &m, &rep) == SC_ERROR_PARSE);
    check_message("bad.stl:5:");
    const char *cut = "solid demo\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0";
    SCT_CHECK(parse(cut, "cut.stl", &m, &rep) == SC_ERROR_PARSE);
    check_message("cut.stl:5:");

    /* Binary: two facets sharing an edge, header starting with "solid" (as some exporters do). */
    unsigned char buf[84 + 100], *p = buf;
    memset(buf, 0, sizeof buf);
    memcpy(buf, "solid binary", 12);
    p = buf + 80;
    put_u32(&p, 2);
    const float f[2][9] = {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {1, 0, 0, 1, 1, 0, 0, 1, 0}};
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 3; ++k) put_f32(&p, 0.0f);
        for (int k = 0; k < 9; ++k) put_f32(&p, f[i][k]);
        p += 2;
    }
    rep = (sc_mesh_report){0};
    SCT_REQUIRE_OK(sc_mesh_parse(buf, sizeof buf, "bin.stl", SC_MESH_FORMAT_AUTO, &m, &rep));
    SCT_CHECK_EQ_U64(m.triangle_count, 2);
    SCT_CHECK_EQ_U64(m.vertex_count, 4);
    sc_mesh_free(&m);
    SCT_CHECK(sc_mesh_parse(buf, sizeof buf - 7, "cutbin.stl", SC_MESH_FORMAT_AUTO, &m, &rep) == SC_ERROR_PARSE);
    check_message("cutbin.stl: byte 80: binary STL header says 2 facets");
}

static void test_files_and_streams(void)
{
    char dir[] = "/tmp/sc_mesh_test_XXXXXX";
    SCT_REQUIRE(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/tri.obj", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    SCT_REQUIRE(fd >= 0);
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    SCT_REQUIRE(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    sc_mesh m;
    SCT_CHECK_OK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, NULL));
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    sc_mesh_free(&m);
    FILE *f = fopen(path, "rb");
    SCT_REQUIRE(f);
    SCT_CHECK_OK(sc_mesh_load_stream(f, "stream", SC_MESH_FORMAT_OBJ, &m, NULL));
    SCT_CHECK_EQ_U64(m.vertex_count, 3);
    sc_mesh_free(&m);
    fclose(f);
    unlink(path);
    SCT_CHECK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, NULL) == SC_ERROR_IO);
    check_message(path);
    rmdir(dir);
    SCT_CHECK(sc_mesh_load("/tmp/x.unknown", SC_MESH_FORMAT_AUTO, &m, NULL) == SC_ERROR_INVALID_ARGUMENT);
    /* The message lists every format's extension. */
    for (int k = SC_MESH_FORMAT_AUTO + 1; k < SC_MESH_FORMAT_COUNT; ++k)
        check_message(sc_mesh_format_extension((sc_mesh_format)k));
}

/* Every format has a distinct extension, which a file name is read by (any case, before ".xz"). */
static void test_format_extensions(void)
{
    SCT_CHECK(sc_mesh_format_extension(SC_MESH_FORMAT_AUTO) == NULL);
    SCT_CHECK(sc_mesh_format_extension(SC_MESH_FORMAT_COUNT) == NULL);
    SCT_CHECK(sc_mesh_format_extension((sc_mesh_format)-1) == NULL);
    SCT_CHECK(strcmp(sc_mesh_format_extension(SC_MESH_FORMAT_OBJ), ".obj") == 0);
    for (int k = SC_MESH_FORMAT_AUTO + 1; k < SC_MESH_FORMAT_COUNT; ++k) {
        const char *ext = sc_mesh_format_extension((sc_mesh_format)k);
        SCT_REQUIRE(ext != NULL && ext[0] == '.' && ext[1] != '\0');
        for (int j = SC_MESH_FORMAT_AUTO + 1; j < k; ++j)
            SCT_CHECK_MSG(strcmp(ext, sc_mesh_format_extension((sc_mesh_format)j)) != 0, "formats %d and %d share %s",
                          j, k, ext);
    }
    /* A triangle in OBJ, known by its name's extension in capitals. */
    const char *tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    sc_mesh m;
    SCT_CHECK_OK(sc_mesh_parse(tri, strlen(tri), "TRI.OBJ", SC_MESH_FORMAT_AUTO, &m, NULL));
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    sc_mesh_free(&m);
}

/* Every directed edge once and its reverse once: closed, consistently oriented; positive volume. */
static void test_default_mesh_closed(void)
{
    sc_mesh m;
    SCT_REQUIRE_OK(sc_mesh_default(20, &m));
    SCT_CHECK_EQ_U64(m.triangle_count, 4 * 20 * 20);
    SCT_CHECK_EQ_U64(m.vertex_count, 2 * 20 * 20);
    size_t ne = 3 * (size_t)m.triangle_count;
    uint64_t *edges = malloc(ne * sizeof *edges);
    for (uint32_t t = 0; t < m.triangle_count; ++t)
        for (int k = 0; k < 3; ++k)
            edges[3 * t + k] = (uint64_t)m.indices[3 * t + k] << 32 | m.indices[3 * t + (k + 1) % 3];
    /* Each edge unique and its reverse present exactly once. */
    size_t bad = 0;
    for (size_t i = 0; i < ne; ++i) {
        uint64_t rev = (edges[i] & 0xFFFFFFFFu) << 32 | edges[i] >> 32;
        size_t found = 0, same = 0;
        for (size_t j = 0; j < ne; ++j) {
            found += edges[j] == rev;
            same += edges[j] == edges[i];
        }
        bad += found != 1 || same != 1;
    }
    SCT_CHECK_EQ_U64(bad, 0);
    double vol = 0;
    for (uint32_t t = 0; t < m.triangle_count; ++t) {
        const float *a = m.positions + 3 * m.indices[3 * t], *b = m.positions + 3 * m.indices[3 * t + 1],
                    *c = m.positions + 3 * m.indices[3 * t + 2];
        vol += (a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) - a[1] * ((double)b[0] * c[2] - (double)b[2] * c[0]) +
                a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
    }
    SCT_CHECK_MSG(vol > 0.01, "signed volume %g", vol);
    sc_mesh_report rep = {0};
    sc_mesh_clean(&m, &rep);
    SCT_CHECK_EQ_U64(rep.dropped_zero_area, 0);
    free(edges);
    sc_mesh_free(&m);
    SCT_CHECK(sc_mesh_default(2, &m) == SC_ERROR_INVALID_ARGUMENT);
    SCT_REQUIRE_OK(sc_mesh_default(0, &m));
    SCT_CHECK_EQ_U64(m.triangle_count, 1048576);
    sc_mesh_free(&m);
}

/* The shared benchmark models, loaded straight from their .xz files; skipped when absent. */
static void test_shared_models(void)
{
    char path[1024];
    if (!sct_model_path("stanford-bunny.obj.xz", path, sizeof path)) {
        sct_skip("shared models are not present (set SLABCAST_MODELS)");
        return;
    }
    sc_mesh m;
    sc_mesh_report rep = {0};
    SCT_REQUIRE_OK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, &rep));
    /* 35947 vertices in the file; the loader keeps only those faces use. */
    SCT_CHECK_EQ_U64(m.vertex_count + rep.removed_unused_vertices, 35947);
    SCT_CHECK(m.vertex_count > 34000);
    SCT_CHECK_EQ_U64(m.triangle_count + rep.dropped_zero_area + rep.dropped_bad_index + rep.dropped_non_finite, 69451);
    SCT_CHECK(m.triangle_count > 69000);
    sc_mesh_free(&m);
}

/* A file named .xz that is not xz data is an I/O error naming the file; a missing one too. */
static void test_xz_errors(void)
{
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    char dir[] = "/tmp/sc_mesh_xz_XXXXXX";
    SCT_REQUIRE(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/plain.obj.xz", dir);
    FILE *f = fopen(path, "w");
    SCT_REQUIRE(f != NULL);
    fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", f);
    fclose(f);
    sc_mesh m;
    SCT_CHECK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, NULL) == SC_ERROR_IO);
    SCT_CHECK_MSG(strstr(sc_last_error(), "plain.obj.xz") != NULL, "%s", sc_last_error());
    SCT_CHECK(m.triangle_count == 0 && m.indices == NULL);
    snprintf(path, sizeof path, "%s/missing.obj.xz", dir);
    SCT_CHECK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &m, NULL) == SC_ERROR_IO);
    snprintf(path, sizeof path, "%s/plain.obj.xz", dir);
    remove(path);
    rmdir(dir);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "mesh_io");
    SCT_RUN(test_obj_good);
    SCT_RUN(test_obj_errors);
    SCT_RUN(test_degenerate_input_dropped);
    SCT_RUN(test_forward_references);
    SCT_RUN(test_ply_ascii);
    SCT_RUN(test_ply_binary);
    SCT_RUN(test_stl);
    SCT_RUN(test_files_and_streams);
    SCT_RUN(test_format_extensions);
    SCT_RUN(test_default_mesh_closed);
    SCT_RUN(test_shared_models);
    SCT_RUN(test_xz_errors);
    return sct_end();
}
