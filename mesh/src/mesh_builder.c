/* mesh_builder.c - the arrays the loaders fill: vertices and triangles within the loading limits;
 * a face is checked as it is added (index range, finite vertices, area) and dropped with its
 * location; at the end unused vertices are removed and faces renumbered, so the mesh holds only
 * used, finite vertices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

sc_mesh_limits sc_mesh_limits_resolve(const sc_mesh_limits *limits)
{
    sc_mesh_limits r = {SC_MESH_DEFAULT_MAX_BYTES, SC_MESH_DEFAULT_MAX_VERTICES, SC_MESH_DEFAULT_MAX_TRIANGLES,
                        SC_MESH_DEFAULT_MAX_XZ_RATIO};
    if (limits && limits->max_xz_ratio) r.max_xz_ratio = limits->max_xz_ratio;
    if (limits && limits->max_bytes) r.max_bytes = limits->max_bytes;
    if (limits && limits->max_vertices) r.max_vertices = limits->max_vertices;
    if (limits && limits->max_triangles) r.max_triangles = limits->max_triangles;
    /* 32-bit indices, UINT32_MAX kept free as the builder's "dropped" mark. */
    if (r.max_vertices > UINT32_MAX - 1u) r.max_vertices = UINT32_MAX - 1u;
    if (r.max_triangles > UINT32_MAX) r.max_triangles = UINT32_MAX;
    return r;
}

void sc_mb_init(sc_mesh_builder *b, const char *name, const sc_mesh_limits *resolved)
{
    memset(b, 0, sizeof *b);
    b->name = name;
    b->limits = *resolved;
}

void sc_mb_free(sc_mesh_builder *b)
{
    free(b->positions);
    free(b->faces);
    free(b->deferred);
    memset(b, 0, sizeof *b);
}

const char *sc_mb_where(const sc_mesh_builder *b, sc_mesh_loc loc, char *buf, size_t cap)
{
    snprintf(buf, cap, loc.is_byte ? "%s: byte %llu" : "%s:%llu", b->name, (unsigned long long)loc.at);
    return buf;
}

sc_status sc_mb_fail_vertex_limit(const sc_mesh_builder *b)
{
    char where[512];
    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                   "%s: more than %llu vertices, the loading limit (raise it with --max-vertices or "
                   "sc_mesh_limits.max_vertices)",
                   sc_mb_where(b, b->loc, where, sizeof where), (unsigned long long)b->limits.max_vertices);
}

sc_status sc_mb_fail_triangle_limit(const sc_mesh_builder *b)
{
    char where[512];
    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                   "%s: more than %llu triangles, the loading limit (raise it with --max-triangles or "
                   "sc_mesh_limits.max_triangles)",
                   sc_mb_where(b, b->loc, where, sizeof where), (unsigned long long)b->limits.max_triangles);
}

/* Grows *array (elements of `size` bytes, *cap of them) to hold one more, at most `limit` in all:
 * doubling from 1024, every size overflow-checked. 0 when out of memory. */
static int grow(void **array, size_t *cap, size_t size, uint64_t limit)
{
    size_t n = *cap ? *cap : 512;
    if (n > SIZE_MAX / 2 / size) return 0;
    n *= 2;
    if (n > limit && limit > *cap) n = (size_t)limit;
    void *p = realloc(*array, n * size);
    if (!p) return 0;
    *array = p;
    *cap = n;
    return 1;
}

sc_status sc_mb_vertex(sc_mesh_builder *b, float x, float y, float z)
{
    if (b->num_vertices >= b->limits.max_vertices) return sc_mb_fail_vertex_limit(b);
    if (b->num_vertices == b->vertex_cap &&
        !grow((void **)&b->positions, &b->vertex_cap, 3 * sizeof(float), b->limits.max_vertices))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu vertices", b->name, b->num_vertices + 1);
    float *v = b->positions + 3 * b->num_vertices++;
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return SC_OK;
}

int sc_mesh_finite_vertex(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

int sc_mesh_zero_area(const float *a, const float *b, const float *c)
{
    double e1[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
    double e2[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    return n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0;
}

/* Why a face whose indices are all below num_vertices is dropped, or -1 when it is kept. */
static int face_defect(const sc_mesh_builder *b, const uint32_t f[3])
{
    const float *p0 = b->positions + 3 * (size_t)f[0], *p1 = b->positions + 3 * (size_t)f[1],
                *p2 = b->positions + 3 * (size_t)f[2];
    if (!sc_mesh_finite_vertex(p0) || !sc_mesh_finite_vertex(p1) || !sc_mesh_finite_vertex(p2)) return SC_MB_NON_FINITE;
    if (sc_mesh_zero_area(p0, p1, p2)) return SC_MB_ZERO_AREA;
    return -1;
}

static void count_drop(sc_mesh_builder *b, int kind, sc_mesh_loc loc)
{
    if (b->dropped[kind]++ == 0 || loc.at < b->first_dropped[kind].at) b->first_dropped[kind] = loc;
}

sc_status sc_mb_triangle(sc_mesh_builder *b, int64_t i0, int64_t i1, int64_t i2)
{
    if (b->faces_read >= b->limits.max_triangles) return sc_mb_fail_triangle_limit(b);
    ++b->faces_read;
    const int64_t idx[3] = {i0, i1, i2};
    uint32_t f[3];
    int pending = 0;
    for (int k = 0; k < 3; ++k) {
        /* An index at or beyond the vertex limit can never become valid. */
        if (idx[k] < 0 || (uint64_t)idx[k] >= b->limits.max_vertices) {
            count_drop(b, SC_MB_BAD_INDEX, b->loc);
            return SC_OK;
        }
        f[k] = (uint32_t)idx[k];
        pending |= f[k] >= b->num_vertices;
    }
    if (!pending) {
        int defect = face_defect(b, f);
        if (defect >= 0) {
            count_drop(b, defect, b->loc);
            return SC_OK;
        }
    } else {
        if (b->num_deferred == b->deferred_cap &&
            !grow((void **)&b->deferred, &b->deferred_cap, sizeof *b->deferred, b->limits.max_triangles))
            return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", b->name);
        b->deferred[b->num_deferred].triangle = b->num_triangles;
        b->deferred[b->num_deferred++].loc = b->loc;
    }
    if (b->num_triangles == b->triangle_cap &&
        !grow((void **)&b->faces, &b->triangle_cap, 3 * sizeof(uint32_t), b->limits.max_triangles))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for %zu triangles", b->name, b->num_triangles + 1);
    memcpy(b->faces + 3 * b->num_triangles++, f, sizeof f);
    return SC_OK;
}

/* Checks the faces added before their vertices were read; drops the bad ones. */
static void check_deferred(sc_mesh_builder *b)
{
    if (!b->num_deferred) return;
    int any = 0;
    for (size_t i = 0; i < b->num_deferred; ++i) {
        uint32_t *f = b->faces + 3 * b->deferred[i].triangle;
        int defect = f[0] >= b->num_vertices || f[1] >= b->num_vertices || f[2] >= b->num_vertices
                         ? SC_MB_BAD_INDEX
                         : face_defect(b, f);
        if (defect < 0) continue;
        count_drop(b, defect, b->deferred[i].loc);
        f[0] = UINT32_MAX;
        any = 1;
    }
    if (!any) return;
    size_t w = 0;
    for (size_t t = 0; t < b->num_triangles; ++t) {
        if (b->faces[3 * t] == UINT32_MAX) continue;
        memmove(b->faces + 3 * w++, b->faces + 3 * t, 3 * sizeof(uint32_t));
    }
    b->num_triangles = w;
}

static void warn_dropped(const sc_mesh_builder *b)
{
    static const char *const what[SC_MB_DROP_KINDS] = {
        "with a vertex index out of range", "using a vertex with a non-finite coordinate (NaN, or too large for a float)",
        "of zero area"};
    for (int k = 0; k < SC_MB_DROP_KINDS; ++k) {
        if (!b->dropped[k]) continue;
        char where[512];
        sc_mb_where(b, b->first_dropped[k], where, sizeof where);
        if (b->dropped[k] == 1) sc_log(SC_LOG_WARNING, "%s: dropped a face %s", where, what[k]);
        else
            sc_log(SC_LOG_WARNING, "%s: dropped %llu faces %s; the first is here", where,
                   (unsigned long long)b->dropped[k], what[k]);
    }
    if (b->ignored_statements) {
        char where[512];
        sc_log(SC_LOG_WARNING, "%s: ignored %llu line%s with an unknown statement (the first, '%s', is here)",
               sc_mb_where(b, b->first_ignored, where, sizeof where), (unsigned long long)b->ignored_statements,
               b->ignored_statements == 1 ? "" : "s", b->first_ignored_word);
    }
}

static sc_status fail_no_triangles(const sc_mesh_builder *b)
{
    if (b->faces_read == 0)
        return SC_FAIL(SC_ERROR_PARSE, "no triangles in %s: it has %zu vertices and no faces", b->name, b->num_vertices);
    return SC_FAIL(SC_ERROR_PARSE,
                   "no triangles in %s: all %llu faces were dropped (%llu with an index out of range, %llu using a "
                   "non-finite vertex, %llu of zero area)",
                   b->name, (unsigned long long)b->faces_read, (unsigned long long)b->dropped[SC_MB_BAD_INDEX],
                   (unsigned long long)b->dropped[SC_MB_NON_FINITE], (unsigned long long)b->dropped[SC_MB_ZERO_AREA]);
}

/* Removes the vertices no face uses, renumbering the faces (the others keep their order). */
static sc_status remove_unused(sc_mesh_builder *b, uint64_t *removed)
{
    uint32_t *map = malloc((b->num_vertices ? b->num_vertices : 1) * sizeof *map);
    if (!map) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", b->name);
    for (size_t v = 0; v < b->num_vertices; ++v) map[v] = UINT32_MAX;
    for (size_t i = 0; i < 3 * b->num_triangles; ++i) map[b->faces[i]] = 0;
    uint32_t w = 0;
    for (size_t v = 0; v < b->num_vertices; ++v) {
        if (map[v] == UINT32_MAX) continue;
        map[v] = w;
        memmove(b->positions + 3 * (size_t)w, b->positions + 3 * v, 3 * sizeof(float));
        ++w;
    }
    for (size_t i = 0; i < 3 * b->num_triangles; ++i) b->faces[i] = map[b->faces[i]];
    free(map);
    *removed = b->num_vertices - w;
    b->num_vertices = w;
    return SC_OK;
}

sc_status sc_mb_finish(sc_mesh_builder *b, sc_mesh *out, sc_mesh_report *report)
{
    memset(out, 0, sizeof *out);
    check_deferred(b);
    warn_dropped(b);
    if (report) {
        report->faces_read += b->faces_read;
        report->dropped_bad_index += b->dropped[SC_MB_BAD_INDEX];
        report->dropped_non_finite += b->dropped[SC_MB_NON_FINITE];
        report->dropped_zero_area += b->dropped[SC_MB_ZERO_AREA];
    }
    sc_status s = b->num_triangles ? SC_OK : fail_no_triangles(b);
    uint64_t removed = 0;
    if (s == SC_OK) s = remove_unused(b, &removed);
    if (s != SC_OK) {
        sc_mb_free(b);
        return s;
    }
    if (removed) sc_log(SC_LOG_INFO, "%s: removed %llu vertices that no face uses", b->name, (unsigned long long)removed);
    if (report) report->removed_unused_vertices += removed;
    /* Shrink to fit; a failed shrink keeps the larger block. */
    float *p = realloc(b->positions, b->num_vertices * 3 * sizeof(float));
    uint32_t *f = realloc(b->faces, b->num_triangles * 3 * sizeof(uint32_t));
    out->positions = p ? p : b->positions;
    out->indices = f ? f : b->faces;
    out->vertex_count = (uint32_t)b->num_vertices;
    out->triangle_count = (uint32_t)b->num_triangles;
    b->positions = NULL;
    b->faces = NULL;
    sc_mb_free(b);
    return SC_OK;
}
