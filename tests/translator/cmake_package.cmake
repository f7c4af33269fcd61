# The installed package: purecc and pure++ work from the install prefix,
# find_package(Pure) + pure_add_executable builds an unchanged MPI source, and
# a project that asks CMake's FindMPI for MPI builds with purecc as its C
# compiler or as MPI's wrapper (ctest: translator_cmake_package).
#   cmake -DBUILD=build-dir -DPROJECT=cmake_package -DFINDMPI=findmpi -DWORK=dir
#         -P cmake_package.cmake
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# expect_output(PROGRAM TEXT): PROGRAM on 3 ranks prints exactly TEXT.
function(expect_output program text)
  run("running ${program}" ${prefix}/bin/purerun -n 3 ${program})
  if(NOT output STREQUAL text)
    message(FATAL_ERROR "${program} printed '${output}', not '${text}'")
  endif()
endfunction()
function(expect_ring program)
  expect_output(${program} "ring: token 3 after 3 ranks, hops 1\n")
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
# The installed drivers, away from the source tree.
run("installed purecc" ${prefix}/bin/purecc -o ${WORK}/ring_purecc ${PROJECT}/ring.c)
expect_ring(${WORK}/ring_purecc)
run("installed pure++" ${prefix}/bin/pure++ -o ${WORK}/ring_purexx ${PROJECT}/ring.c)
expect_ring(${WORK}/ring_purexx)

run("configuring the user project" ${CMAKE_COMMAND} -S ${PROJECT} -B ${WORK}/user
  -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run("building the user project" ${CMAKE_COMMAND} --build ${WORK}/user)
expect_ring(${WORK}/user/ring)

# FindMPI: purecc as the C compiler (FindMPI finds that it compiles MPI
# programs as it is), then cc with purecc as MPI's wrapper, asked for its
# flags with Open MPI's -showme options, then with MPICH's -compile-info
# and -link-info (PURECC_QUERY_STYLE=mpich: purecc then refuses -showme, as
# MPICH's wrapper does).
function(expect_sum program)
  expect_output(${program} "sum: 6 over 3 ranks\n")
endfunction()
run("FindMPI with CC=purecc" ${CMAKE_COMMAND} -S ${FINDMPI} -B ${WORK}/findmpi_cc
  -DCMAKE_C_COMPILER=${prefix}/bin/purecc -DCMAKE_BUILD_TYPE=Release)
run("building with CC=purecc" ${CMAKE_COMMAND} --build ${WORK}/findmpi_cc)
expect_sum(${WORK}/findmpi_cc/sum)
foreach(style openmpi mpich)
  run("FindMPI with MPI_C_COMPILER=purecc (${style})" ${CMAKE_COMMAND} -E env
    PURECC_QUERY_STYLE=${style} ${CMAKE_COMMAND} -S ${FINDMPI} -B ${WORK}/findmpi_${style}
    -DMPI_C_COMPILER=${prefix}/bin/purecc -DCMAKE_BUILD_TYPE=Release)
  file(READ ${WORK}/findmpi_${style}/CMakeCache.txt cache)
  if(NOT cache MATCHES "MPI_C_HEADER_DIR:PATH=${prefix}/include/pure")
    message(FATAL_ERROR "FindMPI (${style}) did not take Pure's <mpi.h>:\n${output}")
  endif()
  run("building with MPI_C_COMPILER=purecc (${style})" ${CMAKE_COMMAND} --build
    ${WORK}/findmpi_${style})
  expect_sum(${WORK}/findmpi_${style}/sum)
endforeach()
