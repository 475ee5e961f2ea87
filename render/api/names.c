/* names.c - the backends' names (slabcast.h: sc_backend_name, sc_backend_from_name), which programs,
 * logs and help texts take from here. The switch names every sc_backend and has no default, so a
 * backend added to the enum without a name does not build (-Wswitch, an error with
 * SLABCAST_WERROR). The view modes' names live with their legends (view_legend.c), the deformers'
 * with their checks (resolve.c). */
#include <string.h>

#include "slabcast.h"

const char *sc_backend_name(sc_backend backend)
{
    switch (backend) {
    case SC_BACKEND_DEFAULT: return "auto";
    case SC_BACKEND_CPU: return "cpu";
    case SC_BACKEND_CUDA: return "cuda";
    case SC_BACKEND_COUNT: break;
    }
    return NULL;
}

int sc_backend_from_name(const char *name, sc_backend *out)
{
    if (!name || !out) return 0;
    for (int b = 0; b < SC_BACKEND_COUNT; ++b)
        if (strcmp(name, sc_backend_name((sc_backend)b)) == 0) {
            *out = (sc_backend)b;
            return 1;
        }
    if (strcmp(name, "gpu") == 0) { /* the other name of the CUDA backend */
        *out = SC_BACKEND_CUDA;
        return 1;
    }
    return 0;
}
