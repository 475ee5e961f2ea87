/* sc_mesh.h - host triangle meshes for the slabcast renderer: OBJ, PLY (ASCII and binary
 * little-endian) and STL (ASCII and binary) loaders, and the built-in procedural mesh.
 *
 * Loaders keep only what the renderer needs (positions, triangles; polygons are fanned into
 * triangles). Malformed files give SC_ERROR_PARSE with a message naming the file and line (or
 * byte offset for binary data). Degenerate input is dropped with a warning through the log
 * callback and counted in sc_mesh_report: faces with out-of-range indices, faces touching a
 * non-finite vertex, zero-area faces. Plain C. */
#ifndef SC_MESH_H
#define SC_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sc_status.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

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
} sc_mesh_report;

typedef enum sc_mesh_format {
    SC_MESH_FORMAT_AUTO = 0,     /* from the file name's extension (.obj, .ply, .stl) */
    SC_MESH_FORMAT_OBJ,
    SC_MESH_FORMAT_PLY,
    SC_MESH_FORMAT_STL
} sc_mesh_format;

/* Loads a file. report may be NULL. On failure *out is left empty. A name ending in ".xz" is
 * decompressed through `xz -dc` (xz-utils) and its format taken from the name before ".xz"
 * ("dragon.obj.xz" is OBJ); messages still name the .xz file. */
sc_status sc_mesh_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report);
/* Loads from an open stream (a pipe works: it is read to its end). name is used in messages;
 * format must not be AUTO unless name has a known extension. */
sc_status sc_mesh_load_stream(FILE *stream, const char *name, sc_mesh_format format, sc_mesh *out,
                              sc_mesh_report *report);
/* Parses a file already in memory. */
sc_status sc_mesh_parse(const void *data, size_t size, const char *name, sc_mesh_format format,
                        sc_mesh *out, sc_mesh_report *report);

/* The built-in mesh: a closed (2,3) torus-knot tube of 4 * resolution^2 triangles and
 * 2 * resolution^2 vertices, about unit radius, centred at the origin. resolution 0: 512 (1M
 * triangles); otherwise 3 .. 16384. */
sc_status sc_mesh_default(uint32_t resolution, sc_mesh *out);

/* Drops degenerate triangles in place (counts added to report) and removes nothing else. */
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
