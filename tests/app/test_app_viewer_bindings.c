/* test_app_viewer_bindings.c - the viewer's binding table and camera, without a window (cpu).
 *
 * Table: names unique, no two bindings answer the same input, every key binding is found by its key
 * and modifiers, modifiers that a binding ignores really are ignored, --help prints every entry,
 * every view mode has its key, and the shadow bindings (L, 8, Shift+8, Ctrl+Left drag) do what they say.
 * Camera: orbit keeps the distance, pan moves eye and target together, zoom scales the distance,
 * fly moves along the view, fov stays in range, --camera round-trips through the printed form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "options.h"
#include "sctest.h"
#include "viewer_bindings.h"

static void test_names_unique_and_inputs_distinct(void)
{
    size_t n = 0;
    const app_binding *b = app_bindings(&n);
    SCT_REQUIRE(n >= 20);
    for (size_t i = 0; i < n; ++i) {
        SCT_CHECK_MSG(b[i].name && b[i].keys && b[i].description && b[i].description[0], "entry %zu incomplete", i);
        for (size_t j = i + 1; j < n; ++j) {
            SCT_CHECK_MSG(strcmp(b[i].name, b[j].name) != 0, "name %s twice", b[i].name);
            /* Two bindings clash when one input (kind, code, modifiers) matches both. */
            int same_input = b[i].kind == b[j].kind && (b[i].kind == APP_INPUT_SCROLL || b[i].code == b[j].code);
            if (!same_input) continue;
            for (int mods = 0; mods < 8; ++mods) {
                int mi = (mods & ~b[i].ignore_mods) == b[i].mods, mj = (mods & ~b[j].ignore_mods) == b[j].mods;
                SCT_CHECK_MSG(!(mi && mj), "%s and %s both answer mods %d", b[i].name, b[j].name, mods);
            }
        }
    }
}

static void test_every_key_is_found(void)
{
    size_t n = 0;
    const app_binding *b = app_bindings(&n);
    for (size_t i = 0; i < n; ++i) {
        if (b[i].kind == APP_INPUT_KEY) {
            SCT_CHECK_MSG(app_binding_for_key(b[i].code, b[i].mods) == &b[i], "%s not found", b[i].name);
            if (b[i].ignore_mods)
                SCT_CHECK_MSG(app_binding_for_key(b[i].code, b[i].mods | b[i].ignore_mods) == &b[i],
                              "%s not found with its ignored modifiers", b[i].name);
        } else if (b[i].kind == APP_INPUT_DRAG) {
            SCT_CHECK_MSG(app_binding_for_drag(b[i].code, b[i].mods) == &b[i], "%s not found", b[i].name);
        }
    }
    /* Ctrl+S saves, S (with or without Shift) flies back. */
    const app_binding *s = app_binding_for_key('S', APP_MOD_CONTROL);
    SCT_CHECK(s && s->action == APP_ACT_SCREENSHOT);
    s = app_binding_for_key('S', APP_MOD_SHIFT);
    SCT_CHECK(s && s->action == APP_ACT_FLY);
    SCT_CHECK(app_binding_for_key('S', APP_MOD_ALT) == NULL);
}

/* Every view mode is one key away (a mode added to sc_view_mode needs a binding), each by one key. */
static void test_every_mode_has_a_key(void)
{
    size_t n = 0;
    const app_binding *b = app_bindings(&n);
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) {
        int keys = 0;
        for (size_t i = 0; i < n; ++i) keys += b[i].action == APP_ACT_MODE && b[i].param == m;
        SCT_CHECK_MSG(keys == 1, "view mode %s has %d keys", app_mode_name((sc_view_mode)m), keys);
    }
    for (size_t i = 0; i < n; ++i) {
        if (b[i].action != APP_ACT_MODE) continue;
        char want[32];
        snprintf(want, sizeof want, "mode-%s", app_mode_name((sc_view_mode)b[i].param));
        SCT_CHECK_MSG(strcmp(b[i].name, want) == 0, "%s sets mode %s", b[i].name,
                      app_mode_name((sc_view_mode)b[i].param));
    }
}

/* L toggles shadows, 8 and Shift+8 the shadow views, Ctrl+Left drag moves the light (and a plain or
 * shifted left drag still orbits or pans). */
static void test_shadow_bindings(void)
{
    const app_binding *b = app_binding_for_key('L', 0);
    SCT_CHECK(b && b->action == APP_ACT_SHADOWS && strcmp(b->name, "shadows") == 0 && strcmp(b->keys, "L") == 0);
    b = app_binding_for_key(APP_KEY_1 + 7, 0);
    SCT_CHECK(b && b->action == APP_ACT_MODE && b->param == SC_VIEW_SHADOW && strcmp(b->keys, "8") == 0);
    b = app_binding_for_key(APP_KEY_1 + 7, APP_MOD_SHIFT);
    SCT_CHECK(b && b->action == APP_ACT_MODE && b->param == SC_VIEW_SHADOW_TESTS && strcmp(b->keys, "Shift+8") == 0);
    b = app_binding_for_drag(APP_BUTTON_LEFT, APP_MOD_CONTROL);
    SCT_CHECK(b && b->action == APP_ACT_LIGHT && strcmp(b->name, "light-move") == 0 &&
              strcmp(b->keys, "Ctrl+Left drag") == 0);
    b = app_binding_for_drag(APP_BUTTON_LEFT, 0);
    SCT_CHECK(b && b->action == APP_ACT_ORBIT);
    b = app_binding_for_drag(APP_BUTTON_LEFT, APP_MOD_SHIFT);
    SCT_CHECK(b && b->action == APP_ACT_PAN);
    SCT_CHECK(app_binding_for_drag(APP_BUTTON_LEFT, APP_MOD_CONTROL | APP_MOD_SHIFT) == NULL);
    SCT_CHECK(app_binding_for_key('L', APP_MOD_CONTROL) == NULL);
    /* 9 and 0 stay the heat-map scale. */
    b = app_binding_for_key(APP_KEY_9, 0);
    SCT_CHECK(b && b->action == APP_ACT_HEAT_MAX);
}

static void test_help_prints_every_entry(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    SCT_REQUIRE(f);
    app_print_usage(f);
    fclose(f);
    size_t n = 0;
    const app_binding *b = app_bindings(&n);
    for (size_t i = 0; i < n; ++i) SCT_CHECK_MSG(strstr(text, b[i].name) != NULL, "--help lacks %s", b[i].name);
    free(text);
    /* The overlay's buffers (viewer_glfw.c: 2048 bytes of keys, 4096 of descriptions) hold the table. */
    char keys[2048], descriptions[4096];
    size_t used = app_bindings_text(0, keys, sizeof keys);
    SCT_CHECK(used > 0 && used < sizeof keys - 1);
    used = app_bindings_text(1, descriptions, sizeof descriptions);
    SCT_CHECK(used > 0 && used < sizeof descriptions - 1);
    for (size_t i = 0; i < n; ++i) {
        SCT_CHECK_MSG(strstr(keys, b[i].keys) != NULL, "overlay lacks the keys of %s", b[i].name);
        SCT_CHECK_MSG(strstr(descriptions, b[i].description) != NULL, "overlay lacks %s", b[i].name);
    }
}

static float dist(const app_camera *c)
{
    float d = 0.0f;
    for (int k = 0; k < 3; ++k) d += (c->eye[k] - c->target[k]) * (c->eye[k] - c->target[k]);
    return sqrtf(d);
}

static void test_camera_moves(void)
{
    app_orbit orb;
    const double lo[3] = {-1, -2, -1}, hi[3] = {3, 2, 1};
    app_orbit_frame(lo, hi, &orb);
    app_camera c;
    app_camera_from_orbit(&c, &orb);
    float d0 = dist(&c);
    app_camera_orbit(&c, 0.7f, 0.3f);
    SCT_CHECK(fabsf(dist(&c) - d0) < 1e-4f * d0);
    app_camera_orbit(&c, 0.0f, 10.0f); /* pitch stays below the pole: a valid camera */
    sc_camera_desc cd = app_camera_desc(&c);
    SCT_CHECK(cd.near_plane > 0.0f && cd.far_plane > cd.near_plane && isfinite(cd.up[0]));
    app_camera before = c;
    app_camera_pan(&c, 0.25f, -0.1f);
    for (int k = 0; k < 3; ++k)
        SCT_CHECK(fabsf((c.eye[k] - before.eye[k]) - (c.target[k] - before.target[k])) < 1e-4f);
    app_camera_zoom(&c, 0.5f);
    SCT_CHECK(fabsf(dist(&c) - 0.5f * d0) < 1e-3f * d0);
    for (int i = 0; i < 200; ++i) app_camera_zoom(&c, 0.5f);
    SCT_CHECK(dist(&c) >= 0.0009f * c.radius);
    before = c;
    app_camera_fly(&c, 0.0f, 0.0f, 1.0f); /* one radius forward */
    float moved = 0.0f;
    for (int k = 0; k < 3; ++k) moved += (c.eye[k] - before.eye[k]) * (c.eye[k] - before.eye[k]);
    SCT_CHECK(fabsf(sqrtf(moved) - c.radius) < 1e-3f * c.radius);
    for (int i = 0; i < 100; ++i) app_camera_add_fov(&c, 5.0f);
    SCT_CHECK(fabsf(app_camera_fov_degrees(&c) - APP_CAMERA_MAX_FOV_DEG) < 1e-3f);
    for (int i = 0; i < 100; ++i) app_camera_add_fov(&c, -5.0f);
    SCT_CHECK(fabsf(app_camera_fov_degrees(&c) - APP_CAMERA_MIN_FOV_DEG) < 1e-3f);
}

static void test_camera_option_round_trips(void)
{
    app_orbit orb;
    const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    app_orbit_frame(lo, hi, &orb);
    app_camera c;
    app_camera_from_orbit(&c, &orb);
    app_camera_orbit(&c, 0.3f, -0.2f);
    app_camera_add_fov(&c, 7.0f);
    char line[256];
    app_camera_format(&c, line, sizeof line);
    SCT_REQUIRE(strncmp(line, "--camera ", 9) == 0);
    char *argv[] = {(char *)"slabcast", (char *)"--camera", line + 9, NULL};
    app_options o;
    SCT_REQUIRE(app_parse_options(3, argv, &o, stderr) == 0);
    SCT_REQUIRE(o.has_camera);
    app_camera back = c;
    SCT_REQUIRE(app_camera_set(&back, o.camera, o.camera + 3, o.camera[6]) == 0);
    for (int k = 0; k < 3; ++k) SCT_CHECK(back.eye[k] == c.eye[k] && back.target[k] == c.target[k]);
    SCT_CHECK(fabsf(back.fovy - c.fovy) <= 1e-6f);
    /* Refused: six numbers, eye == target, fov out of range, garbage. */
    const char *bad[] = {"1,2,3,4,5,6", "1,2,3,1,2,3,45", "0,0,5,0,0,0,1", "0,0,5,0,0,0,179", "0,0,5,0,0,0,45,",
                         "0,0,5,0,0,0,4x", "nan,0,5,0,0,0,45"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *a[] = {(char *)"slabcast", (char *)"--camera", (char *)bad[i], NULL};
        FILE *sink = fopen("/dev/null", "w");
        SCT_CHECK_MSG(app_parse_options(3, a, &o, sink ? sink : stderr) == -1, "--camera %s accepted", bad[i]);
        if (sink) fclose(sink);
    }
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "app_viewer_bindings");
    SCT_RUN(test_names_unique_and_inputs_distinct);
    SCT_RUN(test_every_key_is_found);
    SCT_RUN(test_every_mode_has_a_key);
    SCT_RUN(test_shadow_bindings);
    SCT_RUN(test_help_prints_every_entry);
    SCT_RUN(test_camera_moves);
    SCT_RUN(test_camera_option_round_trips);
    return sct_end();
}
