/* MPI names that a macro pastes together have no spelling to rename: the
 * include of mpi.h becomes one of pure/mpi.h, which maps each such name as
 * the compiler sees it, while the names spelled out are renamed as usual. */
#include <pure/mpi.h>

#define CALL(name) MPI_##name
#define CONSTANT(name) MPI_##name

int pure_main(int argc, char **argv) {
  int rank;
  PURE_Fint handle;
  CALL(Init)(&argc, &argv);
  CALL(Comm_rank)(CONSTANT(COMM_WORLD), &rank);
  handle = pure_comm_c2f(PURE_COMM_WORLD);
  pure_barrier(pure_comm_f2c(handle));
  CALL(Finalize)();
  return 0;
}
