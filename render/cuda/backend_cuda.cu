/* backend_cuda.cu - the CUDA backend (host side): device buffers, the frame's stages captured once
 * into a CUDA graph per ring slot (timed with events) and replayed on the renderer's stream, the
 * ring of frames in flight whose counters are read back without waiting, growth of the reference
 * buffer, and copies to the host, behind the backend table sc_backend_cuda_ops (sc_backend_ops.h).
 * See backend_cuda.h for the capacity rule. Kernels live in the stage files (deform_cuda.cu,
 * project_cuda.cu, bin_cuda.cu, overflow_cuda.cu, raycast_cuda.cu, shade_cuda.cu). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include "backend_cuda.h"
#include "normals_cpu.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "sizes.h"

static_assert(SC_FRAME_RECORDS > SC_CUDA_FRAMES_IN_FLIGHT,
              "the front end keeps a record of every frame poll may report");

/* The backend's state as this file allocates it: the stage files' sc_cuda_state first (a pointer to
 * one is a pointer to the other, and the table's functions take either), then what only this file
 * reads: how the grid is built. With SC_BINNING_RADIX_SORT the temporary storage st.split_temp holds
 * CUB's (bin_radix_cuda.cu) instead of the split library's. */
struct sc_cuda_backend {
    sc_cuda_state st;
    sc_binning binning;
};
static_assert(std::is_standard_layout<sc_cuda_backend>::value && offsetof(sc_cuda_backend, st) == 0,
              "sc_cuda_state is the first member");

static sc_binning binning_of(const sc_cuda_state *st)
{
    return reinterpret_cast<const sc_cuda_backend *>(st)->binning;
}

static int cuda_available(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky-free error of a machine without a device */
        return 0;
    }
    return count > 0;
}

/* The Hopper paths (thread-block clusters; the split library's programmatic dependent launch) run on
 * a device of compute capability 9.0 or newer, unless SLABCAST_CUDA_PORTABLE=1 forces the portable
 * paths (every GPU the build holds code for runs those; the GPU suite tests them on the H100 so). */
static int cuda_portable_forced(void)
{
    const char *v = getenv("SLABCAST_CUDA_PORTABLE");
    return v && strcmp(v, "1") == 0;
}

static int cuda_hopper_paths(int major)
{
    return major >= 9 && !cuda_portable_forced();
}

static void cuda_describe(sc_backend_info *info)
{
    int count = 0, dev = 0;
    info->buffer_memory = SC_MEMORY_DEVICE;
    info->device_timed = 1; /* frame_ms and stage_ms from CUDA events on the renderer's stream */
    info->worker_threads = 0;
    info->device[0] = '\0';
    info->device_name[0] = '\0';
    info->code_path = "";
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        info->available = 0;
        snprintf(info->unavailable_reason, sizeof info->unavailable_reason, "no CUDA device (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return;
    }
    cudaDeviceProp prop;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess || (e = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess) {
        cudaGetLastError();
        info->available = 0;
        snprintf(info->unavailable_reason, sizeof info->unavailable_reason, "the CUDA device does not answer (%s)",
                 cudaGetErrorString(e));
        return;
    }
    info->available = 1;
    info->unavailable_reason[0] = '\0';
    snprintf(info->device, sizeof info->device, "%.160s (sm_%d%d, %d SMs, %.0f GiB)", prop.name, prop.major, prop.minor,
             prop.multiProcessorCount, (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
    snprintf(info->device_name, sizeof info->device_name, "%.160s", prop.name); /* as in device */
    info->code_path = cuda_hopper_paths(prop.major) ? "hopper" : "portable";
}

template <typename T> static void dev_free(T *&p)
{
    if (p) cudaFree((void *)p);
    p = NULL;
}

/* Grows device buffer *buf to at least n elements of `size` bytes (contents not kept). */
template <typename T> static sc_status dev_ensure(T *&buf, size_t *cap, size_t n, const char *what)
{
    if (buf && *cap >= n) return SC_OK;
    dev_free(buf);
    *cap = 0;
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, (n > 0 ? n : 1) * sizeof(T));
    if (e != cudaSuccess)
        return SC_FAIL(e == cudaErrorMemoryAllocation ? SC_ERROR_OUT_OF_MEMORY : SC_ERROR_CUDA,
                       "renderer (CUDA): cannot allocate %zu bytes of device memory for %s: %s", n * sizeof(T), what,
                       cudaGetErrorString(e));
    buf = (T *)p;
    *cap = n;
    return SC_OK;
}

template <typename T> static sc_status dev_alloc(T *&buf, size_t n, const char *what)
{
    size_t cap = 0;
    dev_free(buf);
    return dev_ensure(buf, &cap, n, what);
}

/* Adds to *need the bytes buffer `buf` (holding cap elements) would take to hold n, and to *freed
 * what it gives back then; nothing when it already holds n. */
template <typename T> static void grow_bytes(const T *buf, size_t cap, size_t n, size_t *need, size_t *freed)
{
    if (buf && cap >= n) return;
    *need += n * sizeof(T);
    if (buf) *freed += cap * sizeof(T);
}

/* Checks `need` bytes of new device buffers (`freed` bytes given back first) against the device's
 * free memory before allocating, so a request far over it fails with what to lower. */
static sc_status check_device_memory(size_t need, size_t freed, const char *what, const char *lower)
{
    size_t free_bytes = 0, total_bytes = 0;
    SC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need <= free_bytes || need - free_bytes <= freed) return SC_OK;
    char need_text[32], free_text[32], total_text[32];
    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer (CUDA): %s needs %s of device memory, but %s of %s is free; %s",
                   what, sc_format_bytes((double)need, need_text, sizeof need_text),
                   sc_format_bytes((double)free_bytes + (double)freed, free_text, sizeof free_text),
                   sc_format_bytes((double)total_bytes, total_text, sizeof total_text), lower);
}

static void free_mesh(sc_cuda_state *st)
{
    dev_free(st->rest_positions); dev_free(st->rest_normals); dev_free(st->positions);
    dev_free(st->indices); dev_free(st->adj_offsets); dev_free(st->adj_tris);
    dev_free(st->new_of_old); dev_free(st->positions_stage);
    dev_free(st->tri_keys); dev_free(st->tri_bins);
    dev_free(st->share_ids);
    st->num_vertices = st->num_triangles = 0;
}

/* Drops the captured frame graphs (buffers or sizes changed); the next frame captures them again.
 * Callers have waited for the stream, so no frame in flight uses them. */
static void drop_graphs(sc_cuda_state *st)
{
    for (int k = 0; k < SC_CUDA_FRAMES_IN_FLIGHT; ++k)
        if (st->slots[k].graph) {
            cudaGraphExecDestroy(st->slots[k].graph);
            st->slots[k].graph = NULL;
        }
}

static void free_shadows(sc_cuda_state *st)
{
    dev_free(st->shadow_mask); dev_free(st->shadow_tests); dev_free(st->shadow_org);
    dev_free(st->recv_keys);
    for (int i = 0; i < 2; ++i) dev_free(st->recv_values[i]);
    dev_free(st->recv_offsets); dev_free(st->shadow_cells);
    dev_free(st->shadow_tile_box); /* the per-tile words' block (shadow_tile_wmax and the counts in it) */
    st->shadow_tile_wmax = st->recv_counts = NULL;
    st->shadow_tile_words = 0;
    dev_free(st->shadow_lights_dev); dev_free(st->shadow_temp);
    dev_free(st->shadow_recs);
    st->shadow_recs_capacity = 0;
    dev_free(st->shadow_vlight);
    st->shadow_vlight_capacity = 0;
    st->shadow_temp_bytes = 0;
    st->shadow_sized_refs = 0;
    st->shadow_pixels = 0;
}

/* The shadow pass's buffers for the current target (allocated with the first frame that has shadows,
 * after waiting for the frames in flight; the frame graphs are captured again) and its splits'
 * temporary storage for the current reference capacity. */
static sc_status ensure_shadows(sc_cuda_state *st)
{
    const size_t pixels = (size_t)st->grid.width * st->grid.height;
    sc_shadow_grid_shape shape;
    sc_cuda_shadow_shape(st, &shape);
    /* Every frame with shadows comes here: nothing to do (no size query either) while the target, the
     * mesh's grid and the reference capacity are those the buffers were sized for. */
    if (st->shadow_mask && st->shadow_pixels >= pixels && st->shadow_tiles == shape.num_tiles &&
        st->shadow_sized_refs == st->ref_capacity)
        return SC_OK;
    if (st->shadow_pixels < pixels || !st->shadow_mask || st->shadow_tiles != shape.num_tiles) {
        SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
        drop_graphs(st);
        free_shadows(st);
        const size_t buckets = (size_t)1 << shape.tile_bits;
        const size_t cells = ((size_t)shape.num_tiles << shape.slab_bits) + 1;
        /* mask 1 (words), tests 4, origin 16, receiver keys 4 and values 8 bytes a pixel. */
        /* Per tile: receiver bounds 4, farthest receiver 1, receiver count 1 word. */
        const size_t tile_words = 6 * (size_t)shape.num_tiles;
        const size_t need = pixels * 33 + 4 + (buckets + 1 + cells + tile_words) * sizeof(uint32_t) +
                            SC_MAX_LIGHTS * sizeof(sc_cuda_shadow_light);
        char what[96];
        snprintf(what, sizeof what, "the shadow pass of a %ux%u target", st->grid.width, st->grid.height);
        SC_TRY(check_device_memory(need, 0, what, "lower the target size"));
        sc_status s = dev_alloc(st->shadow_mask, (pixels + 3) / 4 * 4, "the shadow mask");
        if (s == SC_OK) s = dev_alloc(st->shadow_tests, pixels, "per-pixel shadow test counts");
        if (s == SC_OK) s = dev_alloc(st->shadow_org, 4 * pixels, "shadow ray origins");
        if (s == SC_OK) s = dev_alloc(st->recv_keys, pixels, "shadow receiver keys");
        for (int i = 0; i < 2 && s == SC_OK; ++i) s = dev_alloc(st->recv_values[i], pixels, "shadow receivers");
        if (s == SC_OK) s = dev_alloc(st->recv_offsets, buckets + 1, "light tile receiver offsets");
        if (s == SC_OK) s = dev_alloc(st->shadow_cells, cells, "light cell offsets");
        if (s == SC_OK) s = dev_alloc(st->shadow_tile_box, tile_words, "light tile receiver bounds, depths and counts");
        if (s == SC_OK) {
            st->shadow_tile_wmax = st->shadow_tile_box + 4 * (size_t)shape.num_tiles;
            st->recv_counts = st->shadow_tile_wmax + shape.num_tiles;
            st->shadow_tile_words = tile_words;
        }
        if (s == SC_OK) s = dev_alloc(st->shadow_lights_dev, SC_MAX_LIGHTS, "light grids");
        if (s == SC_OK) {
            cudaError_t e = cudaMemset(st->shadow_mask, 0, (pixels + 3) / 4 * 4);
            if (e == cudaSuccess) e = cudaMemset(st->shadow_tests, 0, pixels * sizeof(uint32_t));
            if (e != cudaSuccess) s = sc_cuda_report(e, "cudaMemset (shadow buffers)", __FILE__, __LINE__);
        }
        if (s != SC_OK) {
            free_shadows(st);
            return s;
        }
        st->shadow_pixels = pixels;
        st->shadow_tiles = shape.num_tiles;
    }
    if (st->shadow_recs_capacity != st->ref_capacity) { /* the caster records follow the reference capacity */
        SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
        drop_graphs(st);
        dev_free(st->shadow_recs);
        st->shadow_recs_capacity = 0;
        char what[96];
        snprintf(what, sizeof what, "the shadow caster records of %zu references", st->ref_capacity);
        SC_TRY(check_device_memory(st->ref_capacity * SC_CUDA_SHADOW_REC_WORDS * sizeof(uint32_t), 0, what,
                                   "lower initial_ref_capacity or the mesh's triangles"));
        SC_TRY(dev_alloc(st->shadow_recs, st->ref_capacity * SC_CUDA_SHADOW_REC_WORDS, "shadow caster records"));
        st->shadow_recs_capacity = st->ref_capacity;
    }
    if (st->shadow_vlight_capacity < st->num_vertices || !st->shadow_vlight) { /* follows the mesh */
        SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
        drop_graphs(st);
        dev_free(st->shadow_vlight);
        st->shadow_vlight_capacity = 0;
        const size_t n = st->num_vertices ? st->num_vertices : 1;
        SC_TRY(check_device_memory(n * 4 * sizeof(float), 0, "the vertices' light coordinates", "lower the mesh's vertices"));
        SC_TRY(dev_alloc(st->shadow_vlight, 4 * n, "vertex light coordinates"));
        st->shadow_vlight_capacity = n;
    }
    size_t bytes = 0;
    SC_TRY(sc_cuda_shadow_temp_bytes(st, pixels, &bytes));
    if (bytes > st->shadow_temp_bytes || !st->shadow_temp) {
        SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
        drop_graphs(st);
        st->shadow_temp_bytes = 0;
        SC_TRY(dev_ensure(st->shadow_temp, &st->shadow_temp_bytes, bytes, "shadow split temporary storage"));
    }
    st->shadow_sized_refs = st->ref_capacity;
    return SC_OK;
}

static void free_refs(sc_cuda_state *st)
{
    for (int i = 0; i < 2; ++i) {
        dev_free(st->ref_keys[i]);
        dev_free(st->ref_values[i]);
    }
    st->ref_capacity = 0;
}

/* The binning's temporary storage for the current grid and capacity: the split library's, or CUB's
 * (the radix sort and the cell scan). */
static sc_status ensure_split_temp(sc_cuda_state *st, const sc_frame_params *p)
{
    size_t bytes = 0;
    const bool radix = binning_of(st) == SC_BINNING_RADIX_SORT;
    if (radix) SC_TRY(sc_cuda_radix_temp_bytes(st, p, &bytes));
    else SC_TRY(sc_cuda_split_temp_bytes(st, p, &bytes));
    if (bytes <= st->split_temp_bytes && st->split_temp) return SC_OK;
    st->split_temp_bytes = 0;
    SC_TRY(dev_ensure(st->split_temp, &st->split_temp_bytes, bytes,
                      radix ? "the radix sort's temporary storage" : "split temporary storage"));
    return SC_OK;
}

static void cuda_destroy(void *state)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    if (!st) return;
    cudaStreamSynchronize(st->stream);
    drop_graphs(st);
    free_mesh(st);
    free_refs(st);
    dev_free(st->tile_counts); dev_free(st->tile_cursors); dev_free(st->tile_offsets); dev_free(st->tile_offsets64);
    dev_free(st->cell_offsets);
    dev_free(st->hits); dev_free(st->tests);
    free_shadows(st);
    dev_free(st->split_temp);
    dev_free(st->globals);
    dev_free(st->consts);
    if (st->capture_stream) cudaStreamDestroy(st->capture_stream);
    if (st->body_stream) cudaStreamDestroy(st->body_stream);
    for (int k = 0; k < SC_CUDA_FRAMES_IN_FLIGHT; ++k) {
        if (st->slots[k].host) cudaFreeHost(st->slots[k].host);
        if (st->slots[k].host_consts) cudaFreeHost(st->slots[k].host_consts);
        for (int i = 0; i <= SC_STAGE_COUNT; ++i)
            if (st->slots[k].events[i]) cudaEventDestroy(st->slots[k].events[i]);
    }
    free(reinterpret_cast<sc_cuda_backend *>(st));
}

static sc_status cuda_resize(void *state, const sc_frame_params *p);

static sc_status cuda_create(const sc_backend_config *config, void **state)
{
    *state = NULL;
    if (!cuda_available())
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_create: the CUDA backend needs a CUDA device; none found");
    sc_cuda_backend *b = (sc_cuda_backend *)calloc(1, sizeof *b);
    if (!b) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_create: out of host memory");
    b->binning = config->binning;
    sc_cuda_state *st = &b->st;
    st->stream = config->stream;
    st->num_threads = config->num_threads;
    {
        const char *g = getenv("SLABCAST_CUDA_GRAPHS");
        st->use_graphs = !(g && strcmp(g, "0") == 0);
    }
    {
        int dev = 0, major = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
            cudaGetLastError();
            major = 0; /* the portable paths; the allocations below report a device that does not answer */
        }
        st->clusters = cuda_hopper_paths(major);
    }
    sc_status s = dev_alloc(st->globals, 1, "frame counters");
    if (s == SC_OK) s = dev_alloc(st->consts, 1, "frame constants");
    if (s == SC_OK) {
        cudaError_t e = cudaStreamCreateWithFlags(&st->capture_stream, cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&st->body_stream, cudaStreamNonBlocking);
        for (int k = 0; e == cudaSuccess && k < SC_CUDA_FRAMES_IN_FLIGHT; ++k) {
            e = cudaMallocHost((void **)&st->slots[k].host, sizeof(sc_cuda_globals));
            if (e == cudaSuccess) e = cudaMallocHost((void **)&st->slots[k].host_consts, sizeof(sc_cuda_frame_consts));
            for (int i = 0; e == cudaSuccess && i <= SC_STAGE_COUNT; ++i) e = cudaEventCreate(&st->slots[k].events[i]);
        }
        if (e != cudaSuccess)
            s = sc_cuda_report(e, "sc_renderer_create (CUDA stream, events, pinned memory)", __FILE__, __LINE__);
    }
    if (s == SC_OK) s = sc_cuda_overflow_blocks(&st->overflow_blocks);
    if (s == SC_OK) {
        int sms = 0;
        cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        if (e != cudaSuccess) s = sc_cuda_report(e, "cudaDeviceGetAttribute (SM count)", __FILE__, __LINE__);
        /* Two blocks an SM: the fallback is launched every pass and leaves at once unless the emit
         * overflowed (a frame that then grows the capacity), so its launch is what it costs. */
        st->shadow_fallback_blocks = 2 * (sms > 0 ? sms : 1);
    }
    if (s == SC_OK) s = cuda_resize(st, &config->grid);
    if (s != SC_OK) {
        cuda_destroy(st);
        return s;
    }
    *state = st;
    return SC_OK;
}

/* The buffers of grid p, grown where they are smaller, and their start: no hits, empty offsets. */
static sc_status grid_buffers(sc_cuda_state *st, const sc_frame_params *p)
{
    const size_t pixels = (size_t)p->width * p->height;
    const size_t buckets = sc_cuda_tile_buckets(p->tile_bits);
    const size_t cell_n = ((size_t)p->num_tiles << p->slab_bits) + 1;
    size_t hits_cap = st->pixel_cap, tests_cap = st->pixel_cap;
    sc_status s = dev_ensure(st->hits, &hits_cap, pixels, "the hit buffer");
    if (s == SC_OK) s = dev_ensure(st->tests, &tests_cap, pixels, "per-pixel test counts");
    st->pixel_cap = hits_cap < tests_cap ? hits_cap : tests_cap;
    SC_TRY(s);
    SC_TRY(dev_ensure(st->tile_counts, &st->count_cap, buckets, "tile reference counts"));
    SC_TRY(dev_ensure(st->tile_cursors, &st->cursor_cap, buckets, "tile cursors"));
    SC_TRY(dev_ensure(st->tile_offsets, &st->tile_cap, buckets + 1, "tile offsets"));
    SC_TRY(dev_ensure(st->tile_offsets64, &st->off64_cap, buckets + 1, "tile offsets"));
    SC_TRY(dev_ensure(st->cell_offsets, &st->cell_cap, cell_n, "cell offsets"));
    SC_TRY(ensure_split_temp(st, p));
    /* A fresh target has no hits until the next frame; tile offsets start empty. The empty hits are
     * copied from a bounded host chunk (host memory does not grow with the target). */
    const size_t chunk = pixels < ((size_t)1 << 20) ? pixels : ((size_t)1 << 20);
    sc_hit *h = (sc_hit *)malloc((chunk ? chunk : 1) * sizeof(sc_hit));
    if (!h) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for a %ux%u target", p->width, p->height);
    for (size_t i = 0; i < chunk; ++i) h[i] = sc_hit{SC_NO_HIT, INFINITY, 0.0f, 0.0f};
    cudaError_t e = cudaSuccess;
    for (size_t at = 0; at < pixels && e == cudaSuccess; at += chunk) {
        const size_t n = pixels - at < chunk ? pixels - at : chunk;
        e = cudaMemcpy(st->hits + at, h, n * sizeof(sc_hit), cudaMemcpyHostToDevice);
    }
    free(h);
    SC_CUDA_CHECK(e);
    SC_CUDA_CHECK(cudaMemset(st->tests, 0, pixels * sizeof(uint32_t)));
    SC_CUDA_CHECK(cudaMemset(st->tile_offsets, 0, (buckets + 1) * sizeof(uint32_t)));
    SC_CUDA_CHECK(cudaMemset(st->cell_offsets, 0, cell_n * sizeof(uint32_t)));
    return SC_OK;
}

/* The target or the grid changed (sc_renderer_resize, sc_renderer_set_grid): after the frames in
 * flight, the grid's buffers grow where they must and the frame graphs are dropped (each slot
 * captures its graph again before its next frame). On failure the previous grid stays: a buffer
 * given back for a larger one that could not be allocated is allocated again at its size. */
static sc_status cuda_resize(void *state, const sc_frame_params *p)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    const size_t pixels = (size_t)p->width * p->height;
    const size_t buckets = sc_cuda_tile_buckets(p->tile_bits);
    const size_t cell_n = ((size_t)p->num_tiles << p->slab_bits) + 1;
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream)); /* no frame in flight uses the old buffers */
    {
        size_t need = 0, freed = 0;
        grow_bytes(st->hits, st->pixel_cap, pixels, &need, &freed);
        grow_bytes(st->tests, st->pixel_cap, pixels, &need, &freed);
        grow_bytes(st->tile_counts, st->count_cap, buckets, &need, &freed);
        grow_bytes(st->tile_cursors, st->cursor_cap, buckets, &need, &freed);
        grow_bytes(st->tile_offsets, st->tile_cap, buckets + 1, &need, &freed);
        grow_bytes(st->tile_offsets64, st->off64_cap, buckets + 1, &need, &freed);
        const size_t cells_before = need;
        grow_bytes(st->cell_offsets, st->cell_cap, cell_n, &need, &freed);
        const size_t cells_bytes = need - cells_before;
        char what[160], cells_text[32];
        snprintf(what, sizeof what, "a %ux%u target in %u-pixel tiles with %u slabs (%s of cell offsets, tiles x slabs)",
                 p->width, p->height, p->tile_size, p->num_slabs,
                 sc_format_bytes((double)cells_bytes, cells_text, sizeof cells_text));
        SC_TRY(check_device_memory(need, freed, what,
                                   cells_bytes > need / 2 ? "lower the slab count or raise the tile size"
                                                          : "lower the target size"));
    }
    drop_graphs(st);
    free_shadows(st); /* the next frame with shadows allocates them for the new target */
    const sc_status s = grid_buffers(st, p);
    if (s != SC_OK) {
        if (st->grid.width) (void)grid_buffers(st, &st->grid); /* creation has no previous grid */
        return s;
    }
    st->grid = *p;
    return SC_OK;
}

static sc_status cuda_reserve(void *state, size_t cap, size_t *capacity)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    *capacity = st->ref_capacity;
    /* The overflow fallback needs one tile's references to fit: at most one per triangle. */
    if (cap < st->num_triangles) cap = st->num_triangles;
    if (cap <= st->ref_capacity) return SC_OK;
    if (cap > SC_MAX_REF_CAPACITY)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "renderer (CUDA): %zu references are more than 2^32 - 2", cap);
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    {
        char what[96];
        snprintf(what, sizeof what, "a reference buffer of %zu triangle-tile references", cap);
        SC_TRY(check_device_memory(cap * 4 * sizeof(uint32_t), st->ref_capacity * 4 * sizeof(uint32_t), what,
                                   "lower initial_ref_capacity, the mesh's triangles, or raise the tile size"));
    }
    drop_graphs(st);
    free_refs(st);
    for (int i = 0; i < 2; ++i) {
        sc_status s = dev_alloc(st->ref_keys[i], cap, "reference keys");
        if (s == SC_OK) s = dev_alloc(st->ref_values[i], cap, "reference values");
        if (s != SC_OK) {
            free_refs(st);
            *capacity = 0;
            return s;
        }
    }
    st->ref_capacity = cap;
    *capacity = cap;
    SC_TRY(ensure_split_temp(st, &st->grid));
    if (st->shadow_mask) SC_TRY(ensure_shadows(st));
    return SC_OK;
}

/* The vertices read_positions' staging buffer holds for a mesh of V vertices held in another order
 * than the caller's. */
static size_t stage_vertices(size_t V)
{
    const size_t chunk = SC_CUDA_READ_CHUNK_VERTICES;
    return V < chunk ? V : chunk;
}

/* Device bytes of a mesh of V vertices and T triangles (below 2^40 for 32-bit counts): rest
 * positions and normals, deformed positions, adjacency, indices, per-triangle key and tile record;
 * held in another order than the caller's, the permutation and the staging buffer too. */
static size_t mesh_device_bytes(size_t V, size_t T, int reordered)
{
    const size_t per_v = 3 * 3 * sizeof(float) + sizeof(uint32_t);
    const size_t per_t = 2 * 3 * sizeof(uint32_t) + sizeof(float) + 4 * sizeof(uint32_t);
    const size_t order = reordered ? V * sizeof(uint32_t) + stage_vertices(V) * 3 * sizeof(float) : 0;
    return V * per_v + T * per_t + order;
}

/* The mesh comes in the internal vertex order; new_of_old (NULL: the caller's order) goes to the
 * device with read_positions' staging buffer, both kept while the mesh is set. */
static sc_status cuda_set_mesh(void *state, const sc_mesh_data *m, const uint32_t *new_of_old)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    const size_t V = m->vertex_count, T = m->triangle_count, v3 = 3 * V, t3 = 3 * T;
    {
        char what[96];
        snprintf(what, sizeof what, "a mesh of %u vertices and %u triangles", m->vertex_count, m->triangle_count);
        if (t3 > UINT32_MAX) /* the adjacency's offsets are 32-bit */
            return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_set_mesh: %s has more than 2^32 - 1 triangle corners",
                           what);
        SC_TRY(check_device_memory(mesh_device_bytes(V, T, new_of_old != NULL),
                                   mesh_device_bytes(st->num_vertices, st->num_triangles, st->new_of_old != NULL), what,
                                   "use a smaller mesh"));
    }
    drop_graphs(st);
    free_mesh(st);
    /* Host: the vertex -> triangle adjacency in triangle order and the rest normals over it (the
     * CPU backend's functions, so both backends deform and shade alike). */
    float *normals = (float *)malloc(v3 * sizeof(float) + 1);
    uint32_t *adj_off = (uint32_t *)malloc((V + 1) * sizeof(uint32_t));
    uint32_t *adj = (uint32_t *)malloc(t3 * sizeof(uint32_t) + 1);
    if (!normals || !adj_off || !adj) {
        free(normals); free(adj_off); free(adj);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_set_mesh: out of host memory for %u vertices", m->vertex_count);
    }
    sc_vertex_adjacency(m->indices, m->vertex_count, m->triangle_count, adj_off, adj);
    {
        const sc_mesh_rings rest = {adj_off, adj, m->indices, m->positions};
        sc_cpu_vertex_normals(&rest, m->vertex_count, NULL, st->num_threads, normals);
    }
    sc_status s = SC_OK;
    if (s == SC_OK) s = dev_alloc(st->rest_positions, v3, "rest positions");
    if (s == SC_OK) s = dev_alloc(st->rest_normals, v3, "rest normals");
    if (s == SC_OK) s = dev_alloc(st->positions, v3, "positions");
    if (s == SC_OK) s = dev_alloc(st->indices, t3, "indices");
    if (s == SC_OK) s = dev_alloc(st->adj_offsets, V + 1, "vertex adjacency");
    if (s == SC_OK) s = dev_alloc(st->adj_tris, t3, "vertex adjacency");
    if (s == SC_OK) s = dev_alloc(st->tri_keys, T, "triangle depth keys");
    if (s == SC_OK) s = dev_alloc(st->tri_bins, 4 * (size_t)T, "triangle tile records");
    if (s == SC_OK && new_of_old) s = dev_alloc(st->new_of_old, V, "the vertex order");
    if (s == SC_OK && new_of_old) s = dev_alloc(st->positions_stage, 3 * stage_vertices(V), "the positions' staging buffer");
    cudaError_t e = cudaSuccess;
    if (s == SC_OK && V) {
        e = cudaMemcpy(st->rest_positions, m->positions, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->positions, m->positions, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->rest_normals, normals, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->adj_offsets, adj_off, (V + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice);
        if (e == cudaSuccess && new_of_old)
            e = cudaMemcpy(st->new_of_old, new_of_old, V * sizeof(uint32_t), cudaMemcpyHostToDevice);
    }
    if (s == SC_OK && e == cudaSuccess && T) {
        e = cudaMemcpy(st->indices, m->indices, t3 * sizeof(uint32_t), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->adj_tris, adj, t3 * sizeof(uint32_t), cudaMemcpyHostToDevice);
    }
    free(normals); free(adj_off); free(adj);
    if (s == SC_OK && e != cudaSuccess) s = sc_cuda_report(e, "sc_renderer_set_mesh (upload)", __FILE__, __LINE__);
    if (s != SC_OK) {
        free_mesh(st);
        return s;
    }
    st->num_vertices = m->vertex_count;
    st->num_triangles = m->triangle_count;
    size_t capacity = 0;
    if (st->ref_capacity && st->ref_capacity < st->num_triangles) SC_TRY(cuda_reserve(st, st->num_triangles, &capacity));
    return SC_OK;
}

/* The overflow fallback as the body of an IF node of the graph being captured on s, its condition
 * set by finalize: a frame that fits does not even launch it. */
static sc_status record_overflow_node(sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    cudaStreamCaptureStatus status;
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    SC_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &graph, &deps, NULL, &ndeps));
    /* The struct has no default constructor (a union inside); its other fields are zero-initialized. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
    cudaGraphNodeParams np = {cudaGraphNodeTypeConditional};
#pragma GCC diagnostic pop
    np.conditional.handle = (cudaGraphConditionalHandle)st->overflow_cond;
    np.conditional.type = cudaGraphCondTypeIf;
    np.conditional.size = 1;
    cudaGraphNode_t node;
    SC_CUDA_CHECK(cudaGraphAddNode(&node, graph, deps, NULL, ndeps, &np));
    SC_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(s, &node, NULL, 1, cudaStreamSetCaptureDependencies));
    cudaStream_t bs = st->body_stream;
    SC_CUDA_CHECK(cudaStreamBeginCaptureToGraph(bs, np.conditional.phGraph_out[0], NULL, NULL, 0,
                                                cudaStreamCaptureModeThreadLocal));
    sc_status r = sc_cuda_overflow(st, p, bs);
    cudaGraph_t body = NULL;
    cudaError_t e = cudaStreamEndCapture(bs, &body);
    SC_TRY(r);
    if (e != cudaSuccess) return sc_cuda_report(e, "cudaStreamEndCapture (the overflow node)", __FILE__, __LINE__);
    return SC_OK;
}

/* The shadow pass's stage boundaries, recorded from inside sc_cuda_shadows. */
typedef struct stage_marker {
    struct sc_cuda_state::sc_cuda_slot *slot;
    cudaStream_t s;
    int *ev;
    unsigned flags;
    int record;                    /* 0: boundaries not recorded (untimed, or no shadow pass) */
} stage_marker;

static sc_status stage_mark(void *ctx)
{
    stage_marker *m = (stage_marker *)ctx;
    if (m->record) {
        SC_CUDA_CHECK(cudaEventRecordWithFlags(m->slot->events[*m->ev], m->s, m->flags));
        m->slot->recorded |= 1u << *m->ev;
    }
    ++*m->ev;
    return SC_OK;
}

/* The frame's graph part, enqueued on s (a capturing stream; or, with SLABCAST_CUDA_GRAPHS=0, the
 * renderer's stream every frame): from clearing the frame's counters to the copy of the counters
 * into the slot's pinned memory, with events[SC_STAGE_COUNT] at the end and, when timed, events[1 ..]
 * at the stage ends (an event record costs the frame about 2 microseconds: untimed frames have none,
 * and the shadow stages' boundaries are recorded only with a shadow pass). */
static sc_status record_frame_graph(sc_cuda_state *st, const sc_frame_params *p,
                                    struct sc_cuda_state::sc_cuda_slot *slot, int timed, cudaStream_t s)
{
    int ev = 1; /* events[0] and the deformation precede the graph (per frame, enqueue_frame) */
    /* External records: event record nodes in the graph, which the host can wait for and time. */
#define SC_STAGE_RECORD()                                                                        \
    do {                                                                                         \
        SC_CUDA_CHECK(cudaEventRecordWithFlags(slot->events[ev], s, record_flags));             \
        slot->recorded |= 1u << ev++;                                                            \
    } while (0)
#define SC_STAGE_MARK()                                                                          \
    do {                                                                                         \
        if (timed) SC_STAGE_RECORD();                                                            \
        else ++ev;                                                                               \
    } while (0)
    /* A stage fused into the one before (nothing of its own to time): no event, 0 ms. */
#define SC_STAGE_FUSED() (++ev)
    slot->recorded = 1u; /* events[0]: recorded per frame before the graph */
    /* In a capture, external records (event nodes the host can wait for); on a plain stream, plain. */
    const unsigned record_flags = st->use_graphs ? cudaEventRecordExternal : cudaEventRecordDefault;
    st->has_overflow_cond = st->use_graphs;
    if (st->use_graphs) {
        cudaStreamCaptureStatus status;
        cudaGraph_t graph = NULL;
        SC_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &graph, NULL, NULL, NULL));
        cudaGraphConditionalHandle cond;
        SC_CUDA_CHECK(cudaGraphConditionalHandleCreate(&cond, graph, 0, cudaGraphCondAssignDefault));
        st->overflow_cond = (unsigned long long)cond;
    }
    SC_CUDA_CHECK(cudaMemsetAsync(st->globals, 0, sizeof(sc_cuda_globals), s));
    SC_CUDA_CHECK(cudaMemsetAsync(st->tile_counts, 0, sc_cuda_tile_buckets(p->tile_bits) * sizeof(uint32_t), s));
    SC_STAGE_MARK();
    SC_STAGE_FUSED(); /* normals: none per vertex; shade computes the hit pixels' (0 ms) */
    SC_TRY(sc_cuda_project(st, p, s));
    SC_STAGE_MARK();
    SC_STAGE_FUSED(); /* reduce: the depth range is reduced in project */
    SC_TRY(sc_cuda_finalize(st, p, s));
    SC_STAGE_MARK();
    /* The grid: the splits, or the radix sort in the same stage slots (bin_radix_cuda.cu). */
    const bool radix = binning_of(st) == SC_BINNING_RADIX_SORT;
    SC_TRY(radix ? sc_cuda_radix_emit(st, p, s) : sc_cuda_emit(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(radix ? sc_cuda_radix_sort(st, p, s) : sc_cuda_tile_split(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(radix ? sc_cuda_radix_ranges(st, p, s) : sc_cuda_slab_split(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_raycast(st, p, s));
    if (st->has_overflow_cond) SC_TRY(record_overflow_node(st, p, s));
    else SC_TRY(sc_cuda_overflow(st, p, s));
    SC_STAGE_MARK();
    {
        const int shadow_marks = timed && slot->graph_shadows != 0;
        stage_marker marker = {slot, s, &ev, record_flags, shadow_marks};
        SC_TRY(sc_cuda_shadows(st, p, slot->graph_shadows, s, stage_mark, &marker));
        if (shadow_marks) SC_STAGE_RECORD(); /* the end of the shadow cast */
        else ++ev;                           /* no pass: its 0 ms stages fused into shade */
    }
    SC_TRY(sc_cuda_shade(st, p, s));
    SC_CUDA_CHECK(cudaMemcpyAsync(slot->host, st->globals, sizeof(sc_cuda_globals), cudaMemcpyDeviceToHost, s));
    SC_STAGE_RECORD(); /* the end of the frame, timed or not */
#undef SC_STAGE_RECORD
#undef SC_STAGE_MARK
#undef SC_STAGE_FUSED
    return SC_OK;
}

/* Captures the slot's frame graph on the private capture stream and instantiates it. */
static sc_status capture_frame_graph(sc_cuda_state *st, const sc_frame_params *p,
                                     struct sc_cuda_state::sc_cuda_slot *slot)
{
    cudaStream_t cs = st->capture_stream;
    SC_CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
    sc_status s = record_frame_graph(st, p, slot, slot->graph_timed, cs);
    cudaGraph_t graph = NULL;
    cudaError_t e = cudaStreamEndCapture(cs, &graph);
    if (s != SC_OK) {
        if (graph) cudaGraphDestroy(graph);
        return s;
    }
    if (e != cudaSuccess) return sc_cuda_report(e, "cudaStreamEndCapture (the frame graph)", __FILE__, __LINE__);
    cudaGraphExec_t exec = NULL;
    e = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) return sc_cuda_report(e, "cudaGraphInstantiate (the frame graph)", __FILE__, __LINE__);
    slot->graph = exec;
    return SC_OK;
}

/* Enqueues the whole frame into ring slot `slot` on the renderer's stream; no host wait inside:
 * this frame's constants (the deform kernel's parameter, or a copy from the pinned slot), the
 * deformation or the caller's positions, then the slot's graph (captured again first when it was captured with other lights casting
 * shadows: the shadow pass is in the graph only for those; flat shading reaches shade through the
 * constants). */
static sc_status enqueue_frame(sc_cuda_state *st, const sc_backend_frame *frame,
                               struct sc_cuda_state::sc_cuda_slot *slot)
{
    cudaStream_t s = st->stream;
    const sc_frame_params *p = frame->params;
    uint32_t shadows = 0;
    for (uint32_t i = 0; i < SC_MAX_LIGHTS; ++i)
        if (i < frame->shade->num_lights && frame->shade->lights[i].shadows) shadows |= 1u << i;
    if (shadows) SC_TRY(ensure_shadows(st));
    const int timed = frame->stage_times ? 1 : 0;
    if (slot->graph && (slot->graph_shadows != shadows || slot->graph_timed != timed)) {
        cudaGraphExecDestroy(slot->graph); /* its last frame has finished (the ring) */
        slot->graph = NULL;
    }
    slot->graph_shadows = shadows;
    slot->graph_timed = timed;
    if (!slot->graph && st->use_graphs) SC_TRY(capture_frame_graph(st, p, slot));
    sc_cuda_frame_consts *c = slot->host_consts; /* its previous frame has finished (the ring) */
    c->p = *p;
    c->p.depth_min = c->p.depth_max = 0.0f; /* the device's range replaces these in every kernel */
    c->shade.s = *frame->shade;
    c->shade.rgba = (uint8_t *)frame->rgba;
    c->shade.pitch = frame->pitch;
    c->shade.surface = frame->surface;
    SC_CUDA_CHECK(cudaEventRecord(slot->events[0], s));
    if (frame->positions) {
        SC_CUDA_CHECK(cudaMemcpyAsync(st->consts, c, sizeof *c, cudaMemcpyHostToDevice, s));
        SC_TRY(sc_cuda_positions_from_caller(st, frame->positions, s)); /* into the internal vertex order */
    } else {
        SC_TRY(sc_cuda_deform(st, frame->deform, c, s)); /* the constants too */
    }
    if (st->use_graphs) SC_CUDA_CHECK(cudaGraphLaunch(slot->graph, s));
    else SC_TRY(record_frame_graph(st, p, slot, timed, s)); /* the same stages, launched one by one */
    return SC_OK;
}

/* A frame of the ring: with wait, waits for it; without, *ready = 0 when it has not finished. A
 * finished frame that overflowed the reference buffer sets the capacity to grow to. */
static sc_status check_slot(sc_cuda_state *st, struct sc_cuda_state::sc_cuda_slot *slot, int wait, int *ready)
{
    *ready = 1;
    if (!slot->pending) return SC_OK;
    cudaEvent_t end = slot->events[SC_STAGE_COUNT];
    if (wait) {
        SC_CUDA_CHECK(cudaEventSynchronize(end));
    } else {
        cudaError_t e = cudaEventQuery(end);
        if (e == cudaErrorNotReady) {
            *ready = 0;
            return SC_OK;
        }
        SC_CUDA_CHECK(e);
    }
    slot->pending = 0;
    const sc_cuda_globals *g = slot->host;
    if (g->overflow && (size_t)g->references > st->grow_to) st->grow_to = (size_t)g->references;
    if (g->shadow_overflow && (size_t)g->shadow_references_max > st->grow_to)
        st->grow_to = (size_t)g->shadow_references_max;
    return SC_OK;
}

/* Checks the frames in flight, oldest first (with wait: waits for all of them). */
static sc_status check_slots(sc_cuda_state *st, int wait)
{
    for (uint32_t i = 0; i < SC_CUDA_FRAMES_IN_FLIGHT; ++i) {
        int ready = 1;
        SC_TRY(check_slot(st, &st->slots[(st->next_slot + i) % SC_CUDA_FRAMES_IN_FLIGHT], wait, &ready));
        if (!ready) break; /* later frames of the stream have not finished either */
    }
    return SC_OK;
}

/* The stats of the finished frame of the slot (the front end adds the host's part). */
static sc_status read_stats(const sc_cuda_state *st, const struct sc_cuda_state::sc_cuda_slot *slot,
                            sc_frame_stats *o)
{
    const sc_cuda_globals *g = slot->host;
    memset(o, 0, sizeof *o);
    /* Stage i ends at boundary i + 1 and starts at the last recorded boundary <= i; a stage whose
     * end is not recorded was fused into the stage before it. Untimed: every stage 0 ms. */
    const uint32_t rec = slot->recorded;
    int from = 0;
    for (int i = 0; slot->graph_timed && i < SC_STAGE_COUNT; ++i) {
        if (rec & (1u << i)) from = i;
        float ms = 0.0f;
        if (rec & (1u << (i + 1))) SC_CUDA_CHECK(cudaEventElapsedTime(&ms, slot->events[from], slot->events[i + 1]));
        o->stage_ms[i] = ms;
    }
    float frame_ms = 0.0f;
    SC_CUDA_CHECK(cudaEventElapsedTime(&frame_ms, slot->events[0], slot->events[SC_STAGE_COUNT]));
    o->frame_ms = frame_ms;
    o->visible_triangles = g->visible;
    o->references = g->references;
    /* The ray cast's counts are its stripes' sums (backend_cuda.h). */
    o->ray_triangle_tests = o->ray_tests_performed = o->tiles_exited_early = o->hit_pixels = 0;
    for (int k = 0; k < SC_CUDA_STRIPES; ++k) {
        o->ray_triangle_tests += g->stripes[k].tests;
        o->ray_tests_performed += g->stripes[k].performed;
        o->tiles_exited_early += g->stripes[k].exited;
        o->hit_pixels += g->stripes[k].hit_pixels;
    }
    o->overflow_passes = g->passes;
    o->depth_min = g->depth_min;
    o->depth_max = g->depth_max;
    o->shadow_lights = g->shadow_lights;
    o->light_views = g->light_views;
    o->shadow_receivers = g->shadow_receivers;
    o->shadow_references = g->shadow_references;
    o->shadow_ray_tests = g->shadow_tests;
    o->shadow_rays_blocked = g->shadow_blocked;
    o->shadow_rays_early = g->shadow_early;
    o->shadow_overflow_passes = g->shadow_overflow;
    return SC_OK;
}

/* Enqueues one frame; SC_ERROR_CAPACITY (nothing enqueued) when an earlier frame overflowed the
 * reference buffer: the front end grows it and calls again. */
static sc_status cuda_render(void *state, const sc_backend_frame *frame, size_t *refs_needed)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    SC_TRY(check_slots(st, 0));
    if (st->grow_to > st->ref_capacity) {
        *refs_needed = st->grow_to;
        return SC_ERROR_CAPACITY; /* internal: the front end grows and calls again */
    }
    struct sc_cuda_state::sc_cuda_slot *slot = &st->slots[st->next_slot];
    int ready = 1;
    SC_TRY(check_slot(st, slot, 1, &ready)); /* the ring is full: wait for the oldest frame */
    slot->serial = 0; /* its events and counters are this frame's from now on */
    SC_TRY(enqueue_frame(st, frame, slot));
    slot->pending = 1;
    slot->serial = frame->serial;
    st->newest_slot = st->next_slot;
    st->next_slot = (st->next_slot + 1) % SC_CUDA_FRAMES_IN_FLIGHT;
    st->frames += 1;
    return SC_OK;
}

static sc_status cuda_finish(void *state, sc_frame_stats *out)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    memset(out, 0, sizeof *out);
    SC_TRY(check_slots(st, 1));
    if (st->frames == 0) return SC_OK; /* no frame yet: the zero stats */
    return read_stats(st, &st->slots[st->newest_slot], out);
}

/* Without waiting: the slots whose frames have finished (cudaEventQuery), and the stats of the
 * newest of them. A finished slot keeps its counters and events until its next frame is enqueued. */
static sc_status cuda_poll(void *state, sc_frame_stats *out, uint64_t *serial)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    memset(out, 0, sizeof *out);
    *serial = 0;
    SC_TRY(check_slots(st, 0));
    const struct sc_cuda_state::sc_cuda_slot *newest = NULL;
    for (int k = 0; k < SC_CUDA_FRAMES_IN_FLIGHT; ++k) {
        const struct sc_cuda_state::sc_cuda_slot *slot = &st->slots[k];
        if (!slot->pending && slot->serial && (!newest || slot->serial > newest->serial)) newest = slot;
    }
    if (!newest) return SC_OK;
    SC_TRY(read_stats(st, newest, out));
    *serial = newest->serial;
    return SC_OK;
}

static sc_status cuda_read_hits(void *state, sc_hit *out)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    size_t n = (size_t)st->grid.width * st->grid.height;
    SC_CUDA_CHECK(cudaMemcpyAsync(out, st->hits, n * sizeof(sc_hit), cudaMemcpyDeviceToHost, st->stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    return SC_OK;
}

/* In the caller's vertex order: with a permutation, gathered chunk by chunk into the staging buffer
 * and copied from there (stream order keeps a chunk's copy before the next chunk's gather). */
static sc_status cuda_read_positions(void *state, float *out)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    const uint32_t V = st->num_vertices;
    if (V == 0) return SC_OK;
    if (!st->new_of_old) {
        SC_CUDA_CHECK(cudaMemcpyAsync(out, st->positions, 3 * (size_t)V * sizeof(float), cudaMemcpyDeviceToHost,
                                      st->stream));
    } else {
        const uint32_t chunk = SC_CUDA_READ_CHUNK_VERTICES;
        for (uint32_t first = 0; first < V;) {
            const uint32_t count = V - first < chunk ? V - first : chunk;
            SC_TRY(sc_cuda_positions_to_caller(st, first, count, st->positions_stage, st->stream));
            SC_CUDA_CHECK(cudaMemcpyAsync(out + 3 * (size_t)first, st->positions_stage, 3 * (size_t)count * sizeof(float),
                                          cudaMemcpyDeviceToHost, st->stream));
            first += count;
        }
    }
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    return SC_OK;
}

/* INVALID_ARGUMENT unless p is device (or managed) memory: a kernel or copy reading host memory
 * would fail on the stream later or end the context (a host query, no wait). */
sc_status sc_cuda_require_device_memory(const void *p, const char *what)
{
    cudaPointerAttributes attr;
    SC_CUDA_CHECK(cudaPointerGetAttributes(&attr, p));
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: the CUDA backend needs device memory; %p is not", what, p);
    return SC_OK;
}

/* This frame's positions into the caller's device memory, in the caller's vertex order: device to
 * device on the renderer's stream, after the frames enqueued there, without waiting. A host pointer
 * is refused here rather than left to fail on the stream later. */
static sc_status cuda_copy_positions(void *state, float *dst)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    size_t n = 3 * (size_t)st->num_vertices;
    if (n == 0) return SC_OK;
    SC_TRY(sc_cuda_require_device_memory(dst, "sc_renderer_copy_positions: the destination"));
    return sc_cuda_positions_to_caller(st, 0, st->num_vertices, dst, st->stream);
}

/* On demand (test-only): a kernel over the vertices after the frames enqueued, into a device buffer
 * allocated for the call (no frame's memory grows), copied to the host; waits. */
static sc_status cuda_read_normals(void *state, float *out)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    const size_t n = 3 * (size_t)st->num_vertices;
    if (n == 0) return SC_OK;
    float *d = NULL;
    SC_TRY(dev_alloc(d, n, "the normals read"));
    sc_status s = sc_cuda_vertex_normals(st, d, st->stream);
    cudaError_t e = cudaSuccess;
    if (s == SC_OK) e = cudaMemcpyAsync(out, d, n * sizeof(float), cudaMemcpyDeviceToHost, st->stream);
    if (s == SC_OK && e == cudaSuccess) e = cudaStreamSynchronize(st->stream);
    dev_free(d);
    if (s == SC_OK && e != cudaSuccess) s = sc_cuda_report(e, "sc_renderer_testing_read_normals", __FILE__, __LINE__);
    return s;
}

static sc_status cuda_read_shadows(void *state, uint8_t *out)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    const size_t n = (size_t)st->grid.width * st->grid.height;
    if (!st->shadow_mask || st->shadow_pixels < n) {
        SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
        memset(out, 0, n);
        return SC_OK;
    }
    SC_CUDA_CHECK(cudaMemcpyAsync(out, st->shadow_mask, n, cudaMemcpyDeviceToHost, st->stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    return SC_OK;
}

static sc_status cuda_buffers(void *state, sc_backend_buffers *out)
{
    const sc_cuda_state *st = (const sc_cuda_state *)state;
    memset(out, 0, sizeof *out);
    out->shadow_tests = st->shadow_tests;
    out->tri_keys = st->tri_keys;
    out->tile_offsets = st->tile_offsets;
    out->tests = st->tests;
    out->new_of_old = st->new_of_old;
    return SC_OK;
}

/* The backend's table, listed by api/backend_registry.c (positional: sc_backend_ops' field order). */
/* sc_backend_ops.set_share (after every set_mesh, which dropped the last share's ids with the mesh):
 * the whole mesh's ids of the share's triangles on the device (ids NULL: first + t), the ids it owns. */
extern "C" sc_status sc_cuda_set_share(void *state, const uint32_t *ids, uint32_t first, uint32_t owned_first,
                                       uint32_t owned_end)
{
    sc_cuda_state *st = (sc_cuda_state *)state;
    st->share_first = first;
    st->owned_first = owned_first;
    st->owned_end = owned_end;
    dev_free(st->share_ids);
    if (!ids || st->num_triangles == 0) return SC_OK;
    SC_TRY(dev_alloc(st->share_ids, st->num_triangles, "the share's triangle ids"));
    SC_CUDA_CHECK(cudaMemcpy(st->share_ids, ids, (size_t)st->num_triangles * sizeof(uint32_t), cudaMemcpyHostToDevice));
    return SC_OK;
}

extern "C" const sc_backend_ops sc_backend_cuda_ops = {
    SC_BACKEND_CUDA,        /* kind */
    "CUDA",                 /* name */
    SC_BACKEND_CAP_SURFACE | SC_BACKEND_CAP_RADIX_BINNING, /* caps: asynchronous (frame_ms is GPU time),
                                                              writes surfaces, radix-sort binning */
    cuda_available,
    cuda_create,
    cuda_destroy,
    cuda_resize,
    cuda_set_mesh,
    cuda_reserve,
    cuda_render,
    cuda_finish,
    cuda_poll,
    cuda_read_hits,
    cuda_read_positions,
    cuda_read_normals,
    cuda_read_shadows,
    cuda_copy_positions,
    cuda_buffers,
    cuda_describe,
    sc_cuda_measure_limits, /* measure_limits (limits_cuda.cu) */
    sc_cuda_set_share,      /* set_share .. pixels_over (keys_cuda.cu, shade_keys_cuda.cu) */
    sc_cuda_hit_keys,
    sc_cuda_resolve_keys,
    sc_cuda_shade_keys,
    sc_cuda_keys_min,
    sc_cuda_hits_from_keys,
    sc_cuda_pixels_over,
};
