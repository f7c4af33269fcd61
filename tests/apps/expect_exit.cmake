# Runs a command and checks its exit code and output, for end-to-end tests
# of real processes (ctest alone checks either the code or the output).
#
#   cmake -DEXPECT_CODE=7 "-DEXPECT_OUTPUT=re1@@re2" -P expect_exit.cmake -- cmd args...
#
# EXPECT_CODE is the exact exit status; every regular expression in
# EXPECT_OUTPUT (separated by @@, since ';' does not survive add_test) must
# match stdout + stderr.
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect_exit.cmake: no command after --")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT code STREQUAL "${EXPECT_CODE}")
  message(FATAL_ERROR "exit status '${code}', expected ${EXPECT_CODE}")
endif()
string(REPLACE "@@" ";" patterns "${EXPECT_OUTPUT}")
foreach(pattern IN LISTS patterns)
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "output does not match '${pattern}'")
  endif()
endforeach()
