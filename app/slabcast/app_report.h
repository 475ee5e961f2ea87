/* app_report.h - the slabcast program's messages from the libraries: warnings printed at once, errors
 * kept until the program gives up and then printed once, as one line. */
#ifndef SLABCAST_APP_REPORT_H
#define SLABCAST_APP_REPORT_H

#include "sc_status.h"

/* The libraries' log callback (sc_set_log_callback). Errors are kept, not printed, until
 * app_report_error: so an error a library wraps in another, or one it recovers from, is not shown,
 * and no failure is printed twice. Other levels are printed at once on stderr, on a line of their own
 * (a progress bar's line ends first). Safe on any thread (the CPU backend's workers log too). */
void app_log_to_stderr(sc_log_level level, const char *message, void *user);

/* Prints the last error the libraries reported, once, as one line
 * "slabcast: [context: ]<message>" (source locations only with --verbose). context may be NULL. */
void app_report_error(const char *context);

#endif
