/* hud.h - panels drawn over the viewer's image (statistics, help, legends): filled rectangles and
 * stb_easy_font text, collected into a batch of vertex-coloured triangles and drawn in one call by a
 * small GL 3.3 core shader, blended by their alpha in the order added. Every GL call is checked; a
 * failure returns -1 with a message naming the call in app_hud_error(). Needs the current GL context
 * of the window. Text is ASCII: other bytes are drawn as '?'. */
#ifndef SLABCAST_APP_HUD_H
#define SLABCAST_APP_HUD_H

typedef struct app_hud app_hud;

/* A rectangle in window pixels, origin at the top-left corner. */
typedef struct app_rect { int x, y, w, h; } app_rect;

#define APP_HUD_PAD 4              /* pixels of background around a panel's contents, at scale 1 */
#define APP_HUD_LINE 12            /* pixels from one text line to the next, at scale 1 */

/* 0, or -1 with the reason in app_hud_error(). */
int app_hud_create(app_hud **out);
void app_hud_destroy(app_hud *hud);
const char *app_hud_error(void);
/* Records the reason app_hud_error() gives (printf format) and returns -1, for the overlays built on
 * the HUD (hud_graphics.c). */
int app_hud_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The panel that text (lines split by '\n') takes at (x, y) with the given pixel scale (1, 2, ...),
 * padding included, clipped to the framebuffer. */
app_rect app_hud_measure(const char *text, int x, int y, int scale, int fb_width, int fb_height);
/* The size of text alone (no padding) at the given scale. */
void app_hud_text_size(const char *text, int scale, int *width, int *height);
/* Draws the panel: background, then the text; *drawn (may be NULL) gets the panel's rectangle. */
int app_hud_draw(app_hud *hud, const char *text, int x, int y, int scale, int fb_width, int fb_height,
                 app_rect *drawn);

/* The batch: app_hud_begin empties it, the adds append (later over earlier), app_hud_flush draws it
 * inside `clip` only (nothing outside changes) and leaves GL as the display pass expects (no
 * program, no vertex array, blending and scissor test off). The adds fail (-1) only for host
 * memory. */
void app_hud_begin(app_hud *hud);
/* A filled rectangle; colours are R, G, B, A bytes (A: opacity). Empty rectangles add nothing. */
int app_hud_add_rect(app_hud *hud, app_rect r, const unsigned char rgba[4]);
/* Text with its top-left corner at (x, y), no background. */
int app_hud_add_text(app_hud *hud, const char *text, int x, int y, int scale, const unsigned char rgba[4]);
int app_hud_flush(app_hud *hud, app_rect clip, int fb_width, int fb_height);

/* The smallest rectangle holding a and b (an empty one counts as none). */
app_rect app_rect_union(app_rect a, app_rect b);
/* r clipped to the framebuffer. */
app_rect app_rect_clip(app_rect r, int fb_width, int fb_height);

#endif
