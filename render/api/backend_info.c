/* backend_info.c - sc_backend_get_info: what a backend is and whether it runs here, from its table
 * (kind and caps) and its own description (availability, where its buffers live, how its frames are
 * timed, device and its name, threads, the code path that runs). */
#include <stdio.h>
#include <string.h>

#include "backend_registry.h"
#include "sc_report.h"
#include "slabcast.h"

sc_status sc_backend_get_info(sc_backend backend, sc_backend_info *out)
{
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_backend_get_info: out is NULL");
    if (!sc_backend_name(backend)) /* names.c knows every sc_backend */
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_backend_get_info: unknown backend %d", (int)backend);
    memset(out, 0, sizeof *out);
    const sc_backend_ops *ops = sc_backend_find(backend);
    out->backend = ops ? ops->kind : backend;
    out->name = sc_backend_name(out->backend);
    out->code_path = "";
    if (!ops) { /* a backend this build left out (its toolkit was not found or its option was off) */
        out->built = 0;
        /* Where it would want them, had it been built: the backends a build may leave out are the
         * device backends (the CPU backend is always built). */
        out->buffer_memory = SC_MEMORY_DEVICE;
        snprintf(out->unavailable_reason, sizeof out->unavailable_reason,
                 "the %s backend is not built into this library", out->name);
        return SC_OK;
    }
    out->built = 1;
    out->asynchronous = !(ops->caps & SC_BACKEND_CAP_SYNCHRONOUS);
    out->surfaces = (ops->caps & SC_BACKEND_CAP_SURFACE) != 0;
    out->radix_binning = (ops->caps & SC_BACKEND_CAP_RADIX_BINNING) != 0;
    ops->describe(out);
    return SC_OK;
}
