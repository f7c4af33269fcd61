/* exit(0) after MPI_Finalize ends only that process (here: rank), deep in
 * a call stack; exit(non-zero) and abort() end the whole job with their
 * status. argv[1]: clean (default), fail or abort. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void finish_worker(int rank) {
  MPI_Finalize();
  if (rank != 0) exit(0);
}

static int depth(int n, int rank) {
  if (n == 0) {
    finish_worker(rank);
    return 0;
  }
  return depth(n - 1, rank) + 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "clean";
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int squares = 0, mine = rank * rank;
  MPI_Reduce(&mine, &squares, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%s: sum of squares %d\n", mode, squares);
    fflush(stdout);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1 && strcmp(mode, "fail") == 0) exit(3);
  if (rank == size - 1 && strcmp(mode, "abort") == 0) abort();
  if (strcmp(mode, "clean") != 0) MPI_Barrier(MPI_COMM_WORLD);
  int levels = depth(rank + 2, rank);
  printf("rank %d finished after %d levels\n", rank, levels);
  return 0;
}
