/* fuzz_xz.c - libFuzzer target: the .xz path of the loader. Each input is written to a file named
 * fuzz.obj.xz in a temporary folder of this process and loaded by name (sc_mesh_load_limited), so
 * the decompression and its limits are what is fuzzed; the OBJ reader behind it has its own target.
 * The decompressed bytes are bounded tighter than the other targets' (SCF_XZ_MAX_BYTES): a few
 * hundred compressed bytes can expand to the whole byte limit, and parsing 4 MiB of text under
 * ASan + UBSan takes longer than libFuzzer's one-second timeout on a loaded machine; the OBJ
 * reader's own target covers large inputs. * Seeds: corpus/fuzz_xz/ (small real .obj.xz files); regression cases: regressions/fuzz_xz/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SCF_XZ_MAX_BYTES = 256 << 10 };

static char g_dir[4096];
static char g_path[4200];

static void remove_temp(void)
{
    unlink(g_path);
    rmdir(g_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    scf_init();
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/slabcast-fuzz-xz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    SCF_CHECK(mkdtemp(g_dir) != NULL, "cannot create a temporary folder from %s", g_dir);
    snprintf(g_path, sizeof g_path, "%s/fuzz.obj.xz", g_dir);
    atexit(remove_temp);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(g_path, "wb");
    SCF_CHECK(f != NULL, "cannot write %s", g_path);
    SCF_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", g_path);
    sc_mesh mesh;
    sc_mesh_report report;
    memset(&report, 0, sizeof report);
    sc_clear_error();
    sc_mesh_limits limits = {SCF_XZ_MAX_BYTES, SCF_MAX_VERTICES, SCF_MAX_TRIANGLES, 0};
    sc_status s = sc_mesh_load_limited(g_path, SC_MESH_FORMAT_AUTO, &limits, &mesh, &report);
    scf_check_loaded(s, g_path, &mesh, &report);
    if (s == SC_OK) scf_render_mesh(&mesh);
    sc_mesh_free(&mesh);
    return 0;
}
