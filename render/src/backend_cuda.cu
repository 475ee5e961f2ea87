/* backend_cuda.cu - the CUDA backend (host side): device buffers, the frame's stages enqueued on
 * the renderer's stream (timed with events), the end-of-frame read-back of the device counters,
 * and copies to the host. See backend_cuda.h for the capacity rule. Kernels live in the stage
 * files (deform_cuda.cu, project_cuda.cu, bin_cuda.cu, raycast_cuda.cu, shade_cuda.cu). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "cpu_parallel.h"
#include "renderer_internal.h"
}
#include "backend_cuda.h"
#include "render_tuning.h"
#include "sc_report.h"

extern "C" int sc_backend_cuda_available(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky-free error of a machine without a device */
        return 0;
    }
    return count > 0;
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

static void free_mesh(sc_cuda_state *st)
{
    dev_free(st->rest_positions); dev_free(st->rest_normals); dev_free(st->positions); dev_free(st->normals);
    dev_free(st->indices); dev_free(st->adj_offsets); dev_free(st->adj_tris);
    dev_free(st->tri_keys); dev_free(st->tri_bins);
    st->num_vertices = st->num_triangles = 0;
}

static void free_refs(sc_cuda_state *st)
{
    for (int i = 0; i < 2; ++i) {
        dev_free(st->ref_keys[i]);
        dev_free(st->ref_values[i]);
    }
    st->ref_capacity = 0;
}

/* The split library's temporary storage for the current grid and capacity. */
static sc_status ensure_split_temp(sc_cuda_state *st, const sc_frame_params *p)
{
    size_t bytes = 0;
    SC_TRY(sc_cuda_split_temp_bytes(st, p, &bytes));
    if (bytes <= st->split_temp_bytes && st->split_temp) return SC_OK;
    st->split_temp_bytes = 0;
    SC_TRY(dev_ensure(st->split_temp, &st->split_temp_bytes, bytes, "split temporary storage"));
    return SC_OK;
}

extern "C" void sc_backend_cuda_destroy(sc_renderer *r)
{
    sc_cuda_state *st = r->cuda;
    if (!st) return;
    if (st->stream || st->done) cudaStreamSynchronize(st->stream);
    free_mesh(st);
    free_refs(st);
    dev_free(st->tile_cursors); dev_free(st->tile_offsets); dev_free(st->cell_offsets);
    dev_free(st->hits); dev_free(st->tests);
    dev_free(st->split_temp);
    dev_free(st->globals);
    if (st->host_globals) cudaFreeHost(st->host_globals);
    for (int i = 0; i <= SC_STAGE_COUNT; ++i)
        if (st->events[i]) cudaEventDestroy(st->events[i]);
    if (st->done) cudaEventDestroy(st->done);
    free(st);
    r->cuda = NULL;
}

extern "C" sc_status sc_backend_cuda_create(sc_renderer *r)
{
    if (!sc_backend_cuda_available())
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_create: the CUDA backend needs a CUDA device; none found");
    sc_cuda_state *st = (sc_cuda_state *)calloc(1, sizeof *st);
    if (!st) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_create: out of host memory");
    r->cuda = st;
    st->stream = r->desc.stream;
    sc_status s = dev_alloc(st->globals, 1, "frame counters");
    if (s == SC_OK) {
        cudaError_t e = cudaMallocHost((void **)&st->host_globals, sizeof(sc_cuda_globals));
        for (int i = 0; e == cudaSuccess && i <= SC_STAGE_COUNT; ++i) e = cudaEventCreate(&st->events[i]);
        if (e == cudaSuccess) e = cudaEventCreate(&st->done);
        if (e != cudaSuccess) s = sc_cuda_report(e, "sc_renderer_create (CUDA events, pinned memory)", __FILE__, __LINE__);
    }
    if (s == SC_OK) s = sc_backend_cuda_resize(r);
    if (s != SC_OK) {
        sc_backend_cuda_destroy(r);
        return s;
    }
    return SC_OK;
}

extern "C" sc_status sc_backend_cuda_resize(sc_renderer *r)
{
    sc_cuda_state *st = r->cuda;
    const sc_frame_params *p = &r->params;
    const size_t pixels = (size_t)p->width * p->height;
    const size_t cursor_n = sc_cuda_cursor_words(p->num_tiles) + 2 * (size_t)p->num_tiles;
    const size_t tile_n = (size_t)p->num_tiles + 1;
    const size_t cell_n = ((size_t)p->num_tiles << p->slab_bits) + 1;
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream)); /* no frame in flight uses the old buffers */
    size_t hits_cap = st->pixel_cap, tests_cap = st->pixel_cap;
    SC_TRY(dev_ensure(st->hits, &hits_cap, pixels, "the hit buffer"));
    SC_TRY(dev_ensure(st->tests, &tests_cap, pixels, "per-pixel test counts"));
    st->pixel_cap = hits_cap < tests_cap ? hits_cap : tests_cap;
    SC_TRY(dev_ensure(st->tile_cursors, &st->cursor_cap, cursor_n, "tile reference counts"));
    SC_TRY(dev_ensure(st->tile_offsets, &st->tile_cap, tile_n, "tile offsets"));
    SC_TRY(dev_ensure(st->cell_offsets, &st->cell_cap, cell_n, "cell offsets"));
    SC_TRY(ensure_split_temp(st, p));
    /* A fresh target has no hits until the next frame; tile offsets start empty. */
    sc_hit *h = (sc_hit *)malloc(pixels * sizeof(sc_hit));
    if (!h) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for a %ux%u target", p->width, p->height);
    for (size_t i = 0; i < pixels; ++i) h[i] = sc_hit{SC_NO_HIT, INFINITY, 0.0f, 0.0f};
    cudaError_t e = cudaMemcpy(st->hits, h, pixels * sizeof(sc_hit), cudaMemcpyHostToDevice);
    free(h);
    SC_CUDA_CHECK(e);
    SC_CUDA_CHECK(cudaMemset(st->tests, 0, pixels * sizeof(uint32_t)));
    SC_CUDA_CHECK(cudaMemset(st->tile_cursors, 0, cursor_n * sizeof(uint32_t))); /* the tile counts start zero */
    st->counts_dirty = 0;
    SC_CUDA_CHECK(cudaMemset(st->tile_offsets, 0, tile_n * sizeof(uint32_t)));
    SC_CUDA_CHECK(cudaMemset(st->cell_offsets, 0, cell_n * sizeof(uint32_t)));
    return SC_OK;
}

extern "C" sc_status sc_backend_cuda_reserve(sc_renderer *r, size_t cap)
{
    sc_cuda_state *st = r->cuda;
    if (cap <= st->ref_capacity) return SC_OK;
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    free_refs(st);
    for (int i = 0; i < 2; ++i) {
        sc_status s = dev_alloc(st->ref_keys[i], cap, "reference keys");
        if (s == SC_OK) s = dev_alloc(st->ref_values[i], cap, "reference values");
        if (s != SC_OK) {
            free_refs(st);
            return s;
        }
    }
    st->ref_capacity = cap;
    r->ref_capacity = cap;
    return ensure_split_temp(st, &r->params);
}

extern "C" sc_status sc_backend_cuda_set_mesh(sc_renderer *r, const sc_mesh_data *m)
{
    sc_cuda_state *st = r->cuda;
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    free_mesh(st);
    const size_t V = m->vertex_count, T = m->triangle_count, v3 = 3 * V, t3 = 3 * T;
    /* Host: rest normals (the CPU backend's function, so both backends deform alike) and the
     * vertex -> triangle adjacency in triangle order. */
    float *normals = (float *)malloc(v3 * sizeof(float) + 1);
    uint32_t *adj_off = (uint32_t *)calloc(V + 1, sizeof(uint32_t));
    uint32_t *adj = (uint32_t *)malloc(t3 * sizeof(uint32_t) + 1);
    if (!normals || !adj_off || !adj) {
        free(normals); free(adj_off); free(adj);
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_set_mesh: out of host memory for %u vertices", m->vertex_count);
    }
    sc_cpu_vertex_normals(m->positions, m->vertex_count, m->indices, m->triangle_count,
                          r->desc.num_threads ? r->desc.num_threads : sc_cpu_default_threads(), normals);
    for (size_t i = 0; i < t3; ++i) adj_off[m->indices[i] + 1] += 1;
    for (size_t v = 0; v < V; ++v) adj_off[v + 1] += adj_off[v];
    {
        uint32_t *fill = (uint32_t *)malloc((V + 1) * sizeof(uint32_t));
        if (!fill) {
            free(normals); free(adj_off); free(adj);
            return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_set_mesh: out of host memory");
        }
        memcpy(fill, adj_off, (V + 1) * sizeof(uint32_t));
        for (size_t i = 0; i < t3; ++i) adj[fill[m->indices[i]]++] = (uint32_t)(i / 3);
        free(fill);
    }
    sc_status s = SC_OK;
    if (s == SC_OK) s = dev_alloc(st->rest_positions, v3, "rest positions");
    if (s == SC_OK) s = dev_alloc(st->rest_normals, v3, "rest normals");
    if (s == SC_OK) s = dev_alloc(st->positions, v3, "positions");
    if (s == SC_OK) s = dev_alloc(st->normals, v3, "normals");
    if (s == SC_OK) s = dev_alloc(st->indices, t3, "indices");
    if (s == SC_OK) s = dev_alloc(st->adj_offsets, V + 1, "vertex adjacency");
    if (s == SC_OK) s = dev_alloc(st->adj_tris, t3, "vertex adjacency");
    if (s == SC_OK) s = dev_alloc(st->tri_keys, T, "triangle depth keys");
    if (s == SC_OK) s = dev_alloc(st->tri_bins, 4 * (size_t)T, "triangle tile records");
    cudaError_t e = cudaSuccess;
    if (s == SC_OK && V) {
        e = cudaMemcpy(st->rest_positions, m->positions, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->positions, m->positions, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->rest_normals, normals, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->normals, normals, v3 * sizeof(float), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(st->adj_offsets, adj_off, (V + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice);
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
    return SC_OK;
}

static void shade_params(const sc_renderer *r, const sc_frame_desc *frame, sc_cuda_shade_params *sp)
{
    const sc_shading_desc *s = &r->shading;
    memset(sp, 0, sizeof *sp);
    sp->mode = (int)s->mode;
    float l[3] = {-s->light_dir[0], -s->light_dir[1], -s->light_dir[2]};
    float len = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (len > 0.0f) { l[0] /= len; l[1] /= len; l[2] /= len; }
    for (int k = 0; k < 3; ++k) {
        sp->light[k] = l[k];
        sp->albedo[k] = s->albedo[k];
        sp->bg_bottom[k] = s->background_bottom[k];
        sp->bg_top[k] = s->background_top[k];
    }
    sp->ambient = s->ambient;
    sp->heat_max_tile = s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TILE;
    sp->heat_max_tests = s->heat_max > 0.0f ? s->heat_max : SC_HEAT_MAX_TESTS;
    sp->rgba = (uint8_t *)frame->rgba;
    sp->pitch = frame->rgba_pitch ? frame->rgba_pitch : 4 * (size_t)r->params.width;
    sp->surface = frame->rgba ? 0ull : frame->surface;
}

/* Enqueues the whole frame; no host wait inside. */
static sc_status enqueue_frame(sc_renderer *r, const sc_frame_desc *frame)
{
    sc_cuda_state *st = r->cuda;
    sc_frame_params *p = &r->params;
    cudaStream_t s = st->stream;
    int ev = 0;
#define SC_STAGE_MARK() SC_CUDA_CHECK(cudaEventRecord(st->events[ev++], s))
    SC_STAGE_MARK();
    SC_CUDA_CHECK(cudaMemsetAsync(st->globals, 0, sizeof(sc_cuda_globals), s));
    if (st->counts_dirty) { /* the last frame stopped between project and scan: restore the zero counts */
        const size_t cursor_n = sc_cuda_cursor_words(p->num_tiles) + 2 * (size_t)p->num_tiles;
        SC_CUDA_CHECK(cudaMemsetAsync(st->tile_cursors, 0, cursor_n * sizeof(uint32_t), s));
        st->counts_dirty = 0;
    }
    if (frame->positions) {
        if (st->num_vertices)
            SC_CUDA_CHECK(cudaMemcpyAsync(st->positions, frame->positions, sizeof(float) * 3 * (size_t)st->num_vertices,
                                          cudaMemcpyDeviceToDevice, s));
    } else {
        sc_deform_eval e;
        sc_deform_evaluate(&r->deform, r->mesh_center, r->mesh_radius, frame->time, &e);
        SC_TRY(sc_cuda_deform(st, &e, s));
    }
    SC_STAGE_MARK();
    if (!p->flat_shading) SC_TRY(sc_cuda_normals(st, s));
    SC_STAGE_MARK();
    p->depth_min = p->depth_max = 0.0f; /* the device's range replaces these in every kernel */
    st->counts_dirty = 1;
    SC_TRY(sc_cuda_project(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_reduce(st, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_scan(st, p, s));
    st->counts_dirty = 0;
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_emit(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_tile_split(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_slab_split(st, p, s));
    SC_STAGE_MARK();
    SC_TRY(sc_cuda_raycast(st, p, s));
    SC_STAGE_MARK();
    sc_cuda_shade_params sp;
    shade_params(r, frame, &sp);
    SC_TRY(sc_cuda_shade(st, p, &sp, s));
    SC_STAGE_MARK();
#undef SC_STAGE_MARK
    SC_CUDA_CHECK(cudaMemcpyAsync(st->host_globals, st->globals, sizeof(sc_cuda_globals), cudaMemcpyDeviceToHost, s));
    SC_CUDA_CHECK(cudaEventRecord(st->done, s));
    return SC_OK;
}

extern "C" sc_status sc_backend_cuda_render(sc_renderer *r, const sc_frame_desc *frame, size_t *refs_needed)
{
    sc_cuda_state *st = r->cuda;
    sc_frame_stats *stats = &r->stats;
    SC_TRY(enqueue_frame(r, frame));
    /* The end of the frame: the one wait, for the counters (see backend_cuda.h). */
    SC_CUDA_CHECK(cudaEventSynchronize(st->done));
    const sc_cuda_globals *g = st->host_globals;
    stats->references = g->references;
    if (g->overflow) {
        *refs_needed = (size_t)g->references;
        return SC_ERROR_CAPACITY; /* internal: the caller grows and redoes the frame */
    }
    for (int i = 0; i < SC_STAGE_COUNT; ++i) {
        float ms = 0.0f;
        SC_CUDA_CHECK(cudaEventElapsedTime(&ms, st->events[i], st->events[i + 1]));
        stats->stage_ms[i] = ms;
    }
    stats->visible_triangles = g->visible;
    stats->ray_triangle_tests = g->tests;
    stats->tiles_exited_early = g->exited;
    stats->hit_pixels = g->hit_pixels;
    r->params.depth_min = stats->depth_min = g->depth_min;
    r->params.depth_max = stats->depth_max = g->depth_max;
    return SC_OK;
}

extern "C" sc_status sc_backend_cuda_read_hits(const sc_renderer *r, sc_hit *out)
{
    const sc_cuda_state *st = r->cuda;
    size_t n = (size_t)r->params.width * r->params.height;
    SC_CUDA_CHECK(cudaMemcpyAsync(out, st->hits, n * sizeof(sc_hit), cudaMemcpyDeviceToHost, st->stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    return SC_OK;
}

extern "C" sc_status sc_backend_cuda_read_positions(const sc_renderer *r, float *out)
{
    const sc_cuda_state *st = r->cuda;
    size_t n = 3 * (size_t)st->num_vertices;
    if (n == 0) return SC_OK;
    SC_CUDA_CHECK(cudaMemcpyAsync(out, st->positions, n * sizeof(float), cudaMemcpyDeviceToHost, st->stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(st->stream));
    return SC_OK;
}
