/* An MPI program whose ranks disagree on the third collective: rank 0 calls
 * MPI_Bcast where the others call MPI_Allreduce. Ported by purecc, the job
 * must end at once with both calls named in the program's own names, not
 * hang until the deadlock watchdog or read the wrong data. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, size, x, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  x = rank;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  printf("rank %d of %d: sum %d\n", rank, size, sum);
  MPI_Finalize();
  return 0;
}
