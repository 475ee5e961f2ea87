/* bench_report.c - what the writers share: the command line as a string, the peer status names and
 * writing a document to a file (the formats: bench_report.h, docs/BENCH.md; the writers:
 * bench_json.c, bench_csv.c, bench_table.c). */
#include "bench_report.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame_stats.h"

/* ---- the command line -------------------------------------------------------------------------- */

/* An argument needs quotes unless it is made of characters a shell leaves alone. */
static int needs_quotes(const char *s)
{
    if (!*s) return 1;
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && !strchr("-_./=,:+@%", c))
            return 1;
    }
    return 0;
}

/* Bytes of one argument once quoted: 'x' with each ' as '\'' (4 bytes). */
static size_t quoted_length(const char *s)
{
    if (!needs_quotes(s)) return strlen(s);
    size_t n = 2;
    for (; *s; ++s) n += *s == '\'' ? 4 : 1;
    return n;
}

static char *append_quoted(char *p, const char *s)
{
    if (!needs_quotes(s)) {
        size_t n = strlen(s);
        memcpy(p, s, n);
        return p + n;
    }
    *p++ = '\'';
    for (; *s; ++s) {
        if (*s == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *s;
        }
    }
    *p++ = '\'';
    return p;
}

char *bench_command_line(int argc, char *const *argv)
{
    size_t total = 1;
    for (int i = 0; i < argc; ++i) {
        size_t n = quoted_length(argv[i]);
        if (n > SIZE_MAX - total - 1) return NULL; /* cannot happen for a real command line */
        total += n + 1;
    }
    char *s = malloc(total), *p = s;
    if (!s) return NULL;
    for (int i = 0; i < argc; ++i) {
        if (i) *p++ = ' ';
        p = append_quoted(p, argv[i]);
    }
    *p = '\0';
    return s;
}

/* ---- names ------------------------------------------------------------------------------------- */

const char *bench_stage_name(int stage)
{
    static const char *const k_unnamed[] = {"stage0",  "stage1",  "stage2",  "stage3",  "stage4",  "stage5",
                                            "stage6",  "stage7",  "stage8",  "stage9",  "stage10", "stage11",
                                            "stage12", "stage13", "stage14", "stage15", "stage16", "stage17",
                                            "stage18", "stage19", "stage20", "stage21", "stage22", "stage23"};
    _Static_assert(SC_STAGE_COUNT < sizeof k_unnamed / sizeof k_unnamed[0], "more stages than fallback names");
    const char *name = app_stage_name(stage);
    if (name && name[0]) return name;
    return stage >= 0 && stage <= SC_STAGE_COUNT ? k_unnamed[stage] : "?";
}

/* ---- peers ------------------------------------------------------------------------------------- */

const char *bench_peer_status_name(bench_peer_status s)
{
    return s == BENCH_PEER_OK ? "ok" : s == BENCH_PEER_SKIPPED ? "skipped" : "failed";
}

/* ---- files ------------------------------------------------------------------------------------- */

FILE *bench_file_open(const char *path, const char *what, FILE *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) fprintf(err, "slabcast-bench: %s: cannot write the %s: %s\n", path, what, strerror(errno));
    return f;
}

int bench_file_close(FILE *f, int failed, const char *path, const char *what, FILE *err)
{
    failed = failed || ferror(f);
    if (fclose(f) != 0 || failed) {
        fprintf(err, "slabcast-bench: %s: writing the %s failed: %s\n", path, what, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_file(const bench_report *r, const char *path, void (*body)(const bench_report *, FILE *),
                      const char *what, FILE *err)
{
    FILE *f = bench_file_open(path, what, err);
    if (!f) return -1;
    body(r, f);
    return bench_file_close(f, 0, path, what, err);
}

int bench_write_json(const bench_report *r, const char *path, FILE *err)
{
    return write_file(r, path, bench_json, "JSON results", err);
}

int bench_write_csv(const bench_report *r, const char *path, FILE *err)
{
    return write_file(r, path, bench_csv, "CSV results", err);
}
