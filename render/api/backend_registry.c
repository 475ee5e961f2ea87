/* backend_registry.c - the backends built into this library. The CUDA backend is listed only in a
 * build with it (SC_HAVE_CUDA_BACKEND, set by render/CMakeLists.txt when SLABCAST_WITH_CUDA). */
#include "backend_registry.h"

#include "sc_report.h"

extern const sc_backend_ops sc_backend_cpu_ops;
#if SC_HAVE_CUDA_BACKEND
extern const sc_backend_ops sc_backend_cuda_ops;
#endif

/* In the order SC_BACKEND_DEFAULT prefers them. */
static const sc_backend_ops *const k_backends[] = {
#if SC_HAVE_CUDA_BACKEND
    &sc_backend_cuda_ops,
#endif
    &sc_backend_cpu_ops,
};
enum { NUM_BACKENDS = sizeof k_backends / sizeof k_backends[0] };

const sc_backend_ops *sc_backend_find(sc_backend kind)
{
    for (int i = 0; i < NUM_BACKENDS; ++i) {
        const sc_backend_ops *ops = k_backends[i];
        if (kind == SC_BACKEND_DEFAULT ? ops->available() : ops->kind == kind) return ops;
    }
    return NULL;
}

sc_status sc_backend_lookup(sc_backend kind, const char *call, const sc_backend_ops **out)
{
    if (!sc_backend_name(kind)) /* names.c knows every sc_backend */
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: unknown backend %d", call, (int)kind);
    *out = sc_backend_find(kind);
    if (*out) return SC_OK;
    if (kind != SC_BACKEND_DEFAULT)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: the %s backend is not built into this library", call,
                       sc_backend_name(kind));
    return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: no backend is available", call);
}
