/* frame_stats.h - per-stage times of many frames: median and 95th percentile, printed and as JSON. */
#ifndef SLABCAST_APP_FRAME_STATS_H
#define SLABCAST_APP_FRAME_STATS_H

#include <stdio.h>

#include "slabcast.h"

typedef struct app_frame_log {
    sc_frame_stats *frames;
    int count, capacity;
    /* Optional: frames rendered back to back with no wait between them, and their wall time from the
     * first call to the end of the last frame (0 frames: not measured). */
    int pipelined_frames;
    double pipelined_ms;
} app_frame_log;

int app_frame_log_init(app_frame_log *log, int capacity); /* 0 or -1 (out of memory) */
void app_frame_log_add(app_frame_log *log, const sc_frame_stats *s); /* drops frames past capacity */
void app_frame_log_free(app_frame_log *log);
/* value at quantile q (0.5 = median, nearest-rank) of one stage (SC_STAGE_COUNT = whole frame,
 * sc_frame_stats.frame_ms). */
double app_frame_log_quantile(const app_frame_log *log, int stage, double q);
const char *app_stage_name(int stage);
void app_frame_log_print(const app_frame_log *log, FILE *f);
int app_frame_log_write_json(const app_frame_log *log, const char *path, const char *device, const char *mesh,
                             unsigned width, unsigned height, FILE *err);

#endif
