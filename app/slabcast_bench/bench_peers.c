/* bench_peers.c - the peer table and the helpers peers share. A peer is in the table only when its
 * file is built: CMake defines BENCH_HAVE_PEER_CUB_GRID / BENCH_HAVE_PEER_GL_RASTER /
 * BENCH_HAVE_PEER_GL_SHADOWMAP when peer_cub_grid / peer_gl_raster / peer_gl_shadowmap sources exist (and
 * can be built in this configuration). */
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
#if BENCH_HAVE_PEER_GL_SHADOWMAP
    &bench_peer_gl_shadowmap,
#endif
};
#define PEER_COUNT (sizeof k_peers / sizeof k_peers[0])

/* Every name --peers knows, built here or not (a name not built gets its own message). */
static const char *const k_known[] = {"cpu", "cub-grid", "gl-raster", "gl-shadowmap"};

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

void bench_our_decisions(const sc_hit *hits, const uint8_t *shadow_mask, size_t pixels, uint8_t *out)
{
    for (size_t i = 0; i < pixels; ++i)
        out[i] = hits[i].tri == SC_NO_HIT ? BENCH_NO_HIT : (shadow_mask[i] & 1u) ? BENCH_SHADOWED : BENCH_LIT;
}

/* Whether a hit pixel of ours within BENCH_EDGE_RADIUS of (x, y) has another decision than `d`. */
static int near_our_edge(const uint8_t *ours, uint32_t width, uint32_t height, uint32_t x, uint32_t y, uint8_t d)
{
    const uint32_t r = BENCH_EDGE_RADIUS;
    const uint32_t x0 = x > r ? x - r : 0, y0 = y > r ? y - r : 0;
    const uint32_t x1 = x + r < width ? x + r : width - 1, y1 = y + r < height ? y + r : height - 1;
    for (uint32_t j = y0; j <= y1; ++j)
        for (uint32_t i = x0; i <= x1; ++i) {
            const uint8_t o = ours[(size_t)j * width + i];
            if (o != BENCH_NO_HIT && o != d) return 1;
        }
    return 0;
}

void bench_shadow_compare_decisions(const uint8_t *ours, const uint8_t *theirs, uint32_t width, uint32_t height,
                                    bench_shadow_compare *out)
{
    memset(out, 0, sizeof *out);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const size_t i = (size_t)y * width + x;
            const int a = ours[i] != BENCH_NO_HIT, b = theirs[i] != BENCH_NO_HIT;
            if (a != b) {
                *(a ? &out->only_ours : &out->only_theirs) += 1;
                continue;
            }
            if (!a) continue;
            ++out->both_hit;
            if ((ours[i] == BENCH_SHADOWED) == (theirs[i] == BENCH_SHADOWED)) continue;
            ++out->differ;
            *(ours[i] == BENCH_SHADOWED ? &out->they_lit : &out->they_shadowed) += 1;
            out->differ_at_edges += (uint64_t)near_our_edge(ours, width, height, x, y, ours[i]);
        }
    out->agreement = out->both_hit ? 1.0 - (double)out->differ / (double)out->both_hit : 1.0;
}
