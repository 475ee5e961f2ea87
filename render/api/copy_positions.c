/* copy_positions.c - sc_renderer_copy_positions: this frame's deformed positions into memory of the
 * caller's on the backend's side (host for CPU, device for CUDA), so a consumer on the same device
 * (the bench's gl-raster peer draws them from a GL buffer mapped into CUDA) takes them without a trip
 * through the host. The copy itself is the backend's (sc_backend_ops.copy_positions). */
#include "renderer_internal.h"
#include "sc_report.h"

sc_status sc_renderer_copy_positions(const sc_renderer *r, float *dst)
{
    static const char *const call = "sc_renderer_copy_positions";
    if (!r || (!dst && r->params.num_vertices)) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: NULL argument", call);
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: no mesh set", call);
    /* first_reported: the first frame of the mesh, size and grid in force (as for poll_stats). Before
     * it the backend's positions are the rest pose, not a frame's. */
    if (r->last.frames == 0 || r->last.frames < r->first_reported)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                       "%s: no frame rendered since the mesh, size or grid was set; call sc_renderer_render first",
                       call);
    return r->ops->copy_positions(r->state, dst);
}
