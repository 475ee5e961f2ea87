/* peer_gl_shadowmap.c - the gl-shadowmap peer of slabcast-bench: OpenGL shadow mapping of the
 * same deformed mesh from the same light, what users would otherwise use for hard shadows, timed beside
 * our exact shadows and compared with them pixel by pixel.
 *
 * Every frame our CUDA renderer deforms the mesh and its positions go device to device into a GL
 * vertex buffer (peer_gl_interop.h). Then two passes, each timed with a GL_TIME_ELAPSED query (GPU
 * time; the host has waited for the frame's CUDA work before issuing them):
 *  1. depth pass: the mesh from the light into a GL_SHADOWMAP_SIZE^2 GL_DEPTH_COMPONENT32F texture
 *     (cleared to 1, GL_LESS), with the usual slope-scaled bias, glPolygonOffset(GL_SHADOWMAP_OFFSET_
 *     FACTOR, GL_SHADOWMAP_OFFSET_UNITS); no face culling (a back face casts, as in our contract);
 *  2. camera pass: the mesh from the camera at the configuration's size, with the projection of the
 *     ray caster (peer_gl_view.h: the same pixels as our hits, reversed Z); each fragment takes its
 *     light-space position from the vertex shader, and a sampler2DShadow lookup with GL_NEAREST
 *     filtering (one texel: no PCF) compares its light depth with the map's (GL_LEQUAL: lit); the
 *     decision (BENCH_LIT 0 / BENCH_SHADOWED 1) goes to an R8UI target cleared to BENCH_NO_HIT (255).
 * A frame's time is the sum of its two passes; median, p95 and max over the timed frames after the
 * warm-up frames, as gl-raster measures. After the last frame the decisions are read back and compared
 * with ours (sc_renderer_read_shadows, bit 0) on the pixels both hit: the agreement is the fraction
 * of those with the same decision; the detail says the passes' medians and where the two differ (lit
 * in the map where ours is in shadow, and the reverse; how many of those lie within BENCH_EDGE_RADIUS
 * pixels of an edge of our shadows: the shadow map's aliasing at the shadows' silhouettes).
 *
 * The light's frustum. A point light outside the mesh's bounding sphere sees the whole mesh inside one
 * cone: from the light at distance d from the sphere's centre, a square perspective frustum aimed at
 * the centre with half-angle tangent r / sqrt(d^2 - r^2) holds the sphere of radius r, and its near
 * and far planes at d - r and d + r bound it in depth; one map suffices. The default light of the
 * bench (app_default_light, lights.h: 3 framing radii from the centre) is outside. A light inside the
 * sphere would need six maps (a cube, as a point light inside a room does), which this peer does not
 * draw: it refuses such a scene (skipped, saying why), and directional lights too.
 * The sphere: the framing centre C and radius R of the rest mesh (the bench's framing), widened by how
 * far the scene's deformation can move a vertex (sc_deform_reach), fitted once: the frustum a user
 * would fit to an animated model's bounds. After the last frame the deformed positions are read back
 * once and checked inside that sphere (a vertex outside would make the map miss a caster: a failure,
 * not a silent difference).
 *
 * Two parts, as peer_gl_raster.c: the GL shadow mapper (gl_shadowmap_*: GL only, any GL 4.5 context),
 * which tests also build on its own with PEER_GL_SHADOWMAP_GL_ONLY (the CPU backend's positions on
 * Mesa), and the peer (CUDA and GL). */
#include <glad/gl.h>
#ifndef PEER_GL_SHADOWMAP_GL_ONLY
#include "peer_gl_interop.h"
#endif

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_image.h"
#include "bench_peer.h"
#include "peer_gl_view.h"
#include "sc_gl.h"
#include "sc_mesh.h"
#include "sc_report.h"
#include "slabcast.h"

#define GL_SHADOWMAP_SIZE 4096u             /* the depth map's side in texels */
#define GL_SHADOWMAP_OFFSET_FACTOR 1.5f     /* glPolygonOffset of the depth pass: slope-scaled part */
#define GL_SHADOWMAP_OFFSET_UNITS 4.0f      /* ... and constant part, in units of the depth's resolution */
#define GL_SHADOWMAP_SPHERE_MARGIN 1.001    /* the bounding sphere widened for rounding */

/* ---- The light's frustum (no GL) --------------------------------------------------------------- */

/* The light's view for the depth pass: from the point light at `light`, aimed at the sphere (center,
 * radius), the square frustum that holds it (the top of the file), with conventional depth for
 * glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE): clip z = proj[2] w + proj[3], depth 0 at the near
 * plane d - radius and 1 at the far plane d + radius. 0, or -1 when the light is inside the sphere
 * (*distance says where it is). */
static int gl_shadowmap_light_view(const float light[3], const float center[3], double radius, peer_gl_view *v,
                                   double *distance)
{
    double fwd[3];
    for (int k = 0; k < 3; ++k) fwd[k] = (double)center[k] - (double)light[k];
    const double d = sqrt(peer_gl_dot(fwd, fwd));
    *distance = d;
    if (!(d > radius * 1.0000001) || !(radius > 0.0)) return -1;
    /* Up: the world axis least along the view, so the basis is well conditioned. */
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if (fabs(fwd[k]) < fabs(fwd[axis])) axis = k;
    sc_camera_desc c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k < 3; ++k) {
        c.eye[k] = light[k];
        c.target[k] = center[k];
    }
    c.up[axis] = 1.0f;
    const double tan_half = radius / sqrt(d * d - radius * radius);
    const double n = d - radius, f = d + radius;
    c.fovy = (float)(2.0 * atan(tan_half));
    c.near_plane = (float)n;
    c.far_plane = (float)f;
    if (!peer_gl_view_of(&c, 1, 1, v)) return -1;
    v->proj[0] = v->proj[1] = (float)(1.0 / tan_half);
    v->proj[2] = (float)(f / (f - n));
    v->proj[3] = (float)(-n * f / (f - n));
    return 0;
}

/* ---- The GL shadow mapper ---------------------------------------------------------------------- */

/* A view's uniforms in one program. */
typedef struct gl_shadowmap_view_uniforms {
    GLint eye, right, up, forward, proj;
} gl_shadowmap_view_uniforms;

/* GL objects of one target size, map size and mesh; names 0 where not created. */
typedef struct gl_shadowmap {
    uint32_t width, height, map_size, vertices, triangles;
    GLuint depth_program, camera_program, vao, vbo, ibo;
    GLuint map, map_fbo;                 /* the depth map (a texture) and its framebuffer */
    GLuint decisions, depth, fbo;        /* the camera pass's R8UI decisions and float depth */
    gl_shadowmap_view_uniforms u_light;  /* the depth pass's view: the light */
    gl_shadowmap_view_uniforms u_camera, u_camera_light; /* the camera pass's: the camera, the light */
} gl_shadowmap;

/* A view as the ray caster's (peer_gl_view.h) in either pass. */
#define GL_SHADOWMAP_VIEW_GLSL(prefix) \
    "uniform vec3 " prefix "eye, " prefix "right, " prefix "up, " prefix "forward;\n" \
    "uniform vec4 " prefix "proj;\n"
#define GL_SHADOWMAP_CLIP_GLSL \
    "vec4 clip_of(vec3 p, vec3 eye, vec3 right, vec3 up, vec3 forward, vec4 proj) {\n" \
    "    vec3 d = p - eye;\n" \
    "    float w = dot(d, forward);\n" \
    "    return vec4(proj.x * dot(d, right), proj.y * dot(d, up), proj.z * w + proj.w, w);\n" \
    "}\n"

static const char *const k_depth_vert =
    "#version 450 core\n"
    "layout(location = 0) in vec3 position;\n"
    GL_SHADOWMAP_VIEW_GLSL("")
    GL_SHADOWMAP_CLIP_GLSL
    "void main() { gl_Position = clip_of(position, eye, right, up, forward, proj); }\n";

static const char *const k_depth_frag =
    "#version 450 core\n"
    "void main() {} // depth only\n";

static const char *const k_camera_vert =
    "#version 450 core\n"
    "layout(location = 0) in vec3 position;\n"
    GL_SHADOWMAP_VIEW_GLSL("")
    GL_SHADOWMAP_VIEW_GLSL("light_")
    GL_SHADOWMAP_CLIP_GLSL
    "out vec4 light_clip;\n"
    "void main() {\n"
    "    gl_Position = clip_of(position, eye, right, up, forward, proj);\n"
    "    light_clip = clip_of(position, light_eye, light_right, light_up, light_forward, light_proj);\n"
    "}\n";

/* The map's texel at the fragment's light-space position, compared with its light depth (1: lit). */
static const char *const k_camera_frag =
    "#version 450 core\n"
    "in vec4 light_clip;\n"
    "layout(binding = 0) uniform sampler2DShadow shadow_map;\n"
    "layout(location = 0) out uint decision;\n"
    "void main() {\n"
    "    vec3 ndc = light_clip.xyz / light_clip.w; // depth 0 .. 1: glClipControl ZERO_TO_ONE\n"
    "    float lit = texture(shadow_map, vec3(0.5 * ndc.xy + 0.5, ndc.z));\n"
    "    decision = lit > 0.5 ? 0u : 1u; // BENCH_LIT, BENCH_SHADOWED\n"
    "}\n";

static const float k_map_clear = 1.0f;    /* conventional depth: the far plane */
static const float k_camera_clear = 0.0f; /* reversed Z: the far plane */

/* Deletes what exists of g (its context current); g is zero afterwards. */
static void gl_shadowmap_destroy(gl_shadowmap *g)
{
    if (g->fbo) glDeleteFramebuffers(1, &g->fbo);
    if (g->decisions) glDeleteRenderbuffers(1, &g->decisions);
    if (g->depth) glDeleteRenderbuffers(1, &g->depth);
    if (g->map_fbo) glDeleteFramebuffers(1, &g->map_fbo);
    if (g->map) glDeleteTextures(1, &g->map);
    if (g->vao) glDeleteVertexArrays(1, &g->vao);
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    if (g->ibo) glDeleteBuffers(1, &g->ibo);
    if (g->depth_program) glDeleteProgram(g->depth_program);
    if (g->camera_program) glDeleteProgram(g->camera_program);
    (void)glGetError(); /* nothing left to report on the way out */
    memset(g, 0, sizeof *g);
}

/* The locations of a view's uniforms ("<prefix>eye", ...); every one is used, so none may be missing. */
static sc_status gl_shadowmap_view_locations(GLuint program, const char *prefix, gl_shadowmap_view_uniforms *u)
{
    static const char *const names[5] = {"eye", "right", "up", "forward", "proj"};
    GLint *const locs[5] = {&u->eye, &u->right, &u->up, &u->forward, &u->proj};
    for (int i = 0; i < 5; ++i) {
        char name[32];
        snprintf(name, sizeof name, "%s%s", prefix, names[i]);
        SC_GL(*locs[i] = glGetUniformLocation(program, name));
        if (*locs[i] < 0) return SC_FAIL(SC_ERROR_GL, "gl_shadowmap: a program has no uniform \"%s\"", name);
    }
    return SC_OK;
}

static sc_status gl_shadowmap_programs(gl_shadowmap *g)
{
    SC_TRY(sc_gl_program_create(k_depth_vert, "gl_shadowmap_depth.vert", k_depth_frag, "gl_shadowmap_depth.frag",
                                &g->depth_program));
    SC_TRY(sc_gl_program_create(k_camera_vert, "gl_shadowmap_camera.vert", k_camera_frag,
                                "gl_shadowmap_camera.frag", &g->camera_program));
    SC_TRY(gl_shadowmap_view_locations(g->depth_program, "", &g->u_light));
    SC_TRY(gl_shadowmap_view_locations(g->camera_program, "", &g->u_camera));
    return gl_shadowmap_view_locations(g->camera_program, "light_", &g->u_camera_light);
}

/* The vertex array: positions (3 floats a vertex, written every frame, by CUDA in the peer) and the
 * mesh's triangles (uploaded once). Never a zero-size buffer, which CUDA cannot register. */
static sc_status gl_shadowmap_buffers(gl_shadowmap *g, const sc_mesh *mesh)
{
    const GLsizeiptr vertices = mesh->vertex_count ? mesh->vertex_count : 1;
    const GLsizeiptr triangles = mesh->triangle_count ? mesh->triangle_count : 1;
    SC_GL(glGenVertexArrays(1, &g->vao));
    SC_GL(glBindVertexArray(g->vao));
    SC_GL(glGenBuffers(1, &g->vbo));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, g->vbo));
    SC_GL(glBufferData(GL_ARRAY_BUFFER, vertices * 3 * (GLsizeiptr)sizeof(float), NULL, GL_DYNAMIC_DRAW));
    SC_GL(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (const void *)0));
    SC_GL(glEnableVertexAttribArray(0));
    SC_GL(glGenBuffers(1, &g->ibo));
    SC_GL(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo));
    SC_GL(glBufferData(GL_ELEMENT_ARRAY_BUFFER, triangles * 3 * (GLsizeiptr)sizeof(GLuint),
                       mesh->triangle_count ? mesh->indices : NULL, GL_STATIC_DRAW));
    SC_GL(glBindVertexArray(0));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return SC_OK;
}

/* A framebuffer's completeness, or SC_ERROR_GL naming it. */
static sc_status gl_shadowmap_complete(const char *what, uint32_t w, uint32_t h)
{
    GLenum status = GL_FRAMEBUFFER_COMPLETE;
    SC_GL(status = glCheckFramebufferStatus(GL_FRAMEBUFFER));
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return SC_FAIL(SC_ERROR_GL, "gl_shadowmap: the %s framebuffer (%ux%u) is incomplete: 0x%04x", what, w, h, status);
    return SC_OK;
}

/* The depth map: a float depth texture sampled as a shadow sampler, one texel a lookup (GL_NEAREST:
 * no PCF), outside the map lit (border depth 1). */
static sc_status gl_shadowmap_map(gl_shadowmap *g)
{
    static const float border[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const GLsizei n = (GLsizei)g->map_size;
    SC_GL(glGenTextures(1, &g->map));
    SC_GL(glBindTexture(GL_TEXTURE_2D, g->map));
    SC_GL(glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, n, n));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER));
    SC_GL(glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL));
    SC_GL(glBindTexture(GL_TEXTURE_2D, 0));
    SC_GL(glGenFramebuffers(1, &g->map_fbo));
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->map_fbo));
    SC_GL(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, g->map, 0));
    SC_GL(glDrawBuffer(GL_NONE));
    SC_GL(glReadBuffer(GL_NONE));
    return gl_shadowmap_complete("DEPTH_COMPONENT32F depth map", g->map_size, g->map_size);
}

/* The camera pass's target: decisions (R8UI) and a 32-bit float depth buffer, one sample a pixel. */
static sc_status gl_shadowmap_target(gl_shadowmap *g)
{
    SC_GL(glGenRenderbuffers(1, &g->decisions));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, g->decisions));
    SC_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_R8UI, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glGenRenderbuffers(1, &g->depth));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, g->depth));
    SC_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, 0));
    SC_GL(glGenFramebuffers(1, &g->fbo));
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->fbo));
    SC_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->decisions));
    SC_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g->depth));
    return gl_shadowmap_complete("R8UI + DEPTH_COMPONENT32F camera", g->width, g->height);
}

/* The shadow mapper of `mesh` (host: its triangles are uploaded, its positions are not) on a width x
 * height target with a map_size^2 depth map, in the current context. On failure what was made is
 * deleted and *g is zero. */
static sc_status gl_shadowmap_create(gl_shadowmap *g, uint32_t width, uint32_t height, uint32_t map_size,
                                     const sc_mesh *mesh)
{
    memset(g, 0, sizeof *g);
    if (width == 0 || height == 0 || width > INT_MAX || height > INT_MAX || map_size == 0 || map_size > INT_MAX)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl_shadowmap: target %ux%u with a %u^2 map is not drawable", width,
                       height, map_size);
    if ((uint64_t)mesh->triangle_count * 3 > (uint64_t)INT_MAX)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl_shadowmap: %u triangles are more than one glDrawElements draws",
                       mesh->triangle_count);
    GLint max_texture = 0;
    SC_GL(glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture));
    if ((GLint)map_size > max_texture)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "gl_shadowmap: a %u^2 depth map is over this GL's texture limit %d",
                       map_size, max_texture);
    g->width = width;
    g->height = height;
    g->map_size = map_size;
    g->vertices = mesh->vertex_count;
    g->triangles = mesh->triangle_count;
    sc_status s = gl_shadowmap_programs(g);
    if (s == SC_OK) s = gl_shadowmap_buffers(g, mesh);
    if (s == SC_OK) s = gl_shadowmap_map(g);
    if (s == SC_OK) s = gl_shadowmap_target(g);
    if (s != SC_OK) gl_shadowmap_destroy(g);
    return s;
}

static sc_status gl_shadowmap_set_view(GLuint program, const gl_shadowmap_view_uniforms *u, const peer_gl_view *v)
{
    SC_GL(glUseProgram(program));
    SC_GL(glUniform3fv(u->eye, 1, v->eye));
    SC_GL(glUniform3fv(u->right, 1, v->right));
    SC_GL(glUniform3fv(u->up, 1, v->up));
    SC_GL(glUniform3fv(u->forward, 1, v->forward));
    SC_GL(glUniform4fv(u->proj, 1, v->proj));
    return SC_OK;
}

/* The camera's view (peer_gl_view_of) and the light's (gl_shadowmap_light_view). */
static sc_status gl_shadowmap_set_views(gl_shadowmap *g, const peer_gl_view *camera, const peer_gl_view *light)
{
    SC_TRY(gl_shadowmap_set_view(g->depth_program, &g->u_light, light));
    SC_TRY(gl_shadowmap_set_view(g->camera_program, &g->u_camera, camera));
    return gl_shadowmap_set_view(g->camera_program, &g->u_camera_light, light);
}

/* The depth pass: clear the map and draw every triangle from the light, biased; with a query
 * (nonzero), GL_TIME_ELAPSED around exactly the clear and the draw. */
static sc_status gl_shadowmap_depth_pass(const gl_shadowmap *g, GLuint query)
{
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->map_fbo));
    SC_GL(glViewport(0, 0, (GLsizei)g->map_size, (GLsizei)g->map_size));
    SC_GL(glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE));
    SC_GL(glEnable(GL_DEPTH_TEST));
    SC_GL(glDepthFunc(GL_LESS));
    SC_GL(glDepthMask(GL_TRUE));
    SC_GL(glDisable(GL_CULL_FACE));
    SC_GL(glDisable(GL_SCISSOR_TEST));
    SC_GL(glEnable(GL_POLYGON_OFFSET_FILL));
    SC_GL(glPolygonOffset(GL_SHADOWMAP_OFFSET_FACTOR, GL_SHADOWMAP_OFFSET_UNITS));
    SC_GL(glUseProgram(g->depth_program));
    SC_GL(glBindVertexArray(g->vao));
    if (query) SC_GL(glBeginQuery(GL_TIME_ELAPSED, query));
    SC_GL(glClearBufferfv(GL_DEPTH, 0, &k_map_clear));
    if (g->triangles)
        SC_GL(glDrawElements(GL_TRIANGLES, (GLsizei)(3 * g->triangles), GL_UNSIGNED_INT, (const void *)0));
    if (query) SC_GL(glEndQuery(GL_TIME_ELAPSED));
    SC_GL(glDisable(GL_POLYGON_OFFSET_FILL));
    SC_GL(glBindVertexArray(0));
    return SC_OK;
}

/* The camera pass: clear (decisions BENCH_NO_HIT, depth far) and draw every triangle from the camera,
 * each fragment looking the map up; with a query (nonzero), GL_TIME_ELAPSED around the clear and the
 * draw. */
static sc_status gl_shadowmap_camera_pass(const gl_shadowmap *g, GLuint query)
{
    static const GLuint no_hit[4] = {BENCH_NO_HIT, 0, 0, 0};
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->fbo));
    SC_GL(glViewport(0, 0, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE));
    SC_GL(glEnable(GL_DEPTH_TEST));
    SC_GL(glDepthFunc(GL_GREATER));
    SC_GL(glDepthMask(GL_TRUE));
    SC_GL(glDisable(GL_CULL_FACE));
    SC_GL(glDisable(GL_SCISSOR_TEST));
    SC_GL(glDisable(GL_POLYGON_OFFSET_FILL));
    SC_GL(glUseProgram(g->camera_program));
    SC_GL(glActiveTexture(GL_TEXTURE0));
    SC_GL(glBindTexture(GL_TEXTURE_2D, g->map));
    SC_GL(glBindVertexArray(g->vao));
    if (query) SC_GL(glBeginQuery(GL_TIME_ELAPSED, query));
    SC_GL(glClearBufferuiv(GL_COLOR, 0, no_hit));
    SC_GL(glClearBufferfv(GL_DEPTH, 0, &k_camera_clear));
    if (g->triangles)
        SC_GL(glDrawElements(GL_TRIANGLES, (GLsizei)(3 * g->triangles), GL_UNSIGNED_INT, (const void *)0));
    if (query) SC_GL(glEndQuery(GL_TIME_ELAPSED));
    SC_GL(glBindVertexArray(0));
    SC_GL(glBindTexture(GL_TEXTURE_2D, 0));
    return SC_OK;
}

/* One frame from the positions in g->vbo: the depth pass, then the camera pass. */
static sc_status gl_shadowmap_draw(const gl_shadowmap *g, GLuint depth_query, GLuint camera_query)
{
    SC_TRY(gl_shadowmap_depth_pass(g, depth_query));
    return gl_shadowmap_camera_pass(g, camera_query);
}

/* The last frame's decisions, width x height bytes, row 0 at the bottom (as our shadow mask). */
static sc_status gl_shadowmap_read(const gl_shadowmap *g, uint8_t *decisions)
{
    SC_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo));
    SC_GL(glReadBuffer(GL_COLOR_ATTACHMENT0));
    SC_GL(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    SC_GL(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    SC_GL(glReadPixels(0, 0, (GLsizei)g->width, (GLsizei)g->height, GL_RED_INTEGER, GL_UNSIGNED_BYTE, decisions));
    SC_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    return SC_OK;
}

/* The sphere the map is fitted to: the framing's, widened by the deformation's reach. */
static double gl_shadowmap_sphere_radius(const bench_peer_scene *sc)
{
    return (double)sc->framing_radius * sc_deform_reach(&sc->deform) * GL_SHADOWMAP_SPHERE_MARGIN;
}

/* The scene's light view, or SC_ERROR_UNSUPPORTED saying why one map cannot hold the mesh. */
static sc_status gl_shadowmap_scene_light(const bench_peer_scene *sc, peer_gl_view *light)
{
    if (sc->light.type != SC_LIGHT_POINT)
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "gl-shadowmap: draws the shadow map of a point light, not of a "
                                             "directional one");
    const double radius = gl_shadowmap_sphere_radius(sc);
    double distance = 0.0;
    if (gl_shadowmap_light_view(sc->light.position, sc->framing_center, radius, light, &distance) != 0)
        return SC_FAIL(SC_ERROR_UNSUPPORTED,
                       "gl-shadowmap: the light is %.4g from the centre, inside the mesh's bounding sphere (radius "
                       "%.4g): one perspective shadow map cannot hold the mesh (a point light there needs six, a "
                       "cube map), which this peer does not draw",
                       distance, radius);
    return SC_OK;
}

#ifndef PEER_GL_SHADOWMAP_GL_ONLY
/* ---- The peer --------------------------------------------------------------------------------- */

/* What one run holds; zero where not made. peer_close releases it on every path. */
typedef struct peer_run {
    const bench_peer_scene *scene;
    peer_gl_interop x;                   /* the context, our renderer deforming, the registered buffer */
    gl_shadowmap map;
    GLuint *queries;                     /* GL_TIME_ELAPSED, two a timed frame: depth, camera pass */
    double *ms, *depth_ms, *camera_ms;   /* per frame: both passes, each pass */
    uint8_t *theirs, *ours;              /* the last frame's decisions, host */
    float *positions;                    /* the last frame's deformed positions, host (the sphere check) */
} peer_run;

/* The shadow mapper, its views, its vertex buffer registered with CUDA, the queries and host arrays. */
static sc_status peer_open_map(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    peer_gl_view camera, light;
    if (!peer_gl_view_of(&sc->camera, sc->width, sc->height, &camera))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl-shadowmap: the scene's camera has no view");
    SC_TRY(gl_shadowmap_scene_light(sc, &light));
    SC_TRY(gl_shadowmap_create(&run->map, sc->width, sc->height, GL_SHADOWMAP_SIZE, sc->mesh));
    SC_TRY(gl_shadowmap_set_views(&run->map, &camera, &light));
    SC_TRY(peer_gl_interop_register(&run->x, run->map.vbo));
    const size_t frames = (size_t)sc->frames, pixels = (size_t)sc->width * sc->height;
    run->queries = calloc(2 * frames, sizeof *run->queries);
    run->ms = calloc(frames, sizeof *run->ms);
    run->depth_ms = calloc(frames, sizeof *run->depth_ms);
    run->camera_ms = calloc(frames, sizeof *run->camera_ms);
    run->theirs = malloc(pixels);
    run->ours = malloc(pixels);
    run->positions = malloc(3 * sizeof(float) * (sc->mesh->vertex_count ? sc->mesh->vertex_count : 1));
    if (!run->queries || !run->ms || !run->depth_ms || !run->camera_ms || !run->theirs || !run->ours ||
        !run->positions)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "gl-shadowmap: out of host memory for %d frames of %ux%u", sc->frames,
                       sc->width, sc->height);
    SC_GL(glGenQueries((GLsizei)(2 * frames), run->queries));
    return SC_OK;
}

/* Warm-up frames at times[0], then the timed frames at their times: positions across, both passes. */
static sc_status peer_frames(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    for (int i = 0; i < sc->warmup; ++i) {
        SC_TRY(peer_gl_interop_positions(&run->x, sc->times[0]));
        SC_TRY(gl_shadowmap_draw(&run->map, 0, 0));
    }
    for (int i = 0; i < sc->frames; ++i) {
        SC_TRY(peer_gl_interop_positions(&run->x, sc->times[i]));
        SC_TRY(gl_shadowmap_draw(&run->map, run->queries[2 * i], run->queries[2 * i + 1]));
    }
    return SC_OK;
}

/* The last frame's deformed positions lie in the sphere the map was fitted to (else the map could
 * miss a caster): the vertices of triangles the renderer keeps (every vertex finite). */
static sc_status peer_check_sphere(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    const sc_mesh *m = sc->mesh;
    SC_TRY(sc_renderer_read_positions(run->x.renderer, run->positions));
    const double radius = gl_shadowmap_sphere_radius(sc);
    double worst = 0.0;
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
        const float *p[3];
        int finite = 1;
        for (int k = 0; k < 3; ++k) {
            p[k] = run->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
            finite = finite && isfinite(p[k][0]) && isfinite(p[k][1]) && isfinite(p[k][2]);
        }
        for (int k = 0; finite && k < 3; ++k) {
            double d2 = 0.0;
            for (int a = 0; a < 3; ++a) {
                const double e = (double)p[k][a] - (double)sc->framing_center[a];
                d2 += e * e;
            }
            if (d2 > worst) worst = d2;
        }
    }
    if (sqrt(worst) <= radius) return SC_OK;
    return SC_FAIL(SC_ERROR_INVALID_ARGUMENT,
                   "gl-shadowmap: a deformed vertex lies %.6g from the centre, outside the sphere of radius %.6g the "
                   "shadow map was fitted to: the map would miss casters",
                   sqrt(worst), radius);
}

/* --images: their decisions and the difference against ours, "<dir>/gl-shadowmap[-diff]-<#>.png". */
static sc_status peer_write_images(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    char path[4096], why[512];
    if (bench_image_path(path, sizeof path, sc->image_dir, "gl-shadowmap", sc->config_number) != 0 ||
        bench_decisions_png(path, sc->width, sc->height, run->theirs, why, sizeof why) != 0)
        return SC_FAIL(SC_ERROR_IO, "gl-shadowmap: --images: %s", why);
    if (bench_image_path(path, sizeof path, sc->image_dir, "gl-shadowmap-diff", sc->config_number) != 0 ||
        bench_decisions_diff_png(path, sc->width, sc->height, run->ours, run->theirs, why, sizeof why) != 0)
        return SC_FAIL(SC_ERROR_IO, "gl-shadowmap: --images: %s", why);
    return SC_OK;
}

/* After the last frame: the renderer's errors, the queries' times, the sphere, the decisions against
 * ours, the pictures. */
static sc_status peer_finish(peer_run *run, bench_peer_result *out)
{
    const bench_peer_scene *sc = run->scene;
    SC_TRY(peer_gl_interop_finish(&run->x));
    for (int i = 0; i < sc->frames; ++i) {
        GLuint64 depth_ns = 0, camera_ns = 0;
        SC_GL(glGetQueryObjectui64v(run->queries[2 * i], GL_QUERY_RESULT, &depth_ns));
        SC_GL(glGetQueryObjectui64v(run->queries[2 * i + 1], GL_QUERY_RESULT, &camera_ns));
        run->depth_ms[i] = (double)depth_ns * 1e-6;
        run->camera_ms[i] = (double)camera_ns * 1e-6;
        run->ms[i] = run->depth_ms[i] + run->camera_ms[i];
    }
    SC_TRY(peer_check_sphere(run));
    SC_TRY(gl_shadowmap_read(&run->map, run->theirs));
    bench_our_decisions(sc->our_hits, sc->our_shadows, (size_t)sc->width * sc->height, run->ours);
    bench_shadow_compare cmp;
    bench_shadow_compare_decisions(run->ours, run->theirs, sc->width, sc->height, &cmp);
    if (sc->image_dir) SC_TRY(peer_write_images(run));
    bench_peer_result depth, camera;
    bench_peer_set_times(run->depth_ms, (size_t)sc->frames, &depth);
    bench_peer_set_times(run->camera_ms, (size_t)sc->frames, &camera);
    bench_peer_set_times(run->ms, (size_t)sc->frames, out);
    out->agreement = cmp.agreement;
    snprintf(out->note, sizeof out->note, "GL timer queries, EGL device; depth + camera pass");
    snprintf(out->detail, sizeof out->detail,
             "depth pass %.4f ms + camera pass %.4f ms (medians); %u^2 map, polygon offset %.1f/%.0f, no PCF; of "
             "%llu pixels both hit %llu decide otherwise: %llu lit where ours is shadowed, %llu shadowed where "
             "ours is lit, %llu of them within %d px of our shadow edges",
             depth.median_ms, camera.median_ms, GL_SHADOWMAP_SIZE, (double)GL_SHADOWMAP_OFFSET_FACTOR,
             (double)GL_SHADOWMAP_OFFSET_UNITS, (unsigned long long)cmp.both_hit, (unsigned long long)cmp.differ,
             (unsigned long long)cmp.they_lit, (unsigned long long)cmp.they_shadowed,
             (unsigned long long)cmp.differ_at_edges, BENCH_EDGE_RADIUS);
    return SC_OK;
}

/* Releases what the run made: the CUDA side before GL deletes the buffer it wrote through, GL's
 * objects before their context. */
static void peer_close(peer_run *run)
{
    peer_gl_interop_release_cuda(&run->x);
    if (run->x.gl) {
        if (run->queries) glDeleteQueries((GLsizei)(2 * run->scene->frames), run->queries);
        gl_shadowmap_destroy(&run->map);
    }
    peer_gl_interop_close(&run->x);
    free(run->queries);
    free(run->ms);
    free(run->depth_ms);
    free(run->camera_ms);
    free(run->theirs);
    free(run->ours);
    free(run->positions);
    memset(run, 0, sizeof *run);
}

/* Scenes this peer does not do (shadows off, no shadow mask of ours, a light one map cannot hold):
 * SC_ERROR_UNSUPPORTED, skipped. */
static sc_status peer_check_shadow_scene(const bench_peer_scene *sc, int *skip)
{
    if (!sc->shadows || !sc->our_shadows) {
        *skip = 1;
        return SC_FAIL(SC_ERROR_UNSUPPORTED, "gl-shadowmap: compares shadows: this configuration has shadows off");
    }
    peer_gl_view light;
    const sc_status s = gl_shadowmap_scene_light(sc, &light);
    if (s != SC_OK) *skip = 1;
    return s;
}

static sc_status peer_steps(peer_run *run, bench_peer_result *out)
{
    SC_TRY(peer_gl_check_scene("gl-shadowmap", run->scene));
    int skip = 0;
    const sc_status s = peer_check_shadow_scene(run->scene, &skip);
    if (s != SC_OK) {
        run->x.skip = skip;
        return s;
    }
    SC_TRY(peer_gl_interop_open(&run->x, "gl-shadowmap", run->scene));
    SC_TRY(peer_open_map(run));
    SC_TRY(peer_frames(run));
    return peer_finish(run, out);
}

static int peer_gl_shadowmap_run(const bench_peer_scene *scene, bench_peer_result *out, char *why, size_t why_size)
{
    if (!out) return -1;
    memset(out, 0, sizeof *out);
    out->agreement = -1.0;
    peer_run run;
    memset(&run, 0, sizeof run);
    run.scene = scene;
    const sc_status s = peer_steps(&run, out);
    const int rc = s == SC_OK ? 0 : run.x.skip ? 77 : -1;
    if (rc != 0 && why && why_size) snprintf(why, why_size, "%s", sc_last_error());
    peer_close(&run);
    if (rc != 0) {
        memset(out, 0, sizeof *out);
        out->agreement = -1.0;
    }
    return rc;
}

const bench_peer bench_peer_gl_shadowmap = {
    "gl-shadowmap",
    "OpenGL shadow mapping of the same deformed mesh from the same point light (4096^2 depth map, slope-scaled "
    "bias, no PCF), its shadow decisions compared with ours",
    peer_gl_shadowmap_run,
    1,
};
#endif /* PEER_GL_SHADOWMAP_GL_ONLY */
