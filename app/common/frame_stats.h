/* frame_stats.h - per-stage times of many frames: median and 95th percentile, printed and as JSON. */
#ifndef SLABCAST_APP_FRAME_STATS_H
#define SLABCAST_APP_FRAME_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "slabcast.h"

/* Frames whose stage times are kept for the quantiles; past this a uniform sample of them is kept
 * (reservoir sampling), so the log's memory does not grow with --frames. */
#define APP_FRAME_LOG_MAX 65536

typedef struct app_frame_log {
    sc_frame_stats *frames;      /* all frames added, or a uniform sample of capacity of them */
    int count, capacity;
    int64_t seen;                /* frames added */
    sc_frame_stats last;         /* the last frame added (valid when seen > 0) */
    uint64_t rng;                /* sampling state (fixed seed: runs are reproducible) */
    /* Optional: frames rendered back to back with no wait between them, and their wall time from the
     * first call to the end of the last frame (0 frames: not measured, not printed, null in JSON). */
    int pipelined_frames;
    double pipelined_ms;
} app_frame_log;

/* Initialises every field (nothing measured yet) for about `frames` frames. 0 or -1 (out of memory). */
int app_frame_log_init(app_frame_log *log, int frames);
void app_frame_log_add(app_frame_log *log, const sc_frame_stats *s);
void app_frame_log_free(app_frame_log *log);
/* value at quantile q (0.5 = median, nearest-rank) of one stage (SC_STAGE_COUNT = whole frame,
 * sc_frame_stats.frame_ms) over the frames kept. */
double app_frame_log_quantile(const app_frame_log *log, int stage, double q);
const char *app_stage_name(int stage);
void app_frame_log_print(const app_frame_log *log, FILE *f);
/* Writes the log as JSON to path; 0, or -1 after a "slabcast: <path>: <reason>" line on err. */
int app_frame_log_write_json(const app_frame_log *log, const char *path, const char *device, const char *mesh,
                             unsigned width, unsigned height, FILE *err);

/* JSON output helpers. A string is written quoted with ", \ and control characters escaped and each
 * byte that is not part of valid UTF-8 (overlong forms and surrogates included) replaced by
 * \ufffd, so any C string gives valid JSON. A non-finite number is written as null. */
void app_json_string(FILE *f, const char *s);
void app_json_number(FILE *f, double v);
/* v (app_json_number's form) when known is nonzero, else null. */
void app_json_number_or_null(FILE *f, int known, double v);
/* v as an unsigned integer when known is nonzero, else null. */
void app_json_u64_or_null(FILE *f, int known, uint64_t v);

#endif
