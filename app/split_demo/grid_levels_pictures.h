/* grid_levels_pictures.h - the PNG pictures of `split-demo grid-levels` (demo_grid_levels.cu), each
 * written to --out DIR with a "wrote PATH (WxH)" line on stdout: the grid's two level pictures, the
 * renderer's tests pictures with its legend, and its shaded frame (demo_png.h draws them; the renderer
 * is read through its public API only). Host code; plain C; usable from .c and .cu files alike.
 * Each returns 0, or 1 after printing why (a host allocation, a path too long, a failed write or
 * renderer call). */
#ifndef SPLIT_DEMO_GRID_LEVELS_PICTURES_H
#define SPLIT_DEMO_GRID_LEVELS_PICTURES_H

#include <stdint.h>

#include "grid_levels_host.h"
#include "grid_levels_options.h"
#include "slabcast.h"

#ifdef __cplusplus
extern "C" {
#endif

/* level1-tiles.png: references per tile (tile_refs, g->tiles of them), log scale up to max_per_tile. */
int gl_picture_tiles(const gl_opts *o, const gl_grid *g, const uint32_t *tile_refs, uint32_t max_per_tile);

/* level2-slabs.png: non-empty slabs per tile (tile_slabs), and under it the references per slab
 * (slab_refs, g->slabs of them) as a bar chart. */
int gl_picture_slabs(const gl_opts *o, const gl_grid *g, const uint32_t *tile_slabs, const uint64_t *slab_refs);

/* tests-*.png (name): the renderer's o->width x o->height image rgba (host memory) with the legend of
 * its current view mode and title above it. */
int gl_picture_tests(const gl_opts *o, sc_renderer *r, const uint8_t *rgba, const char *name, const char *title);

/* frame.png: the renderer's shaded o->width x o->height image rgba (host memory). */
int gl_picture_frame(const gl_opts *o, const uint8_t *rgba);

#ifdef __cplusplus
}
#endif
#endif /* SPLIT_DEMO_GRID_LEVELS_PICTURES_H */
