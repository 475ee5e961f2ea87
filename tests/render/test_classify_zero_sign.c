/* test_classify_zero_sign.c - classify.h's finite fast path (SC_FIN_MIN / MAX / ABS: fminf, fmaxf and
 * fabsf on the GPU, which may give a zero of either sign where the select forms keep one) changes no
 * result: sc_tri_classify and sc_tri_pixel_box compiled with every zero result +0 and with every one
 * -0 (classify_zero_sign_pos.c / _neg.c) equal the host's select forms, bit for bit (return value,
 * polygon, winding, margin, tile and pixel spans, depth key; the pixel box), on seeded triangles whose
 * view coordinates are exact zeros of both signs, tiny, ordinary, huge and overflowing (the select
 * path), seen from cameras on the axes and off them (cpu). The check fails when a use of ext, wmin,
 * the bounds or big depends on the sign of a zero. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "classify.h"
#include "classify_zero_sign.h"
#include "sctest.h"

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A frame looking down -z from eye (axis-aligned basis: view coordinates are exact differences). */
static void make_frame(sc_frame_params *p, const float eye[3], uint32_t w, uint32_t h, uint32_t tile)
{
    memset(p, 0, sizeof *p);
    p->width = w;
    p->height = h;
    p->tile_size = tile;
    p->tiles_x = (w + tile - 1) / tile;
    p->tiles_y = (h + tile - 1) / tile;
    p->num_tiles = p->tiles_x * p->tiles_y;
    p->num_slabs = 1;
    for (int i = 0; i < 3; ++i) p->eye[i] = eye[i];
    p->right[0] = 1.0f;
    p->up[1] = 1.0f;
    p->forward[2] = -1.0f;
    p->proj_y = 1.7320508f;
    p->proj_x = p->proj_y * (float)h / (float)w;
    p->near_plane = 0.05f;
    p->far_plane = 1.0e6f;
}

static float pick(sct_rng *rng)
{
    static const float special[] = {0.0f, -0.0f, 1.0e-30f, -1.0e-30f, 1.0e-6f, -2.5f, 3.0e38f, -3.0e38f, 1.0e20f};
    const uint32_t k = sct_rng_below(rng, 16);
    if (k < sizeof special / sizeof special[0]) return special[k];
    return (float)((double)sct_rng_below(rng, 2000001) / 1000.0 - 1000.0) / (float)(1u << sct_rng_below(rng, 8));
}

static int same_setup(const sc_tri_setup *a, const sc_tri_setup *b)
{
    if (a->num_verts != b->num_verts || bits(a->orient) != bits(b->orient) || bits(a->margin) != bits(b->margin) ||
        bits(a->depth_key) != bits(b->depth_key))
        return 0;
    if (a->tx0 != b->tx0 || a->ty0 != b->ty0 || a->tx1 != b->tx1 || a->ty1 != b->ty1) return 0;
    if (a->px0 != b->px0 || a->py0 != b->py0 || a->px1 != b->px1 || a->py1 != b->py1) return 0;
    for (uint32_t i = 0; i < 4; ++i)
        if (bits(a->sx[i]) != bits(b->sx[i]) || bits(a->sy[i]) != bits(b->sy[i])) return 0;
    return 1;
}

static void test_zero_signs(void)
{
    sct_rng rng;
    sct_rng_seed(&rng, 0x2e705164u);
    uint64_t classified = 0, zero_view = 0, checked = 0;
    for (int cam = 0; cam < 6; ++cam) {
        const float eye[3] = {cam < 2 ? 0.0f : pick(&rng), cam < 2 ? (cam ? -0.0f : 0.0f) : pick(&rng),
                              cam < 3 ? 0.0f : pick(&rng)};
        sc_frame_params p;
        make_frame(&p, eye, cam & 1 ? 1919u : 640u, cam & 1 ? 1077u : 480u, cam == 4 ? 16u : 8u);
        for (int t = 0; t < 20000; ++t) {
            float v[3][3];
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 3; ++k) v[i][k] = pick(&rng);
            /* Mostly in front of the eye (view depth = eye z - z): push z below the eye. */
            for (int i = 0; i < 3; ++i)
                if (sct_rng_below(&rng, 4) != 0) v[i][2] = eye[2] - fabsf(v[i][2]) - (sct_rng_below(&rng, 3) ? 1.0f : 0.0f);
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 2; ++k) zero_view += v[i][k] - eye[k] == 0.0f;
            sc_tri_setup ref, pos, neg;
            memset(&ref, 0, sizeof ref);
            memset(&pos, 0, sizeof pos);
            memset(&neg, 0, sizeof neg);
            const int r = sc_tri_classify(&p, v[0], v[1], v[2], &ref);
            const int rp = classify_zero_pos(&p, v[0], v[1], v[2], &pos);
            const int rn = classify_zero_neg(&p, v[0], v[1], v[2], &neg);
            SCT_CHECK_MSG(r == rp && r == rn, "camera %d triangle %d: classify %d / +0: %d / -0: %d", cam, t, r, rp, rn);
            if (r && r == rp && r == rn) {
                ++classified;
                SCT_CHECK_MSG(same_setup(&ref, &pos) && same_setup(&ref, &neg),
                              "camera %d triangle %d: the setup depends on a zero's sign", cam, t);
            }
            float d[3][3];
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 3; ++k) d[i][k] = SC_FSUB(v[i][k], eye[k]);
            int box[4] = {0, 0, 0, 0}, bp[4] = {0, 0, 0, 0}, bn[4] = {0, 0, 0, 0};
            const int q = sc_tri_pixel_box(&p, d[0], d[1], d[2], &box[0], &box[1], &box[2], &box[3]);
            const int qp = pixel_box_zero_pos(&p, d[0], d[1], d[2], bp);
            const int qn = pixel_box_zero_neg(&p, d[0], d[1], d[2], bn);
            SCT_CHECK_MSG(q == qp && q == qn && memcmp(box, bp, sizeof box) == 0 && memcmp(box, bn, sizeof box) == 0,
                          "camera %d triangle %d: the pixel box depends on a zero's sign", cam, t);
            ++checked;
        }
    }
    /* The cases are there: classified triangles, and view coordinates that are exact zeros. */
    SCT_CHECK_MSG(classified > 1000 && zero_view > 1000, "%llu classified, %llu zero view coordinates",
                  (unsigned long long)classified, (unsigned long long)zero_view);
    printf("      %llu triangles, %llu classified, %llu zero view coordinates\n", (unsigned long long)checked,
           (unsigned long long)classified, (unsigned long long)zero_view);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "classify_zero_sign");
    SCT_RUN(test_zero_signs);
    return sct_end();
}
