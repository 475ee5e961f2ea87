/* mesh_obj.c - Wavefront OBJ: "v x y z [w]" and "f a b c ..." lines (indices 1-based or negative,
 * in any of the forms v, v/vt, v//vn, v/vt/vn); polygons are fanned into triangles; every other
 * statement is ignored. Errors name the file and line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && is_blank(*p)) ++p;
    return p;
}

/* A float token within [p, end): 1 on success. */
static int read_float(const char **pp, const char *end, float *out)
{
    const char *p = skip_blanks(*pp, end);
    if (p >= end) return 0;
    char *e;
    errno = 0;
    float v = strtof(p, &e);
    if (e == p || e > end || (e < end && !is_blank(*e))) return 0;
    *out = v;
    *pp = e;
    return 1;
}

sc_status sc_mesh_parse_obj(const char *data, size_t size, const char *name, sc_mesh_builder *b)
{
    const char *p = data, *stop = data + size;
    size_t line = 0;
    while (p < stop) {
        ++line;
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        if (!end) end = stop;
        const char *q = skip_blanks(p, end);
        const char *next = end < stop ? end + 1 : stop;
        if (q + 1 < end && q[0] == 'v' && is_blank(q[1])) {
            float x, y, z;
            q += 1;
            if (!read_float(&q, end, &x) || !read_float(&q, end, &y) || !read_float(&q, end, &z))
                return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: a vertex needs three numbers ('v x y z')", name, line);
            if (!sc_mb_vertex(b, x, y, z)) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s:%zu: out of host memory", name, line);
        } else if (q + 1 < end && q[0] == 'f' && is_blank(q[1])) {
            q += 1;
            int64_t first = 0, prev = 0;
            int count = 0;
            for (;;) {
                q = skip_blanks(q, end);
                if (q >= end) break;
                char *e;
                errno = 0;
                long long v = strtoll(q, &e, 10);
                if (e == q || errno == ERANGE)
                    return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: face vertex %d is not an integer index", name, line, count + 1);
                if (v == 0) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: face vertex index 0 (OBJ indices start at 1)", name, line);
                /* Skip "/vt/vn". */
                while (e < end && !is_blank(*e)) {
                    if (*e != '/' && !(*e >= '0' && *e <= '9') && *e != '-')
                        return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: unexpected character '%c' in a face", name, line, *e);
                    ++e;
                }
                q = e;
                int64_t idx = v > 0 ? (int64_t)v - 1 : (int64_t)b->num_vertices + (int64_t)v;
                if (count == 0) first = idx;
                else if (count >= 2 && !sc_mb_triangle(b, first, prev, idx))
                    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s:%zu: out of host memory", name, line);
                prev = idx;
                ++count;
            }
            if (count < 3)
                return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: a face needs at least three vertices, found %d", name, line, count);
        }
        p = next;
    }
    return SC_OK;
}
