/* fuzz_stl.c - libFuzzer target: the STL reader (sc_mesh_parse_limited), then the renderer on what it
 * loaded. Seeds: corpus/fuzz_stl/; regression cases: regressions/fuzz_stl/. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scf_run_reader(data, size, "fuzz.stl", SC_MESH_FORMAT_STL);
    return 0;
}
