/* group_internal.h - the renderer group (slabcast.h "Renderer groups"; internal to api/): its
 * shares, their devices, streams, events and the buffers a frame moves keys, winners and images
 * through. group.c creates it and forwards the setters, group_frame.c renders a frame,
 * group_read.c reads its hits and stats back. Built with CUDA only (group_nocuda.c otherwise). */
#ifndef SC_GROUP_INTERNAL_H
#define SC_GROUP_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "sc_backend_ops.h"
#include "slabcast.h"

/* One share: its renderer on its device, and its buffers there. */
typedef struct sc_group_share {
    sc_renderer *r;
    int device;
    int remote;                    /* 1: keys, winners and image are copied to and from the display
                                      device (another device, or SC_GROUP_COPY_ALWAYS); 0: the share
                                      reads and writes the display device's buffers in place */
    cudaStream_t stream;
    int own_stream;                /* the group created the stream */
    uint64_t *keys;                /* its keys (share 0: the composite, the winners) */
    uint64_t *winners;             /* remote: the winners copied to its device */
    uint32_t *image;               /* remote: its pixels, zeros elsewhere */
    cudaEvent_t keys_done, image_done;
    uint64_t triangles;            /* its mesh's, halo included */
} sc_group_share;

struct sc_renderer_group {
    const sc_backend_ops *ops;     /* the CUDA backend's table (keys_min, pixels_over) */
    uint32_t count;
    sc_group_share shares[SC_GROUP_MAX_SHARES];
    uint32_t width, height;
    uint32_t devices;              /* distinct devices */
    int any_remote;
    uint64_t *stage_keys;          /* display device: a remote share's keys */
    uint32_t *stage_image;         /* display device: a remote share's image */
    cudaEvent_t winners_done;      /* display device: the winners are final (and copied) */
    cudaEvent_t start, composite_start, composite_end, end; /* display stream, timed */
    uint64_t frames;
    uint64_t triangles;
    int has_mesh;
};

/* Sets device d current, recording the caller's in *previous (restored with group_restore_device). */
sc_status sc_group_use_device(int d, int *previous);
void sc_group_restore_device(int previous);
/* Bytes moved between shares' buffers a frame. */
uint64_t sc_group_bytes_per_frame(const sc_renderer_group *g);

#endif /* SC_GROUP_INTERNAL_H */
