/* cuda_stub.c - the CUDA backend of the fuzz build, which compiles no CUDA: every entry point of
 * backend_cuda.h answers as a build without the CUDA backend would (no device; create reports
 * UNSUPPORTED), so the renderer front end runs unchanged on the CPU backend. */
#include "backend_cuda.h"
#include "sc_report.h"

int sc_backend_cuda_available(void) { return 0; }

sc_status sc_backend_cuda_create(struct sc_renderer *r)
{
    (void)r;
    return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_create: the CUDA backend is not built (fuzz build)");
}

void sc_backend_cuda_destroy(struct sc_renderer *r) { (void)r; }

/* Unreachable: no renderer ever has the CUDA backend here. */
static sc_status not_built(const char *call)
{
    return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: the CUDA backend is not built (fuzz build)", call);
}

sc_status sc_backend_cuda_set_mesh(struct sc_renderer *r, const sc_mesh_data *mesh)
{
    (void)r;
    (void)mesh;
    return not_built("sc_renderer_set_mesh");
}

sc_status sc_backend_cuda_resize(struct sc_renderer *r)
{
    (void)r;
    return not_built("sc_renderer_resize");
}

sc_status sc_backend_cuda_render(struct sc_renderer *r, const sc_frame_desc *frame)
{
    (void)r;
    (void)frame;
    return not_built("sc_renderer_render");
}

sc_status sc_backend_cuda_finish(struct sc_renderer *r)
{
    (void)r;
    return not_built("sc_renderer_stats");
}

sc_status sc_backend_cuda_reserve(struct sc_renderer *r, size_t ref_capacity)
{
    (void)r;
    (void)ref_capacity;
    return not_built("sc_renderer_set_mesh");
}

sc_status sc_backend_cuda_read_hits(const struct sc_renderer *r, sc_hit *out)
{
    (void)r;
    (void)out;
    return not_built("sc_renderer_read_hits");
}

sc_status sc_backend_cuda_read_positions(const struct sc_renderer *r, float *out)
{
    (void)r;
    (void)out;
    return not_built("sc_renderer_read_positions");
}
