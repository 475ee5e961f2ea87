# GLAD 2, generated offline at configure time into the build tree with Debian's python3-glad:
# OpenGL core 4.6 + EGL 1.5 with the built-in loader. Target: slabcast_glad.
set(SLABCAST_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
find_program(SLABCAST_GLAD_PYTHON NAMES python3 HINTS /usr/bin NO_DEFAULT_PATH)
if(NOT SLABCAST_GLAD_PYTHON)
  find_program(SLABCAST_GLAD_PYTHON NAMES python3)
endif()
set(_glad_ok FALSE)
if(SLABCAST_GLAD_PYTHON)
  execute_process(COMMAND ${SLABCAST_GLAD_PYTHON} -c "import glad" RESULT_VARIABLE _glad_rc OUTPUT_QUIET ERROR_QUIET)
  if(_glad_rc EQUAL 0)
    set(_glad_ok TRUE)
  endif()
endif()
slabcast_require(_glad_ok "GLAD generator (python3 -m glad)" "python3-glad")

set(_glad_stamp ${SLABCAST_GLAD_DIR}/src/gl.c)
if(NOT EXISTS ${_glad_stamp} OR NOT EXISTS ${SLABCAST_GLAD_DIR}/src/egl.c)
  message(STATUS "slabcast: generating GLAD (gl:core=4.6, egl=1.5) into ${SLABCAST_GLAD_DIR}")
  execute_process(
    COMMAND ${SLABCAST_GLAD_PYTHON} -m glad --quiet --reproducible --api gl:core=4.6,egl=1.5
            --out-path ${SLABCAST_GLAD_DIR} c --loader
    RESULT_VARIABLE _glad_gen_rc OUTPUT_VARIABLE _glad_out ERROR_VARIABLE _glad_out)
  if(NOT _glad_gen_rc EQUAL 0)
    message(FATAL_ERROR "slabcast: GLAD generation failed:\n${_glad_out}")
  endif()
endif()

add_library(slabcast_glad STATIC ${SLABCAST_GLAD_DIR}/src/gl.c ${SLABCAST_GLAD_DIR}/src/egl.c)
# Installed (cmake/SlabcastInstall.cmake) with its headers under include/slabcast/loader.
target_include_directories(slabcast_glad SYSTEM PUBLIC $<BUILD_INTERFACE:${SLABCAST_GLAD_DIR}/include>)
target_include_directories(slabcast_glad PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/slabcast/loader>)
target_link_libraries(slabcast_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(slabcast_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
