# slabcast_embed_text(<out.c> <symbol> <file>): makes a C file defining
#   const char <symbol>[] = "<file contents>";
# at build time, re-run when the file changes. Shaders are embedded so programs do not depend on the
# source tree's location.
function(slabcast_embed_text out symbol file)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/SlabcastEmbedRun.cmake
    DEPENDS ${file} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/SlabcastEmbedRun.cmake
    COMMENT "Embedding ${file}")
endfunction()
