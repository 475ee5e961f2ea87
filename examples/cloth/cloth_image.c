/* cloth_image.c - the frame's parts recoloured and counted (cloth_image.h). */
#include "cloth_image.h"

#include <string.h>

static const float MODEL_ALBEDO[3] = {0.42f, 0.70f, 0.50f}; /* jade */
static const float GROUND_ALBEDO[3] = {0.58f, 0.58f, 0.56f}; /* grey */
static const float CLOTH_ALBEDO[3] = {0.86f, 0.20f, 0.16f};  /* red */

void cloth_model_albedo(float albedo[3]) { memcpy(albedo, MODEL_ALBEDO, sizeof MODEL_ALBEDO); }

static void recolour(uint8_t *px, const float to[3])
{
    for (int k = 0; k < 3; ++k) {
        const float v = (float)px[k] * to[k] / MODEL_ALBEDO[k] + 0.5f;
        px[k] = (uint8_t)(v < 255.0f ? v : 255.0f);
    }
}

void cloth_image_parts(uint8_t *rgba, const sc_hit *hits, uint32_t w, uint32_t h, uint32_t ground_first_tri,
                       uint32_t cloth_first_tri, cloth_coverage *coverage)
{
    memset(coverage, 0, sizeof *coverage);
    for (size_t i = 0; i < (size_t)w * h; ++i) {
        const uint32_t tri = hits[i].tri;
        if (tri == SC_NO_HIT) {
            ++coverage->background;
        } else if (tri >= cloth_first_tri) {
            ++coverage->cloth;
            recolour(rgba + 4 * i, CLOTH_ALBEDO);
        } else if (tri >= ground_first_tri) {
            ++coverage->ground;
            recolour(rgba + 4 * i, GROUND_ALBEDO);
        } else {
            ++coverage->model;
        }
    }
}
