# `make CC=purecc` on a plain Makefile project must build it, and the result
# must print what the `make CC=mpicc` build prints under mpirun
# (ctest: translator_make_project).
#   cmake -DPROJECT=dir -DPURECC=purecc -DMPICC=mpicc -DMPIEXEC=mpirun
#         -DPURERUN=purerun -DWORK=dir -P make_project.cmake
file(REMOVE_RECURSE ${WORK})
foreach(kind mpi pure)
  file(COPY ${PROJECT}/ DESTINATION ${WORK}/${kind})
  if(kind STREQUAL mpi)
    set(cc ${MPICC})
  else()
    set(cc ${PURECC})
  endif()
  execute_process(COMMAND make CC=${cc} WORKING_DIRECTORY ${WORK}/${kind}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("make CC=${cc}:\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make CC=${cc} failed (${rc})")
  endif()
endforeach()
execute_process(COMMAND ${MPIEXEC} --oversubscribe --bind-to none --mca pml ob1
  --mca btl self,vader --mca btl_vader_single_copy_mechanism none -np 3 ${WORK}/mpi/heat
  RESULT_VARIABLE mpi_rc OUTPUT_VARIABLE mpi_out ERROR_VARIABLE mpi_err TIMEOUT 120)
execute_process(COMMAND ${PURERUN} -n 3 ${WORK}/pure/heat
  RESULT_VARIABLE pure_rc OUTPUT_VARIABLE pure_out ERROR_VARIABLE pure_err TIMEOUT 120)
message("Open MPI (${mpi_rc}): ${mpi_out}Pure (${pure_rc}): ${pure_out}")
if(NOT mpi_rc EQUAL 0 OR NOT pure_rc EQUAL 0)
  message(FATAL_ERROR "a run failed:\n${mpi_err}\n${pure_err}")
endif()
if(NOT pure_out MATCHES "^heat: 3 ranks, total " OR NOT pure_out STREQUAL mpi_out)
  message(FATAL_ERROR "Pure printed '${pure_out}', Open MPI '${mpi_out}'")
endif()
