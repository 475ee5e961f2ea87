/* view_legend.c - the colour scale of the view mode in force (sc_renderer_get_view_legend) and the
 * colour of a value on it (sc_renderer_view_color). The colours come from the inline functions the
 * backends shade every pixel with (core/shade.h) and the shading the front end resolved (r->shade),
 * so a legend shows exactly the colours of the image. */
#include <math.h>
#include <string.h>

#include "renderer_internal.h"
#include "resolve.h"
#include "sc_report.h"
#include "shade.h"

/* The legend of mode `mode` under the resolved shading s and grid p. */
static void legend_of(const sc_shade_params *s, const sc_frame_params *p, sc_view_legend *out)
{
    memset(out, 0, sizeof *out);
    out->mode = (sc_view_mode)s->mode;
    switch (s->mode) {
    case SC_VIEW_TILE_HEAT:
        out->max_value = s->heat_max_tile;
        out->log_scale = 1;
        out->quantity = "triangles per tile";
        break;
    case SC_VIEW_TESTS_HEAT:
        out->max_value = s->heat_max_tests;
        out->log_scale = 1;
        out->quantity = "ray-triangle tests per pixel";
        break;
    case SC_VIEW_SHADOW_TESTS:
        out->max_value = s->heat_max_tests;
        out->log_scale = 1;
        out->quantity = "shadow-ray tests per pixel";
        break;
    case SC_VIEW_SLAB:
        out->max_value = (float)(p->num_slabs - 1);
        out->discrete = 1;
        out->quantity = "slab of the hit";
        break;
    case SC_VIEW_DEPTH:
        out->max_value = 1.0f;
        out->quantity = "depth in the frame's range (0 near, 1 far)";
        break;
    case SC_VIEW_TRIANGLE_ID:
        out->quantity = "triangle id";
        return;
    case SC_VIEW_NORMALS:
        out->quantity = "shading normal";
        return;
    case SC_VIEW_SHADOW:
        out->quantity = "lit / shadowed per light";
        return;
    default:
        out->quantity = "shaded";
        return;
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
    switch (s->mode) {
    case SC_VIEW_TILE_HEAT:
        sc_heat(sc_log_scale(value, s->heat_max_tile), rgb);
        break;
    case SC_VIEW_TESTS_HEAT:
    case SC_VIEW_SHADOW_TESTS:
        sc_heat(sc_log_scale(value, s->heat_max_tests), rgb);
        break;
    case SC_VIEW_SLAB:
        sc_hue((float)slab_class(value, p->num_slabs) / (float)p->num_slabs, rgb);
        break;
    default: /* SC_VIEW_DEPTH */
        rgb[0] = rgb[1] = rgb[2] = 1.0f - sc_clamp01(value);
        break;
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
