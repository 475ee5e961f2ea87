/* sc_gl.h - OpenGL contexts for slabcast: a headless one through EGL (device platform first, which is
 * how the NVIDIA driver gives OpenGL with no display; Mesa's surfaceless platform second), used by the
 * headless renderer path, the GL tests and the hardware-raster reference. The viewer makes its own
 * context with GLFW. After creation the context is current on the calling thread and every GL entry
 * point is loaded (GLAD). Plain C; no EGL or GL types in this header. */
#ifndef SC_GL_H
#define SC_GL_H

#include "sc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sc_gl_context sc_gl_context;

typedef struct sc_gl_context_desc {
    int major, minor;        /* requested core version; 0 means 4.5 (Mesa under Xvfb stops at 4.5) */
    int require_nvidia;      /* nonzero: only accept an NVIDIA device (needed for CUDA interop) */
    int debug;               /* nonzero: debug context; GL debug messages go to the log callback */
} sc_gl_context_desc;

/* Creates a headless context and makes it current. SC_ERROR_GL with a message naming the failing
 * EGL call when none can be made (no EGL library, no device, version too high). */
sc_status sc_gl_context_create(const sc_gl_context_desc *desc, sc_gl_context **out_context);
void sc_gl_context_destroy(sc_gl_context *context);
sc_status sc_gl_context_make_current(sc_gl_context *context);
/* "NVIDIA H100 80GB HBM3/PCIe/SSE2, 4.6.0 NVIDIA 580.159.04 (EGL device)". Never NULL. */
const char *sc_gl_context_description(const sc_gl_context *context);
/* Nonzero when the context's renderer is NVIDIA's (CUDA-GL interop possible). */
int sc_gl_context_is_nvidia(const sc_gl_context *context);

/* Drains glGetError(); when an error was pending, records SC_ERROR_GL naming `what` and returns it. */
sc_status sc_gl_check(const char *what, const char *file, int line);
/* A program (its GL name in *out_program) from a vertex and a fragment shader's source, in the
 * current context; the names say which shader failed in the message, which carries the compiler's
 * or linker's log (SC_ERROR_GL). The shaders are deleted once linked. */
sc_status sc_gl_program_create(const char *vert_source, const char *vert_name, const char *frag_source,
                               const char *frag_name, unsigned int *out_program);

#ifdef __cplusplus
}
#endif

/* SC_GL(glBufferData(...)); the call, then glGetError(); returns SC_ERROR_GL from the enclosing
 * function on failure with the call's text, file and line. */
#define SC_GL(call)                                                            \
    do {                                                                       \
        call;                                                                  \
        sc_status sc_gl_status_ = sc_gl_check(#call, __FILE__, __LINE__);      \
        if (sc_gl_status_ != SC_OK) return sc_gl_status_;                      \
    } while (0)

#endif
