/* cloth_field.h - the collision field of a static model: a signed distance field on a regular grid, built
 * once on the host. */
#ifndef CLOTH_FIELD_H
#define CLOTH_FIELD_H

#include <sc_mesh.h>

#include "cloth.h"

/* Builds the signed distance field of mesh's surface on a grid of `resolution` cells across the
 * mesh's longest side, `pad` cells more on every side. Exact distances to the triangles within 1.5
 * cells of them; farther out the distance to that band (a Euclidean distance transform); the sign from
 * a flood fill of the outside from the grid's border (a mesh with holes wider than a cell reads as
 * hollow: its inside is then positive, deep penetration is not undone but nothing fails). Deterministic.
 * On success *field views *values (malloc'ed; the caller frees it); on failure returns 0 with a
 * message in err. */
int cloth_field_build(const sc_mesh_data *mesh, uint32_t resolution, uint32_t pad, cloth_field *field,
                      float **values, char *err, size_t err_size);

#endif /* CLOTH_FIELD_H */
