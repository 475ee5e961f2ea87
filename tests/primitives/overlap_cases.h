/* overlap_cases.h - the arrays of one split-library call laid out in one arena, for the overlap tests
 * (test_overlap_ref.c against the references on the host, test_overlap.cu against the GPU entry
 * points). A configuration lists the arrays its call reads and writes; the base layout puts each in
 * a slot of its own; a placement then moves one written array W so that it overlaps another array O
 * by a few bytes at O's end or at O's start (the call must be rejected, naming W and O, with the arena
 * untouched), or lies right after or right before O (the call must succeed and give the outputs of
 * the base layout). Host-side C only: the arena's address may be a device address. */
#ifndef OVERLAP_CASES_H
#define OVERLAP_CASES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sc_status.h"
#include "split.h"
#include "sctest.h"

typedef enum ov_op { OV_MULTISPLIT, OV_INDEX, OV_SEGMENTED, OV_SORT, OV_GATHER, OV_SCATTER } ov_op;

typedef enum ov_field {
    OVF_KEYS_IN, OVF_VALUES_IN, OVF_BUCKET_IDS, OVF_BOUNDARIES, OVF_SEGMENT_OFFSETS, OVF_NUM_RECORDS,
    OVF_BUCKET_COUNTS, OVF_RECORDS_IN, OVF_SRC, OVF_INDEX, /* inputs */
    OVF_KEYS_OUT, OVF_VALUES_OUT, OVF_GATHER_INDEX, OVF_SCATTER_INDEX, OVF_BUCKET_OFFSETS, OVF_RECORDS_OUT,
    OVF_DST, OVF_TEMP /* written */
} ov_field;

static const char *const ov_field_names[] = {
    "keys_in", "values_in", "buckets.bucket_ids", "buckets.boundaries", "segment_offsets", "num_records_device",
    "bucket_counts", "records_in", "src", "index", "keys_out", "values_out", "gather_index", "scatter_index",
    "bucket_offsets", "records_out", "dst", "temp"};

enum { OV_MAX_ARRAYS = 16 };

typedef struct ov_config {
    const char *label;
    ov_op op;
    split_desc d;      /* OV_MULTISPLIT / OV_INDEX / OV_SEGMENTED: the scalars (pointers set by ov_descs) */
    split_sort_desc s; /* OV_SORT */
    split_move_desc m; /* OV_GATHER / OV_SCATTER */
    uint32_t records;  /* num_records_device's value (when the call has one) */
    int count;
    ov_field field[OV_MAX_ARRAYS];
    uint64_t bytes[OV_MAX_ARRAYS];
} ov_config;

static inline int ov_written(ov_field f) { return f >= OVF_KEYS_OUT; }
static inline const char *ov_name(ov_field f) { return ov_field_names[f]; }
/* Placement alignment of an array: temp to SPLIT_TEMP_ALIGNMENT, the rest to 8 (64-bit keys). */
static inline uint64_t ov_align(ov_field f) { return f == OVF_TEMP ? (uint64_t)SPLIT_TEMP_ALIGNMENT : 8u; }

static inline void ov_add(ov_config *c, ov_field f, uint64_t bytes)
{
    c->field[c->count] = f;
    c->bytes[c->count] = bytes;
    ++c->count;
}

/* The calls the tests place: every input and output kind of split_desc, split_sort_desc and
 * split_move_desc appears in at least one of them. Returns the number written to out (at most 7). */
static inline int ov_configs(ov_config *out)
{
    int k = 0;
    const uint64_t n = 1000;
    ov_config *c;

    c = &out[k++]; /* stable multisplit, 64-bit keys, BOUNDARIES, every output */
    memset(c, 0, sizeof *c);
    c->label = "multisplit stable u64 BOUNDARIES B=33";
    c->op = OV_MULTISPLIT;
    c->d.key_type = SPLIT_KEY_U64, c->d.n = n;
    c->d.buckets.rule = SPLIT_BUCKETS_BOUNDARIES, c->d.buckets.num_buckets = 33;
    ov_add(c, OVF_KEYS_IN, n * 8), ov_add(c, OVF_VALUES_IN, n * 4), ov_add(c, OVF_BOUNDARIES, 32 * 8);
    ov_add(c, OVF_KEYS_OUT, n * 8), ov_add(c, OVF_VALUES_OUT, n * 4), ov_add(c, OVF_GATHER_INDEX, n * 4);
    ov_add(c, OVF_SCATTER_INDEX, n * 4), ov_add(c, OVF_BUCKET_OFFSETS, 34 * 4);

    c = &out[k++]; /* the wide path: unstable, B > 2048, IDS, given counts, a device record count */
    memset(c, 0, sizeof *c);
    c->label = "multisplit unstable wide IDS B=3000, bucket_counts, num_records_device";
    c->op = OV_MULTISPLIT;
    c->d.key_type = SPLIT_KEY_U32, c->d.n = n, c->d.unstable = 1, c->records = (uint32_t)n - 5;
    c->d.buckets.rule = SPLIT_BUCKETS_IDS, c->d.buckets.num_buckets = 3000;
    ov_add(c, OVF_KEYS_IN, n * 4), ov_add(c, OVF_VALUES_IN, n * 4), ov_add(c, OVF_BUCKET_IDS, n * 4);
    ov_add(c, OVF_BUCKET_COUNTS, 3000 * 4), ov_add(c, OVF_NUM_RECORDS, 4);
    ov_add(c, OVF_KEYS_OUT, n * 4), ov_add(c, OVF_VALUES_OUT, n * 4), ov_add(c, OVF_GATHER_INDEX, n * 4);
    ov_add(c, OVF_SCATTER_INDEX, n * 4), ov_add(c, OVF_BUCKET_OFFSETS, 3001 * 4);

    c = &out[k++]; /* split index, RANGE rule */
    memset(c, 0, sizeof *c);
    c->label = "split_index u32 RANGE B=5";
    c->op = OV_INDEX;
    c->d.key_type = SPLIT_KEY_U32, c->d.n = n;
    c->d.buckets.rule = SPLIT_BUCKETS_RANGE, c->d.buckets.num_buckets = 5;
    c->d.buckets.range_base = 1000, c->d.buckets.range_delta = 1u << 29;
    ov_add(c, OVF_KEYS_IN, n * 4), ov_add(c, OVF_GATHER_INDEX, n * 4), ov_add(c, OVF_SCATTER_INDEX, n * 4);
    ov_add(c, OVF_BUCKET_OFFSETS, 6 * 4);

    c = &out[k++]; /* segmented split, 7 segments, 16 buckets, a device record count */
    memset(c, 0, sizeof *c);
    c->label = "segmented u32 BITS [3,7) S=7, num_records_device";
    c->op = OV_SEGMENTED;
    c->d.key_type = SPLIT_KEY_U32, c->d.n = n, c->d.num_segments = 7, c->records = (uint32_t)n - 3;
    c->d.buckets.rule = SPLIT_BUCKETS_BITS, c->d.buckets.start_bit = 3, c->d.buckets.bit_count = 4;
    ov_add(c, OVF_KEYS_IN, n * 4), ov_add(c, OVF_VALUES_IN, n * 4), ov_add(c, OVF_SEGMENT_OFFSETS, 8 * 4);
    ov_add(c, OVF_NUM_RECORDS, 4);
    ov_add(c, OVF_KEYS_OUT, n * 4), ov_add(c, OVF_VALUES_OUT, n * 4), ov_add(c, OVF_BUCKET_OFFSETS, (7 * 16 + 1) * 4);

    c = &out[k++]; /* SplitSort: 64-bit keys, values and 36-byte records */
    memset(c, 0, sizeof *c);
    c->label = "split_sort 64-bit keys, values, 36-byte records";
    c->op = OV_SORT;
    c->s.key_bits = 64, c->s.n = n, c->s.record_bytes = 36;
    ov_add(c, OVF_KEYS_IN, n * 8), ov_add(c, OVF_VALUES_IN, n * 4), ov_add(c, OVF_RECORDS_IN, n * 36);
    ov_add(c, OVF_KEYS_OUT, n * 8), ov_add(c, OVF_VALUES_OUT, n * 4), ov_add(c, OVF_RECORDS_OUT, n * 36);

    for (int g = 0; g < 2; ++g) { /* gather and scatter of 20-byte records */
        c = &out[k++];
        memset(c, 0, sizeof *c);
        c->label = g ? "split_scatter 20-byte records" : "split_gather 20-byte records";
        c->op = g ? OV_SCATTER : OV_GATHER;
        c->m.n = n, c->m.record_bytes = 20;
        ov_add(c, OVF_SRC, n * 20), ov_add(c, OVF_INDEX, n * 4), ov_add(c, OVF_DST, n * 20);
    }
    return k;
}

static inline int ov_find(const ov_config *c, ov_field f)
{
    for (int i = 0; i < c->count; ++i)
        if (c->field[i] == f) return i;
    return -1;
}

/* Slot size of the base layout: each slot holds its array, then room for any other array and
 * alignment slack on either side of it. */
static inline uint64_t ov_slot(const ov_config *c)
{
    uint64_t most = 0;
    for (int i = 0; i < c->count; ++i) most = c->bytes[i] > most ? c->bytes[i] : most;
    return (2 * most + 2 * (uint64_t)SPLIT_TEMP_ALIGNMENT + 255) / 256 * 256;
}

static inline uint64_t ov_arena_bytes(const ov_config *c) { return ((uint64_t)c->count + 2) * ov_slot(c); }

static inline void ov_base_layout(const ov_config *c, uint64_t *off)
{
    for (int i = 0; i < c->count; ++i) off[i] = ((uint64_t)i + 1) * ov_slot(c);
}

typedef enum ov_place { OV_OVERLAP_END, OV_OVERLAP_START, OV_AFTER, OV_BEFORE } ov_place;
static const char *const ov_place_names[] = {"overlapping the end of", "overlapping the start of", "right after",
                                             "right before"};

/* Moves array w relative to array o (the base layout otherwise). */
static inline void ov_place_array(const ov_config *c, uint64_t *off, int w, int o, ov_place how)
{
    const uint64_t al = ov_align(c->field[w]), os = off[o], oe = off[o] + c->bytes[o], wb = c->bytes[w];
    switch (how) {
    case OV_OVERLAP_END: off[w] = (oe - 1) / al * al; break;                /* starts inside o */
    case OV_OVERLAP_START: off[w] = (os - wb + 1 + al - 1) / al * al; break; /* ends inside o */
    case OV_AFTER: off[w] = (oe + al - 1) / al * al; break;
    case OV_BEFORE: off[w] = (os - wb) / al * al; break;
    }
}

/* The call's descriptors with every array at base + off[i]; *temp and *temp_bytes from the OVF_TEMP
 * array (NULL, 0 without one). */
static inline void ov_descs(const ov_config *c, char *base, const uint64_t *off, split_desc *d, split_sort_desc *s,
                            split_move_desc *m, void **temp, size_t *temp_bytes)
{
    *d = c->d, *s = c->s, *m = c->m;
    *temp = NULL, *temp_bytes = 0;
    for (int i = 0; i < c->count; ++i) {
        char *p = base + off[i];
        switch (c->field[i]) {
        case OVF_KEYS_IN: d->keys_in = p, s->keys_in = p; break;
        case OVF_VALUES_IN: d->values_in = (const uint32_t *)p, s->values_in = (const uint32_t *)p; break;
        case OVF_BUCKET_IDS: d->buckets.bucket_ids = (const uint32_t *)p; break;
        case OVF_BOUNDARIES: d->buckets.boundaries = p; break;
        case OVF_SEGMENT_OFFSETS: d->segment_offsets = (const uint32_t *)p; break;
        case OVF_NUM_RECORDS: d->num_records_device = (const uint32_t *)p; break;
        case OVF_BUCKET_COUNTS: d->bucket_counts = (const uint32_t *)p; break;
        case OVF_RECORDS_IN: s->records_in = p; break;
        case OVF_SRC: m->src = p; break;
        case OVF_INDEX: m->index = (const uint32_t *)p; break;
        case OVF_KEYS_OUT: d->keys_out = p, s->keys_out = p; break;
        case OVF_VALUES_OUT: d->values_out = (uint32_t *)p, s->values_out = (uint32_t *)p; break;
        case OVF_GATHER_INDEX: d->gather_index = (uint32_t *)p; break;
        case OVF_SCATTER_INDEX: d->scatter_index = (uint32_t *)p; break;
        case OVF_BUCKET_OFFSETS: d->bucket_offsets = (uint32_t *)p; break;
        case OVF_RECORDS_OUT: s->records_out = p; break;
        case OVF_DST: m->dst = p; break;
        case OVF_TEMP: *temp = p, *temp_bytes = (size_t)c->bytes[i]; break;
        }
    }
}

/* Poisons a host arena (0xAB) and writes valid inputs at the offsets, the same for every layout. */
static inline void ov_fill(const ov_config *c, char *arena, const uint64_t *off, uint64_t seed)
{
    memset(arena, 0xAB, (size_t)ov_arena_bytes(c));
    sct_rng rng;
    sct_rng_seed(&rng, seed);
    const size_t n = c->op == OV_SORT ? c->s.n : c->op >= OV_GATHER ? c->m.n : c->d.n;
    const uint32_t nb = c->d.buckets.num_buckets;
    uint32_t *ids = NULL;
    const int ids_at = ov_find(c, OVF_BUCKET_IDS);
    if (ids_at >= 0) ids = (uint32_t *)(arena + off[ids_at]);
    for (int i = 0; i < c->count; ++i) {
        char *p = arena + off[i];
        uint32_t *w = (uint32_t *)p;
        switch (c->field[i]) {
        case OVF_KEYS_IN:
        case OVF_VALUES_IN:
        case OVF_RECORDS_IN:
        case OVF_SRC:
            for (uint64_t j = 0; j < c->bytes[i] / 4; ++j) w[j] = sct_rng_u32(&rng);
            break;
        case OVF_BUCKET_IDS:
            for (size_t j = 0; j < n; ++j) w[j] = sct_rng_below(&rng, nb);
            break;
        case OVF_BOUNDARIES: { /* nb - 1 sorted keys of the key type */
            uint64_t *b = (uint64_t *)p, step = UINT64_MAX / nb;
            for (uint32_t j = 0; j + 1 < nb; ++j) b[j] = step * (j + 1) - (sct_rng_next(&rng) % (step / 2));
            break;
        }
        case OVF_SEGMENT_OFFSETS: { /* 0, sorted cuts, n (one empty segment) */
            const size_t S = c->d.num_segments;
            w[0] = 0, w[S] = (uint32_t)n;
            for (size_t s = 1; s < S; ++s) w[s] = (uint32_t)(n * s / S);
            if (S > 2) w[2] = w[1];
            break;
        }
        case OVF_NUM_RECORDS: w[0] = c->records; break;
        case OVF_INDEX: /* a permutation */
            for (size_t j = 0; j < n; ++j) w[j] = (uint32_t)j;
            for (size_t j = n; j > 1; --j) {
                const uint32_t r = sct_rng_below(&rng, (uint32_t)j), t = w[j - 1];
                w[j - 1] = w[r], w[r] = t;
            }
            break;
        default: break;
        }
    }
    const int counts_at = ov_find(c, OVF_BUCKET_COUNTS);
    if (counts_at >= 0 && ids) { /* the exact counts of records [0, records) */
        uint32_t *cnt = (uint32_t *)(arena + off[counts_at]);
        memset(cnt, 0, (size_t)nb * 4);
        const size_t upto = c->records && c->records < n ? c->records : n;
        for (size_t j = 0; j < upto; ++j) ++cnt[ids[j]];
    }
}

/* Outputs of an unstable call compared as multisets: each bucket's range of keys_out, values_out and
 * gather_index sorted, scatter_index sorted whole (bucket_offsets exact, and already compared). */
static int ov_cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static inline void ov_canonical(const ov_config *c, char *arena, const uint64_t *off)
{
    if (!c->d.unstable) return;
    const int bo = ov_find(c, OVF_BUCKET_OFFSETS);
    const uint32_t *o = (const uint32_t *)(arena + off[bo]), nb = c->d.buckets.num_buckets;
    for (int i = 0; i < c->count; ++i) {
        uint32_t *w = (uint32_t *)(arena + off[i]);
        const ov_field f = c->field[i];
        if (f == OVF_KEYS_OUT || f == OVF_VALUES_OUT || f == OVF_GATHER_INDEX) {
            for (uint32_t b = 0; b < nb; ++b)
                if (o[b] < o[b + 1] && o[b + 1] <= c->d.n) qsort(w + o[b], o[b + 1] - o[b], 4, ov_cmp_u32);
        } else if (f == OVF_SCATTER_INDEX) {
            qsort(w, c->d.n, 4, ov_cmp_u32);
        }
    }
}

/* Bytes of the written arrays (temp excluded) of two runs that differ. */
static inline uint64_t ov_outputs_differ(const ov_config *c, const char *a, const uint64_t *aoff, const char *b,
                                         const uint64_t *boff)
{
    uint64_t bad = 0;
    for (int i = 0; i < c->count; ++i)
        if (ov_written(c->field[i]) && c->field[i] != OVF_TEMP)
            for (uint64_t j = 0; j < c->bytes[i]; ++j) bad += a[aoff[i] + j] != b[boff[i] + j];
    return bad;
}

/* The call of a configuration on the arrays at base + off: the GPU entry point (gpu nonzero, base a
 * device arena, temp from the OVF_TEMP array) or the host reference. */
static inline sc_status ov_call(const ov_config *c, char *base, const uint64_t *off, int gpu)
{
    split_desc d;
    split_sort_desc s;
    split_move_desc m;
    void *temp;
    size_t tb;
    ov_descs(c, base, off, &d, &s, &m, &temp, &tb);
    switch (c->op) {
    case OV_MULTISPLIT: return gpu ? split_multisplit(temp, &tb, &d, 0) : split_multisplit_ref(&d);
    case OV_INDEX: return gpu ? split_index(temp, &tb, &d, 0) : split_index_ref(&d);
    case OV_SEGMENTED: return gpu ? split_segmented(temp, &tb, &d, 0) : split_segmented_ref(&d);
    case OV_SORT: return gpu ? split_sort(temp, &tb, &s, 0) : split_sort_ref(&s);
    case OV_GATHER: return gpu ? split_gather(&m, 0) : split_gather_ref(&m);
    case OV_SCATTER: return gpu ? split_scatter(&m, 0) : split_scatter_ref(&m);
    }
    return SC_ERROR_INVALID_ARGUMENT;
}

/* The GPU call's temporary storage, queried with the base layout at a stand-in address (the size
 * depends on which pointers are set, not on their values); 0 for gather / scatter. */
static inline sc_status ov_temp_size(const ov_config *c, size_t *bytes)
{
    uint64_t off[OV_MAX_ARRAYS];
    ov_base_layout(c, off);
    split_desc d;
    split_sort_desc s;
    split_move_desc m;
    void *temp;
    size_t unused;
    ov_descs(c, (char *)(uintptr_t)0x10000000u, off, &d, &s, &m, &temp, &unused);
    *bytes = 0;
    switch (c->op) {
    case OV_MULTISPLIT: return split_multisplit(NULL, bytes, &d, 0);
    case OV_INDEX: return split_index(NULL, bytes, &d, 0);
    case OV_SEGMENTED: return split_segmented(NULL, bytes, &d, 0);
    case OV_SORT: return split_sort(NULL, bytes, &s, 0);
    default: return SC_OK;
    }
}

static const char *const ov_op_names[] = {"split_multisplit", "split_index", "split_segmented", "split_sort",
                                          "split_gather", "split_scatter"};

/* Runs the call under test on the arena `in` (ov_arena_bytes(c) bytes, arrays at off) and leaves the
 * arena as the call left it in `out`; returns the call's status. */
typedef sc_status (*ov_runner)(const ov_config *c, const char *in, char *out, const uint64_t *off, void *user);

/* Every placement of every written array of c against every other array, and the base layout: the
 * overlapping ones must be rejected (a message naming the call, "split_multisplit" also matching
 * "split_multisplit_ref", and both arrays; the arena unchanged), the others must give the reference's
 * outputs of the base layout. Adds to *rejected and *accepted. */
static inline void ov_check_placements(const ov_config *c, uint64_t seed, ov_runner run, void *user, int *rejected,
                                       int *accepted)
{
    const size_t size = (size_t)ov_arena_bytes(c);
    char *ref = (char *)malloc(size), *in = (char *)malloc(size), *out = (char *)malloc(size);
    uint64_t off0[OV_MAX_ARRAYS], off[OV_MAX_ARRAYS];
    if (!ref || !in || !out) {
        sct_fail(__FILE__, __LINE__, "%s: host allocation of 3 x %zu bytes failed", c->label, size);
        free(ref), free(in), free(out);
        return;
    }
    ov_base_layout(c, off0);
    ov_fill(c, ref, off0, seed);
    const sc_status base_status = ov_call(c, ref, off0, 0);
    SCT_CHECK_MSG(base_status == SC_OK, "%s: the reference failed: %s", c->label, sc_last_error());
    ov_canonical(c, ref, off0);
    for (int w = -1; w < c->count && base_status == SC_OK; ++w) { /* w = -1: the base layout */
        if (w >= 0 && !ov_written(c->field[w])) continue;
        for (int o = 0; o < c->count; ++o) {
            if (o == w || (w < 0 && o > 0)) continue;
            for (int how = OV_OVERLAP_END; how <= OV_BEFORE; ++how) {
                if (w < 0 && how != OV_AFTER) continue;
                char what[200];
                memcpy(off, off0, sizeof off);
                if (w >= 0) {
                    ov_place_array(c, off, w, o, (ov_place)how);
                    snprintf(what, sizeof what, "%s: %s %s %s", c->label, ov_name(c->field[w]), ov_place_names[how],
                             ov_name(c->field[o]));
                } else {
                    snprintf(what, sizeof what, "%s: base layout", c->label);
                }
                ov_fill(c, in, off, seed);
                sc_clear_error();
                const sc_status st = run(c, in, out, off, user);
                const char *msg = sc_last_error();
                if (w >= 0 && how <= OV_OVERLAP_START) {
                    ++*rejected;
                    SCT_CHECK_MSG(st == SC_ERROR_INVALID_ARGUMENT && strstr(msg, ov_op_names[c->op]) &&
                                      strstr(msg, ov_name(c->field[w])) && strstr(msg, ov_name(c->field[o])),
                                  "%s: returned %s, \"%s\"", what, sc_status_name(st), msg);
                    size_t changed = 0;
                    for (size_t i = 0; i < size; ++i) changed += in[i] != out[i];
                    SCT_CHECK_MSG(changed == 0, "%s: the rejected call changed %zu of the arena's %zu bytes", what,
                                  changed, size);
                } else {
                    ++*accepted;
                    SCT_CHECK_MSG(st == SC_OK, "%s: returned %s, \"%s\"", what, sc_status_name(st), msg);
                    ov_canonical(c, out, off);
                    const uint64_t bad = ov_outputs_differ(c, ref, off0, out, off);
                    SCT_CHECK_MSG(bad == 0, "%s: %llu output bytes differ from the reference's", what,
                                  (unsigned long long)bad);
                }
            }
        }
    }
    free(ref), free(in), free(out);
}

static inline void ov_quiet(sc_log_level level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
}

#endif /* OVERLAP_CASES_H */
