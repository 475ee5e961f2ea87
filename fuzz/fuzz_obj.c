/* fuzz_obj.c - libFuzzer target: the OBJ reader (sc_mesh_parse_limited), then the renderer on what it
 * loaded. Seeds: corpus/fuzz_obj/; regression cases: regressions/fuzz_obj/. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scf_run_reader(data, size, "fuzz.obj", SC_MESH_FORMAT_OBJ);
    return 0;
}
