/* display_test_util.h - shared by the display tests: an offscreen framebuffer and a read-back. */
#ifndef DISPLAY_TEST_UTIL_H
#define DISPLAY_TEST_UTIL_H

#include <glad/gl.h>
#include <stdint.h>

typedef struct offscreen { GLuint fbo, color; int w, h; } offscreen;

static inline int offscreen_create(offscreen *o, int w, int h)
{
    o->w = w;
    o->h = h;
    glGenTextures(1, &o->color);
    glBindTexture(GL_TEXTURE_2D, o->color);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    glGenFramebuffers(1, &o->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, o->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, o->color, 0);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

/* Reads the framebuffer into `rgba`, row 0 at the bottom (GL's and the renderer's convention). */
static inline void offscreen_read(const offscreen *o, uint32_t *rgba)
{
    glBindFramebuffer(GL_FRAMEBUFFER, o->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, o->w, o->h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

static inline void offscreen_destroy(offscreen *o)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &o->fbo);
    glDeleteTextures(1, &o->color);
}

static inline uint32_t display_test_pattern(uint32_t x, uint32_t y)
{
    uint32_t h = (x * 73856093u) ^ (y * 19349663u);
    return (h & 0x00ffffffu) | 0xff000000u; /* opaque */
}

#endif
