/* split.h - the slabcast split library: stable split, multisplit, segmented split, split index,
 * gather / scatter and SplitSort on NVIDIA GPUs, each with a plain-C reference (*_ref).
 *
 * Conventions (CUB-like):
 *  - Device pointers in, device pointers out; the stream is the last argument. Every call is
 *    asynchronous on that stream: no allocation, no synchronisation, safe inside CUDA graph capture.
 *  - Two-phase temporary storage: call once with temp == NULL to get *temp_bytes, allocate, call
 *    again with the same descriptor. Calls that need no temporary storage take none.
 *    - The size depends on n, B, the key type and WHICH outputs and payloads are requested (the data
 *      pointers' NULL-ness, not their values), and for split_segmented on the current device's SM
 *      count: query with the descriptor you will run (pointers set as they will be). A buffer sized
 *      for a larger n with the same settings is large enough; too small a buffer is rejected with
 *      SC_ERROR_TEMP_STORAGE before anything is launched.
 *    - temp must be aligned to SPLIT_TEMP_ALIGNMENT bytes (cudaMalloc / cudaMallocAsync are).
 *    - temp is the call's until its work on the stream is done: two calls in flight at once (on
 *      different streams, or overlapping through graph branches) need two buffers.
 *  - Alignment: keys to their size (4 bytes, 8 for SPLIT_KEY_U64 and split_sort's 64-bit keys);
 *    values, ids, indices, offsets and records to 4 bytes; BOUNDARIES tables to the key size.
 *    A misaligned pointer is SC_ERROR_INVALID_ARGUMENT.
 *  - Aliasing: no output may overlap an input, another output or temp (in-place operation is not
 *    supported); inputs may overlap each other. Each array is taken at the size the call uses (n
 *    keys, n values, B + 1 or S * B + 1 bucket offsets, S + 1 segment offsets, B bucket counts,
 *    B - 1 boundaries, n records; temp at its temp_bytes), and any overlap of a written array with
 *    another is SC_ERROR_INVALID_ARGUMENT naming both.
 *  - Descriptors are plain structs whose zero fields mean "default" (initialise with {0}).
 *  - Errors: an sc_status return; details in sc_last_error() (sc_status.h). Bad arguments are found
 *    before anything is launched, so on failure nothing is written. SC_OK means the work was
 *    enqueued: a fault while it runs (e.g. a device pointer to too little memory) surfaces as a CUDA
 *    error of the stream, as with any kernel, and the outputs are then unspecified.
 *  - Device data the host cannot see is not validated: bucket ids >= B (clamped, see
 *    SPLIT_BUCKETS_IDS), a gather / scatter index >= n (skipped); unsorted BOUNDARIES tables and segment
 *    offsets that decrease or exceed n give unspecified results. The *_ref functions check these and
 *    return SC_ERROR_INVALID_ARGUMENT.
 *  - Device: the calls run on the calling thread's current device (cudaSetDevice), which must be the
 *    stream's. Calls from several threads at once are safe (on different temp buffers; set the log
 *    callback of sc_status.h before they start).
 *  - Launches: split_segmented with B <= 32 is one cooperative kernel sized to be fully resident
 *    (with MPS or a partitioned GPU it can fail to launch: a CUDA error naming the kernel); the
 *    multisplit's kernels use programmatic dependent launch (sm_90) where the device supports it
 *    (compute capability 9.0+, unless SLABCAST_CUDA_PORTABLE=1 is in the environment at the first call
 *    on that device: then plain stream order, as on older GPUs).
 *  - The unstable variants (desc->unstable) may order a bucket's records differently from run to run.
 *  - The *_ref functions take the same descriptors with HOST pointers, run on the calling thread,
 *    and produce bit-identical results (same permutation, same offsets) for the stable variants.
 *
 * Header holds no CUDA types except cudaStream_t (declared here as the CUDA runtime declares it), so
 * it compiles as plain C without the CUDA toolkit.
 *
 * CPU-only build (SLABCAST_WITH_CUDA OFF): the library holds the references and the host bucket rule
 * only: split_multisplit_ref, split_index_ref, split_segmented_ref, split_gather_ref,
 * split_scatter_ref, split_sort_ref, split_bucket_of_ref and split_bucket_of_ref_checked. The device
 * functions (split_multisplit, split_index, split_segmented, split_gather, split_scatter, split_sort)
 * exist only in a CUDA build. */
#ifndef SPLIT_H
#define SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUstream_st *cudaStream_t;

enum { SPLIT_MAX_BUCKETS = 2048 }; /* buckets in one pass */
enum { SPLIT_MAX_BITS = 11 };      /* log2 SPLIT_MAX_BUCKETS: widest BITS field of a stable split */
enum { SPLIT_TEMP_ALIGNMENT = 256 }; /* required alignment of the temporary storage */
/* Buckets of an unstable split_multisplit / split_index (desc->unstable nonzero): B in
 * (SPLIT_MAX_BUCKETS, SPLIT_MAX_WIDE_BUCKETS] takes the "wide" path (one count pass, a scan of the
 * B counts, one placement pass with atomic cursors). Stable calls and the segmented split stay at
 * SPLIT_MAX_BUCKETS. */
enum { SPLIT_MAX_WIDE_BUCKETS = 1u << 24 };

typedef enum split_key_type {
    SPLIT_KEY_U32 = 0, /* uint32_t keys */
    SPLIT_KEY_U64      /* uint64_t keys */
} split_key_type;

typedef enum split_bucket_rule {
    /* bucket = (key >> start_bit) & (2^bit_count - 1); num_buckets defaults to 2^bit_count. */
    SPLIT_BUCKETS_BITS = 0,
    /* bucket = bucket_ids[i], a caller's device array of n values, each < num_buckets. The device
     * cannot check that without synchronising: there an id >= num_buckets goes to bucket
     * num_buckets - 1; the reference rejects it with SC_ERROR_INVALID_ARGUMENT. */
    SPLIT_BUCKETS_IDS,
    /* bucket = min((key - range_base) / range_delta, num_buckets - 1), and 0 for key < range_base
     * (keys compared as unsigned integers of the key type): delta-stepping style buckets. */
    SPLIT_BUCKETS_RANGE,
    /* bucket = number of entries of boundaries[0 .. num_buckets-2] that are <= key, where boundaries
     * is a sorted (ascending) device array of num_buckets - 1 keys of the key type. */
    SPLIT_BUCKETS_BOUNDARIES
} split_bucket_rule;
/* The number of rules above: one past the last (a new rule goes last and is named here; the library
 * checks this count at compile time in each of its rule switches). */
enum { SPLIT_RULE_COUNT = SPLIT_BUCKETS_BOUNDARIES + 1 };

typedef struct split_buckets {
    split_bucket_rule rule;
    uint32_t num_buckets;       /* B, 1 .. SPLIT_MAX_BUCKETS (unstable multisplit / split index:
                                   1 .. SPLIT_MAX_WIDE_BUCKETS); 0 with BITS means 2^bit_count */
    uint32_t start_bit;         /* BITS: lowest bit of the field */
    uint32_t bit_count;         /* BITS: width of the field, 0 .. SPLIT_MAX_BITS (unstable multisplit /
                                   split index: 0 .. 24); start_bit + bit_count <= the key's width */
    const uint32_t *bucket_ids; /* IDS: n entries */
    uint64_t range_base;        /* RANGE */
    uint64_t range_delta;       /* RANGE: > 0 */
    const void *boundaries;     /* BOUNDARIES: num_buckets - 1 sorted keys of the key type */
} split_buckets;

/* One descriptor for split, multisplit, segmented split and split index. */
typedef struct split_desc {
    split_key_type key_type;
    size_t n;                    /* records, < 2^32 */
    const void *keys_in;         /* n keys; may be NULL only with the IDS rule and no keys_out */
    void *keys_out;              /* n keys, grouped by bucket; NULL: keys are not moved */
    const uint32_t *values_in;   /* optional n values moved with the keys */
    uint32_t *values_out;        /* required when values_in is set */
    split_buckets buckets;
    uint32_t *bucket_offsets;    /* optional out: (segments * B) + 1 entries; entry s*B+b is where
                                    bucket b of segment s starts, the last entry is n */
    uint32_t *gather_index;      /* optional out: out[i] = in[gather_index[i]] */
    uint32_t *scatter_index;     /* optional out: out[scatter_index[i]] = in[i] */
    int unstable;                /* nonzero: order inside a bucket is unspecified (faster) */
    /* Segmented split only: segment s is [segment_offsets[s], segment_offsets[s+1]); entry 0 is 0
     * and entry num_segments is n. Buckets never cross segments. */
    const uint32_t *segment_offsets;
    size_t num_segments;
    /* Segmented split and unstable multisplit / split index only, optional: the number of
     * records, read on the device when the split runs (a size only the device knows, e.g. produced
     * by an earlier kernel on the stream). The split then processes records [0, c) with
     * c = min(*num_records_device, n): records past c are neither read nor written (outputs
     * included: keys_out, values_out, gather_index and scatter_index hold c records), and the last
     * bucket offset is c. Segmented: segment s is [min(segment_offsets[s], c),
     * min(segment_offsets[s+1], c)) (so entry num_segments may be any value >= c). Temporary
     * storage is sized from n. NULL: c = n (the rules above). The references (split_segmented_ref,
     * split_multisplit_ref, split_index_ref) take it as a HOST pointer with the same meaning. Stable
     * multisplit / split index and split_sort reject it. */
    const uint32_t *num_records_device;
    /* Unstable multisplit / split index only, optional: the caller's exact number of records in
     * each bucket (B entries, device), e.g. counted by a pass of its own; with num_records_device
     * they count records [0, c). The split then skips its own count pass (and its temporary storage
     * holds no counts). Counts that are wrong give an unspecified output order and bucket offsets,
     * but nothing is written outside the output arrays. The references take it as a HOST pointer
     * and reject counts that differ from their own (SC_ERROR_INVALID_ARGUMENT). NULL: counted.
     * Stable calls and the segmented split reject it. */
    const uint32_t *bucket_counts;
    /* Unstable multisplit only, optional: nonzero when the records of a bucket mostly come in runs
     * (as references emitted triangle by triangle, by screen tile). A wide call with the BITS rule
     * (B > SPLIT_MAX_BUCKETS or bucket_counts given), keys moved, no index outputs and no
     * num_records_device otherwise takes stable LSD passes (two on a field of at most
     * SPLIT_MAX_BITS + 6 bits, three or four on wider ones), which take no atomic per record (best
     * on spread keys; bucket_counts then unused);
     * with clustered, the wide one-pass placement, which places a tile's runs whole. 0: not known. */
    int clustered;
} split_desc;

/* Split / multisplit: groups the n records into B contiguous buckets, bucket 0 first; within a
 * bucket the input order is kept unless desc->unstable. Any of keys_out, gather_index,
 * scatter_index and bucket_offsets may be requested; at least one must be. segment_* ignored.
 * Unstable calls with B > SPLIT_MAX_BUCKETS, bucket_counts or num_records_device take the wide path
 * (any B in 1 .. SPLIT_MAX_WIDE_BUCKETS, every rule, u32 / u64 keys; its temporary storage holds two
 * arrays of B counters besides the scan's, independent of n). */
sc_status split_multisplit(void *temp, size_t *temp_bytes, const split_desc *desc, cudaStream_t stream);

/* Split index: the same permutation, returned as gather_index and/or scatter_index instead of moving
 * records (keys_out / values_out must be NULL). A thin, named entry to split_multisplit. */
sc_status split_index(void *temp, size_t *temp_bytes, const split_desc *desc, cudaStream_t stream);

/* Segmented split: a stable split inside each of num_segments segments (S up to millions, segments
 * empty to huge). bucket_offsets, when given, has num_segments * B + 1 entries. */
sc_status split_segmented(void *temp, size_t *temp_bytes, const split_desc *desc, cudaStream_t stream);

/* Gather / scatter of records of record_bytes (a multiple of 4, 4 .. 2^32 - 4) bytes:
 *   gather:  dst[i] = src[index[i]]       scatter: dst[index[i]] = src[i]      for i < n.
 * Several threads move one record so consecutive threads touch consecutive words. The index must
 * be a permutation for scatter (a repeated index is a race). num_passes > 1 selects the multi-pass
 * variant: pass p reads (gather) or writes (scatter) only records whose source/destination position
 * lies in window p of num_passes equal windows, keeping the traffic of each pass local.
 * num_passes = 0 lets a model choose (split_move_passes): the pass count of least modelled DRAM
 * traffic for the record size, the count and the device's L2 (He et al. 2007's partitioned
 * gather/scatter: a window that fits the cache moves each of its sectors once, while every pass
 * reads the whole index again and touches the in-order side sparsely). The result never depends on
 * the pass count.
 * src and dst hold n records each and must be aligned to 4 bytes (the widest path, 16-byte words, is
 * taken when src, dst and record_bytes are multiples of 16). The device skips an index >= n (that
 * record of dst is not written); the references reject it. */
typedef struct split_move_desc {
    const void *src;
    void *dst;
    size_t record_bytes;
    const uint32_t *index;
    size_t n;
    uint32_t num_passes;         /* 0: chosen by the model (split_move_passes); 1: single pass */
} split_move_desc;

sc_status split_gather(const split_move_desc *desc, cudaStream_t stream);
sc_status split_scatter(const split_move_desc *desc, cudaStream_t stream);

/* The pass count split_gather (scatter = 0) or split_scatter (scatter nonzero) uses for desc on the
 * current device: desc->num_passes when nonzero, else the model's choice (1, 2, 4, ... 64) from n,
 * record_bytes, the direction and the device's L2 size. Checks desc as split_gather does. Does not
 * wait for the device. */
sc_status split_move_passes(const split_move_desc *desc, int scatter, uint32_t *passes);

/* SplitSort: LSD radix sort by repeated stable 8-bit splits (ascending, unsigned keys).
 * key_bits: 32 (uint32_t keys), 64 (uint64_t keys) or 96 (three uint32_t words per key, word 0 least
 * significant). Optionally moves 32-bit values, or records of record_bytes each (sorted by
 * (key, index) then one gather at the end; record_bytes a multiple of 4 below 2^32, records_in and
 * records_out aligned to 4 bytes). key_bits_used limits the sort to the low bits (0 = all). Stable:
 * equal keys keep input order. keys_in is not modified. */
typedef struct split_sort_desc {
    uint32_t key_bits;           /* 32, 64 or 96; 0 means 32 */
    uint32_t key_bits_used;      /* 0 = key_bits */
    size_t n;
    const void *keys_in;
    void *keys_out;
    const uint32_t *values_in;   /* optional */
    uint32_t *values_out;
    const void *records_in;      /* optional, record_bytes each */
    void *records_out;
    size_t record_bytes;
} split_sort_desc;

sc_status split_sort(void *temp, size_t *temp_bytes, const split_sort_desc *desc, cudaStream_t stream);

/* ---- Plain-C references: same descriptors, host pointers, single-threaded. ---- */
sc_status split_multisplit_ref(const split_desc *desc);
sc_status split_index_ref(const split_desc *desc);
sc_status split_segmented_ref(const split_desc *desc);
sc_status split_gather_ref(const split_move_desc *desc);
sc_status split_scatter_ref(const split_move_desc *desc);
sc_status split_sort_ref(const split_sort_desc *desc);

/* The bucket of key/record i under a rule (host). Exposed for tests and the CPU backend.
 * Safe for any arguments: returns SPLIT_NO_BUCKET (and records nothing) when desc is NULL, i >= n,
 * the array the rule reads (keys_in; bucket_ids for IDS; boundaries for BOUNDARIES with B > 1) is
 * NULL, or the rule, key type, bit field, bucket count or range_delta is invalid. With the IDS rule
 * it returns bucket_ids[i] as given (which may be >= B: the caller checks it against B). */
#define SPLIT_NO_BUCKET 0xFFFFFFFFu
uint32_t split_bucket_of_ref(const split_desc *desc, size_t i);
/* The same with a status: INVALID_ARGUMENT with a message for each case above, and for a bucket id
 * >= B (IDS); *bucket is written only on SC_OK. */
sc_status split_bucket_of_ref_checked(const split_desc *desc, size_t i, uint32_t *bucket);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_H */
