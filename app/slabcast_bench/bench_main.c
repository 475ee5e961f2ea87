/* bench_main.c - slabcast-bench: the frame-rate benchmark of the renderer over a sweep of models,
 * sizes, grids, deformers, views and shadow settings (docs/BENCH.md). Parses the options, measures
 * the device's limits for the floor (unless --no-limits), says how many configurations will run, runs
 * them (a progress line on a terminal), prints the table and writes the JSON, CSV, plot and pictures
 * asked for. Exit status: 0 all ran, 1 a configuration
 * failed, 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_gpus.h"
#include "bench_options.h"
#include "bench_plot.h"
#include "bench_report.h"
#include "bench_run.h"
#include "bench_sweep.h"
#include "sc_status.h"

#include "bench_commit.h" /* SLABCAST_BENCH_COMMIT, written at build time */
#ifndef SLABCAST_BENCH_COMMIT
#define SLABCAST_BENCH_COMMIT "unknown"
#endif

/* Errors are said by the program with the configuration they belong to (from sc_last_error), so the
 * callback drops them; warnings (a mesh's dropped faces) and, with --verbose, info lines are shown. */
static void log_line(sc_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == SC_LOG_ERROR) return;
    static const char *const k_level[] = {"error", "warning", "info", "debug"};
    fprintf(stderr, "slabcast-bench: %s: %s\n", (unsigned)level < 4 ? k_level[level] : "log", message);
}

/* The folder of an output file must exist and be writable: found now, not after the sweep. */
static int check_writable(const char *option, const char *path)
{
    if (!path) return 0;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) >= sizeof dir) return 0; /* the write itself reports it */
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) == 0) return 0;
    fprintf(stderr, "slabcast-bench: %s %s: cannot write in %s: %s\n", option, path, dir, strerror(errno));
    return -1;
}

/* The folder of --images must exist and be writable: found now, not after the sweep. */
static int check_folder(const char *option, const char *dir)
{
    if (!dir) return 0;
    struct stat st;
    if (stat(dir, &st) != 0) {
        fprintf(stderr, "slabcast-bench: %s %s: %s\n", option, dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "slabcast-bench: %s %s: not a folder\n", option, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) == 0) return 0;
    fprintf(stderr, "slabcast-bench: %s %s: cannot write in it: %s\n", option, dir, strerror(errno));
    return -1;
}

/* ---- progress ---------------------------------------------------------------------------------- */

/* "[3/24] dragon 1920x1080 tile 8 slabs 16 ..." drawn over itself on a terminal; nothing otherwise. */
static void progress_line(void *user, const bench_config *c, size_t index, size_t count)
{
    const int *on_terminal = user;
    if (!*on_terminal) return;
    if (!c) {
        fputs("\r\033[K", stderr); /* a message follows on a clean line */
        return;
    }
    char label[400];
    bench_config_label(c, label, sizeof label);
    fprintf(stderr, "\r\033[K[%zu/%zu] %s ...", index + 1, count, label);
    fflush(stderr);
}

/* ---- the run ----------------------------------------------------------------------------------- */

/* The outputs asked for; 0, or -1 when one could not be written (said on stderr). */
static int write_outputs(const bench_report *r)
{
    const bench_options *o = r->options;
    int rc = 0;
    if (o->json_path && bench_write_json(r, o->json_path, stderr) != 0) rc = -1;
    if (o->csv_path && bench_write_csv(r, o->csv_path, stderr) != 0) rc = -1;
    if (o->plot_path) {
        char title[512];
        snprintf(title, sizeof title, "slabcast-bench on %s (%s backend), commit %s", r->device->name,
                 bench_backend_name(r->device->backend), r->commit);
        if (bench_plot_write(r->rows, r->row_count, title, o->plot_path, stderr) != 0) rc = -1;
    }
    return rc;
}

/* Runs the sweep and reports it. Returns the exit status. */
static int run_sweep(const bench_options *o, bench_context *ctx, const char *factors, int argc, char **argv)
{
    bench_config *configs = NULL;
    size_t count = 0;
    char why[512];
    if (bench_sweep_expand(o, &configs, &count, why, sizeof why) != 0) {
        fprintf(stderr, "slabcast-bench: %s\n", why);
        return 1;
    }
    bench_row *rows = calloc(count, sizeof *rows);
    char *command_line = bench_command_line(argc, argv);
    if (!rows || !command_line) {
        fprintf(stderr, "slabcast-bench: out of memory for the results of %zu configurations\n", count);
        free(configs);
        free(rows);
        free(command_line);
        return 1;
    }
    const int timed = ctx->device.device_timed;
    int frames = bench_frames_for(o, timed), warmup = bench_warmup_for(o, timed);
    fprintf(stderr, "slabcast-bench: %zu configuration%s (%s), %d frame%s each after %d warm-up, on %s (%s)\n",
            count, count == 1 ? "" : "s", factors, frames, frames == 1 ? "" : "s", warmup,
            bench_backend_name(ctx->backend), ctx->device.name);
    int on_terminal = isatty(fileno(stderr));
    size_t failed = bench_run_sweep(ctx, configs, count, rows, progress_line, &on_terminal, stderr);
    if (on_terminal) fputs("\r\033[K", stderr);
    bench_report report = {o, &ctx->device, SLABCAST_BENCH_COMMIT, command_line, rows, count};
    bench_print_table(&report, stdout);
    fflush(stdout);
    int rc = write_outputs(&report) != 0 || failed ? 1 : 0;
    if (failed) fprintf(stderr, "slabcast-bench: %zu of %zu configurations failed\n", failed, count);
    free(command_line);
    free(rows);
    free(configs);
    return rc;
}

/* --gpus instead of the sweep: its --json and --csv folders checked first, as the sweep's are. Returns
 * the exit status. */
static int run_gpus(const bench_options *o, int argc, char **argv)
{
    if (check_writable("--json", o->json_path) != 0 || check_writable("--csv", o->csv_path) != 0) return 1;
    char *command_line = bench_command_line(argc, argv);
    if (!command_line) {
        fprintf(stderr, "slabcast-bench: out of memory for the command line\n");
        return 1;
    }
    int rc = bench_run_gpus(o, SLABCAST_BENCH_COMMIT, command_line, stdout, stderr);
    free(command_line);
    return rc;
}

int main(int argc, char **argv)
{
    bench_options o;
    if (bench_parse_options(argc, argv, &o, stderr) != 0) return 2;
    if (o.help) {
        bench_print_usage(stdout);
        return 0;
    }
    sc_set_log_callback(log_line, NULL, o.verbose ? SC_LOG_DEBUG : SC_LOG_WARNING);
    if (o.gpu_count) return run_gpus(&o, argc, argv);
    uint64_t count = 0;
    char factors[512], why[768];
    if (bench_sweep_count(&o, &count, factors, sizeof factors, why, sizeof why) != 0) {
        fprintf(stderr, "slabcast-bench: %s\n", why);
        return 2;
    }
    if (check_writable("--json", o.json_path) != 0 || check_writable("--csv", o.csv_path) != 0 ||
        check_writable("--plot", o.plot_path) != 0 || check_folder("--images", o.images_dir) != 0)
        return 1;
    bench_context ctx;
    if (bench_context_init(&ctx, &o, why, sizeof why) != 0) {
        fprintf(stderr, "slabcast-bench: %s\n", why);
        bench_context_free(&ctx);
        return 1;
    }
    const bench_device *d = &ctx.device;
    if (!o.no_limits && d->limits_known)
        fprintf(stderr, "slabcast-bench: limits of %s: copy %.1f GB/s, %.4g G ray-triangle tests/s (for the floor)\n",
                d->name, d->limits.copy_gbs, d->limits.ray_tests_per_s * 1e-9);
    else if (!o.no_limits)
        fprintf(stderr, "slabcast-bench: no floor: the device's limits could not be measured: %s\n", d->limits_why);
    int rc = run_sweep(&o, &ctx, factors, argc, argv);
    bench_context_free(&ctx);
    return rc;
}
