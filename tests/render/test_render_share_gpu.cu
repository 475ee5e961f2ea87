/* test_render_share_gpu.cu - sort-last over shares of a mesh on the CUDA backend (gpu): several
 * renderers on one device, each with a share, their hits composited equal one renderer of the
 * whole mesh bit for bit (share_cases.c), on the knot's cuts and on the shared models at high
 * resolution. test_render_share is the CPU backend's side. */
#include "share_cases.h"
#include "sctest.h"
#include "sctest_cuda.h"

static void test_knot_shares(void) { share_cases_knot(SC_BACKEND_CUDA); }
static void test_bunny_shares(void) { share_cases_model(SC_BACKEND_CUDA, "stanford-bunny.obj.xz", 1024, 768, 4); }
static void test_dragon_shares(void) { share_cases_model(SC_BACKEND_CUDA, "stanford-dragon.obj.xz", 1920, 1080, 4); }

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_share_gpu");
    sct_require_cuda();
    SCT_RUN(test_knot_shares);
    SCT_RUN(test_bunny_shares);
    SCT_RUN(test_dragon_shares);
    return sct_end();
}
