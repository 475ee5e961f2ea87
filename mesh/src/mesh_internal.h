/* mesh_internal.h - the loaders' internals: byte sources (memory, stream, xz), a buffered reader
 * over them with the byte limit, number parsing, the mesh builder with the vertex and triangle
 * limits, and the per-format parsers. */
#ifndef SC_MESH_INTERNAL_H
#define SC_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mesh_tuning.h"
#include "sc_mesh.h"

/* Limits with every default resolved and the 32-bit index caps applied. */
sc_mesh_limits sc_mesh_limits_resolve(const sc_mesh_limits *limits);

/* ---- byte sources (mesh_source.c, mesh_xz.c) ---- */

typedef struct sc_mesh_xz sc_mesh_xz;

/* Raw bytes from memory or a stream, decompressed when xz is set. */
typedef struct sc_mesh_source {
    const char *name;               /* for messages */
    const unsigned char *data;      /* memory: data[0, size) */
    size_t size, pos;
    FILE *file;                     /* stream (when data is NULL) */
    uint64_t raw_read;              /* bytes taken from memory or the stream */
    sc_mesh_xz *xz;                 /* non-NULL: the raw bytes are .xz data */
    uint64_t max_xz_ratio;          /* decompressed per compressed byte (sc_mesh_limits.max_xz_ratio) */
    sc_mesh_progress_fn progress;   /* NULL: no progress calls (sc_mesh_source_watch) */
    void *progress_user;
    uint64_t progress_total;        /* the raw size, 0 when unknown */
    uint64_t progress_next;         /* raw_read at which progress is called next */
} sc_mesh_source;

void sc_mesh_source_memory(sc_mesh_source *s, const char *name, const void *data, size_t size);
void sc_mesh_source_stream(sc_mesh_source *s, const char *name, FILE *file);
/* Calls fn with the raw bytes read (clamped to total; total 0: unknown) each time about
 * SC_MESH_PROGRESS_STEP more are read; fn returning nonzero makes the read fail with
 * SC_ERROR_CANCELLED. The raw count is what every format and the xz decoder read through. */
void sc_mesh_source_watch(sc_mesh_source *s, sc_mesh_progress_fn fn, void *user, uint64_t total);
/* The progress call at the end of the input (done = total when total is known); SC_OK without one. */
sc_status sc_mesh_source_progress_end(sc_mesh_source *s);
/* Reads up to cap (> 0) bytes of raw data; *got == 0 only at its end. */
sc_status sc_mesh_source_read_raw(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got);
/* Reads up to cap (> 0) bytes of (decompressed) data; *got == 0 only at its end. */
sc_status sc_mesh_source_read(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got);
/* From now on the raw bytes are decompressed as .xz (mesh_xz.c), at most max_ratio decompressed
 * bytes per compressed byte once past SC_MESH_XZ_RATIO_GRACE (SC_ERROR_OUT_OF_MEMORY naming the limit). */
sc_status sc_mesh_source_begin_xz(sc_mesh_source *s, uint64_t max_ratio);
void sc_mesh_source_end(sc_mesh_source *s);   /* frees the decompressor; closes nothing */
/* Decompressed bytes from the xz decoder (mesh_xz.c). */
sc_status sc_mesh_xz_read(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got);
void sc_mesh_xz_free(sc_mesh_xz *xz);

/* ---- the reader (mesh_reader.c) ---- */

/* A window over the source's data. buf[pos, len) are read but not consumed; buf[len] == 0. The
 * total data taken from the source never exceeds max_bytes (SC_ERROR_OUT_OF_MEMORY naming the
 * limit). Pointers returned into buf stay valid until the next call that may read. */
typedef struct sc_mesh_reader {
    sc_mesh_source *src;
    const char *name;
    char *buf;
    size_t pos, len, cap;
    uint64_t base;                  /* offset in the data of buf[0] */
    uint64_t max_bytes;
    uint64_t size_hint;             /* the data's total size when known up front, else UINT64_MAX */
    int eof;
    uint64_t line;                  /* text: line of the last line or token returned (1-based) */
    uint64_t next_line;             /* text: line at buf[pos] */
} sc_mesh_reader;

sc_status sc_rd_init(sc_mesh_reader *r, sc_mesh_source *src, uint64_t max_bytes, uint64_t size_hint);
void sc_rd_free(sc_mesh_reader *r);
/* Makes at least want unconsumed bytes available unless the data ends first. */
sc_status sc_rd_fill(sc_mesh_reader *r, size_t want);
static inline size_t sc_rd_avail(const sc_mesh_reader *r) { return r->len - r->pos; }
static inline const char *sc_rd_peek(const sc_mesh_reader *r) { return r->buf + r->pos; }
static inline void sc_rd_consume(sc_mesh_reader *r, size_t n) { r->pos += n; }
static inline uint64_t sc_rd_offset(const sc_mesh_reader *r) { return r->base + r->pos; }
/* At the start of the data: skips a UTF-8 byte order mark. */
sc_status sc_rd_skip_bom(sc_mesh_reader *r);
/* The next line, without its '\n': it ends at '\n', after a NUL byte (kept in the line, so the
 * parser can report binary data at this line) or at the end of the data. *got = 0 at the end.
 * SC_ERROR_PARSE when longer than max_len. */
sc_status sc_rd_line(sc_mesh_reader *r, size_t max_len, const char **line, size_t *len, int *got);
/* The next token separated by white space (' ', '\t', '\r', '\n', '\f', '\v'), counting lines.
 * *got = 0 at the end. SC_ERROR_PARSE when longer than max_len. */
sc_status sc_rd_token(sc_mesh_reader *r, size_t max_len, const char **tok, size_t *len, int *got);

/* ---- numbers (mesh_number.c): the whole of s[0, n) must be the number; time linear in n ---- */

/* strtod's syntax (decimal, hexadecimal, inf, nan); values beyond the type's range become
 * infinities, as strtod does. 1 on success, 0 when not a number. */
int sc_mesh_parse_double(const char *s, size_t n, double *out);
int sc_mesh_parse_float(const char *s, size_t n, float *out);
/* An optional sign and decimal digits: 1 on success, 0 when not an integer, -1 when out of range. */
int sc_mesh_parse_i64(const char *s, size_t n, int64_t *out);
/* A double as a float without undefined behaviour: beyond the float range gives an infinity. */
float sc_mesh_float_of(double v);

/* ---- the builder (mesh.c) ---- */

/* Where a statement is: a line of a text file or a byte offset of a binary one. */
typedef struct sc_mesh_loc {
    uint64_t at;
    int is_byte;
} sc_mesh_loc;

enum { SC_MB_BAD_INDEX, SC_MB_NON_FINITE, SC_MB_ZERO_AREA, SC_MB_DROP_KINDS };

/* A face stored before all its vertices were read: checked when the file is complete. */
typedef struct sc_mb_deferred {
    uint64_t triangle;
    sc_mesh_loc loc;
} sc_mb_deferred;

typedef struct sc_mesh_builder {
    const char *name;
    sc_mesh_limits limits;          /* resolved */
    float *positions;
    size_t num_vertices, vertex_cap;
    uint32_t *faces;                /* 3 indices per triangle */
    size_t num_triangles, triangle_cap;
    uint64_t faces_read;            /* triangles after fanning, before dropping */
    sc_mesh_loc loc;                /* of the statement being parsed: set by the parser */
    sc_mb_deferred *deferred;
    size_t num_deferred, deferred_cap;
    uint64_t dropped[SC_MB_DROP_KINDS];
    sc_mesh_loc first_dropped[SC_MB_DROP_KINDS];
    uint64_t ignored_statements;    /* OBJ: unknown statements skipped */
    sc_mesh_loc first_ignored;
    char first_ignored_word[33];
} sc_mesh_builder;

/* Face checks shared with sc_mesh_clean. */
int sc_mesh_finite_vertex(const float *v);
int sc_mesh_zero_area(const float *a, const float *b, const float *c);   /* cross product in double is 0 */

void sc_mb_init(sc_mesh_builder *b, const char *name, const sc_mesh_limits *resolved);
/* Adds a vertex; fails at the vertex limit or out of memory (message recorded). */
sc_status sc_mb_vertex(sc_mesh_builder *b, float x, float y, float z);
/* Adds a triangle (0-based indices, any value): one with an index out of range, a non-finite
 * vertex or zero area is dropped and counted with b->loc (checked when the file is complete if
 * its vertices are not all read yet). Fails at the triangle limit or out of memory. */
sc_status sc_mb_triangle(sc_mesh_builder *b, int64_t i0, int64_t i1, int64_t i2);
/* "name:line" or "name: byte N" of loc, for messages. */
const char *sc_mb_where(const sc_mesh_builder *b, sc_mesh_loc loc, char *buf, size_t cap);
/* The vertex limit (or triangle limit) message at b->loc; returns SC_ERROR_OUT_OF_MEMORY. */
sc_status sc_mb_fail_vertex_limit(const sc_mesh_builder *b);
sc_status sc_mb_fail_triangle_limit(const sc_mesh_builder *b);
void sc_mb_free(sc_mesh_builder *b);
/* Moves the builder into *out: drops the deferred faces that are bad, removes unused vertices,
 * logs one warning per kind of dropped face, fails when no triangle is left. Frees the builder. */
sc_status sc_mb_finish(sc_mesh_builder *b, sc_mesh *out, sc_mesh_report *report);

/* The reader's limit message for max_bytes; returns SC_ERROR_OUT_OF_MEMORY. */
sc_status sc_mesh_fail_byte_limit(const char *name, uint64_t max_bytes);

/* ---- vertex welding for STL (mesh_weld.c) ---- */

/* A hash table from exact coordinates to the builder's vertex index, with a per-table random key
 * so no file can make its probes long: welding stays linear on any input. */
typedef struct sc_weld_table {
    uint32_t *slots;                /* vertex index + 1; 0 = empty */
    size_t mask;
    uint64_t key[2];
    sc_mesh_builder *b;
} sc_weld_table;

void sc_weld_init(sc_weld_table *t, sc_mesh_builder *b);
/* The index of vertex v (-0 welds with +0), adding it to the builder when new. */
sc_status sc_weld(sc_weld_table *t, const float v[3], uint32_t *index);
void sc_weld_free(sc_weld_table *t);

/* ---- the formats and their parsers ---- */

/* Every format, once: X(ENUMERATOR, name) for SC_MESH_FORMAT_<ENUMERATOR> (sc_mesh.h), known by the
 * extension ".<name>" and read by sc_mesh_parse_<name> (mesh_<name>.c), declared below. mesh.c's
 * switches over sc_mesh_format are made from this list and have no default: a format added to the
 * enum and not here fails the build (-Wswitch, an error with SLABCAST_WERROR), and one here without
 * its enumerator or its parser fails it too. */
#define SC_MESH_FORMATS(X) \
    X(OBJ, obj)            \
    X(PLY, ply)            \
    X(STL, stl)

/* Reads r's whole input into b; SC_ERROR_PARSE naming the line or byte of what is malformed. */
#define SC_MESH_DECLARE_PARSER(ENUMERATOR, name) sc_status sc_mesh_parse_##name(sc_mesh_reader *r, sc_mesh_builder *b);
SC_MESH_FORMATS(SC_MESH_DECLARE_PARSER)
#undef SC_MESH_DECLARE_PARSER

#endif /* SC_MESH_INTERNAL_H */
