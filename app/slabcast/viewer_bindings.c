/* viewer_bindings.c - the viewer's keys and mouse actions (see viewer_bindings.h). */
#include "viewer_bindings.h"

#include <string.h>

#include "slabcast.h"

#define KEY(code, mods, ignore, keys, name, desc, action, param) \
    {APP_INPUT_KEY, (code), (mods), (ignore), (keys), (name), (desc), (action), (param)}
#define DRAG(button, mods, keys, name, desc, action) \
    {APP_INPUT_DRAG, (button), (mods), 0, (keys), (name), (desc), (action), 0}

static const app_binding k_bindings[] = {
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
    KEY(APP_KEY_1 + 0, 0, 0, "1", "mode-shaded", "view mode: shaded", APP_ACT_MODE, SC_VIEW_SHADED),
    KEY(APP_KEY_1 + 1, 0, 0, "2", "mode-id", "view mode: triangle id", APP_ACT_MODE, SC_VIEW_TRIANGLE_ID),
    KEY(APP_KEY_1 + 2, 0, 0, "3", "mode-normals", "view mode: normals", APP_ACT_MODE, SC_VIEW_NORMALS),
    KEY(APP_KEY_1 + 3, 0, 0, "4", "mode-depth", "view mode: depth", APP_ACT_MODE, SC_VIEW_DEPTH),
    KEY(APP_KEY_1 + 4, 0, 0, "5", "mode-tiles", "view mode: triangles per tile", APP_ACT_MODE, SC_VIEW_TILE_HEAT),
    KEY(APP_KEY_1 + 5, 0, 0, "6", "mode-slab", "view mode: slab of the hit", APP_ACT_MODE, SC_VIEW_SLAB),
    KEY(APP_KEY_1 + 6, 0, 0, "7", "mode-tests", "view mode: ray-triangle tests per pixel", APP_ACT_MODE,
        SC_VIEW_TESTS_HEAT),
    KEY(APP_KEY_1 + 7, 0, 0, "8", "mode-shadow", "view mode: lit / shadowed per light", APP_ACT_MODE, SC_VIEW_SHADOW),
    KEY(APP_KEY_1 + 7, APP_MOD_SHIFT, 0, "Shift+8", "mode-shadow-tests", "view mode: shadow-ray tests per pixel",
        APP_ACT_MODE, SC_VIEW_SHADOW_TESTS),
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
#define APP_BINDING_COUNT (sizeof k_bindings / sizeof k_bindings[0])

const app_binding *app_bindings(size_t *count)
{
    *count = APP_BINDING_COUNT;
    return k_bindings;
}

static int mods_match(const app_binding *b, int mods)
{
    mods &= APP_MOD_SHIFT | APP_MOD_CONTROL | APP_MOD_ALT;
    return (mods & ~b->ignore_mods) == b->mods;
}

const app_binding *app_binding_for_key(int key, int mods)
{
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        if (k_bindings[i].kind == APP_INPUT_KEY && k_bindings[i].code == key && mods_match(&k_bindings[i], mods))
            return &k_bindings[i];
    return NULL;
}

const app_binding *app_binding_for_drag(int button, int mods)
{
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        if (k_bindings[i].kind == APP_INPUT_DRAG && k_bindings[i].code == button && mods_match(&k_bindings[i], mods))
            return &k_bindings[i];
    return NULL;
}

void app_print_bindings(FILE *f)
{
    for (size_t i = 0; i < APP_BINDING_COUNT; ++i)
        fprintf(f, "  %-16s %-18s %s\n", k_bindings[i].keys, k_bindings[i].name, k_bindings[i].description);
}

size_t app_bindings_text(int column, char *buf, size_t size)
{
    size_t len = 0;
    if (size) buf[0] = '\0';
    for (size_t i = 0; i < APP_BINDING_COUNT && len < size; ++i) {
        int n = snprintf(buf + len, size - len, "%s\n", column == 0 ? k_bindings[i].keys : k_bindings[i].description);
        if (n < 0) break;
        len += (size_t)n;
    }
    return len < size ? len : (size ? size - 1 : 0);
}
