/* An MPI program with a bad destination rank: built with purecc (ported) or
 * against Pure's <mpi.h> (not ported), its error must speak the names it
 * was written with -- MPI_Send, MPI_COMM_WORLD, MPI_ERR_RANK. With the
 * argument "deadlock" every rank waits for a message nobody sends: the
 * report names MPI_Recv, and the setting PURE_DEADLOCK_TIMEOUT by its own
 * name (it is no MPI name). */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "deadlock") == 0)
    MPI_Recv(&rank, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else if (rank == size - 1)
    MPI_Send(&rank, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
  else
    MPI_Recv(&rank, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
