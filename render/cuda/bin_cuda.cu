/* bin_cuda.cu - binning on the GPU: one reference per (triangle, tile), grouped by tile with the
 * split library's multisplit, then each tile's references split by depth slab with its segmented
 * split.
 *
 * Emit: every visible triangle appends its references (key = tile | slab << tile_bits, value =
 * triangle id) to pair 0: a warp sums the reference counts of its SC_CUDA_EMIT_ROUNDS x 32
 * consecutive triangles (project stored each triangle's count in its record), takes one range with
 * one atomic on its stripe's emit cursor (backend_cuda.h: project counted the stripe's references,
 * finalize placed its range), and writes round by round, the lanes' runs consecutive, so
 * single-tile triangles (most of them) write whole lines. Order between warps is
 * unspecified; nothing downstream depends on it (the tile multisplit is unstable anyway, and the ray
 * cast breaks depth ties by triangle id and counts tests per slab read).
 *
 * Tile multisplit: split_multisplit, unstable, 2^tile_bits buckets of the key's tile field, with the
 * per-tile counts project already made (bucket_counts: the library skips its count pass) and the
 * reference count read on the device (num_records_device), pair 0 -> pair 1, bucket offsets = tile
 * offsets.
 *
 * Slab refinement: one stable segmented split by slab inside every tile's range, pair 1 -> values of
 * pair 0, over the count the device knows; its bucket offsets are the cell offsets the ray cast reads
 * (last entry = the reference count).
 *
 * After an overflow (finalize) emit writes nothing and both splits see 0 records; the overflow
 * fallback (overflow_cuda.cu) bins and ray casts that frame instead.
 *
 * The radix-sort binning (SC_BINNING_RADIX_SORT, bin_radix_cuda.cu) uses this emit with the cell as
 * the key (tile << slab_bits | slab) instead of the splits. */
#include <string.h>

#include "backend_cuda.h"
#include "bins_cuda.cuh"
#include "classify.h"
#include "render_tuning.h"
#include "sc_cuda_arch.h"
#include "sc_report.h"
#include "split.h"

/* Appends the references of every visible triangle to (keys, values); see above. Each warp takes
 * SC_CUDA_EMIT_ROUNDS rounds of 32 consecutive triangles (a lane a triangle a round, the loads
 * coalesced and all issued before the first wait), sums their references with one warp reduction,
 * takes its range with one atomic on its stripe's emit cursor (no block-wide scan, no barrier before
 * the writes), and writes round by round, each lane's run placed by a warp scan of the round's
 * counts, so the runs of a round are consecutive. A big triangle (project binned it with its block)
 * is written by the whole block after the rounds, its tiles a thread each; more than BIG of them in a
 * block are written by their lanes.
 * CELL_KEYS: the key is the cell, tile << slab_bits | slab, for the radix-sort binning
 * (bin_radix_cuda.cu); else tile | slab << tile_bits, for the splits. */
template <bool CELL_KEYS>
__global__ void __launch_bounds__(SC_CUDA_EMIT_THREADS, SC_MIN_BLOCKS(SC_CUDA_EMIT_THREADS, SC_CUDA_EMIT_MIN_BLOCKS))
sc_emit_kernel(const sc_cuda_frame_consts *__restrict__ fc, sc_cuda_globals *g, const float *pos, const uint32_t *idx,
               const float *tri_keys, const uint4 *tri_bins, uint32_t *keys, uint32_t *values)
{
    enum { BIG = 16, ROUNDS = SC_CUDA_EMIT_ROUNDS };
    __shared__ unsigned long long s_big_at[BIG];
    __shared__ uint32_t s_big_t[BIG], s_nbig, s_big_cursor;
    /* Every load that does not depend on another is issued before the first wait: the overflow
     * flag, the depth range and the keys; then the visible triangles' records (their counts). */
    const uint32_t overflow = g->overflow;
    sc_frame_params p = fc->p;
    p.depth_min = g->depth_min;
    p.depth_max = g->depth_max;
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t chunk = blockIdx.x * (SC_CUDA_EMIT_THREADS / 32) + (threadIdx.x >> 5);
    const uint32_t t0 = chunk * SC_CUDA_STRIPE_TRIANGLES + lane;
    float depth_key[ROUNDS];
    uint4 recs[ROUNDS];
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const uint32_t t = t0 + 32u * r;
        depth_key[r] = t < p.num_triangles ? tri_keys[t] : INFINITY;
    }
    if (overflow) return; /* the whole grid: the fallback bins this frame */
    if (threadIdx.x == 0) s_nbig = 0;
    uint32_t count = 0;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        recs[r] = depth_key[r] < INFINITY ? tri_bins[t0 + 32u * r] : make_uint4(0u, 0u, 0u, 0u); /* else no tile */
        count += recs[r].w;
    }
    /* The warp's range (the frame fits the buffer, < 2^32 references), taken by lane 0. */
#if __CUDA_ARCH__ >= 800
    const uint32_t total = __reduce_add_sync(0xFFFFFFFFu, count);
#else
    uint32_t total = count;
    for (int o = 16; o > 0; o >>= 1) total += __shfl_xor_sync(0xFFFFFFFFu, total, o);
#endif
    unsigned long long base = 0;
    if (lane == 0 && total)
        base = atomicAdd(&g->stripes[SC_CUDA_STRIPE_OF_TRIANGLE(chunk * SC_CUDA_STRIPE_TRIANGLES)].emit_cursor,
                         (unsigned long long)total);
    size_t round_at = (size_t)__shfl_sync(0xFFFFFFFFu, base, 0);
    __syncthreads(); /* s_nbig */
    const uint32_t tile_shift = CELL_KEYS ? p.slab_bits : 0u;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const uint4 rec = recs[r];
        uint32_t incl = rec.w;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const uint32_t x = __shfl_up_sync(0xFFFFFFFFu, incl, o);
            if (lane >= (uint32_t)o) incl += x;
        }
        size_t at = round_at + (incl - rec.w);
        round_at += __shfl_sync(0xFFFFFFFFu, incl, 31);
        if (!(depth_key[r] < INFINITY)) continue;
        const uint32_t t = t0 + 32u * r, slab = sc_slab_of(&p, depth_key[r]);
        const uint32_t slab_key = CELL_KEYS ? slab : slab << p.tile_bits;
        if ((rec.y & SC_CUDA_BINS_RECLASSIFY) && rec.z == SC_CUDA_BINS_BIG) {
            const uint32_t e = atomicAdd(&s_nbig, 1u);
            if (e < BIG) { /* written below by the whole block */
                s_big_t[e] = t;
                s_big_at[e] = at;
                continue;
            }
        }
        size_t next = at;
        const size_t end = at + rec.w; /* the tiles project counted: never more */
        sc_cuda_visit_tiles(p, t, rec, pos, idx, 0u, p.num_tiles, [&](uint32_t tile) {
            if (next < end) {
                keys[next] = tile << tile_shift | slab_key;
                values[next] = t;
                ++next;
            }
        });
    }
    /* The block's big triangles (project binned them with its whole block): its threads take the
     * tiles of each in turn, in the same classification, a warp's references placed in the
     * triangle's range with one shared atomic (their order inside it does not matter). */
    __syncthreads();
    const uint32_t nbig = min(s_nbig, (uint32_t)BIG);
    for (uint32_t e = 0; e < nbig; ++e) {
        const uint32_t t = s_big_t[e];
        const unsigned long long at0 = s_big_at[e];
        const uint4 rec = tri_bins[t];
        const uint32_t *f = idx + 3 * (size_t)t;
        sc_tri_setup s;
        sc_tri_classify(&p, pos + 3 * (size_t)f[0], pos + 3 * (size_t)f[1], pos + 3 * (size_t)f[2], &s);
        const uint32_t slab = sc_slab_of(&p, tri_keys[t]);
        const uint32_t slab_key = CELL_KEYS ? slab : slab << p.tile_bits;
        if (threadIdx.x == 0) s_big_cursor = 0;
        __syncthreads();
        const uint32_t w = s.tx1 - s.tx0 + 1, area = w * (s.ty1 - s.ty0 + 1);
        for (uint32_t i0 = 0; i0 < area; i0 += blockDim.x) {
            const uint32_t i = i0 + threadIdx.x;
            uint32_t tile = 0;
            bool take = false;
            if (i < area) {
                const uint32_t tx = s.tx0 + i % w, ty = s.ty0 + i / w;
                tile = ty * p.tiles_x + tx;
                take = sc_tri_overlaps_tile(&p, &s, tx, ty);
            }
            const uint32_t m = __ballot_sync(0xFFFFFFFFu, take);
            if (!m) continue;
            uint32_t off = 0;
            if (lane == 0) off = atomicAdd(&s_big_cursor, (uint32_t)__popc(m));
            off = __shfl_sync(0xFFFFFFFFu, off, 0) + __popc(m & ((1u << lane) - 1u));
            if (take && off < rec.w) { /* the tiles project counted: never more */
                keys[at0 + off] = tile << tile_shift | slab_key;
                values[at0 + off] = t;
            }
        }
        __syncthreads(); /* s_big_cursor is read before the next triangle zeroes it */
    }
}

/* Emit of a frame into (keys, values), with split keys or cell keys. */
template <bool CELL_KEYS>
static sc_status emit(const sc_cuda_state *st, const sc_frame_params *p, uint32_t *keys, uint32_t *values,
                      cudaStream_t s)
{
    uint32_t n = p->num_triangles;
    if (n == 0) return SC_OK;
    const uint32_t per_block = SC_CUDA_EMIT_THREADS / 32 * SC_CUDA_STRIPE_TRIANGLES;
    sc_emit_kernel<CELL_KEYS><<<(uint32_t)(((size_t)n + per_block - 1) / per_block), SC_CUDA_EMIT_THREADS, 0, s>>>(
        st->consts, st->globals, st->positions, st->indices, st->tri_keys, (const uint4 *)st->tri_bins, keys, values);
    SC_CUDA_CHECK_LAUNCH("sc_emit_kernel");
    return SC_OK;
}

sc_status sc_cuda_emit(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    return emit<false>(st, p, st->ref_keys[0], st->ref_values[0], s);
}

sc_status sc_cuda_emit_cells(const sc_cuda_state *st, const sc_frame_params *p, uint32_t *keys, uint32_t *values,
                             cudaStream_t s)
{
    return emit<true>(st, p, keys, values, s);
}

/* The tile multisplit of a frame: pair 0 -> pair 1 by the key's tile field (see above). */
static void tile_split_desc(const sc_cuda_state *st, const sc_frame_params *p, split_desc *d)
{
    memset(d, 0, sizeof *d);
    d->key_type = SPLIT_KEY_U32;
    d->n = st->ref_capacity;
    d->keys_in = st->ref_keys[0];
    d->values_in = st->ref_values[0];
    d->keys_out = st->ref_keys[1];
    d->values_out = st->ref_values[1];
    d->buckets.rule = SPLIT_BUCKETS_BITS;
    d->buckets.start_bit = 0;
    d->buckets.bit_count = p->tile_bits;
    d->unstable = 1;
    d->clustered = 1; /* references come triangle by triangle: runs of a tile */
    d->bucket_counts = st->tile_counts;
    d->bucket_offsets = st->tile_offsets;
    d->num_records_device = &st->globals->split_count;
}

/* The slab split of a frame: pair 1 (grouped by tile) to the values of pair 0 (the ray cast reads
 * triangle ids), segments = tiles, buckets = the slab field of the key. */
static void slab_split_desc(const sc_cuda_state *st, const sc_frame_params *p, split_desc *d)
{
    memset(d, 0, sizeof *d);
    d->key_type = SPLIT_KEY_U32;
    d->n = st->ref_capacity;
    d->keys_in = st->ref_keys[1];
    d->values_in = st->ref_values[1];
    d->values_out = st->ref_values[0];
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
    if (st->ref_capacity == 0 || !st->tile_offsets || !st->tile_counts || !st->ref_keys[0]) return SC_OK;
    split_desc d;
    size_t tile_bytes = 0, slab_bytes = 0;
    tile_split_desc(st, p, &d);
    SC_TRY(split_multisplit(NULL, &tile_bytes, &d, NULL));
    slab_split_desc(st, p, &d);
    SC_TRY(split_segmented(NULL, &slab_bytes, &d, NULL));
    *bytes = tile_bytes > slab_bytes ? tile_bytes : slab_bytes;
    return SC_OK;
}

sc_status sc_cuda_tile_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    split_desc d;
    tile_split_desc(st, p, &d);
    size_t bytes = st->split_temp_bytes;
    SC_TRY(split_multisplit(st->split_temp, &bytes, &d, s));
    return SC_OK;
}

sc_status sc_cuda_slab_split(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    split_desc d;
    slab_split_desc(st, p, &d);
    size_t bytes = st->split_temp_bytes;
    SC_TRY(split_segmented(st->split_temp, &bytes, &d, s));
    return SC_OK;
}
