/* display_gl.c - pixel buffer, texture and the full-screen display pass. */
#include <glad/gl.h>
#include <stdlib.h>

#include "display_internal.h"
#include "sc_gl.h"
#include "sc_report.h"

extern const char sc_shader_display_vert[];
extern const char sc_shader_display_frag[];

static sc_status build_program(sc_display *d)
{
    GLuint p = 0;
    SC_TRY(sc_gl_program_create(sc_shader_display_vert, "shaders/display.vert", sc_shader_display_frag,
                                "shaders/display.frag", &p));
    d->program = p;
    d->loc_image_size = glGetUniformLocation(p, "u_image_size");
    d->loc_viewport_size = glGetUniformLocation(p, "u_viewport_size");
    SC_GL(glUseProgram(p));
    SC_GL(glUniform1i(glGetUniformLocation(p, "u_image"), 0));
    SC_GL(glUseProgram(0));
    return SC_OK;
}

/* A positive size whose RGBA8 image fits a size_t and a GLsizeiptr; its bytes in *bytes. */
static sc_status check_size(const char *call, int width, int height, size_t *bytes)
{
    if (width <= 0 || height <= 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: image size %dx%d is not positive", call, width, height);
    if (!sc_display_image_bytes(width, height, bytes))
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "%s: image size %dx%d is too large (its RGBA8 bytes overflow)",
                       call, width, height);
    return SC_OK;
}

static sc_status check_desc(const sc_display_desc *desc, size_t *bytes)
{
    if (!desc) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_create: desc is NULL");
    SC_TRY(check_size("sc_display_create", desc->width, desc->height, bytes));
    int path = (int)desc->cuda_path; /* the enum's type may be unsigned */
    if (path < SC_DISPLAY_CUDA_AUTO || path > SC_DISPLAY_CUDA_COPY)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_create: cuda_path %d is not an sc_display_cuda_path",
                       path);
    return SC_OK;
}

static sc_status allocate_images(sc_display *d)
{
    d->texture_current = 0;
    SC_GL(glGenBuffers(1, &d->pbo));
    SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, d->pbo));
    /* Immutable storage the host may only fill through glBufferSubData: the driver keeps it in GPU
     * memory, so CUDA writes it and the texture copy reads it there (a mutable GL_STREAM_DRAW buffer
     * was placed in host memory: every frame crossed PCIe twice). */
    SC_GL(glBufferStorage(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)d->image_bytes, NULL, GL_DYNAMIC_STORAGE_BIT));
    SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    SC_GL(glGenTextures(1, &d->texture));
    SC_GL(glBindTexture(GL_TEXTURE_2D, d->texture));
    SC_GL(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, d->width, d->height));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE));
    SC_GL(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));
    SC_GL(glBindTexture(GL_TEXTURE_2D, 0));
    if (d->cuda_interop) SC_TRY(sc_display_cuda_attach(d));
    return SC_OK;
}

static void release_images(sc_display *d)
{
    sc_display_cuda_release(d);
    if (d->texture) glDeleteTextures(1, &d->texture);
    if (d->pbo) glDeleteBuffers(1, &d->pbo);
    d->texture = d->pbo = 0;
}

sc_status sc_display_create(const sc_display_desc *desc, sc_display **out)
{
    if (!out) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_create: out_display is NULL");
    *out = NULL;
    size_t bytes = 0;
    SC_TRY(check_desc(desc, &bytes));
    if (!glCreateShader) return SC_FAIL(SC_ERROR_GL, "sc_display_create: no current OpenGL context with GL loaded");
    sc_display *d = calloc(1, sizeof *d);
    if (!d) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_display_create: out of host memory");
    d->width = desc->width;
    d->height = desc->height;
    d->image_bytes = bytes;
    d->cuda_interop = desc->cuda_interop;
    d->cuda_path = desc->cuda_path;
    d->path_in_use = desc->cuda_path == SC_DISPLAY_CUDA_COPY ? SC_DISPLAY_CUDA_COPY : SC_DISPLAY_CUDA_AUTO;
    sc_status st = build_program(d);
    if (st == SC_OK) {
        glGenVertexArrays(1, &d->vao);
        st = sc_gl_check("glGenVertexArrays", __FILE__, __LINE__);
    }
    if (st == SC_OK) st = allocate_images(d);
    if (st != SC_OK) { sc_display_destroy(d); return st; }
    *out = d;
    return SC_OK;
}

void sc_display_destroy(sc_display *d)
{
    if (!d) return;
    release_images(d);
    if (d->vao) glDeleteVertexArrays(1, &d->vao);
    if (d->program) glDeleteProgram(d->program);
    free(d);
}

sc_status sc_display_resize(sc_display *d, int width, int height)
{
    if (!d) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_resize: display is NULL");
    size_t bytes = 0;
    SC_TRY(check_size("sc_display_resize", width, height, &bytes));
    if (d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_resize: buffer is mapped for CUDA");
    if (width == d->width && height == d->height) return SC_OK;
    release_images(d);
    d->width = width;
    d->height = height;
    d->image_bytes = bytes;
    return allocate_images(d);
}

void sc_display_size(const sc_display *d, int *width, int *height)
{
    if (width) *width = d ? d->width : 0;
    if (height) *height = d ? d->height : 0;
}

unsigned sc_display_pixel_buffer(const sc_display *d) { return d ? d->pbo : 0; }

sc_display_cuda_path sc_display_cuda_path_in_use(const sc_display *d)
{
    return d && d->cuda_interop ? d->path_in_use : SC_DISPLAY_CUDA_AUTO;
}

const char *sc_display_notice(const sc_display *d) { return d && d->notice[0] ? d->notice : NULL; }

sc_status sc_display_upload(sc_display *d, const void *rgba)
{
    if (!d || !rgba) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_upload: display or image is NULL");
    if (d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_upload: buffer is mapped for CUDA");
    SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, d->pbo));
    SC_GL(glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)d->image_bytes, rgba));
    SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    d->texture_current = 0;
    return SC_OK;
}

sc_status sc_display_draw(sc_display *d, int viewport_width, int viewport_height)
{
    if (!d || viewport_width <= 0 || viewport_height <= 0)
        return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_draw: bad display or viewport %dx%d", viewport_width,
                       viewport_height);
    if (d->cuda_mapped) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_display_draw: buffer is still mapped for CUDA");
    SC_GL(glBindTexture(GL_TEXTURE_2D, d->texture));
    if (!d->texture_current) { /* the frame is in the pixel buffer (host upload, copy path) */
        SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, d->pbo));
        SC_GL(glPixelStorei(GL_UNPACK_ALIGNMENT, 4));
        SC_GL(glPixelStorei(GL_UNPACK_ROW_LENGTH, 0));
        SC_GL(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, d->width, d->height, GL_RGBA, GL_UNSIGNED_BYTE,
                              (const void *)0));
        SC_GL(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
        d->texture_current = 1;
    }
    SC_GL(glViewport(0, 0, viewport_width, viewport_height));
    SC_GL(glDisable(GL_DEPTH_TEST));
    SC_GL(glDisable(GL_BLEND));
    SC_GL(glUseProgram(d->program));
    SC_GL(glUniform2i(d->loc_image_size, d->width, d->height));
    SC_GL(glUniform2i(d->loc_viewport_size, viewport_width, viewport_height));
    SC_GL(glActiveTexture(GL_TEXTURE0));
    SC_GL(glBindVertexArray(d->vao));
    SC_GL(glDrawArrays(GL_TRIANGLES, 0, 3));
    SC_GL(glBindVertexArray(0));
    SC_GL(glUseProgram(0));
    return SC_OK;
}
