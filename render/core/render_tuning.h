/* render_tuning.h - every tuning constant, launch shape and default of the renderer, in one place,
 * each with the reason for its value (internal). Plain enums and #defines so the header is usable
 * from C (.c) and CUDA (.cu) alike; measurements behind the values are in docs/PERFORMANCE.md. */
#ifndef RENDER_TUNING_H
#define RENDER_TUNING_H

enum {
    SC_DEFAULT_TILE_SIZE = 8,         /* pixels per tile edge: 64 rays, two per lane of one warp */
    SC_DEFAULT_SLABS = 16,            /* depth slabs: enough for the early exit, few empty cells */
    SC_MAX_KEY_BITS = 32,             /* tile bits + slab bits of a reference key (32-bit keys) */
    SC_SPLIT_PASS_BITS = 11,          /* bucket bits of one multisplit pass (2048 buckets) */
    SC_MIN_REF_CAPACITY = 4096,       /* smallest reference buffer: small meshes never grow */
    SC_CPU_MAX_THREADS = 64,          /* per-thread accumulators are arrays of this size */
    SC_CPU_TRIANGLES_PER_TASK = 16384, /* triangles per work item of the CPU projection and emit */
    SC_CPU_VERTICES_PER_TASK = 16384, /* vertices per work item of the CPU deformation */
    SC_CPU_NORMALS_PER_TASK = 16384   /* vertices per work item of the host's vertex normals (the rest
                                         normals at set_mesh, the test-only read of a frame's) */
};

/* CUDA launch shapes (threads per block unless said otherwise). */
enum {
    SC_CUDA_DEFORM_THREADS = 256,     /* one thread per vertex; memory bound, any full block does */
    SC_CUDA_NORMALS_THREADS = 256,    /* the test-only read of a frame's vertex normals: one thread
                                         per vertex gathering its triangles (frames compute normals
                                         in shade, for the hit pixels only) */
    SC_CUDA_PERMUTE_THREADS = 256,    /* positions between the caller's vertex order and the
                                         renderer's: one thread per vertex, memory bound */
    SC_CUDA_READ_CHUNK_VERTICES = 1 << 20, /* read_positions through the vertex order: positions
                                         gathered into a staging buffer of this many vertices (12 MiB)
                                         and copied to the host chunk by chunk, so the buffer does not
                                         grow with the mesh */
    SC_CUDA_PROJECT_THREADS = 128,
    SC_CUDA_PROJECT_MIN_BLOCKS = 9,   /* ... resident blocks asked of the compiler: 55 registers, no spill,
                                         so more warps hide the index and position gathers (H100: 13 % off
                                         project against the 68 registers of no bound; 10 blocks spill) */
    SC_CUDA_BIG_SPAN_TILES = 64,      /* project and emit: a triangle spanning more tiles (a ground plane,
                                         a close-up) is binned by its whole block, a tile per thread */
    SC_CUDA_EMIT_THREADS = 256,       /* emit: 8 warps a block, each warp on its own (one atomic a warp) */
    SC_CUDA_EMIT_MIN_BLOCKS = 4,      /* ... resident blocks asked of the compiler (at most 64 registers) */
    SC_CUDA_EMIT_ROUNDS = 4,          /* ... rounds of 32 consecutive triangles a warp, all loaded before
                                         the first wait */
    SC_CUDA_RADIX_THREADS = 256,      /* radix-sort binning's small kernels (padding, run ends): memory bound */
    SC_CUDA_OVERFLOW_THREADS = 128,   /* overflow fallback: a tile's rays per round */
    SC_CUDA_OVERFLOW_SCAN_ITEMS = 8,  /* ... tile counts per thread of its one-block offsets scan */
    SC_CUDA_FRAMES_IN_FLIGHT = 3,     /* frames enqueued before the host waits for the oldest */
    SC_CUDA_STRIPES = 32,             /* the frame counters that every block adds to (depth range,
                                         visible triangles, references, emit's cursor, the ray cast's
                                         counts) are kept in this many 128-byte lines, a block adding
                                         to the line of its index: atomics on one line are served one
                                         after another by one L2 slice */
    SC_FRAME_RECORDS = 4,             /* the front end's host part of the last frames (total_ms,
                                         grows), for stats of a finished frame that is not the last
                                         enqueued: more than the frames a backend has in flight */
    SC_CUDA_RAYCAST_WARPS = 4,        /* warps per tile of at most 64 pixels: a heavy tile's
                                         references spread over 4 warps, 6 blocks per SM */
    SC_CUDA_RAYCAST_MIN_BLOCKS = 6,   /* ... resident blocks asked of the compiler (at most 85 registers) */
    SC_CUDA_RAYCAST_PAIRS = 1,        /* tiles of at most 64 pixels, 1: by (triangle, pixel) pairs, a
                                         triangle tested only against the rays of its pixel bounds
                                         (raycast_pairs_cuda.cu; the dragon's ray cast 0.082 ms on the
                                         H100); 0: every ray of the tile (raycast_cuda.cu, 0.127 ms) */
    SC_CUDA_RAYCAST_PAIRS_WARPS = 4,  /* ... warps per tile of the pairs kernel (2: 0.092 ms, 8: 0.107) */
    SC_CUDA_RAYCAST_PAIRS_MIN_BLOCKS = 9, /* ... resident blocks asked of the compiler: 56 registers
                                         (its loads wait on latency; 13.9M at 3840x2160 on the H100:
                                         0.371 ms, 7 blocks at 72 registers unbounded 0.429, 8: 0.389,
                                         10: 48 registers and spills, slower) */
    SC_CUDA_RAYCAST_QUAD = 8,         /* edge of the 8x8 quadrant a warp's 64 rays cover (2 per lane) */
    SC_CUDA_RAYCAST_CLUSTER_SIDE = 2, /* tiles of 9..16 pixels per edge: 2 x 2 quadrants, ... */
    SC_CUDA_RAYCAST_CLUSTER = 4,      /* ... one block each, as a thread-block cluster of 4 (sm_90;
                                         the portable path: the 17..32 kernel with 4 warps) */
    SC_CUDA_RAYCAST_QUADS_MAX_WARPS = 16, /* tiles of 17..32: a warp per quadrant, at most 4 x 4 */
    SC_CUDA_RAYCAST_BATCH_32 = 256,   /* ... triangles staged per batch (one per thread at most) */
    SC_CUDA_RAYCAST_CULL_MARGIN = 4,  /* quadrant cull of tiles of 9..16: this many binning margins,
                                         so nothing the 8x8 binning would keep is dropped */
    SC_CUDA_SHADE_BLOCK_X = 32,       /* shade: a warp per row segment (coalesced pixel writes) */
    SC_CUDA_SHADE_BLOCK_Y = 4,        /* ... 4 rows per block */
    SC_CUDA_SHADE_SHARED_NORMALS = 1  /* smooth shading, 1: a block's distinct hit vertices (at most 3 a
                                         pixel) in a shared-memory table, each vertex's normal computed
                                         once by consecutive threads (neighbouring pixels share most
                                         corners; the one-ring walks fill whole warps); 0: each pixel
                                         computes its triangle's three. The same bits either way */
};

/* The shadow pass (render/core/shadow.h): a light's views with receivers share G^2 light tiles, each
 * view's grid over its receivers' bounds, with S depth slabs over their depth range. G follows the mesh (set with it):
 * the smallest power of two from SC_SHADOW_GRID_MIN with G^2 x SC_SHADOW_TRIANGLES_PER_TILE >= the
 * triangles, at most SC_SHADOW_GRID_MAX, so a ray's tile holds a few dozen casters whatever the mesh
 * (every ray looks at its tile's casters up to its slab: 250 per tile at G = 64 on the 871K dragon
 * made the cast 4x slower than at 256). S = 8: the first slabs hold the blockers of most rays. */
enum {
    SC_SHADOW_GRID_MIN = 64,          /* light tiles per view edge: the least */
    SC_SHADOW_GRID_MAX = 512,         /* ... the most (512^2 tiles x 8 slabs: 2^21 cells) */
    SC_SHADOW_TRIANGLES_PER_TILE = 32,
    SC_SHADOW_SLABS = 8,              /* light-space depth slabs */
    SC_CUDA_SHADOW_CAST_WARPS = 8,    /* shadow cast: warps per block (a warp per 32 receivers) */
    SC_CUDA_SHADOW_EMIT_THREADS = 256, /* caster emit: a thread per triangle, one atomic per block */
    /* ... resident blocks asked of the compiler: 4 caps it at 64 registers (a few bytes spilled); at
     * its own 80 registers 3 blocks fit and emit took 0.950 ms against 0.798 at 13.9M 1080p (H100) */
    SC_CUDA_SHADOW_EMIT_MIN_BLOCKS = 4
};

/* The light grid's margins (render/core/shadow.h says why these suffice): RAY for the ray test's and
 * the shadow ray direction's error, a multiple of the distance D between a caster and the receivers;
 * PROJ for the rounding of the light coordinates; KEY for the depths'. u = 2^-24. */
#define SC_SHADOW_RAY_REL 1.9073486328125e-06f        /* 32 u */
#define SC_SHADOW_PROJ_REL 4.76837158203125e-07f      /* 8 u */
#define SC_SHADOW_KEY_REL 2.384185791015625e-07f      /* 4 u */

/* Automatic initial reference capacity: this many references per triangle (at least the min): most
 * triangles of a typical view fall in one tile at the default tile size. */
#define SC_REF_CAPACITY_PER_TRIANGLE 1.5
/* Growth factor when a frame's references overflow the buffer: head room for a moving camera. */
#define SC_REF_CAPACITY_GROWTH 1.5

/* Conservative binning (classify.h says why these suffice): projected bounds and tile/edge tests
 * are widened by SC_BIN_MARGIN_PX + SC_BIN_MARGIN_REL * (big + k + S^2 / k) pixels, big the largest
 * absolute screen coordinate of the triangle, k the focal length in pixels, S the larger side of
 * the target: the rounding of the world-space ray test and of the projection, about 50 float ulps
 * (u = 2^-24) of those lengths at most; REL is 67 u. Triangles are clipped SC_BIN_MARGIN_NEAR of
 * their view extent in front of the near plane (and never further than half of it). */
#define SC_BIN_MARGIN_PX 0.0625f
#define SC_BIN_MARGIN_REL 4.0e-6f
#define SC_BIN_MARGIN_NEAR (1.0f / 65536.0f)
/* A triangle's depth key (its slab, the slab bounds) is its nearest depth lowered by this relative
 * amount, so that every computed hit depth on it is >= its key despite rounding: the early exit
 * compares hit depths with keys. */
#define SC_DEPTH_KEY_MARGIN (1.0f / 4096.0f)

/* Camera defaults. */
#define SC_DEFAULT_FOVY 1.04719755f       /* 60 degrees */
#define SC_DEFAULT_NEAR 0.01f
#define SC_DEFAULT_FAR 1000.0f

/* Deformation defaults (see sc_deform_desc). */
#define SC_TWIST_FREQUENCY 0.25f
#define SC_BEND_FREQUENCY 0.2f
#define SC_WAVE_WAVELENGTH 0.5f
#define SC_WAVE_FREQUENCY 0.5f
#define SC_PULSE_FREQUENCY 0.5f
#define SC_PULSE_SPATIAL_FREQUENCY 1.0f
#define SC_NOISE_SCALE 4.0f
#define SC_NOISE_SPEED 0.5f

/* Shading defaults (see sc_shading_desc). */
#define SC_LIGHT_DIR_X -0.4f
#define SC_LIGHT_DIR_Y -0.8f
#define SC_LIGHT_DIR_Z -0.45f
#define SC_AMBIENT 0.15f
#define SC_ALBEDO_R 0.85f
#define SC_ALBEDO_G 0.80f
#define SC_ALBEDO_B 0.72f
#define SC_BG_BOTTOM_R 0.10f
#define SC_BG_BOTTOM_G 0.11f
#define SC_BG_BOTTOM_B 0.14f
#define SC_BG_TOP_R 0.32f
#define SC_BG_TOP_G 0.36f
#define SC_BG_TOP_B 0.45f
#define SC_HEAT_MAX_TILE 1024.0f          /* references per tile shown hottest */
#define SC_HEAT_MAX_TESTS 256.0f          /* ray-triangle tests per pixel shown hottest */

/* The device's limits (sc_backend_measure_limits: cpu/limits_cpu.c, cuda/limits_cuda.cu, the test's
 * body in core/ray_rate.h). */
enum {
    SC_LIMITS_COPY_MIB = 256,         /* each of the copy's two buffers: far beyond a GPU's L2 (50 MiB on
                                         an H100) and a host's last-level cache, so the copy streams
                                         from and to memory */
    SC_LIMITS_WARMUP = 2,             /* untimed runs first: clocks up, pages mapped, code loaded */
    SC_LIMITS_RUNS = 7,               /* timed runs of each measurement; the median is kept */
    SC_LIMITS_CPU_CHUNK_KIB = 1024,   /* the host copy's work item: one memcpy of 1 MiB */
    SC_LIMITS_CPU_ITEMS_PER_THREAD = 4, /* ray-test work items per worker thread (handed out
                                         dynamically, so a slow thread does not hold the run up) */
    SC_LIMITS_CPU_RATE_MS = 20,       /* target time of one run of ray tests on the host: long against
                                         the threads' start and the clock */
    SC_LIMITS_CUDA_RATE_MS = 1,       /* ... on the GPU: long against a launch */
    SC_LIMITS_CUDA_THREADS = 256,     /* the ray-test kernel: threads per block, ... */
    SC_LIMITS_CUDA_BLOCKS_PER_SM = 8, /* ... blocks per SM (2048 threads: every SM full on sm_80 and
                                         later, whole waves where registers allow fewer) */
    SC_LIMITS_MIN_TESTS = 64,         /* tests per thread and run: at least, ... */
    SC_LIMITS_MAX_TESTS = 1 << 24     /* ... at most (a device that fast still runs about the target) */
};

#endif /* RENDER_TUNING_H */
