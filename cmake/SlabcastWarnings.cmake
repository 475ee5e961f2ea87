# Warning and sanitizer flags, applied per target with slabcast_target_flags(<target>).
set(SLABCAST_C_WARNINGS -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter)
set(SLABCAST_CXX_WARNINGS -Wall -Wextra -Wshadow -Wno-unused-parameter)
if(SLABCAST_WERROR)
  list(APPEND SLABCAST_C_WARNINGS -Werror)
  list(APPEND SLABCAST_CXX_WARNINGS -Werror)
endif()

function(slabcast_target_flags target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${SLABCAST_C_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CXX>:${SLABCAST_CXX_WARNINGS}>
    # nvcc: default device warnings, host compiler at -Wall -Wextra, lambdas/constexpr for CUB.
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter --expt-relaxed-constexpr -lineinfo>)
  if(SLABCAST_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
  if(SLABCAST_SANITIZE)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C>:-fsanitize=address,undefined -fno-omit-frame-pointer>)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
