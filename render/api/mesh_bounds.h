/* mesh_bounds.h - the centre and radius of a mesh's kept triangles (internal to api/): the default
 * view frames them and the deformation is measured in them. */
#ifndef SC_MESH_BOUNDS_H
#define SC_MESH_BOUNDS_H

#include <stdint.h>

#include "slabcast.h"

/* Centre (of the bounding box) and radius (largest distance from it) of the vertices of the
 * triangles with three finite vertices (without such a triangle, of every finite vertex); the unit
 * sphere at the origin when there is none. The radius is clamped to the float range. Returns the
 * number of triangles dropped (a non-finite vertex). */
uint64_t sc_mesh_bounds(const sc_mesh_data *m, float center[3], float *radius);

#endif /* SC_MESH_BOUNDS_H */
