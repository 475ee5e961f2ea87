# peer_gl_raster.cmake - what the gl-raster peer (peer_gl_raster.c) needs to build, for the bench's
# CMakeLists.txt:
#
#   include(${CMAKE_CURRENT_SOURCE_DIR}/peer_gl_raster.cmake)
#   slabcast_bench_add_gl_raster_peer(<the bench's target>)
#
# With CUDA (SLABCAST_WITH_CUDA) the function adds peer_gl_raster.c and peer_gl_interop.c (the CUDA-GL
# side it shares with gl-shadowmap) to the target, defines BENCH_HAVE_PEER_GL_RASTER=1 (bench_peers.c
# lists the peer then) and links:
#   slabcast_gl          the headless EGL context and GL checks (brings slabcast_glad, the GL loader)
#   slabcast_render      the CUDA renderer that deforms the mesh (sc_renderer_copy_positions)
#   slabcast_report      SC_FAIL, SC_TRY, SC_CUDA_CHECK
#   CUDA::cudart_static  streams and CUDA-GL interop (cudaGraphicsGLRegisterBuffer)
# The shaders are C strings in peer_gl_raster.c: nothing is generated. The peer uses the bench's
# bench_peer_set_times and bench_peer_agreement_ids (bench_peers.c), which the target has already.
# Without CUDA the peer cannot run (it needs CUDA-GL interop): the function adds nothing.
#
# For a CMakeLists that prefers to add the parts itself, the same as variables (empty without CUDA):
#   BENCH_PEER_GL_RASTER_SOURCES, BENCH_PEER_GL_RASTER_DEFINITIONS, BENCH_PEER_GL_RASTER_LIBS.
if(SLABCAST_WITH_CUDA)
  set(BENCH_PEER_GL_RASTER_SOURCES ${CMAKE_CURRENT_LIST_DIR}/peer_gl_raster.c ${CMAKE_CURRENT_LIST_DIR}/peer_gl_interop.c)
  set(BENCH_PEER_GL_RASTER_DEFINITIONS BENCH_HAVE_PEER_GL_RASTER=1)
  set(BENCH_PEER_GL_RASTER_LIBS slabcast_gl slabcast_glad slabcast_render slabcast_report CUDA::cudart_static)
else()
  set(BENCH_PEER_GL_RASTER_SOURCES)
  set(BENCH_PEER_GL_RASTER_DEFINITIONS)
  set(BENCH_PEER_GL_RASTER_LIBS)
endif()

function(slabcast_bench_add_gl_raster_peer target)
  if(NOT SLABCAST_WITH_CUDA)
    return()
  endif()
  target_sources(${target} PRIVATE ${BENCH_PEER_GL_RASTER_SOURCES})
  target_compile_definitions(${target} PRIVATE ${BENCH_PEER_GL_RASTER_DEFINITIONS})
  target_link_libraries(${target} PRIVATE ${BENCH_PEER_GL_RASTER_LIBS})
endfunction()
