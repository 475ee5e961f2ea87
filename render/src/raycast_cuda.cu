/* raycast_cuda.cu - the ray cast on the GPU: one thread block per tile, one thread (ray) per pixel
 * centre, slabs front to back. Each slab's triangles are loaded in batches of one triangle per
 * thread into shared memory by the whole block, then every ray that is not done tests the whole
 * batch (intersect.h; ties to the lower triangle id). After slab k a ray is done when its nearest
 * hit is below the near bound of slab k+1 (the CPU backend's rule, raycast_cpu.c); the block stops
 * when all its rays are done (__syncthreads_and). Counters: per-pixel tests into the tests buffer,
 * totals by warp shuffles and one atomic per warp. */
#include <math.h>

#include "backend_cuda.h"
#include "intersect.h"
#include "render_tuning.h"
#include "sc_report.h"

/* Sum of v over the `lanes` first lanes of the warp (lanes 1..32), valid in lane 0. */
__device__ static inline unsigned long long warp_sum_u64(unsigned long long v, uint32_t lanes)
{
    const unsigned mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1u);
    const uint32_t lane = threadIdx.x & 31;
    for (uint32_t o = 16; o > 0; o >>= 1) {
        unsigned long long w = __shfl_down_sync(mask, v, o);
        if (lane + o < lanes) v += w;
    }
    return v;
}

template <int MAX_THREADS>
__global__ void __launch_bounds__(MAX_THREADS)
sc_raycast_kernel(sc_frame_params p, const sc_cuda_globals *g_in, sc_cuda_globals *g, const uint32_t *cell_offsets,
                  const uint32_t *ref_values, const uint32_t *idx, const float *pos, sc_hit *hits,
                  uint32_t *tests_out)
{
    __shared__ sc_cuda_tri batch[MAX_THREADS];
    if (g_in->overflow) return;
    p.depth_min = g_in->depth_min;
    p.depth_max = g_in->depth_max;
    const uint32_t tile = blockIdx.x;
    const uint32_t tid = threadIdx.x, nthreads = blockDim.x;
    const uint32_t x = (tile % p.tiles_x) * p.tile_size + tid % p.tile_size;
    const uint32_t y = (tile / p.tiles_x) * p.tile_size + tid / p.tile_size;
    const int valid = x < p.width && y < p.height;

    sc_ray ray;
    if (valid) {
        float dir[3];
        sc_pixel_ray_dir(&p, x, y, dir);
        sc_ray_setup(&ray, p.eye, dir);
    }
    float best_t = INFINITY, best_u = 0.0f, best_v = 0.0f;
    uint32_t best_tri = SC_NO_HIT, tests = 0;
    int done = !valid;

    const uint32_t *cells = cell_offsets + ((size_t)tile << p.slab_bits);
    const uint32_t tile_end = cells[p.num_slabs];
    int exited = 0;
    for (uint32_t k = 0; k < p.num_slabs; ++k) {
        const uint32_t begin = cells[k], end = cells[k + 1];
        if (__syncthreads_and(done)) {
            exited = tile_end > begin;
            break;
        }
        for (uint32_t b = begin; b < end; b += nthreads) {
            __syncthreads(); /* the previous batch is consumed */
            if (b + tid < end) {
                const uint32_t tri = ref_values[b + tid];
                const uint32_t *f = idx + 3 * (size_t)tri;
                sc_cuda_tri *o = &batch[tid];
                const float *va = pos + 3 * (size_t)f[0], *vb = pos + 3 * (size_t)f[1], *vc = pos + 3 * (size_t)f[2];
                for (int i = 0; i < 3; ++i) {
                    o->a[i] = va[i];
                    o->b[i] = vb[i];
                    o->c[i] = vc[i];
                }
                o->id = tri;
            }
            __syncthreads();
            if (done) continue;
            const uint32_t m = end - b < nthreads ? end - b : nthreads;
            for (uint32_t j = 0; j < m; ++j) {
                const sc_cuda_tri *q = &batch[j];
                float t, u, v;
                ++tests;
                if (sc_intersect(&ray, q->a, q->b, q->c, p.near_plane, p.far_plane, &t, &u, &v) &&
                    sc_hit_better(t, q->id, best_t, best_tri)) {
                    best_t = t;
                    best_u = u;
                    best_v = v;
                    best_tri = q->id;
                }
            }
        }
        if (!done && best_t < sc_slab_bound(&p, k + 1)) done = 1;
    }

    if (valid) {
        const size_t px = (size_t)y * p.width + x;
        sc_hit h;
        h.tri = best_tri;
        h.depth = best_t;
        h.u = best_u;
        h.v = best_v;
        hits[px] = h;
        tests_out[px] = tests;
    }
    const uint32_t warp_base = tid & ~31u;
    const uint32_t lanes = nthreads - warp_base < 32 ? nthreads - warp_base : 32;
    unsigned long long sum_tests = warp_sum_u64(tests, lanes);
    unsigned long long sum_hits = warp_sum_u64(valid && best_tri != SC_NO_HIT ? 1ull : 0ull, lanes);
    if ((tid & 31) == 0) {
        if (sum_tests) atomicAdd(&g->tests, sum_tests);
        if (sum_hits) atomicAdd(&g->hit_pixels, sum_hits);
    }
    if (tid == 0 && exited) atomicAdd(&g->exited, 1ull);
}

sc_status sc_cuda_raycast(const sc_cuda_state *st, const sc_frame_params *p, cudaStream_t s)
{
    const uint32_t threads = p->tile_size * p->tile_size;
    const uint32_t *values = st->ref_values[st->final_refs];
    if (threads <= 64) {
        sc_raycast_kernel<64><<<p->num_tiles, threads, 0, s>>>(*p, st->globals, st->globals, st->cell_offsets, values,
                                                                st->indices, st->positions, st->hits, st->tests);
    } else if (threads <= 256) {
        sc_raycast_kernel<256><<<p->num_tiles, threads, 0, s>>>(*p, st->globals, st->globals, st->cell_offsets, values,
                                                                 st->indices, st->positions, st->hits, st->tests);
    } else {
        sc_raycast_kernel<1024><<<p->num_tiles, threads, 0, s>>>(*p, st->globals, st->globals, st->cell_offsets,
                                                                  values, st->indices, st->positions, st->hits,
                                                                  st->tests);
    }
    SC_CUDA_CHECK_LAUNCH("sc_raycast_kernel");
    return SC_OK;
}
