/* classify_zero_sign_neg.c - classify.h with the fast path's zero results all -0.0f (classify_zero_sign.h). */
#define ZS_ZERO_VALUE (-0.0f)
#define ZS_NAME(f) f##_neg
#include "classify_zero_sign_variant.h"
