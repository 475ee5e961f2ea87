/* test_overlap_ref.c - the references (split_multisplit_ref, split_index_ref, split_segmented_ref,
 * split_sort_ref, split_gather_ref, split_scatter_ref) reject an output that overlaps an input or
 * another output by a few bytes, at either end of the other array, with SC_ERROR_INVALID_ARGUMENT, a
 * message naming the call and both arrays, and every byte of the arena untouched; an output placed
 * right after or right before the other array is accepted and gives the outputs of the base layout
 * (overlap_cases.h has the calls, the placements and the checks) (cpu). */
#include <string.h>

#include "overlap_cases.h"
#include "sctest.h"

static sc_status run_ref(const ov_config *c, const char *in, char *out, const uint64_t *off, void *user)
{
    (void)user;
    memcpy(out, in, (size_t)ov_arena_bytes(c));
    return ov_call(c, out, off, 0);
}

static void test_overlaps_rejected_adjacent_accepted(void)
{
    sc_set_log_callback(ov_quiet, NULL, SC_LOG_ERROR);
    ov_config cfgs[8];
    const int k = ov_configs(cfgs);
    int rejected = 0, accepted = 0;
    for (int ci = 0; ci < k; ++ci)
        ov_check_placements(&cfgs[ci], sct_base_seed() ^ ((uint64_t)ci << 32), run_ref, NULL, &rejected, &accepted);
    printf("      %d overlapping placements rejected, %d accepted (adjacent, and the base layouts)\n", rejected,
           accepted);
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "overlap_ref");
    SCT_RUN(test_overlaps_rejected_adjacent_accepted);
    return sct_end();
}
