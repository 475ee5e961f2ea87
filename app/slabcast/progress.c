/* progress.c - the progress bar of a model load: its line (pure, app_progress_format), its drawing
 * on a terminal (over itself with '\r', late, rarely, and never into a file or a pipe), and the
 * program's bar on stderr. */
#include "progress.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* ---- the line ---------------------------------------------------------------------------------- */

/* Characters appended up to a cap (the line's width), control characters shown as '?': a file name
 * with a newline or an escape sequence cannot break the bar or drive the terminal. */
typedef struct line_buf {
    char *p;
    size_t len, cap;
} line_buf;

static void put_n(line_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n && b->len < b->cap; ++i) {
        unsigned char c = (unsigned char)s[i];
        b->p[b->len++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
}

static void put_s(line_buf *b, const char *s) { put_n(b, s, strlen(s)); }

static int utf8_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* what in at most room characters: whole when it fits, else its start and its end around "..."
 * (cut at character boundaries of UTF-8), or whole when room is too small to say anything (the
 * line is then cut at its width). */
static void put_what(line_buf *b, const char *what, size_t room)
{
    size_t len = strlen(what);
    if (len <= room || room < 5) {
        put_n(b, what, len);
        return;
    }
    size_t head = (room - 3) / 2, tail = len - (room - 3 - head);
    while (head > 0 && utf8_continuation(what[head])) --head;
    while (tail < len && utf8_continuation(what[tail])) ++tail;
    put_n(b, what, head);
    put_s(b, "...");
    put_n(b, what + tail, len - tail);
}

/* The cells between the brackets: '#' for the fraction done, or a "<=>" block going back and forth
 * ten steps a second when the fraction is unknown. */
static void fill_bar(char bar[APP_PROGRESS_BAR_CELLS + 1], double fraction, double elapsed_s)
{
    memset(bar, ' ', APP_PROGRESS_BAR_CELLS);
    bar[APP_PROGRESS_BAR_CELLS] = '\0';
    if (fraction >= 0.0) {
        int full = (int)floor(fraction * APP_PROGRESS_BAR_CELLS + 1e-9);
        memset(bar, '#', (size_t)(full < APP_PROGRESS_BAR_CELLS ? full : APP_PROGRESS_BAR_CELLS));
        return;
    }
    const long span = APP_PROGRESS_BAR_CELLS - 3, step = (long)(elapsed_s * 10.0) % (2 * span);
    memcpy(bar + (step <= span ? step : 2 * span - step), "<=>", 3);
}

size_t app_progress_format(char *buf, size_t size, const char *what, double fraction, double elapsed_s,
                           unsigned width)
{
    if (!buf || size == 0) return 0;
    if (!what) what = "";
    if (fraction > 1.0) fraction = 1.0;
    if (!(elapsed_s >= 0.0)) elapsed_s = 0.0;
    if (elapsed_s > 99999.0) elapsed_s = 99999.0;
    char bar[APP_PROGRESS_BAR_CELLS + 1], tail[64];
    fill_bar(bar, fraction, elapsed_s);
    if (fraction >= 0.0)
        snprintf(tail, sizeof tail, "] %d%%  %.1f s", (int)floor(fraction * 100.0 + 1e-9), elapsed_s);
    else
        snprintf(tail, sizeof tail, "]  %.1f s", elapsed_s);
    static const char k_head[] = "slabcast: ";
    const size_t fixed = strlen(k_head) + 2 + APP_PROGRESS_BAR_CELLS + strlen(tail);
    line_buf b = {buf, 0, size - 1 < width ? size - 1 : width};
    put_s(&b, k_head);
    put_what(&b, what, width > fixed ? width - fixed : 0);
    put_s(&b, " [");
    put_s(&b, bar);
    put_s(&b, tail);
    buf[b.len] = '\0';
    return b.len;
}

/* ---- the terminal bar -------------------------------------------------------------------------- */

double app_progress_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Columns of the terminal behind fd, else $COLUMNS, else 80. */
static unsigned terminal_columns(int fd)
{
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *env = getenv("COLUMNS");
    long cols = env ? strtol(env, NULL, 10) : 0;
    return cols > 0 && cols < 10000 ? (unsigned)cols : 80;
}

void app_term_progress_init(app_term_progress *p, FILE *out, int enabled, unsigned width, double start)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->enabled = enabled && out;
    p->width = width;
    p->start = start;
    p->fraction = -1.0;
}

/* Draws the current stage over the line on screen, blanking what a longer line left. */
static void draw(app_term_progress *p, double now)
{
    char line[512];
    size_t len = app_progress_format(line, sizeof line, p->what, p->fraction, now - p->start, p->width);
    fputc('\r', p->out);
    fwrite(line, 1, len, p->out);
    for (size_t i = len; i < p->line_len; ++i) fputc(' ', p->out);
    fflush(p->out);
    p->line_open = 1;
    p->line_len = len;
    p->last_draw = now;
}

void app_term_progress_break(app_term_progress *p)
{
    if (p->line_open) {
        fputc('\n', p->out);
        fflush(p->out);
    }
    p->line_open = 0;
    p->line_len = 0;
}

void app_term_progress_step(app_term_progress *p, const char *what, double fraction, double now)
{
    if (!what || !what[0]) {
        /* The load's last call: a bar on screen shows it done (when it is) and gets its newline. */
        if (p->line_open && fraction >= 0.0) {
            p->fraction = 1.0;
            draw(p, now);
        }
        app_term_progress_break(p);
        return;
    }
    int new_stage = strncmp(what, p->what, sizeof p->what - 1) != 0;
    snprintf(p->what, sizeof p->what, "%s", what);
    p->fraction = fraction;
    if (!p->enabled || now - p->start < APP_PROGRESS_DELAY) return;
    if (p->line_open && !new_stage && now - p->last_draw < APP_PROGRESS_PERIOD) return;
    draw(p, now);
}

/* ---- the program's bar on stderr --------------------------------------------------------------- */

static app_term_progress g_bar;
/* A load is being reported on g_bar. Atomic: the log callback may ask for a break from a renderer
 * thread, where it is a no-op outside a load. */
static atomic_int g_bar_begun;

/* Begins g_bar for a load that began at start: drawn only on a terminal. */
static void begin_stderr_bar(double start)
{
    int fd = fileno(stderr);
    int tty = fd >= 0 && isatty(fd);
    /* One column short of the width: a line that fills the last column wraps on some terminals. */
    app_term_progress_init(&g_bar, stderr, tty, tty ? terminal_columns(fd) - 1 : 79, start);
    g_bar_begun = 1;
}

void app_progress_terminal(const char *what, double fraction, double elapsed_s)
{
    double now = app_progress_clock();
    if (!g_bar_begun) begin_stderr_bar(now - (elapsed_s > 0.0 ? elapsed_s : 0.0));
    app_term_progress_step(&g_bar, what, fraction, now);
    if (!what || !what[0]) g_bar_begun = 0;
}

int app_progress_terminal_fn(void *user, const char *what, double fraction)
{
    (void)user;
    double elapsed = g_bar_begun ? app_progress_clock() - g_bar.start : 0.0;
    app_progress_terminal(what, fraction, elapsed);
    return 0;
}

void app_progress_terminal_end(void)
{
    if (g_bar_begun) app_term_progress_break(&g_bar);
    g_bar_begun = 0;
}

void app_progress_terminal_break(void)
{
    if (g_bar_begun) app_term_progress_break(&g_bar);
}
