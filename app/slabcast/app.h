/* app.h - the slabcast program's shared state: the loaded mesh, the renderer, the camera. */
#ifndef SLABCAST_APP_H
#define SLABCAST_APP_H

#include "camera.h"
#include "options.h"
#include "orbit.h"
#include "sc_mesh.h"
#include "slabcast.h"

typedef struct app_scene {
    sc_mesh mesh;
    char mesh_name[256];
    app_orbit orbit;             /* the model's framing (F, R in the viewer) */
    app_camera camera;           /* the view: the framing, or --camera */
    sc_renderer *renderer;
    sc_backend backend;          /* the renderer's (resolved: never SC_BACKEND_DEFAULT) */
    /* What the library says of it (sc_backend_get_info), which the programs ask instead of knowing
     * backends: where frames live (buffer_memory), whether frames overlap back to back
     * (asynchronous), whose clock times them (device_timed), the device's name. */
    sc_backend_info backend_info;
    unsigned deform_mask;
    sc_view_mode mode;
    /* The lights given to the renderer (sc_renderer_set_lights); light_count 0: none set, the
     * shading's single directional light. light_default: the one light is the default light
     * (app_default_light), placed anew from the framing of every model loaded. */
    sc_light_desc lights[SC_MAX_LIGHTS];
    uint32_t light_count;
    int light_default;
    char backend_note[256];      /* why a host backend renders when --backend auto found no device, or "" */
} app_scene;

/* image.c: an RGBA8 image where the backend wants the caller's buffers (sc_backend_info.buffer_memory). */
typedef struct app_image {
    void *pixels;
    unsigned width, height;
    int on_device;
} app_image;

int app_image_alloc(app_image *img, sc_backend backend, unsigned width, unsigned height);
void app_image_free(app_image *img);
/* Copies to host memory (w*h*4 bytes). 0 or -1 with a message on stderr. */
int app_image_to_host(const app_image *img, void *host);
/* Writes host RGBA8 pixels (row 0 at the bottom) top row first, in the given format (PNG, JPEG at
 * quality 92, BMP, TGA). 0, or -1 with a "slabcast: <path>: ..." line on stderr. */
int app_write_image(const char *path, app_image_format format, const void *rgba, unsigned width, unsigned height);

/* --record DIR: "DIR/frame-NNNNNN.png" for frame n (from 1). 0, or -1 with a message when too long. */
int app_record_path(const char *dir, long n, char *path, size_t size);
/* --record DIR must be a folder we can write in: 0, or -1 with a message naming it. */
int app_check_record_dir(const char *dir);

int app_run_headless(const app_options *o, app_scene *scene);
/* headless/headless_group.c: the headless run of --gpus N (a renderer group of N shares of the
 * scene's mesh; the scene's own renderer is destroyed first, its device memory given back). */
int app_run_headless_group(const app_options *o, app_scene *scene);
/* Returns 0, 1 on error (reported), or 2 when no window could be opened: then `why` says why (a
 * GLFW error, no OpenGL 4.5) and the caller may fall back. */
int app_run_viewer(const app_options *o, app_scene *scene, char *why, size_t why_size);
/* 1 when the viewer can be tried (GLFW loaded), else 0 with the reason in why. */
int app_viewer_available(char *why, size_t why_size);

#endif
