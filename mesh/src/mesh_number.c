/* mesh_number.c - numbers of text mesh files, parsed from a token that is not NUL-terminated, in
 * time linear in its length: short tokens go to strtod/strtof through a local copy; a long decimal
 * (a 1 MB run of digits) is first reduced to at most SIG_DIGITS significant digits plus a sticky
 * digit and a clamped exponent, which rounds to the same float or double. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"

enum {
    SHORT_TOKEN = 63,  /* tokens up to this length are copied and parsed directly */
    /* More than the 767 significant digits that can matter for rounding to a double: the digits
     * beyond are only needed as "nonzero or not" (the sticky digit). */
    SIG_DIGITS = 800,
    EXP_CLAMP = 100000 /* beyond every double's exponent, and small enough not to overflow */
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Rewrites the decimal s[0, n) as "[-]0.DIGITSe<exp>" in out (SIG_DIGITS + 32 bytes): 1 on
 * success, 0 when s is not a decimal number. */
static int reduce_decimal(const char *s, size_t n, char *out)
{
    size_t i = 0, nd = 0;
    int negative = 0, sticky = 0, any_digit = 0;
    long long exp10 = 0;   /* value = 0.D1D2... x 10^exp10 */
    char digits[SIG_DIGITS + 1];
    if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    for (; i < n && is_digit(s[i]); ++i) {
        any_digit = 1;
        if (nd == 0 && s[i] == '0') continue;
        if (nd < SIG_DIGITS) digits[nd++] = s[i];
        else sticky |= s[i] != '0';
        if (exp10 < EXP_CLAMP) ++exp10;
    }
    if (i < n && s[i] == '.') {
        for (++i; i < n && is_digit(s[i]); ++i) {
            any_digit = 1;
            if (nd == 0 && s[i] == '0') {
                if (exp10 > -EXP_CLAMP) --exp10;
                continue;
            }
            if (nd < SIG_DIGITS) digits[nd++] = s[i];
            else sticky |= s[i] != '0';
        }
    }
    if (!any_digit) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        int eneg = 0;
        long long e = 0;
        if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
        if (i >= n || !is_digit(s[i])) return 0;
        for (; i < n && is_digit(s[i]); ++i)
            if (e < EXP_CLAMP) e = 10 * e + (s[i] - '0');
        exp10 += eneg ? -e : e;
    }
    if (i != n) return 0;
    if (nd == 0) {
        strcpy(out, negative ? "-0" : "0");
        return 1;
    }
    if (sticky) digits[nd++] = '1';
    if (exp10 > EXP_CLAMP) exp10 = EXP_CLAMP;
    if (exp10 < -EXP_CLAMP) exp10 = -EXP_CLAMP;
    snprintf(out, SIG_DIGITS + 32, "%s0.%.*se%lld", negative ? "-" : "", (int)nd, digits, exp10);
    return 1;
}

/* The NUL-terminated form of the token s[0, n) to hand to strtod: a copy when short, the reduced
 * decimal when long; NULL when it cannot be a number. */
static const char *terminated(const char *s, size_t n, char *buf)
{
    if (n == 0) return NULL;
    if (n <= SHORT_TOKEN) {
        if (memchr(s, 0, n)) return NULL;
        memcpy(buf, s, n);
        buf[n] = 0;
        /* strtod skips leading white space; a token has none, but the caller's copy must not. */
        return (buf[0] == ' ' || (buf[0] >= '\t' && buf[0] <= '\r')) ? NULL : buf;
    }
    return reduce_decimal(s, n, buf) ? buf : NULL;
}

int sc_mesh_parse_double(const char *s, size_t n, double *out)
{
    char buf[SIG_DIGITS + 32];
    const char *t = terminated(s, n, buf);
    if (!t) return 0;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end) return 0;
    *out = v;
    return 1;
}

int sc_mesh_parse_float(const char *s, size_t n, float *out)
{
    char buf[SIG_DIGITS + 32];
    const char *t = terminated(s, n, buf);
    if (!t) return 0;
    char *end;
    errno = 0;
    float v = strtof(t, &end);
    if (end == t || *end) return 0;
    *out = v;
    return 1;
}

int sc_mesh_parse_i64(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int negative = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i >= n) return 0;
    uint64_t v = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int overflow = 0;
    for (; i < n; ++i) {
        if (!is_digit(s[i])) return 0;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (limit - d) / 10) overflow = 1;
        else v = 10 * v + d;
    }
    if (overflow) return -1;
    *out = negative ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 1;
}

float sc_mesh_float_of(double v)
{
    if (v > FLT_MAX) return INFINITY;
    if (v < -FLT_MAX) return -INFINITY;
    return (float)v;   /* NaN stays NaN */
}
