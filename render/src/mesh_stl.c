/* mesh_stl.c - STL, ASCII ("solid ... facet normal ... outer loop / vertex x y z x3 / endloop /
 * endfacet ... endsolid") and binary (80-byte header, uint32 count, 50 bytes per facet). A file is
 * binary when its size is exactly 84 + 50 * count, else ASCII when it starts with "solid" and has no
 * NUL byte in its first 84 (else: a truncated binary file). Facet
 * normals are ignored; vertices with identical coordinates are welded so smooth shading works. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

/* Open-addressing table from exact coordinates to vertex index. */
typedef struct weld_table {
    uint32_t *slots;             /* vertex index + 1; 0 = empty */
    size_t mask;
    sc_mesh_builder *b;
} weld_table;

static uint64_t hash_vertex(const float v[3])
{
    uint32_t w[3];
    memcpy(w, v, sizeof w);
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 3; ++i) h = (h ^ w[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static int weld_grow(weld_table *t)
{
    size_t cap = t->mask ? 2 * (t->mask + 1) : 4096;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s) return 0;
    for (size_t i = 0; i < t->b->num_vertices; ++i) {
        size_t h = (size_t)hash_vertex(t->b->positions + 3 * i) & (cap - 1);
        while (s[h]) h = (h + 1) & (cap - 1);
        s[h] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = s;
    t->mask = cap - 1;
    return 1;
}

/* The index of vertex v, adding it when new; -1 when out of memory. */
static int64_t weld(weld_table *t, const float v[3])
{
    if (2 * (t->b->num_vertices + 1) > t->mask + 1 && !weld_grow(t)) return -1;
    size_t h = (size_t)hash_vertex(v) & t->mask;
    while (t->slots[h]) {
        const float *q = t->b->positions + 3 * (size_t)(t->slots[h] - 1);
        if (memcmp(q, v, 3 * sizeof(float)) == 0) return t->slots[h] - 1;
        h = (h + 1) & t->mask;
    }
    if (!sc_mb_vertex(t->b, v[0], v[1], v[2])) return -1;
    t->slots[h] = (uint32_t)t->b->num_vertices;
    return (int64_t)t->b->num_vertices - 1;
}

static sc_status add_facet(weld_table *t, const float v[9], const char *name)
{
    int64_t i[3];
    for (int k = 0; k < 3; ++k) {
        /* Negative zero welds with zero. */
        float q[3] = {v[3 * k] + 0.0f, v[3 * k + 1] + 0.0f, v[3 * k + 2] + 0.0f};
        i[k] = weld(t, q);
        if (i[k] < 0) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
    }
    if (!sc_mb_triangle(t->b, i[0], i[1], i[2])) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory", name);
    return SC_OK;
}

static sc_status parse_binary(const unsigned char *d, size_t size, uint32_t n, const char *name, weld_table *t)
{
    for (uint32_t f = 0; f < n; ++f) {
        const unsigned char *rec = d + 84 + 50 * (size_t)f + 12;
        float v[9];
        for (int k = 0; k < 9; ++k) {
            uint32_t u = (uint32_t)rec[4 * k] | (uint32_t)rec[4 * k + 1] << 8 | (uint32_t)rec[4 * k + 2] << 16 |
                         (uint32_t)rec[4 * k + 3] << 24;
            memcpy(&v[k], &u, 4);
        }
        SC_TRY(add_facet(t, v, name));
    }
    (void)size;
    return SC_OK;
}

/* ASCII tokens with line numbers. */
typedef struct stl_lexer {
    const char *p, *end;
    size_t line;
    char tok[64];
} stl_lexer;

static int next_token(stl_lexer *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n')) {
        if (*x->p == '\n') ++x->line;
        ++x->p;
    }
    if (x->p >= x->end) return 0;
    size_t n = 0;
    while (x->p < x->end && !(*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n')) {
        if (n + 1 < sizeof x->tok) x->tok[n++] = *x->p;
        ++x->p;
    }
    x->tok[n] = 0;
    return 1;
}

static sc_status expect(stl_lexer *x, const char *word, const char *name)
{
    if (!next_token(x)) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: the file ends where '%s' was expected", name, x->line, word);
    if (strcmp(x->tok, word) != 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected '%s', found '%s'", name, x->line, word, x->tok);
    return SC_OK;
}

static sc_status read_number(stl_lexer *x, float *out, const char *name)
{
    if (!next_token(x)) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: the file ends where a number was expected", name, x->line);
    char *e;
    errno = 0;
    *out = strtof(x->tok, &e);
    if (e == x->tok || *e) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected a number, found '%s'", name, x->line, x->tok);
    return SC_OK;
}

static sc_status parse_ascii(const char *data, size_t size, const char *name, weld_table *t)
{
    stl_lexer x = {data, data + size, 1, {0}};
    SC_TRY(expect(&x, "solid", name));
    /* The solid's name: the rest of the first line. */
    while (x.p < x.end && *x.p != '\n') ++x.p;
    for (;;) {
        if (!next_token(&x)) return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: the file ends without 'endsolid'", name, x.line);
        if (strcmp(x.tok, "endsolid") == 0) return SC_OK;
        if (strcmp(x.tok, "facet") != 0)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%zu: expected 'facet' or 'endsolid', found '%s'", name, x.line, x.tok);
        SC_TRY(expect(&x, "normal", name));
        float v[9], nrm;
        for (int k = 0; k < 3; ++k) SC_TRY(read_number(&x, &nrm, name));
        SC_TRY(expect(&x, "outer", name));
        SC_TRY(expect(&x, "loop", name));
        for (int k = 0; k < 3; ++k) {
            SC_TRY(expect(&x, "vertex", name));
            for (int c = 0; c < 3; ++c) SC_TRY(read_number(&x, &v[3 * k + c], name));
        }
        SC_TRY(expect(&x, "endloop", name));
        SC_TRY(expect(&x, "endfacet", name));
        SC_TRY(add_facet(t, v, name));
    }
}

sc_status sc_mesh_parse_stl(const char *data, size_t size, const char *name, sc_mesh_builder *b)
{
    weld_table t = {NULL, 0, b};
    sc_status s;
    const unsigned char *d = (const unsigned char *)data;
    uint32_t n = size >= 84 ? ((uint32_t)d[80] | (uint32_t)d[81] << 8 | (uint32_t)d[82] << 16 | (uint32_t)d[83] << 24) : 0;
    if (size >= 84 && (uint64_t)size == 84 + 50 * (uint64_t)n) {
        s = parse_binary(d, size, n, name, &t);
    } else if (size >= 5 && memcmp(data, "solid", 5) == 0 && (size < 84 || !memchr(data, 0, 84))) {
        s = parse_ascii(data, size, name, &t);
    } else if (size >= 84) {
        s = SC_FAIL(SC_ERROR_PARSE, "%s: byte 80: binary STL header says %u facets (%llu bytes) but the file has %zu bytes",
                    name, n, (unsigned long long)(84 + 50 * (uint64_t)n), size);
    } else {
        s = SC_FAIL(SC_ERROR_PARSE, "%s:1: not an STL file (too short for binary, no 'solid' for ASCII)", name);
    }
    free(t.slots);
    return s;
}
