/* bin_cpu.c - binning on the CPU: exclusive scan of the per-triangle tile counts, emit one
 * reference per (triangle, tile), multisplit of the references by tile, segmented split of each
 * tile's references by slab. The splits are the split library's plain-C references (split.h).
 *
 * A reference is a key (tile | slab << tile_bits) and a value (triangle id). The tile split is one
 * multisplit when 2^tile_bits <= 2048 buckets, otherwise two stable levels: a multisplit by the high
 * bits of the tile id, then a segmented split of each high group by the low bits, whose bucket
 * offsets are exactly the tile offsets. */
#include <string.h>

#include "backend_cpu.h"
#include "classify.h"
#include "cpu_parallel.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "split.h"

uint64_t sc_cpu_scan(sc_cpu_state *st, const sc_frame_params *p)
{
    uint64_t sum = 0;
    for (uint32_t t = 0; t < p->num_triangles; ++t) {
        st->tri_offsets[t] = (uint32_t)sum;
        sum += st->tri_tiles[t];
    }
    return sum;
}

typedef struct emit_ctx {
    sc_cpu_state *st;
    const sc_frame_params *p;
} emit_ctx;

static void emit_chunk(void *arg, uint32_t item, uint32_t worker)
{
    (void)worker;
    emit_ctx *c = arg;
    const sc_frame_params *p = c->p;
    sc_cpu_state *st = c->st;
    uint32_t t0 = item * SC_CPU_TRIANGLES_PER_TASK, t1 = t0 + SC_CPU_TRIANGLES_PER_TASK;
    if (t1 > p->num_triangles) t1 = p->num_triangles;
    for (uint32_t t = t0; t < t1; ++t) {
        uint32_t count = st->tri_tiles[t];
        if (count == 0) continue;
        const uint32_t *f = st->indices + 3 * (size_t)t;
        sc_tri_setup s;
        /* The same classification as the count pass: same inputs, same tiles. */
        if (!sc_tri_classify(p, st->positions + 3 * (size_t)f[0], st->positions + 3 * (size_t)f[1],
                             st->positions + 3 * (size_t)f[2], &s))
            continue; /* never: the count pass found it visible */
        uint32_t *px = st->tri_pixels + 4 * (size_t)t;
        px[0] = s.px0;
        px[1] = s.px1;
        px[2] = s.py0;
        px[3] = s.py1;
        uint32_t slab_key = sc_slab_of(p, st->tri_keys[t]) << p->tile_bits;
        uint32_t *keys = st->ref_keys + st->tri_offsets[t];
        uint32_t *values = st->ref_values + st->tri_offsets[t];
        uint32_t w = 0;
        for (uint32_t ty = s.ty0; ty <= s.ty1; ++ty)
            for (uint32_t tx = s.tx0; tx <= s.tx1; ++tx)
                if (sc_tri_overlaps_tile(p, &s, tx, ty) && w < count) {
                    keys[w] = (ty * p->tiles_x + tx) | slab_key;
                    values[w] = t;
                    ++w;
                }
    }
}

void sc_cpu_emit(sc_cpu_state *st, const sc_frame_params *p)
{
    emit_ctx c = {st, p};
    sc_cpu_parallel_for(st->threads, (p->num_triangles + SC_CPU_TRIANGLES_PER_TASK - 1) / SC_CPU_TRIANGLES_PER_TASK,
                        emit_chunk, &c);
}

static void swap_refs(sc_cpu_state *st)
{
    uint32_t *k = st->ref_keys, *v = st->ref_values;
    st->ref_keys = st->ref_keys_tmp;
    st->ref_values = st->ref_values_tmp;
    st->ref_keys_tmp = k;
    st->ref_values_tmp = v;
}

sc_status sc_cpu_tile_split(sc_cpu_state *st, const sc_frame_params *p)
{
    const uint32_t tb = p->tile_bits;
    const size_t n = st->num_refs;
    if (n == 0) {
        memset(st->tile_offsets, 0, sizeof(uint32_t) * (((size_t)1 << tb) + 1));
        return SC_OK;
    }
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = n;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    if (tb <= SC_SPLIT_PASS_BITS) {
        d.keys_in = st->ref_keys;
        d.keys_out = st->ref_keys_tmp;
        d.values_in = st->ref_values;
        d.values_out = st->ref_values_tmp;
        d.buckets.start_bit = 0;
        d.buckets.bit_count = tb;
        d.bucket_offsets = st->tile_offsets;
        SC_TRY(split_multisplit_ref(&d));
        swap_refs(st);
        return SC_OK;
    }
    const uint32_t lo = (tb + 1) / 2, hi = tb - lo;
    d.keys_in = st->ref_keys;
    d.keys_out = st->ref_keys_tmp;
    d.values_in = st->ref_values;
    d.values_out = st->ref_values_tmp;
    d.buckets.start_bit = lo;
    d.buckets.bit_count = hi;
    d.bucket_offsets = st->group_offsets;
    SC_TRY(split_multisplit_ref(&d));
    swap_refs(st);

    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = n;
    d.keys_in = st->ref_keys;
    d.keys_out = st->ref_keys_tmp;
    d.values_in = st->ref_values;
    d.values_out = st->ref_values_tmp;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.start_bit = 0;
    d.buckets.bit_count = lo;
    d.segment_offsets = st->group_offsets;
    d.num_segments = (size_t)1 << hi;
    d.bucket_offsets = st->tile_offsets;
    SC_TRY(split_segmented_ref(&d));
    swap_refs(st);
    return SC_OK;
}

sc_status sc_cpu_slab_split(sc_cpu_state *st, const sc_frame_params *p)
{
    const size_t n = st->num_refs;
    const size_t cells = ((size_t)p->num_tiles << p->slab_bits) + 1;
    if (n == 0) {
        memset(st->cell_offsets, 0, sizeof(uint32_t) * cells);
        return SC_OK;
    }
    split_desc d;
    memset(&d, 0, sizeof d);
    d.key_type = SPLIT_KEY_U32;
    d.n = n;
    d.keys_in = st->ref_keys;
    d.keys_out = st->ref_keys_tmp;
    d.values_in = st->ref_values;
    d.values_out = st->ref_values_tmp;
    d.buckets.rule = SPLIT_BUCKETS_BITS;
    d.buckets.start_bit = p->tile_bits;
    d.buckets.bit_count = p->slab_bits;
    d.segment_offsets = st->tile_offsets;   /* entry num_tiles is n: the tiles above are empty */
    d.num_segments = p->num_tiles;
    d.bucket_offsets = st->cell_offsets;
    SC_TRY(split_segmented_ref(&d));
    swap_refs(st);
    return SC_OK;
}
