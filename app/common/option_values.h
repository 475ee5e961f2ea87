/* option_values.h - strict parsing of command-line values, shared by the slabcast programs (slabcast,
 * slabcast-bench): decimal digits only for counts (no sign, spaces or hex), plain decimal numbers for
 * reals (no "nan", "inf" or hex), nothing trailing; and the one-line message naming the program, the
 * option, the value (quoted safely), the problem and what is valid. */
#ifndef SLABCAST_APP_OPTION_VALUES_H
#define SLABCAST_APP_OPTION_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum app_num_error {
    APP_NUM_OK = 0, APP_NUM_EMPTY, APP_NUM_SYNTAX, APP_NUM_TRAILING, APP_NUM_RANGE, APP_NUM_NOT_FINITE
} app_num_error;

/* "out of range", "not a number", ... */
const char *app_num_problem(app_num_error e);
/* A user-given string quoted on one line: bytes outside printable ASCII as \xNN, at most 80 of them
 * (then "..."), so a hostile argument cannot forge or flood the message. */
void app_put_quoted(FILE *f, const char *s);
/* "<program>: <opt> '<value>': <problem>; valid: <valid>" on err; returns -1. */
int app_bad_value(FILE *err, const char *program, const char *opt, const char *value, const char *problem,
                  const char *valid);

/* The n bytes at s as a decimal count; with `suffixes`, K/M/G/T (optionally followed by B or iB, any
 * case) multiply by 1024^1..4. Overflow of 64 bits is APP_NUM_RANGE. */
app_num_error app_parse_count(const char *s, size_t n, int suffixes, uint64_t *out);
/* The n bytes at s as a decimal count (no suffix) in [lo, hi]. */
app_num_error app_parse_count_range(const char *s, size_t n, uint64_t lo, uint64_t hi, uint64_t *out);
/* A plain decimal number in [lo, hi]; values too small for a double read as 0. */
app_num_error app_parse_real_in(const char *s, double lo, double hi, double *out);

/* n comma-separated plain decimal numbers, each in [lo, hi], into out: 0, or -1 with the problem in
 * problem ("not a number", "expected 3 comma-separated numbers", ...). */
int app_parse_real_list(const char *s, int n, double lo, double hi, double *out, char *problem, size_t problem_size);

/* Whole option values, with the message on err when bad (0 or -1): */
/* an integer lo .. hi */
int app_parse_u32_value(FILE *err, const char *program, const char *opt, const char *v, uint32_t lo, uint32_t hi,
                        uint32_t *out);
/* a decimal number of seconds lo .. hi */
int app_parse_seconds_value(FILE *err, const char *program, const char *opt, const char *v, double lo, double hi,
                            float *out);
/* --camera ex,ey,ez,tx,ty,tz,fov: seven decimal numbers, eye != target, fov in degrees within the
 * camera's range (camera.h). */
int app_parse_camera_value(FILE *err, const char *program, const char *opt, const char *v, float camera[7]);

/* The last of `frames` frames at start + (frames - 1) step seconds must lie within +-limit: 0, or -1
 * after a line on err naming --time, --dt and --frames. */
int app_check_frame_times(FILE *err, const char *program, int frames, float start, float step, double limit);

#endif
