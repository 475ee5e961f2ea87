/* viewer_bindings.c - the viewer's keys and mouse actions (see viewer_bindings.h). */
#include "viewer_bindings.h"

#include <stdio.h>
#include <string.h>

#include "slabcast.h"

#define KEY(code, mods, ignore, keys, name, desc, action, param) \
    {APP_INPUT_KEY, (code), (mods), (ignore), (keys), (name), (desc), (action), (param)}
#define DRAG(button, mods, keys, name, desc, action) \
    {APP_INPUT_DRAG, (button), (mods), 0, (keys), (name), (desc), (action), 0}

/* The bindings before the view modes' keys and after them, in the order --help and the overlay show
 * them; the view modes' own come from the library in between (below). */
static const app_binding k_before_modes[] = {
    DRAG(APP_BUTTON_LEFT, 0, "Left drag", "orbit", "orbit around the target", APP_ACT_ORBIT),
    DRAG(APP_BUTTON_RIGHT, 0, "Right drag", "pan", "pan (move eye and target)", APP_ACT_PAN),
    DRAG(APP_BUTTON_MIDDLE, 0, "Middle drag", "pan-middle", "pan", APP_ACT_PAN),
    DRAG(APP_BUTTON_LEFT, APP_MOD_SHIFT, "Shift+Left drag", "pan-shift", "pan", APP_ACT_PAN),
    DRAG(APP_BUTTON_LEFT, APP_MOD_CONTROL, "Ctrl+Left drag", "light-move",
         "move the first light around the model (none yet: the default light)", APP_ACT_LIGHT),
    {APP_INPUT_SCROLL, 0, 0, 0, "Wheel", "zoom", "zoom towards / away from the target", APP_ACT_ZOOM, 0},
    KEY('W', 0, APP_MOD_SHIFT, "W", "fly-forward", "fly forward (Shift: faster)", APP_ACT_FLY, APP_FLY_FORWARD),
    KEY('S', 0, APP_MOD_SHIFT, "S", "fly-back", "fly back (Shift: faster)", APP_ACT_FLY, APP_FLY_BACK),
    KEY('A', 0, APP_MOD_SHIFT, "A", "fly-left", "fly left (Shift: faster)", APP_ACT_FLY, APP_FLY_LEFT),
    KEY('D', 0, APP_MOD_SHIFT, "D", "fly-right", "fly right (Shift: faster)", APP_ACT_FLY, APP_FLY_RIGHT),
    KEY('Q', 0, APP_MOD_SHIFT, "Q", "fly-down", "fly down (Shift: faster)", APP_ACT_FLY, APP_FLY_DOWN),
    KEY('E', 0, APP_MOD_SHIFT, "E", "fly-up", "fly up (Shift: faster)", APP_ACT_FLY, APP_FLY_UP),
    KEY('F', 0, 0, "F", "frame", "frame the model", APP_ACT_FRAME, 0),
    KEY('R', 0, 0, "R", "reset", "reset the camera", APP_ACT_RESET, 0),
    KEY(APP_KEY_EQUAL, 0, APP_MOD_SHIFT, "+ (=)", "fov-in", "narrower field of view (5 degrees)", APP_ACT_FOV, -1),
    KEY(APP_KEY_KP_ADD, 0, 0, "Keypad +", "fov-in-keypad", "narrower field of view", APP_ACT_FOV, -1),
    KEY(APP_KEY_MINUS, 0, 0, "-", "fov-out", "wider field of view (5 degrees)", APP_ACT_FOV, +1),
    KEY(APP_KEY_KP_SUBTRACT, 0, 0, "Keypad -", "fov-out-keypad", "wider field of view", APP_ACT_FOV, +1),
    KEY('P', 0, 0, "P", "print-camera", "print the camera as a --camera option", APP_ACT_PRINT_CAMERA, 0),
};

static const app_binding k_after_modes[] = {
    KEY('L', 0, 0, "L", "shadows", "shadows on / off (no light yet: the default light)", APP_ACT_SHADOWS, 0),
    KEY('B', 0, 0, "B", "cull", "back-face culling on / off", APP_ACT_CULL, 0),
    KEY('N', 0, 0, "N", "flat", "flat / smooth normals", APP_ACT_FLAT, 0),
    KEY('T', 0, 0, "T", "deform-next", "next set of deformers", APP_ACT_DEFORM_NEXT, 0),
    KEY(APP_KEY_UP, 0, 0, "Up", "deform-more", "deformers 25% stronger", APP_ACT_DEFORM_AMOUNT, +1),
    KEY(APP_KEY_DOWN, 0, 0, "Down", "deform-less", "deformers 20% weaker", APP_ACT_DEFORM_AMOUNT, -1),
    KEY(APP_KEY_PAGE_UP, 0, 0, "PageUp", "speed-up", "animation twice as fast", APP_ACT_DEFORM_SPEED, +1),
    KEY(APP_KEY_PAGE_DOWN, 0, 0, "PageDown", "speed-down", "animation half as fast", APP_ACT_DEFORM_SPEED, -1),
    KEY(APP_KEY_0, 0, 0, "0", "heat-max-up", "heat-map scale: hottest colour at twice the count", APP_ACT_HEAT_MAX, +1),
    KEY(APP_KEY_9, 0, 0, "9", "heat-max-down", "heat-map scale: hottest colour at half the count",
        APP_ACT_HEAT_MAX, -1),
    KEY(APP_KEY_TAB, 0, 0, "Tab", "model-next", "next model file (drop files on the window to add them)",
        APP_ACT_MODEL, +1),
    KEY(APP_KEY_TAB, APP_MOD_SHIFT, 0, "Shift+Tab", "model-previous", "previous model file", APP_ACT_MODEL, -1),
    KEY(APP_KEY_SPACE, 0, 0, "Space", "pause", "pause / run the animation", APP_ACT_PAUSE, 0),
    KEY(APP_KEY_RIGHT, 0, APP_MOD_SHIFT, "Right", "step-forward",
        "pause and step 1 frame forward (Shift: 1 s)", APP_ACT_STEP, +1),
    KEY(APP_KEY_LEFT, 0, APP_MOD_SHIFT, "Left", "step-back", "pause and step 1 frame back (Shift: 1 s)",
        APP_ACT_STEP, -1),
    KEY(APP_KEY_LEFT_BRACKET, 0, 0, "[", "tile-smaller", "halve the tile size", APP_ACT_TILE, -1),
    KEY(APP_KEY_RIGHT_BRACKET, 0, 0, "]", "tile-larger", "double the tile size", APP_ACT_TILE, +1),
    KEY(APP_KEY_COMMA, 0, 0, ",", "slabs-fewer", "halve the slab count", APP_ACT_SLABS, -1),
    KEY(APP_KEY_PERIOD, 0, 0, ".", "slabs-more", "double the slab count", APP_ACT_SLABS, +1),
    KEY('H', 0, 0, "H", "hud", "statistics, stage graph, colour legend and notices on / off", APP_ACT_HUD, 0),
    KEY(APP_KEY_F1, 0, 0, "F1", "help", "this help on / off", APP_ACT_HELP, 0),
    KEY(APP_KEY_SLASH, APP_MOD_SHIFT, 0, "?", "help-question", "this help on / off", APP_ACT_HELP, 0),
    KEY('V', 0, 0, "V", "vsync", "vertical sync on / off", APP_ACT_VSYNC, 0),
    KEY(APP_KEY_F11, 0, 0, "F11", "fullscreen", "fullscreen on / off", APP_ACT_FULLSCREEN, 0),
    KEY('S', APP_MOD_CONTROL, 0, "Ctrl+S", "screenshot",
        "save slabcast-NNNN.png in the current directory (never overwrites)", APP_ACT_SCREENSHOT, 0),
    KEY(APP_KEY_ESCAPE, 0, 0, "Esc", "quit", "quit", APP_ACT_QUIT, 0),
};

/* The view modes' keys, taken in sc_view_mode's order: 1 to 8, then the digits with Shift from 8 down.
 * Each mode's binding is named "mode-" and its name, and described by its description
 * (sc_view_mode_name, sc_view_mode_description), so a mode added to the library gets the next key. */
static const struct mode_key { int code, mods; const char *keys; } k_mode_keys[] = {
    {APP_KEY_1 + 0, 0, "1"},
    {APP_KEY_1 + 1, 0, "2"},
    {APP_KEY_1 + 2, 0, "3"},
    {APP_KEY_1 + 3, 0, "4"},
    {APP_KEY_1 + 4, 0, "5"},
    {APP_KEY_1 + 5, 0, "6"},
    {APP_KEY_1 + 6, 0, "7"},
    {APP_KEY_1 + 7, 0, "8"},
    {APP_KEY_1 + 7, APP_MOD_SHIFT, "Shift+8"},
    {APP_KEY_1 + 6, APP_MOD_SHIFT, "Shift+7"},
    {APP_KEY_1 + 5, APP_MOD_SHIFT, "Shift+6"},
    {APP_KEY_1 + 4, APP_MOD_SHIFT, "Shift+5"},
    {APP_KEY_1 + 3, APP_MOD_SHIFT, "Shift+4"},
    {APP_KEY_1 + 2, APP_MOD_SHIFT, "Shift+3"},
    {APP_KEY_1 + 1, APP_MOD_SHIFT, "Shift+2"},
    {APP_KEY_1 + 0, APP_MOD_SHIFT, "Shift+1"},
};
_Static_assert(sizeof k_mode_keys / sizeof k_mode_keys[0] >= SC_VIEW_MODE_COUNT, "a key for every view mode");

enum {
    BEFORE_MODES = sizeof k_before_modes / sizeof k_before_modes[0],
    AFTER_MODES = sizeof k_after_modes / sizeof k_after_modes[0],
    APP_BINDING_COUNT = BEFORE_MODES + SC_VIEW_MODE_COUNT + AFTER_MODES,
    MODE_TEXT = 96 /* a mode binding's name or description */
};

/* The whole table, put together on first use (the viewer and --help use it from one thread). */
static const app_binding *table(void)
{
    static app_binding all[APP_BINDING_COUNT];
    static char names[SC_VIEW_MODE_COUNT][MODE_TEXT], descriptions[SC_VIEW_MODE_COUNT][MODE_TEXT];
    static int built;
    if (built) return all;
    memcpy(all, k_before_modes, sizeof k_before_modes);
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        snprintf(names[m], MODE_TEXT, "mode-%s", sc_view_mode_name((sc_view_mode)m));
        snprintf(descriptions[m], MODE_TEXT, "view mode: %s", sc_view_mode_description((sc_view_mode)m));
        all[BEFORE_MODES + m] = (app_binding){APP_INPUT_KEY, k_mode_keys[m].code, k_mode_keys[m].mods, 0,
                                              k_mode_keys[m].keys, names[m], descriptions[m], APP_ACT_MODE, m};
    }
    memcpy(all + BEFORE_MODES + SC_VIEW_MODE_COUNT, k_after_modes, sizeof k_after_modes);
    built = 1;
    return all;
}

const app_binding *app_bindings(size_t *count)
{
    *count = APP_BINDING_COUNT;
    return table();
}

static int mods_match(const app_binding *b, int mods)
{
    mods &= APP_MOD_SHIFT | APP_MOD_CONTROL | APP_MOD_ALT;
    return (mods & ~b->ignore_mods) == b->mods;
}

const app_binding *app_binding_for_key(int key, int mods)
{
    const app_binding *t = table();
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        if (t[i].kind == APP_INPUT_KEY && t[i].code == key && mods_match(&t[i], mods))
            return &t[i];
    return NULL;
}

const app_binding *app_binding_for_drag(int button, int mods)
{
    const app_binding *t = table();
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        if (t[i].kind == APP_INPUT_DRAG && t[i].code == button && mods_match(&t[i], mods))
            return &t[i];
    return NULL;
}

void app_print_bindings(FILE *f)
{
    const app_binding *t = table();
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        fprintf(f, "  %-16s %-18s %s\n", t[i].keys, t[i].name, t[i].description);
}

size_t app_bindings_text(int column, char *buf, size_t size)
{
    const app_binding *t = table();
    size_t len = 0;
    if (size) buf[0] = '\0';
    for (size_t i = 0; i < APP_BINDING_COUNT && len < size; ++i) {
        int n = snprintf(buf + len, size - len, "%s\n", column == 0 ? t[i].keys : t[i].description);
        if (n < 0) break;
        len += (size_t)n;
    }
    return len < size ? len : (size ? size - 1 : 0);
}
