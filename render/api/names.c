/* names.c - the names of the renderer's enums (slabcast.h: sc_view_mode_name, sc_backend_name,
 * sc_deformer_name and their inverses), one table each, so programs, state logs and help texts take
 * them from the library and a value added to an enum without a name does not build. */
#include <string.h>

#include "slabcast.h"

static const char *const k_view_mode_names[] = {
    [SC_VIEW_SHADED] = "shaded", [SC_VIEW_TRIANGLE_ID] = "id",     [SC_VIEW_NORMALS] = "normals",
    [SC_VIEW_DEPTH] = "depth",   [SC_VIEW_TILE_HEAT] = "tiles",    [SC_VIEW_SLAB] = "slab",
    [SC_VIEW_TESTS_HEAT] = "tests", [SC_VIEW_SHADOW] = "shadow", [SC_VIEW_SHADOW_TESTS] = "shadow-tests",
};
_Static_assert(sizeof k_view_mode_names / sizeof k_view_mode_names[0] == SC_VIEW_MODE_COUNT,
               "every sc_view_mode has a name");

/* Indexed by sc_backend; the first name of each is what sc_backend_name gives. */
static const char *const k_backend_names[] = {
    [SC_BACKEND_DEFAULT] = "auto", [SC_BACKEND_CPU] = "cpu", [SC_BACKEND_CUDA] = "cuda",
};
_Static_assert(sizeof k_backend_names / sizeof k_backend_names[0] == SC_BACKEND_CUDA + 1,
               "every sc_backend has a name");

static const char *const k_deformer_names[] = {
    [SC_DEFORMER_TWIST] = "twist", [SC_DEFORMER_BEND] = "bend",   [SC_DEFORMER_WAVE] = "wave",
    [SC_DEFORMER_PULSE] = "pulse", [SC_DEFORMER_NOISE] = "noise",
};
_Static_assert(sizeof k_deformer_names / sizeof k_deformer_names[0] == SC_DEFORMER_COUNT,
               "every sc_deformer has a name");

const char *sc_view_mode_name(sc_view_mode mode)
{
    return (unsigned)mode < SC_VIEW_MODE_COUNT ? k_view_mode_names[mode] : NULL;
}

int sc_view_mode_from_name(const char *name, sc_view_mode *out)
{
    if (!name || !out) return 0;
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m)
        if (strcmp(name, k_view_mode_names[m]) == 0) {
            *out = (sc_view_mode)m;
            return 1;
        }
    return 0;
}

const char *sc_backend_name(sc_backend backend)
{
    return (unsigned)backend <= SC_BACKEND_CUDA ? k_backend_names[backend] : NULL;
}

int sc_backend_from_name(const char *name, sc_backend *out)
{
    if (!name || !out) return 0;
    for (int b = 0; b <= SC_BACKEND_CUDA; ++b)
        if (strcmp(name, k_backend_names[b]) == 0) {
            *out = (sc_backend)b;
            return 1;
        }
    if (strcmp(name, "gpu") == 0) { /* the other name of the CUDA backend */
        *out = SC_BACKEND_CUDA;
        return 1;
    }
    return 0;
}

const char *sc_deformer_name(sc_deformer deformer)
{
    return (unsigned)deformer < SC_DEFORMER_COUNT ? k_deformer_names[deformer] : NULL;
}

int sc_deformer_from_name(const char *name, sc_deformer *out)
{
    if (!name || !out) return 0;
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d)
        if (strcmp(name, k_deformer_names[d]) == 0) {
            *out = (sc_deformer)d;
            return 1;
        }
    return 0;
}
