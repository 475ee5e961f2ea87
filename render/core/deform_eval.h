/* deform_eval.h - host: a deformation descriptor at a frame time as the per-vertex constants that
 * sc_deform_vertex (deform.h) applies (deform_eval.c; internal). */
#ifndef SC_DEFORM_EVAL_H
#define SC_DEFORM_EVAL_H

#include "deform.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* desc's floats are finite (the front end checks them); desc NULL: no deformation. */
void sc_deform_evaluate(const sc_deform_desc *desc, const float center[3], float radius, float time,
                        sc_deform_eval *out);

#ifdef __cplusplus
}
#endif
#endif /* SC_DEFORM_EVAL_H */
