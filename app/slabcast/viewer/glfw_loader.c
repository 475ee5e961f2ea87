/* glfw_loader.c - dlopen GLFW 3 and resolve the functions the viewer calls. */
#define APP_GLFW_LOADER_IMPLEMENTATION
#include "glfw_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

app_glfw_api app_glfw;

int app_glfw_load(char *why, size_t why_size)
{
    static void *lib;
    if (lib) return 0;
    void *h = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, why_size, "cannot load libglfw.so.3 (%s); install libglfw3", dlerror());
        return -1;
    }
    app_glfw_api api;
    memset(&api, 0, sizeof api);
#define APP_GLFW_RESOLVE(name)                                                                   \
    {                                                                                            \
        void *sym = dlsym(h, #name);                                                             \
        if (!sym) {                                                                              \
            snprintf(why, why_size, "libglfw.so.3 has no %s (GLFW 3.3 or newer needed)", #name); \
            dlclose(h);                                                                          \
            return -1;                                                                           \
        }                                                                                        \
        memcpy(&api.name, &sym, sizeof sym);                                                     \
    }
    APP_GLFW_FUNCTIONS(APP_GLFW_RESOLVE)
#undef APP_GLFW_RESOLVE
    app_glfw = api;
    lib = h;
    return 0;
}
