/* mesh_weld.c - welding STL vertices with identical coordinates: a linear-probing hash table whose
 * hash of the 96-bit key is keyed by a per-table random value. Without the key, a file can be
 * crafted so that its vertices share a few slots and every insertion probes all of them (quadratic
 * time: a 4 MB file took half a minute); with it, which vertices collide cannot be known when the
 * file is written, so the expected probe length stays constant on any input. The key changes only
 * the table layout: vertex numbering is first-use order either way, so results are reproducible. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mesh_internal.h"
#include "sc_report.h"

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* A key no file can predict: the clock, an address (ASLR) and a counter, mixed. */
static void random_key(uint64_t key[2], const void *where)
{
    static _Atomic uint64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t c = ++counter;
    uint64_t a = mix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ c * 0x9e3779b97f4a7c15ull);
    key[0] = mix64(a ^ (uint64_t)(uintptr_t)where);
    key[1] = mix64(key[0] ^ (uint64_t)(uintptr_t)&counter ^ 0x243f6a8885a308d3ull);
}

/* Two keyed rounds of a full-avalanche mixer over the three words: two distinct vertices collide
 * in the first round only for the key's own values. */
static uint64_t hash_vertex(const sc_weld_table *t, const float v[3])
{
    uint32_t w[3];
    memcpy(w, v, sizeof w);
    uint64_t h = mix64(((uint64_t)w[0] | (uint64_t)w[1] << 32) ^ t->key[0]);
    return mix64(h ^ w[2] ^ t->key[1]);
}

void sc_weld_init(sc_weld_table *t, sc_mesh_builder *b)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    random_key(t->key, t);
}

void sc_weld_free(sc_weld_table *t)
{
    free(t->slots);
    t->slots = NULL;
    t->mask = 0;
}

/* Doubles the table (at most half full) and re-inserts every vertex. */
static int grow(sc_weld_table *t)
{
    size_t cap = t->mask ? 2 * (t->mask + 1) : 4096;
    if (cap == 0 || cap > SIZE_MAX / sizeof *t->slots) return 0;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s) return 0;
    for (size_t i = 0; i < t->b->num_vertices; ++i) {
        size_t h = (size_t)hash_vertex(t, t->b->positions + 3 * i) & (cap - 1);
        while (s[h]) h = (h + 1) & (cap - 1);
        s[h] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = s;
    t->mask = cap - 1;
    return 1;
}

sc_status sc_weld(sc_weld_table *t, const float v[3], uint32_t *index)
{
    /* Negative zero welds with zero. */
    const float q[3] = {v[0] + 0.0f, v[1] + 0.0f, v[2] + 0.0f};
    if (2 * (t->b->num_vertices + 1) > t->mask + 1 && !grow(t))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the vertex weld table", t->b->name);
    size_t h = (size_t)hash_vertex(t, q) & t->mask;
    while (t->slots[h]) {
        const float *p = t->b->positions + 3 * (size_t)(t->slots[h] - 1);
        if (memcmp(p, q, sizeof q) == 0) {
            *index = t->slots[h] - 1;
            return SC_OK;
        }
        h = (h + 1) & t->mask;
    }
    SC_TRY(sc_mb_vertex(t->b, q[0], q[1], q[2]));
    t->slots[h] = (uint32_t)t->b->num_vertices;
    *index = (uint32_t)t->b->num_vertices - 1;
    return SC_OK;
}
