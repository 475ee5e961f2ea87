/* options.c - command line parsing for the slabcast program.
 *
 * Every value is parsed strictly: decimal digits only for counts (no sign, no spaces, no hex),
 * plain decimal numbers for times, no trailing characters, and each value checked against the
 * ranges in option_limits.h before it is converted. A bad value ends parsing with one line naming the
 * option, the value, the problem and the valid range. */
#include "options.h"

#include "camera.h"
#include "lights.h"
#include "name_lists.h"
#include "option_values.h"
#include "viewer_bindings.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>



typedef enum opt_id {
    OPT_HELP, OPT_CULL, OPT_FLAT, OPT_HEADLESS, OPT_WINDOW, OPT_VERBOSE, OPT_NO_HUD, OPT_SHADOWS, /* flags */
    OPT_MESH, OPT_RESOLUTION, OPT_SUBDIVIDE, OPT_SIZE, OPT_BACKEND, OPT_TILE, OPT_SLABS, OPT_DEFORM,
    OPT_MODE, OPT_FRAMES, OPT_TIME, OPT_DT, OPT_OUT, OPT_STATS_JSON, OPT_THREADS, OPT_MAX_MESH_BYTES,
    OPT_MAX_VERTICES, OPT_MAX_TRIANGLES, OPT_MAX_XZ_RATIO, OPT_CAMERA, OPT_STATE_LOG, OPT_RECORD, OPT_HEAT_MAX,
    OPT_INTEROP, OPT_DEFORM_AMOUNT, OPT_DEFORM_SPEED, OPT_LIGHT, OPT_GPUS
} opt_id;

/* Every option, with the name of its value as --help shows it ("FILE", "N"; NULL: a flag). */
static const struct app_opt { const char *name; const char *arg; opt_id id; } k_options[] = {
    {"--help", NULL, OPT_HELP},           {"--cull", NULL, OPT_CULL},
    {"--flat", NULL, OPT_FLAT},           {"--headless", NULL, OPT_HEADLESS},
    {"--window", NULL, OPT_WINDOW},       {"--verbose", NULL, OPT_VERBOSE},
    {"--mesh", "FILE", OPT_MESH},         {"--resolution", "N", OPT_RESOLUTION},
    {"--subdivide", "N", OPT_SUBDIVIDE},  {"--size", "WxH", OPT_SIZE},
    {"--backend", "B", OPT_BACKEND},      {"--tile", "N", OPT_TILE},
    {"--slabs", "N", OPT_SLABS},          {"--deform", "LIST", OPT_DEFORM},
    {"--mode", "M", OPT_MODE},            {"--frames", "N", OPT_FRAMES},
    {"--time", "T", OPT_TIME},            {"--dt", "T", OPT_DT},
    {"--out", "FILE", OPT_OUT},           {"--stats-json", "FILE", OPT_STATS_JSON},
    {"--threads", "N", OPT_THREADS},      {"--max-mesh-bytes", "N", OPT_MAX_MESH_BYTES},
    {"--max-vertices", "N", OPT_MAX_VERTICES}, {"--max-triangles", "N", OPT_MAX_TRIANGLES},
    {"--max-xz-ratio", "N", OPT_MAX_XZ_RATIO}, {"--camera", "E,T,FOV", OPT_CAMERA},
    {"--no-hud", NULL, OPT_NO_HUD},       {"--state-log", "FILE", OPT_STATE_LOG},
    {"--record", "DIR", OPT_RECORD},      {"--heat-max", "N", OPT_HEAT_MAX},
    {"--interop", "MODE", OPT_INTEROP},   {"--deform-amount", "X", OPT_DEFORM_AMOUNT},
    {"--deform-speed", "X", OPT_DEFORM_SPEED}, {"--shadows", NULL, OPT_SHADOWS},
    {"--light", "x,y,z", OPT_LIGHT},      {"--gpus", "N", OPT_GPUS},
};
#define APP_OPTION_COUNT (sizeof k_options / sizeof k_options[0])

const char *app_mode_name(sc_view_mode mode)
{
    const char *name = sc_view_mode_name(mode);
    return name ? name : "?";
}

void app_print_usage(FILE *f)
{
    /* The libraries' lists, so a format, backend, deformer or view mode added to them is offered here. */
    char formats[96], backends[96], deformers[128], deform_default[64], modes[256];
    app_mesh_format_names(formats, sizeof formats);
    app_backend_names(backends, sizeof backends, ", ");
    app_deformer_names(deformers, sizeof deformers, ",");
    app_deform_set_names(APP_DEFORM_DEFAULT, deform_default, sizeof deform_default);
    app_view_mode_names(modes, sizeof modes, ", ");
    fprintf(f,
            "usage: slabcast [options] [MODEL...]\n"
            "Ray casts a deforming triangle mesh over a split-built frustum grid.\n"
            "With a display it opens a viewer window; without one (or with --headless) it renders\n"
            "frames, prints per-stage times and counters, and writes the last frame as an image.\n"
            "Options take their value as the next argument or after '=' (--size=640x480).\n\n"
            "  --mesh FILE         %s file, optionally .xz-compressed (default: built-in mesh);\n"
            "                      repeatable, and file names without an option count the same (at most %u):\n"
            "                      the first is shown, the viewer's Tab key cycles through them\n"
            "  --max-mesh-bytes N  loader limit on bytes read (after decompression); suffixes K, M, G, T\n"
            "                      (powers of 1024); 1 .. 2^62 (default: the loader's)\n"
            "  --max-vertices N    loader limit on vertices, 1 .. 4294967295 (default: the loader's)\n"
            "  --max-triangles N   loader limit on triangles, also bounds --subdivide, 1 .. 4294967295\n"
            "  --max-xz-ratio N    .xz files: decompressed bytes per compressed byte past 16 MiB, 1 .. 4294967295\n"
            "                      (default: the loader's, 256)\n"
            "  --resolution N      built-in torus knot: 4*N^2 triangles, %u .. %u (default 512: 1M triangles)\n"
            "  --subdivide N       midpoint-subdivide the mesh N times (4^N times the triangles), 0 .. %u\n"
            "  --size WxH          image size in pixels, each side 1 .. %u (default 1024x1024)\n"
            "  --backend B         %s (default auto: a GPU backend when one runs here, else the CPU's)\n"
            "  --tile N            tile edge in pixels, 1 .. %d (default 8)\n"
            "  --slabs N           depth slabs per tile, 1 .. %d (default 16)\n"
            "  --cull              drop back-facing triangles\n"
            "  --flat              flat shading (face normals)\n"
            "  --deform LIST       comma-separated: %s, or none (default %s)\n"
            "  --deform-amount X   scale of every deformer, 0 .. %g (default 1)\n"
            "  --deform-speed X    viewer: animation seconds per second, -%g .. %g (default 1)\n"
            "  --mode M            %s\n"
            "                      (default %s; what each shows: the view mode keys below)\n"
            "  --heat-max N        heat-map modes: the count shown hottest, > 0 .. %g\n"
            "                      (default: the renderer's: 1024 triangles per tile, 256 tests per pixel)\n"
            "  --shadows           exact hard shadows from the lights (the viewer's L key toggles them)\n"
            "  --light x,y,z       a point light at x,y,z, or dir:x,y,z a directional light travelling along\n"
            "                      x,y,z; repeatable, at most %d; coordinates within +-%g. With --shadows and\n"
            "                      no --light: a point light at the framing centre + %g x the framing radius x\n"
            "                      normalize(1,2,1); with neither: one directional light without shadows\n"
            "  --frames N          frames to render, 1 .. %u (headless default: %d on a GPU, %d on the CPU;\n"
            "                      window: run until closed, or N frames then exit)\n"
            "  --time T            time of the first frame in seconds, -%g .. %g (default 0)\n"
            "  --dt T              seconds between frames, %g .. %g (default 1/60); every frame's time\n"
            "                      must stay within -%g .. %g s\n"
            "  --out FILE          write the last frame; the format follows the extension: .png, .jpg,\n"
            "                      .jpeg, .bmp or .tga (headless default: slabcast.png)\n"
            "  --stats-json FILE   write per-stage times (median, p95) and counters as JSON\n"
            "  --headless          never open a window\n"
            "  --window            require a window\n"
            "  --threads N         cpu backend worker threads, 1 .. %u (default: one per core)\n"
            "  --gpus N            headless, sort-last over N shares of the mesh (a renderer group), share k\n"
            "                      on GPU k mod the GPUs present (several per GPU when N exceeds them: said\n"
            "                      on stderr), the image composited on GPU 0; 1 .. %d. The same image as\n"
            "                      one GPU; cuda backend, modes shaded, id and normals, no shadows\n"
            "  --verbose           log info and debug lines; errors keep their source location\n"
            "  --camera ex,ey,ez,tx,ty,tz,fov\n"
            "                      eye, target and vertical field of view in degrees (%g .. %g), window and\n"
            "                      headless alike (default: the model framed); the viewer's P key prints it\n"
            "  --no-hud            start the viewer with its statistics, stage graph, legend and notices off (H)\n"
            "  --record DIR        viewer: write every frame shown as DIR/frame-NNNNNN.png (DIR must exist)\n"
            "  --interop MODE      viewer with the cuda backend: auto (CUDA-GL interop, or a device -> host ->\n"
            "                      texture copy when interop fails), on (interop or fail), off (always copy)\n"
            "  --state-log FILE    viewer, for tests: append the viewer's state as one JSON line after each input\n"
            "  --help              this text\n",
            formats, APP_MAX_MODELS, APP_MIN_RESOLUTION, APP_MAX_RESOLUTION, APP_MAX_SUBDIVIDE, APP_MAX_IMAGE_SIDE,
            backends, SC_MAX_TILE_SIZE, SC_MAX_SLABS, deformers, deform_default, APP_MAX_DEFORM_AMOUNT,
            APP_MAX_DEFORM_SPEED, APP_MAX_DEFORM_SPEED, modes, sc_view_mode_name(SC_VIEW_SHADED), APP_MAX_HEAT,
            SC_MAX_LIGHTS, APP_MAX_LIGHT_COORD, (double)APP_DEFAULT_LIGHT_RADII, APP_MAX_FRAMES,
            APP_HEADLESS_FRAMES_DEVICE, APP_HEADLESS_FRAMES_HOST, APP_MAX_TIME, APP_MAX_TIME, APP_MIN_DT, APP_MAX_DT,
            APP_MAX_TIME, APP_MAX_TIME, APP_MAX_THREADS, SC_GROUP_MAX_SHARES,
            (double)APP_CAMERA_MIN_FOV_DEG, (double)APP_CAMERA_MAX_FOV_DEG);
    fprintf(f, "\nviewer keys and mouse (F1 or ? shows them in the window):\n");
    app_print_bindings(f);
}

/* ---- messages and numbers (option_values.c) ---------------------------------------------------- */

static int bad_value(FILE *err, const char *opt, const char *value, const char *problem, const char *valid)
{
    return app_bad_value(err, "slabcast", opt, value, problem, valid);
}

/* --size WxH: both sides 1 .. APP_MAX_IMAGE_SIDE. */
static int parse_size(const char *opt, const char *v, app_options *o, FILE *err)
{
    char valid[96];
    snprintf(valid, sizeof valid, "WxH, each side 1 .. %u", APP_MAX_IMAGE_SIDE);
    const char *x = strpbrk(v, "xX");
    if (!x) return bad_value(err, opt, v, "expected WxH", valid);
    uint64_t w = 0, h = 0;
    app_num_error e = app_parse_count(v, (size_t)(x - v), 0, &w);
    const char *side = "width";
    if (e == APP_NUM_OK) {
        side = "height";
        e = app_parse_count(x + 1, strlen(x + 1), 0, &h);
    }
    if (e == APP_NUM_OK && (w < 1 || w > APP_MAX_IMAGE_SIDE)) { side = "width"; e = APP_NUM_RANGE; }
    if (e == APP_NUM_OK && (h < 1 || h > APP_MAX_IMAGE_SIDE)) { side = "height"; e = APP_NUM_RANGE; }
    if (e != APP_NUM_OK) {
        char problem[96];
        snprintf(problem, sizeof problem, "%s: %s", side, app_num_problem(e));
        return bad_value(err, opt, v, problem, valid);
    }
    o->width = (uint32_t)w;
    o->height = (uint32_t)h;
    return 0;
}

static int parse_u32_opt(const char *opt, const char *v, uint32_t lo, uint32_t hi, uint32_t *out, FILE *err)
{
    return app_parse_u32_value(err, "slabcast", opt, v, lo, hi, out);
}

static int parse_time_opt(const char *opt, const char *v, double lo, double hi, float *out, FILE *err)
{
    return app_parse_seconds_value(err, "slabcast", opt, v, lo, hi, out);
}

static int parse_limit_opt(const char *opt, const char *v, int suffixes, uint64_t hi, uint64_t *out, FILE *err)
{
    uint64_t n = 0;
    app_num_error e = app_parse_count(v, strlen(v), suffixes, &n);
    if (e == APP_NUM_OK && (n < 1 || n > hi)) e = APP_NUM_RANGE;
    if (e != APP_NUM_OK)
        return bad_value(err, opt, v, app_num_problem(e),
                         suffixes ? "an integer 1 .. 2^62, optionally with K, M, G or T (powers of 1024)"
                                  : "an integer 1 .. 4294967295");
    *out = n;
    return 0;
}

/* ---- words ------------------------------------------------------------------------------------- */

/* The deformer named by the len bytes at p (sc_deformer_name), or SC_DEFORMER_COUNT. */
static unsigned deformer_of(const char *p, size_t len)
{
    unsigned d = 0;
    while (d < SC_DEFORMER_COUNT) {
        const char *name = sc_deformer_name((sc_deformer)d);
        if (strlen(name) == len && strncmp(p, name, len) == 0) break;
        ++d;
    }
    return d;
}

/* Comma-separated deformer names, or "none"; empty names are refused. */
static int parse_deform(const char *s, unsigned *mask)
{
    *mask = 0;
    if (strcmp(s, "none") == 0) return 0;
    for (const char *p = s;; ++p) {
        size_t len = strcspn(p, ",");
        const unsigned d = deformer_of(p, len);
        if (d == SC_DEFORMER_COUNT) return -1;
        *mask |= 1u << d;
        p += len;
        if (!*p) return 0;
    }
}

static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : NULL;
}

static int same_word(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

app_image_format app_image_format_of(const char *path)
{
    const char *ext = path ? extension_of(path) : NULL;
    if (!ext) return APP_IMAGE_UNKNOWN;
    if (same_word(ext, "png")) return APP_IMAGE_PNG;
    if (same_word(ext, "jpg") || same_word(ext, "jpeg")) return APP_IMAGE_JPG;
    if (same_word(ext, "bmp")) return APP_IMAGE_BMP;
    if (same_word(ext, "tga")) return APP_IMAGE_TGA;
    return APP_IMAGE_UNKNOWN;
}

/* ---- option names ------------------------------------------------------------------------------ */

/* Edit distance of two short strings (options are under 32 characters; longer ones count as far). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= 32 || lb >= 32) return 99;
    size_t row[33];
    for (size_t j = 0; j <= lb; ++j) row[j] = j;
    for (size_t i = 1; i <= la; ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The option a mistyped name most likely meant: the only one it is a prefix of, or the nearest
 * within two edits; NULL if none is close. */
static const char *closest_option(const char *name)
{
    const char *prefix_match = NULL;
    int prefix_matches = 0;
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < APP_OPTION_COUNT; ++i) {
        const char *cand = k_options[i].name;
        if (strlen(name) > 2 && strncmp(cand, name, strlen(name)) == 0) {
            prefix_match = cand;
            ++prefix_matches;
        }
        size_t d = edit_distance(name, cand);
        if (d < best_d) {
            best_d = d;
            best = cand;
        }
    }
    return prefix_matches == 1 ? prefix_match : best;
}

static const struct app_opt *find_option(const char *name)
{
    for (size_t i = 0; i < APP_OPTION_COUNT; ++i)
        if (strcmp(k_options[i].name, name) == 0) return &k_options[i];
    return NULL;
}

static int unknown_option(const char *arg, const char *name, FILE *err)
{
    if (strncmp(arg, "--", 2) != 0 && strcmp(arg, "-h") != 0) {
        fputs("slabcast: unexpected argument ", err);
        app_put_quoted(err, arg);
        fputs(" (options start with --); see --help\n", err);
        return -1;
    }
    fputs("slabcast: unknown option ", err);
    app_put_quoted(err, name);
    const char *near = closest_option(name);
    if (near) fprintf(err, " (did you mean %s?)", near);
    fputs("; see --help\n", err);
    return -1;
}

/* ---- the options ------------------------------------------------------------------------------- */

static int apply_flag(app_options *o, opt_id id, int *saw_window, int *saw_headless)
{
    switch (id) {
    case OPT_HELP: o->help = 1; break;
    case OPT_CULL: o->cull_back_faces = 1; break;
    case OPT_FLAT: o->flat_shading = 1; break;
    case OPT_HEADLESS: o->window = APP_WINDOW_OFF; *saw_headless = 1; break;
    case OPT_WINDOW: o->window = APP_WINDOW_ON; *saw_window = 1; break;
    case OPT_VERBOSE: o->verbose = 1; break;
    case OPT_NO_HUD: o->no_hud = 1; break;
    case OPT_SHADOWS: o->shadows = 1; break;
    default: return -1;
    }
    return 0;
}

static int apply_file_name(const char *opt, const char *v, const char **out, FILE *err)
{
    if (!*v) return bad_value(err, opt, v, "empty file name", "a file name");
    *out = v;
    return 0;
}

/* A model file: --mesh FILE, or a file name given without an option. */
static int add_model(const char *v, app_options *o, FILE *err)
{
    if (!*v) return bad_value(err, "--mesh", v, "empty file name", "a file name");
    if (o->mesh_count >= APP_MAX_MODELS) {
        char valid[64];
        snprintf(valid, sizeof valid, "at most %u model files", APP_MAX_MODELS);
        return bad_value(err, "--mesh", v, "too many model files", valid);
    }
    o->mesh_paths[o->mesh_count++] = v;
    o->mesh_path = o->mesh_paths[0];
    return 0;
}

/* A decimal number in [lo, hi]; with closed_lo 0 the low end is excluded (a count > 0). */
static int parse_real_opt(const char *opt, const char *v, double lo, double hi, int closed_lo, const char *what,
                          float *out, FILE *err)
{
    double x = 0.0;
    app_num_error e = app_parse_real_in(v, lo, hi, &x);
    if (e == APP_NUM_OK && !closed_lo && !(x > lo)) e = APP_NUM_RANGE;
    if (e != APP_NUM_OK) {
        char valid[96];
        snprintf(valid, sizeof valid, "%s %s%g .. %g", what, closed_lo ? "" : "over ", lo, hi);
        return bad_value(err, opt, v, app_num_problem(e), valid);
    }
    *out = (float)x;
    return 0;
}

/* --light: one more light, at most SC_MAX_LIGHTS. */
static int add_light(const char *opt, const char *v, app_options *o, FILE *err)
{
    if (o->light_count >= SC_MAX_LIGHTS) {
        char valid[64];
        snprintf(valid, sizeof valid, "at most %d lights", SC_MAX_LIGHTS);
        return bad_value(err, opt, v, "too many lights", valid);
    }
    if (app_parse_light_value(err, "slabcast", opt, v, &o->lights[o->light_count]) != 0) return -1;
    ++o->light_count;
    return 0;
}

/* --mode: a view mode's name (sc_view_mode_name); a bad one is refused naming them all. */
static int parse_mode(const char *opt, const char *v, sc_view_mode *out, FILE *err)
{
    if (sc_view_mode_from_name(v, out)) return 0;
    char valid[160];
    size_t len = 0;
    valid[0] = '\0';
    for (int i = 0; i < SC_VIEW_MODE_COUNT && len < sizeof valid; ++i) {
        int n = snprintf(valid + len, sizeof valid - len, "%s%s", i ? ", " : "", sc_view_mode_name((sc_view_mode)i));
        if (n > 0) len += (size_t)n;
    }
    return bad_value(err, opt, v, "unknown mode", valid);
}

static int apply_value(app_options *o, opt_id id, const char *opt, const char *v, FILE *err)
{
    switch (id) {
    case OPT_LIGHT: return add_light(opt, v, o, err);
    case OPT_MESH: return add_model(v, o, err);
    case OPT_STATS_JSON: return apply_file_name(opt, v, &o->stats_json, err);
    case OPT_STATE_LOG: return apply_file_name(opt, v, &o->state_log, err);
    case OPT_RECORD: return apply_file_name(opt, v, &o->record_dir, err);
    case OPT_HEAT_MAX: return parse_real_opt(opt, v, 0.0, APP_MAX_HEAT, 0, "a count", &o->heat_max, err);
    case OPT_DEFORM_AMOUNT:
        return parse_real_opt(opt, v, 0.0, APP_MAX_DEFORM_AMOUNT, 1, "a scale", &o->deform_amount, err);
    case OPT_DEFORM_SPEED:
        return parse_real_opt(opt, v, -APP_MAX_DEFORM_SPEED, APP_MAX_DEFORM_SPEED, 1, "a speed", &o->deform_speed, err);
    case OPT_INTEROP:
        if (strcmp(v, "auto") == 0) o->interop = APP_INTEROP_AUTO;
        else if (strcmp(v, "on") == 0) o->interop = APP_INTEROP_ON;
        else if (strcmp(v, "off") == 0) o->interop = APP_INTEROP_OFF;
        else return bad_value(err, opt, v, "unknown interop mode", "auto, on, off");
        return 0;
    case OPT_CAMERA:
        if (app_parse_camera_value(err, "slabcast", opt, v, o->camera) != 0) return -1;
        o->has_camera = 1;
        return 0;
    case OPT_OUT:
        o->out_format = app_image_format_of(v);
        if (o->out_format == APP_IMAGE_UNKNOWN)
            return bad_value(err, opt, v, "unknown image format",
                             "a file name ending in .png, .jpg, .jpeg, .bmp or .tga");
        o->out_path = v;
        return 0;
    case OPT_RESOLUTION: return parse_u32_opt(opt, v, APP_MIN_RESOLUTION, APP_MAX_RESOLUTION, &o->resolution, err);
    case OPT_SUBDIVIDE: return parse_u32_opt(opt, v, 0, APP_MAX_SUBDIVIDE, &o->subdivide, err);
    case OPT_SIZE: return parse_size(opt, v, o, err);
    case OPT_TILE: return parse_u32_opt(opt, v, 1, SC_MAX_TILE_SIZE, &o->tile_size, err);
    case OPT_SLABS: return parse_u32_opt(opt, v, 1, SC_MAX_SLABS, &o->num_slabs, err);
    case OPT_THREADS: return parse_u32_opt(opt, v, 1, APP_MAX_THREADS, &o->threads, err);
    case OPT_GPUS: return parse_u32_opt(opt, v, 1, SC_GROUP_MAX_SHARES, &o->gpus, err);
    case OPT_FRAMES: {
        uint32_t n = 0;
        if (parse_u32_opt(opt, v, 1, APP_MAX_FRAMES, &n, err) != 0) return -1;
        o->frames = (int)n;
        return 0;
    }
    case OPT_TIME: return parse_time_opt(opt, v, -APP_MAX_TIME, APP_MAX_TIME, &o->start_time, err);
    case OPT_DT: return parse_time_opt(opt, v, APP_MIN_DT, APP_MAX_DT, &o->time_step, err);
    case OPT_MAX_MESH_BYTES: return parse_limit_opt(opt, v, 1, APP_MAX_MESH_BYTES, &o->max_mesh_bytes, err);
    case OPT_MAX_VERTICES: return parse_limit_opt(opt, v, 0, APP_MAX_MESH_COUNT, &o->max_vertices, err);
    case OPT_MAX_TRIANGLES: return parse_limit_opt(opt, v, 0, APP_MAX_MESH_COUNT, &o->max_triangles, err);
    case OPT_MAX_XZ_RATIO: return parse_limit_opt(opt, v, 0, APP_MAX_MESH_COUNT, &o->max_xz_ratio, err);
    case OPT_BACKEND: {
        if (sc_backend_from_name(v, &o->backend)) return 0;
        char backends[96];
        app_backend_names(backends, sizeof backends, ", ");
        return bad_value(err, opt, v, "unknown backend", backends);
    }
    case OPT_DEFORM: {
        if (parse_deform(v, &o->deform_mask) == 0) return 0;
        char valid[160] = "comma-separated ";
        size_t len = strlen(valid);
        len += app_deformer_names(valid + len, sizeof valid - len, ", ");
        snprintf(valid + len, sizeof valid - len, "; or none");
        return bad_value(err, opt, v, "unknown deformer list", valid);
    }
    case OPT_MODE: return parse_mode(opt, v, &o->mode, err);
    default: return -1;
    }
}

/* Options that only the viewer reads (a headless run has no window, HUD, interop or wall-clock
 * animation, and logs no input). */
static int viewer_only(opt_id id)
{
    return id == OPT_NO_HUD || id == OPT_STATE_LOG || id == OPT_INTEROP || id == OPT_DEFORM_SPEED;
}

/* Checks that need several options: every headless frame's time within +-APP_MAX_TIME (the
 * frame count a run without --frames would use at most, when none is given). */
static int check_combinations(const app_options *o, int saw_window, int saw_headless, FILE *err)
{
    if (saw_window && saw_headless) {
        fprintf(err, "slabcast: --window and --headless contradict each other; give one\n");
        return -1;
    }
    if (saw_headless && o->viewer_option) {
        fprintf(err, "slabcast: %s is a viewer option, and --headless never opens the viewer; give one\n",
                o->viewer_option);
        return -1;
    }
    if (o->gpus && (saw_window || o->shadows || o->light_count || o->record_dir ||
                    o->stats_json || o->viewer_option ||
                    (o->mode != SC_VIEW_SHADED && o->mode != SC_VIEW_TRIANGLE_ID && o->mode != SC_VIEW_NORMALS))) {
        fprintf(err, "slabcast: --gpus renders headless in the modes shaded, id and normals, without --window, "
                     "--shadows, --light, --record, --stats-json or the viewer's options\n");
        return -1;
    }
    int frames = o->frames ? o->frames : APP_HEADLESS_FRAMES_DEVICE;
    return app_check_frame_times(err, "slabcast", frames, o->start_time, o->time_step, APP_MAX_TIME);
}

int app_parse_options(int argc, char **argv, app_options *o, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->width = 1024;
    o->height = 1024;
    o->deform_mask = APP_DEFORM_DEFAULT;
    o->time_step = 1.0f / 60.0f;
    o->deform_amount = 1.0f;
    o->deform_speed = 1.0f;
    o->out_format = APP_IMAGE_PNG;
    int saw_window = 0, saw_headless = 0;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        /* "--name=value" or "--name value"; "-h" is --help. */
        char name[64];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (name_len >= sizeof name) name_len = sizeof name - 1;
        memcpy(name, arg, name_len);
        name[name_len] = '\0';
        if (arg[0] != '-' && arg[0] != '\0') {
            if (add_model(arg, o, err) != 0) return -1;
            continue;
        }
        const struct app_opt *opt = strcmp(arg, "-h") == 0 ? find_option("--help") : find_option(name);
        if (!opt || (!eq && strlen(arg) != name_len)) return unknown_option(arg, name, err);
        if (viewer_only(opt->id) && !o->viewer_option) o->viewer_option = opt->name;
        if (!opt->arg) {
            if (eq) {
                fprintf(err, "slabcast: option %s takes no value; see --help\n", opt->name);
                return -1;
            }
            apply_flag(o, opt->id, &saw_window, &saw_headless);
            continue;
        }
        const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
        /* "--mesh --headless": the next option is not taken as a value (use --mesh=--file for that). */
        if (!v || (!eq && strncmp(v, "--", 2) == 0)) {
            fprintf(err, "slabcast: option %s needs a value (%s); see --help\n", opt->name, opt->arg);
            return -1;
        }
        if (!eq) ++i;
        if (apply_value(o, opt->id, opt->name, v, err) != 0) return -1;
    }
    if (o->help) return 0;
    return check_combinations(o, saw_window, saw_headless, err);
}
