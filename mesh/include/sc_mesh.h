/* sc_mesh.h - host triangle meshes for the slabcast renderer: OBJ, PLY (ASCII and binary
 * little-endian) and STL (ASCII and binary) loaders, and the built-in procedural mesh.
 *
 * Loaders keep only what the renderer needs (positions, triangles; polygons are fanned into
 * triangles). Malformed files give SC_ERROR_PARSE with a message naming the file and line (or
 * byte offset for binary data). Degenerate input is dropped with one warning per kind through the
 * log callback (naming the file and the line or byte of the first such face) and counted in
 * sc_mesh_report: faces with out-of-range indices, faces touching a non-finite vertex (NaN, or a
 * number too large for a float), zero-area faces. Vertices that no kept face uses are removed
 * (faces renumbered), so a loaded mesh has only used, finite vertices. A file that yields no
 * triangle is SC_ERROR_PARSE ("no triangles in ..."). Text formats may start with a UTF-8 byte
 * order mark.
 *
 * Input is read and decompressed in a stream: memory grows with the vertices and triangles read,
 * not with the file. A name ending in ".xz" is decompressed in-process (liblzma), for files,
 * streams and memory alike; its format comes from the name before ".xz" ("dragon.obj.xz" is OBJ)
 * and messages name the .xz file.
 *
 * OBJ: "v" and "f" are read; the other statements of the format (vt, vn, vp, g, o, s, usemtl,
 * mtllib, l, p, curves and surfaces, ...) are ignored; an unknown statement that reads as a word is
 * ignored and counted in one warning; a line with binary data (a NUL or other control byte) is
 * SC_ERROR_PARSE naming the line. ASCII STL is recognised case-insensitively ("solid", "SOLID") by
 * its content, binary STL by its size (84 + 50 * facets). Plain C. */
#ifndef SC_MESH_H
#define SC_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An indexed triangle mesh in the caller's HOST memory (what sc_renderer_set_mesh takes; it copies the arrays). Positions are
 * vertex_count x 3 floats (x, y, z), indices triangle_count x 3 (counter-clockwise = front). */
typedef struct sc_mesh_data {
    const float *positions;
    uint32_t vertex_count;
    const uint32_t *indices;
    uint32_t triangle_count;
} sc_mesh_data;

/* A mesh owning its arrays (malloc'ed; free with sc_mesh_free). */
typedef struct sc_mesh {
    float *positions;            /* vertex_count x 3 */
    uint32_t *indices;           /* triangle_count x 3 */
    uint32_t vertex_count;
    uint32_t triangle_count;
} sc_mesh;

typedef struct sc_mesh_report {
    uint64_t faces_read;         /* triangles after fanning, before dropping */
    uint64_t dropped_bad_index;
    uint64_t dropped_non_finite;
    uint64_t dropped_zero_area;
    uint64_t removed_unused_vertices;  /* vertices read that no kept face uses (not in the mesh) */
} sc_mesh_report;

/* Loading limits (sc_mesh_load_file, sc_mesh_load_limited, sc_mesh_parse_limited). A field 0 means its default.
 * Exceeding one fails with SC_ERROR_OUT_OF_MEMORY and a message naming the file, the limit and its
 * value, and how to raise it (sc_mesh_limits.<field>, or the slabcast program's --max-mesh-bytes,
 * --max-vertices, --max-triangles, --max-xz-ratio). The defaults fit a 16 GB machine: a vertex costs 12 bytes
 * (three floats) and a triangle 12 bytes (three 32-bit indices), plus up to half again while the
 * arrays grow and 4 bytes per vertex to renumber them, so 2^28 of each take about 8 GiB at the
 * peak; file bytes are streamed (a small window, not the whole file, is held), so max_bytes bounds
 * the time spent reading: 4 GiB is about 2^28 vertices of binary PLY or 2^27 of text. */
#define SC_MESH_DEFAULT_MAX_BYTES (UINT64_C(1) << 32)
#define SC_MESH_DEFAULT_MAX_VERTICES (UINT64_C(1) << 28)
#define SC_MESH_DEFAULT_MAX_TRIANGLES (UINT64_C(1) << 28)
/* Compressed (.xz) files: once SC_MESH_XZ_RATIO_GRACE bytes have been decompressed, the data may be at
 * most max_xz_ratio times the compressed bytes consumed. Real meshes compress 3-10 to 1 (the Stanford
 * dragon's OBJ 6 to 1); a decompression bomb (megabytes of repeated lines from kilobytes) is stopped
 * after a fraction of a second instead of after max_bytes. */
#define SC_MESH_DEFAULT_MAX_XZ_RATIO UINT64_C(256)
#define SC_MESH_XZ_RATIO_GRACE (UINT64_C(16) << 20)

typedef struct sc_mesh_limits {
    uint64_t max_bytes;      /* bytes of file data read (after decompression); default SC_MESH_DEFAULT_MAX_BYTES */
    uint64_t max_vertices;   /* vertices read (before unused ones are removed); default SC_MESH_DEFAULT_MAX_VERTICES;
                                at most 2^32 - 2 take effect (32-bit indices) */
    uint64_t max_triangles;  /* triangles after fanning, before dropping; default SC_MESH_DEFAULT_MAX_TRIANGLES;
                                at most 2^32 - 1 take effect */
    uint64_t max_xz_ratio;   /* .xz data: decompressed bytes per compressed byte past SC_MESH_XZ_RATIO_GRACE;
                                default SC_MESH_DEFAULT_MAX_XZ_RATIO */
} sc_mesh_limits;

typedef enum sc_mesh_format {
    SC_MESH_FORMAT_AUTO = 0,     /* from the file name's extension (sc_mesh_format_extension) */
    SC_MESH_FORMAT_OBJ,
    SC_MESH_FORMAT_PLY,
    SC_MESH_FORMAT_STL,
    SC_MESH_FORMAT_COUNT         /* the number of sc_mesh_format values (not a format) */
} sc_mesh_format;

/* The file-name extension SC_MESH_FORMAT_AUTO knows a format by, case-insensitively (".obj", ".ply",
 * ".stl"); the format's name is the extension without its dot, upper-cased ("OBJ"). NULL for
 * SC_MESH_FORMAT_AUTO and for a value that is not a format. The formats are the values from
 * SC_MESH_FORMAT_AUTO + 1 to SC_MESH_FORMAT_COUNT - 1, so a program lists them by counting. */
const char *sc_mesh_format_extension(sc_mesh_format format);

/* Progress of a load (sc_mesh_load_file): bytes_done of the file read so far (compressed bytes for
 * .xz) out of bytes_total, the file's size (0 when unknown: a pipe, a device). Called after about
 * every MiB of input and once more when all of it is read, before the mesh is assembled (then
 * bytes_done == bytes_total for a regular file); bytes_done never decreases and never exceeds a
 * nonzero bytes_total. It runs on the loading thread and costs nothing per byte. Return nonzero to
 * cancel: the load then fails with SC_ERROR_CANCELLED ("<file>: loading cancelled"), *out empty and
 * everything it took freed. */
typedef int (*sc_mesh_progress_fn)(void *user, uint64_t bytes_done, uint64_t bytes_total);

/* How to load a file. Zero-initialise it ({0}) and set what differs: every field's zero is the default. */
typedef struct sc_mesh_load_desc {
    sc_mesh_format format;          /* SC_MESH_FORMAT_AUTO (0): from the file name */
    const sc_mesh_limits *limits;   /* NULL: the default limits */
    sc_mesh_progress_fn progress;   /* NULL: none */
    void *progress_user;            /* passed to progress */
} sc_mesh_load_desc;

/* Loads a file as desc says (NULL: every default). report may be NULL. On failure *out is left
 * empty. SC_ERROR_IO when the file cannot be opened (the reason given), is a directory, cannot be
 * read, or is not valid .xz data (xz's own reason given); SC_ERROR_CANCELLED when desc->progress
 * asked to stop. Opening never blocks on a FIFO without a writer (it reads as empty). */
sc_status sc_mesh_load_file(const char *path, const sc_mesh_load_desc *desc, sc_mesh *out, sc_mesh_report *report);
/* sc_mesh_load_file with a format and the default limits. */
sc_status sc_mesh_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report);
/* sc_mesh_load_file with a format and limits (NULL: the defaults). */
sc_status sc_mesh_load_limited(const char *path, sc_mesh_format format, const sc_mesh_limits *limits,
                               sc_mesh *out, sc_mesh_report *report);
/* Loads from an open stream with the default limits (a pipe works: it is read to its end). name is
 * used in messages (and ".xz" in it means compressed data); format must not be AUTO unless name
 * has a known extension. */
sc_status sc_mesh_load_stream(FILE *stream, const char *name, sc_mesh_format format, sc_mesh *out,
                              sc_mesh_report *report);
/* Parses a file already in memory (size bytes; no terminating NUL needed), default limits. */
sc_status sc_mesh_parse(const void *data, size_t size, const char *name, sc_mesh_format format,
                        sc_mesh *out, sc_mesh_report *report);
/* sc_mesh_parse with limits (NULL: the defaults); size > max_bytes fails before data is read. */
sc_status sc_mesh_parse_limited(const void *data, size_t size, const char *name, sc_mesh_format format,
                                const sc_mesh_limits *limits, sc_mesh *out, sc_mesh_report *report);

/* The built-in mesh: a closed (2,3) torus-knot tube of 4 * resolution^2 triangles and
 * 2 * resolution^2 vertices, about unit radius, centred at the origin. resolution 0: 512 (1M
 * triangles); otherwise 3 .. 16384. */
sc_status sc_mesh_default(uint32_t resolution, sc_mesh *out);

/* Drops degenerate triangles in place (counts added to report) and removes nothing else (no
 * vertex, no warning). A NULL mesh, or one whose positions or indices are NULL, is left as it is. */
void sc_mesh_clean(sc_mesh *mesh, sc_mesh_report *report);

/* Midpoint subdivision, `levels` times: each triangle becomes four with the same winding; the
 * midpoint of an edge is one vertex shared by both sides, so closed meshes stay closed. *out is a new
 * mesh (levels 0: a copy). INVALID_ARGUMENT on bad indices or when 32-bit indices would overflow. */
sc_status sc_mesh_subdivide_midpoint(const sc_mesh *in, uint32_t levels, sc_mesh *out);

/* A view of the mesh for sc_renderer_set_mesh. */
sc_mesh_data sc_mesh_view(const sc_mesh *mesh);

void sc_mesh_free(sc_mesh *mesh); /* frees the arrays and zeroes the struct; NULL is ignored */

#ifdef __cplusplus
}
#endif
#endif /* SC_MESH_H */
