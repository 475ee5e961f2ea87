/* scene.h - loading a model into the scene, at start-up and again at run time (the viewer's Tab and
 * drag-and-drop), with progress and all-or-nothing: a load that fails or is cancelled leaves the
 * model shown as it was. */
#ifndef SLABCAST_APP_SCENE_H
#define SLABCAST_APP_SCENE_H

#include <stddef.h>

#include "app.h"
#include "progress.h"

/* Loads path (NULL: the built-in mesh at o->resolution) within o's loading limits, applies
 * o->subdivide (refused before any work when the triangles would pass the limit), fits and frames
 * it, uploads it with sc_renderer_set_mesh and applies the deformers (s->deform_mask with
 * o->deform_amount) and shading (s->mode, o->heat_max). On success the scene holds the new mesh,
 * its name (the file's base name, " /N" after N subdivisions), its framing in s->orbit and s->camera
 * reset to it; a model moved to fit float's range is said in one line on stderr. progress (may be
 * NULL) hears each stage ("reading NAME" with the fraction of the file read, "building the
 * built-in mesh", "subdividing", "uploading") and once more at the end (see app_progress_fn); a
 * nonzero return cancels. On failure the scene keeps the model it had (loaded into a temporary mesh,
 * swapped on success; the renderer given the old mesh back if the upload failed) and `why` holds one
 * line, the library's message naming the file (e.g. "dragon.obj:12: ...", "dragon.obj: loading
 * cancelled") or the option at fault ("--subdivide 3: ..."), as "slabcast: " would print it. Returns
 * 0 or -1. */
int app_scene_load(const app_options *o, const char *path, app_progress_fn progress, void *user, app_scene *s,
                   char *why, size_t why_size);

/* The command line's lights and shadows, once the first model is framed: --light's lights, or with
 * --shadows alone the default light (app_default_light of the framing; it then follows every model
 * loaded, see app_scene_load), given to the renderer; none when neither option is given (the
 * shading's single light, as before lights existed). Then sc_render_options.shadows from --shadows.
 * 0, or -1 with the library's error pending (app_report_error). */
int app_scene_init_lights(const app_options *o, app_scene *s);
/* Makes the default light the scene's only light (placed from s->orbit) and gives it to the renderer.
 * 0, or -1 with the library's error pending. */
int app_scene_use_default_light(app_scene *s);
/* Gives the renderer the scene's lights (after one was moved). 0, or -1 with the library's error pending. */
int app_scene_apply_lights(const app_scene *s);

#endif
