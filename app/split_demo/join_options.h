/* join_options.h - the command line of `split-demo join` (join_options.c): the methods, the options
 * and their parser. Plain C; demo_join.cu includes it. */
#ifndef SPLIT_DEMO_JOIN_OPTIONS_H
#define SPLIT_DEMO_JOIN_OPTIONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The methods, in the order they run and print; M_CPU, the reference, last. */
typedef enum method_id { M_SPLIT, M_CUB, M_MERGE, M_INLJ, M_BNLJ, M_CPU, NUM_METHODS } method_id;

/* The methods' names, as --methods takes them and the messages print them. */
extern const char *const join_method_names[NUM_METHODS];

typedef struct join_opts {
    uint64_t nr, ns, seed, rows;
    uint32_t dup, part_bits, part_levels; /* 0: join_partition_bits / join_partition_levels choose */
    double match, theta;
    int zipf, runs;
    int want[NUM_METHODS]; /* methods asked for */
} join_opts;

/* Parses argv[1 .. argc-1] (argv[0] is the subcommand's name) into *o, its defaults first: --r and
 * --s 16777216, --dist uniform, --zipf-theta 1, --match 1, --r-dup 1, --runs 5, --seed 1, every
 * method wanted, --rows 0, part_bits and part_levels 0 (chosen from the sizes by the run).
 * Returns 0 parsed, 1 --help (or -h) printed on stdout (the caller exits 0), 2 bad usage (the message
 * naming the option and its valid values, then the usage, printed on stderr; the caller exits 2). */
int join_parse_options(int argc, char **argv, join_opts *o);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_JOIN_OPTIONS_H */
