/* fuzz_common.c - see fuzz_common.h. */
#include "fuzz_common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_verbose;

static void log_callback(sc_log_level level, const char *message, void *user)
{
    (void)user;
    if (g_verbose) fprintf(stderr, "slabcast[%d]: %s\n", (int)level, message);
}

void scf_init(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *v = getenv("SCF_VERBOSE");
    g_verbose = v && *v && strcmp(v, "0") != 0;
    sc_set_log_callback(log_callback, NULL, g_verbose ? SC_LOG_DEBUG : SC_LOG_ERROR);
}

void scf_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: check failed: %s: ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

void scf_check_status(sc_status s, const char *call)
{
    SCF_CHECK((unsigned)s < SC_STATUS_COUNT, "%s returned %d, not an sc_status", call, (int)s);
    SCF_CHECK(s != SC_ERROR_CAPACITY, "%s returned the internal SC_ERROR_CAPACITY", call);
    if (s == SC_OK) return;
    SCF_CHECK(sc_last_error()[0] != '\0', "%s returned %s with no message", call, sc_status_name(s));
    SCF_CHECK(sc_last_status() == s, "%s returned %s but recorded %s (%s)", call, sc_status_name(s),
              sc_status_name(sc_last_status()), sc_last_error());
}

static sc_mesh_limits fuzz_limits(void)
{
    sc_mesh_limits l = {SCF_MAX_BYTES, SCF_MAX_VERTICES, SCF_MAX_TRIANGLES, 0};
    return l;
}

sc_status scf_parse(const uint8_t *data, size_t size, const char *name, sc_mesh_format format, sc_mesh *out,
                    sc_mesh_report *report)
{
    sc_mesh_limits l = fuzz_limits();
    return sc_mesh_parse_limited(data, size, name, format, &l, out, report);
}

sc_status scf_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report)
{
    sc_mesh_limits l = fuzz_limits();
    return sc_mesh_load_limited(path, format, &l, out, report);
}

static int finite3(const float *v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

void scf_check_loaded(sc_status s, const char *name, const sc_mesh *m, const sc_mesh_report *report)
{
    scf_check_status(s, "mesh loader");
    if (s != SC_OK) {
        SCF_CHECK(!m->positions && !m->indices && !m->vertex_count && !m->triangle_count,
                  "a failed load (%s) left a non-empty mesh", sc_status_name(s));
        if (s == SC_ERROR_PARSE)
            SCF_CHECK(strstr(sc_last_error(), name) != NULL, "the parse error does not name the file: %s",
                      sc_last_error());
        return;
    }
    SCF_CHECK(m->vertex_count <= SCF_MAX_VERTICES && m->triangle_count <= SCF_MAX_TRIANGLES,
              "%u vertices, %u triangles: above the limits", m->vertex_count, m->triangle_count);
    SCF_CHECK(!m->vertex_count || m->positions, "%u vertices but no positions", m->vertex_count);
    SCF_CHECK(!m->triangle_count || m->indices, "%u triangles but no indices", m->triangle_count);
    for (uint32_t t = 0; t < m->triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            uint32_t i = m->indices[3 * (size_t)t + k];
            SCF_CHECK(i < m->vertex_count, "triangle %u has index %u of %u vertices", t, i, m->vertex_count);
            SCF_CHECK(finite3(m->positions + 3 * (size_t)i), "triangle %u uses non-finite vertex %u", t, i);
        }
    uint64_t dropped = report->dropped_bad_index + report->dropped_non_finite + report->dropped_zero_area;
    SCF_CHECK(report->faces_read == m->triangle_count + dropped,
              "report: %llu faces read, %u kept, %llu dropped", (unsigned long long)report->faces_read,
              m->triangle_count, (unsigned long long)dropped);
}

void scf_check_hits(const sc_hit *hits, size_t count, uint32_t triangle_count)
{
    for (size_t i = 0; i < count; ++i) {
        if (hits[i].tri == SC_NO_HIT) continue;
        SCF_CHECK(hits[i].tri < triangle_count, "pixel %zu hit triangle %u of %u", i, hits[i].tri, triangle_count);
        SCF_CHECK(!isnan(hits[i].depth), "pixel %zu hit triangle %u at a NaN depth", i, hits[i].tri);
    }
}

enum { SCF_MESH_VIEW_SIZE = 16 };

/* The renderer every loaded mesh goes through. Reused: set_mesh replaces everything a mesh sets,
 * and the camera is never set, so each input gets the default view of its own mesh. */
static sc_renderer *mesh_renderer(void)
{
    static sc_renderer *r;
    if (!r) {
        sc_renderer_desc d;
        memset(&d, 0, sizeof d);
        d.backend = SC_BACKEND_CPU;
        d.width = d.height = SCF_MESH_VIEW_SIZE;
        d.num_threads = 1;
        sc_status s = sc_renderer_create(&d, &r);
        SCF_CHECK(s == SC_OK, "cannot create the CPU renderer: %s", sc_last_error());
    }
    return r;
}

void scf_render_mesh(const sc_mesh *mesh)
{
    if (mesh->triangle_count > SCF_RENDER_MAX_TRIANGLES) return;
    sc_renderer *r = mesh_renderer();
    sc_mesh_data view = sc_mesh_view(mesh);
    sc_clear_error();
    sc_status s = sc_renderer_set_mesh(r, &view);
    scf_check_status(s, "sc_renderer_set_mesh");
    if (s != SC_OK) return;
    static uint8_t rgba[4 * SCF_MESH_VIEW_SIZE * SCF_MESH_VIEW_SIZE];
    static sc_hit hits[SCF_MESH_VIEW_SIZE * SCF_MESH_VIEW_SIZE];
    sc_frame_desc f;
    memset(&f, 0, sizeof f);
    f.rgba = rgba;
    sc_clear_error();
    s = sc_renderer_render(r, &f);
    scf_check_status(s, "sc_renderer_render");
    if (s != SC_OK) return;
    sc_clear_error();
    s = sc_renderer_read_hits(r, hits);
    scf_check_status(s, "sc_renderer_read_hits");
    if (s == SC_OK) scf_check_hits(hits, sizeof hits / sizeof hits[0], mesh->triangle_count);
}

void scf_run_reader(const uint8_t *data, size_t size, const char *name, sc_mesh_format format)
{
    scf_init();
    sc_mesh mesh;
    sc_mesh_report report;
    memset(&report, 0, sizeof report);
    sc_clear_error();
    sc_status s = scf_parse(data, size, name, format, &mesh, &report);
    scf_check_loaded(s, name, &mesh, &report);
    if (s == SC_OK) scf_render_mesh(&mesh);
    sc_mesh_free(&mesh);
}
