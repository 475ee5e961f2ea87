/* sc_report.h - internal: record failures and log lines; CUDA check macros.
 * Used by the .c and .cu files of every slabcast library (not installed, not public). */
#ifndef SC_REPORT_H
#define SC_REPORT_H

#include <stdint.h>

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SC_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define SC_PRINTF(fmt_index, first_arg)
#endif

/* Records `status` with a formatted message for the calling thread (sc_last_error()), passes the
 * message to the log callback at SC_LOG_ERROR, and, when the callback takes SC_LOG_DEBUG, passes it
 * again with " at file:line" appended at SC_LOG_DEBUG. Returns `status` so callers can
 * `return sc_report(...)`. */
sc_status sc_report(sc_status status, const char *file, int line, const char *fmt, ...) SC_PRINTF(4, 5);
void sc_log(sc_log_level level, const char *fmt, ...) SC_PRINTF(2, 3);

#ifdef __cplusplus
}
#endif

#define SC_FAIL(status, ...) sc_report((status), __FILE__, __LINE__, __VA_ARGS__)

/* Propagates a non-OK status unchanged (its message was recorded where it arose). */
#define SC_TRY(expr)                                   \
    do {                                               \
        sc_status sc_try_status_ = (expr);             \
        if (sc_try_status_ != SC_OK) return sc_try_status_; \
    } while (0)

#if defined(__CUDACC__) || defined(CUDART_VERSION) || defined(SC_WITH_CUDA_RUNTIME)
#include <cuda_runtime_api.h>

/* Maps a CUDA error to a status and records "call failed: text (name) at file:line". */
static inline sc_status sc_cuda_report(cudaError_t err, const char *call, const char *file, int line)
{
    sc_status s = (err == cudaErrorMemoryAllocation) ? SC_ERROR_OUT_OF_MEMORY
                : (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) ? SC_ERROR_NO_DEVICE
                : SC_ERROR_CUDA;
    /* A failed call also leaves its error as the runtime's "last error"; clear it (a sticky error stays
     * sticky), so a later unrelated check (ours, or CUB's) does not report it again. */
    (void)cudaGetLastError();
    return sc_report(s, file, line, "%s failed: %s (%s)", call, cudaGetErrorString(err), cudaGetErrorName(err));
}

/* SC_CUDA_CHECK(cudaMemsetAsync(p, 0, n, stream)); returns from the enclosing function on failure. */
#define SC_CUDA_CHECK(call)                                                    \
    do {                                                                       \
        cudaError_t sc_cuda_err_ = (call);                                     \
        if (sc_cuda_err_ != cudaSuccess)                                       \
            return sc_cuda_report(sc_cuda_err_, #call, __FILE__, __LINE__);    \
    } while (0)

/* After a kernel launch: catches bad configurations without synchronising. */
#define SC_CUDA_CHECK_LAUNCH(kernel_name)                                      \
    do {                                                                       \
        cudaError_t sc_cuda_err_ = cudaGetLastError();                         \
        if (sc_cuda_err_ != cudaSuccess)                                       \
            return sc_cuda_report(sc_cuda_err_, "launch of " kernel_name, __FILE__, __LINE__); \
    } while (0)

/* An attribute of the current device (cudaDeviceGetAttribute on cudaGetDevice's device). */
static inline sc_status sc_cuda_device_attribute(enum cudaDeviceAttr attr, int *value)
{
    int dev = 0;
    SC_CUDA_CHECK(cudaGetDevice(&dev));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(value, attr, dev));
    return SC_OK;
}

/* SMs of the current device (at least 1), for grids sized to one wave. */
static inline sc_status sc_cuda_device_sms(uint32_t *sms)
{
    int count = 0;
    SC_TRY(sc_cuda_device_attribute(cudaDevAttrMultiProcessorCount, &count));
    *sms = count > 0 ? (uint32_t)count : 1u;
    return SC_OK;
}
#endif

#endif /* SC_REPORT_H */
