/* test_bench_shadows.c - slabcast-bench's shadow parts: the default light (the program's: framing centre
 * + 3 framing radii along normalize(1, 2, 1)), decisions from our hits and shadow mask, two decision images
 * compared (pixels both hit, the two ways they differ, differences at our shadows' edges), the
 * pictures read back, every stage named, and --shadows off,on run on the CPU backend with the cpu
 * peer and --images: the shadow counters of each row, the peer's shadow masks equal to ours, our
 * picture written for the configuration with shadows only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sctest_png.h"

#include "bench_image.h"
#include "bench_options.h"
#include "bench_peer.h"
#include "bench_report.h"
#include "bench_run.h"
#include "bench_sweep.h"
#include "lights.h"
#include "sctest.h"

/* The bench's light is the program's default light (lights.h): the framing centre + 3 framing radii
 * along normalize(1, 2, 1). */
static void test_default_light(void)
{
    const float center[3] = {1.0f, -2.0f, 0.5f};
    const sc_light_desc l = app_default_light(center, 2.0f);
    SCT_CHECK(l.type == SC_LIGHT_POINT);
    const double s = 3.0 * 2.0 / sqrt(6.0);
    const double want[3] = {1.0 + s, -2.0 + 2.0 * s, 0.5 + s};
    for (int k = 0; k < 3; ++k)
        SCT_CHECK_MSG(fabs(l.position[k] - want[k]) < 1e-5, "position[%d] %.9g, not %.9g", k, (double)l.position[k],
                      want[k]);
    SCT_CHECK(l.intensity == 0.0f && l.color[0] == 0.0f && l.no_shadows == 0); /* the library's defaults */
}

/* Ours from hits and the mask: no hit, bit 0 (light 0) only. */
static void test_our_decisions(void)
{
    sc_hit hits[4];
    memset(hits, 0, sizeof hits);
    hits[0].tri = SC_NO_HIT;
    const uint8_t mask[4] = {1, 0, 2, 3};
    uint8_t d[4];
    bench_our_decisions(hits, mask, 4, d);
    SCT_CHECK(d[0] == BENCH_NO_HIT && d[1] == BENCH_LIT && d[2] == BENCH_LIT && d[3] == BENCH_SHADOWED);
}

enum { CW = 8, CH = 6 };

/* Ours: row 0 misses, the left half (x < 4) in shadow, the right lit. Theirs: the same but for a pixel
 * shadowed next to our shadow's edge (4, 3), one lit far from it (0, 5), one ours hit and theirs not
 * (7, 2), one theirs hit and ours not (2, 0). */
static void make_pair(uint8_t ours[CW * CH], uint8_t theirs[CW * CH])
{
    for (int y = 0; y < CH; ++y)
        for (int x = 0; x < CW; ++x) ours[y * CW + x] = y == 0 ? BENCH_NO_HIT : x < 4 ? BENCH_SHADOWED : BENCH_LIT;
    memcpy(theirs, ours, CW * CH);
    theirs[3 * CW + 4] = BENCH_SHADOWED;
    theirs[5 * CW + 0] = BENCH_LIT;
    theirs[2 * CW + 7] = BENCH_NO_HIT;
    theirs[0 * CW + 2] = BENCH_LIT;
}

static void test_compare(void)
{
    uint8_t ours[CW * CH], theirs[CW * CH];
    make_pair(ours, theirs);
    bench_shadow_compare c;
    bench_shadow_compare_decisions(ours, theirs, CW, CH, &c);
    SCT_CHECK_EQ_U64(c.both_hit, CW * (CH - 1) - 1);
    SCT_CHECK_EQ_U64(c.only_ours, 1);
    SCT_CHECK_EQ_U64(c.only_theirs, 1);
    SCT_CHECK_EQ_U64(c.differ, 2);
    SCT_CHECK_EQ_U64(c.they_shadowed, 1);
    SCT_CHECK_EQ_U64(c.they_lit, 1);
    SCT_CHECK_EQ_U64(c.differ_at_edges, 1); /* (4, 3): our shadow one pixel away; (0, 5): four */
    SCT_CHECK(fabs(c.agreement - (1.0 - 2.0 / (CW * (CH - 1) - 1))) < 1e-12);
    /* Equal images agree fully; nothing compared is agreement 1. */
    bench_shadow_compare_decisions(ours, ours, CW, CH, &c);
    SCT_CHECK(c.differ == 0 && c.agreement == 1.0);
    memset(ours, BENCH_NO_HIT, sizeof ours);
    bench_shadow_compare_decisions(ours, ours, CW, CH, &c);
    SCT_CHECK(c.both_hit == 0 && c.agreement == 1.0);
}

static unsigned rgb_at(const unsigned char *im, int w, int x, int y)
{
    const unsigned char *p = im + ((size_t)y * w + x) * 3;
    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

/* The pictures: top row first (our row 0 at the bottom), the palette of bench_image.h. */
static void test_pictures(void)
{
    uint8_t ours[CW * CH], theirs[CW * CH];
    make_pair(ours, theirs);
    char dir[] = "/tmp/test_bench_shadows_XXXXXX", path[128], diff[128], why[512];
    SCT_REQUIRE(mkdtemp(dir));
    SCT_REQUIRE(bench_image_path(path, sizeof path, dir, "slabcast-shadow", 3) == 0);
    SCT_CHECK(strstr(path, "/slabcast-shadow-3.png") != NULL);
    SCT_REQUIRE(bench_image_path(diff, sizeof diff, dir, "gl-shadowmap-diff", 3) == 0);
    char tiny[8];
    SCT_CHECK(bench_image_path(tiny, sizeof tiny, dir, "x", 1) == -1);
    SCT_CHECK_MSG(bench_decisions_png(path, CW, CH, ours, why, sizeof why) == 0, "%s", why);
    SCT_CHECK_MSG(bench_decisions_diff_png(diff, CW, CH, ours, theirs, why, sizeof why) == 0, "%s", why);
    int w = 0, h = 0, n = 0;
    unsigned char *im = stbi_load(path, &w, &h, &n, 3);
    SCT_REQUIRE(im && w == CW && h == CH);
    SCT_CHECK(rgb_at(im, w, 0, CH - 1) == BENCH_RGB_NO_HIT); /* our row 0, at the picture's bottom */
    SCT_CHECK(rgb_at(im, w, 0, 0) == BENCH_RGB_SHADOWED);
    SCT_CHECK(rgb_at(im, w, 7, 0) == BENCH_RGB_LIT);
    stbi_image_free(im);
    im = stbi_load(diff, &w, &h, &n, 3);
    SCT_REQUIRE(im && w == CW && h == CH);
    SCT_CHECK(rgb_at(im, w, 4, CH - 1 - 3) == BENCH_RGB_THEY_SHADOWED);
    SCT_CHECK(rgb_at(im, w, 0, CH - 1 - 5) == BENCH_RGB_THEY_LIT);
    SCT_CHECK(rgb_at(im, w, 7, CH - 1 - 2) == BENCH_RGB_ONE_HIT);
    SCT_CHECK(rgb_at(im, w, 2, CH - 1) == BENCH_RGB_ONE_HIT);
    SCT_CHECK(rgb_at(im, w, 0, CH - 1 - 1) != BENCH_RGB_SHADOWED && rgb_at(im, w, 0, CH - 1 - 1) != BENCH_RGB_LIT);
    stbi_image_free(im);
    unlink(path);
    unlink(diff);
    /* A folder that is not there: a message naming the file. */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/such.png", dir);
    SCT_CHECK(bench_decisions_png(missing, CW, CH, ours, why, sizeof why) == -1);
    SCT_CHECK_MSG(strstr(why, missing), "%s", why);
    /* A device that fails every write (/dev/full, through a link): an error naming the file and the
     * reason, not a success with a truncated picture. */
    if (access("/dev/full", W_OK) == 0) {
        char full[160];
        snprintf(full, sizeof full, "%s/full.png", dir);
        SCT_REQUIRE(symlink("/dev/full", full) == 0);
        why[0] = 0;
        SCT_CHECK(bench_decisions_png(full, CW, CH, ours, why, sizeof why) == -1);
        SCT_CHECK_MSG(strstr(why, full) && strstr(why, "No space left on device"), "%s", why);
        why[0] = 0;
        SCT_CHECK(bench_decisions_diff_png(full, CW, CH, ours, theirs, why, sizeof why) == -1);
        SCT_CHECK_MSG(strstr(why, full) && strstr(why, "No space left on device"), "%s", why);
        unlink(full);
    }
    rmdir(dir);
}

/* Every stage has a name of its own in the outputs, the shadow pass's included. */
static void test_stage_names(void)
{
    for (int s = 0; s <= SC_STAGE_COUNT; ++s) {
        const char *a = bench_stage_name(s);
        SCT_CHECK_MSG(a && a[0] && strcmp(a, "?") != 0, "stage %d has no name", s);
        SCT_CHECK_MSG(strncmp(a, "stage", 5) != 0, "stage %d has no name of its own in app_stage_name: %s", s, a);
        for (int t = 0; t < s; ++t) SCT_CHECK_MSG(strcmp(a, bench_stage_name(t)) != 0, "stages %d and %d: %s", t, s, a);
    }
    SCT_CHECK(strcmp(bench_stage_name(SC_STAGE_COUNT), "frame") == 0);
    SCT_CHECK(strcmp(bench_stage_name(-1), "?") == 0);
}

/* --shadows off,on on the CPU backend, with the cpu peer and --images. */
static void test_cpu_sweep(void)
{
    char dir[] = "/tmp/test_bench_shadows_XXXXXX";
    SCT_REQUIRE(mkdtemp(dir));
    char *argv[] = {"slabcast-bench", "--backend", "cpu", "--resolution", "12", "--size", "64x48", "--frames", "2",
                    "--warmup", "1", "--shadows", "off,on", "--peers", "cpu", "--images", dir, NULL};
    int argc = (int)(sizeof argv / sizeof argv[0]) - 1;
    bench_options o;
    SCT_REQUIRE(bench_parse_options(argc, argv, &o, stderr) == 0);
    bench_context ctx;
    char why[512];
    SCT_REQUIRE(bench_context_init(&ctx, &o, why, sizeof why) == 0);
    bench_config *configs = NULL;
    size_t count = 0;
    SCT_REQUIRE(bench_sweep_expand(&o, &configs, &count, why, sizeof why) == 0);
    SCT_REQUIRE(count == 2);
    bench_row rows[2];
    SCT_CHECK_EQ_U64(bench_run_sweep(&ctx, configs, count, rows, NULL, NULL, stderr), 0);
    const bench_row *off = &rows[0], *on = &rows[1];
    SCT_CHECK(!off->config.shadows && on->config.shadows);
    SCT_CHECK(off->shadow_lights == 0 && off->light_views == 0 && off->shadow_receivers == 0 &&
              off->shadow_ray_tests == 0 && off->shadow_references == 0);
    const sc_light_desc want = app_default_light(ctx.model.orbit.center, ctx.model.orbit.radius);
    SCT_CHECK(memcmp(on->light.position, want.position, sizeof want.position) == 0 && on->light.type == SC_LIGHT_POINT);
    printf("      shadows on: %u views, %llu receivers of %llu hit pixels, %llu caster refs, %llu tests, %llu blocked, "
           "%llu early\n",
           on->light_views, (unsigned long long)on->shadow_receivers, (unsigned long long)on->hit_pixels,
           (unsigned long long)on->shadow_references, (unsigned long long)on->shadow_ray_tests,
           (unsigned long long)on->shadow_rays_blocked, (unsigned long long)on->shadow_rays_early);
    SCT_CHECK(on->shadow_lights == 1 && on->light_views >= 1 && on->light_views <= 6);
    SCT_CHECK(on->hit_pixels > 0 && on->shadow_receivers == on->hit_pixels);
    SCT_CHECK(on->shadow_ray_tests > 0 && on->shadow_references > 0);
    SCT_CHECK(on->shadow_rays_blocked > 0 && on->shadow_rays_blocked < on->shadow_receivers);
    SCT_CHECK(on->shadow_rays_early <= on->shadow_receivers && on->shadow_overflow_passes == 0);
    /* The floor (the limits measured by bench_context_init): the shadow stages' only with shadows on. */
    SCT_CHECK_MSG(ctx.device.limits_known, "limits: %s", ctx.device.limits_why);
    SCT_CHECK(off->floor_known && on->floor_known);
    for (int s = SC_STAGE_SHADOW_RECEIVERS; s <= SC_STAGE_SHADOW_CAST; ++s) {
        SCT_CHECK_MSG(off->floor.stage[s].bytes == 0 && off->floor.stage[s].ms == 0.0, "off: stage %d", s);
        SCT_CHECK_MSG(on->floor.stage[s].bytes > 0 && on->floor.stage[s].ms > 0.0, "on: stage %d", s);
    }
    SCT_CHECK_EQ_U64(on->floor.stage[SC_STAGE_SHADOW_CAST].tests, on->shadow_ray_tests);
    SCT_CHECK(on->floor.stage[SC_STAGE_COUNT].ms > off->floor.stage[SC_STAGE_COUNT].ms);
    for (int r = 0; r < 2; ++r) {
        SCT_REQUIRE(rows[r].peer_count == 1);
        const bench_peer_row *p = &rows[r].peers[0];
        SCT_CHECK_MSG(p->status == BENCH_PEER_OK && p->result.agreement == 1.0, "row %d: cpu peer %s %s", r,
                      bench_peer_status_name(p->status), p->why);
        if (r == 1)
            SCT_CHECK_MSG(strcmp(p->result.detail, "shadow masks equal on 3072 of 3072 pixels") == 0, "detail: %s",
                          p->result.detail);
        else
            SCT_CHECK(p->result.detail[0] == '\0');
    }
    char path[128];
    snprintf(path, sizeof path, "%s/slabcast-shadow-2.png", dir);
    int w = 0, h = 0, n = 0;
    unsigned char *im = stbi_load(path, &w, &h, &n, 3);
    SCT_CHECK_MSG(im && w == 64 && h == 48, "%s not written as a 64x48 picture", path);
    if (im) stbi_image_free(im);
    unlink(path);
    snprintf(path, sizeof path, "%s/slabcast-shadow-1.png", dir);
    SCT_CHECK_MSG(access(path, F_OK) != 0, "%s written for the configuration without shadows", path);
    rmdir(dir);
    free(configs);
    bench_context_free(&ctx);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "bench_shadows");
    SCT_RUN(test_default_light);
    SCT_RUN(test_our_decisions);
    SCT_RUN(test_compare);
    SCT_RUN(test_pictures);
    SCT_RUN(test_stage_names);
    SCT_RUN(test_cpu_sweep);
    return sct_end();
}
