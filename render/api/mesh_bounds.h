/* mesh_bounds.h - the centre and radius of a mesh's kept triangles (internal to api/): the default
 * view frames them and the deformation is measured in them; and the checks of a mesh's arrays. */
#ifndef SC_MESH_BOUNDS_H
#define SC_MESH_BOUNDS_H

#include <stdint.h>

#include "slabcast.h"

/* Centre (of the bounding box) and radius (largest distance from it) of the vertices of the
 * triangles with three finite vertices (without such a triangle, of every finite vertex); the unit
 * sphere at the origin when there is none. The radius is clamped to the float range. Returns the
 * number of triangles dropped (a non-finite vertex). */
uint64_t sc_mesh_bounds(const sc_mesh_data *m, float center[3], float *radius);

/* The checks sc_renderer_set_mesh makes of a mesh (m not NULL): arrays present for nonzero counts,
 * every index below the vertex count (naming the first bad triangle); errors start with `call`. */
sc_status sc_mesh_check(const sc_mesh_data *m, const char *call);

#endif /* SC_MESH_BOUNDS_H */
