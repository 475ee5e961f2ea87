/* deform_set.c - the descriptor of a set of deformers. */
#include "deform_set.h"

sc_deform_desc app_deform_desc(unsigned mask, float amount)
{
    sc_deform_desc d = {0};
    for (int k = 0; k < SC_DEFORMER_COUNT; ++k)
        if (mask & APP_DEFORM_BIT(k))
            *sc_deform_amount(&d, (sc_deformer)k) = sc_deformer_typical_amount((sc_deformer)k) * amount;
    return d;
}
