/* records_options.h - the command line of `split-demo records` (records_options.c): the options and
 * their parser. Plain C; demo_records.cu includes it. */
#ifndef SPLIT_DEMO_RECORDS_OPTIONS_H
#define SPLIT_DEMO_RECORDS_OPTIONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RECORDS_MAX_SIZES = 16,     /* record sizes in one run (--record-bytes) */
    RECORDS_MAX_KEY_WIDTHS = 3  /* key widths in one run (--key-bits: 32, 64, 96) */
};

typedef struct records_opts {
    uint64_t count;
    int num_sizes, num_key_widths, runs;
    uint32_t sizes[RECORDS_MAX_SIZES];
    uint32_t key_bits[RECORDS_MAX_KEY_WIDTHS];
} records_opts;

/* Parses argv[1 .. argc-1] (argv[0] is the subcommand's name) into *o, its defaults first: --count
 * 16777216, --record-bytes 16,64,128,512, --key-bits 32,64,96, --runs 5.
 * Returns 0 parsed, 1 --help (or -h) printed on stdout (the caller exits 0), 2 bad usage (the message
 * naming the option and its valid values, then the usage, printed on stderr; the caller exits 2). */
int records_parse_options(int argc, char **argv, records_opts *o);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_RECORDS_OPTIONS_H */
