/* bench_commit.c - split_bench: the commit the program was built from, from bench_commit.h, which
 * cmake/WriteCommit.cmake rewrites at every build when the commit changes (only this file then
 * recompiles). */
#include "bench.h"
#include "bench_commit.h" /* SPLIT_BENCH_COMMIT */

const char *bench_commit(void)
{
    return SPLIT_BENCH_COMMIT;
}
