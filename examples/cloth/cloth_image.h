/* cloth_image.h - a frame's pixels by part of the scene. The renderer shades the one mesh with one albedo,
 * the model's; the frames written give the ground's and the cloth's pixels colours of their own, found
 * through the hit buffer (each pixel's triangle), and count each part's pixels. */
#ifndef CLOTH_IMAGE_H
#define CLOTH_IMAGE_H

#include <slabcast.h>

typedef struct cloth_coverage {
    uint64_t model, ground, cloth, background; /* pixels whose ray hits each part, or nothing */
} cloth_coverage;

/* The model's albedo: the renderer's (sc_shading_desc.albedo). */
void cloth_model_albedo(float albedo[3]);

/* Recolours rgba (w x h RGBA8, the renderer's image of the frame whose hits are given) in place:
 * triangles from ground_first_tri on are the ground's 2, from cloth_first_tri on the cloth's. The
 * shading is linear in the albedo, so a pixel's colour scaled by the ratio of two albedos is the colour
 * the other albedo gives. Counts each part's pixels into *coverage. */
void cloth_image_parts(uint8_t *rgba, const sc_hit *hits, uint32_t w, uint32_t h, uint32_t ground_first_tri,
                       uint32_t cloth_first_tri, cloth_coverage *coverage);

#endif /* CLOTH_IMAGE_H */
