# The installed package: purecc and pure++ work from the install prefix, and
# find_package(Pure) + pure_add_executable builds an unchanged MPI source
# (ctest: translator_cmake_package).
#   cmake -DBUILD=build-dir -DPROJECT=cmake_package -DWORK=dir -P cmake_package.cmake
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

function(expect_ring program)
  run("running ${program}" ${prefix}/bin/purerun -n 3 ${program})
  if(NOT output STREQUAL "ring: token 3 after 3 ranks, hops 1\n")
    message(FATAL_ERROR "${program} printed '${output}'")
  endif()
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
