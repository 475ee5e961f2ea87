/* scene.c - a model into the scene: read (or build), subdivide, fit and frame, deformers and
 * shading, upload. Everything is done on a temporary mesh and swapped in at the end, so a failed or
 * cancelled load leaves the scene and the renderer with the model they had. */
#include "scene.h"

#include "lights.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* One load: the caller's progress callback, the stage being reported, the reason of a failure. */
typedef struct scene_load {
    const app_options *o;
    const char *path;            /* NULL: the built-in mesh */
    app_progress_fn progress;
    void *user;
    char reading[300];           /* "reading NAME", the stage the mesh library reports through */
    char *why;
    size_t why_size;
} scene_load;

/* ---- failures and progress --------------------------------------------------------------------- */

/* The library's last message, after "context: " when context is given; returns -1. */
static int fail_library(scene_load *l, const char *context)
{
    const char *msg = sc_last_error();
    if (!msg[0]) msg = "failed (no reason was given)";
    if (context) snprintf(l->why, l->why_size, "%s: %s", context, msg);
    else snprintf(l->why, l->why_size, "%s", msg);
    return -1;
}

/* The file (or the built-in mesh) in messages of the program's own. */
static const char *load_name(const scene_load *l) { return l->path ? l->path : "built-in mesh"; }

/* Reports a stage; -1 with "NAME: loading cancelled" in why when the caller cancels. */
static int report(scene_load *l, const char *what, double fraction)
{
    if (!l->progress || l->progress(l->user, what, fraction) == 0) return 0;
    snprintf(l->why, l->why_size, "%s: loading cancelled", load_name(l));
    return -1;
}

/* The mesh library's byte counts as the fraction of "reading NAME". */
static int on_bytes(void *user, uint64_t done, uint64_t total)
{
    scene_load *l = user;
    return l->progress(l->user, l->reading, total ? (double)done / (double)total : -1.0);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- the stages -------------------------------------------------------------------------------- */

/* Reads the file (any sc_mesh_format; ".xz" decompressed by the loader, which names the file in its
 * messages and warns about dropped faces itself) or builds the built-in mesh. */
static int read_mesh(scene_load *l, sc_mesh *m)
{
    const app_options *o = l->o;
    if (!l->path) {
        if (report(l, "building the built-in mesh", -1.0) != 0) return -1;
        return sc_mesh_default(o->resolution, m) == SC_OK ? 0 : fail_library(l, "--resolution");
    }
    snprintf(l->reading, sizeof l->reading, "reading %s", base_name(l->path));
    if (report(l, l->reading, 0.0) != 0) return -1;
    sc_mesh_limits limits = {o->max_mesh_bytes, o->max_vertices, o->max_triangles, o->max_xz_ratio};
    sc_mesh_load_desc desc = {0};
    desc.limits = &limits;
    desc.progress = l->progress ? on_bytes : NULL;
    desc.progress_user = l;
    sc_mesh_report rep = {0};
    return sc_mesh_load_file(l->path, &desc, m, &rep) == SC_OK ? 0 : fail_library(l, NULL);
}

/* --subdivide multiplies the triangles by 4 per level: refused before any memory is spent when the
 * result passes the triangle limit (the loader's, or --max-triangles) or 32-bit indices. */
static int check_subdivision(scene_load *l, uint32_t triangles)
{
    const app_options *o = l->o;
    uint64_t limit = o->max_triangles ? o->max_triangles : SC_MESH_DEFAULT_MAX_TRIANGLES;
    if (limit > UINT32_MAX) limit = UINT32_MAX;
    /* At most 2^32 triangles x 4^APP_MAX_SUBDIVIDE: no overflow in 64 bits. */
    uint64_t t = (uint64_t)triangles << (2 * o->subdivide);
    if (t <= limit) return 0;
    snprintf(l->why, l->why_size,
             "--subdivide %u: %u triangles would become %llu, over the limit of %llu triangles; "
             "subdivide less, or raise the limit with --max-triangles (at most 4294967295)",
             o->subdivide, triangles, (unsigned long long)t, (unsigned long long)limit);
    return -1;
}

/* Replaces *m by its subdivision (o->subdivide levels); *m is untouched on failure. */
static int subdivide(scene_load *l, sc_mesh *m)
{
    if (!l->o->subdivide) return 0;
    if (check_subdivision(l, m->triangle_count) != 0 || report(l, "subdividing", -1.0) != 0) return -1;
    sc_mesh fine;
    if (sc_mesh_subdivide_midpoint(m, l->o->subdivide, &fine) != SC_OK) return fail_library(l, "--subdivide");
    sc_mesh_free(m);
    *m = fine;
    return 0;
}

/* The name the HUD, the title and the statistics show. */
static void mesh_name(const scene_load *l, char *name, size_t size)
{
    if (l->path) snprintf(name, size, "%s", base_name(l->path));
    else snprintf(name, size, "built-in torus knot");
    size_t len = strlen(name);
    if (l->o->subdivide && len < size) snprintf(name + len, size - len, " /%u", l->o->subdivide);
}

/* Bounds and framing; a model too large or small for float is moved in place, and *note says so
 * (printed once the load is over, not across a progress bar). */
static void frame_mesh(sc_mesh *m, const char *name, app_orbit *orbit, char *note, size_t note_size)
{
    app_fit fit;
    app_fit_mesh(m->positions, m->vertex_count, m->indices, m->triangle_count, orbit, &fit);
    note[0] = '\0';
    if (fit.moved)
        snprintf(note, note_size,
                 "slabcast: %s: the model (radius %.3g around %.3g, %.3g, %.3g) is outside float's comfortable "
                 "range; it is rendered moved to the origin and scaled by 2^%d\n",
                 name, fit.radius, fit.offset[0], fit.offset[1], fit.offset[2], fit.scale_log2);
}

/* The deformers and shading of the scene, checked by the renderer before they change anything. */
static int apply_look(scene_load *l, const app_scene *s)
{
    sc_deform_desc dd = app_deform_desc(s->deform_mask, l->o->deform_amount);
    sc_shading_desc sh = {0};
    sh.mode = s->mode;
    sh.heat_max = l->o->heat_max;
    if (sc_renderer_set_deform(s->renderer, &dd) != SC_OK || sc_renderer_set_shading(s->renderer, &sh) != SC_OK)
        return fail_library(l, NULL);
    return 0;
}

/* Gives the renderer the new mesh; when that fails, the old one again (if there was one), so the
 * scene still draws what it holds. */
static int upload(scene_load *l, const app_scene *s, const sc_mesh *m, const char *name)
{
    if (report(l, "uploading", -1.0) != 0) return -1;
    sc_mesh_data md = sc_mesh_view(m);
    if (sc_renderer_set_mesh(s->renderer, &md) == SC_OK) return 0;
    fail_library(l, l->path ? l->path : name);
    if (s->mesh.positions) {
        sc_mesh_data old = sc_mesh_view(&s->mesh);
        (void)sc_renderer_set_mesh(s->renderer, &old);
    }
    return -1;
}

/* ---- the whole load ---------------------------------------------------------------------------- */

/* Every stage on the temporary mesh; 0 when it is ready to swap in. */
static int load_stages(scene_load *l, app_scene *s, sc_mesh *m, char *name, size_t name_size, app_orbit *orbit,
                       char *note, size_t note_size)
{
    if (read_mesh(l, m) != 0 || subdivide(l, m) != 0) return -1;
    mesh_name(l, name, name_size);
    frame_mesh(m, name, orbit, note, note_size);
    if (apply_look(l, s) != 0) return -1;
    return upload(l, s, m, name);
}

int app_scene_load(const app_options *o, const char *path, app_progress_fn progress, void *user, app_scene *s,
                   char *why, size_t why_size)
{
    char spare[8];
    if (!why || why_size == 0) {
        why = spare;
        why_size = sizeof spare;
    }
    why[0] = '\0';
    scene_load l = {o, path, progress, user, "", why, why_size};
    sc_mesh m = {0};
    char name[sizeof s->mesh_name], note[512];
    app_orbit orbit;
    int rc = load_stages(&l, s, &m, name, sizeof name, &orbit, note, sizeof note);
    if (progress) (void)progress(user, "", rc == 0 ? 1.0 : -1.0);
    if (rc != 0) {
        sc_mesh_free(&m);
        return -1;
    }
    sc_mesh_free(&s->mesh);
    s->mesh = m;
    snprintf(s->mesh_name, sizeof s->mesh_name, "%s", name);
    s->orbit = orbit;
    app_camera_from_orbit(&s->camera, &s->orbit);
    if (note[0]) fputs(note, stderr);
    /* The default light belongs to the model's framing: a new model gets it placed anew. Valid
     * lights are never refused, so this cannot fail for a framed model; said if it ever does. */
    if (s->light_default && app_scene_use_default_light(s) != 0)
        fprintf(stderr, "slabcast: the default light: %s\n", sc_last_error());
    return 0;
}

/* ---- lights ------------------------------------------------------------------------------------ */

int app_scene_apply_lights(const app_scene *s)
{
    return sc_renderer_set_lights(s->renderer, s->lights, s->light_count) == SC_OK ? 0 : -1;
}

int app_scene_use_default_light(app_scene *s)
{
    s->lights[0] = app_default_light(s->orbit.center, s->orbit.radius);
    s->light_count = 1;
    s->light_default = 1;
    return app_scene_apply_lights(s);
}

int app_scene_init_lights(const app_options *o, app_scene *s)
{
    if (o->light_count) {
        for (unsigned i = 0; i < o->light_count; ++i) s->lights[i] = o->lights[i];
        s->light_count = o->light_count;
        s->light_default = 0;
        if (app_scene_apply_lights(s) != 0) return -1;
    } else if (o->shadows && app_scene_use_default_light(s) != 0) {
        return -1;
    }
    if (!o->shadows) return 0;
    sc_render_options ro = {0};
    if (sc_renderer_get_options(s->renderer, &ro) != SC_OK) return -1;
    ro.shadows = 1;
    return sc_renderer_set_options(s->renderer, &ro) == SC_OK ? 0 : -1;
}
