/* renderer_testing.c - the test-only views of sc_render_testing.h. */
#include <string.h>

#include "backend_registry.h"
#include "renderer_internal.h"
#include "sc_report.h"
#include "sc_status.h"
#include "testing/sc_render_testing.h"

int sc_renderer_testing_backend_available(sc_backend backend)
{
    const sc_backend_ops *ops = sc_backend_find(backend);
    return ops && ops->available();
}

void sc_renderer_testing_frame_params(const sc_renderer *r, sc_frame_params *out)
{
    *out = r->params;
    sc_frame_stats st;
    memset(&st, 0, sizeof st);
    if (r->last.frames && r->ops->finish(r->state, &st) == SC_OK) {
        out->depth_min = st.depth_min;
        out->depth_max = st.depth_max;
    }
}

void sc_renderer_testing_mesh_bounds(const sc_renderer *r, float center[3], float *radius)
{
    memcpy(center, r->mesh_center, sizeof r->mesh_center);
    *radius = r->mesh_radius;
}

void sc_renderer_testing_shading(const sc_renderer *r, sc_shading_desc *out) { *out = r->shading; }

sc_status sc_renderer_testing_buffers(const sc_renderer *r, sc_backend_buffers *out)
{
    memset(out, 0, sizeof *out);
    return r->ops->buffers(r->state, out);
}

sc_status sc_renderer_testing_read_normals(const sc_renderer *r, float *out)
{
    if (!r || !out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_testing_read_normals: NULL argument");
    if (!r->has_mesh) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_renderer_testing_read_normals: no mesh set");
    return r->ops->read_normals(r->state, out);
}
