# One corpus program built twice, with mpicc (run by mpirun) and with purecc
# (run by purerun), must print exactly the same at every rank count and end
# with the same exit status (ctest: translator_corpus_<name>).
#
#   cmake -DSOURCES=a.c@@b.c -DMPICC=mpicc -DPURECC=purecc -DMPIEXEC=mpirun
#         -DPURERUN=purerun -DRANKS=1@@2@@3@@4 [-DARGS=x@@y] [-DEXPECT_CODE=3]
#         [-DMODES=fibers@@threads@@procs] [-DFLAGS=-fopenmp]
#         [-DMPIRUN_ARGS=--mca@@osc@@sm,pt2pt] -DWORK=dir -P same_output.cmake
#
# FLAGS go to both compilers; MPIRUN_ARGS to Open MPI's mpirun after ours.
#
# MODES are the ways Pure runs the program, each compared with Open MPI:
# "default" (purerun's choice), "threads" (PURE_FIBERS=off), "fibers"
# (PURE_FIBERS=auto with more ranks than cores, as the tests run) and
# "procs" (two processes, --ranks-per-proc; at 1 rank it is "default").
string(REPLACE "@@" ";" sources "${SOURCES}")
string(REPLACE "@@" ";" ranks "${RANKS}")
string(REPLACE "@@" ";" args "${ARGS}")
string(REPLACE "@@" ";" flags "${FLAGS}")
string(REPLACE "@@" ";" mpirun_args "${MPIRUN_ARGS}")
if(NOT DEFINED MODES OR MODES STREQUAL "")
  set(MODES default)
endif()
string(REPLACE "@@" ";" modes "${MODES}")
if(NOT DEFINED EXPECT_CODE)
  set(EXPECT_CODE 0)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

foreach(kind mpi pure)
  if(kind STREQUAL mpi)
    set(compiler ${MPICC})
  else()
    set(compiler ${PURECC})
  endif()
  # -lm: a program that calls lgamma needs it, as with any compiler.
  execute_process(COMMAND ${compiler} -O1 ${flags} -o ${WORK}/app_${kind} ${sources} -lm
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building with ${compiler} failed (${rc}):\n${out}")
  endif()
endforeach()

# Open MPI over shared memory without single-copy (refused in containers),
# processes unbound and allowed to outnumber the cores.
set(mpirun ${MPIEXEC} --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
  --mca btl_vader_single_copy_mechanism none ${mpirun_args})
foreach(n IN LISTS ranks)
  execute_process(COMMAND ${mpirun} -np ${n} ${WORK}/app_mpi ${args}
    RESULT_VARIABLE mpi_rc OUTPUT_VARIABLE mpi_out ERROR_VARIABLE mpi_err TIMEOUT 120)
  if(NOT mpi_rc STREQUAL "${EXPECT_CODE}")
    message(FATAL_ERROR "Open MPI run at ${n} ranks ended with ${mpi_rc}, expected ${EXPECT_CODE}:\n${mpi_out}${mpi_err}")
  endif()
  if(mpi_out STREQUAL "")
    message(FATAL_ERROR "the Open MPI run at ${n} ranks printed nothing:\n${mpi_err}")
  endif()
  foreach(mode IN LISTS modes)
    set(launch ${PURERUN} -n ${n})
    set(env)
    if(mode STREQUAL "threads")
      set(env PURE_FIBERS=off)
    elseif(mode STREQUAL "fibers")
      set(env PURE_FIBERS=auto)
    elseif(mode STREQUAL "procs" AND n GREATER 1)
      math(EXPR per_proc "(${n} + 1) / 2")
      set(launch ${PURERUN} -n ${n} --ranks-per-proc ${per_proc})
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${launch} ${WORK}/app_pure ${args}
      RESULT_VARIABLE pure_rc OUTPUT_VARIABLE pure_out ERROR_VARIABLE pure_err TIMEOUT 120)
    message("---- ${n} rank(s), Pure ${mode}: Open MPI status ${mpi_rc}, Pure status ${pure_rc}\n${pure_out}")
    if(NOT pure_rc STREQUAL "${EXPECT_CODE}")
      message(FATAL_ERROR "Pure (${mode}) run at ${n} ranks ended with ${pure_rc}, expected ${EXPECT_CODE}:\n${pure_out}${pure_err}")
    endif()
    if(NOT mpi_out STREQUAL pure_out)
      file(WRITE ${WORK}/mpi.${n}.out "${mpi_out}")
      file(WRITE ${WORK}/pure.${n}.${mode}.out "${pure_out}")
      execute_process(COMMAND diff -u ${WORK}/mpi.${n}.out ${WORK}/pure.${n}.${mode}.out
        OUTPUT_VARIABLE diff)
      message(FATAL_ERROR "outputs differ at ${n} ranks, Pure ${mode} (- Open MPI, + Pure):\n${diff}\nPure stderr:\n${pure_err}")
    endif()
  endforeach()
endforeach()
