/* move_model.h - internal: the pass-count model of split_gather / split_scatter (num_passes = 0).
 *
 * A move of n records of R bytes by an index has a contiguous side (gather: dst, scatter: src),
 * read or written in order, and an indexed side (gather: src, scatter: dst), touched at random.
 * Multi-pass (He et al. 2007, "Efficient gather and scatter operations on graphics processors"):
 * pass p of P touches only the records whose indexed position lies in window p, n R / P bytes of the
 * indexed side, so that when a window fits the cache every sector of it is moved between DRAM and
 * the cache once instead of once per record that touches it. The price: every pass reads the whole
 * index and walks every word of the contiguous side, and the contiguous side is touched sparsely
 * (1 record in P) in each pass, which costs whole sectors again when records are smaller than one.
 *
 * The model counts the DRAM bytes of each side and a per-pass cost, all in bytes:
 *   sector(R), partial(R) = the mean bytes of the 32-byte sectors one isolated record touches, and
 *                  of those it covers only in part (records laid end to end: R rounded up to
 *                  sectors, plus the straddles of its offsets)
 *   cache        = the device's L2 times MOVE_MODEL_L2_PERCENT / 100 (what a window may use)
 *   hit(P)       = 1 when n R / P <= cache, else cache / (n R / P): the part of the indexed side's
 *                  touches that find their sector in the cache
 *   fetched      = max(sector(R), MOVE_MODEL_MISS_MIN_BYTES): what a miss moves from DRAM (DRAM moves
 *                  64-byte bursts, so a missed 32-byte sector often brings its neighbour along unused)
 *   miss         = fetched for gather (reads); for scatter a write that covers a sector only in part
 *                  costs MOVE_MODEL_PARTIAL_WRITE_X100 / 100 times its share of it more (the fill, the
 *                  write back): fetched + (X100 / 100 - 1) partial(R)
 *   indexed(P)   = n (hit R + (1 - hit) miss)
 *   contiguous(P)= n min(sector(R), P R)               (dense in one pass, sparse in many)
 *   index(P)     = 4 n P
 *   walk(P)      = P (MOVE_MODEL_PASS_BYTES + words MOVE_MODEL_WORD_BYTES_X100 / 100), words being
 *                  the 16-byte words of the contiguous side each pass's threads visit (n R / 16)
 *   cost(P)      = indexed + contiguous + index + walk   (P = 1: no walk term)
 * and picks the P of 1, 2, 4, ..., MOVE_MODEL_MAX_PASSES with the least cost (ties: fewer passes).
 * It ranks pass counts; it does not predict times (small records are bound by latency, not bytes).
 * The constants are in split_tuning.h with the measurements they were fitted to. */
#ifndef MOVE_MODEL_H
#define MOVE_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The mean bytes of the 32-byte sectors that one record of record_bytes bytes touches (*touched)
 * and of those it covers only in part (*partial), records laid end to end from a sector boundary;
 * 0 and 0 for record_bytes == 0. */
void split_move_model_sectors(uint64_t record_bytes, double *touched, double *partial);

/* The modelled cost, in bytes, of moving n records of record_bytes in passes passes (0 counts as 1)
 * with a cache of l2_bytes; scatter nonzero: split_scatter, else split_gather. */
double split_move_model_cost(uint64_t n, uint64_t record_bytes, uint64_t l2_bytes, uint32_t passes, int scatter);

/* The pass count of least modelled cost: 1 for n <= 1 or record_bytes == 0. */
uint32_t split_move_model_passes(uint64_t n, uint64_t record_bytes, uint64_t l2_bytes, int scatter);

#ifdef __cplusplus
}
#endif
#endif /* MOVE_MODEL_H */
