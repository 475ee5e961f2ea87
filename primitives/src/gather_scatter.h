/* gather_scatter.h - internal: argument checks shared by split_gather / split_scatter (GPU) and
 * their references. Not public. */
#ifndef GATHER_SCATTER_H
#define GATHER_SCATTER_H

#include "split.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks pointers, sizes and alignment (src/dst and record_bytes multiples of 4, no in-place move).
 * On success *word_bytes is the widest word (16, 8 or 4 bytes) that src, dst and record_bytes all
 * allow, and *passes desc->num_passes (0: the model chooses, move_model.h). */
sc_status split_move_check(const split_move_desc *desc, const char *who, uint32_t *word_bytes, uint32_t *passes);

#ifdef __cplusplus
}
#endif
#endif /* GATHER_SCATTER_H */
