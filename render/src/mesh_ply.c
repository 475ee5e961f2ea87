/* mesh_ply.c - PLY, ASCII and binary little-endian: element "vertex" (properties x, y, z of any
 * scalar type, others skipped) and element "face" (list property vertex_indices or vertex_index,
 * polygons fanned into triangles); other elements are skipped. Header and ASCII errors name the
 * file and line, binary errors the byte offset. Big-endian files are not supported. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

enum { PLY_MAX_PROPS = 64, PLY_MAX_ELEMENTS = 16 };

typedef enum ply_type { PLY_NONE = 0, PLY_I8, PLY_U8, PLY_I16, PLY_U16, PLY_I32, PLY_U32, PLY_F32, PLY_F64 } ply_type;

typedef struct ply_prop {
    ply_type type;        /* scalar type, or the item type of a list */
    ply_type count_type;  /* PLY_NONE: scalar */
    int role;             /* 0 other, 1 x, 2 y, 3 z, 4 face indices */
} ply_prop;

typedef struct ply_element {
    char name[32];
    uint64_t count;
    ply_prop props[PLY_MAX_PROPS];
    int num_props;
} ply_element;

typedef struct ply_reader {
    const char *name;
    const char *p, *end, *base;
    int binary;
    size_t line;
} ply_reader;

static ply_type type_of(const char *s)
{
    static const struct { const char *n; ply_type t; } names[] = {
        {"char", PLY_I8}, {"int8", PLY_I8}, {"uchar", PLY_U8}, {"uint8", PLY_U8},
        {"short", PLY_I16}, {"int16", PLY_I16}, {"ushort", PLY_U16}, {"uint16", PLY_U16},
        {"int", PLY_I32}, {"int32", PLY_I32}, {"uint", PLY_U32}, {"uint32", PLY_U32},
        {"float", PLY_F32}, {"float32", PLY_F32}, {"double", PLY_F64}, {"float64", PLY_F64}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strcmp(s, names[i].n) == 0) return names[i].t;
    return PLY_NONE;
}

static size_t size_of(ply_type t)
{
    switch (t) {
    case PLY_I8: case PLY_U8: return 1;
    case PLY_I16: case PLY_U16: return 2;
    case PLY_I32: case PLY_U32: case PLY_F32: return 4;
    case PLY_F64: return 8;
    default: return 0;
    }
}

/* Reads one value as a double. */
static sc_status read_value(ply_reader *r, ply_type t, double *out)
{
    if (r->binary) {
        size_t n = size_of(t);
        if ((size_t)(r->end - r->p) < n)
            return SC_FAIL(SC_ERROR_PARSE, "%s: byte %zu: the file ends inside the binary data", r->name,
                           (size_t)(r->p - r->base));
        unsigned char b[8];
        memcpy(b, r->p, n);
        r->p += n;
        uint64_t u = 0;
        for (size_t i = 0; i < n; ++i) u |= (uint64_t)b[i] << (8 * i);
        switch (t) {
        case PLY_I8: *out = (double)(int8_t)u; break;
        case PLY_U8: *out = (double)(uint8_t)u; break;
        case PLY_I16: *out = (double)(int16_t)u; break;
        case PLY_U16: *out = (double)(uint16_t)u; break;
        case PLY_I32: *out = (double)(int32_t)u; break;
        case PLY_U32: *out = (double)(uint32_t)u; break;
        case PLY_F32: { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); *out = (double)f; break; }
        default: { double d; memcpy(&d, &u, 8); *out = d; break; }
        }
        return SC_OK;
    }
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n')) {
        if (*r->p == '\n') ++r->line;
        ++r->p;
    }
    if (r->p >= r->end) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: the file ends inside the element data", r->name, r->line);
    char *e;
    errno = 0;
    double v = strtod(r->p, &e);
    if (e == r->p) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected a number", r->name, r->line);
    if (t != PLY_F32 && t != PLY_F64 && v != (double)(int64_t)v)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected an integer, found %g", r->name, r->line, v);
    r->p = e;
    *out = v;
    return SC_OK;
}

/* The next header line as a NUL-terminated copy in buf; 0 at the end of data. */
static int header_line(ply_reader *r, char *buf, size_t cap)
{
    if (r->p >= r->end) return 0;
    const char *e = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!e) e = r->end;
    size_t n = (size_t)(e - r->p);
    if (n >= cap) n = cap - 1;
    memcpy(buf, r->p, n);
    buf[n] = 0;
    if (n && buf[n - 1] == '\r') buf[n - 1] = 0;
    r->p = e < r->end ? e + 1 : e;
    ++r->line;
    return 1;
}

sc_status sc_mesh_parse_ply(const char *data, size_t size, const char *name, sc_mesh_builder *b)
{
    ply_reader r = {name, data, data + size, data, 0, 0};
    ply_element el[PLY_MAX_ELEMENTS];
    int num_el = 0, format_seen = 0;
    char line[512];
    if (!header_line(&r, line, sizeof line) || strcmp(line, "ply") != 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:1: not a PLY file (first line must be 'ply')", name);
    for (;;) {
        if (!header_line(&r, line, sizeof line))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: the header has no 'end_header'", name, r.line);
        char *save = NULL;
        char *w = strtok_r(line, " \t", &save);
        if (!w || strcmp(w, "comment") == 0 || strcmp(w, "obj_info") == 0) continue;
        if (strcmp(w, "end_header") == 0) break;
        if (strcmp(w, "format") == 0) {
            char *f = strtok_r(NULL, " \t", &save);
            if (f && strcmp(f, "ascii") == 0) r.binary = 0;
            else if (f && strcmp(f, "binary_little_endian") == 0) r.binary = 1;
            else if (f && strcmp(f, "binary_big_endian") == 0)
                return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s:%zu: binary big-endian PLY is not supported", name, r.line);
            else return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: unknown PLY format '%s'", name, r.line, f ? f : "");
            format_seen = 1;
        } else if (strcmp(w, "element") == 0) {
            if (num_el == PLY_MAX_ELEMENTS)
                return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: more than %d elements", name, r.line, PLY_MAX_ELEMENTS);
            char *n = strtok_r(NULL, " \t", &save), *c = strtok_r(NULL, " \t", &save);
            char *e = NULL;
            unsigned long long cnt = c ? strtoull(c, &e, 10) : 0;
            if (!n || !c || *e || c[0] == '-')
                return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected 'element <name> <count>'", name, r.line);
            ply_element *x = &el[num_el++];
            memset(x, 0, sizeof *x);
            snprintf(x->name, sizeof x->name, "%s", n);
            x->count = cnt;
        } else if (strcmp(w, "property") == 0) {
            if (num_el == 0) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: a property before any element", name, r.line);
            ply_element *x = &el[num_el - 1];
            if (x->num_props == PLY_MAX_PROPS)
                return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: more than %d properties", name, r.line, PLY_MAX_PROPS);
            ply_prop *pr = &x->props[x->num_props++];
            memset(pr, 0, sizeof *pr);
            char *t = strtok_r(NULL, " \t", &save);
            char *pname;
            if (t && strcmp(t, "list") == 0) {
                char *ct = strtok_r(NULL, " \t", &save), *it = strtok_r(NULL, " \t", &save);
                pname = strtok_r(NULL, " \t", &save);
                pr->count_type = ct ? type_of(ct) : PLY_NONE;
                pr->type = it ? type_of(it) : PLY_NONE;
                if (pr->count_type == PLY_NONE || pr->type == PLY_NONE || !pname ||
                    pr->count_type == PLY_F32 || pr->count_type == PLY_F64)
                    return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected 'property list <int type> <type> <name>'", name,
                                   r.line);
                if (strcmp(x->name, "face") == 0 &&
                    (strcmp(pname, "vertex_indices") == 0 || strcmp(pname, "vertex_index") == 0))
                    pr->role = 4;
            } else {
                pname = strtok_r(NULL, " \t", &save);
                pr->type = t ? type_of(t) : PLY_NONE;
                if (pr->type == PLY_NONE || !pname)
                    return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected 'property <type> <name>'", name, r.line);
                if (strcmp(x->name, "vertex") == 0) {
                    if (strcmp(pname, "x") == 0) pr->role = 1;
                    else if (strcmp(pname, "y") == 0) pr->role = 2;
                    else if (strcmp(pname, "z") == 0) pr->role = 3;
                }
            }
        } else {
            return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: unknown header keyword '%s'", name, r.line, w);
        }
    }
    if (!format_seen) return SC_FAIL(SC_ERROR_PARSE, "%s: the header has no 'format' line", name);
    size_t header_lines = r.line;
    r.line = header_lines + 1;

    for (int i = 0; i < num_el; ++i) {
        ply_element *x = &el[i];
        int is_vertex = strcmp(x->name, "vertex") == 0, is_face = strcmp(x->name, "face") == 0;
        if (is_vertex) {
            int roles = 0;
            for (int k = 0; k < x->num_props; ++k) roles |= x->props[k].role ? 1 << x->props[k].role : 0;
            if ((roles & 14) != 14) return SC_FAIL(SC_ERROR_PARSE, "%s: element vertex lacks x, y or z", name);
        }
        for (uint64_t j = 0; j < x->count; ++j) {
            double xyz[3] = {0, 0, 0};
            for (int k = 0; k < x->num_props; ++k) {
                const ply_prop *pr = &x->props[k];
                double v;
                if (pr->count_type == PLY_NONE) {
                    SC_TRY(read_value(&r, pr->type, &v));
                    if (pr->role >= 1 && pr->role <= 3) xyz[pr->role - 1] = v;
                    continue;
                }
                double cnt;
                SC_TRY(read_value(&r, pr->count_type, &cnt));
                if (cnt < 0 || cnt > 1e9)
                    return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: list length %g out of range", name, r.line, cnt);
                if (is_face && pr->role == 4 && cnt < 3)
                    return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: face %llu has %g vertices (at least 3 needed)", name,
                                   r.line, (unsigned long long)j, cnt);
                int64_t first = 0, prev = 0;
                for (uint64_t c = 0; c < (uint64_t)cnt; ++c) {
                    SC_TRY(read_value(&r, pr->type, &v));
                    if (pr->role != 4) continue;
                    int64_t idx = (int64_t)v;
                    if (c == 0) first = idx;
                    else if (c >= 2 && !sc_mb_triangle(b, first, prev, idx))
                        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
                    prev = idx;
                }
            }
            if (is_vertex && !sc_mb_vertex(b, (float)xyz[0], (float)xyz[1], (float)xyz[2]))
                return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
        }
    }
    return SC_OK;
}
