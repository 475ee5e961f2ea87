/* names.c - the backends' and the frame stages' names (slabcast.h: sc_backend_name,
 * sc_backend_from_name, sc_stage_name), which programs, logs and help texts take from here. Each
 * switch names every value of its enum and has no default, so a value added without a name does not
 * build (-Wswitch, an error with SLABCAST_WERROR). The view modes' names live with their legends (view_legend.c), the deformers'
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

const char *sc_stage_name(sc_stage stage)
{
    switch (stage) {
    case SC_STAGE_DEFORM: return "deform";
    case SC_STAGE_NORMALS: return "normals";
    case SC_STAGE_PROJECT: return "project";
    case SC_STAGE_REDUCE: return "reduce";
    case SC_STAGE_SCAN: return "scan";
    case SC_STAGE_EMIT: return "emit";
    case SC_STAGE_TILE_SPLIT: return "tile_split";
    case SC_STAGE_SLAB_SPLIT: return "slab_split";
    case SC_STAGE_RAYCAST: return "raycast";
    case SC_STAGE_SHADOW_RECEIVERS: return "shadow-recv";
    case SC_STAGE_SHADOW_EMIT: return "shadow-emit";
    case SC_STAGE_SHADOW_SPLIT: return "shadow-split";
    case SC_STAGE_SHADOW_CAST: return "shadow-cast";
    case SC_STAGE_SHADE: return "shade";
    case SC_STAGE_COUNT: break;
    }
    return NULL;
}
