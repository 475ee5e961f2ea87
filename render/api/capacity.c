/* capacity.c - the reference buffer's size policy (capacity.h). */
#include "capacity.h"

#include "render_tuning.h"
#include "sc_report.h"
#include "sizes.h"

size_t sc_ref_capacity_initial(size_t requested, uint32_t triangles)
{
    if (requested) return requested;
    const double want = SC_REF_CAPACITY_PER_TRIANGLE * (double)triangles;
    return want > (double)SC_MAX_REF_CAPACITY ? SC_MAX_REF_CAPACITY
         : want > SC_MIN_REF_CAPACITY         ? (size_t)want
                                              : SC_MIN_REF_CAPACITY;
}

sc_status sc_ref_capacity_grown(size_t needed, size_t *capacity)
{
    if (needed > SC_MAX_REF_CAPACITY)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "sc_renderer_render: the frame has %zu triangle-tile references, more than 2^32 - 2; raise "
                       "the tile size or move the camera back",
                       needed);
    const double grown = SC_REF_CAPACITY_GROWTH * (double)needed;
    *capacity = grown > (double)SC_MAX_REF_CAPACITY ? SC_MAX_REF_CAPACITY : (size_t)grown;
    return SC_OK;
}
