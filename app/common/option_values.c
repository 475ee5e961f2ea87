/* option_values.c - strict parsing of command-line values (see option_values.h). */
#include "option_values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"

const char *app_num_problem(app_num_error e)
{
    switch (e) {
    case APP_NUM_EMPTY: return "empty value";
    case APP_NUM_SYNTAX: return "not a number";
    case APP_NUM_TRAILING: return "unexpected characters after the number";
    case APP_NUM_RANGE: return "out of range";
    case APP_NUM_NOT_FINITE: return "not a finite number";
    default: return "bad value";
    }
}

void app_put_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    size_t i = 0;
    for (; s[i] && i < 80; ++i) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '\'') fprintf(f, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f) fputc(c, f);
        else fprintf(f, "\\x%02x", c);
    }
    fputs(s[i] ? "...'" : "'", f);
}

int app_bad_value(FILE *err, const char *program, const char *opt, const char *value, const char *problem,
                  const char *valid)
{
    fprintf(err, "%s: %s ", program, opt);
    app_put_quoted(err, value);
    fprintf(err, ": %s; valid: %s\n", problem, valid);
    return -1;
}

/* The binary shift of a size suffix at s (K, M, G, T, optionally followed by B or iB, any case);
 * takes it off *len. 0 when there is none. */
static unsigned take_suffix(const char *s, size_t *len)
{
    static const char k_units[] = "kmgt";
    if (*len == 0) return 0;
    const char *u = strchr(k_units, tolower((unsigned char)s[0]));
    if (!u || !*u) return 0;
    size_t n = 1;
    if (n < *len && tolower((unsigned char)s[n]) == 'i') ++n;
    if (n < *len && tolower((unsigned char)s[n]) == 'b') ++n;
    else if (n == 2) return 0; /* "Ki" without "B" */
    *len -= n;
    return 10u * (unsigned)(u - k_units + 1);
}

app_num_error app_parse_count(const char *s, size_t n, int suffixes, uint64_t *out)
{
    if (n == 0) return APP_NUM_EMPTY;
    if (!isdigit((unsigned char)s[0])) return APP_NUM_SYNTAX;
    uint64_t v = 0;
    int overflow = 0;
    size_t i = 0;
    for (; i < n && isdigit((unsigned char)s[i]); ++i) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) overflow = 1;
        else v = v * 10 + d;
    }
    size_t rest = n - i;
    unsigned shift = suffixes ? take_suffix(s + i, &rest) : 0;
    if (rest != 0) return APP_NUM_TRAILING;
    if (overflow || (shift && v > (UINT64_MAX >> shift))) return APP_NUM_RANGE;
    *out = v << shift;
    return APP_NUM_OK;
}

app_num_error app_parse_count_range(const char *s, size_t n, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    app_num_error e = app_parse_count(s, n, 0, &v);
    if (e == APP_NUM_OK && (v < lo || v > hi)) e = APP_NUM_RANGE;
    if (e == APP_NUM_OK) *out = v;
    return e;
}

app_num_error app_parse_real_in(const char *s, double lo, double hi, double *out)
{
    if (!*s) return APP_NUM_EMPTY;
    if (isspace((unsigned char)s[0])) return APP_NUM_SYNTAX;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    int range_error = errno == ERANGE;
    if (end == s) return APP_NUM_SYNTAX;
    if (*end) return APP_NUM_TRAILING;
    if (!range_error && !isfinite(v)) return APP_NUM_NOT_FINITE;
    if (strspn(s, "0123456789+-.eE") != strlen(s)) return APP_NUM_SYNTAX;
    if (range_error) {
        if (fabs(v) >= 1.0) return APP_NUM_RANGE;
        v = 0.0; /* underflow */
    }
    if (!(v >= lo && v <= hi)) return APP_NUM_RANGE;
    *out = v;
    return APP_NUM_OK;
}

int app_parse_u32_value(FILE *err, const char *program, const char *opt, const char *v, uint32_t lo, uint32_t hi,
                        uint32_t *out)
{
    uint64_t n = 0;
    app_num_error e = app_parse_count_range(v, strlen(v), lo, hi, &n);
    if (e != APP_NUM_OK) {
        char valid[64];
        snprintf(valid, sizeof valid, "an integer %u .. %u", lo, hi);
        return app_bad_value(err, program, opt, v, app_num_problem(e), valid);
    }
    *out = (uint32_t)n;
    return 0;
}

int app_parse_seconds_value(FILE *err, const char *program, const char *opt, const char *v, double lo, double hi,
                            float *out)
{
    double t = 0.0;
    app_num_error e = app_parse_real_in(v, lo, hi, &t);
    if (e != APP_NUM_OK) {
        char valid[80];
        snprintf(valid, sizeof valid, "a decimal number of seconds, %g .. %g", lo, hi);
        return app_bad_value(err, program, opt, v, app_num_problem(e), valid);
    }
    *out = (float)t;
    return 0;
}

int app_parse_real_list(const char *s, int n, double lo, double hi, double *out, char *problem, size_t problem_size)
{
    const char *p = s;
    for (int i = 0; i < n; ++i) {
        size_t len = strcspn(p, ",");
        char part[64];
        if (len >= sizeof part) {
            snprintf(problem, problem_size, "a number is too long");
            return -1;
        }
        memcpy(part, p, len);
        part[len] = '\0';
        app_num_error e = app_parse_real_in(part, lo, hi, &out[i]);
        if (e != APP_NUM_OK) {
            snprintf(problem, problem_size, "%s", app_num_problem(e));
            return -1;
        }
        p += len;
        if (i + 1 < n && *p++ != ',') break;
        if (i + 1 == n && !*p) return 0;
    }
    snprintf(problem, problem_size, "expected %d comma-separated numbers", n);
    return -1;
}

int app_parse_camera_value(FILE *err, const char *program, const char *opt, const char *v, float camera[7])
{
    char valid[128];
    snprintf(valid, sizeof valid, "ex,ey,ez,tx,ty,tz,fov: eye, target (not the eye) and fov %g .. %g degrees",
             (double)APP_CAMERA_MIN_FOV_DEG, (double)APP_CAMERA_MAX_FOV_DEG);
    double x[7];
    char problem[64];
    if (app_parse_real_list(v, 7, -3e38, 3e38, x, problem, sizeof problem) != 0)
        return app_bad_value(err, program, opt, v, problem, valid);
    for (int i = 0; i < 7; ++i) camera[i] = (float)x[i];
    app_camera probe = {{0}, {0}, 1.0f, {0}, 1.0f};
    if (app_camera_set(&probe, camera, camera + 3, camera[6]) != 0)
        return app_bad_value(err, program, opt, v, "eye equals target or fov out of range", valid);
    return 0;
}

int app_check_frame_times(FILE *err, const char *program, int frames, float start, float step, double limit)
{
    const double last = (double)start + (double)(frames - 1) * (double)step;
    if (fabs(last) <= limit) return 0;
    fprintf(err,
            "%s: the last of %d frames would be at t = %.6g s (--time %.9g + %d x --dt %.9g), outside -%g .. %g s; "
            "lower --time, --dt or --frames\n",
            program, frames, last, (double)start, frames - 1, (double)step, limit, limit);
    return -1;
}
