/* An MPI name built by token pasting cannot be rewritten where it is
 * written: the translator says where, instead of guessing. */
#include <mpi.h>

#define MPI_FN(name) MPI_##name

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_FN(Barrier)(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
