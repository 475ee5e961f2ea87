/* cloth_scene.h - the scene as one mesh for the renderer: the model (a mesh file or the built-in mesh) scaled
 * to 1 across its longest side and standing on the ground, a ground square, and the cloth, an n x n
 * grid of particles held flat above the model. One position buffer holds all three, in that order, so
 * the cloth's particles are its last n * n vertices; one index list holds their triangles, the cloth's
 * two per grid cell last. */
#ifndef CLOTH_SCENE_H
#define CLOTH_SCENE_H

#include <slabcast.h>

typedef struct cloth_scene {
    sc_mesh model;                /* the model, scaled and placed (owned) */
    float *positions;             /* vertex_count x 3: the model's, the ground's 4, the cloth's n x n */
    uint32_t *indices;            /* triangle_count x 3 */
    uint32_t vertex_count, triangle_count;
    uint32_t ground_first_tri;    /* triangles: the model's below this, then the ground's 2 (or none), */
    uint32_t cloth_first_tri;     /* then the cloth's from this one on */
    uint32_t cloth_first_vertex;  /* particle y * n + x is vertex cloth_first_vertex + y * n + x */
    uint32_t n;                   /* cloth particles per side */
    float spacing;                /* distance between neighbouring particles at rest */
    float model_top;              /* the model's highest point (its lowest is the ground, y = 0) */
} cloth_scene;

/* Builds the scene: the model from mesh_path (OBJ, PLY, STL, .xz too), or with mesh_path NULL the
 * built-in mesh at builtin_resolution (sc_mesh_default), the ground square's two triangles unless
 * ground is 0 (its 4 vertices stay, unused), and a cloth of n x n particles. Returns 0 with a message
 * in err on failure (*scene then holds nothing). */
int cloth_scene_build(const char *mesh_path, uint32_t builtin_resolution, int ground, uint32_t n,
                      cloth_scene *scene, char *err, size_t err_size);
void cloth_scene_free(cloth_scene *scene);

/* The whole scene, and the model alone, as the renderer and the collision field take them. */
sc_mesh_data cloth_scene_mesh(const cloth_scene *scene);
sc_mesh_data cloth_scene_model(const cloth_scene *scene);

/* A camera that frames the model and the cloth from the front right, a little above, and a point
 * light above them that casts the cloth's shadow onto the model and the ground. */
sc_camera_desc cloth_scene_camera(const cloth_scene *scene);
sc_light_desc cloth_scene_light(const cloth_scene *scene);

#endif /* CLOTH_SCENE_H */
