/* sctest_log.h - a log callback that drops messages, for tests that provoke errors on purpose:
 *   sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR); ... sc_set_log_callback(NULL, NULL, SC_LOG_ERROR); */
#ifndef SCTEST_LOG_H
#define SCTEST_LOG_H

#include "sc_status.h"

static inline void sct_quiet_log(sc_log_level level, const char *message, void *user)
{
    (void)level; (void)message; (void)user;
}

#endif
