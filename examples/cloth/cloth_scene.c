/* cloth_scene.c - the model, the ground and the cloth assembled into one mesh (cloth_scene.h). */
#include "cloth_scene.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The layout, in units of the model's longest side. */
static const float CLOTH_SIDE = 1.6f;   /* the cloth's side */
static const float CLOTH_LIFT = 0.1f;   /* how far above the model's top the cloth starts */
static const float CLOTH_TURN = 0.45f;  /* the cloth's turn about the vertical, radians */
static const float GROUND_HALF = 2.5f;  /* half the ground square's side */

/* Scales the model to 1 across its longest side and moves it onto the ground (lowest point y = 0),
 * centred over the origin. */
static void place_model(sc_mesh *m)
{
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < 3 * (size_t)m->vertex_count; ++i) {
        lo[i % 3] = fminf(lo[i % 3], m->positions[i]);
        hi[i % 3] = fmaxf(hi[i % 3], m->positions[i]);
    }
    const float longest = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    const float scale = longest > 0.0f ? 1.0f / longest : 1.0f;
    const float shift[3] = {-0.5f * (lo[0] + hi[0]), -lo[1], -0.5f * (lo[2] + hi[2])};
    for (size_t i = 0; i < 3 * (size_t)m->vertex_count; ++i) m->positions[i] = (m->positions[i] + shift[i % 3]) * scale;
}

int cloth_scene_build(const char *mesh_path, uint32_t builtin_resolution, int ground, uint32_t n,
                      cloth_scene *scene, char *err, size_t err_size)
{
    memset(scene, 0, sizeof *scene);
    if (n < 2) {
        snprintf(err, err_size, "the cloth needs at least 2 x 2 particles");
        return 0;
    }
    const sc_status s = mesh_path ? sc_mesh_load_file(mesh_path, NULL, &scene->model, NULL)
                                  : sc_mesh_default(builtin_resolution, &scene->model);
    if (s != SC_OK) {
        snprintf(err, err_size, "%s", sc_last_error()); /* names the file and what is wrong with it */
        return 0;
    }
    const sc_mesh *m = &scene->model;
    const uint64_t vertices = (uint64_t)m->vertex_count + 4 + (uint64_t)n * n;
    const uint32_t ground_triangles = ground ? 2 : 0;
    const uint64_t triangles = (uint64_t)m->triangle_count + ground_triangles + 2 * (uint64_t)(n - 1) * (n - 1);
    if (vertices >= UINT32_MAX || triangles >= UINT32_MAX) {
        snprintf(err, err_size, "the scene has %llu vertices and %llu triangles: more than 32-bit indices hold "
                 "(lower --size)", (unsigned long long)vertices, (unsigned long long)triangles);
        sc_mesh_free(&scene->model);
        return 0;
    }
    scene->vertex_count = (uint32_t)vertices;
    scene->triangle_count = (uint32_t)triangles;
    scene->positions = malloc(3 * (size_t)vertices * sizeof(float));
    scene->indices = malloc(3 * (size_t)triangles * sizeof(uint32_t));
    if (!scene->positions || !scene->indices) {
        snprintf(err, err_size, "out of memory for a scene of %llu vertices and %llu triangles",
                 (unsigned long long)vertices, (unsigned long long)triangles);
        cloth_scene_free(scene);
        return 0;
    }
    place_model(&scene->model);
    float top = 0.0f;
    for (uint32_t v = 0; v < m->vertex_count; ++v) top = fmaxf(top, m->positions[3 * (size_t)v + 1]);
    scene->model_top = top;
    memcpy(scene->positions, m->positions, 3 * (size_t)m->vertex_count * sizeof(float));
    memcpy(scene->indices, m->indices, 3 * (size_t)m->triangle_count * sizeof(uint32_t));

    /* The ground: a square at y = 0, facing up (counter-clockwise seen from above). */
    const uint32_t g = m->vertex_count;
    const float corners[12] = {-GROUND_HALF, 0, -GROUND_HALF, -GROUND_HALF, 0, GROUND_HALF,
                               GROUND_HALF,  0, GROUND_HALF,  GROUND_HALF,  0, -GROUND_HALF};
    memcpy(scene->positions + 3 * (size_t)g, corners, sizeof corners);
    uint32_t *tri = scene->indices + 3 * (size_t)m->triangle_count;
    const uint32_t ground_tris[6] = {g, g + 1, g + 2, g, g + 2, g + 3};
    memcpy(tri, ground_tris, ground_triangles * 3 * sizeof(uint32_t));
    tri += 3 * ground_triangles;
    scene->ground_first_tri = m->triangle_count;
    scene->cloth_first_tri = m->triangle_count + ground_triangles;

    /* The cloth: particle (x, y) at (x, y) * spacing across a square, turned about the vertical and
     * lifted above the model; two triangles per cell, facing up. */
    const uint32_t c = g + 4;
    scene->cloth_first_vertex = c;
    scene->n = n;
    scene->spacing = CLOTH_SIDE / (float)(n - 1);
    const float cs = cosf(CLOTH_TURN), sn = sinf(CLOTH_TURN), height = top + CLOTH_LIFT;
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x) {
            const float u = ((float)x / (float)(n - 1) - 0.5f) * CLOTH_SIDE;
            const float w = ((float)y / (float)(n - 1) - 0.5f) * CLOTH_SIDE;
            float *p = scene->positions + 3 * ((size_t)c + (size_t)y * n + x);
            p[0] = cs * u + sn * w;
            p[1] = height;
            p[2] = -sn * u + cs * w;
        }
    for (uint32_t y = 0; y + 1 < n; ++y)
        for (uint32_t x = 0; x + 1 < n; ++x) {
            const uint32_t v00 = c + y * n + x, v10 = v00 + 1, v01 = v00 + n, v11 = v01 + 1;
            const uint32_t cell[6] = {v00, v01, v11, v00, v11, v10};
            memcpy(tri, cell, sizeof cell);
            tri += 6;
        }
    return 1;
}

void cloth_scene_free(cloth_scene *scene)
{
    sc_mesh_free(&scene->model);
    free(scene->positions);
    free(scene->indices);
    memset(scene, 0, sizeof *scene);
}

sc_mesh_data cloth_scene_mesh(const cloth_scene *scene)
{
    sc_mesh_data d = {scene->positions, scene->vertex_count, scene->indices, scene->triangle_count};
    return d;
}

sc_mesh_data cloth_scene_model(const cloth_scene *scene) { return sc_mesh_view(&scene->model); }

/* The sphere the camera frames: the model and the cloth draped around it. */
static void framing(const cloth_scene *scene, float centre[3], float *radius)
{
    centre[0] = 0.0f, centre[1] = 0.35f * scene->model_top, centre[2] = 0.0f;
    *radius = 0.55f * CLOTH_SIDE;
}

sc_camera_desc cloth_scene_camera(const cloth_scene *scene)
{
    float centre[3], radius;
    framing(scene, centre, &radius);
    const float fovy = 0.7853982f, yaw = 0.6f, pitch = 0.3f; /* radians */
    const float distance = radius / sinf(0.5f * fovy);
    const float dir[3] = {cosf(pitch) * sinf(yaw), sinf(pitch), cosf(pitch) * cosf(yaw)};
    sc_camera_desc cam = {0}; /* up (0, 0, 0): +y */
    for (int k = 0; k < 3; ++k) {
        cam.target[k] = centre[k];
        cam.eye[k] = centre[k] + distance * dir[k];
    }
    cam.fovy = fovy;
    cam.near_plane = 0.01f;
    cam.far_plane = distance + 2.0f * GROUND_HALF;
    return cam;
}

sc_light_desc cloth_scene_light(const cloth_scene *scene)
{
    float centre[3], radius;
    framing(scene, centre, &radius);
    const float dir[3] = {1.5f, 1.0f, 1.2f}; /* from the front right, low enough to light the model under the cloth */
    const float k = 3.0f * radius / sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    sc_light_desc light = {0};
    light.type = SC_LIGHT_POINT;
    for (int i = 0; i < 3; ++i) light.position[i] = centre[i] + k * dir[i];
    return light;
}
