/* resolve.h - the front end's checks and defaults (internal to api/): every descriptor is checked
 * (every float finite, every field in range, naming the field) and its defaults filled here, once;
 * the backends receive resolved values only. */
#ifndef SC_RESOLVE_H
#define SC_RESOLVE_H

#include "sc_frame.h"
#include "shade.h"
#include "slabcast.h"

/* INVALID_ARGUMENT (reported) when v is NaN or infinite: "<call>: <field> is NaN". */
sc_status sc_check_float(float v, const char *call, const char *field);

/* The pitch of a caller's image of height rows of width RGBA8 pixels: pitch, or 4 x width when 0, into
 * *out; INVALID_ARGUMENT (reported, naming call) when it is below a row or its rows reach past the
 * address space (sc_image_extent_ok). */
sc_status sc_resolve_pitch(size_t pitch, uint32_t width, uint32_t height, const char *call, size_t *out);

/* Checks a camera and fills its defaults. */
sc_status sc_resolve_camera(const sc_camera_desc *in, sc_camera_desc *out);
/* A view of the whole bounding sphere (center, radius) from +z (or -z); 0 when the float range
 * has no such camera. */
int sc_default_camera(const float center[3], float radius, sc_camera_desc *out);
/* The camera fields of *p from a resolved camera and p's target size. */
void sc_camera_frame_params(const sc_camera_desc *camera, sc_frame_params *p);

/* Checks a shading descriptor (NULL: defaults) and fills its defaults into *out (light direction
 * normalised), and the backends' per-pixel inputs into *shade. */
sc_status sc_resolve_shading(const sc_shading_desc *in, sc_shading_desc *out, sc_shade_params *shade);

/* Checks count lights and writes them resolved to out (colour and intensity defaults, unit directions). */
sc_status sc_resolve_lights(const sc_light_desc *in, uint32_t count, sc_light_desc *out);
/* The lights part of the backends' shading inputs: resolved lights, the shadows option, the mesh centre. */
void sc_light_shade_params(const sc_light_desc *lights, uint32_t count, int shadows, const float center[3],
                           sc_shade_params *sp);

/* Every float of a deformation descriptor must be finite. */
sc_status sc_check_deform(const sc_deform_desc *d);

#endif /* SC_RESOLVE_H */
