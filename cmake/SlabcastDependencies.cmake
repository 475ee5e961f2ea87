# Finds every dependency; a missing one stops configure naming the Debian package to install.
# Nothing is vendored. GLFW is optional: without it the viewer is skipped (the GPU machine has none).

function(slabcast_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "slabcast: ${what} not found. Install it with:  sudo apt-get install ${package}\n"
                        "(or run scripts/install-deps.sh, which installs everything the build needs)")
  endif()
endfunction()

if(SLABCAST_WITH_CUDA)
  find_package(CUDAToolkit REQUIRED)        # cudart; CUB ships with it
endif()
find_package(Threads REQUIRED)

# OpenGL / EGL headers only: GLAD loads every entry point at run time, nothing links libGL/libEGL.
find_path(SLABCAST_GL_INCLUDE GL/glcorearb.h)
slabcast_require(SLABCAST_GL_INCLUDE "OpenGL headers (GL/glcorearb.h)" "libgl-dev")
find_path(SLABCAST_EGL_INCLUDE EGL/egl.h)
slabcast_require(SLABCAST_EGL_INCLUDE "EGL headers (EGL/egl.h)" "libegl-dev")

# liblzma: the mesh loaders decompress .xz files in-process, in a stream.
find_package(LibLZMA QUIET)
slabcast_require(LibLZMA_FOUND "liblzma (lzma.h)" "liblzma-dev")

find_path(SLABCAST_CGLM_INCLUDE cglm/cglm.h)
slabcast_require(SLABCAST_CGLM_INCLUDE "cglm (cglm/cglm.h)" "libcglm-dev")
# Header-only helpers the libraries use privately: nothing of them reaches an installed consumer.
add_library(slabcast_cglm INTERFACE)            # header-only use: every cglm call is inline
target_include_directories(slabcast_cglm SYSTEM INTERFACE $<BUILD_INTERFACE:${SLABCAST_CGLM_INCLUDE}>)

find_path(SLABCAST_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb)
slabcast_require(SLABCAST_STB_INCLUDE "stb (stb_image_write.h)" "libstb-dev")
add_library(slabcast_stb INTERFACE)
target_include_directories(slabcast_stb SYSTEM INTERFACE $<BUILD_INTERFACE:${SLABCAST_STB_INCLUDE}>)

find_package(glfw3 3.3 QUIET)
if(glfw3_FOUND)
  set(SLABCAST_HAVE_GLFW ON)
  message(STATUS "slabcast: GLFW ${glfw3_VERSION} found: the viewer will be built")
else()
  set(SLABCAST_HAVE_GLFW OFF)
  message(NOTICE "slabcast: GLFW not found: skipping the viewer and the window tests "
                 "(sudo apt-get install libglfw3-dev to build them)")
endif()
