/* progress.h - progress of a model load: the callback app_scene_load reports through, the line a
 * progress bar shows (a pure function, for tests), a bar drawn on a terminal, and the program's one
 * such bar on stderr. */
#ifndef SLABCAST_APP_PROGRESS_H
#define SLABCAST_APP_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

/* Progress of a model load: what is happening ("reading dragon.obj.xz", "subdividing", "uploading")
 * and the fraction 0..1 of it done (negative: unknown). Return nonzero to cancel. The last call of
 * every load, success or not, has what == "" (fraction 1: loaded; negative: failed or cancelled),
 * so a display can close; its return value is ignored. */
typedef int (*app_progress_fn)(void *user, const char *what, double fraction);

#define APP_PROGRESS_BAR_CELLS 20       /* characters between the brackets */
#define APP_PROGRESS_DELAY 0.5          /* seconds: a bar appears only for loads longer than this */
#define APP_PROGRESS_PERIOD 0.1         /* seconds: the terminal bar's shortest redraw interval (a new
                                           stage is drawn at once) */

/* The bar's line, at most width characters (buf gets at most size - 1 of them), returning its
 * length:
 *   known fraction:   "slabcast: reading dragon.obj.xz [##########          ] 52%  1.3 s"
 *   unknown (< 0):    "slabcast: uploading [    <=>             ]  1.3 s"  (the block moves with elapsed_s)
 * The percentage is rounded down (100% only when done); control characters in what become '?'. A
 * what too long for width is cut in its middle ("reading my-lo...dragon.obj.xz", the verb and the
 * extension kept); when not even that fits, the line itself is cut at width. */
size_t app_progress_format(char *buf, size_t size, const char *what, double fraction, double elapsed_s,
                           unsigned width);

/* A progress bar on a terminal: drawn over itself with '\r' from APP_PROGRESS_DELAY after it
 * began, at most every APP_PROGRESS_PERIOD, and only when the stream is a terminal. Used from one
 * thread. */
typedef struct app_term_progress {
    FILE *out;
    int enabled;            /* out is a terminal: draw at all */
    unsigned width;         /* longest line drawn (the terminal's columns - 1) */
    double start;           /* seconds (app_progress_clock) when the load began */
    double last_draw;       /* seconds of the last draw */
    int line_open;          /* a bar is on screen, its line not ended yet */
    size_t line_len;        /* characters of that line (a shorter redraw blanks the rest) */
    char what[256];         /* the stage last reported */
    double fraction;        /* and its fraction */
} app_term_progress;

/* Monotonic seconds. */
double app_progress_clock(void);
/* A bar on out (enabled: draw at all; width: its longest line) for a load that began at start
 * (seconds of the clock the steps use). */
void app_term_progress_init(app_term_progress *p, FILE *out, int enabled, unsigned width, double start);
/* A progress report at time now: drawn when due; the last call of a load ("") draws the bar full
 * on success and ends its line. */
void app_term_progress_step(app_term_progress *p, const char *what, double fraction, double now);
/* Ends the bar's line with a newline, if one is open, so other output (a warning, an error) starts
 * on its own line; the next step draws a new line. */
void app_term_progress_break(app_term_progress *p);

/* The program's bar on stderr, drawn only when stderr is a terminal (its width from the terminal,
 * else $COLUMNS, else 80). A load's first report begins it; the load's last report ("") or
 * app_progress_terminal_end ends it. Main thread only (the viewer's loads and main's first one). */
/* A report elapsed_s seconds after the load began. */
void app_progress_terminal(const char *what, double fraction, double elapsed_s);
/* An app_progress_fn on that bar, timing the load from its first report; user is unused. Never
 * cancels. */
int app_progress_terminal_fn(void *user, const char *what, double fraction);
/* Ends the load's line, if one is drawn (after app_scene_load, whatever it returned). */
void app_progress_terminal_end(void);
/* Ends the line before other output to stderr (a warning); the bar goes on on the next line. */
void app_progress_terminal_break(void);

#endif
