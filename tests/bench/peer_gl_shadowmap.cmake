# peer_gl_shadowmap.cmake - tests of the bench's gl-shadowmap peer (app/slabcast_bench/peer_gl_shadowmap.c),
# for tests/bench/CMakeLists.txt:   include(${CMAKE_CURRENT_SOURCE_DIR}/peer_gl_shadowmap.cmake)
# One source, two binaries (test_peer_gl_shadowmap.c says what each checks):
#   test_peer_gl_shadowmap_host  gl      the light's frustum, and the shadow mapper on any GL 4.5 context
#                                        (Mesa's llvmpipe too) from the CPU backend's positions, against
#                                        the CPU backend's shadows; no CUDA (PEER_GL_SHADOWMAP_GL_ONLY)
#   test_peer_gl_shadowmap       gl gpu  the whole peer; built only with CUDA (slabcast_add_test leaves a
#                                        test linking CUDA:: out otherwise); exits 77 without an NVIDIA
#                                        EGL device
# Both include the peer's source (its shadow mapper is static) and link the bench's peer helpers
# (bench_peers.c, whose table needs peer_cpu.c and its peer_renderer.c) and its pictures (bench_image.c);
# the programs' framing, default light and deformer sets come from slabcast_app_common (app/common).
set(_gl_shadowmap_bench_dir ${PROJECT_SOURCE_DIR}/app/slabcast_bench)
set(_gl_shadowmap_sources ${CMAKE_CURRENT_LIST_DIR}/test_peer_gl_shadowmap.c ${_gl_shadowmap_bench_dir}/bench_peers.c
                          ${_gl_shadowmap_bench_dir}/peer_cpu.c ${_gl_shadowmap_bench_dir}/peer_renderer.c
                          ${_gl_shadowmap_bench_dir}/bench_image.c)
set(_gl_shadowmap_libs slabcast_app_common slabcast_render slabcast_mesh slabcast_gl slabcast_glad slabcast_report
                       slabcast_stb m)

slabcast_add_test(test_peer_gl_shadowmap_host SOURCES ${_gl_shadowmap_sources} LABELS gl LIBS ${_gl_shadowmap_libs})
if(TARGET test_peer_gl_shadowmap_host)
  target_include_directories(test_peer_gl_shadowmap_host PRIVATE ${_gl_shadowmap_bench_dir})
  target_compile_definitions(test_peer_gl_shadowmap_host PRIVATE PEER_GL_SHADOWMAP_GL_ONLY=1)
endif()

slabcast_add_test(test_peer_gl_shadowmap SOURCES ${_gl_shadowmap_sources} ${_gl_shadowmap_bench_dir}/peer_gl_interop.c
                  LABELS gl gpu LIBS ${_gl_shadowmap_libs} CUDA::cudart_static)
if(TARGET test_peer_gl_shadowmap)
  target_include_directories(test_peer_gl_shadowmap PRIVATE ${_gl_shadowmap_bench_dir})
endif()
