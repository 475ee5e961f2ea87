/* peer_gl_raster.c - the gl-raster peer of slabcast-bench: OpenGL hardware rasterisation of
 * the same deformed mesh, timed beside our ray caster.
 *
 * Every frame our CUDA renderer deforms the mesh and its positions go device to device into a GL
 * vertex buffer mapped into CUDA (peer_gl_interop.h): they never visit the host. GL draws the mesh's
 * triangles (index buffer uploaded once) with a depth test into an R32UI target that holds each
 * pixel's triangle id (gl_PrimitiveID; SC_NO_HIT where nothing is drawn). Only the clear and the draw
 * are timed, with a GL_TIME_ELAPSED query each (GPU time; the host waits for the frame's CUDA work
 * before issuing them, so no wait for CUDA falls inside the query), over the scene's timed frames
 * after its warm-up frames; median, p95 and max as the bench's own quantiles (bench_peer_set_times).
 * After the last frame the ids are read back and compared with our hits.
 *
 * The projection is the ray caster's (peer_gl_view.h), so a triangle covers the pixels whose rays hit
 * it, with reversed Z in a 32-bit float depth buffer. The depth test is strict: at equal depth the
 * triangle drawn first, the lower id, stays, which is our tie rule.
 * Not matched: pixels on a shared edge (GL's top-left rule against the watertight ray test), depth
 * rounding between nearly coincident surfaces, triangles with a non-finite vertex (we drop them; GL's
 * result is undefined).
 *
 * Two parts: the GL rasteriser (gl_raster_*: GL only, any GL 4.5 context), which tests also build on
 * its own with PEER_GL_RASTER_GL_ONLY (tests/bench draw the CPU backend's positions with it on Mesa),
 * and the peer (CUDA and GL). */
#include <glad/gl.h>
#ifndef PEER_GL_RASTER_GL_ONLY
#include "peer_gl_interop.h"
#endif

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_peer.h"
#include "peer_gl_view.h"
#include "sc_gl.h"
#include "sc_mesh.h"
#include "sc_report.h"
#include "slabcast.h"

/* ---- The GL rasteriser ------------------------------------------------------------------------ */

/* GL objects of one target size and mesh; names 0 where not created. */
typedef struct gl_raster {
    uint32_t width, height, vertices, triangles;
    GLuint program, vao, vbo, ibo, fbo, ids, depth;
    GLint u_eye, u_right, u_up, u_forward, u_proj;
} gl_raster;

static const char *const k_gl_raster_vert =
    "#version 450 core\n"
    "layout(location = 0) in vec3 position;\n"
    "uniform vec3 eye, right, up, forward;\n"
    "uniform vec4 proj; // proj_x, proj_y, depth scale, depth offset\n"
    "void main() {\n"
    "    vec3 d = position - eye;\n"
    "    float w = dot(d, forward); // view depth: the ray caster's t\n"
    "    gl_Position = vec4(proj.x * dot(d, right), proj.y * dot(d, up), proj.z * w + proj.w, w);\n"
    "}\n";

static const char *const k_gl_raster_frag =
    "#version 450 core\n"
    "layout(location = 0) out uint id;\n"
    "void main() { id = uint(gl_PrimitiveID); } // the triangle's index in the draw: its id\n";

static const float k_gl_raster_far_depth = 0.0f; /* reversed Z: the far plane's depth */

/* Deletes what exists of g (its context current); g is zero afterwards. */
static void gl_raster_destroy(gl_raster *g)
{
    if (g->fbo) glDeleteFramebuffers(1, &g->fbo);
    if (g->ids) glDeleteRenderbuffers(1, &g->ids);
    if (g->depth) glDeleteRenderbuffers(1, &g->depth);
    if (g->vao) glDeleteVertexArrays(1, &g->vao);
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    if (g->ibo) glDeleteBuffers(1, &g->ibo);
    if (g->program) glDeleteProgram(g->program);
    (void)glGetError(); /* nothing left to report on the way out */
    memset(g, 0, sizeof *g);
}

/* The program and its uniforms' locations (every one is used, so none may be missing). */
static sc_status gl_raster_program(gl_raster *g)
{
    SC_TRY(sc_gl_program_create(k_gl_raster_vert, "gl_raster.vert", k_gl_raster_frag, "gl_raster.frag", &g->program));
    static const char *const names[5] = {"eye", "right", "up", "forward", "proj"};
    GLint *const locs[5] = {&g->u_eye, &g->u_right, &g->u_up, &g->u_forward, &g->u_proj};
    for (int i = 0; i < 5; ++i) {
        SC_GL(*locs[i] = glGetUniformLocation(g->program, names[i]));
        if (*locs[i] < 0) return SC_FAIL(SC_ERROR_GL, "gl_raster: the program has no uniform \"%s\"", names[i]);
    }
    return SC_OK;
}

/* The vertex array: positions (3 floats a vertex, written every frame, by CUDA in the peer) and the
 * mesh's triangles (uploaded once). Never a zero-size buffer, which CUDA cannot register. */
static sc_status gl_raster_buffers(gl_raster *g, const sc_mesh *mesh)
{
    const GLsizeiptr vertices = mesh->vertex_count ? mesh->vertex_count : 1;
    const GLsizeiptr triangles = mesh->triangle_count ? mesh->triangle_count : 1;
    const GLsizeiptr vbytes = vertices * 3 * (GLsizeiptr)sizeof(float);
    const GLsizeiptr ibytes = triangles * 3 * (GLsizeiptr)sizeof(GLuint);
    SC_GL(glGenVertexArrays(1, &g->vao));
    SC_GL(glBindVertexArray(g->vao));
    SC_GL(glGenBuffers(1, &g->vbo));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, g->vbo));
    SC_GL(glBufferData(GL_ARRAY_BUFFER, vbytes, NULL, GL_DYNAMIC_DRAW));
    SC_GL(glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (const void *)0));
    SC_GL(glEnableVertexAttribArray(0));
    SC_GL(glGenBuffers(1, &g->ibo));
    SC_GL(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo));
    SC_GL(glBufferData(GL_ELEMENT_ARRAY_BUFFER, ibytes, mesh->triangle_count ? mesh->indices : NULL, GL_STATIC_DRAW));
    SC_GL(glBindVertexArray(0));
    SC_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
    return SC_OK;
}

/* The target: triangle ids (R32UI) and a 32-bit float depth buffer, one sample a pixel. */
static sc_status gl_raster_target(gl_raster *g)
{
    SC_GL(glGenRenderbuffers(1, &g->ids));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, g->ids));
    SC_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_R32UI, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glGenRenderbuffers(1, &g->depth));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, g->depth));
    SC_GL(glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glBindRenderbuffer(GL_RENDERBUFFER, 0));
    SC_GL(glGenFramebuffers(1, &g->fbo));
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->fbo));
    SC_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->ids));
    SC_GL(glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g->depth));
    GLenum status = GL_FRAMEBUFFER_COMPLETE;
    SC_GL(status = glCheckFramebufferStatus(GL_FRAMEBUFFER));
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return SC_FAIL(SC_ERROR_GL,
                       "gl_raster: the R32UI + DEPTH_COMPONENT32F framebuffer (%ux%u) is incomplete: 0x%04x",
                       g->width, g->height, status);
    return SC_OK;
}

/* The rasteriser of `mesh` (host: its triangles are uploaded, its positions are not) on a width x
 * height target, in the current context. On failure what was made is deleted and *g is zero. */
static sc_status gl_raster_create(gl_raster *g, uint32_t width, uint32_t height, const sc_mesh *mesh)
{
    memset(g, 0, sizeof *g);
    if (width == 0 || height == 0 || width > INT_MAX || height > INT_MAX)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl_raster: target size %ux%u is not drawable", width, height);
    if ((uint64_t)mesh->triangle_count * 3 > (uint64_t)INT_MAX)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl_raster: %u triangles are more than one glDrawElements draws",
                       mesh->triangle_count);
    g->width = width;
    g->height = height;
    g->vertices = mesh->vertex_count;
    g->triangles = mesh->triangle_count;
    sc_status s = gl_raster_program(g);
    if (s == SC_OK) s = gl_raster_buffers(g, mesh);
    if (s == SC_OK) s = gl_raster_target(g);
    if (s != SC_OK) gl_raster_destroy(g);
    return s;
}

static sc_status gl_raster_set_view(gl_raster *g, const peer_gl_view *v)
{
    SC_GL(glUseProgram(g->program));
    SC_GL(glUniform3fv(g->u_eye, 1, v->eye));
    SC_GL(glUniform3fv(g->u_right, 1, v->right));
    SC_GL(glUniform3fv(g->u_up, 1, v->up));
    SC_GL(glUniform3fv(g->u_forward, 1, v->forward));
    SC_GL(glUniform4fv(g->u_proj, 1, v->proj));
    return SC_OK;
}

/* The state of the draw: reversed Z (peer_gl_view.h), no culling (the renderer's default),
 * the program and the mesh. */
static sc_status gl_raster_bind(const gl_raster *g)
{
    SC_GL(glBindFramebuffer(GL_FRAMEBUFFER, g->fbo));
    SC_GL(glViewport(0, 0, (GLsizei)g->width, (GLsizei)g->height));
    SC_GL(glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE));
    SC_GL(glEnable(GL_DEPTH_TEST));
    SC_GL(glDepthFunc(GL_GREATER));
    SC_GL(glDepthMask(GL_TRUE));
    SC_GL(glDisable(GL_CULL_FACE));
    SC_GL(glDisable(GL_SCISSOR_TEST));
    SC_GL(glUseProgram(g->program));
    SC_GL(glBindVertexArray(g->vao));
    return SC_OK;
}

/* One frame from the positions in g->vbo: clear (ids SC_NO_HIT, depth far) and draw every triangle;
 * with a query (nonzero), GL_TIME_ELAPSED around exactly the clear and the draw. */
static sc_status gl_raster_draw(const gl_raster *g, GLuint query)
{
    static const GLuint no_hit[4] = {SC_NO_HIT, 0, 0, 0};
    SC_TRY(gl_raster_bind(g));
    if (query) SC_GL(glBeginQuery(GL_TIME_ELAPSED, query));
    SC_GL(glClearBufferuiv(GL_COLOR, 0, no_hit));
    SC_GL(glClearBufferfv(GL_DEPTH, 0, &k_gl_raster_far_depth));
    if (g->triangles)
        SC_GL(glDrawElements(GL_TRIANGLES, (GLsizei)(3 * g->triangles), GL_UNSIGNED_INT, (const void *)0));
    if (query) SC_GL(glEndQuery(GL_TIME_ELAPSED));
    SC_GL(glBindVertexArray(0));
    return SC_OK;
}

/* The last frame's ids, width x height, row 0 at the bottom (as our hit buffer). */
static sc_status gl_raster_read_ids(const gl_raster *g, uint32_t *ids)
{
    SC_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo));
    SC_GL(glReadBuffer(GL_COLOR_ATTACHMENT0));
    SC_GL(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    SC_GL(glPixelStorei(GL_PACK_ALIGNMENT, 4));
    SC_GL(glReadPixels(0, 0, (GLsizei)g->width, (GLsizei)g->height, GL_RED_INTEGER, GL_UNSIGNED_INT, ids));
    SC_GL(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    return SC_OK;
}

#ifndef PEER_GL_RASTER_GL_ONLY
/* ---- The peer --------------------------------------------------------------------------------- */

/* What one run holds; zero where not made. peer_close releases it on every path. */
typedef struct peer_run {
    const bench_peer_scene *scene;
    peer_gl_interop x;                   /* the context, our renderer deforming, the registered buffer */
    gl_raster raster;
    GLuint *queries;                     /* GL_TIME_ELAPSED, one a timed frame */
    double *ms;                          /* their results */
    uint32_t *ids;                       /* the last frame's ids, host */
} peer_run;

/* The rasteriser, its view, its vertex buffer registered with CUDA, the queries and host arrays. */
static sc_status peer_open_raster(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    SC_TRY(gl_raster_create(&run->raster, sc->width, sc->height, sc->mesh));
    peer_gl_view view;
    if (!peer_gl_view_of(&sc->camera, sc->width, sc->height, &view))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "gl-raster: the scene's camera has no view");
    SC_TRY(gl_raster_set_view(&run->raster, &view));
    SC_TRY(peer_gl_interop_register(&run->x, run->raster.vbo));
    run->queries = calloc((size_t)sc->frames, sizeof *run->queries);
    run->ms = calloc((size_t)sc->frames, sizeof *run->ms);
    run->ids = malloc((size_t)sc->width * sc->height * sizeof *run->ids);
    if (!run->queries || !run->ms || !run->ids)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "gl-raster: out of host memory for %d frames of %ux%u", sc->frames,
                       sc->width, sc->height);
    SC_GL(glGenQueries((GLsizei)sc->frames, run->queries));
    return SC_OK;
}

/* One frame: deform (our renderer; its image is not made), positions across, clear and draw. */
static sc_status peer_frame(peer_run *run, float time, GLuint query)
{
    SC_TRY(peer_gl_interop_positions(&run->x, time));
    return gl_raster_draw(&run->raster, query);
}

/* Warm-up frames at times[0], then the timed frames at their times. */
static sc_status peer_frames(peer_run *run)
{
    const bench_peer_scene *sc = run->scene;
    for (int i = 0; i < sc->warmup; ++i) SC_TRY(peer_frame(run, sc->times[0], 0));
    for (int i = 0; i < sc->frames; ++i) SC_TRY(peer_frame(run, sc->times[i], run->queries[i]));
    return SC_OK;
}

/* After the last frame: the renderer's errors (it waits for its frames), the queries' times, the
 * ids against ours. */
static sc_status peer_finish(peer_run *run, bench_peer_result *out)
{
    const bench_peer_scene *sc = run->scene;
    SC_TRY(peer_gl_interop_finish(&run->x));
    for (int i = 0; i < sc->frames; ++i) {
        GLuint64 ns = 0;
        SC_GL(glGetQueryObjectui64v(run->queries[i], GL_QUERY_RESULT, &ns));
        run->ms[i] = (double)ns * 1e-6;
    }
    SC_TRY(gl_raster_read_ids(&run->raster, run->ids));
    out->agreement = bench_peer_agreement_ids(sc->our_hits, run->ids, (size_t)sc->width * sc->height);
    bench_peer_set_times(run->ms, (size_t)sc->frames, out);
    snprintf(out->note, sizeof out->note, "GL timer queries, EGL device");
    return SC_OK;
}

/* Releases what the run made, in dependency order: the CUDA side (the renderer waits for its stream)
 * before GL deletes the buffer it wrote through, GL's objects before their context. */
static void peer_close(peer_run *run)
{
    peer_gl_interop_release_cuda(&run->x);
    if (run->x.gl) {
        if (run->queries) glDeleteQueries((GLsizei)run->scene->frames, run->queries);
        gl_raster_destroy(&run->raster);
    }
    peer_gl_interop_close(&run->x);
    free(run->queries);
    free(run->ms);
    free(run->ids);
    memset(run, 0, sizeof *run);
}

static sc_status peer_steps(peer_run *run, bench_peer_result *out)
{
    SC_TRY(peer_gl_check_scene("gl-raster", run->scene));
    SC_TRY(peer_gl_interop_open(&run->x, "gl-raster", run->scene));
    SC_TRY(peer_open_raster(run));
    SC_TRY(peer_frames(run));
    return peer_finish(run, out);
}

static int peer_gl_raster_run(const bench_peer_scene *scene, bench_peer_result *out, char *why, size_t why_size)
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

const bench_peer bench_peer_gl_raster = {
    "gl-raster",
    "OpenGL hardware rasterisation of the same deformed mesh: positions from our CUDA deformation through "
    "CUDA-GL interop, triangle ids by depth test",
    peer_gl_raster_run,
    0,
};
#endif /* PEER_GL_RASTER_GL_ONLY */
