/* test_mesh_progress.c - sc_mesh_load_file's progress calls and cancellation (cpu): for OBJ, PLY
 * (ASCII and binary), STL and .xz files of a few MiB made here from a seeded generator, the calls
 * are monotonic, within the file's size, more than one, and end at the size; the mesh is the one
 * sc_mesh_load gives. Cancelling at the first call, mid-way and at the last call fails with
 * SC_ERROR_CANCELLED, a message naming the file, an empty mesh and nothing leaked (ASan builds
 * check the leaks). A pipe reports an unknown size (0). The shared dragon model when present. */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sc_mesh.h"
#include "sctest.h"
#include "sctest_log.h"
#include "sctest_models.h"

static char g_dir[64];

/* ---- generated files ---- */

typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->n + n) cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) abort();
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void putf(bytes *b, const char *fmt, double x, double y, double z)
{
    char line[128];
    int n = snprintf(line, sizeof line, fmt, x, y, z);
    put(b, line, (size_t)n);
}

static void put_u32(bytes *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(b, c, 4);
}

static void put_f32(bytes *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(b, v);
}

/* A random point cloud and random triangles over it (three distinct vertices each: zero area only
 * by a vanishing chance). Positions are multiples of 1/1024, exact in text and binary alike. */
typedef struct model {
    float *v;
    uint32_t *t;
    uint32_t nv, nt;
} model;

static model make_model(uint32_t nv, uint32_t nt, uint64_t seed)
{
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    model m = {malloc(sizeof(float) * 3 * nv), malloc(sizeof(uint32_t) * 3 * nt), nv, nt};
    if (!m.v || !m.t) abort();
    for (uint32_t i = 0; i < 3 * nv; ++i) m.v[i] = (float)((int)sct_rng_below(&rng, 1 << 21) - (1 << 20)) / 1024.0f;
    for (uint32_t i = 0; i < nt; ++i) {
        uint32_t *f = m.t + 3 * (size_t)i;
        f[0] = sct_rng_below(&rng, nv);
        do f[1] = sct_rng_below(&rng, nv); while (f[1] == f[0]);
        do f[2] = sct_rng_below(&rng, nv); while (f[2] == f[0] || f[2] == f[1]);
    }
    return m;
}

static void free_model(model *m)
{
    free(m->v);
    free(m->t);
}

static bytes obj_of(const model *m)
{
    bytes b = {0};
    for (uint32_t i = 0; i < m->nv; ++i) putf(&b, "v %.10g %.10g %.10g\n", m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
    for (uint32_t i = 0; i < m->nt; ++i)
        putf(&b, "f %.0f %.0f %.0f\n", m->t[3 * i] + 1.0, m->t[3 * i + 1] + 1.0, m->t[3 * i + 2] + 1.0);
    return b;
}

static void ply_header(bytes *b, const model *m, const char *format)
{
    char head[512];
    int n = snprintf(head, sizeof head,
                     "ply\nformat %s 1.0\nelement vertex %u\nproperty float x\nproperty float y\nproperty float z\n"
                     "element face %u\nproperty list uchar int vertex_indices\nend_header\n",
                     format, m->nv, m->nt);
    put(b, head, (size_t)n);
}

static bytes ply_ascii_of(const model *m)
{
    bytes b = {0};
    ply_header(&b, m, "ascii");
    for (uint32_t i = 0; i < m->nv; ++i) putf(&b, "%.10g %.10g %.10g\n", m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
    for (uint32_t i = 0; i < m->nt; ++i) putf(&b, "3 %.0f %.0f %.0f\n", m->t[3 * i], m->t[3 * i + 1], m->t[3 * i + 2]);
    return b;
}

static bytes ply_binary_of(const model *m)
{
    bytes b = {0};
    ply_header(&b, m, "binary_little_endian");
    for (uint32_t i = 0; i < 3 * m->nv; ++i) put_f32(&b, m->v[i]);
    for (uint32_t i = 0; i < m->nt; ++i) {
        unsigned char three = 3;
        put(&b, &three, 1);
        for (int k = 0; k < 3; ++k) put_u32(&b, m->t[3 * i + k]);
    }
    return b;
}

/* Binary STL: 80-byte header, count, 50 bytes per facet (normal, three corners, attribute). */
static bytes stl_binary_of(const model *m)
{
    bytes b = {0};
    char head[80] = "binary stl made by test_mesh_progress";
    put(&b, head, sizeof head);
    put_u32(&b, m->nt);
    for (uint32_t i = 0; i < m->nt; ++i) {
        for (int k = 0; k < 3; ++k) put_f32(&b, 0.0f);
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) put_f32(&b, m->v[3 * (size_t)m->t[3 * i + c] + k]);
        unsigned char attr[2] = {0, 0};
        put(&b, attr, 2);
    }
    return b;
}

/* The .xz container of data, at the fastest preset (random numbers compress about 2:1). */
static bytes xz_of(const bytes *data)
{
    bytes out = {0};
    out.cap = lzma_stream_buffer_bound(data->n);
    out.p = malloc(out.cap);
    size_t pos = 0;
    if (out.p && lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, data->p, data->n, out.p, &pos, out.cap) == LZMA_OK)
        out.n = pos;
    return out;
}

static const char *temp_path(char *buf, size_t cap, const char *file)
{
    snprintf(buf, cap, "%s/%s", g_dir, file);
    return buf;
}

static int write_file(const char *path, const bytes *b)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(b->p, 1, b->n, f);
    return fclose(f) == 0 && w == b->n ? 0 : -1;
}

/* ---- the progress callback under test ---- */

typedef struct recorder {
    int calls;
    int cancel_at;               /* return nonzero at this call (1-based); 0: never */
    uint64_t first_done, last_done, last_total;
    int backwards, over_total, total_changed;
} recorder;

static int record(void *user, uint64_t done, uint64_t total)
{
    recorder *r = user;
    if (r->calls == 0) {
        r->first_done = done;
        r->last_total = total;
    }
    if (r->calls && done < r->last_done) r->backwards = 1;
    if (total && done > total) r->over_total = 1;
    if (total != r->last_total) r->total_changed = 1;
    r->last_done = done;
    r->last_total = total;
    ++r->calls;
    return r->calls == r->cancel_at;
}

static sc_status load_recorded(const char *path, recorder *r, sc_mesh *m)
{
    sc_mesh_load_desc desc = {0};
    desc.progress = record;
    desc.progress_user = r;
    return sc_mesh_load_file(path, &desc, m, NULL);
}

static void check_sane(const char *what, const recorder *r)
{
    SCT_CHECK_MSG(!r->backwards, "%s: progress went backwards", what);
    SCT_CHECK_MSG(!r->over_total, "%s: progress passed the total", what);
    SCT_CHECK_MSG(!r->total_changed, "%s: the total changed between calls", what);
}

static void check_same_mesh(const char *what, const sc_mesh *a, const sc_mesh *b)
{
    SCT_CHECK_MSG(a->vertex_count == b->vertex_count && a->triangle_count == b->triangle_count,
                  "%s: %u vertices, %u triangles; without progress %u, %u", what, a->vertex_count, a->triangle_count,
                  b->vertex_count, b->triangle_count);
    if (a->vertex_count != b->vertex_count || a->triangle_count != b->triangle_count) return;
    SCT_CHECK_MSG(memcmp(a->positions, b->positions, sizeof(float) * 3 * a->vertex_count) == 0,
                  "%s: positions differ from the load without progress", what);
    SCT_CHECK_MSG(memcmp(a->indices, b->indices, sizeof(uint32_t) * 3 * a->triangle_count) == 0,
                  "%s: indices differ from the load without progress", what);
}

static void check_cancelled(const char *what, const char *path, sc_status s, const sc_mesh *m)
{
    SCT_CHECK_MSG(s == SC_ERROR_CANCELLED, "%s: cancel gave %s (%s)", what, sc_status_name(s), sc_last_error());
    SCT_CHECK_MSG(strstr(sc_last_error(), "loading cancelled") && strstr(sc_last_error(), path),
                  "%s: message '%s' does not say 'loading cancelled' naming %s", what, sc_last_error(), path);
    SCT_CHECK_MSG(!m->positions && !m->indices && !m->vertex_count && !m->triangle_count,
                  "%s: a cancelled load left a non-empty mesh", what);
}

/* A multi-MiB file: calls sane, several, ending at the file's size, the same mesh as without
 * progress; then cancelled at the first call, mid-way and at the last call. */
static void check_file(const char *file, const bytes *data, uint32_t want_triangles)
{
    char path[256];
    temp_path(path, sizeof path, file);
    SCT_CHECK_MSG(data->n > (2u << 20), "%s: %zu bytes, too few for several progress calls", file, data->n);
    SCT_REQUIRE(write_file(path, data) == 0);
    sc_mesh plain, m;
    SCT_REQUIRE_OK(sc_mesh_load(path, SC_MESH_FORMAT_AUTO, &plain, NULL));
    SCT_CHECK_EQ_U64(plain.triangle_count, want_triangles);
    recorder r = {0};
    SCT_CHECK_OK(load_recorded(path, &r, &m));
    check_sane(file, &r);
    SCT_CHECK_MSG(r.calls >= 3, "%s: %d progress calls for %zu bytes", file, r.calls, data->n);
    SCT_CHECK_MSG(r.first_done > 0 && r.first_done < data->n, "%s: first call at %llu of %zu", file,
                  (unsigned long long)r.first_done, data->n);
    SCT_CHECK_EQ_U64(r.last_total, data->n);
    SCT_CHECK_EQ_U64(r.last_done, data->n);
    check_same_mesh(file, &m, &plain);
    sc_mesh_free(&m);
    sc_mesh_free(&plain);
    const int all = r.calls;

    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    const int cancel_at[3] = {1, all / 2, all};
    const char *when[3] = {"first call", "mid-way", "last call"};
    for (int k = 0; k < 3; ++k) {
        char what[128];
        snprintf(what, sizeof what, "%s, cancelled at the %s", file, when[k]);
        recorder c = {0};
        c.cancel_at = cancel_at[k];
        memset(&m, 0xAB, sizeof m); /* the load must empty it */
        sc_status s = load_recorded(path, &c, &m);
        check_cancelled(what, path, s, &m);
        SCT_CHECK_MSG(c.calls == cancel_at[k], "%s: %d calls after cancelling at call %d", what, c.calls, cancel_at[k]);
        check_sane(what, &c);
    }
    sc_set_log_callback(NULL, NULL, SC_LOG_WARNING);
}

/* ---- tests ---- */

enum { MODEL_VERTICES = 60000, MODEL_TRIANGLES = 100000 };

static void test_obj(void)
{
    model m = make_model(MODEL_VERTICES, MODEL_TRIANGLES, sct_base_seed() + 1);
    bytes b = obj_of(&m);
    check_file("progress.obj", &b, m.nt);
    free(b.p);
    free_model(&m);
}

static void test_ply_ascii(void)
{
    model m = make_model(MODEL_VERTICES, MODEL_TRIANGLES, sct_base_seed() + 2);
    bytes b = ply_ascii_of(&m);
    check_file("progress_ascii.ply", &b, m.nt);
    free(b.p);
    free_model(&m);
}

static void test_ply_binary(void)
{
    model m = make_model(MODEL_VERTICES, 2 * MODEL_TRIANGLES, sct_base_seed() + 3);
    bytes b = ply_binary_of(&m);
    check_file("progress_binary.ply", &b, m.nt);
    free(b.p);
    free_model(&m);
}

static void test_stl(void)
{
    model m = make_model(MODEL_VERTICES, MODEL_TRIANGLES, sct_base_seed() + 4);
    bytes b = stl_binary_of(&m);
    check_file("progress.stl", &b, m.nt);
    free(b.p);
    free_model(&m);
}

/* Progress counts the compressed bytes: the total is the .xz file's size. */
static void test_xz(void)
{
    model m = make_model(MODEL_VERTICES, 2 * MODEL_TRIANGLES, sct_base_seed() + 5);
    bytes text = obj_of(&m);
    bytes b = xz_of(&text);
    SCT_CHECK_MSG(b.n > 0 && b.n < text.n, "xz of %zu bytes gave %zu", text.n, b.n);
    if (b.n) check_file("progress.obj.xz", &b, m.nt);
    free(text.p);
    free(b.p);
    free_model(&m);
}

/* Under a MiB: one call, at the end, with done == total; cancelling there still cancels. */
static void test_small_file(void)
{
    bytes b = {0};
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    put(&b, text, strlen(text));
    char path[256];
    temp_path(path, sizeof path, "small.obj");
    SCT_REQUIRE(write_file(path, &b) == 0);
    recorder r = {0};
    sc_mesh m;
    SCT_CHECK_OK(load_recorded(path, &r, &m));
    SCT_CHECK_EQ_U64(r.calls, 1);
    SCT_CHECK_EQ_U64(r.last_done, b.n);
    SCT_CHECK_EQ_U64(r.last_total, b.n);
    SCT_CHECK_EQ_U64(m.triangle_count, 1);
    sc_mesh_free(&m);
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    recorder c = {0};
    c.cancel_at = 1;
    check_cancelled("small.obj", path, load_recorded(path, &c, &m), &m);
    sc_set_log_callback(NULL, NULL, SC_LOG_WARNING);
    free(b.p);
}

/* The descriptor's other fields: NULL is every default, the format and the limits are used, and a
 * failure other than cancelling makes no last call. */
static void test_descriptor_fields(void)
{
    bytes b = {0};
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n";
    put(&b, text, strlen(text));
    char path[256];
    temp_path(path, sizeof path, "mesh.data");
    SCT_REQUIRE(write_file(path, &b) == 0);
    sc_mesh m;
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    SCT_CHECK(sc_mesh_load_file(path, NULL, &m, NULL) == SC_ERROR_INVALID_ARGUMENT); /* no extension, AUTO */
    sc_mesh_load_desc desc = {0};
    desc.format = SC_MESH_FORMAT_OBJ;
    SCT_CHECK_OK(sc_mesh_load_file(path, &desc, &m, NULL));
    SCT_CHECK_EQ_U64(m.triangle_count, 2);
    sc_mesh_free(&m);
    sc_mesh_limits limits = {0};
    limits.max_triangles = 1;
    desc.limits = &limits;
    recorder r = {0};
    desc.progress = record;
    desc.progress_user = &r;
    SCT_CHECK(sc_mesh_load_file(path, &desc, &m, NULL) == SC_ERROR_OUT_OF_MEMORY);
    SCT_CHECK(m.triangle_count == 0 && m.indices == NULL);
    SCT_CHECK_EQ_U64(r.calls, 0);
    SCT_CHECK(sc_mesh_load_file(NULL, &desc, &m, NULL) == SC_ERROR_INVALID_ARGUMENT);
    sc_set_log_callback(NULL, NULL, SC_LOG_WARNING);
    free(b.p);
}

/* A FIFO has no size: total 0 on every call, done counting up to the bytes written. The test holds
 * a reader open so the writer child can open its end first: the load then never sees a FIFO
 * without a writer (which reads as empty). */
static void test_pipe_has_unknown_total(void)
{
    model md = make_model(MODEL_VERTICES / 2, MODEL_TRIANGLES / 2, sct_base_seed() + 6);
    bytes b = obj_of(&md);
    char path[256];
    temp_path(path, sizeof path, "fifo.obj");
    SCT_REQUIRE(mkfifo(path, 0600) == 0);
    int hold = open(path, O_RDONLY | O_NONBLOCK);
    int sync[2];
    SCT_REQUIRE(hold >= 0 && pipe(sync) == 0);
    pid_t child = fork();
    SCT_REQUIRE(child >= 0);
    if (child == 0) {
        int fd = open(path, O_WRONLY);
        char one = 1;
        if (fd < 0 || write(sync[1], &one, 1) != 1) _exit(1);
        size_t off = 0;
        while (off < b.n) {
            ssize_t w = write(fd, b.p + off, b.n - off);
            if (w <= 0) _exit(1);
            off += (size_t)w;
        }
        _exit(close(fd) == 0 ? 0 : 1);
    }
    char one = 0;
    SCT_CHECK(read(sync[0], &one, 1) == 1);
    recorder r = {0};
    sc_mesh m;
    SCT_CHECK_OK(load_recorded(path, &r, &m));
    int status = 0;
    waitpid(child, &status, 0);
    close(hold);
    close(sync[0]);
    close(sync[1]);
    SCT_CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the FIFO's writer failed");
    check_sane("fifo", &r);
    SCT_CHECK_EQ_U64(r.last_total, 0);
    SCT_CHECK_EQ_U64(r.last_done, b.n);
    SCT_CHECK_MSG(r.calls >= 2, "fifo: %d progress calls for %zu bytes", r.calls, b.n);
    SCT_CHECK_EQ_U64(m.triangle_count, md.nt);
    sc_mesh_free(&m);
    unlink(path);
    free(b.p);
    free_model(&md);
}

/* The real model: 5.6 MB of .xz, about six calls; a cancel mid-way stops it. */
static void test_shared_dragon(void)
{
    char path[1024];
    if (!sct_model_path("stanford-dragon.obj.xz", path, sizeof path)) {
        sct_skip("stanford-dragon.obj.xz not found (set SLABCAST_MODELS)");
        return;
    }
    struct stat st;
    SCT_REQUIRE(stat(path, &st) == 0);
    recorder r = {0};
    sc_mesh m;
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR); /* its 108 zero-area faces' warning */
    SCT_CHECK_OK(load_recorded(path, &r, &m));
    check_sane("dragon", &r);
    SCT_CHECK_MSG(r.calls >= 5, "dragon: %d progress calls", r.calls);
    SCT_CHECK_EQ_U64(r.last_total, (uint64_t)st.st_size);
    SCT_CHECK_EQ_U64(r.last_done, (uint64_t)st.st_size);
    SCT_CHECK(m.triangle_count > 870000);
    sc_mesh_free(&m);
    recorder c = {0};
    c.cancel_at = 2;
    check_cancelled("dragon, cancelled mid-way", path, load_recorded(path, &c, &m), &m);
    SCT_CHECK_EQ_U64(c.calls, 2);
    sc_set_log_callback(NULL, NULL, SC_LOG_WARNING);
}

static void remove_temp_dir(void)
{
    const char *files[] = {"progress.obj", "progress_ascii.ply", "progress_binary.ply", "progress.stl",
                           "progress.obj.xz", "small.obj", "mesh.data", "fifo.obj"};
    char path[256];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) unlink(temp_path(path, sizeof path, files[i]));
    rmdir(g_dir);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "mesh_progress");
    snprintf(g_dir, sizeof g_dir, "/tmp/sc_mesh_progress_XXXXXX");
    if (!mkdtemp(g_dir)) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    SCT_RUN(test_obj);
    SCT_RUN(test_ply_ascii);
    SCT_RUN(test_ply_binary);
    SCT_RUN(test_stl);
    SCT_RUN(test_xz);
    SCT_RUN(test_small_file);
    SCT_RUN(test_descriptor_fields);
    SCT_RUN(test_pipe_has_unknown_total);
    SCT_RUN(test_shared_dragon);
    remove_temp_dir();
    return sct_end();
}
