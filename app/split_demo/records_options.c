/* records_options.c - the options of `split-demo records` (records_options.h): the usage text and
 * the parser of its command line. Plain C11. */
#include "records_options.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"

#define W "records" /* the subcommand, in messages */

static void records_usage(FILE *f)
{
    fprintf(f,
            "usage: split-demo records [--count N] [--record-bytes B,...] [--key-bits K,...] [--runs R]\n"
            "  sorts N records by key three ways, each checked against a CPU sort, then prints a table:\n"
            "  (a) split_sort of (key, index) + 1 split_gather, (b) split_multisplit + split_gather of the\n"
            "  records at every 8-bit radix pass, (c) CUB DeviceRadixSort::SortPairs of (key, index) + 1 gather\n"
            "  --count N         records, 1 .. 4294967295 (default 16777216; reduced, with a note, for a\n"
            "                    record size whose buffers do not fit in the GPU's free memory)\n"
            "  --record-bytes B  record sizes in bytes, comma-separated, each a multiple of 4 in 16 .. 512\n"
            "                    (default 16,64,128,512); a record's first 4, 8 or 12 bytes are its key\n"
            "  --key-bits K      key widths, comma-separated, each 32, 64 or 96 (default 32,64,96)\n"
            "  --runs R          timed runs per method, 1 .. 1000 (default 5): the median after 1 warm-up\n");
}

static int bad_option(const char *option, const char *value, const char *valid)
{
    return demo_bad_value("split-demo " W, option, value, valid, records_usage);
}

/* A comma-separated list of numbers, each in [lo, hi] and a multiple of mult, at most max entries.
 * Returns the count, or -1. */
static int parse_list(const char *s, uint64_t lo, uint64_t hi, uint64_t mult, uint32_t *out, int max)
{
    char tok[32];
    int count = 0;
    for (const char *p = s;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof tok || count == max) return -1;
        memcpy(tok, p, len);
        tok[len] = 0;
        uint64_t v = 0;
        if (demo_parse_u64(tok, lo, hi, &v) != 0 || v % mult != 0) return -1;
        out[count++] = (uint32_t)v;
        if (!comma) return count;
        p = comma + 1;
    }
}

int records_parse_options(int argc, char **argv, records_opts *o)
{
    o->count = (uint64_t)1 << 24;
    o->runs = 5;
    o->num_sizes = 4;
    o->sizes[0] = 16, o->sizes[1] = 64, o->sizes[2] = 128, o->sizes[3] = 512;
    o->num_key_widths = 3;
    o->key_bits[0] = 32, o->key_bits[1] = 64, o->key_bits[2] = 96;
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            records_usage(stdout);
            return 1;
        }
        static const char *const names[] = {"--count", "--record-bytes", "--key-bits", "--runs"};
        const char *value = NULL;
        const int count = (int)(sizeof names / sizeof names[0]);
        const int which = demo_option("split-demo " W, argc, argv, &a, names, count, &value);
        if (which < 0) {
            records_usage(stderr);
            return 2;
        }
        uint64_t v = 0;
        switch (which) {
        case 0:
            if (demo_parse_u64(value, 1, UINT32_MAX, &v) != 0)
                return bad_option(names[which], value, "a whole number of records, 1 .. 4294967295");
            o->count = v;
            break;
        case 1:
            if ((o->num_sizes = parse_list(value, 16, 512, 4, o->sizes, RECORDS_MAX_SIZES)) < 0)
                return bad_option(names[which], value,
                                  "up to 16 comma-separated sizes, each a multiple of 4 in 16 .. 512 (e.g. 16,64,128,512)");
            break;
        case 2:
            if ((o->num_key_widths = parse_list(value, 32, 96, 32, o->key_bits, RECORDS_MAX_KEY_WIDTHS)) < 0 ||
                (o->num_key_widths > 1 && o->key_bits[0] == o->key_bits[1]) ||
                (o->num_key_widths > 2 && (o->key_bits[2] == o->key_bits[0] || o->key_bits[2] == o->key_bits[1])))
                return bad_option(names[which], value, "32, 64 and 96, each at most once, comma-separated (e.g. 32,64,96)");
            break;
        default:
            if (demo_parse_u64(value, 1, 1000, &v) != 0) return bad_option(names[which], value, "1 .. 1000");
            o->runs = (int)v;
            break;
        }
    }
    return 0;
}
