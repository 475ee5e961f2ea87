/* gl_context_egl.c - headless OpenGL core context through EGL (device platform, then Mesa surfaceless). */
#include <glad/egl.h>
#include <glad/gl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc_gl.h"
#include "sc_report.h"

struct sc_gl_context {
    EGLDisplay display;
    EGLContext context;
    int is_nvidia;
    char description[256];
};

static const char *egl_error_name(EGLint e)
{
    switch (e) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    default: return "EGL error";
    }
}

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    default: return "GL error";
    }
}

sc_status sc_gl_check(const char *what, const char *file, int line)
{
    GLenum first = glGetError();
    if (first == GL_NO_ERROR) return SC_OK;
    /* Drain the remaining flags so the next check starts clean. */
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {}
    return sc_report(SC_ERROR_GL, file, line, "%s failed: %s (0x%04x)", what, gl_error_name(first), first);
}

static void GLAD_API_PTR on_gl_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                     const GLchar *message, const void *user)
{
    (void)source; (void)id; (void)length; (void)user;
    sc_log_level level = (type == GL_DEBUG_TYPE_ERROR) ? SC_LOG_ERROR
                       : (severity == GL_DEBUG_SEVERITY_HIGH || severity == GL_DEBUG_SEVERITY_MEDIUM) ? SC_LOG_WARNING
                       : SC_LOG_DEBUG;
    sc_log(level, "GL debug: %s", message);
}

/* Tries one display: initialise, bind OpenGL, create a surfaceless core context, load GL. */
static sc_status try_display(sc_gl_context *c, EGLDisplay dpy, const sc_gl_context_desc *d, const char *how,
                             char *why, size_t why_size)
{
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY) { snprintf(why, why_size, "%s: no display", how); return SC_ERROR_GL; }
    if (!eglInitialize(dpy, &major, &minor)) {
        snprintf(why, why_size, "%s: eglInitialize failed: %s", how, egl_error_name(eglGetError()));
        return SC_ERROR_GL;
    }
    if (!gladLoadEGL(dpy, (GLADloadfunc)eglGetProcAddress) && !gladLoaderLoadEGL(dpy)) {
        snprintf(why, why_size, "%s: loading EGL %d.%d entry points failed", how, major, minor);
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(why, why_size, "%s: eglBindAPI(EGL_OPENGL_API) failed: %s", how, egl_error_name(eglGetError()));
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    EGLConfig config = NULL;
    if (!GLAD_EGL_KHR_no_config_context) {
        static const EGLint cfg_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        EGLint n = 0;
        if (!eglChooseConfig(dpy, cfg_attribs, &config, 1, &n) || n < 1) {
            snprintf(why, why_size, "%s: eglChooseConfig found no OpenGL config", how);
            eglTerminate(dpy);
            return SC_ERROR_GL;
        }
    }
    const EGLint ctx_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, d->major, EGL_CONTEXT_MINOR_VERSION, d->minor,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_CONTEXT_OPENGL_DEBUG, d->debug ? EGL_TRUE : EGL_FALSE,
        EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT) {
        snprintf(why, why_size, "%s: eglCreateContext(OpenGL %d.%d core) failed: %s", how, d->major, d->minor,
                 egl_error_name(eglGetError()));
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        snprintf(why, why_size, "%s: eglMakeCurrent(no surface) failed: %s", how, egl_error_name(eglGetError()));
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    int gl_version = gladLoadGL((GLADloadfunc)eglGetProcAddress);
    if (!gl_version || GLAD_VERSION_MAJOR(gl_version) * 10 + GLAD_VERSION_MINOR(gl_version) < d->major * 10 + d->minor) {
        snprintf(why, why_size, "%s: OpenGL %d.%d loaded, %d.%d needed", how, GLAD_VERSION_MAJOR(gl_version),
                 GLAD_VERSION_MINOR(gl_version), d->major, d->minor);
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    const char *vendor = (const char *)glGetString(GL_VENDOR);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    const char *version = (const char *)glGetString(GL_VERSION);
    c->is_nvidia = vendor && strstr(vendor, "NVIDIA") != NULL;
    if (d->require_nvidia && !c->is_nvidia) {
        snprintf(why, why_size, "%s: renderer %s is not NVIDIA's (CUDA interop needs it)", how,
                 renderer ? renderer : "?");
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglTerminate(dpy);
        return SC_ERROR_GL;
    }
    c->display = dpy;
    c->context = ctx;
    snprintf(c->description, sizeof c->description, "%s, %s (%s)", renderer ? renderer : "?",
             version ? version : "?", how);
    if (d->debug && GLAD_GL_KHR_debug) {
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(on_gl_debug, NULL);
    }
    return SC_OK;
}

sc_status sc_gl_context_create(const sc_gl_context_desc *desc, sc_gl_context **out_context)
{
    if (!out_context) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_gl_context_create: out_context is NULL");
    *out_context = NULL;
    sc_gl_context_desc d = desc ? *desc : (sc_gl_context_desc){0};
    if (d.major == 0) { d.major = 4; d.minor = 5; }

    /* Client extensions and eglGetProcAddress need no display. GLAD's loader leaves EGL 1.5 entry
     * points null before a display exists, so the platform functions come from eglGetProcAddress. */
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
        return SC_FAIL(SC_ERROR_GL, "gladLoaderLoadEGL failed: libEGL.so.1 could not be loaded "
                                    "(install libegl1; on the GPU machine see docs/DEVELOPING.md)");
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC device_string =
        (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");

    sc_gl_context *c = calloc(1, sizeof *c);
    if (!c) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "sc_gl_context_create: out of host memory");
    char why[1024] = "", one[256];
    size_t used = 0;

    if (query_devices && platform_display) {
        EGLDeviceEXT devices[16];
        EGLint count = 0;
        if (query_devices(16, devices, &count)) {
            for (EGLint i = 0; i < count; ++i) {
                const char *ext = device_string ? device_string(devices[i], EGL_EXTENSIONS) : NULL;
                char how[64];
                snprintf(how, sizeof how, "EGL device %d%s", (int)i,
                         ext && strstr(ext, "EGL_MESA_device_software") ? " (software)" : "");
                EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
                if (try_display(c, dpy, &d, how, one, sizeof one) == SC_OK) { *out_context = c; return SC_OK; }
                used += (size_t)snprintf(why + used, used < sizeof why ? sizeof why - used : 0, "%s; ", one);
                if (used >= sizeof why) used = sizeof why - 1;
            }
        } else {
            used += (size_t)snprintf(why + used, sizeof why - used, "eglQueryDevicesEXT failed; ");
        }
        if (!d.require_nvidia) {
            EGLDisplay dpy = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
            if (try_display(c, dpy, &d, "EGL surfaceless", one, sizeof one) == SC_OK) { *out_context = c; return SC_OK; }
            if (used < sizeof why) snprintf(why + used, sizeof why - used, "%s; ", one);
        }
    } else {
        snprintf(why, sizeof why, "EGL has no eglQueryDevicesEXT/eglGetPlatformDisplayEXT");
    }
    free(c);
    return SC_FAIL(SC_ERROR_GL, "no headless OpenGL %d.%d core context: %s", d.major, d.minor, why);
}

sc_status sc_gl_context_make_current(sc_gl_context *c)
{
    if (!c) return SC_FAIL(SC_ERROR_INVALID_ARGUMENT, "sc_gl_context_make_current: context is NULL");
    if (!eglMakeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, c->context))
        return SC_FAIL(SC_ERROR_GL, "eglMakeCurrent failed: %s", egl_error_name(eglGetError()));
    return SC_OK;
}

void sc_gl_context_destroy(sc_gl_context *c)
{
    if (!c) return;
    eglMakeCurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(c->display, c->context);
    eglTerminate(c->display);
    free(c);
}

const char *sc_gl_context_description(const sc_gl_context *c) { return c ? c->description : ""; }
int sc_gl_context_is_nvidia(const sc_gl_context *c) { return c ? c->is_nvidia : 0; }
