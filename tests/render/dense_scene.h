/* dense_scene.h - what the dense-mesh tests (CPU and CUDA backends) share: the benchmark model,
 * subdivided; the slabcast program's default orbit camera and its `--deform twist,wave` amounts;
 * and a frame checked pixel by pixel against brute_force_dense.h. */
#ifndef SC_DENSE_SCENE_H
#define SC_DENSE_SCENE_H

#include <stdint.h>

#include "sc_frame.h"
#include "sc_mesh.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the shared model `file` (sctest_models.h) and subdivides it `levels` times (midpoint).
 * Returns 0, 77 when the model is absent (the caller skips), -1 on error (reported). */
int dense_scene_load(const char *file, uint32_t levels, sc_mesh *out);

/* The camera the slabcast program starts with (app/common/orbit.c: the bounding box's sphere
 * fits a 45 degree view, yaw 0.6, pitch 0.35) and the bench's deformation (twist 0.9, wave 0.04). */
sc_camera_desc dense_orbit_camera(const sc_mesh *m);
sc_deform_desc dense_bench_deform(void);

/* The comparison of one frame with the reference. */
typedef struct dense_diff {
    uint64_t pixels;    /* compared */
    uint64_t hits;      /* reference pixels with a hit */
    uint64_t wrong;     /* another triangle or depth (a hole or a hit where the reference has none included) */
    uint64_t holes;     /* of those: no hit where the reference hits */
    uint64_t ties;      /* equal depth, another triangle: counted, not wrong */
} dense_diff;

/* Renders frame `time` with r (whose frame parameters are *p), reads back its hits and deformed
 * positions (with twin not NULL: a renderer of the same mesh and deformation on another backend,
 * whose positions at `time` must be the same bits), computes the reference on num_threads threads
 * and compares every pixel: triangle id and depth exactly; a pixel whose two hits have the same depth
 * is a tie. Prints the counts and the first few wrong pixels. Returns 0, or -1 when rendering or the
 * reference failed. */
int dense_check_frame(sc_renderer *r, sc_renderer *twin, const sc_frame_params *p, uint32_t vertex_count,
                      const uint32_t *indices, uint32_t triangle_count, float time, uint32_t num_threads,
                      const char *what, dense_diff *out);

/* One renderer of `backend` at w x h with the mesh, the program's default camera and the bench's
 * deformation; dense_check_frame for each time; every frame must hit a twentieth of its pixels and
 * have no wrong pixel, and a backend other than the CPU must deform the mesh to the CPU backend's
 * positions bit for bit (sctest failures otherwise). */
void dense_check_frames(sc_backend backend, const sc_mesh *m, uint32_t w, uint32_t h, const float *times,
                        uint32_t num_times, const char *name);
/* The same on the shared model `file` subdivided `levels` times; skipped when the model is absent. */
void dense_check_model(sc_backend backend, const char *file, uint32_t levels, uint32_t w, uint32_t h,
                       const float *times, uint32_t num_times);

#ifdef __cplusplus
}
#endif

#endif /* SC_DENSE_SCENE_H */
