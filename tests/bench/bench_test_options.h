/* bench_test_options.h - for the tests of slabcast-bench's command line: bench_parse_options on an
 * argument list, with what it writes caught in a string. Header-only (a static function). */
#ifndef SLABCAST_BENCH_TEST_OPTIONS_H
#define SLABCAST_BENCH_TEST_OPTIONS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_options.h"

/* Parses the arguments after the program name, a NULL-terminated list (at most 38); the message
 * written, if any, goes to msg. Returns bench_parse_options' result. */
static int parse(bench_options *o, char *msg, size_t msg_size, ...)
{
    char *argv[40];
    argv[0] = "slabcast-bench";
    int argc = 0;
    va_list ap;
    va_start(ap, msg_size);
    for (char *a; argc < 38 && (a = va_arg(ap, char *)) != NULL;) argv[++argc] = a;
    va_end(ap);
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    int rc = bench_parse_options(argc + 1, argv, o, err);
    fclose(err);
    snprintf(msg, msg_size, "%s", text ? text : "");
    free(text);
    return rc;
}

#endif
