/* hud_graphics.h - the viewer's graphic overlays, built from the HUD's rectangles and text (hud.h):
 * the colour-bar legend of the view mode's scale, the per-stage bar graph under the statistics, and
 * the notice banner. Each draws one panel, returns 0 or -1 (the reason in app_hud_error()), and puts
 * the panel's rectangle in *drawn (0 size when it draws nothing). Scale: HUD pixels per font pixel
 * (1, 2). */
#ifndef SLABCAST_APP_HUD_GRAPHICS_H
#define SLABCAST_APP_HUD_GRAPHICS_H

#include "hud.h"
#include "slabcast.h"

#define APP_LEGEND_WIDTH 256       /* the colour bar's length at scale 1 (narrower windows: the window) */
#define APP_LEGEND_HEIGHT 14       /* the colour bar's height at scale 1 */
#define APP_LEGEND_MAX_BOXES 32    /* a discrete scale of up to this many classes: one box per class */

/* The legend of the renderer's view mode in force at the bottom-left corner, over the image: the
 * colour bar (sc_renderer_view_color across the scale, log spaced on a log scale, one box per class
 * on a discrete one), tick labels (the top one "max+" where values above it are clamped), and the
 * quantity as a caption. Nothing when the mode has no scale. */
int app_hud_draw_legend(app_hud *hud, const sc_renderer *r, int scale, int fb_width, int fb_height, app_rect *drawn);

/* Under a panel of width `width` at (x, y): one horizontal bar whose segments are the stages'
 * shares of the sum of st->stage_ms, one colour per stage, and a key of the stage names in their
 * colours. A grey bar when the times are all 0 (no frame yet). */
int app_hud_draw_stage_graph(app_hud *hud, const sc_frame_stats *st, int x, int y, int width, int scale, int fb_width,
                             int fb_height, app_rect *drawn);

/* One line of text on a dark translucent band, centred horizontally, its bottom edge at `bottom`. */
int app_hud_draw_banner(app_hud *hud, const char *text, int bottom, int scale, int fb_width, int fb_height,
                        app_rect *drawn);

#endif
