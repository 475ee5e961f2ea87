/* bin_cuda.cu - binning on the GPU: references grouped by tile, then each tile's references split by
 * depth slab.
 *
 * Tile grouping: a multisplit by tile id fused into the passes that already visit every (triangle,
 * tile) pair: project counts each tile's references (project_cuda.cu), one block scans the counts
 * into tile offsets and cursors, and emit writes every reference straight into its tile's range: a
 * single-tile triangle's at the rank project's count gave it, the others at an atomically taken
 * cursor position (one atomic per distinct tile among a warp's lanes). Tiles
 * therefore come out contiguous and in tile order, while the order inside a tile is unspecified
 * (the ray cast does not depend on it: its hits break depth ties by triangle id and it counts
 * tests per slab read, so which slabs it reads, not their order, sets every counter).
 *
 * Slab refinement: one stable segmented split (split.h) by slab inside every tile's range, over the
 * reference buffer whose real size only the device knows: the split reads it from
 * globals.split_count (num_records_device) and ignores the rest of the buffer (no padding). Its
 * bucket offsets are the cell offsets the ray cast reads; its last entry is the reference count. */
#include <cooperative_groups.h>
#include <string.h>

#include "backend_cuda.h"
#include "classify.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "split.h"

namespace cg = cooperative_groups;

/* The position of this lane's reference in `tile`: cursors[tile] advanced once per distinct tile
 * among the lanes here. */
__device__ __forceinline__ uint32_t take_slot(uint32_t *cursors, uint32_t tile)
{
    cg::coalesced_group peers = cg::labeled_partition(cg::coalesced_threads(), tile);
    uint32_t base = 0;
    if (peers.thread_rank() == 0) base = atomicAdd(&cursors[tile], peers.size());
    return peers.shfl(base, 0) + peers.thread_rank();
}

/* Writes (tile | slab << tile_bits, triangle) into the tile's range for every tile project binned a
 * visible triangle to: a single-tile triangle at the rank project gave it (the tile's first slots),
 * the others at cursor slots taken from project's record (first tile, span, mask of overlapped
 * tiles), or, for
 * a span of more than 32 tiles, by classifying the triangle again and visiting its tiles as project
 * did (same classification, same tiles). A slot past the tile's range cannot happen (the count pass
 * counted the same tiles); it is dropped, never written. */
__global__ void __launch_bounds__(SC_CUDA_EMIT_THREADS)
sc_emit_kernel(sc_frame_params p, const sc_cuda_globals *g, const float *pos, const uint32_t *idx, const float *tri_keys,
               const uint4 *tri_bins, uint32_t *cursors, const uint32_t *tile_offsets, uint32_t *keys,
               uint32_t *values)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.num_triangles || g->overflow) return;
    const float depth_key = tri_keys[t];
    if (!(depth_key < INFINITY)) return; /* binned to no tile */
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const uint32_t slab_key = sc_slab_of(&p, depth_key) << p.tile_bits;
    const uint4 rec = tri_bins[t];
    if (rec.y == 0) { /* one tile: its slot is the rank project took, after the tile's offset */
        const uint32_t at = tile_offsets[rec.x] + rec.w;
        if (at < tile_offsets[rec.x + 1]) {
            keys[at] = rec.x | slab_key;
            values[at] = t;
        }
        return;
    }
    if (!(rec.y & SC_CUDA_BINS_RECLASSIFY)) {
        const uint32_t w = (rec.y & 0xFFFFu) + 1;
        uint32_t mask = rec.z;
        while (mask) {
            const uint32_t bit = __ffs(mask) - 1;
            mask &= mask - 1;
            const uint32_t dy = bit / w, dx = bit - dy * w;
            const uint32_t tile = rec.x + dy * p.tiles_x + dx;
            const uint32_t at = take_slot(cursors, tile);
            if (at < tile_offsets[tile + 1]) {
                keys[at] = tile | slab_key;
                values[at] = t;
            }
        }
        return;
    }
    const uint32_t *f = idx + 3 * (size_t)t;
    sc_tri_setup s;
    if (!sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s))
        return; /* never: the count pass found it visible */
    for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
        for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx)
            if (sc_tri_overlaps_tile(&p, &s, tx, ty)) {
                const uint32_t tile = ty * p.tiles_x + tx;
                const uint32_t at = take_slot(cursors, tile);
                if (at < tile_offsets[tile + 1]) {
                    keys[at] = tile | slab_key;
                    values[at] = t;
                }
            }
}

sc_status sc_cuda_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    sc_emit_kernel<<<(n + SC_CUDA_EMIT_THREADS - 1) / SC_CUDA_EMIT_THREADS, SC_CUDA_EMIT_THREADS, 0, s>>>(
        *p, st->globals, st->positions, st->indices, st->tri_keys, (const uint4 *)st->tri_bins, st->tile_cursors,
        st->tile_offsets,
        st->ref_keys[0], st->ref_values[0]);
    SC_CUDA_CHECK_LAUNCH("sc_emit_kernel");
    return SC_OK;
}

/* The slab split of a frame: pair 0 (grouped by tile) to pair 1, values only (the ray cast reads
 * triangle ids), segments = tiles, buckets = the slab field of the key. */
static void slab_split_desc(const sc_cuda_state *st, const sc_frame_params *p, split_desc *d)
{
    memset(d, 0, sizeof *d);
    d->key_type = SPLIT_KEY_U32;
    d->n = st->ref_capacity;
    d->keys_in = st->ref_keys[0];
    d->values_in = st->ref_values[0];
    d->values_out = st->ref_values[1];
    d->buckets.rule = SPLIT_BUCKETS_BITS;
    d->buckets.start_bit = p->tile_bits;
    d->buckets.bit_count = p->slab_bits;
    d->segment_offsets = st->tile_offsets;
    d->num_segments = p->num_tiles;
    d->bucket_offsets = st->cell_offsets;
    d->num_records_device = &st->globals->split_count;
}

sc_status sc_cuda_split_temp_bytes(sc_cuda_state *st, const sc_frame_params *p, size_t *bytes)
{
    *bytes = 0;
    if (st->ref_capacity == 0 || !st->tile_offsets || !st->ref_keys[0]) return SC_OK;
    split_desc d;
    slab_split_desc(st, p, &d);
    SC_TRY(split_segmented(NULL, bytes, &d, NULL));
    return SC_OK;
}

/* The references were grouped by tile by emit. */
sc_status sc_cuda_tile_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    (void)st, (void)p, (void)s;
    return SC_OK;
}

sc_status sc_cuda_slab_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    split_desc d;
    slab_split_desc(st, p, &d);
    size_t bytes = st->split_temp_bytes;
    SC_TRY(split_segmented(st->split_temp, &bytes, &d, s));
    st->final_refs = 1;
    return SC_OK;
}
