/* renderer_internal.h - the renderer object of the front end (internal to api/). renderer.c
 * validates arguments, resolves defaults, keeps the frame layout (sc_frame_params), decides
 * capacities and calls a backend through its table (sc_backend_ops.h); backends never see this
 * struct. */
#ifndef SC_RENDERER_INTERNAL_H
#define SC_RENDERER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "render_tuning.h"
#include "sc_backend_ops.h"
#include "sc_frame.h"
#include "shade.h"
#include "share.h"
#include "slabcast.h"

/* What the front end knows of a frame rendered, for its stats. */
typedef struct sc_frame_record {
    uint64_t frames;               /* the frame's number (the last: frames rendered) */
    double total_ms;               /* host time of the sc_renderer_render call */
    uint32_t capacity_grows;       /* grows of the reference buffer for it */
    uint64_t triangles, tiles;     /* the mesh and grid it was rendered with */
} sc_frame_record;

struct sc_renderer {
    const sc_backend_ops *ops;
    void *state;                   /* the backend's */
    sc_renderer_desc desc;         /* defaults resolved */
    sc_frame_params params;        /* grid + camera + options; depth range filled by the backends */
    sc_camera_desc camera;         /* defaults resolved */
    int camera_set;                /* 0: a default view of the mesh */
    sc_deform_desc deform;
    sc_shading_desc shading;       /* defaults resolved */
    sc_shade_params shade;         /* the same, as the backends' per-pixel inputs (lights: per frame) */
    sc_light_desc lights[SC_MAX_LIGHTS]; /* resolved (sc_renderer_set_lights) */
    uint32_t num_lights;
    int shadows;                   /* sc_render_options.shadows */
    int stage_times;               /* sc_render_options.stage_times */
    int has_mesh;
    float mesh_center[3];          /* rest bounding-box centre */
    float mesh_radius;             /* rest bounding radius about the centre (> 0) */
    sc_share_ids share;            /* the whole mesh's ids of the triangles (a share of a larger mesh) */
    size_t ref_capacity;           /* the backend's reference buffer (0: none yet) */
    sc_frame_record last;
    /* The last SC_FRAME_RECORDS frames, at frame number % SC_FRAME_RECORDS, for the stats of a
     * finished frame that is not the last (sc_renderer_poll_stats). */
    sc_frame_record records[SC_FRAME_RECORDS];
    uint64_t first_reported;       /* the first frame of the mesh and grid in force: earlier frames
                                      are not reported by sc_renderer_poll_stats */
};

#endif /* SC_RENDERER_INTERNAL_H */
