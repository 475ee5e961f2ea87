/* test_split_demo.c - split-demo (app/split_demo) as a test binary.
 *   test_split_demo                the command line: --help lists every subcommand, a missing or
 *                                  unknown subcommand and bad options exit 2, --help of each
 *                                  subcommand exits 0 (none of it needs a GPU)
 *   test_split_demo sanitize_mid   small runs of every subcommand (scripts/gpu-test.sh --sanitize runs
 *                                  this under compute-sanitizer); skipped without a CUDA device
 *   test_split_demo ARGS...        runs `split-demo ARGS...` (the ctest entries test_split_grid_demo
 *                                  and test_split_demo_records), exit status as the program's
 * Linked with app/split_demo/split_demo.c built with SPLIT_DEMO_NO_MAIN, and the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sctest.h"

int split_demo_main(int argc, char **argv); /* app/split_demo/split_demo.c */

/* Runs split-demo with the NULL-terminated words; its stdout (up to cap - 1 bytes) into out. */
static int run_demo(char **words, char *out, size_t cap)
{
    int argc = 0;
    while (words[argc]) ++argc;
    fflush(stdout);
    FILE *tmp = tmpfile();
    const int saved = dup(fileno(stdout));
    if (!tmp || saved < 0 || dup2(fileno(tmp), fileno(stdout)) < 0) return -1000;
    const int rc = split_demo_main(argc, words);
    fflush(stdout);
    dup2(saved, fileno(stdout));
    close(saved);
    rewind(tmp);
    const size_t got = fread(out, 1, cap - 1, tmp);
    out[got] = 0;
    fclose(tmp);
    return rc;
}

#define DEMO(...) ((char *[]){"split-demo", __VA_ARGS__, NULL})
#define CHECK_EXIT(expr, want)                                                                      \
    do {                                                                                            \
        const int rc_ = (expr);                                                                     \
        SCT_CHECK_MSG(rc_ == (want), "%s: exit %d, expected %d", #expr, rc_, (want));               \
    } while (0)

static char out[1 << 16];

static void test_help_lists_subcommands(void)
{
    CHECK_EXIT(run_demo(DEMO("--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "grid") != NULL);
    SCT_CHECK(strstr(out, "records") != NULL);
    SCT_CHECK(strstr(out, "join") != NULL);
    SCT_CHECK(strstr(out, "particles") != NULL);
    SCT_CHECK(strstr(out, "grid-levels") != NULL);
}

static void test_bad_subcommand(void)
{
    CHECK_EXIT(run_demo(DEMO("no-such-subcommand"), out, sizeof out), 2);
    char *none[] = {"split-demo", NULL};
    CHECK_EXIT(run_demo(none, out, sizeof out), 2);
}

static void test_subcommand_help(void)
{
    CHECK_EXIT(run_demo(DEMO("grid", "--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "split-demo grid") != NULL);
    CHECK_EXIT(run_demo(DEMO("records", "--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "--record-bytes") != NULL);
    CHECK_EXIT(run_demo(DEMO("join", "--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "--r-dup") != NULL);
    CHECK_EXIT(run_demo(DEMO("grid-levels", "--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "--slabs") != NULL);
    CHECK_EXIT(run_demo(DEMO("particles", "--help"), out, sizeof out), 0);
    SCT_CHECK(strstr(out, "--steps") != NULL);
}

static void test_join_particles_bad_options(void)
{
    CHECK_EXIT(run_demo(DEMO("join", "--r", "0"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("join", "--s", "67108865"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("join", "--dist", "foo"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("join", "--match", "1.5"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("join", "--methods", "bogus"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid-levels", "--size", "0x10"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid-levels", "--slabs", "0"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid-levels", "a.obj", "b.obj"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("particles", "--n", "0"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("particles", "--n", "16777217"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("particles", "--steps", "1"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("particles", "--radius", "0.5", "--grid", "2"), out, sizeof out), 2);
}

static void test_grid_bad_options(void)
{
    CHECK_EXIT(run_demo(DEMO("grid", "0"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid", "12x"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid", "2147483648"), out, sizeof out), 2);
    CHECK_EXIT(run_demo(DEMO("grid", "10", "20"), out, sizeof out), 2);
}

static void test_records_bad_options(void)
{
    static const char *const bad[][3] = {
        {"--count", "0"}, {"--count", "4294967296"}, {"--count", "-1"}, {"--count", "1e6"},
        {"--count", "99999999999999999999999"}, {"--record-bytes", "12"}, {"--record-bytes", "17"},
        {"--record-bytes", "516"}, {"--record-bytes", "16,,64"}, {"--record-bytes", "16,"},
        {"--record-bytes", ""}, {"--record-bytes", "16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80"},
        {"--key-bits", "48"}, {"--key-bits", "32,64,32"}, {"--key-bits", "96,96"}, {"--key-bits", "128"},
        {"--key-bits", "32,64,96,32"}, {"--runs", "0"},
        {"--runs", "1001"}, {"--bogus", "1"}, {"--count"}, {"--count=abc"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *words[] = {"split-demo", "records", (char *)bad[i][0], (char *)bad[i][1], NULL};
        const int rc = run_demo(words, out, sizeof out);
        if (rc != 2) sct_fail(__FILE__, __LINE__, "records %s %s: exit %d, expected 2", bad[i][0],
                              bad[i][1] ? bad[i][1] : "", rc);
    }
}

/* Small runs of every subcommand, each checking itself against its CPU reference: the case
 * scripts/gpu-test.sh --sanitize runs under compute-sanitizer memcheck and racecheck. Skipped without
 * a CUDA device (the demos exit 77). */
static void test_sanitize_mid(void)
{
    char **runs[] = {
        DEMO("join", "--r", "20011", "--s", "30011", "--dist", "zipf", "--r-dup", "3", "--match", "0.5", "--runs", "1"),
        DEMO("join", "--r", "20011", "--s", "30011", "--r-dup", "3", "--runs", "1", "--methods", "hash/split,bnlj"),
        DEMO("particles", "--n", "20011", "--steps", "3"),
        DEMO("grid", "30011", "--runs", "1"),
        DEMO("grid-levels", "--size", "200x150", "--slabs", "5", "--runs", "1", "--out", "grid-levels-sanitize"),
        DEMO("records", "--count", "20011", "--record-bytes", "16,132", "--key-bits", "32,96", "--runs", "1"),
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
        const int rc = run_demo(runs[i], out, sizeof out);
        if (rc == 77) {
            sct_skip("no CUDA device");
            return;
        }
        SCT_CHECK_MSG(rc == 0, "split-demo %s ...: exit %d", runs[i][1], rc);
    }
}

int main(int argc, char **argv)
{
    const int sanitize = argc == 2 && strcmp(argv[1], "sanitize_mid") == 0;
    if (argc > 1 && !sanitize) return split_demo_main(argc, argv); /* split-demo ARGS... */
    sct_begin(argc, argv, "split_demo");
    SCT_RUN(test_sanitize_mid);
    SCT_RUN(test_help_lists_subcommands);
    SCT_RUN(test_bad_subcommand);
    SCT_RUN(test_subcommand_help);
    SCT_RUN(test_grid_bad_options);
    SCT_RUN(test_records_bad_options);
    SCT_RUN(test_join_particles_bad_options);
    return sct_end();
}
