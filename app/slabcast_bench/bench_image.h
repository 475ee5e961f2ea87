/* bench_image.h - pictures of a configuration's shadow decisions (slabcast-bench --images DIR): ours
 * and a shadow peer's decisions (bench_peer.h: BENCH_LIT, BENCH_SHADOWED, BENCH_NO_HIT a pixel, row 0
 * at the bottom) as RGB PNGs with the top row first, in one palette so the pictures can stand side by
 * side, and the difference of two. */
#ifndef SLABCAST_BENCH_IMAGE_H
#define SLABCAST_BENCH_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* The palette: lit warm white, shadowed dark blue-grey, no hit the background's dark grey (the
 * renderer's SC_VIEW_SHADOW colours for one light). In a difference: where both decide alike, the
 * decision's colour faded towards grey; lit in theirs where ours is shadowed, red; shadowed in theirs
 * where ours is lit, blue; a pixel only one of the two hit, mid grey. */
#define BENCH_RGB_LIT 0xF2EBD9u
#define BENCH_RGB_SHADOWED 0x40475Au
#define BENCH_RGB_NO_HIT 0x1A1C24u
#define BENCH_RGB_THEY_LIT 0xE6372Du
#define BENCH_RGB_THEY_SHADOWED 0x2D78E6u
#define BENCH_RGB_ONE_HIT 0x808080u

/* "<dir>/<name>-<number>.png" into buf; 0, or -1 when it does not fit. */
int bench_image_path(char *buf, size_t size, const char *dir, const char *name, unsigned number);

/* The decisions of width x height pixels as a PNG at path: 0, or -1 with why ("PATH: reason"). */
int bench_decisions_png(const char *path, uint32_t width, uint32_t height, const uint8_t *decisions, char *why,
                        size_t why_size);
/* Their decisions against ours, in the difference colours above: 0, or -1 with why. */
int bench_decisions_diff_png(const char *path, uint32_t width, uint32_t height, const uint8_t *ours,
                             const uint8_t *theirs, char *why, size_t why_size);

#endif
