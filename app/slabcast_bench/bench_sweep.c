/* bench_sweep.c - expanding the option lists into configurations. */
#include "bench_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "name_lists.h"

/* One dimension of the sweep: its length and its name in messages. */
typedef struct sweep_factor {
    uint64_t length;
    const char *singular, *plural;
} sweep_factor;

enum { FACTOR_COUNT = 8 };

static void sweep_factors(const bench_options *o, sweep_factor f[FACTOR_COUNT])
{
    f[0] = (sweep_factor){o->model_count ? o->model_count : 1, "model", "models"};
    f[1] = (sweep_factor){o->subdivide_count, "subdivision level", "subdivision levels"};
    f[2] = (sweep_factor){o->deform_count, "deformer set", "deformer sets"};
    f[3] = (sweep_factor){o->size_count, "size", "sizes"};
    f[4] = (sweep_factor){o->tile_count, "tile size", "tile sizes"};
    f[5] = (sweep_factor){o->slab_count, "slab count", "slab counts"};
    f[6] = (sweep_factor){o->has_camera ? 1 : o->views, "view", "views"};
    f[7] = (sweep_factor){o->shadow_count, "shadow setting", "shadow settings"};
}

/* "2 models x 3 sizes x 1 tile size x ..." (every factor, so the product can be read off). */
static void describe_factors(const sweep_factor f[FACTOR_COUNT], char *buf, size_t size)
{
    if (size == 0) return;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < FACTOR_COUNT && used < size; ++i) {
        int n = snprintf(buf + used, size - used, "%s%llu %s", i ? " x " : "", (unsigned long long)f[i].length,
                         f[i].length == 1 ? f[i].singular : f[i].plural);
        if (n < 0) return;
        used += (size_t)n;
    }
}

int bench_sweep_count(const bench_options *o, uint64_t *count, char *factors, size_t factors_size, char *why,
                      size_t why_size)
{
    sweep_factor f[FACTOR_COUNT];
    sweep_factors(o, f);
    char local[256]; /* the factors for the refusal's message when the caller does not want them */
    if (!factors || factors_size == 0) {
        factors = local;
        factors_size = sizeof local;
    }
    describe_factors(f, factors, factors_size);
    /* The exact product, saturating at UINT64_MAX instead of overflowing (the option limits keep it
     * far below, but the bound is not this function's to assume). */
    uint64_t product = 1;
    for (int i = 0; i < FACTOR_COUNT; ++i) {
        if (f[i].length != 0 && product > UINT64_MAX / f[i].length) product = UINT64_MAX;
        else product *= f[i].length;
    }
    *count = product;
    if (product >= 1 && product <= BENCH_MAX_CONFIGS) return 0;
    if (!why || !why_size) return -1;
    if (product == 0) snprintf(why, why_size, "the sweep has no configuration (%s)", factors);
    else
        snprintf(why, why_size, "the sweep has %llu configurations (%s), more than %u; shorten a list",
                 (unsigned long long)product, factors, BENCH_MAX_CONFIGS);
    return -1;
}

/* The configuration at a given place: the index split into one digit per factor, the last factor
 * varying fastest. */
static bench_config config_at(const bench_options *o, const sweep_factor f[FACTOR_COUNT], uint64_t index)
{
    uint64_t digit[FACTOR_COUNT];
    uint64_t rest = index;
    for (int i = FACTOR_COUNT - 1; i >= 0; --i) {
        digit[i] = rest % f[i].length;
        rest /= f[i].length;
    }
    bench_config c;
    memset(&c, 0, sizeof c);
    c.index = (unsigned)index;
    c.model = (unsigned)digit[0];
    c.model_path = o->model_count ? o->models[digit[0]] : NULL;
    c.subdivide = o->subdivides[digit[1]];
    c.deform_mask = o->deforms[digit[2]];
    c.width = o->sizes[digit[3]].width;
    c.height = o->sizes[digit[3]].height;
    c.tile_size = o->tiles[digit[4]];
    c.num_slabs = o->slabs[digit[5]];
    c.view = o->has_camera ? 0 : (uint32_t)digit[6];
    c.views = o->has_camera ? 0 : o->views;
    c.shadows = o->shadows[digit[7]];
    return c;
}

int bench_sweep_expand(const bench_options *o, bench_config **out, size_t *count, char *why, size_t why_size)
{
    *out = NULL;
    *count = 0;
    uint64_t n = 0;
    if (bench_sweep_count(o, &n, NULL, 0, why, why_size) != 0) return -1;
    sweep_factor f[FACTOR_COUNT];
    sweep_factors(o, f);
    bench_config *c = calloc((size_t)n, sizeof *c); /* n <= BENCH_MAX_CONFIGS: no overflow */
    if (!c) {
        if (why && why_size) snprintf(why, why_size, "out of memory for %llu configurations", (unsigned long long)n);
        return -1;
    }
    for (uint64_t i = 0; i < n; ++i) c[i] = config_at(o, f, i);
    *out = c;
    *count = (size_t)n;
    return 0;
}

void bench_model_short_name(const char *path, char *buf, size_t size)
{
    if (size == 0) return;
    if (!path) {
        snprintf(buf, size, "builtin");
        return;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t len = strlen(base);
    if (len > 3 && strcmp(base + len - 3, ".xz") == 0) len -= 3;
    /* The format's extension, when something is left before it. */
    for (size_t i = len; i > 1; --i)
        if (base[i - 1] == '.') {
            len = i - 1;
            break;
        }
    if (len == 0) len = strlen(base);
    snprintf(buf, size, "%.*s", (int)(len > 200 ? 200 : len), base);
}

void bench_config_label(const bench_config *c, char *buf, size_t size)
{
    if (size == 0) return;
    char model[208], deform[64], extra[80] = "";
    bench_model_short_name(c->model_path, model, sizeof model);
    app_deform_set_names(c->deform_mask, deform, sizeof deform);
    size_t used = 0;
    if (c->subdivide) used += (size_t)snprintf(extra, sizeof extra, " subdivide %u", c->subdivide);
    if (c->views > 1 && used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " view %u/%u", c->view + 1, c->views);
    if (c->views == 0 && used < sizeof extra) used += (size_t)snprintf(extra + used, sizeof extra - used, " camera");
    if (c->shadows && used < sizeof extra) snprintf(extra + used, sizeof extra - used, " shadows");
    snprintf(buf, size, "%s %ux%u tile %u slabs %u deform %s%s", model, c->width, c->height, c->tile_size,
             c->num_slabs, deform, extra);
}
