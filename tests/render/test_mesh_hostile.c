/* test_mesh_hostile.c - hostile mesh files against the loaders (cpu): every case runs in a forked
 * child under an address-space limit (1 GiB; not under ASan) and an alarm, and must end within a
 * second and 256 MB with the right status and a message naming the file and the problem (and, for
 * a loading limit, how to raise it). One test per class of defect:
 *   PLY elements without properties and huge counts, counts and header lines checked, float to
 *   integer conversions range-checked; memory bounded (xz bombs, /dev/zero, limits, SIZE_MAX);
 *   paths that are not regular files; xz errors in xz's words; STL welding on a file crafted
 *   against a fixed hash; non-finite, huge and unused vertices; files that used to load silently
 *   wrong (binary garbage, no triangles, byte order marks, "SOLID", limits of UINT64_MAX); one warning
 *   per kind. */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sc_mesh.h"
#include "sctest.h"

#if defined(__SANITIZE_ADDRESS__)
#define HOSTILE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTILE_ASAN 1
#endif
#endif
#ifndef HOSTILE_ASAN
#define HOSTILE_ASAN 0
#endif

enum {
    CHILD_ALARM_S = 20,                  /* a hang fails the case after this long */
    MAX_RSS_KB = 256 * 1024              /* every case ends within 256 MB */
};
static const double k_time_bound_s = 1.0; /* every case ends within a second of CPU time */

static char g_dir[64];                   /* the cases' temporary folder */

/* ---- running a case in a child ---- */

typedef struct hostile_case {
    const char *path;                    /* load this file, or */
    const void *data;                    /* parse this memory */
    size_t size;
    const char *name;                    /* the name given with data */
    const sc_mesh_limits *limits;
} hostile_case;

typedef struct hostile_result {
    int ran;                             /* the child reported back */
    int signal;                          /* it died of this signal (SIGALRM: a hang) */
    int exit_status;                     /* or exited with this status before reporting */
    int status;
    double seconds;
    long max_rss_kb;
    uint32_t vertices, triangles;
    int all_finite;
    sc_mesh_report report;
    float first_vertex[3];
    char error[1024];
    char warnings[2048];
    int num_warnings;
} hostile_result;

static void capture_log(sc_log_level level, const char *message, void *user)
{
    hostile_result *r = user;
    if (level != SC_LOG_WARNING) return;
    ++r->num_warnings;
    size_t used = strlen(r->warnings);
    snprintf(r->warnings + used, sizeof r->warnings - used, "%s\n", message);
}

static void child_run(const hostile_case *c, int fd)
{
    static hostile_result r;
    memset(&r, 0, sizeof r);
    if (!HOSTILE_ASAN) {
        struct rlimit rl = {(rlim_t)1 << 30, (rlim_t)1 << 30};
        setrlimit(RLIMIT_AS, &rl);
    }
    alarm(CHILD_ALARM_S);
    sc_set_log_callback(capture_log, &r, SC_LOG_INFO);
    sc_mesh m;
    /* CPU time of the process, not wall time: the bound is on the loader's work, and a loaded
     * machine (parallel tests, fuzzers) must not fail it. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    if (c->path) r.status = sc_mesh_load_limited(c->path, SC_MESH_FORMAT_AUTO, c->limits, &m, &r.report);
    else r.status = sc_mesh_parse_limited(c->data, c->size, c->name, SC_MESH_FORMAT_AUTO, c->limits, &m, &r.report);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    snprintf(r.error, sizeof r.error, "%s", r.status ? sc_last_error() : "");
    r.vertices = m.vertex_count;
    r.triangles = m.triangle_count;
    r.all_finite = 1;
    for (size_t i = 0; i < 3 * (size_t)m.vertex_count; ++i) r.all_finite &= isfinite(m.positions[i]) != 0;
    if (m.vertex_count) memcpy(r.first_vertex, m.positions, sizeof r.first_vertex);
    sc_mesh_free(&m);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.max_rss_kb = ru.ru_maxrss;
    r.ran = 1;
    const char *p = (const char *)&r;
    for (size_t done = 0; done < sizeof r;) {
        ssize_t n = write(fd, p + done, sizeof r - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    _exit(0);
}

static hostile_result run_case(const hostile_case *c)
{
    hostile_result r;
    memset(&r, 0, sizeof r);
    int fds[2];
    if (pipe(fds) != 0) return r;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_run(c, fds[1]);
    }
    close(fds[1]);
    char *p = (char *)&r;
    size_t done = 0;
    while (pid > 0 && done < sizeof r) {
        ssize_t n = read(fds[0], p + done, sizeof r - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += (size_t)n;
    }
    close(fds[0]);
    int wstatus = 0;
    if (pid > 0) waitpid(pid, &wstatus, 0);
    if (done < sizeof r) memset(&r, 0, sizeof r);
    if (pid > 0 && WIFSIGNALED(wstatus)) r.signal = WTERMSIG(wstatus);
    if (pid > 0 && WIFEXITED(wstatus)) r.exit_status = WEXITSTATUS(wstatus);
    return r;
}

/* The case ended (no crash, no hang) within the time and memory bounds. */
static int check_bounded(const char *what, const hostile_result *r)
{
    if (!r->ran) {
        if (r->signal)
            sct_fail(__FILE__, __LINE__, "%s: the loader %s", what,
                     r->signal == SIGALRM ? "hung (killed after the alarm)" : strsignal(r->signal));
        else
            sct_fail(__FILE__, __LINE__, "%s: the loader's process exited with status %d (a sanitizer?)", what,
                     r->exit_status);
        return 0;
    }
    printf("      %-44s %7.3f s %6ld MB  status %d  %s\n", what, r->seconds, r->max_rss_kb / 1024, r->status,
           r->status ? r->error : "");
    SCT_CHECK_MSG(r->seconds < k_time_bound_s, "%s: took %.3f s (bound %.1f s)", what, r->seconds, k_time_bound_s);
    SCT_CHECK_MSG(HOSTILE_ASAN || r->max_rss_kb < MAX_RSS_KB, "%s: peak memory %ld MB", what, r->max_rss_kb / 1024);
    return 1;
}

/* Status and every needle (NULL-terminated list) in the error message. */
static void expect_error(const char *what, const hostile_result *r, int status, ...)
{
    if (!check_bounded(what, r)) return;
    SCT_CHECK_MSG(r->status == status, "%s: status %d, expected %d (%s)", what, r->status, status, r->error);
    va_list ap;
    va_start(ap, status);
    for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
        SCT_CHECK_MSG(strstr(r->error, needle) != NULL, "%s: message '%s' lacks '%s'", what, r->error, needle);
    va_end(ap);
}

static void expect_ok(const char *what, const hostile_result *r, uint32_t triangles)
{
    if (!check_bounded(what, r)) return;
    SCT_CHECK_MSG(r->status == SC_OK, "%s: status %d: %s", what, r->status, r->error);
    SCT_CHECK_MSG(r->triangles == triangles, "%s: %u triangles, expected %u", what, r->triangles, triangles);
    SCT_CHECK_MSG(r->all_finite, "%s: the mesh has a non-finite vertex", what);
}

static hostile_result parse_text(const char *text, const char *name, const sc_mesh_limits *limits)
{
    hostile_case c = {NULL, text, strlen(text), name, limits};
    return run_case(&c);
}

static hostile_result parse_bytes(const void *data, size_t size, const char *name)
{
    hostile_case c = {NULL, data, size, name, NULL};
    return run_case(&c);
}

static hostile_result load_path(const char *path, const sc_mesh_limits *limits)
{
    hostile_case c = {path, NULL, 0, NULL, limits};
    return run_case(&c);
}

static const char *temp_path(char *buf, size_t cap, const char *file)
{
    snprintf(buf, cap, "%s/%s", g_dir, file);
    return buf;
}

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* ---- byte builders ---- */

typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = 2 * (b->n + n) + 256;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_str(bytes *b, const char *s) { put(b, s, strlen(s)); }
static void put_u8(bytes *b, unsigned v) { unsigned char c = (unsigned char)v; put(b, &c, 1); }
static void put_u32(bytes *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(b, c, 4);
}
static void put_f32(bytes *b, float f) { uint32_t v; memcpy(&v, &f, 4); put_u32(b, v); }
static void put_f64(bytes *b, double d) { uint64_t v; memcpy(&v, &d, 8); put_u32(b, (uint32_t)v); put_u32(b, (uint32_t)(v >> 32)); }

/* .xz of data (one stream, preset 0). */
static bytes xz_of(const void *data, size_t size)
{
    bytes out = {malloc(size / 2 + 4096), 0, size / 2 + 4096};
    size_t pos = 0;
    if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, data, size, out.p, &pos, out.cap) == LZMA_OK) out.n = pos;
    return out;
}

/* ---- PLY: elements without properties, counts, header lines ---- */

static const char k_ply_mesh_header[] = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
                                        "element face 1\nproperty list uchar int vertex_indices\n";

static void test_ply_elements_without_properties(void)
{
    char text[1024];
    /* A huge count on an element with no properties: no data, nothing to loop over. */
    snprintf(text, sizeof text, "ply\nformat ascii 1.0\n%selement junk 18446744073709551615\nend_header\n"
             "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", k_ply_mesh_header);
    hostile_result r = parse_text(text, "junk.ply", NULL);
    expect_ok("ascii: element junk 2^64-1, no properties", &r, 1);

    bytes bin = {0};
    put_str(&bin, "ply\nformat binary_little_endian 1.0\nelement junk 18446744073709551615\n");
    put_str(&bin, k_ply_mesh_header);
    put_str(&bin, "end_header\n");
    const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 9; ++i) put_f32(&bin, v[i]);
    put_u8(&bin, 3);
    for (uint32_t i = 0; i < 3; ++i) put_u32(&bin, i);
    r = parse_bytes(bin.p, bin.n, "junk_bin.ply");
    expect_ok("binary: element junk 2^64-1, no properties", &r, 1);
    free(bin.p);

    r = parse_text("ply\nformat ascii 1.0\nelement junk 18446744073709551615\nend_header\n", "only_junk.ply", NULL);
    expect_error("header only: element junk 2^64-1", &r, SC_ERROR_PARSE, "no triangles in only_junk.ply", NULL);
    r = parse_text("ply\nformat binary_little_endian 1.0\nelement face 4000000000\nend_header\n", "faces.ply", NULL);
    expect_error("element face 4e9 without properties", &r, SC_ERROR_PARSE, "no triangles in faces.ply", NULL);
}

static void test_ply_counts_and_header_lines(void)
{
    hostile_result r = parse_text("ply\nformat ascii 1.0\nelement vertex 18446744073709551616\nproperty float x\n"
                                  "end_header\n", "over.ply", NULL);
    expect_error("element count 2^64", &r, SC_ERROR_PARSE, "over.ply:3:", "element count", NULL);
    r = parse_text("ply\nformat ascii 1.0\nelement vertex 3 7\nproperty float x\nend_header\n", "tokens.ply", NULL);
    expect_error("element line with a trailing token", &r, SC_ERROR_PARSE, "tokens.ply:3:", NULL);
    r = parse_text("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x y\nend_header\n", "prop.ply", NULL);
    expect_error("property line with a trailing token", &r, SC_ERROR_PARSE, "prop.ply:4:", NULL);
    r = parse_text("ply\nformat ascii 1.0 x\nend_header\n", "format.ply", NULL);
    expect_error("format line with a trailing token", &r, SC_ERROR_PARSE, "format.ply:2:", NULL);

    /* A count the data cannot hold, when the size is known: refused before reading. */
    bytes bin = {0};
    put_str(&bin, "ply\nformat binary_little_endian 1.0\nelement vertex 100000000\nproperty float x\n"
                  "property float y\nproperty float z\nend_header\n");
    for (int i = 0; i < 30; ++i) put_f32(&bin, (float)i);
    r = parse_bytes(bin.p, bin.n, "count.ply");
    expect_error("binary count larger than the data", &r, SC_ERROR_PARSE, "count.ply:3:", "100000000", NULL);
    free(bin.p);

    char text[1024];
    snprintf(text, sizeof text, "ply\nformat ascii 1.0\n%send_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n9 9\n",
             k_ply_mesh_header);
    r = parse_text(text, "trailing.ply", NULL);
    expect_error("ascii data after the last element", &r, SC_ERROR_PARSE, "trailing.ply:14:", "after the last element",
                 NULL);
}

/* NaN, infinities and 1e300 where an integer is read: errors or dropped faces, never a conversion
 * with undefined behaviour (UBSan builds see it). */
static void test_ply_float_to_integer(void)
{
    static const char *const bad_ints[] = {"1e300", "nan", "-inf", "2.5", "4294967296", "-1"};
    for (size_t i = 0; i < sizeof bad_ints / sizeof bad_ints[0]; ++i) {
        char text[1024], what[96];
        snprintf(text, sizeof text, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                 "property float z\nproperty uint k\nelement face 1\nproperty list uchar int vertex_indices\n"
                 "end_header\n0 0 0 %s\n1 0 0 0\n0 1 0 0\n3 0 1 2\n", bad_ints[i]);
        snprintf(what, sizeof what, "ascii uint property '%s'", bad_ints[i]);
        hostile_result r = parse_text(text, "int.ply", NULL);
        expect_error(what, &r, SC_ERROR_PARSE, "int.ply:11:", "integer", NULL);
    }
    /* Float and double index lists: only whole numbers in range index; other faces are dropped. */
    bytes bin = {0};
    put_str(&bin, "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty double x\nproperty double y\n"
                  "property double z\nelement face 6\nproperty list uchar float vertex_indices\nend_header\n");
    const double v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1e300, 0, 0};
    for (int i = 0; i < 12; ++i) put_f64(&bin, v[i]);
    const float faces[6][3] = {{0, 1, 2}, {0, 1, NAN}, {0, 1, 1e30f}, {0, 1, -1}, {0, 1, 1.5f}, {0, 1, 3}};
    for (int f = 0; f < 6; ++f) {
        put_u8(&bin, 3);
        for (int k = 0; k < 3; ++k) put_f32(&bin, faces[f][k]);
    }
    hostile_result r = parse_bytes(bin.p, bin.n, "float_index.ply");
    expect_ok("float indices NaN, 1e30, -1, 1.5; vertex 1e300", &r, 1);
    SCT_CHECK_EQ_U64(r.report.dropped_bad_index, 4);
    SCT_CHECK_EQ_U64(r.report.dropped_non_finite, 1);
    SCT_CHECK_EQ_U64(r.vertices, 3);
    free(bin.p);
}

/* ---- memory: streams, limits ---- */

/* n copies of one .xz stream of `unit` repeated to `unit_bytes`: a bomb of n * unit_bytes. */
static int write_xz_bomb(const char *path, const char *unit, size_t unit_bytes, int copies)
{
    size_t len = strlen(unit);
    char *plain = malloc(unit_bytes);
    for (size_t i = 0; i < unit_bytes; ++i) plain[i] = len ? unit[i % len] : 0;
    bytes xz = xz_of(plain, unit_bytes);
    free(plain);
    FILE *f = fopen(path, "wb");
    int ok = f && xz.n;
    for (int i = 0; ok && i < copies; ++i) ok = fwrite(xz.p, 1, xz.n, f) == xz.n;
    if (f) ok &= fclose(f) == 0;
    free(xz.p);
    return ok;
}

static void test_memory_bounded(void)
{
    char path[256];
    /* 3.2 GB of zeros in a 400 KB .obj.xz: binary data at line 1, found in the first chunk. */
    SCT_REQUIRE(write_xz_bomb(temp_path(path, sizeof path, "zeros.obj.xz"), "", 16u << 20, 200));
    hostile_result r = load_path(path, NULL);
    expect_error("xz bomb of zeros (.obj.xz)", &r, SC_ERROR_PARSE, "zeros.obj.xz:1:", "binary data", NULL);
    unlink(path);

    /* 3.2 GB of valid comment lines: stopped by the byte limit, with how to raise it. */
    SCT_REQUIRE(write_xz_bomb(temp_path(path, sizeof path, "comments.obj.xz"), "# a comment line\n", 16u << 20, 200));
    sc_mesh_limits lim = {32u << 20, 0, 0, UINT32_MAX}; /* the ratio would stop it first */
    r = load_path(path, &lim);
    expect_error("xz bomb of comments, max_bytes 32 MiB", &r, SC_ERROR_OUT_OF_MEMORY, "comments.obj.xz", "33554432",
                 "--max-mesh-bytes", "sc_mesh_limits.max_bytes", NULL);
    /* The same with the default limits (4 GiB of bytes): stopped by the compression ratio once past
     * 16 MiB, not after reading 3.2 GB. */
    r = load_path(path, NULL);
    expect_error("xz bomb of comments, default limits", &r, SC_ERROR_OUT_OF_MEMORY, "comments.obj.xz",
                 "--max-xz-ratio", "sc_mesh_limits.max_xz_ratio", NULL);
    unlink(path);

    /* 3.2 GB of valid vertex lines (2^28 vertices would take 3 GiB before the vertex limit): the ratio. */
    SCT_REQUIRE(write_xz_bomb(temp_path(path, sizeof path, "vertices.obj.xz"), "v 1 2 3\n", 16u << 20, 200));
    r = load_path(path, NULL);
    expect_error("xz bomb of vertices, default limits", &r, SC_ERROR_OUT_OF_MEMORY, "vertices.obj.xz",
                 "--max-xz-ratio", NULL);
    unlink(path);

    /* A link to /dev/zero, for each format. */
    static const char *const zero_names[] = {"zero.obj", "zero.ply", "zero.stl"};
    for (int i = 0; i < 3; ++i) {
        temp_path(path, sizeof path, zero_names[i]);
        SCT_REQUIRE(symlink("/dev/zero", path) == 0);
        r = load_path(path, NULL);
        expect_error(zero_names[i], &r, SC_ERROR_PARSE, zero_names[i], NULL);
        unlink(path);
    }

    /* A regular file over the limit: refused before reading; memory over the limit likewise. */
    char *big = malloc(1u << 20);
    memset(big, '\n', 1u << 20);
    SCT_REQUIRE(write_file(temp_path(path, sizeof path, "big.obj"), big, 1u << 20));
    sc_mesh_limits small = {4096, 0, 0, 0};
    r = load_path(path, &small);
    expect_error("1 MB file, max_bytes 4096", &r, SC_ERROR_OUT_OF_MEMORY, "big.obj", "4096", "--max-mesh-bytes", NULL);
    unlink(path);
    hostile_case c = {NULL, big, SIZE_MAX, "huge.obj", NULL};
    r = run_case(&c);
    expect_error("sc_mesh_parse of SIZE_MAX bytes", &r, SC_ERROR_OUT_OF_MEMORY, "huge.obj", "sc_mesh_limits.max_bytes",
                 NULL);
    free(big);

    /* Vertex and triangle limits. */
    const char *quad = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
    sc_mesh_limits verts = {0, 3, 0, 0}, tris = {0, 0, 1, 0};
    r = parse_text(quad, "quad.obj", &verts);
    expect_error("4 vertices, max_vertices 3", &r, SC_ERROR_OUT_OF_MEMORY, "quad.obj:4:", "more than 3 vertices",
                 "--max-vertices", "sc_mesh_limits.max_vertices", NULL);
    r = parse_text(quad, "quad.obj", &tris);
    expect_error("2 triangles, max_triangles 1", &r, SC_ERROR_OUT_OF_MEMORY, "quad.obj:5:", "more than 1 triangles",
                 "--max-triangles", "sc_mesh_limits.max_triangles", NULL);
    char text[1024];
    snprintf(text, sizeof text, "ply\nformat ascii 1.0\n%send_header\n", k_ply_mesh_header);
    sc_mesh_limits two = {0, 2, 0, 0};
    r = parse_text(text, "limit.ply", &two);
    expect_error("PLY header: 3 vertices, max_vertices 2", &r, SC_ERROR_OUT_OF_MEMORY, "limit.ply:3:", "--max-vertices",
                 NULL);
}

/* ---- paths ---- */

static void test_paths_that_are_not_files(void)
{
    char path[256];
    SCT_REQUIRE(mkdir(temp_path(path, sizeof path, "dir.obj"), 0700) == 0);
    hostile_result r = load_path(path, NULL);
    expect_error("a directory", &r, SC_ERROR_IO, "dir.obj", "is a directory", NULL);
    rmdir(path);

    r = load_path(temp_path(path, sizeof path, "missing.obj"), NULL);
    expect_error("a missing file", &r, SC_ERROR_IO, "missing.obj", strerror(ENOENT), NULL);

    /* A FIFO nobody writes to: opening must not block. */
    SCT_REQUIRE(mkfifo(temp_path(path, sizeof path, "fifo.obj"), 0600) == 0);
    r = load_path(path, NULL);
    expect_error("a FIFO without a writer", &r, SC_ERROR_PARSE, "no triangles in", "fifo.obj", NULL);
    unlink(path);
}

/* ---- xz ---- */

static void test_xz_errors_in_xz_words(void)
{
    char path[256];
    const char *tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    bytes xz = xz_of(tri, strlen(tri));
    SCT_REQUIRE(xz.n > 32);
    SCT_REQUIRE(write_file(temp_path(path, sizeof path, "tri.obj.xz"), xz.p, xz.n));
    hostile_result r = load_path(path, NULL);
    expect_ok("a good .obj.xz", &r, 1);
    r = parse_bytes(xz.p, xz.n, "memory.obj.xz");
    expect_ok("a good .obj.xz in memory", &r, 1);

    SCT_REQUIRE(write_file(path, xz.p, xz.n - 10));
    r = load_path(path, NULL);
    expect_error("a truncated .xz", &r, SC_ERROR_IO, "tri.obj.xz", "xz: Unexpected end of input", NULL);
    xz.p[xz.n / 2] ^= 0x55;
    SCT_REQUIRE(write_file(path, xz.p, xz.n));
    r = load_path(path, NULL);
    expect_error("a corrupt .xz", &r, SC_ERROR_IO, "tri.obj.xz", "xz: ", NULL);
    SCT_CHECK_MSG(!strstr(r.error, "status"), "%s", r.error);
    SCT_REQUIRE(write_file(path, tri, strlen(tri)));
    r = load_path(path, NULL);
    expect_error("plain text named .xz", &r, SC_ERROR_IO, "tri.obj.xz", "xz: File format not recognized", NULL);
    unlink(path);
    free(xz.p);
}

/* ---- STL welding ---- */

/* The weld hash of the loader before it was keyed: FNV-1a over the three words, folded. */
static uint64_t fixed_weld_hash(const float v[3])
{
    uint32_t w[3];
    memcpy(w, v, sizeof w);
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 3; ++i) h = (h ^ w[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* A binary STL of n facets over n distinct vertices whose fixed hash puts them all in the first
 * 256 slots of any table up to 2^18: with linear probing every insertion walks the whole cluster.
 * Found by enumeration: for each of 16 random (x, y) pairs, the z in [1, 4) that hash there; facet
 * f joins vertices f, f + 1, f + 2, taken from different pairs, so no facet has zero area. */
static bytes crafted_stl(uint32_t n, sct_rng *rng)
{
    enum { GROUPS = 16 };
    float *v = malloc(3 * sizeof(float) * n);
    for (uint32_t g = 0; g < GROUPS; ++g) {
        float q[3];
        for (int k = 0; k < 2; ++k) {
            uint32_t w = 0x3f800000u | (sct_rng_u32(rng) & 0x7fffffu);
            memcpy(&q[k], &w, 4);
        }
        uint32_t i = g;
        for (uint32_t z = 0x3f800000u; z < 0x40800000u && i < n; ++z) {
            memcpy(&q[2], &z, 4);
            if ((fixed_weld_hash(q) & ((1u << 18) - 1)) >= 256) continue;
            memcpy(v + 3 * (size_t)i, q, sizeof q);
            i += GROUPS;
        }
    }
    bytes b = {0};
    unsigned char header[80] = "binary STL crafted against a fixed weld hash";
    put(&b, header, 80);
    put_u32(&b, n);
    for (uint32_t f = 0; f < n; ++f) {
        for (int k = 0; k < 3; ++k) put_f32(&b, 0.0f);
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) put_f32(&b, v[3 * (size_t)((f + (uint32_t)c) % n) + k]);
        put_u8(&b, 0);
        put_u8(&b, 0);
    }
    free(v);
    return b;
}

static void test_stl_weld_crafted(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0x57e1d);
    const uint32_t n = 80000;   /* 4 MB */
    bytes b = crafted_stl(n, &rng);
    hostile_result r = parse_bytes(b.p, b.n, "crafted.stl");
    expect_ok("4 MB binary STL crafted against the fixed hash", &r, n);
    SCT_CHECK_EQ_U64(r.vertices, n);
    free(b.p);
}

/* ---- vertices ---- */

static void test_nonfinite_huge_and_unused_vertices(void)
{
    /* Unused bad vertices do not matter; a face using one is dropped with its line. */
    bytes t = {0};
    put_str(&t, "v nan nan nan\nv 1e39 0 0\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 3e38 3e38 3e38\nv 1e30 0 0\nv ");
    for (int i = 0; i < (1 << 20); ++i) put_u8(&t, i ? '0' : '1');   /* 1e1048575: infinite */
    put_str(&t, " 0 0\nv 1.");
    for (int i = 0; i < (1 << 20); ++i) put_u8(&t, i + 1 < (1 << 20) ? '0' : '1');   /* 1.000...01: 1 */
    put_str(&t, " 1 0\nf 3 4 5\nf 3 4 1\nf 3 4 8\nf 3 4 9\n");
    hostile_result r = parse_bytes(t.p, t.n, "vertices.obj");
    expect_ok("unused nan/1e39/3e38/far vertices, 1 MB numbers", &r, 2);
    SCT_CHECK_EQ_U64(r.vertices, 4);
    SCT_CHECK_EQ_U64(r.report.removed_unused_vertices, 5);
    SCT_CHECK_EQ_U64(r.report.dropped_non_finite, 2);
    SCT_CHECK_MSG(strstr(r.warnings, "vertices.obj:11:") != NULL, "warnings lack the line of the first dropped face:\n%s",
                  r.warnings);
    free(t.p);

    /* The same in PLY and STL: every kept vertex finite and used. */
    const char *ply = "ply\nformat ascii 1.0\nelement vertex 5\nproperty double x\nproperty double y\nproperty double z\n"
                      "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
                      "1e300 0 0\nnan 0 0\n0 0 0\n1 0 0\n0 1 0\n3 2 3 4\n3 0 3 4\n";
    r = parse_text(ply, "vertices.ply", NULL);
    expect_ok("PLY vertices 1e300 and nan", &r, 1);
    SCT_CHECK_EQ_U64(r.vertices, 3);
    SCT_CHECK_MSG(strstr(r.warnings, "vertices.ply:16:") != NULL, "%s", r.warnings);
    const char *stl = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                      "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e39 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
                      "endsolid s\n";
    r = parse_text(stl, "vertices.stl", NULL);
    expect_ok("STL vertex 1e39", &r, 1);
    SCT_CHECK_EQ_U64(r.vertices, 3);
    SCT_CHECK_MSG(strstr(r.warnings, "vertices.stl:9:") != NULL, "%s", r.warnings);
}

/* ---- files that used to load silently wrong ---- */

static void test_silent_wrong_results(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed() ^ 0x9a4b);
    unsigned char *garbage = malloc(64 << 10);
    for (size_t i = 0; i < (64u << 10); ++i) garbage[i] = (unsigned char)sct_rng_u32(&rng);
    static const char *const garbage_names[] = {"garbage.obj", "garbage.ply", "garbage.stl"};
    for (int i = 0; i < 3; ++i) {
        hostile_result r = parse_bytes(garbage, 64u << 10, garbage_names[i]);
        expect_error(garbage_names[i], &r, SC_ERROR_PARSE, garbage_names[i], NULL);
    }
    free(garbage);
    hostile_result r = parse_text("# only\n# comments\n\n", "comments.obj", NULL);
    expect_error("comments only", &r, SC_ERROR_PARSE, "no triangles in comments.obj", NULL);
    r = parse_text("vt 0 0\nvn 0 0 1\nvt 1 1\n", "texcoords.obj", NULL);
    expect_error("vt and vn only", &r, SC_ERROR_PARSE, "no triangles in texcoords.obj", NULL);
    r = parse_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\x01\x02\x03\n", "control.obj", NULL);
    expect_error("a line of control bytes", &r, SC_ERROR_PARSE, "control.obj:5:", "binary data", NULL);
    static const char with_nul[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 1 1\0 1\n";
    hostile_case nul = {NULL, with_nul, sizeof with_nul - 1, "nul.obj", NULL};
    r = run_case(&nul);
    expect_error("a NUL byte", &r, SC_ERROR_PARSE, "nul.obj:5:", "binary data", NULL);

    /* Byte order marks. */
    r = parse_text("\xEF\xBB\xBFv 0.5 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "bom.obj", NULL);
    expect_ok("OBJ with a BOM", &r, 1);
    SCT_CHECK(r.first_vertex[0] == 0.5f);
    const char *facet = "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n";
    char text[1024];
    snprintf(text, sizeof text, "\xEF\xBB\xBFsolid s\n%sendsolid s\n", facet);
    r = parse_text(text, "bom.stl", NULL);
    expect_ok("ASCII STL with a BOM", &r, 1);
    r = parse_text("SOLID S\nFACET NORMAL 0 0 1\nOUTER LOOP\nVERTEX 0 0 0\nVERTEX 1 0 0\nVERTEX 0 1 0\nENDLOOP\n"
                   "ENDFACET\nENDSOLID S\n", "upper.stl", NULL);
    expect_ok("ASCII STL in capitals", &r, 1);
    snprintf(text, sizeof text, "\xEF\xBB\xBFply\nformat ascii 1.0\n%send_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
             k_ply_mesh_header);
    r = parse_text(text, "bom.ply", NULL);
    expect_ok("PLY with a BOM", &r, 1);

    /* The largest limits a caller can give (UINT64_MAX: "no limit") read the whole file: the byte
     * limit's "one byte past it" once wrapped to a read of 0 bytes, so every file read as empty. */
    const sc_mesh_limits unlimited = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    const char *tetra = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    r = parse_text(tetra, "unlimited.obj", &unlimited);
    expect_ok("memory, every limit UINT64_MAX", &r, 4);
    char path[256];
    SCT_REQUIRE(write_file(temp_path(path, sizeof path, "unlimited.obj"), tetra, strlen(tetra)));
    r = load_path(path, &unlimited);
    expect_ok("file, every limit UINT64_MAX", &r, 4);
    unlink(path);
    bytes xz = xz_of(tetra, strlen(tetra));
    SCT_REQUIRE(xz.n > 0);
    hostile_case xz_case = {NULL, xz.p, xz.n, "unlimited.obj.xz", &unlimited};
    r = run_case(&xz_case);
    expect_ok(".xz, every limit UINT64_MAX", &r, 4);
    free(xz.p);

    /* Plausible unknown statements are fine, with one warning. */
    r = parse_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nweird 1 2\nweird 3\nf 1 2 3\n", "unknown.obj", NULL);
    expect_ok("unknown OBJ statements", &r, 1);
    SCT_CHECK_MSG(strstr(r.warnings, "unknown.obj:4:") && strstr(r.warnings, "'weird'"), "%s", r.warnings);
}

/* ---- messages ---- */

static void test_one_warning_per_kind(void)
{
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\n"
                       "f 1 2 3\nf 1 2 9\nf 1 2 9\nf 1 2 4\nf 1 2 4\nf 1 1 2\nf 1 1 2\n";
    hostile_result r = parse_text(text, "kinds.obj", NULL);
    expect_ok("two faces of each dropped kind", &r, 1);
    SCT_CHECK_MSG(r.num_warnings == 3, "%d warnings:\n%s", r.num_warnings, r.warnings);
    SCT_CHECK_MSG(strstr(r.warnings, "kinds.obj:6: dropped 2 faces with a vertex index out of range") != NULL, "%s",
                  r.warnings);
    SCT_CHECK_MSG(strstr(r.warnings, "kinds.obj:8:") && strstr(r.warnings, "kinds.obj:10:"), "%s", r.warnings);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "mesh_hostile");
    snprintf(g_dir, sizeof g_dir, "/tmp/sc_mesh_hostile_XXXXXX");
    if (!mkdtemp(g_dir)) {
        printf("cannot create a temporary folder: %s\n", strerror(errno));
        return 1;
    }
    SCT_RUN(test_ply_elements_without_properties);
    SCT_RUN(test_ply_counts_and_header_lines);
    SCT_RUN(test_ply_float_to_integer);
    SCT_RUN(test_memory_bounded);
    SCT_RUN(test_paths_that_are_not_files);
    SCT_RUN(test_xz_errors_in_xz_words);
    SCT_RUN(test_stl_weld_crafted);
    SCT_RUN(test_nonfinite_huge_and_unused_vertices);
    SCT_RUN(test_silent_wrong_results);
    SCT_RUN(test_one_warning_per_kind);
    rmdir(g_dir);
    return sct_end();
}
