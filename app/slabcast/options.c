/* options.c - command line parsing for the slabcast program. */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const k_mode_names[SC_VIEW_MODE_COUNT] = {
    [SC_VIEW_SHADED] = "shaded", [SC_VIEW_TRIANGLE_ID] = "id",  [SC_VIEW_NORMALS] = "normals",
    [SC_VIEW_DEPTH] = "depth",   [SC_VIEW_TILE_HEAT] = "tiles", [SC_VIEW_SLAB] = "slab",
    [SC_VIEW_TESTS_HEAT] = "tests",
};

static const struct { const char *name; unsigned bit; } k_deformers[] = {
    {"twist", APP_DEFORM_TWIST}, {"bend", APP_DEFORM_BEND}, {"wave", APP_DEFORM_WAVE},
    {"pulse", APP_DEFORM_PULSE}, {"noise", APP_DEFORM_NOISE},
};

const char *app_mode_name(sc_view_mode mode)
{
    return (unsigned)mode < SC_VIEW_MODE_COUNT ? k_mode_names[mode] : "?";
}

void app_print_usage(FILE *f)
{
    fputs("usage: slabcast [options]\n"
          "Ray casts a deforming triangle mesh over a split-built frustum grid.\n"
          "With a display it opens a viewer window; without one (or with --headless) it renders\n"
          "frames, prints per-stage times and counters, and writes the last frame as a PNG.\n\n"
          "  --mesh FILE         OBJ, PLY or STL file, optionally .xz-compressed (default: built-in mesh)\n"
          "  --resolution N      built-in torus knot: 4*N^2 triangles (default 512: 1M triangles)\n"
          "  --subdivide N       midpoint-subdivide the mesh N times (4^N times the triangles)\n"
          "  --size WxH          image size in pixels (default 1024x1024)\n"
          "  --backend B         auto, cuda or cpu (default auto: cuda when a GPU is present)\n"
          "  --tile N            tile edge in pixels (default 8)\n"
          "  --slabs N           depth slabs per tile (default 16)\n"
          "  --cull              drop back-facing triangles\n"
          "  --flat              flat shading (face normals)\n"
          "  --deform LIST       comma-separated: twist,bend,wave,pulse,noise, or none (default twist,wave)\n"
          "  --mode M            shaded, id, normals, depth, tiles, slab, tests (default shaded)\n"
          "  --frames N          frames to render (headless default: 500 on cuda, 3 on cpu;\n"
          "                      window: run until closed, or N frames then exit)\n"
          "  --time T            time of the first frame in seconds (default 0)\n"
          "  --dt T              seconds between frames (default 1/60)\n"
          "  --out FILE.png      write the last frame (headless default: slabcast.png)\n"
          "  --stats-json FILE   write per-stage times (median, p95) and counters as JSON\n"
          "  --headless          never open a window\n"
          "  --window            require a window\n"
          "  --threads N         cpu backend worker threads (default: one per core)\n"
          "  --help              this text\n\n"
          "viewer keys: drag = orbit, scroll = zoom, 1-7 = view mode, space = pause, d = next deformer set,\n"
          "             c = toggle back-face culling, f = flat/smooth, s = save PNG, esc = quit\n",
          f);
}

static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || !end || *end || end == s || v < lo || v > hi) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_float(const char *s, float *out)
{
    char *end = NULL;
    errno = 0;
    float v = strtof(s, &end);
    if (errno || !end || *end || end == s) return -1;
    *out = v;
    return 0;
}

static int parse_deform(const char *s, unsigned *mask)
{
    *mask = 0;
    if (strcmp(s, "none") == 0) return 0;
    char buf[256];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < sizeof k_deformers / sizeof k_deformers[0] && strcmp(tok, k_deformers[i].name) != 0) ++i;
        if (i == sizeof k_deformers / sizeof k_deformers[0]) return -1;
        *mask |= k_deformers[i].bit;
    }
    return 0;
}

int app_parse_options(int argc, char **argv, app_options *o, FILE *err)
{
    memset(o, 0, sizeof *o);
    o->width = 1024;
    o->height = 1024;
    o->deform_mask = APP_DEFORM_TWIST | APP_DEFORM_WAVE;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1, bad = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { o->help = 1; takes_value = 0; }
        else if (strcmp(a, "--cull") == 0) { o->cull_back_faces = 1; takes_value = 0; }
        else if (strcmp(a, "--flat") == 0) { o->flat_shading = 1; takes_value = 0; }
        else if (strcmp(a, "--headless") == 0) { o->window = APP_WINDOW_OFF; takes_value = 0; }
        else if (strcmp(a, "--window") == 0) { o->window = APP_WINDOW_ON; takes_value = 0; }
        else if (!v) {
            fprintf(err, "slabcast: %s needs a value (or is unknown); see --help\n", a);
            return -1;
        } else if (strcmp(a, "--mesh") == 0) o->mesh_path = v;
        else if (strcmp(a, "--resolution") == 0) bad = parse_u32(v, 3, 16384, &o->resolution);
        else if (strcmp(a, "--subdivide") == 0) bad = parse_u32(v, 0, 6, &o->subdivide);
        else if (strcmp(a, "--size") == 0) {
            unsigned w = 0, h = 0;
            char tail = 0;
            bad = sscanf(v, "%ux%u%c", &w, &h, &tail) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384;
            o->width = w;
            o->height = h;
        } else if (strcmp(a, "--backend") == 0) {
            if (strcmp(v, "auto") == 0) o->backend = SC_BACKEND_DEFAULT;
            else if (strcmp(v, "cuda") == 0 || strcmp(v, "gpu") == 0) o->backend = SC_BACKEND_CUDA;
            else if (strcmp(v, "cpu") == 0) o->backend = SC_BACKEND_CPU;
            else bad = 1;
        } else if (strcmp(a, "--tile") == 0) bad = parse_u32(v, 1, SC_MAX_TILE_SIZE, &o->tile_size);
        else if (strcmp(a, "--slabs") == 0) bad = parse_u32(v, 1, SC_MAX_SLABS, &o->num_slabs);
        else if (strcmp(a, "--deform") == 0) bad = parse_deform(v, &o->deform_mask);
        else if (strcmp(a, "--mode") == 0) {
            int m = 0;
            while (m < SC_VIEW_MODE_COUNT && strcmp(v, k_mode_names[m]) != 0) ++m;
            bad = m == SC_VIEW_MODE_COUNT;
            o->mode = (sc_view_mode)m;
        } else if (strcmp(a, "--frames") == 0) {
            uint32_t n = 0;
            bad = parse_u32(v, 1, 1000000000u, &n);
            o->frames = (int)n;
        } else if (strcmp(a, "--time") == 0) bad = parse_float(v, &o->start_time);
        else if (strcmp(a, "--dt") == 0) bad = parse_float(v, &o->time_step);
        else if (strcmp(a, "--out") == 0) o->out_path = v;
        else if (strcmp(a, "--stats-json") == 0) o->stats_json = v;
        else if (strcmp(a, "--threads") == 0) bad = parse_u32(v, 1, 1024, &o->threads);
        else {
            fprintf(err, "slabcast: unknown option %s; see --help\n", a);
            return -1;
        }
        if (bad) {
            fprintf(err, "slabcast: bad value for %s: '%s'; see --help\n", a, v);
            return -1;
        }
        if (takes_value) ++i;
    }
    if (o->time_step == 0.0f) o->time_step = 1.0f / 60.0f;
    return 0;
}

sc_deform_desc app_deform_desc(unsigned mask)
{
    sc_deform_desc d = {0};
    if (mask & APP_DEFORM_TWIST) d.twist.amount = 0.9f;
    if (mask & APP_DEFORM_BEND) d.bend.amount = 0.6f;
    if (mask & APP_DEFORM_WAVE) d.wave.amount = 0.04f;
    if (mask & APP_DEFORM_PULSE) d.pulse.amount = 0.02f;
    if (mask & APP_DEFORM_NOISE) d.noise.amount = 0.03f;
    return d;
}
