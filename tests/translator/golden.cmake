# Golden test of one translation (ctest: translator_golden_<name>):
#   cmake -DTRANSLATOR=mpi2pure -DINPUT=x.c -DEXPECTED=x.expected.c
#         -DINCLUDE=include -DCOMPILER=cc -DWORK=dir -P golden.cmake
# 1. mpi2pure INPUT must give EXPECTED exactly;
# 2. translating EXPECTED again must change nothing (idempotence);
# 3. EXPECTED must compile against Pure's headers.
file(REMOVE_RECURSE ${WORK})

function(translate source out)
  execute_process(COMMAND ${TRANSLATOR} -o ${out} ${source} -- -isystem ${INCLUDE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpi2pure ${source} failed (${rc}):\n${output}")
  endif()
endfunction()

function(same got_file want_file what)
  file(READ ${got_file} got)
  file(READ ${want_file} want)
  if(NOT got STREQUAL want)
    execute_process(COMMAND diff -u ${want_file} ${got_file} OUTPUT_VARIABLE diff)
    message(FATAL_ERROR "${what} differs from ${want_file}:\n${diff}")
  endif()
endfunction()

get_filename_component(name ${INPUT} NAME)
translate(${INPUT} ${WORK}/first)
same(${WORK}/first/${name} ${EXPECTED} "the translation of ${INPUT}")

get_filename_component(expected_name ${EXPECTED} NAME)
translate(${EXPECTED} ${WORK}/again)
same(${WORK}/again/${expected_name} ${EXPECTED} "translating the expected output again")

execute_process(COMMAND ${COMPILER} -fsyntax-only -fexceptions -I ${INCLUDE} ${EXPECTED}
  RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXPECTED} does not compile against Pure:\n${output}")
endif()
