/* test_nccl_loader.c - slabcast_nccl loads NCCL at its first call (nccl_loader.h, sc_nccl_available):
 * a missing file and a library without NCCL's symbols are refused with UNSUPPORTED and a message
 * naming the file and the way to point at NCCL; the process's libnccl.so.2, when the loader finds
 * one, gives every entry point, and a loaded NCCL answers a call without a GPU (cpu). The cases run in
 * this order: a failed load is tried again at the next call, a successful one is kept. */
#include <stdlib.h>
#include <string.h>

#include "nccl_loader.h"
#include "sc_nccl.h"
#include "sctest.h"

static void test_missing_file(void)
{
    static const char *const path = "/nonexistent/slabcast-test/libnccl-missing.so.2";
    SCT_REQUIRE(setenv("SLABCAST_NCCL_LIBRARY", path, 1) == 0);
    SCT_CHECK(sc_nccl_available() == SC_ERROR_UNSUPPORTED);
    const char *why = sc_last_error();
    SCT_CHECK_MSG(strstr(why, path) != NULL && strstr(why, "SLABCAST_NCCL_LIBRARY") != NULL,
                  "the message names neither the file nor the variable: %s", why);
    const sc_nccl_fns *f = (const sc_nccl_fns *)1;
    SCT_CHECK(sc_nccl_functions(&f) == SC_ERROR_UNSUPPORTED && f == NULL);
}

static void test_not_nccl(void)
{
    /* The C library is loaded in every process and has none of NCCL's symbols. */
    SCT_REQUIRE(setenv("SLABCAST_NCCL_LIBRARY", "libc.so.6", 1) == 0);
    SCT_CHECK(sc_nccl_available() == SC_ERROR_UNSUPPORTED);
    const char *why = sc_last_error();
    SCT_CHECK_MSG(strstr(why, "libc.so.6") != NULL && strstr(why, "ncclAllReduce") != NULL,
                  "the message names neither the file nor the missing symbol: %s", why);
}

static void test_process_nccl(void)
{
    SCT_REQUIRE(unsetenv("SLABCAST_NCCL_LIBRARY") == 0);
    const sc_nccl_fns *f = NULL;
    const sc_status s = sc_nccl_functions(&f);
    if (s != SC_OK) {
        /* No libnccl.so.2 on the loader's path here: the message says which file was looked for. */
        SCT_CHECK(s == SC_ERROR_UNSUPPORTED && f == NULL);
        SCT_CHECK_MSG(strstr(sc_last_error(), "libnccl.so.2") != NULL, "%s", sc_last_error());
        sct_skip("no libnccl.so.2 on the loader's path");
        return;
    }
    SCT_REQUIRE(f != NULL);
    SCT_CHECK(f->all_reduce && f->reduce && f->get_error_string && f->comm_init_all && f->comm_destroy &&
              f->group_start && f->group_end);
    const char *text = f->get_error_string(ncclSuccess);
    SCT_CHECK(text != NULL && text[0] != '\0');
    /* Kept: a later bad setting does not unload it. */
    SCT_REQUIRE(setenv("SLABCAST_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1) == 0);
    SCT_CHECK(sc_nccl_available() == SC_OK);
    SCT_REQUIRE(unsetenv("SLABCAST_NCCL_LIBRARY") == 0);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "nccl_loader");
    SCT_RUN(test_missing_file);
    SCT_RUN(test_not_nccl);
    SCT_RUN(test_process_nccl);
    return sct_end();
}
