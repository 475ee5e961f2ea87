/* mesh.c - mesh objects: the builder, degenerate-face cleaning, loading files and streams, and
 * format dispatch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mesh_internal.h"
#include "sc_report.h"

int sc_mb_vertex(sc_mesh_builder *b, float x, float y, float z)
{
    if (b->num_vertices == b->vertex_cap) {
        size_t cap = b->vertex_cap ? 2 * b->vertex_cap : 1024;
        float *p = realloc(b->positions, cap * 3 * sizeof(float));
        if (!p) return 0;
        b->positions = p;
        b->vertex_cap = cap;
    }
    float *v = b->positions + 3 * b->num_vertices++;
    v[0] = x; v[1] = y; v[2] = z;
    return 1;
}

int sc_mb_triangle(sc_mesh_builder *b, int64_t i0, int64_t i1, int64_t i2)
{
    if (b->num_triangles == b->triangle_cap) {
        size_t cap = b->triangle_cap ? 2 * b->triangle_cap : 1024;
        int64_t *p = realloc(b->faces, cap * 3 * sizeof(int64_t));
        if (!p) return 0;
        b->faces = p;
        b->triangle_cap = cap;
    }
    int64_t *f = b->faces + 3 * b->num_triangles++;
    f[0] = i0; f[1] = i1; f[2] = i2;
    return 1;
}

void sc_mb_free(sc_mesh_builder *b)
{
    free(b->positions);
    free(b->faces);
    memset(b, 0, sizeof *b);
}

static int finite_vertex(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static int zero_area(const float *a, const float *b, const float *c)
{
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    return n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0;
}

sc_status sc_mb_finish(sc_mesh_builder *b, const char *name, sc_mesh *out, sc_mesh_report *report)
{
    memset(out, 0, sizeof *out);
    if (b->num_vertices > UINT32_MAX || b->num_triangles > UINT32_MAX) {
        sc_mb_free(b);
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: more than 2^32 - 1 vertices or triangles", name);
    }
    uint64_t bad_index = 0;
    size_t w = 0;
    for (size_t t = 0; t < b->num_triangles; ++t) {
        const int64_t *f = b->faces + 3 * t;
        int ok = 1;
        for (int k = 0; k < 3; ++k) ok &= f[k] >= 0 && (uint64_t)f[k] < b->num_vertices;
        if (!ok) {
            ++bad_index;
            continue;
        }
        memmove(b->faces + 3 * w, f, 3 * sizeof(int64_t));
        ++w;
    }
    if (report) {
        report->faces_read += b->num_triangles;
        report->dropped_bad_index += bad_index;
    }
    if (bad_index)
        sc_log(SC_LOG_WARNING, "%s: dropped %llu faces with out-of-range vertex indices", name,
               (unsigned long long)bad_index);
    out->vertex_count = (uint32_t)b->num_vertices;
    out->triangle_count = (uint32_t)w;
    out->positions = b->num_vertices ? realloc(b->positions, b->num_vertices * 3 * sizeof(float)) : NULL;
    out->indices = malloc(w * 3 * sizeof(uint32_t) + 1);
    if ((b->num_vertices && !out->positions) || !out->indices) {
        if (out->positions) b->positions = out->positions;
        free(out->indices);
        memset(out, 0, sizeof *out);
        sc_mb_free(b);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
    }
    if (!b->num_vertices) free(b->positions);
    for (size_t i = 0; i < 3 * w; ++i) out->indices[i] = (uint32_t)b->faces[i];
    free(b->faces);
    memset(b, 0, sizeof *b);
    sc_mesh_report local = {0};
    sc_mesh_clean(out, &local);
    if (local.dropped_non_finite)
        sc_log(SC_LOG_WARNING, "%s: dropped %llu faces with non-finite vertex coordinates", name,
               (unsigned long long)local.dropped_non_finite);
    if (local.dropped_zero_area)
        sc_log(SC_LOG_WARNING, "%s: dropped %llu zero-area faces", name, (unsigned long long)local.dropped_zero_area);
    if (report) {
        report->dropped_non_finite += local.dropped_non_finite;
        report->dropped_zero_area += local.dropped_zero_area;
    }
    return SC_OK;
}

void sc_mesh_clean(sc_mesh *m, sc_mesh_report *report)
{
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
        if (!finite_vertex(a) || !finite_vertex(b) || !finite_vertex(c)) {
            ++nonfinite;
            continue;
        }
        if (zero_area(a, b, c)) {
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

static sc_mesh_format format_of(const char *name)
{
    const char *dot = name ? strrchr(name, '.') : NULL;
    if (!dot) return SC_MESH_FORMAT_AUTO;
    if (strcasecmp(dot, ".obj") == 0) return SC_MESH_FORMAT_OBJ;
    if (strcasecmp(dot, ".ply") == 0) return SC_MESH_FORMAT_PLY;
    if (strcasecmp(dot, ".stl") == 0) return SC_MESH_FORMAT_STL;
    return SC_MESH_FORMAT_AUTO;
}

/* Parses NUL-terminated data. */
static sc_status parse_terminated(const char *data, size_t size, const char *name, sc_mesh_format format,
                                  sc_mesh *out, sc_mesh_report *report)
{
    if (format == SC_MESH_FORMAT_AUTO) format = format_of(name);
    sc_mesh_builder b;
    memset(&b, 0, sizeof b);
    sc_status s;
    switch (format) {
    case SC_MESH_FORMAT_OBJ: s = sc_mesh_parse_obj(data, size, name, &b); break;
    case SC_MESH_FORMAT_PLY: s = sc_mesh_parse_ply(data, size, name, &b); break;
    case SC_MESH_FORMAT_STL: s = sc_mesh_parse_stl(data, size, name, &b); break;
    default:
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown mesh format (expected .obj, .ply or .stl)", name);
    }
    if (s != SC_OK) {
        sc_mb_free(&b);
        return s;
    }
    return sc_mb_finish(&b, name, out, report);
}

sc_status sc_mesh_parse(const void *data, size_t size, const char *name, sc_mesh_format format, sc_mesh *out,
                        sc_mesh_report *report)
{
    if (!out || (!data && size)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_parse: NULL argument");
    memset(out, 0, sizeof *out);
    if (!name) name = "<memory>";
    char *copy = malloc(size + 1);
    if (!copy) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu bytes", name, size);
    if (size) memcpy(copy, data, size);
    copy[size] = 0;
    sc_status s = parse_terminated(copy, size, name, format, out, report);
    free(copy);
    return s;
}

sc_status sc_mesh_load_stream(FILE *f, const char *name, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    if (!f || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_load_stream: NULL argument");
    memset(out, 0, sizeof *out);
    if (!name) name = "<stream>";
    size_t cap = 1 << 20, size = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
    for (;;) {
        if (size == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (!p) {
                free(buf);
                return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory after %zu bytes", name, size);
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return SC_FAIL(SC_ERROR_IO, "%s: read error after %zu bytes", name, size);
    }
    buf[size] = 0;
    sc_status s = parse_terminated(buf, size, name, format, out, report);
    free(buf);
    return s;
}

/* path ends in ".xz": decompressed through `xz -dc` (xz-utils), the format taken from the name before it. */
static sc_status load_xz(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    size_t len = strlen(path);
    char inner[4096];
    if (len - 3 >= sizeof inner) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: path too long", path);
    memcpy(inner, path, len - 3);
    inner[len - 3] = '\0';
    if (format == SC_MESH_FORMAT_AUTO) format = format_of(inner);
    if (format == SC_MESH_FORMAT_AUTO)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown mesh format (expected .obj.xz, .ply.xz or .stl.xz)", path);
    if (strchr(path, '\'')) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: a quote in the path is not supported", path);
    FILE *probe = fopen(path, "rb");
    if (!probe) return SC_FAIL(SC_ERROR_IO, "%s: cannot open for reading", path);
    fclose(probe);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "xz -dc -- '%s' 2>/dev/null", path);
    FILE *pipe = popen(cmd, "r");
    if (!pipe) return SC_FAIL(SC_ERROR_IO, "%s: cannot start xz to decompress it", path);
    sc_status s = sc_mesh_load_stream(pipe, path, format, out, report);
    int rc = pclose(pipe);
    if (s == SC_OK && rc != 0) {
        sc_mesh_free(out);
        return SC_FAIL(SC_ERROR_IO, "%s: xz -dc failed (status %d): not an xz file, truncated, or xz-utils missing",
                       path, rc);
    }
    return s;
}

sc_status sc_mesh_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    if (!path || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_mesh_load: NULL argument");
    memset(out, 0, sizeof *out);
    size_t len = strlen(path);
    if (len > 3 && strcasecmp(path + len - 3, ".xz") == 0) return load_xz(path, format, out, report);
    if (format == SC_MESH_FORMAT_AUTO && format_of(path) == SC_MESH_FORMAT_AUTO)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown mesh format (expected .obj, .ply or .stl)", path);
    FILE *f = fopen(path, "rb");
    if (!f) return SC_FAIL(SC_ERROR_IO, "%s: cannot open for reading", path);
    sc_status s = sc_mesh_load_stream(f, path, format, out, report);
    fclose(f);
    return s;
}
