/* group_nocuda.c - the renderer group of a build without CUDA (slabcast.h "Renderer groups"): every
 * call answers UNSUPPORTED, so programs link and say why. */
#include "sc_report.h"
#include "slabcast.h"

static sc_status no_cuda(const char *call)
{
    return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: built without CUDA (a renderer group runs on CUDA devices)", call);
}

sc_status sc_renderer_group_create(const sc_group_desc *desc, sc_renderer_group **out)
{
    if (out) *out = NULL;
    return no_cuda("sc_renderer_group_create");
}
void sc_renderer_group_destroy(sc_renderer_group *g) { (void)g; }
sc_status sc_renderer_group_set_mesh(sc_renderer_group *g, const sc_mesh_data *mesh)
{
    return no_cuda("sc_renderer_group_set_mesh");
}
sc_status sc_renderer_group_set_camera(sc_renderer_group *g, const sc_camera_desc *camera)
{
    return no_cuda("sc_renderer_group_set_camera");
}
sc_status sc_renderer_group_set_deform(sc_renderer_group *g, const sc_deform_desc *deform)
{
    return no_cuda("sc_renderer_group_set_deform");
}
sc_status sc_renderer_group_set_shading(sc_renderer_group *g, const sc_shading_desc *shading)
{
    return no_cuda("sc_renderer_group_set_shading");
}
sc_status sc_renderer_group_set_options(sc_renderer_group *g, const sc_render_options *options)
{
    return no_cuda("sc_renderer_group_set_options");
}
sc_status sc_renderer_group_render(sc_renderer_group *g, const sc_frame_desc *frame)
{
    return no_cuda("sc_renderer_group_render");
}
sc_status sc_renderer_group_read_hits(sc_renderer_group *g, sc_hit *out) { return no_cuda("sc_renderer_group_read_hits"); }
sc_status sc_renderer_group_stats(sc_renderer_group *g, sc_group_stats *out) { return no_cuda("sc_renderer_group_stats"); }
cudaStream_t sc_renderer_group_stream(const sc_renderer_group *g) { return NULL; }
sc_renderer *sc_renderer_group_share(const sc_renderer_group *g, uint32_t i, int *device) { return NULL; }
