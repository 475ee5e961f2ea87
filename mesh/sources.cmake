# The mesh library's sources (relative to mesh/), one list for the library (mesh/CMakeLists.txt) and
# the fuzz build (fuzz/CMakeLists.txt, which compiles them with its sanitizers): a reader added here
# is built and fuzzed alike.
set(SLABCAST_MESH_SOURCES
    src/mesh.c
    src/mesh_source.c
    src/mesh_xz.c
    src/mesh_reader.c
    src/mesh_number.c
    src/mesh_builder.c
    src/mesh_weld.c
    src/mesh_obj.c
    src/mesh_ply.c
    src/mesh_stl.c
    src/mesh_default.c
    src/mesh_subdivide.c)
