# SLABCAST_NCCL: the NCCL composite of shares across processes (render/nccl, library slabcast_nccl,
# header sc_nccl.h). AUTO (the default) builds it when CUDA is built and nccl.h and libnccl are found
# (the CUDA 13 toolkit ships them: <toolkit>/include, <toolkit>/lib); ON requires them; OFF never
# builds it. slabcast_nccl loads libnccl at its first call (render/nccl/nccl_loader.c) rather than
# linking it, and only it needs NCCL's header: every other target builds and runs
# unchanged without it. SLABCAST_WITH_NCCL says what was decided.
set(SLABCAST_NCCL AUTO CACHE STRING "Build the NCCL composite: AUTO (when nccl.h and libnccl are found), ON or OFF")
set_property(CACHE SLABCAST_NCCL PROPERTY STRINGS AUTO ON OFF)
set(SLABCAST_WITH_NCCL OFF)
if(SLABCAST_WITH_CUDA AND NOT SLABCAST_NCCL STREQUAL "OFF")
  set(_nccl_roots "${CUDAToolkit_LIBRARY_ROOT}" "${CUDAToolkit_TARGET_DIR}")
  find_path(SLABCAST_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} PATHS ${_nccl_roots}
            PATH_SUFFIXES include)
  find_library(SLABCAST_NCCL_LIBRARY NAMES nccl HINTS ${CUDAToolkit_LIBRARY_DIR} PATHS ${_nccl_roots}
               PATH_SUFFIXES lib lib64)
  if(SLABCAST_NCCL_INCLUDE_DIR AND SLABCAST_NCCL_LIBRARY)
    set(SLABCAST_WITH_NCCL ON)
  elseif(SLABCAST_NCCL STREQUAL "ON")
    message(FATAL_ERROR "slabcast: SLABCAST_NCCL=ON but nccl.h or libnccl was not found (include: "
                        "${SLABCAST_NCCL_INCLUDE_DIR}, library: ${SLABCAST_NCCL_LIBRARY}); -DSLABCAST_NCCL=OFF builds "
                        "without it")
  endif()
elseif(SLABCAST_NCCL STREQUAL "ON" AND NOT SLABCAST_WITH_CUDA)
  message(FATAL_ERROR "slabcast: SLABCAST_NCCL=ON needs the CUDA parts (SLABCAST_CUDA is off or nvcc was not found)")
endif()
message(STATUS "slabcast: NCCL composite ${SLABCAST_WITH_NCCL} (SLABCAST_NCCL=${SLABCAST_NCCL})")
