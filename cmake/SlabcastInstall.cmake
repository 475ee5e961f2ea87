# Installation: the static libraries, their public headers, the programs, the CMake package
# (find_package(slabcast); targets slabcast::status, ::split, ::mesh, ::render, ::gl, ::display) and a
# pkg-config file per library. Included from the top-level CMakeLists.txt after every target exists.
#
#   <prefix>/include/slabcast/       sc_status.h split.h sc_mesh.h slabcast.h sc_gl.h sc_display.h;
#                                    loader/ (GLAD's headers, for slabcast::gl and ::display)
#   <prefix>/lib/                    libslabcast_{status,split,mesh,render,gl,display,glad}.a
#   <prefix>/lib/cmake/slabcast/     slabcastConfig.cmake, slabcastConfigVersion.cmake, slabcastTargets*.cmake
#   <prefix>/lib/pkgconfig/          slabcast-{status,split,mesh,render,gl,display}.pc
#   <prefix>/bin/                    slabcast, slabcast-bench (and split_bench, split-demo, slabcast-display-bench with CUDA)
#   <prefix>/share/slabcast/examples/ examples/ as source: each a project of its own on find_package(slabcast)
#
# Internal headers (status/internal/sc_report.h, any src/ header) are never installed; the helper
# targets the libraries link PRIVATE (slabcast_report, slabcast_cglm, slabcast_stb) exist only in the
# build tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SLABCAST_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/slabcast)
set(SLABCAST_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/slabcast)
set(SLABCAST_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# target -> name in the package (slabcast::<name>), in link order (dependants first).
set(SLABCAST_EXPORTED_LIBS
    slabcast_display display
    slabcast_gl gl
    slabcast_glad glad
    slabcast_render render
    slabcast_mesh mesh
    slabcast_split split
    slabcast_status status)

set(SLABCAST_PUBLIC_HEADERS
    ${PROJECT_SOURCE_DIR}/status/include/sc_status.h
    ${PROJECT_SOURCE_DIR}/primitives/include/split.h
    ${PROJECT_SOURCE_DIR}/mesh/include/sc_mesh.h
    ${PROJECT_SOURCE_DIR}/render/include/slabcast.h
    ${PROJECT_SOURCE_DIR}/render/include/sc_gl.h
    ${PROJECT_SOURCE_DIR}/render/include/sc_display.h)

# Makes a library's usage requirements valid for the installed tree, whoever wrote its CMakeLists:
# include directories inside the source or build tree become $<BUILD_INTERFACE:...> (the installed
# package gives include/slabcast instead), and a build-only helper linked PRIVATE ($<LINK_ONLY:x>, x
# an INTERFACE library of this project that is not installed, such as slabcast_report or
# slabcast_cglm) becomes $<LINK_ONLY:$<BUILD_INTERFACE:x>>, what it links passed on as LINK_ONLY.
function(slabcast_prepare_export target exported)
  foreach(prop INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
    get_target_property(dirs ${target} ${prop})
    set(out "")
    if(dirs)
      foreach(dir IN LISTS dirs)
        cmake_path(IS_PREFIX PROJECT_SOURCE_DIR "${dir}" NORMALIZE in_source)
        cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${dir}" NORMALIZE in_build)
        if(NOT dir MATCHES "^\\$<" AND (in_source OR in_build))
          set(dir "$<BUILD_INTERFACE:${dir}>")
        endif()
        list(APPEND out "${dir}")
      endforeach()
    endif()
    if(prop STREQUAL "INTERFACE_INCLUDE_DIRECTORIES")
      list(APPEND out "$<INSTALL_INTERFACE:${SLABCAST_INSTALL_INCLUDEDIR}>")
    endif()
    if(out)
      list(REMOVE_DUPLICATES out)
      set_property(TARGET ${target} PROPERTY ${prop} "${out}")
    endif()
  endforeach()

  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links)
    set(out_links "")
    foreach(lib IN LISTS links)
      set(helper "")
      if(lib MATCHES "^\\$<LINK_ONLY:([A-Za-z0-9_]+)>$")
        set(helper ${CMAKE_MATCH_1})
      endif()
      if(helper AND TARGET ${helper})
        get_target_property(type ${helper} TYPE)
        get_target_property(imported ${helper} IMPORTED)
        if(type STREQUAL "INTERFACE_LIBRARY" AND NOT imported AND NOT helper IN_LIST exported)
          set(lib "$<LINK_ONLY:$<BUILD_INTERFACE:${helper}>>")
          get_target_property(helper_links ${helper} INTERFACE_LINK_LIBRARIES)
          if(helper_links)
            foreach(dep IN LISTS helper_links)
              if(NOT dep IN_LIST links)
                list(APPEND out_links "$<LINK_ONLY:${dep}>")
              endif()
            endforeach()
          endif()
        endif()
      endif()
      list(APPEND out_links "${lib}")
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${out_links}")
  endif()

  # The host code of CUDA objects is C++ (compiled by nvcc's host compiler): a static library holding
  # some needs the C++ runtime, which a C consumer's link line lacks.
  get_target_property(srcs ${target} SOURCES)
  foreach(src IN LISTS srcs)
    if(src MATCHES "\\.cu$")
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<INSTALL_INTERFACE:$<LINK_ONLY:stdc++>>")
      break()
    endif()
  endforeach()
endfunction()

set(_slabcast_install_targets "")
set(_slabcast_components "")
list(LENGTH SLABCAST_EXPORTED_LIBS _n)
math(EXPR _last "${_n} - 1")
foreach(i RANGE 0 ${_last} 2)
  math(EXPR j "${i} + 1")
  list(GET SLABCAST_EXPORTED_LIBS ${i} target)
  list(GET SLABCAST_EXPORTED_LIBS ${j} name)
  list(APPEND _slabcast_install_targets ${target})
  list(APPEND _slabcast_components ${name})
endforeach()
foreach(target name IN ZIP_LISTS _slabcast_install_targets _slabcast_components)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  slabcast_prepare_export(${target} "${_slabcast_install_targets}")
endforeach()

install(TARGETS ${_slabcast_install_targets} EXPORT slabcastTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${SLABCAST_PUBLIC_HEADERS} DESTINATION ${SLABCAST_INSTALL_INCLUDEDIR})
# GLAD's headers (glad/gl.h, glad/egl.h, KHR/, EGL/), the GL loader behind sc_gl.h and sc_display.h,
# in a folder of their own that only slabcast::glad's users see.
install(DIRECTORY ${SLABCAST_GLAD_DIR}/include/ DESTINATION ${SLABCAST_INSTALL_INCLUDEDIR}/loader)

# The programs that this configuration builds.
foreach(program slabcast_bin slabcast_bench slabcast_display_bench split_bench split_demo)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# The examples, as source: each folder a CMake project of its own that finds this package
# (tests/install builds them from the prefix).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/slabcast/examples)

# ---- CMake package ---------------------------------------------------------------------------------
install(EXPORT slabcastTargets NAMESPACE slabcast:: DESTINATION ${SLABCAST_INSTALL_CMAKEDIR})
if(SLABCAST_WITH_CUDA)
  set(SLABCAST_CUDA_ROOT_HINT "${CUDAToolkit_LIBRARY_ROOT}")
  if(NOT SLABCAST_CUDA_ROOT_HINT)
    get_filename_component(SLABCAST_CUDA_ROOT_HINT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  endif()
else()
  set(SLABCAST_CUDA_ROOT_HINT "")
endif()
set(SLABCAST_PACKAGE_COMPONENTS "${_slabcast_components}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/slabcastConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/slabcastConfig.cmake
                              INSTALL_DESTINATION ${SLABCAST_INSTALL_CMAKEDIR} NO_SET_AND_CHECK_MACRO)
# 0.x: a newer minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/slabcastConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/slabcastConfig.cmake
              ${PROJECT_BINARY_DIR}/package/slabcastConfigVersion.cmake
        DESTINATION ${SLABCAST_INSTALL_CMAKEDIR})

# ---- pkg-config ------------------------------------------------------------------------------------
# Relocatable: prefix is found from the .pc file's own place (${pcfiledir}), so
# `cmake --install build --prefix DIR` gives working files for any DIR. The libraries are static:
# `pkg-config --static --libs slabcast-render` adds what they link (Libs.private, Requires.private).
file(RELATIVE_PATH SLABCAST_PC_TO_PREFIX /prefix/${SLABCAST_INSTALL_PKGCONFIGDIR} /prefix)
string(REGEX REPLACE "/$" "" SLABCAST_PC_TO_PREFIX "${SLABCAST_PC_TO_PREFIX}")
set(SLABCAST_PC_CUDA_LIBS "")
if(SLABCAST_WITH_CUDA)
  # cudart_static with what it needs; the CUDA objects' host code needs the C++ runtime.
  set(SLABCAST_PC_CUDA_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lrt -ldl -lpthread -lstdc++")
endif()
set(SLABCAST_PC_DL_LIBS "")
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND SLABCAST_PC_DL_LIBS " -l${lib}")
endforeach()
foreach(pc status split mesh render gl display)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/pkgconfig/slabcast-${pc}.pc.in
                 ${PROJECT_BINARY_DIR}/package/slabcast-${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/slabcast-${pc}.pc DESTINATION ${SLABCAST_INSTALL_PKGCONFIGDIR})
endforeach()
