/* bench_test_parse.h - a strict JSON checker (RFC 8259 grammar, whole document) and an RFC 4180 CSV
 * reader, for the tests of slabcast-bench's writers: what they write must read back. Header-only
 * (static inline functions). */
#ifndef SLABCAST_BENCH_TEST_PARSE_H
#define SLABCAST_BENCH_TEST_PARSE_H

#include <stdlib.h>
#include <string.h>

/* ---- JSON -------------------------------------------------------------------------------------- */

typedef struct json_cursor {
    const char *p, *end;
    int depth;
} json_cursor;

static inline int json_value(json_cursor *c);

static inline void json_space(json_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) ++c->p;
}

static inline int json_literal(json_cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return -1;
    c->p += n;
    return 0;
}

static inline int json_is_hex(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/* A string: no raw control characters, only the escapes JSON has. */
static inline int json_string_token(json_cursor *c)
{
    if (c->p >= c->end || *c->p != '"') return -1;
    ++c->p;
    while (c->p < c->end && *c->p != '"') {
        unsigned char ch = (unsigned char)*c->p;
        if (ch < 0x20) return -1;
        if (ch != '\\') {
            ++c->p;
            continue;
        }
        if (++c->p >= c->end) return -1;
        if (*c->p == 'u') {
            for (int i = 1; i <= 4; ++i)
                if (c->p + i >= c->end || !json_is_hex(c->p[i])) return -1;
            c->p += 5;
        } else if (strchr("\"\\/bfnrt", *c->p) && *c->p) {
            ++c->p;
        } else {
            return -1;
        }
    }
    if (c->p >= c->end) return -1;
    ++c->p;
    return 0;
}

static inline int json_digits(json_cursor *c)
{
    const char *start = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') ++c->p;
    return c->p > start ? 0 : -1;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static inline int json_number_token(json_cursor *c)
{
    if (c->p < c->end && *c->p == '-') ++c->p;
    if (c->p < c->end && *c->p == '0') ++c->p;
    else if (json_digits(c) != 0) return -1;
    if (c->p < c->end && *c->p == '.') {
        ++c->p;
        if (json_digits(c) != 0) return -1;
    }
    if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
        ++c->p;
        if (c->p < c->end && (*c->p == '+' || *c->p == '-')) ++c->p;
        if (json_digits(c) != 0) return -1;
    }
    return 0;
}

/* The members of an object or the elements of an array, after the opening bracket. */
static inline int json_members(json_cursor *c, char close, int keyed)
{
    json_space(c);
    if (c->p < c->end && *c->p == close) {
        ++c->p;
        return 0;
    }
    for (;;) {
        json_space(c);
        if (keyed) {
            if (json_string_token(c) != 0) return -1;
            json_space(c);
            if (c->p >= c->end || *c->p != ':') return -1;
            ++c->p;
        }
        if (json_value(c) != 0) return -1;
        json_space(c);
        if (c->p >= c->end) return -1;
        if (*c->p == close) {
            ++c->p;
            return 0;
        }
        if (*c->p != ',') return -1;
        ++c->p;
    }
}

static inline int json_value(json_cursor *c)
{
    json_space(c);
    if (c->p >= c->end || ++c->depth > 64) return -1;
    int rc;
    switch (*c->p) {
    case '{': ++c->p; rc = json_members(c, '}', 1); break;
    case '[': ++c->p; rc = json_members(c, ']', 0); break;
    case '"': rc = json_string_token(c); break;
    case 't': rc = json_literal(c, "true"); break;
    case 'f': rc = json_literal(c, "false"); break;
    case 'n': rc = json_literal(c, "null"); break;
    default: rc = json_number_token(c); break;
    }
    --c->depth;
    return rc;
}

/* 0 when text[0..size) is one JSON value and nothing else but white space; else -1 and *where the
 * offset of the first byte that does not fit. */
static inline int json_check(const char *text, size_t size, size_t *where)
{
    json_cursor c = {text, text + size, 0};
    int rc = json_value(&c);
    json_space(&c);
    if (rc == 0 && c.p != c.end) rc = -1;
    if (where) *where = (size_t)(c.p - text);
    return rc;
}

/* ---- CSV --------------------------------------------------------------------------------------- */

typedef struct csv_table {
    char ***records;             /* records[r][f]: NUL-terminated fields */
    size_t *field_counts;
    size_t count;
} csv_table;

static inline void csv_table_free(csv_table *t)
{
    for (size_t r = 0; r < t->count; ++r) {
        for (size_t f = 0; f < t->field_counts[r]; ++f) free(t->records[r][f]);
        free(t->records[r]);
    }
    free(t->records);
    free(t->field_counts);
    memset(t, 0, sizeof *t);
}

/* Appends one field (len bytes) to the last record; 0 or -1 out of memory. */
static inline int csv_push_field(csv_table *t, const char *s, size_t len)
{
    size_t r = t->count - 1, n = t->field_counts[r];
    char **grown = realloc(t->records[r], (n + 1) * sizeof *grown);
    if (!grown) return -1;
    t->records[r] = grown;
    grown[n] = malloc(len + 1);
    if (!grown[n]) return -1;
    memcpy(grown[n], s, len);
    grown[n][len] = '\0';
    t->field_counts[r] = n + 1;
    return 0;
}

static inline int csv_push_record(csv_table *t)
{
    char ***records = realloc(t->records, (t->count + 1) * sizeof *records);
    if (!records) return -1;
    t->records = records;
    size_t *counts = realloc(t->field_counts, (t->count + 1) * sizeof *counts);
    if (!counts) return -1;
    t->field_counts = counts;
    t->records[t->count] = NULL;
    t->field_counts[t->count] = 0;
    ++t->count;
    return 0;
}

/* One field at *p (quoted or not) into buf (size bytes at least the field's); returns its length,
 * or (size_t)-1 on a malformed quoted field. Leaves *p at the separator or line end. */
static inline size_t csv_field(const char **p, const char *end, char *buf)
{
    const char *s = *p;
    size_t n = 0;
    if (s < end && *s == '"') {
        for (++s;; ++s) {
            if (s >= end) return (size_t)-1;
            if (*s == '"') {
                if (s + 1 < end && s[1] == '"') {
                    buf[n++] = '"';
                    ++s;
                    continue;
                }
                ++s;
                break;
            }
            buf[n++] = *s;
        }
        if (s < end && *s != ',' && *s != '\r') return (size_t)-1; /* text after the closing quote */
    } else {
        while (s < end && *s != ',' && *s != '\r' && *s != '\n') {
            if (*s == '"') return (size_t)-1; /* a quote inside an unquoted field */
            buf[n++] = *s++;
        }
    }
    *p = s;
    return n;
}

/* Reads text[0..size) as RFC 4180 CSV: every record must end in CRLF. 0, or -1 when malformed. */
static inline int csv_read(const char *text, size_t size, csv_table *t)
{
    memset(t, 0, sizeof *t);
    char *buf = malloc(size + 1);
    if (!buf) return -1;
    const char *p = text, *end = text + size;
    int rc = 0;
    while (rc == 0 && p < end) {
        rc = csv_push_record(t);
        for (;;) {
            if (rc != 0) break;
            size_t n = csv_field(&p, end, buf);
            if (n == (size_t)-1 || csv_push_field(t, buf, n) != 0) {
                rc = -1;
                break;
            }
            if (p < end && *p == ',') {
                ++p;
                continue;
            }
            if (end - p >= 2 && p[0] == '\r' && p[1] == '\n') p += 2;
            else rc = -1;
            break;
        }
    }
    free(buf);
    return rc;
}

/* The column of a header name, or -1. */
static inline long csv_column(const csv_table *t, const char *name)
{
    if (t->count == 0) return -1;
    for (size_t f = 0; f < t->field_counts[0]; ++f)
        if (strcmp(t->records[0][f], name) == 0) return (long)f;
    return -1;
}

#endif
