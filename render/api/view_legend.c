/* view_legend.c - the view modes: each one's name and description (slabcast.h: sc_view_mode_name,
 * sc_view_mode_from_name, sc_view_mode_description), the colour scale of the mode in force
 * (sc_renderer_get_view_legend) and the colour of a value on it (sc_renderer_view_color). Every mode
 * is described once, in mode_entry's switch, which names every sc_view_mode and has no default: a
 * mode added to the enum without its entry does not build (-Wswitch, an error with SLABCAST_WERROR).
 * The colours come from the inline functions the backends shade every pixel with (core/shade.h) and
 * the shading the front end resolved (r->shade), so a legend shows exactly the colours of the image. */
#include <math.h>
#include <string.h>

#include "renderer_internal.h"
#include "resolve.h"
#include "sc_report.h"
#include "shade.h"

/* The kinds of colour scale a mode's legend has. */
typedef enum legend_scale {
    SCALE_NONE = 0,   /* no numeric scale (has_scale 0) */
    SCALE_TILE_HEAT,  /* 0 .. heat max references per tile, log scale */
    SCALE_TESTS_HEAT, /* 0 .. heat max tests per pixel, log scale */
    SCALE_SLAB,       /* the slab classes 0 .. num_slabs - 1, one hue each */
    SCALE_DEPTH       /* 0 (near, white) .. 1 (far, black), linear */
} legend_scale;

typedef struct view_mode_entry {
    const char *name;        /* sc_view_mode_name */
    const char *description; /* sc_view_mode_description: what the programs' key lists show */
    const char *quantity;    /* sc_view_legend.quantity */
    legend_scale scale;
} view_mode_entry;

/* A mode's entry; all NULL for a value that is not an sc_view_mode. */
static view_mode_entry mode_entry(sc_view_mode mode)
{
    switch (mode) {
    case SC_VIEW_SHADED: return (view_mode_entry){"shaded", "shaded", "shaded", SCALE_NONE};
    case SC_VIEW_TRIANGLE_ID: return (view_mode_entry){"id", "triangle id", "triangle id", SCALE_NONE};
    case SC_VIEW_NORMALS: return (view_mode_entry){"normals", "normals", "shading normal", SCALE_NONE};
    case SC_VIEW_DEPTH:
        return (view_mode_entry){"depth", "depth", "depth in the frame's range (0 near, 1 far)", SCALE_DEPTH};
    case SC_VIEW_TILE_HEAT:
        return (view_mode_entry){"tiles", "triangles per tile", "triangles per tile", SCALE_TILE_HEAT};
    case SC_VIEW_SLAB: return (view_mode_entry){"slab", "slab of the hit", "slab of the hit", SCALE_SLAB};
    case SC_VIEW_TESTS_HEAT:
        return (view_mode_entry){"tests", "ray-triangle tests per pixel", "ray-triangle tests per pixel",
                                 SCALE_TESTS_HEAT};
    case SC_VIEW_SHADOW:
        return (view_mode_entry){"shadow", "lit / shadowed per light", "lit / shadowed per light", SCALE_NONE};
    case SC_VIEW_SHADOW_TESTS:
        return (view_mode_entry){"shadow-tests", "shadow-ray tests per pixel", "shadow-ray tests per pixel",
                                 SCALE_TESTS_HEAT};
    case SC_VIEW_MODE_COUNT: break;
    }
    return (view_mode_entry){NULL, NULL, NULL, SCALE_NONE};
}

const char *sc_view_mode_name(sc_view_mode mode) { return mode_entry(mode).name; }

const char *sc_view_mode_description(sc_view_mode mode) { return mode_entry(mode).description; }

int sc_view_mode_from_name(const char *name, sc_view_mode *out)
{
    if (!name || !out) return 0;
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m)
        if (strcmp(name, mode_entry((sc_view_mode)m).name) == 0) {
            *out = (sc_view_mode)m;
            return 1;
        }
    return 0;
}

/* The legend of mode s->mode under the resolved shading s and grid p. */
static void legend_of(const sc_shade_params *s, const sc_frame_params *p, sc_view_legend *out)
{
    const view_mode_entry e = mode_entry((sc_view_mode)s->mode);
    memset(out, 0, sizeof *out);
    out->mode = (sc_view_mode)s->mode;
    out->quantity = e.quantity ? e.quantity : "unknown mode";
    switch (e.scale) {
    case SCALE_NONE: return;
    case SCALE_TILE_HEAT:
        out->max_value = s->heat_max_tile;
        out->log_scale = 1;
        break;
    case SCALE_TESTS_HEAT:
        out->max_value = s->heat_max_tests;
        out->log_scale = 1;
        break;
    case SCALE_SLAB:
        out->max_value = (float)(p->num_slabs - 1);
        out->discrete = 1;
        out->classes = "slabs";
        break;
    case SCALE_DEPTH: out->max_value = 1.0f; break;
    }
    out->has_scale = 1;
}

sc_status sc_renderer_get_view_legend(const sc_renderer *r, sc_view_legend *out)
{
    static const char *const call = "sc_renderer_get_view_legend";
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: r (the renderer) is NULL", call);
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: out is NULL", call);
    legend_of(&r->shade, &r->params, out);
    return SC_OK;
}

/* The slab class of a finite value: floor(value) clamped to 0 .. num_slabs - 1 (compared as floats
 * before the conversion, which is defined only in range). */
static uint32_t slab_class(float value, uint32_t num_slabs)
{
    const float k = floorf(value);
    if (!(k > 0.0f)) return 0;
    if (k >= (float)(num_slabs - 1)) return num_slabs - 1;
    return (uint32_t)k;
}

/* The colour of a value in mode s->mode (a mode with a scale), as sc_shade_pixel computes it. */
static uint32_t scale_colour(const sc_shade_params *s, const sc_frame_params *p, float value)
{
    float rgb[3] = {0.0f, 0.0f, 0.0f};
    switch (mode_entry((sc_view_mode)s->mode).scale) {
    case SCALE_NONE: break; /* no scale: sc_renderer_view_color refuses it first */
    case SCALE_TILE_HEAT: sc_heat(sc_log_scale(value, s->heat_max_tile), rgb); break;
    case SCALE_TESTS_HEAT: sc_heat(sc_log_scale(value, s->heat_max_tests), rgb); break;
    case SCALE_SLAB: sc_hue((float)slab_class(value, p->num_slabs) / (float)p->num_slabs, rgb); break;
    case SCALE_DEPTH: rgb[0] = rgb[1] = rgb[2] = 1.0f - sc_clamp01(value); break;
    }
    return sc_pack_rgba8(rgb[0], rgb[1], rgb[2]);
}

sc_status sc_renderer_view_color(const sc_renderer *r, float value, uint8_t rgba[4])
{
    static const char *const call = "sc_renderer_view_color";
    if (!r) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: r (the renderer) is NULL", call);
    if (!rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: rgba is NULL", call);
    SC_TRY(sc_check_float(value, call, "value"));
    sc_view_legend legend;
    legend_of(&r->shade, &r->params, &legend);
    if (!legend.has_scale)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: the view mode in force (%s) has no colour scale", call,
                       legend.quantity);
    const uint32_t c = scale_colour(&r->shade, &r->params, value);
    /* The bytes in memory of the packed pixel (sc_pack_rgba8: R in the low byte). */
    for (int i = 0; i < 4; ++i) rgba[i] = (uint8_t)(c >> (8 * i));
    return SC_OK;
}
