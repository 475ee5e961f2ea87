/* sc_status.h - status codes, error messages and logging shared by every slabcast library.
 *
 * Every public call of the split library (split_*) and of the renderer (sc_*) returns an sc_status.
 * On failure the library also records a detailed message for the calling thread (which call failed
 * and why, in the user's terms), readable with sc_last_error(), and passes it to the log callback at
 * SC_LOG_ERROR. The source location of the failure ("... at render/api/renderer.c:274") is for
 * developers only: it goes to the log callback as a second, SC_LOG_DEBUG line (message + location),
 * delivered only when the callback asks for SC_LOG_DEBUG.
 * Libraries never print on their own except through the log callback and never call exit().
 * Plain C; no CUDA types. */
#ifndef SC_STATUS_H
#define SC_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sc_status {
    SC_OK = 0,
    SC_ERROR_INVALID_ARGUMENT,  /* a null pointer with n > 0, a size or count out of range, ... */
    SC_ERROR_TEMP_STORAGE,      /* the temporary storage passed is smaller than the size query said */
    SC_ERROR_OUT_OF_MEMORY,     /* host or device allocation failed */
    SC_ERROR_CUDA,              /* a CUDA runtime call or kernel launch failed */
    SC_ERROR_NO_DEVICE,         /* no usable CUDA device */
    SC_ERROR_GL,                /* an OpenGL or EGL call failed, or no context could be made */
    SC_ERROR_IO,                /* a file could not be opened, read or written */
    SC_ERROR_PARSE,             /* a malformed input file (the message names file and line) */
    SC_ERROR_UNSUPPORTED,       /* a valid request this build or device cannot serve */
    SC_ERROR_CAPACITY,          /* a buffer overflowed; internal, answered by grow-and-retry */
    SC_ERROR_CANCELLED,         /* the caller asked to stop (a progress callback returned nonzero) */
    SC_STATUS_COUNT
} sc_status;

typedef enum sc_log_level {
    SC_LOG_ERROR = 0,
    SC_LOG_WARNING,
    SC_LOG_INFO,
    SC_LOG_DEBUG
} sc_log_level;

/* Called for every recorded error and every log line. `message` is only valid during the call. */
typedef void (*sc_log_fn)(sc_log_level level, const char *message, void *user);

/* "SC_ERROR_CUDA", ...; "SC_STATUS_UNKNOWN" for values out of range. Never NULL. */
const char *sc_status_name(sc_status status);
/* A one-line description of the status code itself ("a CUDA call failed"). Never NULL. */
const char *sc_status_description(sc_status status);

/* The detailed message of the last failure recorded on the calling thread, without a source
 * location, e.g. "cudaMalloc(&p, bytes) failed: out of memory (cudaErrorMemoryAllocation)".
 * "" when no failure was recorded since the thread started or since sc_clear_error(). Never NULL. */
const char *sc_last_error(void);
/* The status of that failure, SC_OK if none. */
sc_status sc_last_status(void);
void sc_clear_error(void);

/* Install the log callback (process-wide). NULL restores the default, which writes errors and
 * warnings to stderr prefixed "slabcast: " (no source locations). Messages above max_level are not
 * delivered; with SC_LOG_DEBUG every recorded error also arrives a second time, at SC_LOG_DEBUG,
 * with its source location appended (" at primitives/src/x.cu:42"). */
void sc_set_log_callback(sc_log_fn fn, void *user, sc_log_level max_level);

#ifdef __cplusplus
}
#endif
#endif /* SC_STATUS_H */
