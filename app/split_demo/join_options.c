/* join_options.c - the options of `split-demo join` (join_options.h): the usage text, the parser of
 * its command line and the methods' names. Plain C11. */
#include "join_options.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "join_host.h"

#define W "join" /* the subcommand, in messages */

enum {
    MAX_ROWS = 1000000,
    MAX_PART_BITS = 20      /* --part-bits */
};

const char *const join_method_names[NUM_METHODS] = {"hash/split", "hash/cub", "sort-merge", "inlj", "bnlj", "cpu"};

/* ---- options ----------------------------------------------------------------------------------- */

static void join_usage(FILE *f)
{
    fprintf(f,
            "usage: split-demo join [--r N] [--s N] [--dist uniform|zipf] [--zipf-theta T] [--match F] [--r-dup K]\n"
            "                       [--runs R] [--seed X] [--methods LIST] [--rows K] [--part-bits B] [--part-levels L]\n"
            "  joins R and S on 32-bit keys (32-bit payloads) with several GPU methods and the CPU, checks each\n"
            "  method's output pairs (count and checksum) against the CPU hash join, then prints a table\n"
            "  --r N            tuples of R, 1 .. 67108864 (default 16777216)\n"
            "  --s N            tuples of S, 1 .. 67108864 (default 16777216)\n"
            "  --dist D         S's matching keys: uniform over R's keys, or zipf (rank 0 the hottest key)\n"
            "                   (default uniform)\n"
            "  --zipf-theta T   the Zipf exponent, 0 .. 5 (default 1.0)\n"
            "  --match F        the fraction of S tuples whose key is in R, 0 .. 1 (default 1.0)\n"
            "  --r-dup K        copies of each R key, 1 .. 1024 (default 1): R has ceil(N / K) distinct keys\n"
            "  --runs R         timed runs per method, 1 .. 1000 (default 5): the median after 1 warm-up\n"
            "  --seed X         the generator's seed, a whole number (default 1)\n"
            "  --methods LIST   comma-separated, of hash/split, hash/cub, sort-merge, inlj, bnlj, cpu\n"
            "                   (default all that apply; bnlj only for |R| <= 32768; cpu always runs as\n"
            "                   the reference, and is timed when listed)\n"
            "  --rows K         print the first K output pairs (sorted on the host), 0 .. 1000000 (default 0)\n"
            "  --part-bits B    partition bits of hash/split and hash/cub, 1 .. 20 (default: the fewest giving\n"
            "                   <= 1024 R and <= 4096 S tuples per partition on average); any value is correct\n"
            "  --part-levels L  hash/split's partitioning: 1 = one split_multisplit of 2^B buckets (the wide path\n"
            "                   above 2048), 2 = split_multisplit by the low B/2 bits, then a stable one by the\n"
            "                   high B - B/2 bits (default: 1 up to 8 bits, else 2)\n");
}

static int bad_option(const char *option, const char *value, const char *valid)
{
    return demo_bad_value("split-demo " W, option, value, valid, join_usage);
}

/* A whole string as a finite double in [lo, hi]: 0, or -1. */
static int parse_double(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s) return -1;
    char *end = NULL;
    const double v = strtod(s, &end);
    if (*end != 0 || !isfinite(v) || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int parse_methods(const char *s, int *want)
{
    for (int m = 0; m < NUM_METHODS; ++m) want[m] = 0;
    for (const char *p = s;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int found = -1;
        for (int m = 0; m < NUM_METHODS; ++m)
            if (strlen(join_method_names[m]) == len && strncmp(p, join_method_names[m], len) == 0) found = m;
        if (found < 0) return -1;
        want[found] = 1;
        if (!comma) return 0;
        p = comma + 1;
    }
}

/* 0 parsed, 1 --help printed (exit 0), 2 bad usage (printed). */
int join_parse_options(int argc, char **argv, join_opts *o)
{
    memset(o, 0, sizeof *o);
    o->nr = o->ns = (uint64_t)1 << 24;
    o->seed = 1;
    o->dup = 1;
    o->match = 1.0;
    o->theta = 1.0;
    o->runs = 5;
    for (int m = 0; m < NUM_METHODS; ++m) o->want[m] = 1;
    static const char *const names[] = {"--r",    "--s",    "--dist", "--zipf-theta", "--match", "--r-dup",
                                        "--runs", "--seed", "--methods", "--rows", "--part-bits", "--part-levels"};
    enum { NUM_NAMES = sizeof names / sizeof names[0] };
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            join_usage(stdout);
            return 1;
        }
        const char *value = NULL;
        const int which = demo_option("split-demo " W, argc, argv, &a, names, NUM_NAMES, &value);
        if (which < 0) {
            join_usage(stderr);
            return 2;
        }
        uint64_t v = 0;
        const uint64_t max_tuples = (uint64_t)1 << JOIN_MAX_LOG2_TUPLES;
        switch (which) {
        case 0:
        case 1:
            if (demo_parse_u64(value, 1, max_tuples, &v) != 0)
                return bad_option(names[which], value, "a whole number of tuples, 1 .. 67108864");
            *(which == 0 ? &o->nr : &o->ns) = v;
            break;
        case 2:
            if (strcmp(value, "uniform") != 0 && strcmp(value, "zipf") != 0)
                return bad_option(names[which], value, "uniform or zipf");
            o->zipf = strcmp(value, "zipf") == 0;
            break;
        case 3:
            if (parse_double(value, 0.0, 5.0, &o->theta) != 0)
                return bad_option(names[which], value, "a number in 0 .. 5");
            break;
        case 4:
            if (parse_double(value, 0.0, 1.0, &o->match) != 0)
                return bad_option(names[which], value, "a number in 0 .. 1");
            break;
        case 5:
            if (demo_parse_u64(value, 1, JOIN_MAX_DUP, &v) != 0) return bad_option(names[which], value, "1 .. 1024");
            o->dup = (uint32_t)v;
            break;
        case 6:
            if (demo_parse_u64(value, 1, 1000, &v) != 0) return bad_option(names[which], value, "1 .. 1000");
            o->runs = (int)v;
            break;
        case 7:
            if (demo_parse_u64(value, 0, UINT64_MAX, &v) != 0)
                return bad_option(names[which], value, "a whole number, 0 .. 18446744073709551615");
            o->seed = v;
            break;
        case 8:
            if (parse_methods(value, o->want) != 0)
                return bad_option(names[which], value,
                                  "a comma-separated list of hash/split, hash/cub, sort-merge, inlj, bnlj, cpu");
            break;
        case 9:
            if (demo_parse_u64(value, 0, MAX_ROWS, &v) != 0) return bad_option(names[which], value, "0 .. 1000000");
            o->rows = v;
            break;
        case 10:
            if (demo_parse_u64(value, 1, MAX_PART_BITS, &v) != 0) return bad_option(names[which], value, "1 .. 20");
            o->part_bits = (uint32_t)v;
            break;
        default:
            if (demo_parse_u64(value, 1, 2, &v) != 0) return bad_option(names[which], value, "1 or 2");
            o->part_levels = (uint32_t)v;
            break;
        }
    }
    return 0;
}
