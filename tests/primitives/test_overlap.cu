/* test_overlap.cu - the GPU entry points (split_multisplit, split_index, split_segmented, split_sort,
 * split_gather, split_scatter) reject an output or the temporary storage that overlaps an input,
 * another output or temp by a few bytes, at either end of the other array, with
 * SC_ERROR_INVALID_ARGUMENT, a message naming the call and both arrays, and every byte of the device
 * arena untouched; an output or temp placed right after or right before the other array is accepted
 * and gives the reference's outputs of the base layout (overlap_cases.h has the calls, the placements
 * and the checks; unstable outputs are compared bucket by bucket as multisets) (gpu). */
#include <stdlib.h>
#include <string.h>

#include "overlap_cases.h"
#include "sctest.h"
#include "sctest_cuda.h"

/* user: the device arena. Copies in there, calls, waits, copies the whole arena back. */
static sc_status run_gpu(const ov_config *c, const char *in, char *out, const uint64_t *off, void *user)
{
    char *dev = (char *)user;
    const size_t size = (size_t)ov_arena_bytes(c);
    SCT_CUDA(cudaMemcpy(dev, in, size, cudaMemcpyHostToDevice));
    const sc_status st = ov_call(c, dev, off, 1);
    SCT_CUDA(cudaDeviceSynchronize());
    SCT_CUDA(cudaMemcpy(out, dev, size, cudaMemcpyDeviceToHost));
    return st;
}

static void test_overlaps_rejected_adjacent_accepted(void)
{
    sc_set_log_callback(ov_quiet, NULL, SC_LOG_ERROR);
    ov_config cfgs[8];
    const int k = ov_configs(cfgs);
    int rejected = 0, accepted = 0;
    for (int ci = 0; ci < k && !sct_current_failed(); ++ci) {
        ov_config *c = &cfgs[ci];
        size_t tb = 0;
        SCT_REQUIRE_OK(ov_temp_size(c, &tb));
        if (tb) ov_add(c, OVF_TEMP, tb);
        char *dev = NULL;
        SCT_CUDA_REQUIRE(cudaMalloc(&dev, (size_t)ov_arena_bytes(c)));
        ov_check_placements(c, sct_base_seed() ^ ((uint64_t)ci << 32), run_gpu, dev, &rejected, &accepted);
        SCT_CUDA(cudaFree(dev));
    }
    printf("      %d overlapping placements rejected, %d accepted (adjacent, and the base layouts)\n", rejected,
           accepted);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "overlap");
    sct_require_cuda();
    SCT_RUN(test_overlaps_rejected_adjacent_accepted);
    return sct_end();
}
