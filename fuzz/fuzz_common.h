/* fuzz_common.h - what the libFuzzer targets share: quiet logging, the loaders' limits for fuzzing,
 * the checks every loader result must pass, and a small CPU renderer that every loaded mesh goes
 * through (a file's path through the program is: load, set_mesh, render).
 *
 * A violated check prints what was violated and aborts, which libFuzzer reports as a crash and saves
 * the input. */
#ifndef SCF_FUZZ_COMMON_H
#define SCF_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "sc_mesh.h"
#include "slabcast.h"

/* Limits small enough that libFuzzer's memory limit is never what stops a hostile file: the
 * loader's own limit must. */
enum { SCF_MAX_VERTICES = 1 << 16, SCF_MAX_TRIANGLES = 1 << 16 };
#define SCF_MAX_BYTES ((uint64_t)4 << 20)

/* Meshes with more triangles than this are checked but not rendered (keeps an input in milliseconds). */
enum { SCF_RENDER_MAX_TRIANGLES = 4096 };

/* Once per process: log callback that drops every message (set SCF_VERBOSE=1 to see them). */
void scf_init(void);

/* Aborts with a message when cond is false. */
#define SCF_CHECK(cond, ...) ((cond) ? (void)0 : scf_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))
_Noreturn void scf_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Checks a status returned by a public call: a known code, never the internal CAPACITY, and on
 * failure a recorded message with that status. sc_clear_error() must precede the call. */
void scf_check_status(sc_status s, const char *call);

/* Parses data with the fuzzing limits (sc_mesh_parse_limited). */
sc_status scf_parse(const uint8_t *data, size_t size, const char *name, sc_mesh_format format, sc_mesh *out,
                    sc_mesh_report *report);
/* Loads a file with the fuzzing limits (sc_mesh_load_limited). */
sc_status scf_load(const char *path, sc_mesh_format format, sc_mesh *out, sc_mesh_report *report);

/* The checks on a loader's result (s from scf_parse / scf_load of a file called name): on failure an
 * empty mesh and, for a parse error, a message naming the file; on success a mesh within the limits
 * whose every triangle has in-range indices and finite vertices, and a consistent report. */
void scf_check_loaded(sc_status s, const char *name, const sc_mesh *mesh, const sc_mesh_report *report);

/* Gives a loaded mesh to a 16x16 CPU renderer (created once per process) and renders one frame;
 * checks the statuses and that every hit names one of the mesh's triangles. */
void scf_render_mesh(const sc_mesh *mesh);

/* Checks hits (width x height) after a successful frame of a mesh of triangle_count triangles. */
void scf_check_hits(const sc_hit *hits, size_t count, uint32_t triangle_count);

/* The whole path of a reader target: parse, check, render, free. */
void scf_run_reader(const uint8_t *data, size_t size, const char *name, sc_mesh_format format);

#endif /* SCF_FUZZ_COMMON_H */
