/* app_report.c - the libraries' errors kept until the program gives up, printed once; warnings at once. */
#include "app_report.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "progress.h"

/* The log callback may run on the CPU backend's worker threads, hence the lock. */
static pthread_mutex_t g_error_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_error[1024];

void app_log_to_stderr(sc_log_level level, const char *message, void *user)
{
    (void)user;
    static const char *const k_level[] = {"error", "warning", "info", "debug"};
    char line[sizeof g_error];
    snprintf(line, sizeof line, "%s", message);
    if (level == SC_LOG_ERROR) {
        pthread_mutex_lock(&g_error_lock);
        memcpy(g_error, line, sizeof g_error);
        pthread_mutex_unlock(&g_error_lock);
        return;
    }
    app_progress_terminal_break(); /* a progress bar's line ends first: the warning gets its own */
    fprintf(stderr, "slabcast: %s: %s\n", (unsigned)level < 4 ? k_level[level] : "log", line);
}

void app_report_error(const char *context)
{
    char msg[sizeof g_error];
    pthread_mutex_lock(&g_error_lock);
    memcpy(msg, g_error, sizeof msg);
    g_error[0] = '\0';
    pthread_mutex_unlock(&g_error_lock);
    if (!msg[0]) snprintf(msg, sizeof msg, "%s", sc_last_error());
    if (!msg[0]) snprintf(msg, sizeof msg, "failed (no reason was given)");
    if (context) fprintf(stderr, "slabcast: %s: %s\n", context, msg);
    else fprintf(stderr, "slabcast: %s\n", msg);
}
