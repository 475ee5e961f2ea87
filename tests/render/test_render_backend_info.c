/* test_render_backend_info.c - sc_backend_get_info: every backend described, the default resolved to
 * the backend sc_renderer_create picks, availability agreeing with what create does, bad arguments
 * refused (cpu; on a machine with a CUDA device the CUDA backend's description is checked too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slabcast.h"
#include "sctest.h"

static sc_status create(sc_backend b, sc_renderer **r)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.width = d.height = 16;
    d.backend = b;
    return sc_renderer_create(&d, r);
}

static void check_common(const sc_backend_info *i)
{
    SCT_CHECK(i->backend == SC_BACKEND_CPU || i->backend == SC_BACKEND_CUDA);
    SCT_CHECK(i->name && strcmp(i->name, sc_backend_name(i->backend)) == 0);
    if (i->available) {
        SCT_CHECK(i->built);
        SCT_CHECK_MSG(i->unavailable_reason[0] == '\0', "%s: available, yet a reason: %s", i->name,
                      i->unavailable_reason);
        SCT_CHECK_MSG(i->device[0] != '\0', "%s: available, no device named", i->name);
    } else {
        SCT_CHECK_MSG(i->unavailable_reason[0] != '\0', "%s: unavailable without a reason", i->name);
        SCT_CHECK(i->device[0] == '\0');
        SCT_CHECK(i->device_name[0] == '\0');
    }
    /* The strings end inside their arrays; the device's name is the start of its description. */
    SCT_CHECK(memchr(i->unavailable_reason, 0, sizeof i->unavailable_reason) != NULL);
    SCT_CHECK(memchr(i->device, 0, sizeof i->device) != NULL);
    SCT_CHECK(memchr(i->device_name, 0, sizeof i->device_name) != NULL);
    SCT_CHECK_MSG(strncmp(i->device, i->device_name, strlen(i->device_name)) == 0, "%s: device \"%s\", name \"%s\"",
                  i->name, i->device, i->device_name);
    /* The code path: named exactly when the backend runs here. */
    SCT_REQUIRE(i->code_path != NULL);
    SCT_CHECK_MSG((i->code_path[0] != '\0') == (i->available != 0), "%s: available %d, code path \"%s\"", i->name,
                  i->available, i->code_path);
}

static void test_cpu(void)
{
    sc_backend_info i;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CPU, &i));
    check_common(&i);
    SCT_CHECK(i.backend == SC_BACKEND_CPU && i.built && i.available);
    SCT_CHECK(i.buffer_memory == SC_MEMORY_HOST);
    SCT_CHECK(!i.asynchronous && !i.device_timed && !i.surfaces && !i.radix_binning);
    SCT_CHECK(i.worker_threads >= 1);
    SCT_CHECK(i.device_name[0] == '\0'); /* the host has no device name */
    SCT_CHECK(strcmp(i.code_path, "host") == 0);
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(create(SC_BACKEND_CPU, &r));
    sc_renderer_destroy(r);
}

static void test_cuda(void)
{
    sc_backend_info i;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CUDA, &i));
    check_common(&i);
    SCT_CHECK(i.backend == SC_BACKEND_CUDA);
    SCT_CHECK(i.buffer_memory == SC_MEMORY_DEVICE);
    SCT_CHECK(i.worker_threads == 0);
    if (i.built) SCT_CHECK(i.asynchronous && i.device_timed && i.surfaces && i.radix_binning);
    if (i.available) SCT_CHECK_MSG(i.device_name[0] != '\0', "CUDA: available, the GPU not named");
    if (i.available) {
        /* "hopper" from sm_90 on, else "portable"; SLABCAST_CUDA_PORTABLE=1 forces "portable". */
        const char *forced = getenv("SLABCAST_CUDA_PORTABLE");
        const int portable = forced && strcmp(forced, "1") == 0;
        SCT_CHECK_MSG(strcmp(i.code_path, "portable") == 0 || (!portable && strcmp(i.code_path, "hopper") == 0),
                      "CUDA: code path \"%s\" (SLABCAST_CUDA_PORTABLE %s)", i.code_path, forced ? forced : "unset");
        setenv("SLABCAST_CUDA_PORTABLE", "1", 1);
        sc_backend_info f;
        SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_CUDA, &f));
        SCT_CHECK_MSG(strcmp(f.code_path, "portable") == 0, "CUDA: forced portable, code path \"%s\"", f.code_path);
        if (forced) setenv("SLABCAST_CUDA_PORTABLE", forced, 1); else unsetenv("SLABCAST_CUDA_PORTABLE");
    }
    /* create agrees: it succeeds exactly when the backend is available */
    sc_renderer *r = NULL;
    const sc_status st = create(SC_BACKEND_CUDA, &r);
    SCT_CHECK_MSG((st == SC_OK) == (i.available != 0), "CUDA: available %d, create gave %d (%s)", i.available,
                  (int)st, st == SC_OK ? "ok" : sc_last_error());
    if (st == SC_OK) sc_renderer_destroy(r);
    printf("      CUDA: built %d, available %d, %s%s%s%s\n", i.built, i.available, i.available ? i.device : "",
           i.available ? ", code path " : "", i.available ? i.code_path : "", i.available ? "" : i.unavailable_reason);
}

static void test_default_is_what_create_picks(void)
{
    sc_backend_info i;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_DEFAULT, &i));
    check_common(&i);
    SCT_CHECK(i.available);
    sc_renderer *r = NULL;
    SCT_REQUIRE_OK(create(SC_BACKEND_DEFAULT, &r));
    SCT_CHECK(sc_renderer_backend(r) == i.backend);
    sc_renderer_destroy(r);
}

static void test_bad_arguments(void)
{
    sc_backend_info i;
    SCT_CHECK(sc_backend_get_info(SC_BACKEND_CPU, NULL) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_backend_get_info((sc_backend)7, &i) == SC_ERROR_INVALID_ARGUMENT);
    SCT_CHECK(sc_backend_get_info((sc_backend)-1, &i) == SC_ERROR_INVALID_ARGUMENT);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_backend_info");
    SCT_RUN(test_cpu);
    SCT_RUN(test_cuda);
    SCT_RUN(test_default_is_what_create_picks);
    SCT_RUN(test_bad_arguments);
    return sct_end();
}
