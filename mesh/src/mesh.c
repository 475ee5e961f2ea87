/* mesh.c - the loading API: files, streams and memory through one streaming pipeline (source,
 * optional xz decompression, reader with the byte limit, format parser, builder with the vertex
 * and triangle limits); degenerate-face cleaning and mesh views. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mesh_internal.h"
#include "sc_report.h"

void sc_mesh_clean(sc_mesh *m, sc_mesh_report *report)
{
    if (!m || !m->positions || !m->indices) return; /* nothing to read (sc_mesh.h) */
    uint32_t w = 0;
    uint64_t bad = 0, nonfinite = 0, zero = 0;
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        const uint32_t *f = m->indices + 3 * (size_t)t;
        if (f[0] >= m->vertex_count || f[1] >= m->vertex_count || f[2] >= m->vertex_count) {
            ++bad;
            continue;
        }
        const float *a = m->positions + 3 * (size_t)f[0], *b = m->positions + 3 * (size_t)f[1],
                    *c = m->positions + 3 * (size_t)f[2];
        if (!sc_mesh_finite_vertex(a) || !sc_mesh_finite_vertex(b) || !sc_mesh_finite_vertex(c)) {
            ++nonfinite;
            continue;
        }
        if (sc_mesh_zero_area(a, b, c)) {
            ++zero;
            continue;
        }
        memmove(m->indices + 3 * (size_t)w, f, 3 * sizeof(uint32_t));
        ++w;
    }
    m->triangle_count = w;
    if (report) {
        report->dropped_bad_index += bad;
        report->dropped_non_finite += nonfinite;
        report->dropped_zero_area += zero;
    }
}

sc_mesh_data sc_mesh_view(const sc_mesh *m)
{
    sc_mesh_data d = {m->positions, m->vertex_count, m->indices, m->triangle_count};
    return d;
}

void sc_mesh_free(sc_mesh *m)
{
    if (!m) return;
    free(m->positions);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

/* 1 when name[0, len) ends in ext (case-insensitive). */
static int ends_with(const char *name, size_t len, const char *ext)
{
    size_t n = strlen(ext);
    return len >= n && strncasecmp(name + len - n, ext, n) == 0;
}

static int is_xz_name(const char *name) { return ends_with(name, strlen(name), ".xz"); }

const char *sc_mesh_format_extension(sc_mesh_format format)
{
    switch (format) {
#define EXTENSION_CASE(ENUMERATOR, name) \
    case SC_MESH_FORMAT_##ENUMERATOR: return "." #name;
        SC_MESH_FORMATS(EXTENSION_CASE)
#undef EXTENSION_CASE
    case SC_MESH_FORMAT_AUTO:
    case SC_MESH_FORMAT_COUNT: break;
    }
    return NULL;
}

/* The format from the name's extension (the one before ".xz" for compressed files). */
static sc_mesh_format format_of(const char *name)
{
    size_t len = strlen(name);
    if (ends_with(name, len, ".xz")) len -= 3;
    for (int f = SC_MESH_FORMAT_AUTO + 1; f < SC_MESH_FORMAT_COUNT; ++f)
        if (ends_with(name, len, sc_mesh_format_extension((sc_mesh_format)f))) return (sc_mesh_format)f;
    return SC_MESH_FORMAT_AUTO;
}

static int is_format(sc_mesh_format format)
{
    return (int)format > SC_MESH_FORMAT_AUTO && (int)format < SC_MESH_FORMAT_COUNT;
}

static sc_status resolve_format(const char *name, sc_mesh_format *format)
{
    if (*format == SC_MESH_FORMAT_AUTO) *format = format_of(name);
    if (*format == SC_MESH_FORMAT_AUTO) {
        /* every format's extension, as ".a, .b or .c" */
        char known[128] = "";
        size_t len = 0;
        for (int f = SC_MESH_FORMAT_AUTO + 1; f < SC_MESH_FORMAT_COUNT && len < sizeof known; ++f) {
            const char *sep = f == SC_MESH_FORMAT_AUTO + 1 ? "" : f + 1 == SC_MESH_FORMAT_COUNT ? " or " : ", ";
            const char *ext = sc_mesh_format_extension((sc_mesh_format)f);
            int n = snprintf(known + len, sizeof known - len, "%s%s", sep, ext);
            if (n > 0) len += (size_t)n;
        }
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown mesh format (expected %s, optionally .xz)", name,
                       known);
    }
    if (!is_format(*format))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: invalid sc_mesh_format %d", name, (int)*format);
    return SC_OK;
}

/* Reads the source through the parser into the builder and the builder into *out; the last
 * progress call comes between the two (the input is read; it may still cancel). */
static sc_status parse_reader(sc_mesh_reader *r, sc_mesh_format format, const sc_mesh_limits *limits, sc_mesh *out,
                              sc_mesh_report *report)
{
    sc_mesh_builder b;
    sc_mb_init(&b, r->name, limits);
    /* Every format named (SC_MESH_FORMATS), no default: a format added to sc_mesh_format without its
     * parser is a -Wswitch warning (an error with SLABCAST_WERROR), not a file read as another format. */
    sc_status s = SC_OK;
    int parsed = 1;
    switch (format) {
#define PARSE_CASE(ENUMERATOR, name) \
    case SC_MESH_FORMAT_##ENUMERATOR: s = sc_mesh_parse_##name(r, &b); break;
        SC_MESH_FORMATS(PARSE_CASE)
#undef PARSE_CASE
    case SC_MESH_FORMAT_AUTO: /* resolve_format resolves it first */
    case SC_MESH_FORMAT_COUNT: parsed = 0; break;
    }
    if (!parsed || !is_format(format))
        s = SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: invalid sc_mesh_format %d", r->name, (int)format);
    if (s == SC_OK) s = sc_mesh_source_progress_end(r->src);
    if (s != SC_OK) {
        sc_mb_free(&b);
        return s;
    }
    return sc_mb_finish(&b, out, report);
}

/* The whole pipeline over src (decompressed when its name ends in .xz). size_hint: the data's size
 * when known up front (not for .xz), else UINT64_MAX. */
static sc_status parse_source(sc_mesh_source *src, uint64_t size_hint, sc_mesh_format format,
                              const sc_mesh_limits *limits, sc_mesh *out, sc_mesh_report *report)
{
    sc_mesh_limits lim = sc_mesh_limits_resolve(limits);
    if (is_xz_name(src->name)) {
        SC_TRY(sc_mesh_source_begin_xz(src, lim.max_xz_ratio));
        size_hint = UINT64_MAX;
    } else if (size_hint != UINT64_MAX && size_hint > lim.max_bytes) {
        return sc_mesh_fail_byte_limit(src->name, lim.max_bytes);
    }
    sc_mesh_reader r;
    sc_status s = sc_rd_init(&r, src, lim.max_bytes, size_hint);
    if (s == SC_OK) s = parse_reader(&r, format, &lim, out, report);
    sc_rd_free(&r);
    sc_mesh_source_end(src);
    return s;
}

sc_status sc_mesh_parse_limited(const void *data, size_t size, const char *name, sc_mesh_format format,
                                const sc_mesh_limits *limits, sc_mesh *out, sc_mesh_report *report)
{
    if (!out || (!data && size)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_parse: NULL argument");
    memset(out, 0, sizeof *out);
    if (!name) name = "<memory>";
    SC_TRY(resolve_format(name, &format));
    /* Before touching the data: a size over the limit (SIZE_MAX included) is refused whole, as
     * compressed data is too (it would decompress to more). */
    sc_mesh_limits lim = sc_mesh_limits_resolve(limits);
    if (size > lim.max_bytes) return sc_mesh_fail_byte_limit(name, lim.max_bytes);
    sc_mesh_source src;
    sc_mesh_source_memory(&src, name, data, size);
    return parse_source(&src, size, format, limits, out, report);
}

sc_status sc_mesh_parse(const void *data, size_t size, const char *name, sc_mesh_format format, sc_mesh *out,
                        sc_mesh_report *report)
{
    return sc_mesh_parse_limited(data, size, name, format, NULL, out, report);
}

sc_status sc_mesh_load_stream(FILE *f, const char *name, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    if (!f || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_load_stream: NULL argument");
    memset(out, 0, sizeof *out);
    if (!name) name = "<stream>";
    SC_TRY(resolve_format(name, &format));
    sc_mesh_source src;
    sc_mesh_source_stream(&src, name, f);
    return parse_source(&src, UINT64_MAX, format, NULL, out, report);
}

/* Opens path for reading without blocking (a FIFO with no writer reads as empty) and refuses a
 * directory; *size: the size of a regular file, else UINT64_MAX. */
static sc_status open_mesh_file(const char *path, FILE **file, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return SC_FAIL(SC_ERROR_IO, "%s: cannot open for reading: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return SC_FAIL(SC_ERROR_IO, "%s: cannot read its status: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return SC_FAIL(SC_ERROR_IO, "%s: is a directory, not a mesh file", path);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(*file = fdopen(fd, "rb"))) {
        int e = errno;
        close(fd);
        return SC_FAIL(SC_ERROR_IO, "%s: cannot open for reading: %s", path, strerror(e));
    }
    *size = S_ISREG(st.st_mode) && st.st_size >= 0 ? (uint64_t)st.st_size : UINT64_MAX;
    return SC_OK;
}

sc_status sc_mesh_load_file(const char *path, const sc_mesh_load_desc *desc, sc_mesh *out, sc_mesh_report *report)
{
    static const sc_mesh_load_desc k_defaults = {0};
    if (!path || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_load_file: NULL argument");
    if (!desc) desc = &k_defaults;
    memset(out, 0, sizeof *out);
    sc_mesh_format format = desc->format;
    SC_TRY(resolve_format(path, &format));
    FILE *f = NULL;
    uint64_t size = UINT64_MAX;
    SC_TRY(open_mesh_file(path, &f, &size));
    sc_mesh_source src;
    sc_mesh_source_stream(&src, path, f);
    if (desc->progress) sc_mesh_source_watch(&src, desc->progress, desc->progress_user, size == UINT64_MAX ? 0 : size);
    sc_status s = parse_source(&src, size, format, desc->limits, out, report);
    fclose(f);
    return s;
}

sc_status sc_mesh_load_limited(const char *path, sc_mesh_format format, const sc_mesh_limits *limits, sc_mesh *out,
                               sc_mesh_report *report)
{
    sc_mesh_load_desc desc = {0};
    desc.format = format;
    desc.limits = limits;
    return sc_mesh_load_file(path, &desc, out, report);
}

sc_status sc_mesh_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    return sc_mesh_load_limited(path, format, NULL, out, report);
}
