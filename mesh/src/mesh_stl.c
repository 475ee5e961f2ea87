/* mesh_stl.c - STL, ASCII ("solid ... facet normal ... outer loop / vertex x y z x3 / endloop /
 * endfacet ... endsolid", keywords in any case, several solids in a row allowed) and binary
 * (80-byte header, uint32 count, 50 bytes per facet). Facet normals are ignored; vertices with
 * identical coordinates are welded (mesh_weld.c) so smooth shading works.
 *
 * Which one: binary headers often start with "solid" too, so a file is ASCII when it starts (after
 * a byte order mark and white space) with "solid" in any case, and either its first keyword after
 * that line is "facet" or "endsolid", or its size is known and is not the binary size
 * 84 + 50 * count and its first 84 bytes hold no NUL; anything else is binary, whose size must
 * match its count. */
#include <string.h>
#include <strings.h>

#include "mesh_internal.h"
#include "sc_report.h"

enum { PEEK = 1024, WORD = 64 };

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static sc_status add_facet(sc_weld_table *t, const float v[9])
{
    uint32_t i[3];
    for (int k = 0; k < 3; ++k) SC_TRY(sc_weld(t, v + 3 * k, &i[k]));
    return sc_mb_triangle(t->b, i[0], i[1], i[2]);
}

/* ---- binary ---- */

static sc_status parse_binary(sc_mesh_reader *r, sc_weld_table *t, int looked_ascii)
{
    const char *hint = looked_ascii ? " (it starts with 'solid' but is not ASCII STL either)" : "";
    SC_TRY(sc_rd_fill(r, 84));
    if (sc_rd_avail(r) < 84)
        return SC_FAIL(SC_ERROR_PARSE, "%s: not an STL file: %zu bytes, too short for binary STL, and no 'solid' for ASCII",
                       r->name, sc_rd_avail(r));
    uint32_t n = le32((const unsigned char *)sc_rd_peek(r) + 80);
    uint64_t expected = 84 + 50 * (uint64_t)n;
    if (r->size_hint != UINT64_MAX && r->size_hint != expected)
        return SC_FAIL(SC_ERROR_PARSE, "%s: byte 80: binary STL header says %u facets (%llu bytes) but the file has %llu bytes%s",
                       r->name, n, (unsigned long long)expected, (unsigned long long)r->size_hint, hint);
    t->b->loc.at = 80;
    t->b->loc.is_byte = 1;
    if (n > t->b->limits.max_triangles) return sc_mb_fail_triangle_limit(t->b);
    sc_rd_consume(r, 84);
    for (uint32_t f = 0; f < n; ++f) {
        SC_TRY(sc_rd_fill(r, 50));
        if (sc_rd_avail(r) < 50)
            return SC_FAIL(SC_ERROR_PARSE, "%s: byte %llu: binary STL header says %u facets (%llu bytes) but the data ends "
                           "inside facet %u%s", r->name, (unsigned long long)sc_rd_offset(r), n,
                           (unsigned long long)expected, f, hint);
        const unsigned char *rec = (const unsigned char *)sc_rd_peek(r) + 12;
        float v[9];
        for (int k = 0; k < 9; ++k) {
            uint32_t u = le32(rec + 4 * k);
            memcpy(&v[k], &u, 4);
        }
        t->b->loc.at = sc_rd_offset(r);
        sc_rd_consume(r, 50);
        SC_TRY(add_facet(t, v));
    }
    SC_TRY(sc_rd_fill(r, 1));
    if (sc_rd_avail(r))
        return SC_FAIL(SC_ERROR_PARSE, "%s: byte %llu: binary STL header says %u facets (%llu bytes) but more data follows%s",
                       r->name, (unsigned long long)sc_rd_offset(r), n, (unsigned long long)expected, hint);
    return SC_OK;
}

/* ---- ASCII ---- */

/* The next token, NUL-terminated in word (longer ones are cut: they match no keyword). */
static sc_status next_word(sc_mesh_reader *r, char word[WORD], int *got)
{
    const char *tok;
    size_t n;
    SC_TRY(sc_rd_token(r, SC_MESH_MAX_LINE, &tok, &n, got));
    if (!*got) return SC_OK;
    if (n >= WORD) n = WORD - 1;
    memcpy(word, tok, n);
    word[n] = 0;
    return SC_OK;
}

static sc_status expect(sc_mesh_reader *r, const char *keyword)
{
    char word[WORD];
    int got;
    SC_TRY(next_word(r, word, &got));
    if (!got)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: the file ends where '%s' was expected", r->name,
                       (unsigned long long)r->next_line, keyword);
    if (strcasecmp(word, keyword) != 0)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected '%s', found '%s'", r->name, (unsigned long long)r->line,
                       keyword, word);
    return SC_OK;
}

static sc_status read_number(sc_mesh_reader *r, float *out)
{
    const char *tok;
    size_t n;
    int got;
    SC_TRY(sc_rd_token(r, SC_MESH_MAX_LINE, &tok, &n, &got));
    if (!got)
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: the file ends where a number was expected", r->name,
                       (unsigned long long)r->next_line);
    if (!sc_mesh_parse_float(tok, n, out))
        return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected a number, found '%.*s'", r->name, (unsigned long long)r->line,
                       n > 40 ? 40 : (int)n, tok);
    return SC_OK;
}

/* The rest of the current line (a solid's name). */
static sc_status skip_line(sc_mesh_reader *r)
{
    const char *line;
    size_t len;
    int got;
    return sc_rd_line(r, SC_MESH_MAX_LINE, &line, &len, &got);
}

static sc_status parse_facet(sc_mesh_reader *r, sc_weld_table *t)
{
    sc_mesh_loc at = {r->line, 0};
    SC_TRY(expect(r, "normal"));
    float v[9], normal;
    for (int k = 0; k < 3; ++k) SC_TRY(read_number(r, &normal));
    SC_TRY(expect(r, "outer"));
    SC_TRY(expect(r, "loop"));
    for (int k = 0; k < 3; ++k) {
        SC_TRY(expect(r, "vertex"));
        for (int c = 0; c < 3; ++c) SC_TRY(read_number(r, &v[3 * k + c]));
    }
    SC_TRY(expect(r, "endloop"));
    SC_TRY(expect(r, "endfacet"));
    t->b->loc = at;
    return add_facet(t, v);
}

static sc_status parse_ascii(sc_mesh_reader *r, sc_weld_table *t)
{
    SC_TRY(sc_rd_skip_bom(r));
    SC_TRY(expect(r, "solid"));
    SC_TRY(skip_line(r));
    for (;;) {
        char word[WORD];
        int got;
        SC_TRY(next_word(r, word, &got));
        if (!got)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: the file ends without 'endsolid'", r->name,
                           (unsigned long long)r->next_line);
        if (strcasecmp(word, "facet") == 0) {
            SC_TRY(parse_facet(r, t));
            continue;
        }
        if (strcasecmp(word, "endsolid") != 0)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'facet' or 'endsolid', found '%s'", r->name,
                           (unsigned long long)r->line, word);
        SC_TRY(skip_line(r));
        /* The end, or another solid. */
        SC_TRY(next_word(r, word, &got));
        if (!got) return SC_OK;
        if (strcasecmp(word, "solid") != 0)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: expected 'solid' or the end of the file after 'endsolid', found '%s'",
                           r->name, (unsigned long long)r->line, word);
        SC_TRY(skip_line(r));
    }
}

/* ---- which one ---- */

/* At p[0, n): "solid" in any case, then white space or the end. */
static int starts_solid(const char *p, size_t n)
{
    return n >= 5 && strncasecmp(p, "solid", 5) == 0 && (n == 5 || is_space(p[5]));
}

/* Looks at the first bytes: *solid when they start with "solid", *ascii when the first word of
 * the next line is "facet" or "endsolid" (any case) and no NUL comes before it. */
static void sniff(const char *p, size_t n, int *solid, int *ascii)
{
    *solid = *ascii = 0;
    size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < n && is_space(p[i])) ++i;
    if (!starts_solid(p + i, n - i)) return;
    *solid = 1;
    const char *nl = memchr(p + i, '\n', n - i);
    if (!nl || memchr(p, 0, (size_t)(nl - p))) return;
    i = (size_t)(nl - p);
    while (i < n && is_space(p[i])) ++i;
    size_t w = i;
    while (w < n && !is_space(p[w])) ++w;
    *ascii = (w - i == 5 && strncasecmp(p + i, "facet", 5) == 0) || (w - i == 8 && strncasecmp(p + i, "endsolid", 8) == 0);
}

sc_status sc_mesh_parse_stl(sc_mesh_reader *r, sc_mesh_builder *b)
{
    SC_TRY(sc_rd_fill(r, PEEK));
    int solid, ascii;
    sniff(sc_rd_peek(r), sc_rd_avail(r), &solid, &ascii);
    /* Not binary by its size (known up front) and text in the header's place: ASCII too. */
    size_t head = sc_rd_avail(r) < 84 ? sc_rd_avail(r) : 84;
    int binary_size = 0, text_head = !memchr(sc_rd_peek(r), 0, head);
    if (r->size_hint != UINT64_MAX && sc_rd_avail(r) >= 84)
        binary_size = r->size_hint == 84 + 50 * (uint64_t)le32((const unsigned char *)sc_rd_peek(r) + 80);
    sc_weld_table t;
    sc_weld_init(&t, b);
    sc_status s;
    if (solid && (ascii || (r->size_hint != UINT64_MAX && !binary_size && text_head))) s = parse_ascii(r, &t);
    else s = parse_binary(r, &t, solid);
    sc_weld_free(&t);
    return s;
}
