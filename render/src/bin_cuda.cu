/* bin_cuda.cu - binning on the GPU: emit one reference per (triangle, tile) at the triangle's scanned
 * offset (the tiles in classify.h's order, as the CPU), pad the rest of the buffer, multisplit the
 * references by tile and split each tile's references by slab (the split library, split.h).
 *
 * The number of references is known only on the device, so the splits run over the whole buffer
 * (capacity records): entries [references, capacity) hold the padding key, tile 2^tile_bits - 1
 * slab 0, which the stable tile split places after every real reference (in the last tile's bucket
 * when num_tiles = 2^tile_bits, after it otherwise). Entry num_tiles of the tile offsets is then
 * patched to the number of references and entry num_tiles + 1 to the capacity, so the slab split
 * sees num_tiles + 1 segments, the last one the padding. Tile ids of more than SC_SPLIT_PASS_BITS
 * bits are split in two stable levels as in the CPU backend. */
#include <string.h>

#include "backend_cuda.h"
#include "classify.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "split.h"

__global__ void __launch_bounds__(SC_CUDA_EMIT_THREADS)
sc_emit_kernel(sc_frame_params p, const sc_cuda_globals *g, const float *pos, const uint32_t *idx,
               const uint32_t *tri_tiles, const unsigned long long *tri_offsets, const float *tri_keys,
               uint32_t *keys, uint32_t *values)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= p.num_triangles || g->overflow) return;
    uint32_t count = tri_tiles[t];
    if (count == 0) return;
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const uint32_t *f = idx + 3 * (size_t)t;
    sc_tri_setup s;
    if (!sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s))
        return; /* never: the count pass found it visible */
    uint32_t slab_key = sc_slab_of(&p, tri_keys[t]) << p.tile_bits;
    size_t base = (size_t)tri_offsets[t];
    uint32_t w = 0;
    for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
        for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx)
            if (sc_tri_overlaps_tile(&p, &s, tx, ty) && w < count) {
                keys[base + w] = (ty * p.tiles_x + tx) | slab_key;
                values[base + w] = t;
                ++w;
            }
}

/* Padding from the frame's references (0 after an overflow: then nothing was emitted) to the end. */
__global__ void __launch_bounds__(SC_CUDA_PAD_THREADS)
sc_pad_kernel(const sc_cuda_globals *g, uint32_t pad_key, uint32_t capacity, uint32_t *keys, uint32_t *values)
{
    uint32_t first = g->overflow ? 0u : (uint32_t)g->references;
    for (uint32_t i = first + blockIdx.x * blockDim.x + threadIdx.x; i < capacity; i += gridDim.x * blockDim.x) {
        keys[i] = pad_key;
        values[i] = SC_NO_HIT;
    }
}

static uint32_t pad_key(const sc_frame_params *p) { return (uint32_t)(((uint64_t)1 << p->tile_bits) - 1); }

sc_status sc_cuda_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    uint32_t n = p->num_triangles;
    if (n > 0) {
        sc_emit_kernel<<<(n + SC_CUDA_EMIT_THREADS - 1) / SC_CUDA_EMIT_THREADS, SC_CUDA_EMIT_THREADS, 0, s>>>(
            *p, st->globals, st->positions, st->indices, st->tri_tiles, st->tri_offsets, st->tri_keys,
            st->ref_keys[0], st->ref_values[0]);
        SC_CUDA_CHECK_LAUNCH("sc_emit_kernel");
    }
    uint32_t cap = (uint32_t)st->ref_capacity;
    uint32_t blocks = (cap + SC_CUDA_PAD_THREADS - 1) / SC_CUDA_PAD_THREADS;
    if (blocks > SC_CUDA_PAD_MAX_BLOCKS) blocks = SC_CUDA_PAD_MAX_BLOCKS;
    sc_pad_kernel<<<blocks, SC_CUDA_PAD_THREADS, 0, s>>>(st->globals, pad_key(p), cap, st->ref_keys[0],
                                                          st->ref_values[0]);
    SC_CUDA_CHECK_LAUNCH("sc_pad_kernel");
    return SC_OK;
}

/* The split descriptors of a frame: [0] the one-level tile split or the high level, [1] the low
 * level (two-level only), [2] the slab split. Returns the number of tile-split levels. Reads and
 * writes ref pairs: level 0 from pair 0 to 1, level 1 back to 0, slab split to the other pair. */
static int split_descs(sc_cuda_state *st, const sc_frame_params *p, split_desc d[3], uint32_t *final_pair)
{
    const uint32_t tb = p->tile_bits;
    const size_t n = st->ref_capacity;
    memset(d, 0, 3 * sizeof *d);
    for (int i = 0; i < 3; ++i) {
        d[i].key_type = SPLIT_KEY_U32;
        d[i].n = n;
        d[i].buckets.rule = SPLIT_BUCKETS_BITS;
    }
    int levels = tb <= SC_SPLIT_PASS_BITS ? 1 : 2;
    d[0].keys_in = st->ref_keys[0];
    d[0].values_in = st->ref_values[0];
    d[0].keys_out = st->ref_keys[1];
    d[0].values_out = st->ref_values[1];
    if (levels == 1) {
        d[0].buckets.start_bit = 0;
        d[0].buckets.bit_count = tb;
        d[0].bucket_offsets = st->tile_offsets;
    } else {
        const uint32_t lo = (tb + 1) / 2, hi = tb - lo;
        d[0].buckets.start_bit = lo;
        d[0].buckets.bit_count = hi;
        d[0].bucket_offsets = st->group_offsets;
        d[1].keys_in = st->ref_keys[1];
        d[1].values_in = st->ref_values[1];
        d[1].keys_out = st->ref_keys[0];
        d[1].values_out = st->ref_values[0];
        d[1].buckets.start_bit = 0;
        d[1].buckets.bit_count = lo;
        d[1].segment_offsets = st->group_offsets;
        d[1].num_segments = (size_t)1 << hi;
        d[1].bucket_offsets = st->tile_offsets;
    }
    uint32_t in = levels == 1 ? 1u : 0u;
    d[2].keys_in = st->ref_keys[in];
    d[2].values_in = st->ref_values[in];
    d[2].keys_out = st->ref_keys[1 - in];
    d[2].values_out = st->ref_values[1 - in];
    d[2].buckets.start_bit = tb;
    d[2].buckets.bit_count = p->slab_bits;
    d[2].segment_offsets = st->tile_offsets;
    d[2].num_segments = (size_t)p->num_tiles + 1;
    d[2].bucket_offsets = st->cell_offsets;
    *final_pair = 1 - in;
    return levels;
}

sc_status sc_cuda_split_temp_bytes(sc_cuda_state *st, const sc_frame_params *p, size_t *bytes)
{
    *bytes = 0;
    if (st->ref_capacity == 0 || !st->tile_offsets || !st->ref_keys[0]) return SC_OK;
    split_desc d[3];
    uint32_t final_pair;
    int levels = split_descs(st, p, d, &final_pair);
    size_t b = 0;
    SC_TRY(split_multisplit(NULL, &b, &d[0], NULL));
    *bytes = b;
    if (levels == 2) {
        SC_TRY(split_segmented(NULL, &b, &d[1], NULL));
        if (b > *bytes) *bytes = b;
    }
    SC_TRY(split_segmented(NULL, &b, &d[2], NULL));
    if (b > *bytes) *bytes = b;
    return SC_OK;
}

/* Entry num_tiles: the end of the real references; entry num_tiles + 1: the capacity. */
__global__ void sc_patch_offsets_kernel(const sc_cuda_globals *g, uint32_t num_tiles, uint32_t capacity,
                                        uint32_t *tile_offsets)
{
    tile_offsets[num_tiles] = g->overflow ? capacity : (uint32_t)g->references;
    tile_offsets[num_tiles + 1] = capacity;
}

sc_status sc_cuda_tile_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    split_desc d[3];
    uint32_t final_pair;
    int levels = split_descs(st, p, d, &final_pair);
    size_t bytes = st->split_temp_bytes;
    SC_TRY(split_multisplit(st->split_temp, &bytes, &d[0], s));
    if (levels == 2) {
        bytes = st->split_temp_bytes;
        SC_TRY(split_segmented(st->split_temp, &bytes, &d[1], s));
    }
    sc_patch_offsets_kernel<<<1, 1, 0, s>>>(st->globals, p->num_tiles, (uint32_t)st->ref_capacity, st->tile_offsets);
    SC_CUDA_CHECK_LAUNCH("sc_patch_offsets_kernel");
    return SC_OK;
}

sc_status sc_cuda_slab_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    split_desc d[3];
    uint32_t final_pair;
    split_descs(st, p, d, &final_pair);
    size_t bytes = st->split_temp_bytes;
    SC_TRY(split_segmented(st->split_temp, &bytes, &d[2], s));
    st->final_refs = final_pair;
    return SC_OK;
}
