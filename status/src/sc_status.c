/* sc_status.c - status names, per-thread last error, log callback. */
#include "sc_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { SC_MESSAGE_CAPACITY = 1024 };

static _Thread_local char g_last_message[SC_MESSAGE_CAPACITY];
static _Thread_local sc_status g_last_status = SC_OK;

/* The callback is set rarely (program start) and read on every message; a torn read is impossible
 * for the pointer itself on the platforms we target, and set_log_callback documents "process-wide". */
static sc_log_fn g_log_fn = NULL;
static void *g_log_user = NULL;
static sc_log_level g_log_max = SC_LOG_WARNING;

static const struct { const char *name, *description; } k_status_text[SC_STATUS_COUNT] = {
    [SC_OK] = {"SC_OK", "success"},
    [SC_ERROR_INVALID_ARGUMENT] = {"SC_ERROR_INVALID_ARGUMENT", "invalid argument"},
    [SC_ERROR_TEMP_STORAGE] = {"SC_ERROR_TEMP_STORAGE", "temporary storage too small"},
    [SC_ERROR_OUT_OF_MEMORY] = {"SC_ERROR_OUT_OF_MEMORY", "out of memory"},
    [SC_ERROR_CUDA] = {"SC_ERROR_CUDA", "a CUDA call failed"},
    [SC_ERROR_NO_DEVICE] = {"SC_ERROR_NO_DEVICE", "no usable CUDA device"},
    [SC_ERROR_GL] = {"SC_ERROR_GL", "an OpenGL or EGL call failed"},
    [SC_ERROR_IO] = {"SC_ERROR_IO", "file input/output failed"},
    [SC_ERROR_PARSE] = {"SC_ERROR_PARSE", "malformed input file"},
    [SC_ERROR_UNSUPPORTED] = {"SC_ERROR_UNSUPPORTED", "unsupported request"},
    [SC_ERROR_CAPACITY] = {"SC_ERROR_CAPACITY", "buffer capacity exceeded"},
    [SC_ERROR_CANCELLED] = {"SC_ERROR_CANCELLED", "cancelled by the caller"},
};

const char *sc_status_name(sc_status status)
{
    if ((unsigned)status >= SC_STATUS_COUNT) return "SC_STATUS_UNKNOWN";
    return k_status_text[status].name;
}

const char *sc_status_description(sc_status status)
{
    if ((unsigned)status >= SC_STATUS_COUNT) return "unknown status";
    return k_status_text[status].description;
}

const char *sc_last_error(void) { return g_last_message; }
sc_status sc_last_status(void) { return g_last_status; }

void sc_clear_error(void)
{
    g_last_message[0] = '\0';
    g_last_status = SC_OK;
}

void sc_set_log_callback(sc_log_fn fn, void *user, sc_log_level max_level)
{
    g_log_fn = fn;
    g_log_user = user;
    g_log_max = fn ? max_level : SC_LOG_WARNING;
}

static void deliver(sc_log_level level, const char *message)
{
    if ((unsigned)level > (unsigned)SC_LOG_DEBUG) level = SC_LOG_DEBUG; /* a caller's out-of-range level */
    if (level > g_log_max) return;
    if (g_log_fn) {
        g_log_fn(level, message, g_log_user);
        return;
    }
    static const char *const k_level[] = {"error", "warning", "info", "debug"};
    fprintf(stderr, "slabcast: %s: %s\n", k_level[level], message);
}

/* The path from the project root on: ".../primitives/src/x.cu" -> "primitives/src/x.cu". */
static const char *project_path(const char *file)
{
    static const char *const k_roots[] = {"primitives/", "render/", "app/", "tests/", "fuzz/"};
    for (size_t i = 0; i < sizeof k_roots / sizeof k_roots[0]; ++i) {
        const char *hit = strstr(file, k_roots[i]);
        if (hit) return hit;
    }
    return file;
}

/* The user-facing message (sc_last_error(), the error-level log line, the default stderr output)
 * is the text alone: a source location means nothing to a user. The location goes to a separate
 * debug-level log line, "<text> at file:line", for those who ask for SC_LOG_DEBUG. */
sc_status sc_report(sc_status status, const char *file, int line, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(g_last_message, sizeof g_last_message, fmt, args);
    va_end(args);
    if (n < 0) g_last_message[0] = '\0';
    g_last_status = status;
    deliver(SC_LOG_ERROR, g_last_message);
    if (g_log_max < SC_LOG_DEBUG) return status;
    /* Location first into its own buffer, then as much of the text as fits before it. */
    char where[256], located[SC_MESSAGE_CAPACITY];
    int wn = snprintf(where, sizeof where, " at %s:%d", project_path(file ? file : "?"), line);
    size_t where_len = wn < 0 ? 0 : ((size_t)wn < sizeof where ? (size_t)wn : sizeof where - 1);
    size_t room = sizeof located - 1 - where_len;
    size_t text_len = strlen(g_last_message);
    if (text_len > room) text_len = room;
    memcpy(located, g_last_message, text_len);
    memcpy(located + text_len, where, where_len);
    located[text_len + where_len] = '\0';
    deliver(SC_LOG_DEBUG, located);
    return status;
}

void sc_log(sc_log_level level, const char *fmt, ...)
{
    char text[SC_MESSAGE_CAPACITY];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    if (n < 0) return;
    deliver(level, text);
}
