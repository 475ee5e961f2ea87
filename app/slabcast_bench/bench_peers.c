/* bench_peers.c - the peer table and the helpers peers share. A peer is in the table only when its
 * file is built: CMake defines BENCH_HAVE_PEER_CUB_GRID / BENCH_HAVE_PEER_GL_RASTER when
 * peer_cub_grid / peer_gl_raster sources exist (and can be built in this configuration). */
#include "bench_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bench_peer *const k_peers[] = {
    &bench_peer_cpu,
#if BENCH_HAVE_PEER_CUB_GRID
    &bench_peer_cub_grid,
#endif
#if BENCH_HAVE_PEER_GL_RASTER
    &bench_peer_gl_raster,
#endif
};
#define PEER_COUNT (sizeof k_peers / sizeof k_peers[0])

/* Every name --peers knows, built here or not (a name not built gets its own message). */
static const char *const k_known[] = {"cpu", "cub-grid", "gl-raster"};

int bench_peer_known(const char *name)
{
    for (size_t i = 0; i < sizeof k_known / sizeof k_known[0]; ++i)
        if (strcmp(k_known[i], name) == 0) return 1;
    return bench_peer_find(name) != NULL;
}

size_t bench_peer_count(void) { return PEER_COUNT; }

const bench_peer *bench_peer_at(size_t index) { return index < PEER_COUNT ? k_peers[index] : NULL; }

const bench_peer *bench_peer_find(const char *name)
{
    for (size_t i = 0; i < PEER_COUNT; ++i)
        if (strcmp(k_peers[i]->name, name) == 0) return k_peers[i];
    return NULL;
}

void bench_peer_list(char *buf, size_t size)
{
    if (size == 0) return;
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < PEER_COUNT && used < size; ++i) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", k_peers[i]->name);
        if (n < 0) return;
        used += (size_t)n;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_peer_set_times(double *ms, size_t n, bench_peer_result *out)
{
    if (n == 0) {
        out->median_ms = out->p95_ms = out->max_ms = 0.0;
        return;
    }
    qsort(ms, n, sizeof *ms, cmp_double);
    out->median_ms = ms[(size_t)(0.5 * (double)(n - 1) + 0.5)];
    out->p95_ms = ms[(size_t)(0.95 * (double)(n - 1) + 0.5)];
    out->max_ms = ms[n - 1];
}

double bench_peer_agreement(const sc_hit *ours, const sc_hit *theirs, size_t pixels)
{
    if (pixels == 0) return 1.0;
    size_t same = 0;
    for (size_t i = 0; i < pixels; ++i) same += ours[i].tri == theirs[i].tri;
    return (double)same / (double)pixels;
}

double bench_peer_agreement_ids(const sc_hit *ours, const uint32_t *their_ids, size_t pixels)
{
    if (pixels == 0) return 1.0;
    size_t same = 0;
    for (size_t i = 0; i < pixels; ++i) same += ours[i].tri == their_ids[i];
    return (double)same / (double)pixels;
}
