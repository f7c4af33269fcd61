#include "globals.h"

void accumulate(int step) {
  history[step % 8] = my_rank * 10 + step;
  local_sum += history[step % 8] * 0.5;
  ++steps_done;
}

void exchange(void) {
  int right = (my_rank + 1) % num_ranks, left = (my_rank + num_ranks - 1) % num_ranks;
  double incoming = 0;
  MPI_Sendrecv(&local_sum, 1, MPI_DOUBLE, right, 0, &incoming, 1, MPI_DOUBLE, left, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  local_sum += incoming * 0.001;
}
