/* move_model.c - the pass-count model of split_gather / split_scatter (move_model.h says what it
 * counts and why). Plain C: the GPU dispatch (gather_scatter.cu) feeds it the device's L2 size; the
 * CPU test (tests/primitives/test_move_model.c) checks its arithmetic. */
#include "move_model.h"

#include "split_tuning.h"

enum { SECTOR = 32 };

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        const uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void split_move_model_sectors(uint64_t record_bytes, double *touched, double *partial)
{
    *touched = *partial = 0.0;
    if (record_bytes == 0) return;
    /* Record j starts at j R; its offset inside a sector cycles over the multiples of g = gcd(R, 32),
     * each equally often. A record at offset o touches ceil((o + R) / 32) sectors, of which
     * floor((o + R) / 32) - ceil(o / 32) are wholly its own (none when it lies inside one sector). */
    const uint64_t g = gcd_u64(record_bytes, SECTOR);
    uint64_t sectors = 0, part = 0, offsets = 0;
    for (uint64_t o = 0; o < SECTOR; o += g, ++offsets) {
        const uint64_t end = o + record_bytes;
        const uint64_t all = (end + SECTOR - 1) / SECTOR, first_full = (o + SECTOR - 1) / SECTOR;
        const uint64_t full = end / SECTOR > first_full ? end / SECTOR - first_full : 0;
        sectors += all;
        part += all - full;
    }
    *touched = (double)SECTOR * (double)sectors / (double)offsets;
    *partial = (double)SECTOR * (double)part / (double)offsets;
}

double split_move_model_cost(uint64_t n, uint64_t record_bytes, uint64_t l2_bytes, uint32_t passes, int scatter)
{
    if (passes == 0) passes = 1;
    const double nd = (double)n, rb = (double)record_bytes, p = (double)passes;
    double sector = 0.0, partial = 0.0;
    split_move_model_sectors(record_bytes, &sector, &partial);
    const double cache = (double)l2_bytes * MOVE_MODEL_L2_PERCENT / 100.0;
    const double window = nd * rb / p;
    const double hit = window <= cache ? 1.0 : cache / window;
    const double fetched = sector > MOVE_MODEL_MISS_MIN_BYTES ? sector : (double)MOVE_MODEL_MISS_MIN_BYTES;
    const double miss = scatter ? fetched + (MOVE_MODEL_PARTIAL_WRITE_X100 - 100) / 100.0 * partial : fetched;
    const double indexed = nd * (hit * rb + (1.0 - hit) * miss);
    const double contiguous = nd * (sector < p * rb ? sector : p * rb);
    const double index = 4.0 * nd * p;
    const double words = nd * rb / 16.0;
    const double walk = passes > 1 ? p * (MOVE_MODEL_PASS_BYTES + words * MOVE_MODEL_WORD_BYTES_X100 / 100.0) : 0.0;
    return indexed + contiguous + index + walk;
}

uint32_t split_move_model_passes(uint64_t n, uint64_t record_bytes, uint64_t l2_bytes, int scatter)
{
    if (n <= 1 || record_bytes == 0) return 1;
    uint32_t best = 1;
    double best_cost = split_move_model_cost(n, record_bytes, l2_bytes, 1, scatter);
    for (uint32_t p = 2; p <= MOVE_MODEL_MAX_PASSES && p <= n; p *= 2) {
        const double c = split_move_model_cost(n, record_bytes, l2_bytes, p, scatter);
        if (c < best_cost) {
            best_cost = c;
            best = p;
        }
    }
    return best;
}
