# cmake -DBINARY=... -DARG1=... [-DARG2=...] -DOUT=... -P RunToFile.cmake
# Writes BINARY ARG1 ARG2's standard output to OUT (the shell completions
# and the manual page, which `topolint` prints from its flag table).
execute_process(COMMAND ${BINARY} ${ARG1} ${ARG2}
                OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${BINARY} ${ARG1} ${ARG2} failed (${rc})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
