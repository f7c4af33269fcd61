#define MAIN_PROGRAM
#include <stdio.h>
#include "globals.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &num_ranks);
  for (int step = 0; step < 5; ++step) {
    accumulate(step);
    exchange();
  }
  double sums[64];
  int steps[64];
  MPI_Gather(&local_sum, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(&steps_done, 1, MPI_INT, steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (my_rank == 0)
    for (int r = 0; r < num_ranks; ++r)
      printf("rank %d: sum %.3f steps %d\n", r, sums[r], steps[r]);
  MPI_Finalize();
  return 0;
}
