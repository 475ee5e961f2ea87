/* mesh_ply.c - PLY, ASCII and binary little-endian: element "vertex" (properties x, y, z of any
 * scalar type, others skipped) and element "face" (list property vertex_indices or vertex_index,
 * polygons fanned into triangles); other elements are skipped. Header and ASCII errors name the
 * file and line, binary errors the byte offset. Big-endian files are not supported.
 *
 * Hostile headers cost nothing: counts are parsed with overflow checks, and a header line with
 * more tokens than its keyword takes is an error; an element without properties holds no data, so
 * it is skipped whatever its count; every other element consumes at least a byte (binary) or a
 * token (ASCII) of data, so a count larger than the data ends at the end of the data, and when the
 * size is known up front such a count is refused before any data is read. Values are range-checked
 * before every conversion to an integer or a float. */
#include <math.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

enum { PLY_MAX_PROPS = 64, PLY_MAX_ELEMENTS = 16, PLY_MAX_HEADER_LINE = 512, PLY_NAME = 32 };

typedef enum ply_type { PLY_NONE = 0, PLY_I8, PLY_U8, PLY_I16, PLY_U16, PLY_I32, PLY_U32, PLY_F32, PLY_F64 } ply_type;

enum { ROLE_OTHER = 0, ROLE_X, ROLE_Y, ROLE_Z, ROLE_INDICES };

typedef struct ply_prop {
    ply_type type;        /* scalar type, or the item type of a list */
    ply_type count_type;  /* PLY_NONE: scalar */
    int role;
} ply_prop;

typedef struct ply_element {
    char name[PLY_NAME];
    uint64_t count;
    uint64_t line;        /* of its header line */
    ply_prop props[PLY_MAX_PROPS];
    int num_props;
} ply_element;

typedef struct ply_file {
    ply_element el[PLY_MAX_ELEMENTS];
    int num_el;
    int binary;
} ply_file;

static const struct { const char *name; ply_type type; } k_types[] = {
    {"char", PLY_I8}, {"int8", PLY_I8}, {"uchar", PLY_U8}, {"uint8", PLY_U8},
    {"short", PLY_I16}, {"int16", PLY_I16}, {"ushort", PLY_U16}, {"uint16", PLY_U16},
    {"int", PLY_I32}, {"int32", PLY_I32}, {"uint", PLY_U32}, {"uint32", PLY_U32},
    {"float", PLY_F32}, {"float32", PLY_F32}, {"double", PLY_F64}, {"float64", PLY_F64}};

static ply_type type_of(const char *s)
{
    for (size_t i = 0; s && i < sizeof k_types / sizeof k_types[0]; ++i)
        if (strcmp(s, k_types[i].name) == 0) return k_types[i].type;
    return PLY_NONE;
}

static const char *type_name(ply_type t)
{
    for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; ++i)
        if (k_types[i].type == t) return k_types[i].name;
    return "?";
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

static int is_integer_type(ply_type t) { return t != PLY_F32 && t != PLY_F64; }

/* The range of an integer type. */
static void int_range(ply_type t, double *lo, double *hi)
{
    switch (t) {
    case PLY_I8: *lo = -128; *hi = 127; break;
    case PLY_U8: *lo = 0; *hi = 255; break;
    case PLY_I16: *lo = -32768; *hi = 32767; break;
    case PLY_U16: *lo = 0; *hi = 65535; break;
    case PLY_I32: *lo = -2147483648.0; *hi = 2147483647.0; break;
    default: *lo = 0; *hi = 4294967295.0; break;
    }
}

/* ---- header ---- */

static int header_keyword(const char *line, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && memcmp(line, word, n) == 0 && (len == n || line[n] == ' ' || line[n] == '\t');
}

/* Parses a decimal count: no sign, no overflow. */
static int parse_count(const char *s, uint64_t *out)
{
    if (!s || !*s) return 0;
    uint64_t v = 0;
    for (; *s; ++s) {
        if (*s < '0' || *s > '9') return 0;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = 10 * v + d;
    }
    *out = v;
    return 1;
}

static sc_status header_element(sc_mesh_reader *r, ply_file *f, char **save)
{
    if (f->num_el == PLY_MAX_ELEMENTS)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: more than %d elements", r->name, (unsigned long long)r->line,
                       PLY_MAX_ELEMENTS);
    char *n = strtok_r(NULL, " \t", save), *c = strtok_r(NULL, " \t", save), *extra = strtok_r(NULL, " \t", save);
    uint64_t count;
    if (!n || !c || extra || strlen(n) >= PLY_NAME)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'element <name> <count>'", r->name, (unsigned long long)r->line);
    if (!parse_count(c, &count))
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: element count '%s' is not a number below 2^64", r->name,
                       (unsigned long long)r->line, c);
    ply_element *x = &f->el[f->num_el++];
    memset(x, 0, sizeof *x);
    memcpy(x->name, n, strlen(n) + 1);
    x->count = count;
    x->line = r->line;
    return SC_OK;
}

static sc_status header_property(sc_mesh_reader *r, ply_file *f, char **save)
{
    unsigned long long line = (unsigned long long)r->line;
    if (f->num_el == 0) return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a property before any element", r->name, line);
    ply_element *x = &f->el[f->num_el - 1];
    if (x->num_props == PLY_MAX_PROPS)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: more than %d properties", r->name, line, PLY_MAX_PROPS);
    ply_prop pr = {PLY_NONE, PLY_NONE, ROLE_OTHER};
    char *t = strtok_r(NULL, " \t", save);
    if (t && strcmp(t, "list") == 0) {
        char *ct = strtok_r(NULL, " \t", save), *it = strtok_r(NULL, " \t", save);
        char *name = strtok_r(NULL, " \t", save), *extra = strtok_r(NULL, " \t", save);
        pr.count_type = type_of(ct);
        pr.type = type_of(it);
        if (pr.count_type == PLY_NONE || !is_integer_type(pr.count_type) || pr.type == PLY_NONE || !name || extra)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'property list <integer type> <type> <name>'", r->name,
                           line);
        if (strcmp(x->name, "face") == 0 && (strcmp(name, "vertex_indices") == 0 || strcmp(name, "vertex_index") == 0))
            pr.role = ROLE_INDICES;
    } else {
        char *name = strtok_r(NULL, " \t", save), *extra = strtok_r(NULL, " \t", save);
        pr.type = type_of(t);
        if (pr.type == PLY_NONE || !name || extra)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'property <type> <name>'", r->name, line);
        if (strcmp(x->name, "vertex") == 0) {
            if (strcmp(name, "x") == 0) pr.role = ROLE_X;
            else if (strcmp(name, "y") == 0) pr.role = ROLE_Y;
            else if (strcmp(name, "z") == 0) pr.role = ROLE_Z;
        }
    }
    x->props[x->num_props++] = pr;
    return SC_OK;
}

/* One header line (not the first): 1 in *done at end_header. */
static sc_status header_line(sc_mesh_reader *r, ply_file *f, const char *line, size_t len, int *format_seen, int *done)
{
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) --len;
    for (size_t i = 0; i < len; ++i)
        if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: binary data in the header (byte 0x%02x)", r->name,
                           (unsigned long long)r->line, (unsigned)(unsigned char)line[i]);
    if (len == 0 || header_keyword(line, len, "comment") || header_keyword(line, len, "obj_info")) return SC_OK;
    if (len >= PLY_MAX_HEADER_LINE)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a header line longer than %d bytes", r->name,
                       (unsigned long long)r->line, PLY_MAX_HEADER_LINE - 1);
    char buf[PLY_MAX_HEADER_LINE];
    memcpy(buf, line, len);
    buf[len] = 0;
    char *save = NULL;
    char *w = strtok_r(buf, " \t", &save);
    if (strcmp(w, "end_header") == 0) {
        if (strtok_r(NULL, " \t", &save))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: text after 'end_header'", r->name, (unsigned long long)r->line);
        *done = 1;
        return SC_OK;
    }
    if (strcmp(w, "element") == 0) return header_element(r, f, &save);
    if (strcmp(w, "property") == 0) return header_property(r, f, &save);
    if (strcmp(w, "format") != 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: unknown header keyword '%s'", r->name, (unsigned long long)r->line, w);
    char *fm = strtok_r(NULL, " \t", &save), *version = strtok_r(NULL, " \t", &save);
    if (version && strtok_r(NULL, " \t", &save))
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'format <type> 1.0'", r->name, (unsigned long long)r->line);
    if (fm && strcmp(fm, "ascii") == 0) f->binary = 0;
    else if (fm && strcmp(fm, "binary_little_endian") == 0) f->binary = 1;
    else if (fm && strcmp(fm, "binary_big_endian") == 0)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s:%llu: binary big-endian PLY is not supported", r->name,
                       (unsigned long long)r->line);
    else return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: unknown PLY format '%s'", r->name, (unsigned long long)r->line, fm ? fm : "");
    *format_seen = 1;
    return SC_OK;
}

static sc_status parse_header(sc_mesh_reader *r, ply_file *f)
{
    const char *line;
    size_t len;
    int got, format_seen = 0, done = 0;
    SC_TRY(sc_rd_skip_bom(r));
    SC_TRY(sc_rd_line(r, PLY_MAX_HEADER_LINE, &line, &len, &got));
    while (got && len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) --len;
    if (!got || len != 3 || memcmp(line, "ply", 3) != 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:1: not a PLY file (first line must be 'ply')", r->name);
    while (!done) {
        SC_TRY(sc_rd_line(r, SC_MESH_MAX_LINE, &line, &len, &got));
        if (!got) return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: the header has no 'end_header'", r->name, (unsigned long long)r->line);
        SC_TRY(header_line(r, f, line, len, &format_seen, &done));
    }
    if (!format_seen) return SC_FAIL(SC_ERROR_PARSE, "%s: the header has no 'format' line", r->name);
    return SC_OK;
}

/* ---- checks between header and data ---- */

static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

/* The fewest bytes one element can take: binary, every scalar and list count; ASCII, a character
 * and a separator per value. */
static uint64_t min_element_bytes(const ply_element *x, int binary)
{
    uint64_t n = 0;
    for (int k = 0; k < x->num_props; ++k) {
        const ply_prop *pr = &x->props[k];
        n += binary ? size_of(pr->count_type != PLY_NONE ? pr->count_type : pr->type) : 2;
    }
    return n;
}

static sc_status check_elements(sc_mesh_reader *r, sc_mesh_builder *b, const ply_file *f)
{
    uint64_t after_header = sc_rd_offset(r), need = 0;
    for (int i = 0; i < f->num_el; ++i) {
        const ply_element *x = &f->el[i];
        b->loc.at = x->line;
        b->loc.is_byte = 0;
        int roles = 0;
        for (int k = 0; k < x->num_props; ++k) roles |= 1 << x->props[k].role;
        if (strcmp(x->name, "vertex") == 0) {
            const int xyz = 1 << ROLE_X | 1 << ROLE_Y | 1 << ROLE_Z;
            if ((roles & xyz) != xyz)
                return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: element vertex lacks x, y or z", r->name,
                               (unsigned long long)x->line);
            if (x->count > b->limits.max_vertices) return sc_mb_fail_vertex_limit(b);
        }
        /* Every face gives at least one triangle. */
        if ((roles & 1 << ROLE_INDICES) && x->count > b->limits.max_triangles) return sc_mb_fail_triangle_limit(b);
        need = add_sat(need, mul_sat(x->count, min_element_bytes(x, f->binary)));
        /* ASCII: the last value needs no separator. */
        uint64_t least = !f->binary && need ? need - 1 : need;
        if (r->size_hint != UINT64_MAX && least > r->size_hint - after_header)
            return SC_FAIL(SC_ERROR_PARSE,
                           "%s:%llu: element '%s' has a count of %llu: the elements up to it need at least %llu bytes, "
                           "but %llu follow the header",
                           r->name, (unsigned long long)x->line, x->name, (unsigned long long)x->count,
                           (unsigned long long)least, (unsigned long long)(r->size_hint - after_header));
    }
    return SC_OK;
}

/* ---- data ---- */

typedef struct ply_data {
    sc_mesh_reader *r;
    int binary;
    const ply_element *el;
    uint64_t index;       /* of the element being read */
} ply_data;

static sc_status data_ends(const ply_data *d)
{
    if (d->binary)
        return SC_FAIL(SC_ERROR_PARSE, "%s: byte %llu: the data ends inside element '%s' %llu of %llu", d->r->name,
                       (unsigned long long)sc_rd_offset(d->r), d->el->name, (unsigned long long)d->index,
                       (unsigned long long)d->el->count);
    return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: the data ends inside element '%s' %llu of %llu", d->r->name,
                   (unsigned long long)d->r->line, d->el->name, (unsigned long long)d->index,
                   (unsigned long long)d->el->count);
}

static sc_status read_binary(ply_data *d, ply_type t, double *out)
{
    size_t n = size_of(t);
    SC_TRY(sc_rd_fill(d->r, n));
    if (sc_rd_avail(d->r) < n) return data_ends(d);
    const unsigned char *p = (const unsigned char *)sc_rd_peek(d->r);
    uint64_t u = 0;
    for (size_t i = 0; i < n; ++i) u |= (uint64_t)p[i] << (8 * i);
    sc_rd_consume(d->r, n);
    switch (t) {
    case PLY_I8: *out = (double)(int8_t)(uint8_t)u; break;
    case PLY_U8: *out = (double)(uint8_t)u; break;
    case PLY_I16: *out = (double)(int16_t)(uint16_t)u; break;
    case PLY_U16: *out = (double)(uint16_t)u; break;
    case PLY_I32: *out = (double)(int32_t)(uint32_t)u; break;
    case PLY_U32: *out = (double)(uint32_t)u; break;
    case PLY_F32: {
        uint32_t w = (uint32_t)u;
        float v;
        memcpy(&v, &w, 4);
        *out = (double)v;
        break;
    }
    default: memcpy(out, &u, 8); break;
    }
    return SC_OK;
}

static sc_status read_ascii(ply_data *d, ply_type t, double *out)
{
    const char *tok;
    size_t n;
    int got;
    SC_TRY(sc_rd_token(d->r, SC_MESH_MAX_LINE, &tok, &n, &got));
    if (!got) return data_ends(d);
    if (!sc_mesh_parse_double(tok, n, out))
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected a number, found '%.*s'", d->r->name,
                       (unsigned long long)d->r->line, n > 40 ? 40 : (int)n, tok);
    if (is_integer_type(t)) {
        double lo, hi;
        int_range(t, &lo, &hi);
        if (!(*out >= lo && *out <= hi && *out == floor(*out)))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected an integer of type %s, found '%.*s'", d->r->name,
                           (unsigned long long)d->r->line, type_name(t), n > 40 ? 40 : (int)n, tok);
    }
    return SC_OK;
}

static sc_status read_value(ply_data *d, ply_type t, double *out)
{
    return d->binary ? read_binary(d, t, out) : read_ascii(d, t, out);
}

/* A vertex index from any property type: -1 (dropped as out of range) unless a whole number that
 * fits an index, so no conversion is undefined. */
static int64_t index_of(double v)
{
    return v >= 0 && v <= 4294967295.0 && v == floor(v) ? (int64_t)v : -1;
}

static void set_loc(const ply_data *d, sc_mesh_builder *b, uint64_t start)
{
    b->loc.at = d->binary ? start : d->r->line;
    b->loc.is_byte = d->binary;
}

static sc_status read_list(ply_data *d, sc_mesh_builder *b, const ply_prop *pr, uint64_t start)
{
    double count;
    SC_TRY(read_value(d, pr->count_type, &count));
    if (count < 0) {
        if (d->binary)
            return SC_FAIL(SC_ERROR_PARSE, "%s: byte %llu: negative list length %g", d->r->name,
                           (unsigned long long)sc_rd_offset(d->r), count);
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: negative list length %g", d->r->name, (unsigned long long)d->r->line,
                       count);
    }
    uint64_t n = (uint64_t)count;   /* a whole number of an integer type: exact */
    if (pr->role == ROLE_INDICES && n < 3) {
        if (d->binary)
            return SC_FAIL(SC_ERROR_PARSE, "%s: byte %llu: face %llu has %llu vertices (at least 3 needed)", d->r->name,
                           (unsigned long long)start, (unsigned long long)d->index, (unsigned long long)n);
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: face %llu has %llu vertices (at least 3 needed)", d->r->name,
                       (unsigned long long)d->r->line, (unsigned long long)d->index, (unsigned long long)n);
    }
    int64_t first = 0, prev = 0;
    for (uint64_t c = 0; c < n; ++c) {
        double v;
        SC_TRY(read_value(d, pr->type, &v));
        if (pr->role != ROLE_INDICES) continue;
        int64_t idx = index_of(v);
        if (c == 0) first = idx;
        else if (c >= 2) {
            set_loc(d, b, start);
            SC_TRY(sc_mb_triangle(b, first, prev, idx));
        }
        prev = idx;
    }
    return SC_OK;
}

static sc_status read_element(ply_data *d, sc_mesh_builder *b, int is_vertex)
{
    uint64_t start = sc_rd_offset(d->r);
    double xyz[3] = {0, 0, 0};
    for (int k = 0; k < d->el->num_props; ++k) {
        const ply_prop *pr = &d->el->props[k];
        if (pr->count_type != PLY_NONE) {
            SC_TRY(read_list(d, b, pr, start));
            continue;
        }
        double v;
        SC_TRY(read_value(d, pr->type, &v));
        if (pr->role >= ROLE_X && pr->role <= ROLE_Z) xyz[pr->role - ROLE_X] = v;
    }
    if (!is_vertex) return SC_OK;
    set_loc(d, b, start);
    return sc_mb_vertex(b, sc_mesh_float_of(xyz[0]), sc_mesh_float_of(xyz[1]), sc_mesh_float_of(xyz[2]));
}

/* After the last element: ASCII allows only white space; binary extra bytes are ignored with a warning. */
static sc_status check_trailing(sc_mesh_reader *r, int binary)
{
    if (binary) {
        SC_TRY(sc_rd_fill(r, 1));
        if (sc_rd_avail(r))
            sc_log(SC_LOG_WARNING, "%s: byte %llu: ignored data after the last element", r->name,
                   (unsigned long long)sc_rd_offset(r));
        return SC_OK;
    }
    const char *tok;
    size_t n;
    int got;
    SC_TRY(sc_rd_token(r, SC_MESH_MAX_LINE, &tok, &n, &got));
    if (got)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: data after the last element: '%.*s'", r->name,
                       (unsigned long long)r->line, n > 40 ? 40 : (int)n, tok);
    return SC_OK;
}

sc_status sc_mesh_parse_ply(sc_mesh_reader *r, sc_mesh_builder *b)
{
    ply_file f;
    f.num_el = 0;
    f.binary = 0;
    SC_TRY(parse_header(r, &f));
    SC_TRY(check_elements(r, b, &f));
    for (int i = 0; i < f.num_el; ++i) {
        ply_data d = {r, f.binary, &f.el[i], 0};
        /* No properties: no data, whatever the count. */
        if (f.el[i].num_props == 0) continue;
        int is_vertex = strcmp(f.el[i].name, "vertex") == 0;
        for (d.index = 0; d.index < f.el[i].count; ++d.index) SC_TRY(read_element(&d, b, is_vertex));
    }
    return check_trailing(r, f.binary);
}
