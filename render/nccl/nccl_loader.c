/* nccl_loader.c - NCCL's entry points by dlopen / dlsym (nccl_loader.h). */
#include "nccl_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sc_nccl.h"
#include "sc_report.h"

static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;
static sc_nccl_fns loaded;
static int loaded_ok;

/* The symbol `name` of handle h into the function pointer at fn (POSIX: dlsym's object pointer holds
 * a function's address); 0 when missing. */
static int take(void *h, const char *name, void *fn, size_t size)
{
    void *p = dlsym(h, name);
    if (!p || size != sizeof p) return 0;
    memcpy(fn, &p, sizeof p);
    return 1;
}

static sc_status load_locked(void)
{
    static const char *const call = "slabcast_nccl";
    const char *path = getenv("SLABCAST_NCCL_LIBRARY");
    const char *name = path && *path ? path : "libnccl.so.2";
    void *h = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        const char *why = dlerror();
        return SC_FAIL(SC_ERROR_UNSUPPORTED,
                       "%s: NCCL could not be loaded (%s): %s; put libnccl.so.2 on the loader's path "
                       "(LD_LIBRARY_PATH) or name the file in SLABCAST_NCCL_LIBRARY",
                       call, name, why ? why : "unknown reason");
    }
    sc_nccl_fns f;
    const struct {
        const char *name;
        void *fn;
        size_t size;
    } syms[] = {{"ncclAllReduce", &f.all_reduce, sizeof f.all_reduce},
                {"ncclReduce", &f.reduce, sizeof f.reduce},
                {"ncclGetErrorString", &f.get_error_string, sizeof f.get_error_string},
                {"ncclCommInitAll", &f.comm_init_all, sizeof f.comm_init_all},
                {"ncclCommDestroy", &f.comm_destroy, sizeof f.comm_destroy},
                {"ncclGroupStart", &f.group_start, sizeof f.group_start},
                {"ncclGroupEnd", &f.group_end, sizeof f.group_end}};
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; ++i)
        if (!take(h, syms[i].name, syms[i].fn, syms[i].size)) {
            dlclose(h);
            return SC_FAIL(SC_ERROR_UNSUPPORTED, "%s: %s has no symbol %s (not an NCCL 2 library?)", call, name,
                           syms[i].name);
        }
    loaded = f; /* the handle stays open for the process's life */
    loaded_ok = 1;
    return SC_OK;
}

sc_status sc_nccl_functions(const sc_nccl_fns **out)
{
    pthread_mutex_lock(&loader_lock);
    const sc_status s = loaded_ok ? SC_OK : load_locked();
    pthread_mutex_unlock(&loader_lock);
    *out = s == SC_OK ? &loaded : NULL;
    return s;
}

sc_status sc_nccl_available(void)
{
    const sc_nccl_fns *f;
    return sc_nccl_functions(&f);
}
