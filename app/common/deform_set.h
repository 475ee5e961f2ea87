/* deform_set.h - a set of deformers as the programs hold it (a bit per sc_deformer) and the
 * deformation descriptor built from one, shared by the slabcast programs (slabcast, slabcast-bench). */
#ifndef SLABCAST_APP_DEFORM_SET_H
#define SLABCAST_APP_DEFORM_SET_H

#include "slabcast.h"

/* A set of deformers (--deform, the viewer's T key, slabcast-bench's --deform): bit d for deformer d
 * (sc_deformer). */
#define APP_DEFORM_BIT(deformer) (1u << (unsigned)(deformer))
#define APP_DEFORM_ALL ((1u << SC_DEFORMER_COUNT) - 1u)
/* The set the programs run when none is given. */
#define APP_DEFORM_DEFAULT (APP_DEFORM_BIT(SC_DEFORMER_TWIST) | APP_DEFORM_BIT(SC_DEFORMER_WAVE))

/* Builds the deformation descriptor for the deformers in mask, each at its typical amount
 * (sc_deformer_typical_amount: a visible, smooth motion) times amount (1: the default motion). */
sc_deform_desc app_deform_desc(unsigned mask, float amount);

#endif
