/* bench_options.c - command line of slabcast-bench.
 *
 * The style of the slabcast program's parser (app/slabcast/options.c): every value parsed strictly
 * (decimal digits only for counts, plain decimal numbers for times, nothing trailing), checked against
 * its range before it is converted, and a bad value ends parsing with one line naming the option,
 * the value, the problem and what is valid. Lists are comma-separated; a list option given twice
 * adds to the first. */
#include "bench_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_peer.h"
#include "bench_plot_format.h"
#include "camera.h"
#include "deform_set.h"
#include "name_lists.h"
#include "option_limits.h"
#include "option_values.h"


typedef enum opt_id {
    OPT_HELP, OPT_VERBOSE, OPT_NO_LIMITS, /* flags: no value */
    OPT_SIZE, OPT_SLABS, OPT_TILE, OPT_SUBDIVIDE, OPT_DEFORM, OPT_VIEWS, OPT_CAMERA, OPT_FRAMES, OPT_WARMUP,
    OPT_BACKEND, OPT_JSON, OPT_CSV, OPT_PLOT, OPT_PEERS, OPT_TIME, OPT_DT, OPT_RESOLUTION, OPT_THREADS,
    OPT_SHADOWS, OPT_IMAGES, OPT_VERTEX_ORDER, OPT_GPUS, OPT_COUNT
} opt_id;

/* Every option, with the name of its value as --help shows it ("FILE", "N"; NULL: a flag). */
static const struct bench_opt { const char *name; const char *arg; opt_id id; } k_options[] = {
    {"--help", NULL, OPT_HELP},             {"--verbose", NULL, OPT_VERBOSE},
    {"--size", "WxH,...", OPT_SIZE},        {"--slabs", "N,...", OPT_SLABS},
    {"--tile", "N,...", OPT_TILE},          {"--subdivide", "N,...", OPT_SUBDIVIDE},
    {"--deform", "LIST", OPT_DEFORM},       {"--views", "N", OPT_VIEWS},
    {"--camera", "E,T,FOV", OPT_CAMERA},    {"--frames", "N", OPT_FRAMES},
    {"--warmup", "N", OPT_WARMUP},          {"--backend", "B", OPT_BACKEND},
    {"--json", "FILE", OPT_JSON},           {"--csv", "FILE", OPT_CSV},
    {"--plot", "FILE.svg|png", OPT_PLOT},   {"--peers", "LIST", OPT_PEERS},
    {"--time", "T", OPT_TIME},              {"--dt", "T", OPT_DT},
    {"--resolution", "N", OPT_RESOLUTION},  {"--threads", "N", OPT_THREADS},
    {"--shadows", "off,on", OPT_SHADOWS},   {"--images", "DIR", OPT_IMAGES},
    {"--vertex-order", "ORDER", OPT_VERTEX_ORDER}, {"--no-limits", NULL, OPT_NO_LIMITS},
    {"--gpus", "N,...", OPT_GPUS},
};
#define OPTION_COUNT (sizeof k_options / sizeof k_options[0])

void bench_print_usage(FILE *f)
{
    /* The libraries' lists, so a format, backend or deformer added to them is offered here. */
    char formats[96], backends[96], deformers[128], deform_default[64];
    app_mesh_format_names(formats, sizeof formats);
    app_backend_names(backends, sizeof backends, ", ");
    app_deformer_names(deformers, sizeof deformers, ",");
    app_deform_set_names(APP_DEFORM_DEFAULT, deform_default, sizeof deform_default);
    fprintf(f,
            "usage: slabcast-bench [MODEL...] [options]\n"
            "Frame-rate benchmark of the slabcast renderer over every combination of the lists below\n"
            "(their cartesian product, at most %u configurations). Per configuration: median, p95 and\n"
            "max time per stage and per frame (each frame waited for), frames per second back to back,\n"
            "triangles, visible triangles, references, ray-triangle tests, early-exit tiles, device\n"
            "memory used, and each stage against its floor (the bytes and tests it must move at the\n"
            "device's copy bandwidth and test rate, measured at the start). A table on stdout; JSON, CSV\n"
            "and an SVG or PNG plot on request.\n"
            "Lists are comma-separated (at most %u values each); giving an option twice adds to it.\n"
            "Options take their value as the next argument or after '=' (--size=640x480).\n\n"
            "  MODEL               %s file, optionally .xz-compressed, or 'builtin' (the\n"
            "                      built-in torus knot; ./builtin for a file of that name); at most %u;\n"
            "                      none: the built-in mesh\n"
            "  --resolution N      built-in mesh: 4*N^2 triangles, %u .. %u (default 512: 1M triangles)\n"
            "  --size WxH,...      image sizes, each side 1 .. %u (default 1024x1024)\n"
            "  --tile N,...        tile edges in pixels, 1 .. %d (default 8)\n"
            "  --slabs N,...       depth slabs per tile, 1 .. %d (default 16)\n"
            "  --subdivide N,...   midpoint subdivision levels (4^N times the triangles), 0 .. %u (default 0)\n"
            "  --deform LIST       deformers running: %s or none (default\n"
            "                      %s); several sets separated by '/' sweep them: %s/none\n"
            "  --views N           N views on an orbit around the model: view k turns the default framing\n"
            "                      by 360*k/N degrees about the vertical axis; 1 .. %u (default 1)\n"
            "  --camera ex,ey,ez,tx,ty,tz,fov\n"
            "                      one fixed camera instead (eye, target, fov %g .. %g degrees)\n"
            "  --shadows LIST      off, on or both (off,on): with on, exact hard shadows from the default\n"
            "                      light, a point light at the framing centre + 3 x the framing radius x\n"
            "                      normalize(1, 2, 1); shadow stage times and counters (default off)\n"
            "  --frames N          timed frames per configuration, 1 .. %u (default %d on a GPU, %d on the CPU)\n"
            "  --warmup N          warm-up frames before them, 0 .. %u (default %d on a GPU, %d on the CPU)\n"
            "  --time T            time of the first frame in seconds, -%g .. %g (default 0)\n"
            "  --dt T              seconds between frames, %g .. %g (default 1/60); every frame's time\n"
            "                      must stay within -%g .. %g s\n"
            "  --backend B         %s (default auto: a GPU backend when one runs here, else the CPU's)\n"
            "  --threads N         cpu backend worker threads, 1 .. %u (default: one per core)\n"
            "  --json FILE         every number of every configuration as JSON (docs/BENCH.md)\n"
            "  --csv FILE          the same as CSV: one row per configuration and per peer\n"
            "  --plot FILE.svg|png a plot, SVG or PNG by the name's extension: frame time per stage\n"
            "                      (stacked bars), frame time against triangles and against pixels (log-log)\n"
            "  --peers LIST        other renderers timed on the same frames: cpu (this renderer's cpu\n"
            "                      backend), cub-grid, gl-raster, gl-shadowmap (OpenGL shadow mapping of\n"
            "                      the default light, compared with our shadows; --shadows on) when built;\n"
            "                      none (default). Each peer renders every frame of every configuration\n"
            "                      itself: --peers cpu at large sizes takes seconds a frame (lower --frames)\n"
            "  --images DIR        per configuration with shadows on, PNG pictures of the last frame's\n"
            "                      shadow decisions in DIR (an existing folder): ours\n"
            "                      (slabcast-shadow-N.png, N the table's #) and those of peers that make\n"
            "                      them (gl-shadowmap-N.png and gl-shadowmap-diff-N.png)\n"
            "  --vertex-order O    the vertices' order inside the renderer (sc_renderer_desc.vertex_order):\n"
            "                      first-use (default: renumbered in the order the triangles first use\n"
            "                      them) or as-loaded (the mesh's own order, as loaded and subdivided);\n"
            "                      the triangles, the image and the positions read back are the same\n"
            "  --gpus N,...        instead of the sweep, the scaling of sort-last rendering over N shares\n"
            "                      of the first model (renderer groups, slabcast.h), one share per GPU:\n"
            "                      frame time, speed-up, composite time and bytes moved per frame for\n"
            "                      each N, 1 .. %d, at the first size, tile, slabs, subdivision and\n"
            "                      deformer set; with fewer GPUs than N, shares go round the GPUs (several\n"
            "                      per GPU, said in the table). --json and --csv write its rows instead of\n"
            "                      the sweep's (\"mode\": \"gpus\", docs/BENCH.md)\n"
            "  --no-limits         do not measure the device's copy bandwidth and ray-triangle test rate\n"
            "                      (a second or two at the start), so no configuration gets its floor: the\n"
            "                      bytes and tests each stage must move, as a time, against the measured\n"
            "                      one (docs/BENCH.md)\n"
            "  --verbose           log the libraries' info and debug lines\n"
            "  --help              this text\n"
            "Exit status: 0 every configuration ran, 1 a configuration failed (named on stderr), 2 bad usage.\n",
            BENCH_MAX_CONFIGS, BENCH_MAX_LIST, formats, BENCH_MAX_MODELS, APP_MIN_RESOLUTION, APP_MAX_RESOLUTION,
            APP_MAX_IMAGE_SIDE, SC_MAX_TILE_SIZE, SC_MAX_SLABS, APP_MAX_SUBDIVIDE, deformers, deform_default,
            deform_default, BENCH_MAX_VIEWS,
            (double)APP_CAMERA_MIN_FOV_DEG, (double)APP_CAMERA_MAX_FOV_DEG, BENCH_MAX_FRAMES,
            BENCH_DEFAULT_FRAMES_DEVICE, BENCH_DEFAULT_FRAMES_HOST, BENCH_MAX_WARMUP, BENCH_DEFAULT_WARMUP_DEVICE,
            BENCH_DEFAULT_WARMUP_HOST, APP_MAX_TIME, APP_MAX_TIME, APP_MIN_DT, APP_MAX_DT, APP_MAX_TIME,
            APP_MAX_TIME, backends, APP_MAX_THREADS, SC_GROUP_MAX_SHARES);
}

/* ---- messages ---------------------------------------------------------------------------------- */

/* "slabcast-bench: --slabs '4,0': item 2: out of range; valid: ..." (option_values.c) */
static int bad_value(FILE *err, const char *opt, const char *value, const char *problem, const char *valid)
{
    return app_bad_value(err, "slabcast-bench", opt, value, problem, valid);
}

static int parse_u32_opt(const char *opt, const char *v, uint32_t lo, uint32_t hi, uint32_t *out, FILE *err)
{
    return app_parse_u32_value(err, "slabcast-bench", opt, v, lo, hi, out);
}

static int parse_time_opt(const char *opt, const char *v, double lo, double hi, float *out, FILE *err)
{
    return app_parse_seconds_value(err, "slabcast-bench", opt, v, lo, hi, out);
}

/* ---- lists ------------------------------------------------------------------------------------- */

/* One list being parsed: the option, its whole value (for messages), what is valid, and where the
 * items go. */
typedef struct list_parse {
    const char *opt, *value, *valid;
    unsigned *count;                 /* items already held (a repeated option adds to them) */
    FILE *err;
} list_parse;

/* "item 2 '0': out of range" */
static int bad_item(const list_parse *l, unsigned index, const char *item, size_t len, const char *problem)
{
    char msg[200];
    snprintf(msg, sizeof msg, "item %u '%.*s': %s", index + 1, (int)(len > 40 ? 40 : len), item, problem);
    for (char *c = msg; *c; ++c)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) *c = '?';
    return bad_value(l->err, l->opt, l->value, msg, l->valid);
}

/* Room for one more item, or a message naming the limit. */
static int list_room(const list_parse *l)
{
    if (*l->count < BENCH_MAX_LIST) return 0;
    char problem[80];
    snprintf(problem, sizeof problem, "more than %u values", BENCH_MAX_LIST);
    return bad_value(l->err, l->opt, l->value, problem, l->valid);
}

/* Counts in [lo, hi], comma-separated, appended to out. */
static int parse_count_list(list_parse *l, uint32_t lo, uint32_t hi, uint32_t *out)
{
    const char *p = l->value;
    for (unsigned item = 0;; ++item) {
        size_t n = strcspn(p, ",");
        uint64_t v = 0;
        app_num_error e = app_parse_count_range(p, n, lo, hi, &v);
        if (e != APP_NUM_OK) return bad_item(l, item, p, n, app_num_problem(e));
        if (list_room(l) != 0) return -1;
        out[(*l->count)++] = (uint32_t)v;
        p += n;
        if (!*p) return 0;
        ++p;
    }
}

/* One "WxH", each side 1 .. APP_MAX_IMAGE_SIDE. */
static int parse_one_size(const list_parse *l, unsigned item, const char *p, size_t n, bench_size *out)
{
    const char *x = memchr(p, 'x', n);
    if (!x) x = memchr(p, 'X', n);
    if (!x) return bad_item(l, item, p, n, "expected WxH");
    uint64_t w = 0, h = 0;
    app_num_error e = app_parse_count_range(p, (size_t)(x - p), 1, APP_MAX_IMAGE_SIDE, &w);
    if (e != APP_NUM_OK) {
        char problem[64];
        snprintf(problem, sizeof problem, "width: %s", app_num_problem(e));
        return bad_item(l, item, p, n, problem);
    }
    e = app_parse_count_range(x + 1, n - (size_t)(x - p) - 1, 1, APP_MAX_IMAGE_SIDE, &h);
    if (e != APP_NUM_OK) {
        char problem[64];
        snprintf(problem, sizeof problem, "height: %s", app_num_problem(e));
        return bad_item(l, item, p, n, problem);
    }
    out->width = (uint32_t)w;
    out->height = (uint32_t)h;
    return 0;
}

static int parse_size_list(list_parse *l, bench_size *out)
{
    const char *p = l->value;
    for (unsigned item = 0;; ++item) {
        size_t n = strcspn(p, ",");
        bench_size s;
        if (parse_one_size(l, item, p, n, &s) != 0 || list_room(l) != 0) return -1;
        out[(*l->count)++] = s;
        p += n;
        if (!*p) return 0;
        ++p;
    }
}

/* One deformer set: comma-separated names, or "none". */
static int parse_deform_set(const list_parse *l, unsigned item, const char *p, size_t n, unsigned *mask)
{
    *mask = 0;
    if (n == 4 && strncmp(p, "none", 4) == 0) return 0;
    const char *end = p + n;
    for (const char *q = p; q <= end;) {
        size_t len = 0;
        while (q + len < end && q[len] != ',') ++len;
        unsigned i = 0;
        while (i < SC_DEFORMER_COUNT && !(strlen(sc_deformer_name((sc_deformer)i)) == len &&
                                          strncmp(q, sc_deformer_name((sc_deformer)i), len) == 0))
            ++i;
        if (i == SC_DEFORMER_COUNT) {
            char problem[64];
            snprintf(problem, sizeof problem, "unknown deformer '%.*s'", (int)(len > 20 ? 20 : len), q);
            return bad_item(l, item, p, n, len ? problem : "empty deformer name");
        }
        *mask |= 1u << i;
        q += len + 1;
    }
    return 0;
}

/* Deformer sets separated by '/'. */
static int parse_deform_list(list_parse *l, unsigned *out)
{
    const char *p = l->value;
    for (unsigned item = 0;; ++item) {
        size_t n = strcspn(p, "/");
        unsigned mask = 0;
        if (parse_deform_set(l, item, p, n, &mask) != 0 || list_room(l) != 0) return -1;
        out[(*l->count)++] = mask;
        p += n;
        if (!*p) return 0;
        ++p;
    }
}

/* Shadow settings: off or on, comma-separated. */
static int parse_shadow_list(list_parse *l, int *out)
{
    const char *p = l->value;
    for (unsigned item = 0;; ++item) {
        size_t n = strcspn(p, ",");
        int on = -1;
        if (n == 3 && strncmp(p, "off", 3) == 0) on = 0;
        else if (n == 2 && strncmp(p, "on", 2) == 0) on = 1;
        if (on < 0) return bad_item(l, item, p, n, n ? "neither off nor on" : "empty value");
        if (list_room(l) != 0) return -1;
        out[(*l->count)++] = on;
        p += n;
        if (!*p) return 0;
        ++p;
    }
}

/* Peer names, checked against the peer table: an unknown name and one known but not built here are
 * told apart (l->valid lists the peers this build has). "none" clears the list. */
static int parse_peer_list(list_parse *l, const char **names)
{
    if (strcmp(l->value, "none") == 0) {
        *l->count = 0;
        return 0;
    }
    const char *p = l->value;
    for (unsigned item = 0;; ++item) {
        size_t n = strcspn(p, ",");
        char name[32];
        if (n == 0 || n >= sizeof name) return bad_item(l, item, p, n, n ? "name too long" : "empty name");
        memcpy(name, p, n);
        name[n] = '\0';
        const bench_peer *peer = bench_peer_find(name);
        if (!peer)
            return bad_item(l, item, p, n, bench_peer_known(name) ? "this peer is not built in this build" : "unknown peer");
        if (*l->count >= BENCH_MAX_PEERS) return bad_item(l, item, p, n, "too many peers");
        names[(*l->count)++] = peer->name; /* the table's string: lives as long as the program */
        p += n;
        if (!*p) return 0;
        ++p;
    }
}

/* ---- option names ------------------------------------------------------------------------------ */

static const struct bench_opt *find_option(const char *name)
{
    for (size_t i = 0; i < OPTION_COUNT; ++i)
        if (strcmp(k_options[i].name, name) == 0) return &k_options[i];
    return NULL;
}

/* The only option a name is a prefix of, for "did you mean". */
static const char *prefix_match(const char *name)
{
    const char *match = NULL;
    size_t len = strlen(name);
    if (len < 3) return NULL;
    for (size_t i = 0; i < OPTION_COUNT; ++i) {
        if (strncmp(k_options[i].name, name, len) != 0) continue;
        if (match) return NULL;
        match = k_options[i].name;
    }
    return match;
}

static int unknown_option(const char *name, FILE *err)
{
    fputs("slabcast-bench: unknown option ", err);
    app_put_quoted(err, name);
    const char *near = prefix_match(name);
    if (near) fprintf(err, " (did you mean %s?)", near);
    fputs("; see --help\n", err);
    return -1;
}

/* ---- the options ------------------------------------------------------------------------------- */

/* A model: a file name, or "builtin". */
static int add_model(const char *v, bench_options *o, FILE *err)
{
    if (o->model_count >= BENCH_MAX_MODELS) {
        char valid[64];
        snprintf(valid, sizeof valid, "at most %u models", BENCH_MAX_MODELS);
        return bad_value(err, "MODEL", v, "too many models", valid);
    }
    o->models[o->model_count++] = strcmp(v, "builtin") == 0 ? NULL : v;
    return 0;
}

static int apply_file_name(const char *opt, const char *v, const char **out, FILE *err)
{
    if (!*v) return bad_value(err, opt, v, "empty file name", "a file name");
    *out = v;
    return 0;
}

/* The list options: a given one replaces its default the first time, adds to it after. */
typedef struct list_state {
    int given[OPT_COUNT];
} list_state;

static unsigned *start_list(list_state *st, opt_id id, unsigned *count)
{
    if (!st->given[id]) *count = 0;
    st->given[id] = 1;
    return count;
}

static int apply_list(bench_options *o, list_state *st, opt_id id, const char *opt, const char *v, FILE *err)
{
    char valid[200];
    list_parse l = {opt, v, valid, NULL, err};
    switch (id) {
    case OPT_SIZE:
        snprintf(valid, sizeof valid, "WxH,..., each side 1 .. %u", APP_MAX_IMAGE_SIDE);
        l.count = start_list(st, id, &o->size_count);
        return parse_size_list(&l, o->sizes);
    case OPT_SLABS:
        snprintf(valid, sizeof valid, "integers 1 .. %d, comma-separated", SC_MAX_SLABS);
        l.count = start_list(st, id, &o->slab_count);
        return parse_count_list(&l, 1, SC_MAX_SLABS, o->slabs);
    case OPT_TILE:
        snprintf(valid, sizeof valid, "integers 1 .. %d, comma-separated", SC_MAX_TILE_SIZE);
        l.count = start_list(st, id, &o->tile_count);
        return parse_count_list(&l, 1, SC_MAX_TILE_SIZE, o->tiles);
    case OPT_SUBDIVIDE:
        snprintf(valid, sizeof valid, "integers 0 .. %u, comma-separated", APP_MAX_SUBDIVIDE);
        l.count = start_list(st, id, &o->subdivide_count);
        return parse_count_list(&l, 0, APP_MAX_SUBDIVIDE, o->subdivides);
    case OPT_DEFORM:
    {
        char deformers[128];
        app_deformer_names(deformers, sizeof deformers, ", ");
        snprintf(valid, sizeof valid, "comma-separated %s, or none; sets split by /", deformers);
    }
        l.count = start_list(st, id, &o->deform_count);
        return parse_deform_list(&l, o->deforms);
    case OPT_SHADOWS:
        snprintf(valid, sizeof valid, "off, on, or both comma-separated (off,on)");
        l.count = start_list(st, id, &o->shadow_count);
        return parse_shadow_list(&l, o->shadows);
    case OPT_GPUS:
        snprintf(valid, sizeof valid, "share counts 1 .. %d, comma-separated", SC_GROUP_MAX_SHARES);
        l.count = start_list(st, id, &o->gpu_count);
        return parse_count_list(&l, 1, SC_GROUP_MAX_SHARES, o->gpus);
    case OPT_PEERS: {
        char built[128];
        bench_peer_list(built, sizeof built);
        snprintf(valid, sizeof valid, "comma-separated peers built here: %s; or none", built[0] ? built : "(none)");
        l.count = start_list(st, id, &o->peer_count);
        return parse_peer_list(&l, o->peers);
    }
    default: return -1;
    }
}

static int apply_value(bench_options *o, list_state *st, opt_id id, const char *opt, const char *v, FILE *err)
{
    switch (id) {
    case OPT_VIEWS: return parse_u32_opt(opt, v, 1, BENCH_MAX_VIEWS, &o->views, err);
    case OPT_CAMERA:
        if (app_parse_camera_value(err, "slabcast-bench", opt, v, o->camera) != 0) return -1;
        o->has_camera = 1;
        return 0;
    case OPT_FRAMES: {
        uint32_t n = 0;
        if (parse_u32_opt(opt, v, 1, BENCH_MAX_FRAMES, &n, err) != 0) return -1;
        o->frames = (int)n;
        return 0;
    }
    case OPT_WARMUP: {
        uint32_t n = 0;
        if (parse_u32_opt(opt, v, 0, BENCH_MAX_WARMUP, &n, err) != 0) return -1;
        o->warmup = (int)n;
        return 0;
    }
    case OPT_BACKEND: {
        if (sc_backend_from_name(v, &o->backend)) return 0;
        char backends[96];
        app_backend_names(backends, sizeof backends, ", ");
        return bad_value(err, opt, v, "unknown backend", backends);
    }
    case OPT_JSON: return apply_file_name(opt, v, &o->json_path, err);
    case OPT_CSV: return apply_file_name(opt, v, &o->csv_path, err);
    case OPT_VERTEX_ORDER:
        if (strcmp(v, bench_vertex_order_name(SC_VERTEX_ORDER_KEEP)) == 0) o->vertex_order = SC_VERTEX_ORDER_KEEP;
        else if (strcmp(v, bench_vertex_order_name(SC_VERTEX_ORDER_FIRST_USE)) == 0)
            o->vertex_order = SC_VERTEX_ORDER_FIRST_USE;
        else return bad_value(err, opt, v, "unknown vertex order", "first-use, as-loaded");
        return 0;
    case OPT_IMAGES:
        if (!*v) return bad_value(err, opt, v, "empty folder name", "an existing folder");
        o->images_dir = v;
        return 0;
    case OPT_PLOT:
        if (bench_plot_format_of(v) == BENCH_PLOT_UNKNOWN)
            return bad_value(err, opt, v, "not an .svg or .png file name", "a file name ending in .svg or .png");
        return apply_file_name(opt, v, &o->plot_path, err);
    case OPT_TIME: return parse_time_opt(opt, v, -APP_MAX_TIME, APP_MAX_TIME, &o->start_time, err);
    case OPT_DT: return parse_time_opt(opt, v, APP_MIN_DT, APP_MAX_DT, &o->time_step, err);
    case OPT_RESOLUTION: return parse_u32_opt(opt, v, APP_MIN_RESOLUTION, APP_MAX_RESOLUTION, &o->resolution, err);
    case OPT_THREADS: return parse_u32_opt(opt, v, 1, APP_MAX_THREADS, &o->threads, err);
    default: return apply_list(o, st, id, opt, v, err);
    }
}

/* Checks that need several options: --camera or --views; a peer that compares shadows, and --images,
 * need a configuration with shadows on; every frame's time within +-APP_MAX_TIME (for the largest
 * default frame count when --frames is not given). */
static int check_combinations(const bench_options *o, int saw_views, FILE *err)
{
    if (o->has_camera && saw_views) {
        fprintf(err, "slabcast-bench: --camera and --views contradict each other (one fixed camera, or N views "
                     "on an orbit); give one\n");
        return -1;
    }
    int any_shadows = 0;
    for (unsigned i = 0; i < o->shadow_count; ++i) any_shadows |= o->shadows[i];
    for (unsigned i = 0; i < o->peer_count && !any_shadows; ++i) {
        const bench_peer *p = bench_peer_find(o->peers[i]);
        if (p && p->needs_shadows) {
            fprintf(err, "slabcast-bench: --peers %s compares shadows: give --shadows on (or off,on)\n", p->name);
            return -1;
        }
    }
    if (o->gpu_count && (o->peer_count || any_shadows || o->images_dir || o->plot_path)) {
        fprintf(err, "slabcast-bench: --gpus measures renderer groups without shadows, peers, --images or --plot; "
                     "leave those out\n");
        return -1;
    }
    if (o->images_dir && !any_shadows) {
        fprintf(err, "slabcast-bench: --images writes pictures of shadows: give --shadows on (or off,on)\n");
        return -1;
    }
    int frames = o->frames ? o->frames : BENCH_DEFAULT_FRAMES_DEVICE;
    return app_check_frame_times(err, "slabcast-bench", frames, o->start_time, o->time_step, APP_MAX_TIME);
}

static void set_defaults(bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->sizes[0] = (bench_size){1024, 1024};
    o->size_count = 1;
    o->tiles[0] = 8;
    o->tile_count = 1;
    o->slabs[0] = 16;
    o->slab_count = 1;
    o->subdivides[0] = 0;
    o->subdivide_count = 1;
    o->deforms[0] = APP_DEFORM_DEFAULT;
    o->deform_count = 1;
    o->shadows[0] = 0;
    o->shadow_count = 1;
    o->views = 1;
    o->warmup = -1;
    o->vertex_order = SC_VERTEX_ORDER_FIRST_USE; /* the renderer's default */
    o->time_step = 1.0f / 60.0f;
}

/* One option at argv[*i] ("--name=value" or "--name value"). */
static int parse_option(int argc, char **argv, int *i, bench_options *o, list_state *st, int *saw_views, FILE *err)
{
    const char *arg = argv[*i];
    char name[64];
    const char *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (name_len >= sizeof name) name_len = sizeof name - 1;
    memcpy(name, arg, name_len);
    name[name_len] = '\0';
    const struct bench_opt *opt = strcmp(arg, "-h") == 0 ? find_option("--help") : find_option(name);
    if (!opt || (!eq && strlen(arg) != name_len)) return unknown_option(name, err);
    if (!opt->arg) {
        if (eq) {
            fprintf(err, "slabcast-bench: option %s takes no value; see --help\n", opt->name);
            return -1;
        }
        if (opt->id == OPT_HELP) o->help = 1;
        else if (opt->id == OPT_NO_LIMITS) o->no_limits = 1;
        else o->verbose = 1;
        return 0;
    }
    const char *v = eq ? eq + 1 : (*i + 1 < argc ? argv[*i + 1] : NULL);
    /* "--json --csv x": the next option is not taken as a value (use --json=--file for that). */
    if (!v || (!eq && strncmp(v, "--", 2) == 0)) {
        fprintf(err, "slabcast-bench: option %s needs a value (%s); see --help\n", opt->name, opt->arg);
        return -1;
    }
    if (!eq) ++*i;
    if (opt->id == OPT_VIEWS) *saw_views = 1;
    return apply_value(o, st, opt->id, opt->name, v, err);
}

int bench_parse_options(int argc, char **argv, bench_options *o, FILE *err)
{
    set_defaults(o);
    list_state st;
    memset(&st, 0, sizeof st);
    int saw_views = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-') {
            if (!arg[0]) return bad_value(err, "MODEL", arg, "empty file name", "a file name or builtin");
            if (add_model(arg, o, err) != 0) return -1;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0 && strcmp(arg, "-h") != 0) {
            fputs("slabcast-bench: unexpected argument ", err);
            app_put_quoted(err, arg);
            fputs(" (options start with --); see --help\n", err);
            return -1;
        }
        if (parse_option(argc, argv, &i, o, &st, &saw_views, err) != 0) return -1;
    }
    if (o->help) return 0;
    return check_combinations(o, saw_views, err);
}

int bench_frames_for(const bench_options *o, int device_timed)
{
    if (o->frames > 0) return o->frames;
    return device_timed ? BENCH_DEFAULT_FRAMES_DEVICE : BENCH_DEFAULT_FRAMES_HOST;
}

int bench_warmup_for(const bench_options *o, int device_timed)
{
    if (o->warmup >= 0) return o->warmup;
    return device_timed ? BENCH_DEFAULT_WARMUP_DEVICE : BENCH_DEFAULT_WARMUP_HOST;
}

const char *bench_backend_name(sc_backend backend)
{
    const char *name = sc_backend_name(backend);
    return name ? name : "auto";
}

const char *bench_vertex_order_name(sc_vertex_order order)
{
    return order == SC_VERTEX_ORDER_KEEP ? "as-loaded" : "first-use";
}
