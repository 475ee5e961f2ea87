/* split_demo.c - split-demo: demonstrations of the split library (primitives/include/split.h) on the
 * GPU, each verified against a CPU reference before it reports a time.
 *   split-demo SUBCOMMAND [options]     split-demo --help lists the subcommands
 *   split-demo SUBCOMMAND --help        the subcommand's options
 * Exit status: the subcommand's (0 verified, 1 a check or call failed, 2 bad usage, 77 no CUDA
 * device, 1 then with SLABCAST_REQUIRE_GPU=1); 2 for a missing or unknown subcommand.
 * split_demo_main is main's body; defining SPLIT_DEMO_NO_MAIN leaves main out (tests/demo links the
 * file to call it). */
#include <stdio.h>
#include <string.h>

#include "demo.h"

int split_demo_main(int argc, char **argv);

static const struct subcommand {
    const char *name;
    demo_fn fn;
    const char *line; /* one line for --help */
} subcommands[] = {
    {"grid", demo_grid,
     "3-D uniform grid of N points (cell ids, split_multisplit, split_gather), checked; neighbour counts, timed"},
    {"grid-levels", demo_grid_levels,
     "one frame's tile x slab grid built two ways (ours: 2 levels, the thesis's: 3), checked; PNG per level, times"},
    {"join", demo_join,
     "R join S on 32-bit keys: partitioned hash join (split vs CUB), sort-merge, index/block nested loops, CPU"},
    {"particles", demo_particles,
     "N moving particles re-binned into a 3-D grid by split_multisplit every step, neighbours through the grid"},
    {"records", demo_records,
     "sort large records by 32/64/96-bit keys: SplitSort + one gather, per-pass moves, CUB; gather pass counts"},
};
enum { NUM_SUBCOMMANDS = sizeof subcommands / sizeof subcommands[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: split-demo SUBCOMMAND [options]   (split-demo SUBCOMMAND --help for its options)\n"
               "subcommands:\n");
    for (int i = 0; i < NUM_SUBCOMMANDS; ++i) fprintf(f, "  %-11s %s\n", subcommands[i].name, subcommands[i].line);
}

int split_demo_main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "split-demo: no subcommand\n");
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (int i = 0; i < NUM_SUBCOMMANDS; ++i)
        if (strcmp(argv[1], subcommands[i].name) == 0) return subcommands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "split-demo: unknown subcommand '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

#ifndef SPLIT_DEMO_NO_MAIN
int main(int argc, char **argv)
{
    return split_demo_main(argc, argv);
}
#endif
