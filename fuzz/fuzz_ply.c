/* fuzz_ply.c - libFuzzer target: the PLY reader (sc_mesh_parse_limited), then the renderer on what it
 * loaded. Seeds: corpus/fuzz_ply/; regression cases: regressions/fuzz_ply/. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scf_run_reader(data, size, "fuzz.ply", SC_MESH_FORMAT_PLY);
    return 0;
}
