/* No mutable globals: right whether or not its file was translated. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = rank + 1;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("sum: %d over %d ranks\n", sum, size);
  MPI_Finalize();
  return 0;
}
