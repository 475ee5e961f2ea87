/* classify_zero_sign.h - sc_tri_classify and sc_tri_pixel_box compiled with the finite fast path's
 * minimum, maximum and magnitude (classify.h's SC_FIN_*) returning +0 (classify_zero_sign_pos.c) or -0
 * (classify_zero_sign_neg.c) for every zero result: the two extremes of what fminf / fmaxf / fabsf may
 * give where the select forms keep the other sign (test_classify_zero_sign). */
#ifndef CLASSIFY_ZERO_SIGN_H
#define CLASSIFY_ZERO_SIGN_H

#include "classify.h"

int classify_zero_pos(const sc_frame_params *p, const float *a, const float *b, const float *c, sc_tri_setup *s);
int pixel_box_zero_pos(const sc_frame_params *p, const float *da, const float *db, const float *dc, int box[4]);
int classify_zero_neg(const sc_frame_params *p, const float *a, const float *b, const float *c, sc_tri_setup *s);
int pixel_box_zero_neg(const sc_frame_params *p, const float *da, const float *db, const float *dc, int box[4]);

#endif /* CLASSIFY_ZERO_SIGN_H */
