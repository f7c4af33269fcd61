/* File statics and function statics: each rank keeps its own. */
#include <mpi.h>
#include <stdio.h>

static int calls;
static double weights[4] = {1, 2, 3, 4};
static const char *const names[] = {"zero", "one", "two", "three"};

static int next_ticket(void) {
  static int ticket = 100;
  return ticket++;
}

static void scale(int rank) {
  static int scaled_times = 0;
  ++scaled_times;
  ++calls;
  for (int i = 0; i < 4; ++i) weights[i] *= rank + 1;
  if (scaled_times > 2) weights[0] = -1;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ticket = 0;
  for (int i = 0; i <= rank; ++i) ticket = next_ticket();
  for (int i = 0; i < 3; ++i) scale(rank);
  double mine[6] = {ticket, calls, weights[0], weights[1], weights[2], weights[3]};
  double all[6 * 64];
  MPI_Gather(mine, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("rank %d (%s): ticket %.0f calls %.0f weights %.0f %.0f %.0f %.0f\n", r,
             names[r % 4], all[6 * r], all[6 * r + 1], all[6 * r + 2], all[6 * r + 3],
             all[6 * r + 4], all[6 * r + 5]);
  MPI_Finalize();
  return 0;
}
