/* hud.h - text panels drawn over the viewer's image (statistics, help): stb_easy_font's quads in a
 * vertex buffer, drawn by a small GL 3.3 core shader over a translucent background. Every GL call is
 * checked; a failure returns -1 with a message naming the call in app_hud_error(). Needs the
 * current GL context of the window. */
#ifndef SLABCAST_APP_HUD_H
#define SLABCAST_APP_HUD_H

typedef struct app_hud app_hud;

/* A rectangle in window pixels, origin at the top-left corner. */
typedef struct app_rect { int x, y, w, h; } app_rect;

/* 0, or -1 with the reason in app_hud_error(). */
int app_hud_create(app_hud **out);
void app_hud_destroy(app_hud *hud);
const char *app_hud_error(void);
/* The panel that text (lines split by '\n') takes at (x, y) with the given pixel scale (1, 2, ...),
 * clipped to the framebuffer. */
app_rect app_hud_measure(const char *text, int x, int y, int scale, int fb_width, int fb_height);
/* Draws the panel: background, then the text; *drawn (may be NULL) gets the panel's rectangle. */
int app_hud_draw(app_hud *hud, const char *text, int x, int y, int scale, int fb_width, int fb_height,
                       app_rect *drawn);

#endif
