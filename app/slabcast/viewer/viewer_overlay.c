/* viewer_overlay.c - the viewer's statistics (polled every frame without waiting for the device,
 * averaged over APP_STATS_PERIOD), the HUD (statistics with the stage graph, the colour legend, the
 * notice banner) and help panels, and the state log. */
#include <glad/gl.h>
#include <stdio.h>
#include <string.h>

#include "frame_stats.h"
#include "hud_graphics.h"
#include "lights.h"
#include "name_lists.h"
#include "viewer_internal.h"
#include "viewer_state.h"

/* ---- overlays ---------------------------------------------------------------------------------- */

double app_viewer_time(const viewer *v)
{
    return v->t_base + (double)v->sim_frames * (double)v->options->time_step;
}

/* Adds the latest finished frame's statistics to the period's sums, once per frame. */
void app_viewer_poll_stats(viewer *v)
{
    sc_frame_stats st;
    int available = 0;
    if (sc_renderer_poll_stats(v->scene->renderer, &st, &available) != SC_OK || !available ||
        st.frame == v->last_stats_frame)
        return;
    v->last_stats_frame = st.frame;
    for (int i = 0; i < SC_STAGE_COUNT; ++i) v->stats_sum.stage_ms[i] += st.stage_ms[i];
    v->stats_sum.frame_ms += st.frame_ms;
    v->stats_sum.total_ms += st.total_ms;
    v->stats_last = st;
    ++v->stats_count;
}

/* The period's averages of the times, the last frame's counters. */
sc_frame_stats app_viewer_period_stats(viewer *v)
{
    sc_frame_stats st = v->stats_last;
    if (v->stats_count > 0) {
        for (int i = 0; i < SC_STAGE_COUNT; ++i) st.stage_ms[i] = v->stats_sum.stage_ms[i] / v->stats_count;
        st.frame_ms = v->stats_sum.frame_ms / v->stats_count;
        st.total_ms = v->stats_sum.total_ms / v->stats_count;
    }
    memset(&v->stats_sum, 0, sizeof v->stats_sum);
    v->stats_count = 0;
    return st;
}

/* The statistics text: times averaged over the sampling period, the latest finished frame's
 * counters, the frame rate and host time per frame over the period. */
void app_viewer_update_stats_text(viewer *v, const sc_frame_stats *st, double fps, double host_ms)
{
    app_scene *s = v->scene;
    const sc_backend_info *info = &s->backend_info;
    v->stats_shown = *st;
    char deform[64];
    app_deform_set_names(s->deform_mask, deform, sizeof deform);
    size_t len = 0, size = sizeof v->stats_text;
    char *t = v->stats_text;
#define PUT(...) do { int n_ = snprintf(t + len, size - len, __VA_ARGS__); if (n_ > 0 && (size_t)n_ < size - len) len += (size_t)n_; } while (0)
    PUT("%.1f fps  %.2f ms/frame  %s %.3f ms  host %.3f ms (avg 0.5 s)\n", fps, host_ms,
        info->device_timed ? "GPU" : "cpu", st->frame_ms, st->total_ms);
    /* Stage times on three lines: geometry and counting, the grid and the eye rays, the shadow pass
     * and shade. */
    for (int i = 0; i < SC_STAGE_COUNT; ++i)
        PUT("%s%s %.3f", i == 0 ? "" : (i == SC_STAGE_EMIT || i == SC_STAGE_SHADOW_RECEIVERS ? "\n" : "  "),
            app_stage_name(i), st->stage_ms[i]);
    PUT(" ms\n");
    PUT("triangles %llu  visible %llu  references %llu\n", (unsigned long long)st->triangles,
        (unsigned long long)st->visible_triangles, (unsigned long long)st->references);
    PUT("ray-triangle tests %llu  tiles exited early %llu of %llu\n", (unsigned long long)st->ray_triangle_tests,
        (unsigned long long)st->tiles_exited_early, (unsigned long long)st->tiles);
    char light[128];
    if (s->light_count) app_light_format(&s->lights[0], light, sizeof light);
    else snprintf(light, sizeof light, "the shading's directional light");
    PUT("shadows %s  light %s", v->shadows ? "on" : "off", light);
    if (s->light_count > 1) PUT(" (+%u more)", s->light_count - 1);
    PUT("\n");
    if (v->shadows)
        PUT("receivers %llu  caster refs %llu  shadow tests %llu  blocked %llu\n",
            (unsigned long long)st->shadow_receivers, (unsigned long long)st->shadow_references,
            (unsigned long long)st->shadow_ray_tests, (unsigned long long)st->shadow_rays_blocked);
    PUT("%dx%d  tile %u x %u slabs  %s backend%s%s\n", v->fb_width, v->fb_height, v->tile_size, v->num_slabs,
        info->name, info->device_name[0] ? "  " : "", info->device_name);
    PUT("%s  mode %s  deform %s  t %.2f s%s\n", s->mesh_name, app_mode_name(s->mode), deform, app_viewer_time(v),
        v->paused ? " (paused)" : "");
    PUT("cull %s  flat %s  vsync %s   F1 or ?: keys", v->cull ? "on" : "off", v->flat ? "on" : "off",
        v->vsync ? "on" : "off");
    if (v->notice[0]) PUT("\n%s", v->notice); /* the fallback in force, after its banner is gone too */
#undef PUT
}

static void clear_overlay_rects(viewer *v)
{
    v->hud_rect = v->legend_rect = v->banner_rect = (app_rect){0, 0, 0, 0};
}

static void hud_failed(viewer *v)
{
    fprintf(stderr, "slabcast: the on-screen statistics, legend and help are off: %s\n", app_hud_error());
    app_hud_destroy(v->hud);
    v->hud = NULL;
    v->hud_failed = 1;
    clear_overlay_rects(v);
    /* Leave GL as the display pass expects it. */
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glUseProgram(0);
    glBindVertexArray(0);
    while (glGetError() != GL_NO_ERROR) {}
}

/* The statistics panel at the top-left and the stage graph under it (the period's averages);
 * hud_rect covers both. */
static int draw_statistics(viewer *v, int scale)
{
    app_rect text, graph;
    if (app_hud_draw(v->hud, v->stats_text, 0, 0, scale, v->fb_width, v->fb_height, &text) != 0 ||
        app_hud_draw_stage_graph(v->hud, &v->stats_shown, text.x, text.y + text.h, text.w, scale, v->fb_width,
                                 v->fb_height, &graph) != 0)
        return -1;
    v->hud_rect = app_rect_union(text, graph);
    return 0;
}

/* The colour legend of the view mode the image was shaded with (bottom-left; nothing for a mode
 * without a scale) and, until its time is up, the notice banner above it (bottom-centre). */
static int draw_legend_and_banner(viewer *v, int scale)
{
    if (app_hud_draw_legend(v->hud, v->scene->renderer, scale, v->fb_width, v->fb_height, &v->legend_rect) != 0)
        return -1;
    if (!v->notice[0] || glfwGetTime() >= v->notice_until) return 0;
    const int bottom = (v->legend_rect.h > 0 ? v->legend_rect.y : v->fb_height) - 4 * scale;
    return app_hud_draw_banner(v->hud, v->notice, bottom, scale, v->fb_width, v->fb_height, &v->banner_rect);
}

/* With the HUD on (H): statistics, stage graph, legend and notice; the help panel (F1) over them. */
void app_viewer_draw_overlays(viewer *v)
{
    clear_overlay_rects(v);
    if (v->hud_failed || (!v->hud_on && !v->help_on)) return;
    if (!v->hud && app_hud_create(&v->hud) != 0) {
        hud_failed(v);
        return;
    }
    int scale = v->fb_width >= 1200 ? 2 : 1;
    int y = 0;
    if (v->hud_on) {
        if (draw_statistics(v, scale) != 0 || draw_legend_and_banner(v, scale) != 0) {
            hud_failed(v);
            return;
        }
        y = v->hud_rect.h + 4;
    }
    if (v->help_on) {
        /* Keys and descriptions side by side, below the statistics when there is room. */
        char keys[2048], descriptions[4096];
        app_bindings_text(0, keys, sizeof keys);
        app_bindings_text(1, descriptions, sizeof descriptions);
        app_rect k = app_hud_measure(keys, 0, 0, scale, 1 << 20, 1 << 20);
        if (y + k.h > v->fb_height) y = v->fb_height > k.h ? v->fb_height - k.h : 0;
        app_rect r;
        if (app_hud_draw(v->hud, keys, 0, y, scale, v->fb_width, v->fb_height, &r) != 0 ||
            app_hud_draw(v->hud, descriptions, k.w, y, scale, v->fb_width, v->fb_height, &r) != 0)
            hud_failed(v);
    }
}

void app_viewer_write_state(viewer *v)
{
    if (!v->state_log || !v->log_event) return;
    app_viewer_state st = {0};
    st.event = v->log_event;
    st.camera = v->scene->camera;
    st.mode = v->scene->mode;
    st.tile_size = v->tile_size;
    st.num_slabs = v->num_slabs;
    st.paused = v->paused;
    st.time = app_viewer_time(v);
    st.hud = v->hud_on;
    st.help = v->help_on;
    st.vsync = v->vsync;
    st.fullscreen = v->fullscreen;
    st.cull = v->cull;
    st.flat = v->flat;
    st.shadows = v->shadows;
    st.light_count = v->scene->light_count;
    if (st.light_count) st.light = v->scene->lights[0];
    for (int k = 0; k < 3; ++k) st.center[k] = v->scene->orbit.center[k];
    st.radius = v->scene->orbit.radius;
    st.deform_mask = v->scene->deform_mask;
    st.width = v->fb_width;
    st.height = v->fb_height;
    st.hud_rect = v->hud_rect;
    st.deform_amount = v->deform_amount;
    st.deform_speed = v->deform_speed;
    st.heat_max = v->heat_max;
    st.model = v->models[v->model_index] ? v->models[v->model_index] : "built-in";
    st.model_index = v->model_index;
    st.model_count = v->model_count;
    st.legend_rect = v->legend_rect;
    st.banner_rect = v->banner_rect;
    st.screenshots = v->screenshots;
    app_viewer_state_write(v->state_log, &st);
    v->log_event = NULL;
}
