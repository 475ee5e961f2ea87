/* classify_zero_sign_variant.h - the body of classify_zero_sign_pos.c and _neg.c: classify.h compiled
 * with the fast path's zero results all ZS_ZERO_VALUE, its two functions named with ZS_NAME(...).
 * Included once per variant, after those two macros. */
#include <math.h>

static float zs_zero(float r) { return r == 0.0f ? ZS_ZERO_VALUE : r; }
#define SC_FIN_MIN(a, b) zs_zero(fminf((a), (b)))
#define SC_FIN_MAX(a, b) zs_zero(fmaxf((a), (b)))
#define SC_FIN_ABS(a) zs_zero(fabsf(a))
#include "classify_zero_sign.h"

int ZS_NAME(classify_zero)(const sc_frame_params *p, const float *a, const float *b, const float *c, sc_tri_setup *s)
{
    return sc_tri_classify(p, a, b, c, s);
}

int ZS_NAME(pixel_box_zero)(const sc_frame_params *p, const float *da, const float *db, const float *dc, int box[4])
{
    return sc_tri_pixel_box(p, da, db, dc, &box[0], &box[1], &box[2], &box[3]);
}
