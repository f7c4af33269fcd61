/* MPI names that a macro pastes together have no spelling to rename: the
 * include of mpi.h becomes one of pure/mpi.h, which maps each such name as
 * the compiler sees it, while the names spelled out are renamed as usual. */
#include <mpi.h>

#define CALL(name) MPI_##name
#define CONSTANT(name) MPI_##name

int main(int argc, char **argv) {
  int rank;
  MPI_Fint handle;
  CALL(Init)(&argc, &argv);
  CALL(Comm_rank)(CONSTANT(COMM_WORLD), &rank);
  handle = MPI_Comm_c2f(MPI_COMM_WORLD);
  MPI_Barrier(MPI_Comm_f2c(handle));
  CALL(Finalize)();
  return 0;
}
