/* An MPI name built by token pasting is translated as the compiler sees it
 * (golden/pasted_names.c); one that Pure does not support is reported
 * where the macro is used, with the reason. */
#include <mpi.h>

#define MPI_FN(name) MPI_##name

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_FN(Barrier)(MPI_COMM_WORLD);
  MPI_FN(Comm_disconnect)(NULL);
  MPI_Finalize();
  return 0;
}
