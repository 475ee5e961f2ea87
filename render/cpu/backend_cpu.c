/* backend_cpu.c - the CPU backend: buffers and the frame (deform, project, reduce, scan, emit, tile
 * split, slab split, ray cast, shadows, shade), each stage timed, behind the backend table
 * sc_backend_cpu_ops (sc_backend_ops.h). The smooth normals have no stage of their own (its time
 * stays 0): shade computes them for the hit pixels. No CUDA call anywhere here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "cpu_parallel.h"
#include "normals_cpu.h"
#include "render_tuning.h"
#include "sc_report.h"
#include "sizes.h"

static void free_mesh(sc_cpu_state *st)
{
    free(st->rest_positions); free(st->rest_normals); free(st->positions);
    free(st->indices); free(st->adj_offsets); free(st->adj_tris);
    free(st->new_of_old); free(st->tri_tiles); free(st->tri_offsets); free(st->tri_keys); free(st->tri_pixels);
    st->rest_positions = st->rest_normals = st->positions = NULL;
    st->indices = st->adj_offsets = st->adj_tris = NULL;
    st->new_of_old = st->tri_tiles = st->tri_offsets = st->tri_pixels = NULL;
    st->tri_keys = NULL;
}

static void free_refs(sc_cpu_state *st)
{
    free(st->ref_keys); free(st->ref_values); free(st->ref_keys_tmp); free(st->ref_values_tmp);
    st->ref_keys = st->ref_values = st->ref_keys_tmp = st->ref_values_tmp = NULL;
    st->ref_capacity = 0;
}

/* Whether `bytes` for one part, with the other parts as held (`held` is this part's current bytes,
 * replaced), fits the bound. `what` and `lower` complete the message: "<call>: <what> needs N, ...;
 * <lower>". */
static sc_status check_memory(const sc_cpu_state *st, size_t held, size_t bytes, int overflow, const char *call,
                              const char *what, const char *lower)
{
    size_t others = st->mesh_bytes + st->grid_bytes + st->ref_bytes + st->shadow_bytes - held, total;
    char need[32], limit[32], other[32];
    if (overflow || !sc_size_add(others, bytes, &total))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: %s needs more bytes than a size_t holds; %s", call, what, lower);
    if (total <= st->memory_limit) return SC_OK;
    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                   "%s: %s needs %s of host memory, which with the renderer's other %s exceeds the limit of %s "
                   "(sc_renderer_desc.host_memory_limit; 0: half of physical memory); %s",
                   call, what, sc_format_bytes((double)bytes, need, sizeof need),
                   sc_format_bytes((double)others, other, sizeof other),
                   sc_format_bytes((double)st->memory_limit, limit, sizeof limit), lower);
}

sc_status sc_cpu_check_memory(const sc_cpu_state *st, size_t held, size_t bytes, const char *call, const char *what,
                              const char *lower)
{
    return check_memory(st, held, bytes, 0, call, what, lower);
}

static sc_status cpu_resize(void *state, const sc_frame_params *grid);

static void cpu_destroy(void *state)
{
    sc_cpu_state *st = state;
    if (!st) return;
    free_mesh(st);
    free_refs(st);
    free(st->group_offsets); free(st->tile_offsets); free(st->cell_offsets);
    free(st->hits); free(st->tests);
    sc_cpu_free_shadows(st);
    sc_cpu_free_shadow_work(st);
    free(st);
}

static sc_status cpu_create(const sc_backend_config *config, void **state)
{
    *state = NULL;
    sc_cpu_state *st = calloc(1, sizeof *st);
    if (!st) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_create: out of host memory");
    st->threads = config->num_threads;
    st->memory_limit = config->host_memory_limit;
    sc_status s = cpu_resize(st, &config->grid);
    if (s != SC_OK) {
        cpu_destroy(st);
        return s;
    }
    *state = st;
    return SC_OK;
}

/* Grows *buf to at least n elements of size bytes (contents not kept). */
static int ensure(void **buf, size_t *cap, size_t n, size_t size)
{
    if (*cap >= n && *buf) return 1;
    size_t bytes;
    if (!sc_size_mul(n, size, &bytes)) return 0;
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) return 0;
    free(*buf);
    *buf = p;
    *cap = n;
    return 1;
}

/* Host bytes of the grid and pixel buffers of grid p: per pixel a hit and a test count; offsets of
 * the tile split's groups, of the tiles and of the (tile, slab) cells. *cells_bytes: the cells'
 * part. 0 on overflow. */
static int grid_bytes(const sc_frame_params *p, size_t *total, size_t *cells_bytes)
{
    /* tiles < 2^22 and slab bits <= 10 (set_grid): the cell count itself cannot overflow. */
    size_t pixels = (size_t)p->width * p->height, pixel_bytes, cells = ((size_t)p->num_tiles << p->slab_bits) + 1;
    size_t offsets, sum;
    size_t group_n = ((size_t)1 << (p->tile_bits - (p->tile_bits + 1) / 2)) + 1;
    size_t tile_n = ((size_t)1 << p->tile_bits) + 1;
    if (!sc_size_mul(pixels, sizeof(sc_hit) + sizeof(uint32_t), &pixel_bytes) ||
        !sc_size_mul(cells, sizeof(uint32_t), cells_bytes) || !sc_size_add(group_n, tile_n, &offsets) ||
        !sc_size_mul(offsets, sizeof(uint32_t), &offsets) || !sc_size_add(pixel_bytes, offsets, &sum) ||
        !sc_size_add(sum, *cells_bytes, total))
        return 0;
    return 1;
}

static sc_status cpu_resize(void *state, const sc_frame_params *p)
{
    sc_cpu_state *st = state;
    size_t pixels = (size_t)p->width * p->height;
    size_t group_n = ((size_t)1 << (p->tile_bits - (p->tile_bits + 1) / 2)) + 1;
    size_t tile_n = ((size_t)1 << p->tile_bits) + 1;
    size_t cell_n = ((size_t)p->num_tiles << p->slab_bits) + 1;
    size_t bytes = 0, cells_bytes = 0;
    const int ok_size = grid_bytes(p, &bytes, &cells_bytes);
    char what[160], cells_text[32];
    snprintf(what, sizeof what, "a %ux%u target in %u-pixel tiles with %u slabs (%s of cell offsets, tiles x slabs)",
             p->width, p->height, p->tile_size, p->num_slabs, sc_format_bytes((double)cells_bytes, cells_text, sizeof cells_text));
    SC_TRY(check_memory(st, st->grid_bytes, bytes, !ok_size, "renderer", what,
                        cells_bytes > bytes / 2 ? "lower the slab count or raise the tile size"
                                                : "lower the target size"));
    size_t pc = st->pixel_cap, pc2 = st->pixel_cap;
    int ok = ensure((void **)&st->hits, &pc, pixels, sizeof(sc_hit)) &&
             ensure((void **)&st->tests, &pc2, pixels, sizeof(uint32_t)) &&
             ensure((void **)&st->group_offsets, &st->group_cap, group_n, sizeof(uint32_t)) &&
             ensure((void **)&st->tile_offsets, &st->tile_cap, tile_n, sizeof(uint32_t)) &&
             ensure((void **)&st->cell_offsets, &st->cell_cap, cell_n, sizeof(uint32_t));
    st->pixel_cap = pc < pc2 ? pc : pc2;
    /* Held: what the buffers' capacities take (they never shrink). */
    st->grid_bytes = st->pixel_cap * (sizeof(sc_hit) + sizeof(uint32_t)) +
                     (st->group_cap + st->tile_cap + st->cell_cap) * sizeof(uint32_t);
    if (!ok) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for a %ux%u target",
                            p->width, p->height);
    /* A fresh target has no hits until the next frame. */
    for (size_t i = 0; i < pixels; ++i) st->hits[i] = (sc_hit){SC_NO_HIT, INFINITY, 0.0f, 0.0f};
    memset(st->tests, 0, pixels * sizeof(uint32_t));
    sc_cpu_free_shadows(st); /* sized for the old target; the next frame with shadows allocates */
    st->grid = *p;
    return SC_OK;
}

static sc_status cpu_reserve(void *state, size_t cap, size_t *capacity)
{
    sc_cpu_state *st = state;
    *capacity = st->ref_capacity;
    if (cap <= st->ref_capacity) return SC_OK;
    if (cap > SC_MAX_REF_CAPACITY)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "renderer: %zu references are more than 2^32 - 2", cap);
    const size_t bytes = cap * 4 * sizeof(uint32_t); /* keys and values, ping-pong: < 2^36 */
    char what[96];
    snprintf(what, sizeof what, "a reference buffer of %zu triangle-tile references", cap);
    SC_TRY(check_memory(st, st->ref_bytes, bytes, 0, "renderer", what,
                        "lower initial_ref_capacity, the mesh's triangles, or raise the tile size"));
    free_refs(st);
    st->ref_bytes = 0;
    st->ref_keys = malloc(cap * sizeof(uint32_t));
    st->ref_values = malloc(cap * sizeof(uint32_t));
    st->ref_keys_tmp = malloc(cap * sizeof(uint32_t));
    st->ref_values_tmp = malloc(cap * sizeof(uint32_t));
    if (!st->ref_keys || !st->ref_values || !st->ref_keys_tmp || !st->ref_values_tmp) {
        free_refs(st);
        *capacity = 0;
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for %zu references", cap);
    }
    st->ref_capacity = cap;
    st->ref_bytes = bytes;
    *capacity = cap;
    return SC_OK;
}

static sc_status cpu_set_mesh(void *state, const sc_mesh_data *m, const uint32_t *new_of_old)
{
    sc_cpu_state *st = state;
    size_t v3 = 3 * (size_t)m->vertex_count, t3 = 3 * (size_t)m->triangle_count, nt = m->triangle_count;
    const size_t perm = new_of_old ? (size_t)m->vertex_count : 0;
    char what[96];
    snprintf(what, sizeof what, "a mesh of %u vertices and %u triangles", m->vertex_count, m->triangle_count);
    if (t3 > UINT32_MAX) /* the adjacency's offsets are 32-bit */
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "sc_renderer_set_mesh: %s has more than 2^32 - 1 triangle corners", what);
    /* 3 copies of the vertices (rest positions and normals, deformed positions), the adjacency (a
     * word per vertex + 1 and per corner), the permutation, the indices, 7 words per triangle; below
     * 2^40 bytes for 32-bit counts. */
    const size_t bytes = 3 * v3 * sizeof(float) + ((size_t)m->vertex_count + 1 + t3) * sizeof(uint32_t) +
                         perm * sizeof(uint32_t) + t3 * sizeof(uint32_t) + 7 * nt * sizeof(uint32_t);
    SC_TRY(check_memory(st, st->mesh_bytes, bytes, 0, "sc_renderer_set_mesh", what, "use a smaller mesh"));
    free_mesh(st);
    st->mesh_bytes = 0;
    st->rest_positions = malloc(v3 * sizeof(float) + 1);
    st->rest_normals = malloc(v3 * sizeof(float) + 1);
    st->positions = malloc(v3 * sizeof(float) + 1);
    st->indices = malloc(t3 * sizeof(uint32_t) + 1);
    st->adj_offsets = malloc(((size_t)m->vertex_count + 1) * sizeof(uint32_t));
    st->adj_tris = malloc(t3 * sizeof(uint32_t) + 1);
    st->new_of_old = new_of_old ? malloc(perm * sizeof(uint32_t) + 1) : NULL;
    st->tri_tiles = malloc(nt * sizeof(uint32_t) + 1);
    st->tri_offsets = malloc(nt * sizeof(uint32_t) + 1);
    st->tri_keys = malloc(nt * sizeof(float) + 1);
    st->tri_pixels = malloc(4 * nt * sizeof(uint32_t) + 1);
    if (!st->rest_positions || !st->rest_normals || !st->positions || !st->indices || !st->adj_offsets ||
        !st->adj_tris || (new_of_old && !st->new_of_old) || !st->tri_tiles || !st->tri_offsets || !st->tri_keys ||
        !st->tri_pixels) {
        free_mesh(st);
        st->num_vertices = st->num_triangles = 0;
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_renderer_set_mesh: out of host memory for %u vertices, %u triangles",
                       m->vertex_count, m->triangle_count);
    }
    if (v3) {
        memcpy(st->rest_positions, m->positions, v3 * sizeof(float));
        memcpy(st->positions, m->positions, v3 * sizeof(float));
    }
    if (t3) memcpy(st->indices, m->indices, t3 * sizeof(uint32_t));
    if (new_of_old) memcpy(st->new_of_old, new_of_old, perm * sizeof(uint32_t));
    sc_vertex_adjacency(st->indices, m->vertex_count, m->triangle_count, st->adj_offsets, st->adj_tris);
    const sc_mesh_rings rest = {st->adj_offsets, st->adj_tris, st->indices, st->rest_positions};
    sc_cpu_vertex_normals(&rest, m->vertex_count, NULL, st->threads, st->rest_normals);
    st->mesh_bytes = bytes;
    st->num_vertices = m->vertex_count;
    st->num_triangles = m->triangle_count;
    return SC_OK;
}

static sc_status cpu_render(void *state, const sc_backend_frame *frame, size_t *refs_needed)
{
    sc_cpu_state *st = state;
    sc_frame_params params = *frame->params;
    sc_frame_params *p = &params;
    sc_frame_stats *stats = &st->stats;
    memset(stats, 0, sizeof *stats);
    st->serial = 0; /* the stats are this frame's from now on, complete at the end */
    double t = sc_now_ms(), t2;
#define SC_STAGE_END(stage) (t2 = sc_now_ms(), stats->stage_ms[stage] = t2 - t, t = t2)

    sc_cpu_deform(st, p, frame->deform, frame->positions);
    SC_STAGE_END(SC_STAGE_DEFORM);
    /* SC_STAGE_NORMALS: no stage, 0 ms (shade computes the hit pixels' smooth normals). */

    p->depth_min = p->depth_max = 0.0f; /* unused by the projection */
    sc_cpu_project(st, p);
    SC_STAGE_END(SC_STAGE_PROJECT);
    sc_cpu_reduce_depth(st, p, &p->depth_min, &p->depth_max, &stats->visible_triangles);
    SC_STAGE_END(SC_STAGE_REDUCE);
    uint64_t total = sc_cpu_scan(st, p);
    SC_STAGE_END(SC_STAGE_SCAN);
    stats->references = total;
    if (total > st->ref_capacity) {
        *refs_needed = (size_t)total;
        return SC_ERROR_CAPACITY; /* internal: the front end grows and calls again */
    }
    st->num_refs = (size_t)total;
    sc_cpu_emit(st, p);
    SC_STAGE_END(SC_STAGE_EMIT);
    SC_TRY(sc_cpu_tile_split(st, p));
    SC_STAGE_END(SC_STAGE_TILE_SPLIT);
    SC_TRY(sc_cpu_slab_split(st, p));
    SC_STAGE_END(SC_STAGE_SLAB_SPLIT);

    sc_cpu_counters c;
    sc_cpu_raycast(st, p, &c);
    stats->ray_triangle_tests = c.ray_triangle_tests;
    stats->ray_tests_performed = c.ray_tests_performed;
    stats->tiles_exited_early = c.tiles_exited_early;
    stats->hit_pixels = c.hit_pixels;
    SC_STAGE_END(SC_STAGE_RAYCAST);
    SC_TRY(sc_cpu_shadows(st, p, frame->shade, refs_needed, stats, &stats->stage_ms[SC_STAGE_SHADOW_RECEIVERS]));
    t = sc_now_ms();
    if (frame->rgba) sc_cpu_shade(st, p, frame->shade, frame->rgba, frame->pitch);
    SC_STAGE_END(SC_STAGE_SHADE);
#undef SC_STAGE_END
    stats->depth_min = p->depth_min;
    stats->depth_max = p->depth_max;
    st->serial = frame->serial;
    return SC_OK;
}

static sc_status cpu_finish(void *state, sc_frame_stats *out)
{
    *out = ((const sc_cpu_state *)state)->stats;
    return SC_OK;
}

/* Every frame is complete when render returns: the last one, unless it failed. */
static sc_status cpu_poll(void *state, sc_frame_stats *out, uint64_t *serial)
{
    const sc_cpu_state *st = state;
    *serial = st->serial;
    if (st->serial) *out = st->stats;
    else memset(out, 0, sizeof *out);
    return SC_OK;
}

static sc_status cpu_read_hits(void *state, sc_hit *out)
{
    const sc_cpu_state *st = state;
    memcpy(out, st->hits, sizeof(sc_hit) * st->grid.width * st->grid.height);
    return SC_OK;
}

/* read_positions and copy_positions: host memory both ways, the same copy (in the caller's order). */
static sc_status cpu_read_positions(void *state, float *out)
{
    sc_cpu_positions_to_caller(state, out);
    return SC_OK;
}

/* On demand, from this frame's positions: the caller's vertex order straight from the permutation. */
static sc_status cpu_read_normals(void *state, float *out)
{
    const sc_cpu_state *st = state;
    const sc_mesh_rings m = {st->adj_offsets, st->adj_tris, st->indices, st->positions};
    sc_cpu_vertex_normals(&m, st->num_vertices, st->new_of_old, st->threads, out);
    return SC_OK;
}

static sc_status cpu_read_shadows(void *state, uint8_t *out)
{
    const sc_cpu_state *st = state;
    const size_t pixels = (size_t)st->grid.width * st->grid.height;
    if (st->shadow_mask && st->shadow_pixels >= pixels) memcpy(out, st->shadow_mask, pixels);
    else memset(out, 0, pixels);
    return SC_OK;
}

static sc_status cpu_buffers(void *state, sc_backend_buffers *out)
{
    const sc_cpu_state *st = state;
    *out = (sc_backend_buffers){.tri_tiles = st->tri_tiles, .tri_keys = st->tri_keys,
                                .tile_offsets = st->tile_offsets, .tests = st->tests,
                                .shadow_tests = st->shadow_tests, .new_of_old = st->new_of_old};
    return SC_OK;
}

static int cpu_available(void) { return 1; }

static void cpu_describe(sc_backend_info *info)
{
    info->available = 1;
    info->unavailable_reason[0] = '\0';
    info->buffer_memory = SC_MEMORY_HOST;
    info->device_timed = 0; /* frame_ms is the host's time of the call */
    info->worker_threads = sc_cpu_default_threads();
    snprintf(info->device, sizeof info->device, "host: %u threads", info->worker_threads);
    info->device_name[0] = '\0'; /* the host: no device of its own to name */
    info->code_path = "host";
}

const sc_backend_ops sc_backend_cpu_ops = {
    .kind = SC_BACKEND_CPU,
    .name = "CPU",
    .caps = SC_BACKEND_CAP_SYNCHRONOUS,
    .available = cpu_available,
    .create = cpu_create,
    .destroy = cpu_destroy,
    .resize = cpu_resize,
    .set_mesh = cpu_set_mesh,
    .reserve = cpu_reserve,
    .render = cpu_render,
    .finish = cpu_finish,
    .poll = cpu_poll,
    .read_hits = cpu_read_hits,
    .read_positions = cpu_read_positions,
    .read_normals = cpu_read_normals,
    .read_shadows = cpu_read_shadows,
    .copy_positions = cpu_read_positions,
    .buffers = cpu_buffers,
    .describe = cpu_describe,
    .measure_limits = sc_cpu_measure_limits,
};
