/* sc_nccl.h - sort-last over processes through NCCL (library slabcast_nccl, built with SLABCAST_NCCL):
 * each rank of an NCCL communicator holds one renderer (CUDA backend) with its share of a mesh
 * (sc_renderer_set_mesh_share; for smooth shading a halo share, sc_mesh_share_make_halo, with the
 * whole mesh's frame), and after each rendered frame calls sc_renderer_composite_nccl: the keys are
 * composited with ncclAllReduce(ncclMin, ncclUint64), so every rank holds the winners; each rank
 * shades the pixels it owns into an image of zeros (the root the background too), and ncclReduce
 * (ncclMax, ncclUint32) merges the images onto the root, which copies it into its rgba. The image
 * equals one renderer's of the whole mesh pixel for pixel under the conditions of slabcast.h's "Hit
 * keys". Plain C: the communicator is passed as void * (an ncclComm_t); NCCL itself is loaded at the
 * first call (sc_nccl_available). NVLink multicast (NVLS) is
 * never asked for: no cuMulticast call; leave NCCL_NVLS_ENABLE as the machine sets it. */
#ifndef SC_NCCL_H
#define SC_NCCL_H

#include <stddef.h>
#include <stdint.h>

#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sc_nccl_desc {
    void *comm;                  /* the ranks' ncclComm_t */
    int rank;                    /* this rank, 0 .. ranks - 1 */
    int ranks;                   /* the communicator's size (ncclCommCount) */
    int root;                    /* the rank that receives the image and shades the background */
} sc_nccl_desc;

/* One rank's part of a frame's composite, after sc_renderer_render(r) of the frame (rgba NULL),
 * enqueued on r's stream (sc_renderer_desc.stream) without waiting or allocating; every rank of the
 * communicator calls it with the same size. keys: device memory of width x height 64-bit words,
 * image: width x height 32-bit words (both the caller's scratch, reused frame after frame; the
 * winners stay in keys). rgba (root only, device memory, pitch bytes a row, 0: width * 4): the merged
 * image; NULL on the root: none (the keys alone are composited; every rank must then pass NULL). For
 * one rank per process (or per thread): the calls below in one. Errors: INVALID_ARGUMENT (NULL, a
 * rank or root out of range, no frame), UNSUPPORTED (the view modes and shadows that
 * sc_renderer_shade_keys refuses), SC_ERROR_CUDA (a CUDA or NCCL call failed: the message names it). */
sc_status sc_renderer_composite_nccl(const sc_renderer *r, const sc_nccl_desc *nccl, uint64_t *keys,
                                     uint32_t *image, void *rgba, size_t pitch);
/* The two collective phases apart, for one thread driving several ranks (the caller brackets each
 * phase's calls of all its ranks with ncclGroupStart / ncclGroupEnd, as NCCL requires):
 * sc_nccl_composite_keys writes r's keys and all-reduces them by minimum (the winners, on every
 * rank); sc_nccl_merge_image shades r's owned pixels into image (zeros elsewhere; the root the
 * background too) and reduces the images by maximum onto the root's image (width x height words, row
 * 0 at the bottom, pitch width * 4), complete once the root's stream passes ncclGroupEnd's work. */
sc_status sc_nccl_composite_keys(const sc_renderer *r, const sc_nccl_desc *nccl, uint64_t *keys);
sc_status sc_nccl_merge_image(const sc_renderer *r, const sc_nccl_desc *nccl, const uint64_t *keys, uint32_t *image);

/* SC_OK when NCCL can be used: slabcast_nccl loads libnccl.so.2 at its first call (it does not link
 * it, so a program starts without NCCL installed), or the file the environment variable
 * SLABCAST_NCCL_LIBRARY names. UNSUPPORTED, with the loader's reason in sc_last_error(), when it cannot;
 * the calls above answer the same then. A caller that links NCCL itself shares its library (the same
 * soname): load it before the first call, and leave SLABCAST_NCCL_LIBRARY unset. */
sc_status sc_nccl_available(void);

/* The bytes one rank sends a frame (the all-reduce of the keys and the reduce of the image, as the
 * data sizes; the algorithm's own traffic is NCCL's), for a bench's table. */
uint64_t sc_nccl_frame_bytes(uint32_t width, uint32_t height);

#ifdef __cplusplus
}
#endif
#endif /* SC_NCCL_H */
