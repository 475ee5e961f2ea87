/* viewer_state.c - the viewer's state as JSON, and numbered screenshot files. */
#include "viewer_state.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "frame_stats.h"
#include "name_lists.h"
#include "options.h"

static void put_vec3(FILE *f, const char *name, const float v[3])
{
    fprintf(f, ",\"%s\":[", name);
    for (int k = 0; k < 3; ++k) {
        if (k) fputc(',', f);
        app_json_number(f, v[k]);
    }
    fputc(']', f);
}

/* ,"name":[x,y,w,h] */
static void put_rect(FILE *f, const char *name, app_rect r)
{
    fprintf(f, ",\"%s\":[%d,%d,%d,%d]", name, r.x, r.y, r.w, r.h);
}

/* ,"shadows":0|1,"lights":N,"light_type":"point"|"directional"|"none","light":[x,y,z] (a point light's
 * position, a directional light's direction; 0s for none),"center":[..],"radius":r */
static void put_light(FILE *f, const app_viewer_state *s)
{
    static const float k_none[3] = {0.0f, 0.0f, 0.0f};
    const int directional = s->light.type == SC_LIGHT_DIRECTIONAL;
    const char *type = s->light_count == 0 ? "none" : (directional ? "directional" : "point");
    fprintf(f, ",\"shadows\":%d,\"lights\":%u,\"light_type\":\"%s\"", s->shadows, s->light_count, type);
    put_vec3(f, "light", s->light_count == 0 ? k_none : (directional ? s->light.direction : s->light.position));
    put_vec3(f, "center", s->center);
    fputs(",\"radius\":", f);
    app_json_number(f, s->radius);
}

void app_viewer_state_write(FILE *f, const app_viewer_state *s)
{
    char deform[64];
    app_deform_set_names(s->deform_mask, deform, sizeof deform);
    fputs("{\"event\":", f);
    app_json_string(f, s->event ? s->event : "");
    put_vec3(f, "eye", s->camera.eye);
    put_vec3(f, "target", s->camera.target);
    fputs(",\"fov\":", f);
    app_json_number(f, app_camera_fov_degrees(&s->camera));
    fprintf(f, ",\"mode\":\"%s\",\"tile\":%u,\"slabs\":%u,\"paused\":%d,\"time\":", app_mode_name(s->mode),
            s->tile_size, s->num_slabs, s->paused);
    app_json_number(f, s->time);
    fprintf(f,
            ",\"hud\":%d,\"help\":%d,\"vsync\":%d,\"fullscreen\":%d,\"cull\":%d,\"flat\":%d,\"deform\":\"%s\","
            "\"width\":%d,\"height\":%d",
            s->hud, s->help, s->vsync, s->fullscreen, s->cull, s->flat, deform, s->width, s->height);
    fputs(",\"deform_amount\":", f);
    app_json_number(f, s->deform_amount);
    fputs(",\"deform_speed\":", f);
    app_json_number(f, s->deform_speed);
    fputs(",\"heat_max\":", f);
    app_json_number(f, s->heat_max);
    put_light(f, s);
    fputs(",\"model\":", f);
    app_json_string(f, s->model ? s->model : "");
    fprintf(f, ",\"model_index\":%d,\"model_count\":%d", s->model_index, s->model_count);
    put_rect(f, "hud_rect", s->hud_rect);
    put_rect(f, "legend_rect", s->legend_rect);
    put_rect(f, "banner_rect", s->banner_rect);
    fprintf(f, ",\"screenshots\":%d}\n", s->screenshots);
    fflush(f);
}

int app_reserve_screenshot_path(char *path, size_t size)
{
    for (int n = 1; n <= 9999; ++n) {
        snprintf(path, size, "slabcast-%04d.png", n);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            close(fd);
            return 0;
        }
        if (errno != EEXIST) {
            fprintf(stderr, "slabcast: cannot create %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    fprintf(stderr, "slabcast: slabcast-0001.png .. slabcast-9999.png all exist here; move some away\n");
    return -1;
}
