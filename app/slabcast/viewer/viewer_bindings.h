/* viewer_bindings.h - every key and mouse action of the viewer, as one table: the input handler
 * dispatches through it, --help prints it and the help overlay (F1, ?) draws it, so they agree.
 * Key and button codes are GLFW's values (checked against GLFW's header where the viewer is built),
 * so the table needs no GLFW header and --help works in builds without GLFW. */
#ifndef SLABCAST_APP_VIEWER_BINDINGS_H
#define SLABCAST_APP_VIEWER_BINDINGS_H

#include <stddef.h>
#include <stdio.h>

/* GLFW key codes (GLFW_KEY_*): printable keys are their upper-case ASCII code. */
enum {
    APP_KEY_SPACE = 32, APP_KEY_COMMA = 44, APP_KEY_MINUS = 45, APP_KEY_PERIOD = 46, APP_KEY_SLASH = 47,
    APP_KEY_0 = 48, APP_KEY_1 = 49, APP_KEY_9 = 57, APP_KEY_EQUAL = 61, APP_KEY_LEFT_BRACKET = 91, APP_KEY_RIGHT_BRACKET = 93,
    APP_KEY_ESCAPE = 256, APP_KEY_TAB = 258, APP_KEY_RIGHT = 262, APP_KEY_LEFT = 263, APP_KEY_DOWN = 264,
    APP_KEY_UP = 265, APP_KEY_PAGE_UP = 266, APP_KEY_PAGE_DOWN = 267, APP_KEY_F1 = 290, APP_KEY_F11 = 300,
    APP_KEY_KP_SUBTRACT = 333, APP_KEY_KP_ADD = 334
};
/* GLFW mouse buttons and modifier bits (GLFW_MOUSE_BUTTON_*, GLFW_MOD_*). */
enum { APP_BUTTON_LEFT = 0, APP_BUTTON_RIGHT = 1, APP_BUTTON_MIDDLE = 2 };
enum { APP_MOD_SHIFT = 1, APP_MOD_CONTROL = 2, APP_MOD_ALT = 4 };

typedef enum app_input_kind { APP_INPUT_KEY, APP_INPUT_DRAG, APP_INPUT_SCROLL } app_input_kind;

typedef enum app_action {
    APP_ACT_QUIT, APP_ACT_HELP, APP_ACT_HUD, APP_ACT_MODE, APP_ACT_PAUSE, APP_ACT_STEP, APP_ACT_DEFORM_NEXT,
    APP_ACT_CULL, APP_ACT_FLAT, APP_ACT_SCREENSHOT, APP_ACT_FRAME, APP_ACT_RESET, APP_ACT_FOV, APP_ACT_PRINT_CAMERA,
    APP_ACT_FLY, APP_ACT_TILE, APP_ACT_SLABS, APP_ACT_VSYNC, APP_ACT_FULLSCREEN, APP_ACT_ORBIT, APP_ACT_PAN,
    APP_ACT_ZOOM, APP_ACT_DEFORM_AMOUNT, APP_ACT_DEFORM_SPEED, APP_ACT_HEAT_MAX, APP_ACT_MODEL, APP_ACT_SHADOWS,
    APP_ACT_LIGHT
} app_action;

/* Fly directions (APP_ACT_FLY's param). */
enum { APP_FLY_FORWARD, APP_FLY_BACK, APP_FLY_LEFT, APP_FLY_RIGHT, APP_FLY_DOWN, APP_FLY_UP };

typedef struct app_binding {
    app_input_kind kind;
    int code;                 /* key (APP_KEY_* / ASCII) or mouse button; unused for scroll */
    int mods;                 /* APP_MOD_* that must be held */
    int ignore_mods;          /* APP_MOD_* that may be held or not (e.g. shift = faster) */
    const char *keys;         /* as shown to the user: "Shift+Left drag", "W" */
    const char *name;         /* short unique name: "fly-forward" (tests and scripts use it) */
    const char *description;
    app_action action;
    int param;                /* the view mode (sc_view_mode), a direction, +1 / -1 */
} app_binding;

/* The table, in the order --help and the overlay show it. */
const app_binding *app_bindings(size_t *count);
/* The binding of a key press (NULL: none). mods: the event's APP_MOD_* bits (others ignored). */
const app_binding *app_binding_for_key(int key, int mods);
/* The binding of a drag started with button (NULL: none). */
const app_binding *app_binding_for_drag(int button, int mods);
/* Prints the table: one line per binding, "  KEYS  NAME  DESCRIPTION" in aligned columns. */
void app_print_bindings(FILE *f);
/* One column of the table as text for the overlay, a line per binding: column 0 the keys, 1 the
 * descriptions (the overlay's font is proportional, so the columns are drawn apart). Returns the
 * length (truncated to size - 1). */
size_t app_bindings_text(int column, char *buf, size_t size);

#endif
