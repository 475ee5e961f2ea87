/* test_app_progress.c - the progress of a model load (cpu): the bar's line exactly (0%, 52%, 100%,
 * unknown fraction, long names cut to the width, control characters), the terminal bar's timing
 * (nothing for a quick load, at most ten draws a second, a new stage at once, a newline at the end)
 * against a file standing in for the terminal, and app_scene_load on the CPU backend: its stages and
 * last call, and a failed, refused or cancelled load leaving the scene's model as it was. The scene's
 * lights: none without --shadows and --light, the default light with --shadows (placed anew for each
 * model loaded), --light's lights kept across models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lights.h"
#include "options.h"
#include "progress.h"
#include "scene.h"
#include "sctest.h"
#include "sctest_log.h"

/* ---- the line ---------------------------------------------------------------------------------- */

static void check_line(const char *what, double fraction, double elapsed, unsigned width, const char *want)
{
    char line[512];
    size_t len = app_progress_format(line, sizeof line, what, fraction, elapsed, width);
    SCT_CHECK_MSG(strcmp(line, want) == 0, "format('%s', %g, %g, %u):\n   got '%s'\n  want '%s'", what, fraction,
                  elapsed, width, line, want);
    SCT_CHECK_EQ_U64(len, strlen(line));
    SCT_CHECK_MSG(len <= width, "line of %zu characters for width %u", len, width);
}

static void test_format_known_fraction(void)
{
    check_line("reading dragon.obj.xz", 0.0, 0.0, 79, "slabcast: reading dragon.obj.xz [                    ] 0%  0.0 s");
    check_line("reading dragon.obj.xz", 0.52, 1.3, 79,
               "slabcast: reading dragon.obj.xz [##########          ] 52%  1.3 s");
    check_line("reading dragon.obj.xz", 1.0, 2.0, 79,
               "slabcast: reading dragon.obj.xz [####################] 100%  2.0 s");
    /* Rounded down: 100% only when done; 0.29 * 100 is 28.999... in double and still shows 29. */
    check_line("reading a.obj", 0.999, 0.5, 79, "slabcast: reading a.obj [################### ] 99%  0.5 s");
    check_line("reading a.obj", 0.29, 0.5, 79, "slabcast: reading a.obj [#####               ] 29%  0.5 s");
    check_line("reading a.obj", 7.0, 0.5, 79, "slabcast: reading a.obj [####################] 100%  0.5 s");
}

/* No percentage; a "<=>" block moving ten cells a second, back and forth. */
static void test_format_unknown_fraction(void)
{
    check_line("uploading", -1.0, 0.0, 79, "slabcast: uploading [<=>                 ]  0.0 s");
    check_line("uploading", -1.0, 0.5, 79, "slabcast: uploading [     <=>            ]  0.5 s");
    check_line("uploading", -1.0, 1.76, 79, "slabcast: uploading [                 <=>]  1.8 s");
    check_line("uploading", -1.0, 2.0, 79, "slabcast: uploading [              <=>   ]  2.0 s");
    check_line("subdividing", -0.5, 3.42, 79, "slabcast: subdividing [<=>                 ]  3.4 s");
}

/* A long name is cut in its middle to fill the width exactly; a width too narrow for any of it cuts
 * the line; control characters become '?'; a small buffer holds what fits. */
static void test_format_long_names_and_narrow_widths(void)
{
    check_line("reading abcdefghijklmnopqrstuvwxyz0123456789.obj.xz", 0.52, 1.3, 79,
               "slabcast: reading abcdefgh...123456789.obj.xz [##########          ] 52%  1.3 s");
    char huge[1000];
    memset(huge, 'x', sizeof huge - 1);
    memcpy(huge, "reading ", 8);
    memcpy(huge + sizeof huge - 8, ".obj.xz", 8);
    char line[512];
    size_t len = app_progress_format(line, sizeof line, huge, 0.5, 1.0, 120);
    SCT_CHECK_EQ_U64(len, 120);
    SCT_CHECK(strncmp(line, "slabcast: reading xxx", 21) == 0 && strstr(line, "x...x") != NULL);
    SCT_CHECK(strstr(line, "x.obj.xz [##########          ] 50%  1.0 s") != NULL);
    check_line("reading dragon.obj.xz", 0.52, 1.3, 30, "slabcast: reading dragon.obj.x");
    check_line("reading a\nb\x1b[2J.obj", 0.0, 0.0, 79, "slabcast: reading a?b?[2J.obj [                    ] 0%  0.0 s");
    len = app_progress_format(line, 16, "reading dragon.obj.xz", 0.5, 1.0, 79);
    SCT_CHECK_EQ_U64(len, 15);
    SCT_CHECK(strcmp(line, "slabcast: readi") == 0);
}

/* UTF-8 names are cut between characters, never inside one. */
static void test_format_cuts_utf8_between_characters(void)
{
    /* "reading " and 30 two-byte characters (U+00E9), then ".ply". */
    char what[128] = "reading ";
    for (int i = 0; i < 30; ++i) strcat(what, "\xc3\xa9");
    strcat(what, ".ply");
    char line[512];
    app_progress_format(line, sizeof line, what, 0.5, 1.0, 70);
    const char *dots = strstr(line, "...");
    SCT_REQUIRE(dots != NULL);
    SCT_CHECK_MSG(((unsigned char)dots[3] & 0xC0) != 0x80, "the tail starts inside a character: '%s'", line);
    SCT_CHECK_MSG(((unsigned char)dots[-1] & 0xC0) != 0xC0, "the head ends inside a character: '%s'", line);
}

/* ---- the terminal bar -------------------------------------------------------------------------- */

/* What the bar wrote to its stand-in terminal. */
static char *written(FILE *f)
{
    long n = ftell(f);
    char *text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(f);
    if (text && n > 0 && fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = '\0';
    return text;
}

/* "\r" + the line for (what, fraction, elapsed) at width 79, blanking `blank` more characters. */
static void append_draw(char *buf, size_t size, const char *what, double fraction, double elapsed, size_t blank)
{
    char line[256];
    app_progress_format(line, sizeof line, what, fraction, elapsed, 79);
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "\r%s%*s", line, (int)blank, "");
}

static void test_bar_timing(void)
{
    FILE *f = tmpfile();
    SCT_REQUIRE(f != NULL);
    app_term_progress p;
    app_term_progress_init(&p, f, 1, 79, 100.0);
    app_term_progress_step(&p, "reading x.obj", 0.10, 100.2);   /* before the delay: nothing */
    app_term_progress_step(&p, "reading x.obj", 0.30, 100.6);   /* drawn */
    app_term_progress_step(&p, "reading x.obj", 0.35, 100.65);  /* within 0.1 s: skipped */
    app_term_progress_step(&p, "reading x.obj", 0.40, 100.77);  /* drawn */
    app_term_progress_step(&p, "uploading", -1.0, 100.78);      /* a new stage: drawn at once */
    app_term_progress_step(&p, "", 1.0, 100.9);                 /* the end: full, then a newline */
    app_term_progress_step(&p, "", 1.0, 101.0);                 /* nothing more */
    char want[2048] = "";
    append_draw(want, sizeof want, "reading x.obj", 0.30, 0.6, 0);
    append_draw(want, sizeof want, "reading x.obj", 0.40, 0.77, 0);
    char line[256];
    size_t longer = app_progress_format(line, sizeof line, "reading x.obj", 0.40, 0.77, 79),
           shorter = app_progress_format(line, sizeof line, "uploading", -1.0, 0.78, 79);
    append_draw(want, sizeof want, "uploading", -1.0, 0.78, longer - shorter);
    append_draw(want, sizeof want, "uploading", 1.0, 0.9, 0);
    strcat(want, "\n");
    char *got = written(f);
    SCT_CHECK_MSG(got && strcmp(got, want) == 0, "the bar wrote\n'%s'\nnot\n'%s'", got ? got : "", want);
    free(got);
    fclose(f);
}

/* A quick load, a failed one and one on a stream that is no terminal. */
static void test_bar_quiet_cases(void)
{
    FILE *f = tmpfile();
    SCT_REQUIRE(f != NULL);
    app_term_progress p;
    app_term_progress_init(&p, f, 1, 79, 0.0);
    app_term_progress_step(&p, "reading x.obj", 0.5, 0.3);
    app_term_progress_step(&p, "", 1.0, 0.4);
    SCT_CHECK_MSG(ftell(f) == 0, "a load of 0.4 s drew %ld bytes", ftell(f));
    app_term_progress_init(&p, f, 0, 79, 0.0);
    app_term_progress_step(&p, "reading x.obj", 0.5, 3.0);
    app_term_progress_step(&p, "", 1.0, 4.0);
    SCT_CHECK_MSG(ftell(f) == 0, "a bar that is not on a terminal drew %ld bytes", ftell(f));
    /* Failed: the line as it was, then the newline (no 100%). */
    app_term_progress_init(&p, f, 1, 79, 0.0);
    app_term_progress_step(&p, "reading x.obj", 0.5, 1.0);
    app_term_progress_step(&p, "", -1.0, 1.2);
    char want[512] = "";
    append_draw(want, sizeof want, "reading x.obj", 0.5, 1.0, 0);
    strcat(want, "\n");
    char *got = written(f);
    SCT_CHECK_MSG(got && strcmp(got, want) == 0, "a failed load wrote '%s', not '%s'", got ? got : "", want);
    free(got);
    fclose(f);
}

/* A warning in the middle: the line ends first, the next step draws a new one. */
static void test_bar_break(void)
{
    FILE *f = tmpfile();
    SCT_REQUIRE(f != NULL);
    app_term_progress p;
    app_term_progress_init(&p, f, 1, 79, 0.0);
    app_term_progress_break(&p); /* nothing open: nothing written */
    app_term_progress_step(&p, "reading x.obj", 0.5, 1.0);
    app_term_progress_break(&p);
    app_term_progress_step(&p, "reading x.obj", 0.6, 1.01);
    char want[512] = "";
    append_draw(want, sizeof want, "reading x.obj", 0.5, 1.0, 0);
    strcat(want, "\n");
    append_draw(want, sizeof want, "reading x.obj", 0.6, 1.01, 0);
    char *got = written(f);
    SCT_CHECK_MSG(got && strcmp(got, want) == 0, "wrote '%s', not '%s'", got ? got : "", want);
    free(got);
    fclose(f);
}

/* ---- app_scene_load ---------------------------------------------------------------------------- */

static char g_dir[64];

typedef struct stages {
    char seen[1024];         /* "what(fraction class)" of each call, ';'-separated */
    int calls;
    const char *cancel_on;   /* cancel at the first call whose what starts with this, */
    int cancel_when_read;    /* or, if set, at its call with fraction 1 (the mesh library's last) */
    double last_fraction;
    int backwards;
} stages;

static int record_stage(void *user, const char *what, double fraction)
{
    stages *st = user;
    size_t len = strlen(st->seen);
    const char *cls = fraction < 0 ? "?" : fraction == 0 ? "0" : fraction == 1 ? "1" : "f";
    snprintf(st->seen + len, sizeof st->seen - len, "%s(%s);", what, cls);
    if (st->calls && fraction >= 0 && st->last_fraction >= 0 && fraction < st->last_fraction && what[0])
        st->backwards = 1;
    st->last_fraction = fraction;
    ++st->calls;
    if (!st->cancel_on || strncmp(what, st->cancel_on, strlen(st->cancel_on)) != 0) return 0;
    return !st->cancel_when_read || fraction == 1.0;
}

static int options_of(app_options *o, const char *extra)
{
    char *argv[8] = {(char *)"slabcast", (char *)"--resolution", (char *)"8", NULL};
    int argc = 3;
    if (extra) {
        argv[argc++] = (char *)"--max-triangles";
        argv[argc++] = (char *)extra;
    }
    return app_parse_options(argc, argv, o, stderr);
}

static int make_scene(app_scene *s, const app_options *o)
{
    memset(s, 0, sizeof *s);
    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_CPU;
    rd.width = 32;
    rd.height = 24;
    rd.num_threads = 1;
    s->deform_mask = o->deform_mask;
    s->mode = o->mode;
    return sc_renderer_create(&rd, &s->renderer) == SC_OK ? 0 : -1;
}

static void free_scene(app_scene *s)
{
    sc_renderer_destroy(s->renderer);
    sc_mesh_free(&s->mesh);
}

static const char *write_tetra(char *path, size_t size, const char *file)
{
    snprintf(path, size, "%s/%s", g_dir, file);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs("v 0 0 0\nv 2 0 0\nv 0 2 0\nv 0 0 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", f);
    return fclose(f) == 0 ? path : NULL;
}

/* The scene as it was: the same arrays, name and framing. */
typedef struct snapshot {
    const float *positions;
    uint32_t triangles;
    char name[256];
    app_orbit orbit;
} snapshot;

static snapshot snap(const app_scene *s)
{
    snapshot n = {s->mesh.positions, s->mesh.triangle_count, "", s->orbit};
    snprintf(n.name, sizeof n.name, "%s", s->mesh_name);
    return n;
}

static void check_unchanged(const char *what, const snapshot *before, const app_scene *s)
{
    SCT_CHECK_MSG(s->mesh.positions == before->positions && s->mesh.triangle_count == before->triangles &&
                      strcmp(s->mesh_name, before->name) == 0 && memcmp(&s->orbit, &before->orbit, sizeof s->orbit) == 0,
                  "%s: the scene changed (now '%s', %u triangles)", what, s->mesh_name, s->mesh.triangle_count);
}

static void test_scene_stages_and_swap(void)
{
    app_options o;
    SCT_REQUIRE(options_of(&o, NULL) == 0);
    app_scene s;
    SCT_REQUIRE(make_scene(&s, &o) == 0);
    stages st = {0};
    char why[512];
    SCT_CHECK(app_scene_load(&o, NULL, record_stage, &st, &s, why, sizeof why) == 0);
    SCT_CHECK_EQ_U64(s.mesh.triangle_count, 4 * 8 * 8);
    SCT_CHECK(strcmp(s.mesh_name, "built-in torus knot") == 0);
    SCT_CHECK_MSG(strcmp(st.seen, "building the built-in mesh(?);uploading(?);(1);") == 0, "stages: %s", st.seen);

    char path[256];
    SCT_REQUIRE(write_tetra(path, sizeof path, "tetra.obj") != NULL);
    memset(&st, 0, sizeof st);
    s.camera.eye[0] = 1234.0f; /* moved by the user: the new model's framing replaces it */
    SCT_CHECK_MSG(app_scene_load(&o, path, record_stage, &st, &s, why, sizeof why) == 0, "%s", why);
    SCT_CHECK_EQ_U64(s.mesh.triangle_count, 4);
    SCT_CHECK(strcmp(s.mesh_name, "tetra.obj") == 0);
    SCT_CHECK_MSG(strcmp(st.seen, "reading tetra.obj(0);reading tetra.obj(1);uploading(?);(1);") == 0, "stages: %s",
                  st.seen);
    SCT_CHECK(!st.backwards);
    app_camera framed;
    app_camera_from_orbit(&framed, &s.orbit);
    SCT_CHECK(memcmp(&framed, &s.camera, sizeof framed) == 0);
    SCT_CHECK(s.orbit.radius > 1.0f && s.orbit.radius < 2.0f);
    free_scene(&s);
}

/* A missing file, a refused subdivision and a cancel at each stage leave the model shown. */
static void test_scene_failures_keep_the_model(void)
{
    app_options o;
    SCT_REQUIRE(options_of(&o, "100") == 0);
    app_scene s;
    SCT_REQUIRE(make_scene(&s, &o) == 0);
    char path[256], why[512];
    SCT_REQUIRE(write_tetra(path, sizeof path, "shown.obj") != NULL);
    SCT_REQUIRE(app_scene_load(&o, path, NULL, NULL, &s, why, sizeof why) == 0);
    const snapshot before = snap(&s);
    sc_set_log_callback(sct_quiet_log, NULL, SC_LOG_ERROR);

    char missing[256];
    snprintf(missing, sizeof missing, "%s/missing.obj", g_dir);
    stages st = {0};
    SCT_CHECK(app_scene_load(&o, missing, record_stage, &st, &s, why, sizeof why) == -1);
    SCT_CHECK_MSG(strstr(why, "missing.obj: cannot open for reading") != NULL, "why: %s", why);
    SCT_CHECK_MSG(strcmp(st.seen, "reading missing.obj(0);(?);") == 0, "stages: %s", st.seen);
    check_unchanged("missing file", &before, &s);

    o.subdivide = 5; /* 4 triangles -> 4096, over --max-triangles 100 */
    SCT_CHECK(app_scene_load(&o, path, NULL, NULL, &s, why, sizeof why) == -1);
    SCT_CHECK_MSG(strncmp(why, "--subdivide 5: 4 triangles would become 4096, over the limit of 100 triangles", 77) == 0,
                  "why: %s", why);
    check_unchanged("subdivision over the limit", &before, &s);
    o.subdivide = 1;

    /* Cancelled by the program between stages, or by the mesh library (its last byte count). */
    const char *stage[4] = {"reading", "reading", "subdividing", "uploading"};
    for (int k = 0; k < 4; ++k) {
        memset(&st, 0, sizeof st);
        st.cancel_on = stage[k];
        st.cancel_when_read = k == 1;
        SCT_CHECK(app_scene_load(&o, path, record_stage, &st, &s, why, sizeof why) == -1);
        char want[300];
        snprintf(want, sizeof want, "%s: loading cancelled", path);
        SCT_CHECK_MSG(strcmp(why, want) == 0, "cancelled at %s: why '%s'", stage[k], why);
        SCT_CHECK_MSG(strlen(st.seen) >= 5 && strcmp(st.seen + strlen(st.seen) - 5, ";(?);") == 0,
                      "cancelled at %s: stages %s", stage[k], st.seen);
        check_unchanged(stage[k], &before, &s);
    }
    /* After the failures a load works (the default triangle limit: 256 x 4 of the built-in mesh). */
    o.max_triangles = 0;
    SCT_CHECK(app_scene_load(&o, NULL, NULL, NULL, &s, NULL, 0) == 0);
    SCT_CHECK(strcmp(s.mesh_name, "built-in torus knot /1") == 0);
    sc_set_log_callback(NULL, NULL, SC_LOG_WARNING);
    free_scene(&s);
    unlink(path);
}

/* The renderer's lights equal the scene's (the program gives it every change). */
static void check_renderer_lights(const char *what, const app_scene *s)
{
    sc_light_desc got[SC_MAX_LIGHTS];
    uint32_t count = 99;
    SCT_REQUIRE(sc_renderer_get_lights(s->renderer, got, &count) == SC_OK);
    SCT_CHECK_MSG(count == s->light_count, "%s: the renderer has %u lights, the scene %u", what, count, s->light_count);
    for (uint32_t i = 0; i < count && i < s->light_count; ++i) {
        const float *want = s->lights[i].type == SC_LIGHT_POINT ? s->lights[i].position : s->lights[i].direction;
        const float *have = got[i].type == SC_LIGHT_POINT ? got[i].position : got[i].direction;
        float len = 1.0f; /* the renderer keeps directions unit */
        if (s->lights[i].type == SC_LIGHT_DIRECTIONAL)
            len = sqrtf(want[0] * want[0] + want[1] * want[1] + want[2] * want[2]);
        SCT_CHECK_MSG(got[i].type == s->lights[i].type && fabsf(have[0] - want[0] / len) < 1e-6f &&
                          fabsf(have[1] - want[1] / len) < 1e-6f && fabsf(have[2] - want[2] / len) < 1e-6f,
                      "%s: light %u differs", what, i);
    }
}

static int shadows_on(const app_scene *s)
{
    sc_render_options ro = {0};
    return sc_renderer_get_options(s->renderer, &ro) == SC_OK && ro.shadows;
}

static void check_default_light(const char *what, const app_scene *s)
{
    const sc_light_desc want = app_default_light(s->orbit.center, s->orbit.radius);
    SCT_CHECK_MSG(s->light_count == 1 && s->light_default && s->lights[0].type == SC_LIGHT_POINT &&
                      memcmp(s->lights[0].position, want.position, sizeof want.position) == 0,
                  "%s: not the default light of the framing", what);
    check_renderer_lights(what, s);
}

static void test_scene_lights(void)
{
    char path[256], why[512];
    SCT_REQUIRE(write_tetra(path, sizeof path, "lit.obj") != NULL);
    /* Neither option: no lights set (the shading's own light), shadows off. */
    char *plain[] = {(char *)"slabcast", (char *)"--resolution", (char *)"8", NULL};
    app_options o;
    SCT_REQUIRE(app_parse_options(3, plain, &o, stderr) == 0);
    app_scene s;
    SCT_REQUIRE(make_scene(&s, &o) == 0);
    SCT_REQUIRE(app_scene_load(&o, NULL, NULL, NULL, &s, why, sizeof why) == 0);
    SCT_CHECK(app_scene_init_lights(&o, &s) == 0 && s.light_count == 0 && !shadows_on(&s));
    check_renderer_lights("no lights", &s);
    free_scene(&s);

    /* --shadows: the default light, placed from each model's framing. */
    char *shadows[] = {(char *)"slabcast", (char *)"--resolution", (char *)"8", (char *)"--shadows", NULL};
    SCT_REQUIRE(app_parse_options(4, shadows, &o, stderr) == 0);
    SCT_REQUIRE(make_scene(&s, &o) == 0);
    SCT_REQUIRE(app_scene_load(&o, NULL, NULL, NULL, &s, why, sizeof why) == 0);
    SCT_CHECK(app_scene_init_lights(&o, &s) == 0 && shadows_on(&s));
    check_default_light("--shadows, built-in mesh", &s);
    const sc_light_desc first = s.lights[0];
    SCT_REQUIRE(app_scene_load(&o, path, NULL, NULL, &s, why, sizeof why) == 0);
    check_default_light("--shadows, the next model", &s);
    SCT_CHECK(memcmp(first.position, s.lights[0].position, sizeof first.position) != 0);
    SCT_CHECK(shadows_on(&s));
    free_scene(&s);

    /* --light: those lights, kept across models; shadows stay off without --shadows. */
    char *lights[] = {(char *)"slabcast", (char *)"--resolution", (char *)"8", (char *)"--light", (char *)"1,2,3",
                      (char *)"--light", (char *)"dir:0,-2,0", NULL};
    SCT_REQUIRE(app_parse_options(7, lights, &o, stderr) == 0);
    SCT_REQUIRE(make_scene(&s, &o) == 0);
    SCT_REQUIRE(app_scene_load(&o, NULL, NULL, NULL, &s, why, sizeof why) == 0);
    SCT_CHECK(app_scene_init_lights(&o, &s) == 0 && !shadows_on(&s));
    SCT_CHECK(s.light_count == 2 && !s.light_default && s.lights[0].position[2] == 3.0f);
    check_renderer_lights("--light", &s);
    SCT_REQUIRE(app_scene_load(&o, path, NULL, NULL, &s, why, sizeof why) == 0);
    SCT_CHECK(s.light_count == 2 && s.lights[0].position[2] == 3.0f && s.lights[1].direction[1] == -2.0f);
    check_renderer_lights("--light, the next model", &s);
    free_scene(&s);
    unlink(path);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "app_progress");
    snprintf(g_dir, sizeof g_dir, "/tmp/sc_app_progress_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    SCT_RUN(test_format_known_fraction);
    SCT_RUN(test_format_unknown_fraction);
    SCT_RUN(test_format_long_names_and_narrow_widths);
    SCT_RUN(test_format_cuts_utf8_between_characters);
    SCT_RUN(test_bar_timing);
    SCT_RUN(test_bar_quiet_cases);
    SCT_RUN(test_bar_break);
    SCT_RUN(test_scene_stages_and_swap);
    SCT_RUN(test_scene_failures_keep_the_model);
    SCT_RUN(test_scene_lights);
    char path[256];
    snprintf(path, sizeof path, "%s/tetra.obj", g_dir);
    unlink(path);
    rmdir(g_dir);
    return sct_end();
}
