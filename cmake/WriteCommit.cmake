# Writes OUT (a C header) defining NAME as `git describe --always --dirty` of SRC ("unknown" outside a
# checkout), at build time, rewriting it only when the text changes (so nothing rebuilds needlessly).
#   cmake -DSRC=<source dir> -DOUT=<header> -DNAME=<macro> -P WriteCommit.cmake
execute_process(COMMAND git describe --always --dirty WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT commit)
  set(commit unknown)
endif()
set(content "/* Generated at build time by cmake/WriteCommit.cmake. */\n#define ${NAME} \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUT} "${content}")
endif()
