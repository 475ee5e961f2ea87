/* display_nocuda.c - the display's CUDA side in a build without CUDA: a display asking for
 * cuda_interop (either path) is refused (SC_ERROR_UNSUPPORTED), so no display is ever mapped and the
 * CUDA calls answer as they do for a display created without it. */
#include "display_internal.h"
#include "display_testing.h"
#include "sc_report.h"

void sc_display_testing_fail_next_register(int cuda_error)
{
    (void)cuda_error;
}

sc_status sc_display_cuda_attach(sc_display *d)
{
    (void)d;
    return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_display_create: cuda_interop needs a slabcast built with CUDA");
}

void sc_display_cuda_release(sc_display *d)
{
    (void)d;
}

sc_status sc_display_map_cuda(sc_display *d, cudaStream_t stream, void **device_rgba)
{
    (void)stream;
    if (!d || !device_rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_map_cuda: NULL argument");
    return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                   "sc_display_map_cuda: display was created without cuda_interop (this slabcast has no CUDA)");
}

sc_status sc_display_unmap_cuda(sc_display *d, cudaStream_t stream)
{
    (void)d;
    (void)stream;
    return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_unmap_cuda: not mapped");
}
