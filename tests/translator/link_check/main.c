/* The program purecc compiles; it links a helper that purecc did not. */
#include <mpi.h>
#include <stdio.h>

int helper_count(int v);

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf("link_check: %d\n", helper_count(rank));
  MPI_Finalize();
  return 0;
}
