/* limits.c - sc_backend_measure_limits: the backend's device limits (copy bandwidth, ray-triangle
 * test rate), measured by the backend's table (sc_backend_ops.measure_limits) after the front end has
 * checked the arguments, found the backend and resolved the thread count as sc_renderer_create does. */
#include <string.h>

#include "backend_registry.h"
#include "cpu_parallel.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "slabcast.h"

sc_status sc_backend_measure_limits(sc_backend backend, uint32_t num_threads, sc_device_limits *out)
{
    static const char *const call = "sc_backend_measure_limits";
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: out is NULL", call);
    memset(out, 0, sizeof *out);
    const sc_backend_ops *ops = NULL;
    SC_TRY(sc_backend_lookup(backend, call, &ops));
    if (!ops->available()) {
        sc_backend_info info;
        memset(&info, 0, sizeof info);
        ops->describe(&info);
        const char *why = info.unavailable_reason[0] ? info.unavailable_reason : "not available";
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: the %s backend does not run here: %s", call,
                       sc_backend_name(ops->kind), why);
    }
    if (!ops->measure_limits)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: the %s backend does not measure its limits", call,
                       sc_backend_name(ops->kind));
    if (num_threads == 0) num_threads = sc_cpu_default_threads();
    if (num_threads > SC_CPU_MAX_THREADS) num_threads = SC_CPU_MAX_THREADS;
    return ops->measure_limits(num_threads, out);
}
