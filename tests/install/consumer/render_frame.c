/* render_frame.c - an outside program against the installed renderer: the built-in mesh, one small
 * frame on the CPU backend, and at least one pixel that is not background. */
#include <slabcast.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 48 };

int main(void)
{
    sc_mesh mesh = {0};
    sc_renderer *r = NULL;
    uint8_t *rgba = malloc((size_t)W * H * 4);
    sc_hit *hits = malloc((size_t)W * H * sizeof *hits);
    int rc = 1;
    if (!rgba || !hits) goto done;

    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_CPU;
    rd.width = W;
    rd.height = H;
    rd.num_threads = 1;
    sc_frame_desc frame = {0};
    frame.rgba = rgba;
    if (sc_mesh_default(16, &mesh) != SC_OK || sc_renderer_create(&rd, &r) != SC_OK) goto done;
    sc_mesh_data md = sc_mesh_view(&mesh);
    if (sc_renderer_set_mesh(r, &md) != SC_OK || sc_renderer_render(r, &frame) != SC_OK ||
        sc_renderer_read_hits(r, hits) != SC_OK)
        goto done;

    /* A hit pixel must be coloured unlike a missed pixel of its row (the background is a vertical gradient). */
    size_t hit_pixels = 0, differing = 0;
    for (int y = 0; y < H; ++y) {
        int miss = -1;
        for (int x = 0; x < W && miss < 0; ++x)
            if (hits[y * W + x].tri == SC_NO_HIT) miss = x;
        for (int x = 0; x < W; ++x) {
            if (hits[y * W + x].tri == SC_NO_HIT) continue;
            ++hit_pixels;
            if (miss >= 0 && memcmp(rgba + 4 * ((size_t)y * W + x), rgba + 4 * ((size_t)y * W + miss), 4) != 0)
                ++differing;
        }
    }
    printf("render_frame: %zu of %d pixels hit, %zu coloured unlike the background\n", hit_pixels, W * H, differing);
    rc = hit_pixels > 0 && differing > 0 ? 0 : 1;

done:
    if (rc != 0 && sc_last_status() != SC_OK) fprintf(stderr, "render_frame: %s\n", sc_last_error());
    sc_renderer_destroy(r);
    sc_mesh_free(&mesh);
    free(hits);
    free(rgba);
    if (rc != 0) fprintf(stderr, "render_frame: FAILED\n");
    return rc;
}
