/* mesh_obj.c - Wavefront OBJ: "v x y z [w or colours]" and "f a b c ..." lines (indices 1-based or
 * negative, in any of the forms v, v/vt, v//vn, v/vt/vn); polygons are fanned into triangles.
 * The format's other statements are ignored; an unknown statement that reads as a word (letters,
 * digits, '_', up to 32) is ignored and counted in one warning; a line holding binary data (a NUL or
 * another control byte than tab, CR, FF, VT) or starting with anything else is an error: that is
 * how a binary file named .obj is told from a text one. Errors name the file and line. */
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

/* Statements of the OBJ format that carry nothing the renderer uses. */
static const char *const k_ignored[] = {
    "vt", "vn", "vp", "g", "o", "s", "usemtl", "mtllib", "l", "p", "cstype", "deg", "bmat", "step",
    "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp", "end", "con", "mg", "bevel",
    "c_interp", "d_interp", "lod", "maplib", "usemap", "shadow_obj", "trace_obj", "ctech", "stech",
    "bsp", "bzp", "cdc", "cdp", "res", "call", "csh"};

enum { MAX_WORD = 32 };

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int is_control(unsigned char c) { return (c < 0x20 && !is_blank((char)c)) || c == 0x7f; }

static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The next blank-separated token of [*p, end): 0 when none is left. */
static int next_token(const char **p, const char *end, const char **tok, size_t *n)
{
    const char *q = *p;
    while (q < end && is_blank(*q)) ++q;
    if (q >= end) return 0;
    const char *e = q;
    while (e < end && !is_blank(*e)) ++e;
    *tok = q;
    *n = (size_t)(e - q);
    *p = e;
    return 1;
}

static int word_is(const char *tok, size_t n, const char *word) { return strlen(word) == n && memcmp(tok, word, n) == 0; }

static sc_status parse_vertex(sc_mesh_reader *r, sc_mesh_builder *b, const char *p, const char *end)
{
    float xyz[3];
    const char *tok;
    size_t n;
    for (int k = 0; k < 3; ++k) {
        if (!next_token(&p, end, &tok, &n))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a vertex needs three numbers ('v x y z'), found %d", r->name,
                           (unsigned long long)r->line, k);
        if (!sc_mesh_parse_float(tok, n, &xyz[k]))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a vertex needs three numbers ('v x y z'), found '%.*s'", r->name,
                           (unsigned long long)r->line, n > 40 ? 40 : (int)n, tok);
    }
    /* w, or colours: numbers, ignored. */
    while (next_token(&p, end, &tok, &n)) {
        double extra;
        if (!sc_mesh_parse_double(tok, n, &extra))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: '%.*s' after a vertex's coordinates is not a number", r->name,
                           (unsigned long long)r->line, n > 40 ? 40 : (int)n, tok);
    }
    return sc_mb_vertex(b, xyz[0], xyz[1], xyz[2]);
}

/* One corner "v[/vt][/vn]": its 0-based vertex index (-1 when beyond any range). */
static sc_status parse_corner(sc_mesh_reader *r, const sc_mesh_builder *b, const char *tok, size_t n,
                              unsigned long long corner, int64_t *index)
{
    const char *slash = memchr(tok, '/', n);
    size_t vn = slash ? (size_t)(slash - tok) : n;
    for (size_t i = vn; i < n; ++i)
        if (tok[i] != '/' && tok[i] != '-' && tok[i] != '+' && !(tok[i] >= '0' && tok[i] <= '9'))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: unexpected character '%c' in face vertex %llu", r->name,
                           (unsigned long long)r->line, tok[i], corner);
    int64_t v = 0;
    int ok = sc_mesh_parse_i64(tok, vn, &v);
    if (ok == 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: face vertex %llu ('%.*s') is not an integer index", r->name,
                       (unsigned long long)r->line, corner, vn > 40 ? 40 : (int)vn, tok);
    if (ok < 0) {
        *index = -1;   /* beyond 64 bits: out of range, the face is dropped */
        return SC_OK;
    }
    if (v == 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: face vertex index 0 (OBJ indices start at 1)", r->name,
                       (unsigned long long)r->line);
    /* Negative: relative to the vertices read so far (v >= INT64_MIN and the count < 2^32: no overflow). */
    *index = v > 0 ? v - 1 : (int64_t)b->num_vertices + v;
    return SC_OK;
}

static sc_status parse_face(sc_mesh_reader *r, sc_mesh_builder *b, const char *p, const char *end)
{
    int64_t first = 0, prev = 0;
    unsigned long long corners = 0;
    const char *tok;
    size_t n;
    while (next_token(&p, end, &tok, &n)) {
        int64_t idx = -1;
        SC_TRY(parse_corner(r, b, tok, n, corners + 1, &idx));
        if (corners == 0) first = idx;
        else if (corners >= 2) SC_TRY(sc_mb_triangle(b, first, prev, idx));
        prev = idx;
        ++corners;
    }
    if (corners < 3)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a face needs at least three vertices, found %llu", r->name,
                       (unsigned long long)r->line, corners);
    return SC_OK;
}

/* A statement that is neither v nor f. */
static sc_status other_statement(sc_mesh_reader *r, sc_mesh_builder *b, const char *word, size_t n)
{
    for (size_t i = 0; i < sizeof k_ignored / sizeof k_ignored[0]; ++i)
        if (word_is(word, n, k_ignored[i])) return SC_OK;
    int plausible = n <= MAX_WORD && ((word[0] >= 'a' && word[0] <= 'z') || (word[0] >= 'A' && word[0] <= 'Z'));
    for (size_t i = 0; plausible && i < n; ++i) plausible = is_word_char(word[i]);
    if (!plausible)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: not an OBJ statement: '%.*s'", r->name, (unsigned long long)r->line,
                       n > 40 ? 40 : (int)n, word);
    if (b->ignored_statements++ == 0) {
        b->first_ignored = b->loc;
        memcpy(b->first_ignored_word, word, n);
        b->first_ignored_word[n] = 0;
    }
    return SC_OK;
}

static sc_status parse_line(sc_mesh_reader *r, sc_mesh_builder *b, const char *line, size_t len)
{
    const char *end = line + len;
    for (const char *c = line; c < end; ++c)
        if (is_control((unsigned char)*c))
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: binary data (byte 0x%02x at column %zu): not an OBJ text line",
                           r->name, (unsigned long long)r->line, (unsigned)(unsigned char)*c, (size_t)(c - line) + 1);
    const char *p = line, *word;
    size_t n;
    if (!next_token(&p, end, &word, &n) || word[0] == '#') return SC_OK;
    if (word_is(word, n, "v")) return parse_vertex(r, b, p, end);
    if (word_is(word, n, "f")) return parse_face(r, b, p, end);
    return other_statement(r, b, word, n);
}

sc_status sc_mesh_parse_obj(sc_mesh_reader *r, sc_mesh_builder *b)
{
    SC_TRY(sc_rd_skip_bom(r));
    for (;;) {
        const char *line;
        size_t len;
        int got;
        SC_TRY(sc_rd_line(r, SC_MESH_MAX_LINE, &line, &len, &got));
        if (!got) return SC_OK;
        b->loc.at = r->line;
        b->loc.is_byte = 0;
        SC_TRY(parse_line(r, b, line, len));
    }
}
