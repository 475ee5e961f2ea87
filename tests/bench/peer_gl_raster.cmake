# peer_gl_raster.cmake - tests of the bench's gl-raster peer (app/slabcast_bench/peer_gl_raster.c), for
# tests/bench/CMakeLists.txt:   include(${CMAKE_CURRENT_SOURCE_DIR}/peer_gl_raster.cmake)
# One source, two binaries (test_peer_gl_raster.c says what each checks):
#   test_peer_gl_raster_host  gl      the peer's rasteriser on any GL 4.5 context (Mesa's llvmpipe too),
#                                     from the CPU backend's positions; no CUDA (PEER_GL_RASTER_GL_ONLY)
#   test_peer_gl_raster       gl gpu  the whole peer; built only with CUDA (slabcast_add_test leaves a
#                                     test linking CUDA:: out otherwise); exits 77 without an NVIDIA EGL
#                                     device
# Both include the peer's source (its rasteriser is static) and link the bench's peer helpers
# (bench_peers.c, whose table needs peer_cpu.c and its peer_renderer.c); the whole peer links the CUDA-GL
# side it shares with gl-shadowmap too (peer_gl_interop.c).
set(_gl_raster_bench_dir ${PROJECT_SOURCE_DIR}/app/slabcast_bench)
set(_gl_raster_sources ${CMAKE_CURRENT_LIST_DIR}/test_peer_gl_raster.c ${_gl_raster_bench_dir}/bench_peers.c
                       ${_gl_raster_bench_dir}/peer_cpu.c ${_gl_raster_bench_dir}/peer_renderer.c)
set(_gl_raster_libs slabcast_render slabcast_render_internal slabcast_gl slabcast_glad slabcast_report m)

slabcast_add_test(test_peer_gl_raster_host SOURCES ${_gl_raster_sources} LABELS gl LIBS ${_gl_raster_libs})
if(TARGET test_peer_gl_raster_host)
  target_include_directories(test_peer_gl_raster_host PRIVATE ${_gl_raster_bench_dir})
  target_compile_definitions(test_peer_gl_raster_host PRIVATE PEER_GL_RASTER_GL_ONLY=1)
endif()

slabcast_add_test(test_peer_gl_raster SOURCES ${_gl_raster_sources} ${_gl_raster_bench_dir}/peer_gl_interop.c
                  LABELS gl gpu LIBS ${_gl_raster_libs} CUDA::cudart_static)
if(TARGET test_peer_gl_raster)
  target_include_directories(test_peer_gl_raster PRIVATE ${_gl_raster_bench_dir})
endif()
