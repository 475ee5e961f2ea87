/* demo_particles.cu - `split-demo particles`: a simple particle system whose N moving points are
 * binned into a 3-D uniform grid by a multisplit on their cell id at every step, then the neighbours
 * of every point within a radius are found through the grid (grid3d.h, the grid `split-demo grid`
 * builds once).
 *   Particles: start at g3_initial_point / g3_initial_velocity (grid3d_host.h: uniform in the unit
 *     box plus four dense clusters); each step falls under gravity (-z) and bounces elastically off
 *     the box's walls (g3_integrate: one rounding per operation, so the host can replay it bit for bit).
 *   A step, all on one stream, all memory allocated before the first step (the multisplit's
 *     temporary storage included), no allocation and no synchronisation inside the step loop:
 *     integrate  one kernel: the step, in place on the cell-ordered records, and each particle's
 *                new cell id (G^3 cells of side 1/G);
 *     bin        ONE unstable split_multisplit, IDS rule on the cell ids (the wide path when
 *                G^3 > 2048): the gather index and the cell offsets;
 *     reorder    two split_gathers of 16-byte records (positions, velocities) into cell order, into
 *                the other half of a double buffer;
 *     neighbours per particle, the others within the radius in the 27 cells around its cell: their
 *                number and id sum (by id), and the step's total (twice its neighbour pairs).
 * Checks (g3_check_result; exit 1 naming the step and what mismatched), after step 1 and after the
 * last step, before any time is printed: the records form a permutation of the ids; positions and
 * velocities equal the CPU's replay of that many steps from the initial state, bit for bit (every
 * particle up to 2^20, else a seeded sample of 8192); the CPU bins the same positions with
 * split_multisplit_ref: identical cell offsets and the same particles in every cell (the GPU's
 * order inside a cell is unspecified); every particle's neighbour count and id sum equal the CPU's
 * count through its grid (a seeded sample of 8192 above 2^20) and brute force over all particles
 * (every particle up to 20000, else a sample); the step's total equals the sum of the counts.
 * Timing: step 1 is the warm-up (and the first check); steps 2 .. S are timed with CUDA events
 * between the phases, recorded inside the loop and read after it.
 * Usage: split-demo particles [--n N] [--steps S] [--grid G] [--radius R] [--dt DT]. Exit 0
 * verified, 1 a check or a call failed, 2 bad usage, 77 no CUDA device (1 when
 * SLABCAST_REQUIRE_GPU=1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "grid3d.h"

#define W "particles" /* the subcommand, in messages */

enum { PART_MAX_POINTS = 1 << 24, PART_MAX_STEPS = 10000, PHASES = 4 };
#define PART_MAX_DT 0.01

static const char *const phase_names[PHASES] = {"integrate", "bin (split_multisplit)", "reorder (2 x split_gather)",
                                                "neighbours"};

/* ---- the step ---- */

/* The step of every particle in place, and its new cell id. */
__global__ void particles_integrate_kernel(g3_point *pos, g3_point *vel, uint32_t *cells, uint64_t n, uint32_t g,
                                           float dt)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        const float4 a = ((const float4 *)pos)[i], b = ((const float4 *)vel)[i];
        g3_point p, v;
        p.x = a.x, p.y = a.y, p.z = a.z, p.id = __float_as_uint(a.w);
        v.x = b.x, v.y = b.y, v.z = b.z, v.id = __float_as_uint(b.w);
        g3_integrate(&p, &v, dt);
        ((float4 *)pos)[i] = make_float4(p.x, p.y, p.z, a.w);
        ((float4 *)vel)[i] = make_float4(v.x, v.y, v.z, b.w);
        cells[i] = g3_cell_of(p, g);
    }
}

typedef struct part_state {
    g3_gpu_grid grid;
    g3_point *pos[2], *vel[2];  /* double buffers; [cur] holds the current cell-ordered particles */
    int cur;
    uint32_t *count;            /* by id */
    uint64_t *id_sum;           /* by id */
    unsigned long long *totals; /* per step (1-based step s at [s - 1]): the sum of the counts */
    float dt, r2;
} part_state;

/* One step (1-based `step`), enqueued on s; ev (5 events, or NULL) is recorded before and after
 * each phase. */
static int run_step(part_state *st, uint32_t step, cudaEvent_t *ev, cudaStream_t s)
{
    const int a = st->cur, b = 1 - st->cur;
    const size_t n = st->grid.n;
    if (ev) DEMO_CUDA(W, cudaEventRecord(ev[0], s));
    particles_integrate_kernel<<<demo_blocks_for(n, G3_THREADS), G3_THREADS, 0, s>>>(st->pos[a], st->vel[a], st->grid.cell_ids, n,
                                                                st->grid.g, st->dt);
    DEMO_CUDA(W, cudaGetLastError());
    if (ev) DEMO_CUDA(W, cudaEventRecord(ev[1], s));
    if (g3_grid_bin(&st->grid, s)) return 1;
    if (ev) DEMO_CUDA(W, cudaEventRecord(ev[2], s));
    if (g3_grid_reorder(&st->grid, st->pos[a], st->pos[b], sizeof(g3_point), s) ||
        g3_grid_reorder(&st->grid, st->vel[a], st->vel[b], sizeof(g3_point), s))
        return 1;
    if (ev) DEMO_CUDA(W, cudaEventRecord(ev[3], s));
    if (g3_grid_count(&st->grid, st->pos[b], st->r2, st->count, st->id_sum, st->totals + (step - 1), s)) return 1;
    if (ev) DEMO_CUDA(W, cudaEventRecord(ev[4], s));
    st->cur = b;
    return 0;
}

/* ---- the checks ---- */

typedef struct part_host {
    g3_point *pos, *vel;
    uint32_t *offsets, *count;
    uint64_t *id_sum;
} part_host;

static int alloc_host(part_host *h, size_t n, uint32_t cells)
{
    h->pos = (g3_point *)malloc(n * sizeof(g3_point));
    h->vel = (g3_point *)malloc(n * sizeof(g3_point));
    h->offsets = (uint32_t *)malloc(((size_t)cells + 1) * 4);
    h->count = (uint32_t *)malloc(n * 4);
    h->id_sum = (uint64_t *)malloc(n * 8);
    if (!h->pos || !h->vel || !h->offsets || !h->count || !h->id_sum) {
        fprintf(stderr, "split-demo " W ": host allocation for the copies of %zu particles failed\n", n);
        return 1;
    }
    return 0;
}

static void free_host(part_host *h)
{
    free(h->pos), free(h->vel), free(h->offsets), free(h->count), free(h->id_sum);
}

/* After step `step` (the stream idle): the particles, the grid and the neighbours against the CPU. */
static int check_step(const part_state *st, part_host *h, uint32_t step, float r)
{
    const size_t n = st->grid.n;
    unsigned long long total = 0;
    DEMO_CUDA(W, cudaMemcpy(h->pos, st->pos[st->cur], n * sizeof(g3_point), cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->vel, st->vel[st->cur], n * sizeof(g3_point), cudaMemcpyDeviceToHost));
    const size_t offset_bytes = ((size_t)st->grid.num_cells + 1) * 4;
    DEMO_CUDA(W, cudaMemcpy(h->offsets, st->grid.offsets, offset_bytes, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->count, st->count, n * 4, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(h->id_sum, st->id_sum, n * 8, cudaMemcpyDeviceToHost));
    DEMO_CUDA(W, cudaMemcpy(&total, st->totals + (step - 1), sizeof total, cudaMemcpyDeviceToHost));
    char msg[640];
    if (g3_check_result(h->pos, h->vel, h->offsets, h->count, h->id_sum, total, n, st->grid.g, r, step, st->dt, msg,
                        sizeof msg)) {
        fprintf(stderr, "split-demo " W ": WRONG after step %u: %s\n", step, msg);
        return 1;
    }
    return 0;
}

/* ---- options ---- */

typedef struct part_opts {
    uint64_t n;
    uint32_t steps, g; /* g 0: chosen from n (and the radius) */
    double r, dt;      /* r 0: 0.75 of the cell side */
} part_opts;

static void part_usage(FILE *f)
{
    fprintf(f,
            "usage: split-demo particles [--n N] [--steps S] [--grid G] [--radius R] [--dt DT]\n"
            "  N particles fall under gravity and bounce off the walls of the unit box; every step they are\n"
            "  re-binned into a G^3 uniform grid by one split_multisplit on the cell id, moved into cell order\n"
            "  by split_gather, and each one's neighbours within R are counted through the 27 cells around it.\n"
            "  Steps 1 and S are checked against the CPU; then the time per step and per phase is printed.\n"
            "  --n N        particles, 1 .. %d (default 1000000)\n"
            "  --steps S    steps, 2 .. %d (default 100): step 1 is the warm-up, 2 .. S are timed\n"
            "  --grid G     cells per side, 1 .. %d (default: the largest with G^3 <= N / 4, and R within a cell)\n"
            "  --radius R   neighbour radius in box units, > 0 and at most 0.999 / G (default 0.75 / G)\n"
            "  --dt DT      time step, > 0 and at most %g (default 0.002)\n",
            (int)PART_MAX_POINTS, (int)PART_MAX_STEPS, (int)G3_MAX_G, PART_MAX_DT);
}

static int bad_usage(const char *what, const char *value, const char *valid)
{
    return demo_bad_value("split-demo " W, what, value, valid, part_usage);
}

/* 0 parsed, 1 --help printed (exit 0), 2 bad usage (printed). */
static int parse_part_options(int argc, char **argv, part_opts *o)
{
    o->n = 1000000, o->steps = 100, o->g = 0, o->r = 0, o->dt = 0.002;
    static const char *const names[] = {"--n", "--steps", "--grid", "--radius", "--dt"};
    enum { NAMES = sizeof names / sizeof names[0] };
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            part_usage(stdout);
            return 1;
        }
        const char *value = NULL;
        const int which = demo_option("split-demo " W, argc, argv, &a, names, NAMES, &value);
        if (which < 0) {
            part_usage(stderr);
            return 2;
        }
        uint64_t v = 0;
        switch (which) {
        case 0:
            if (demo_parse_u64(value, 1, PART_MAX_POINTS, &o->n) != 0)
                return bad_usage(names[which], value, "a whole number of particles, 1 .. 16777216");
            break;
        case 1:
            if (demo_parse_u64(value, 2, PART_MAX_STEPS, &v) != 0) return bad_usage(names[which], value, "2 .. 10000");
            o->steps = (uint32_t)v;
            break;
        case 2:
            if (demo_parse_u64(value, 1, G3_MAX_G, &v) != 0) return bad_usage(names[which], value, "1 .. 256");
            o->g = (uint32_t)v;
            break;
        case 3:
            if (g3_parse_positive(value, &o->r) != 0 || o->r > G3_MAX_RADIUS_CELLS)
                return bad_usage(names[which], value, "a number > 0 and at most 0.999 / G (e.g. 0.01)");
            break;
        default:
            if (g3_parse_positive(value, &o->dt) != 0 || o->dt > PART_MAX_DT || (float)o->dt <= 0)
                return bad_usage(names[which], value, "a number > 0 and at most 0.01 (e.g. 0.002)");
            break;
        }
    }
    return 0;
}

/* ---- the run ---- */

static int alloc_state(part_state *st, size_t n, uint32_t g, uint32_t steps)
{
    if (g3_grid_create(&st->grid, W, n, g)) return 1;
    for (int k = 0; k < 2; ++k) {
        DEMO_CUDA(W, cudaMalloc((void **)&st->pos[k], n * sizeof(g3_point)));
        DEMO_CUDA(W, cudaMalloc((void **)&st->vel[k], n * sizeof(g3_point)));
    }
    DEMO_CUDA(W, cudaMalloc((void **)&st->count, n * 4));
    DEMO_CUDA(W, cudaMalloc((void **)&st->id_sum, n * 8));
    DEMO_CUDA(W, cudaMalloc((void **)&st->totals, (size_t)steps * sizeof *st->totals));
    DEMO_CUDA(W, cudaMemset(st->totals, 0, (size_t)steps * sizeof *st->totals));
    return 0;
}

static void free_state(part_state *st)
{
    g3_grid_destroy(&st->grid);
    for (int k = 0; k < 2; ++k) cudaFree(st->pos[k]), cudaFree(st->vel[k]);
    cudaFree(st->count), cudaFree(st->id_sum), cudaFree(st->totals);
}

/* Steps 2 .. steps, timed: 4 events per step (the last of a step is the next one's first). */
static int run_timed_steps(part_state *st, uint32_t steps, cudaEvent_t *ev)
{
    for (uint32_t step = 2; step <= steps; ++step)
        if (run_step(st, step, ev + (size_t)(step - 2) * PHASES, 0)) return 1;
    return 0;
}

/* The mean of each phase over the timed steps (phase_ms[PHASES]) and the median step. */
static int read_timings(cudaEvent_t *ev, uint32_t timed, double *phase_ms, float *median_step_ms)
{
    float *step_ms = (float *)malloc((size_t)timed * sizeof *step_ms);
    if (!step_ms) {
        fprintf(stderr, "split-demo " W ": host allocation for %u timings failed\n", timed);
        return 1;
    }
    for (int k = 0; k < PHASES; ++k) phase_ms[k] = 0;
    for (uint32_t t = 0; t < timed; ++t) {
        step_ms[t] = 0;
        for (int k = 0; k < PHASES; ++k) {
            float ms = 0;
            const cudaError_t e = cudaEventElapsedTime(&ms, ev[(size_t)t * PHASES + k], ev[(size_t)t * PHASES + k + 1]);
            if (e != cudaSuccess) {
                fprintf(stderr, "split-demo " W ": cudaEventElapsedTime failed: %s\n", cudaGetErrorString(e));
                free(step_ms);
                return 1;
            }
            phase_ms[k] += ms / timed;
            step_ms[t] += ms;
        }
    }
    *median_step_ms = demo_median(step_ms, (int)timed);
    free(step_ms);
    return 0;
}

static int run_particles(const part_opts *o, uint32_t g, float r, part_state *st, part_host *h, cudaEvent_t *ev)
{
    const size_t n = (size_t)o->n;
    const uint32_t steps = o->steps, timed = steps - 1, cells = g * g * g;
    if (alloc_state(st, n, g, steps) || alloc_host(h, n, cells)) return 1;
    for (size_t k = 0; k <= (size_t)timed * PHASES; ++k) DEMO_CUDA(W, cudaEventCreate(&ev[k]));
    st->dt = (float)o->dt;
    st->r2 = g3_radius2(r);
    st->cur = 0;
    if (g3_generate(W, st->pos[0], st->vel[0], n, 0)) return 1;

    /* step 1: the warm-up, checked */
    if (run_step(st, 1, NULL, 0)) return 1;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (check_step(st, h, 1, r)) return 1;
    unsigned long long first_total = 0;
    DEMO_CUDA(W, cudaMemcpy(&first_total, st->totals, sizeof first_total, cudaMemcpyDeviceToHost));

    /* steps 2 .. S: timed, nothing waits inside the loop */
    if (run_timed_steps(st, steps, ev)) return 1;
    DEMO_CUDA(W, cudaDeviceSynchronize());
    if (check_step(st, h, steps, r)) return 1;

    double phase_ms[PHASES];
    float median_ms = 0;
    if (read_timings(ev, timed, phase_ms, &median_ms)) return 1;
    unsigned long long *totals = (unsigned long long *)malloc((size_t)steps * sizeof *totals);
    if (!totals) {
        fprintf(stderr, "split-demo " W ": host allocation for %u totals failed\n", steps);
        return 1;
    }
    const cudaError_t e = cudaMemcpy(totals, st->totals, (size_t)steps * sizeof *totals, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(totals);
        DEMO_CUDA(W, e);
    }
    double mean_pairs = 0;
    for (uint32_t s = 0; s < steps; ++s) mean_pairs += totals[s] / 2.0 / steps;
    const unsigned long long last_total = totals[steps - 1];
    free(totals);
    uint32_t empty = 0, most = 0;
    g3_cell_stats(h->offsets, cells, &empty, &most);

    double step_ms = 0;
    for (int k = 0; k < PHASES; ++k) step_ms += phase_ms[k];
    printf("split-demo " W ": %zu particles (gravity, elastic walls; a quarter start in 4 dense clusters), dt %g, %u "
           "steps; %u^3 = %u cells of side %.6g, radius %.6g\n", n, (double)st->dt, steps, g, g * g * g, 1.0 / g, r);
    printf("split-demo " W ": steps 1 and %u checked against the CPU: positions and velocities (replayed), cell "
           "offsets and each cell's particles (split_multisplit_ref), neighbour counts and id sums (CPU grid: %s; "
           "brute force: %s)\n", steps, n <= G3_CHECK_ALL_MAX ? "every particle" : "8192 sampled",
           n <= G3_BRUTE_ALL_MAX ? "every particle" : "sampled");
    printf("split-demo " W ": after step %u: %u empty cells, at most %u particles in a cell\n", steps, empty, most);
    printf("split-demo " W ": time per step, mean of %u timed steps:", timed);
    for (int k = 0; k < PHASES; ++k) printf("%s %s %.3f ms", k ? "," : "", phase_names[k], phase_ms[k]);
    printf("\n");
    printf("split-demo " W ": step %.3f ms (median %.3f ms): %.1f Mparticles/s; neighbour pairs per step %.0f (step 1: "
           "%llu, step %u: %llu)\n", step_ms, median_ms, step_ms > 0 ? n / (step_ms * 1e3) : 0.0, mean_pairs,
           first_total / 2, steps, last_total / 2);
    printf("split-demo " W ": verified\n");
    return 0;
}

extern "C" int demo_particles(int argc, char **argv) /* declared in demo.h */
{
    part_opts o;
    const int parsed = parse_part_options(argc, argv, &o);
    if (parsed == 1) return 0;
    if (parsed) return parsed;
    /* positions and velocities in both orders, a count and an id sum each, a total per step (n <= 2^24,
     * steps <= 10^4: no overflow) */
    const size_t n = (size_t)o.n, own = n * (4 * sizeof(g3_point) + 4 + 8) + (size_t)o.steps * 8;
    uint32_t g = 0;
    float r = 0;
    const int started = g3_demo_start(W, n, o.g, o.r, own, "particles", "--n or --grid", &g, &r);
    if (started) return started;

    part_state st;
    part_host h;
    memset(&st, 0, sizeof st);
    memset(&h, 0, sizeof h);
    const size_t num_events = (size_t)(o.steps - 1) * PHASES + 1;
    cudaEvent_t *ev = (cudaEvent_t *)calloc(num_events, sizeof *ev);
    int rc = 1;
    if (!ev) fprintf(stderr, "split-demo " W ": host allocation for %zu events failed\n", num_events);
    else rc = run_particles(&o, g, r, &st, &h, ev);
    for (size_t k = 0; ev && k < num_events; ++k)
        if (ev[k]) cudaEventDestroy(ev[k]);
    free(ev);
    free_state(&st);
    free_host(&h);
    return rc;
}
