/* sctest_gl.h - GL-test helpers: a headless context or a skip (exit 77), and a silent log callback
 * (sctest_log.h) for tests that provoke errors on purpose. Link slabcast_gl. */
#ifndef SCTEST_GL_H
#define SCTEST_GL_H

#include <stdio.h>

#include "sc_gl.h"
#include "sctest.h"
#include "sctest_log.h"


/* Creates a headless OpenGL 4.5 core context (NVIDIA's when require_nvidia) and prints what it is;
 * skips the whole binary when none can be made. */
static inline sc_gl_context *sct_require_gl(int require_nvidia)
{
    sc_gl_context *ctx = NULL;
    sc_gl_context_desc desc = {0, 0, 0, 0};
    desc.require_nvidia = require_nvidia;
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);
    sc_status s = sc_gl_context_create(&desc, &ctx);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
    if (s != SC_OK) {
        char why[1200];
        snprintf(why, sizeof why, "no %sOpenGL context: %s", require_nvidia ? "NVIDIA " : "", sc_last_error());
        sct_skip_all(why);
    }
    printf("      context: %s\n", sc_gl_context_description(ctx));
    return ctx;
}

#endif
