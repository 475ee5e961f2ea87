/* mesh_internal.h - the mesh builder used by the loaders (internal): growable vertex and triangle
 * arrays, and the per-format parsers behind sc_mesh_parse. */
#ifndef SC_MESH_INTERNAL_H
#define SC_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"

typedef struct sc_mesh_builder {
    float *positions;
    size_t num_vertices, vertex_cap;
    int64_t *faces;              /* 3 indices per triangle, 0-based, not yet range-checked */
    size_t num_triangles, triangle_cap;
} sc_mesh_builder;

/* Return 0 when out of memory. */
int sc_mb_vertex(sc_mesh_builder *b, float x, float y, float z);
int sc_mb_triangle(sc_mesh_builder *b, int64_t i0, int64_t i1, int64_t i2);
void sc_mb_free(sc_mesh_builder *b);
/* Moves the builder into *out: drops faces with out-of-range indices, non-finite or zero-area
 * faces (counted in report, one warning per kind naming the file). Frees the builder. */
sc_status sc_mb_finish(sc_mesh_builder *b, const char *name, sc_mesh *out, sc_mesh_report *report);

/* data is NUL-terminated (data[size] == 0). */
sc_status sc_mesh_parse_obj(const char *data, size_t size, const char *name, sc_mesh_builder *b);
sc_status sc_mesh_parse_ply(const char *data, size_t size, const char *name, sc_mesh_builder *b);
sc_status sc_mesh_parse_stl(const char *data, size_t size, const char *name, sc_mesh_builder *b);

#endif /* SC_MESH_INTERNAL_H */
