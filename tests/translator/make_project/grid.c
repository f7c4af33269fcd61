#include "heat.h"

static int steps;

void grid_step(void) {
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < nranks - 1 ? rank + 1 : MPI_PROC_NULL;
  cells[0] = cells[1];
  cells[CELLS + 1] = cells[CELLS];
  MPI_Sendrecv(&cells[1], 1, MPI_DOUBLE, left, 0, &cells[CELLS + 1], 1, MPI_DOUBLE, right, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&cells[CELLS], 1, MPI_DOUBLE, right, 1, &cells[0], 1, MPI_DOUBLE, left, 1,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  double next[CELLS + 2];
  for (int i = 1; i <= CELLS; ++i) next[i] = 0.25 * cells[i - 1] + 0.5 * cells[i] + 0.25 * cells[i + 1];
  for (int i = 1; i <= CELLS; ++i) cells[i] = next[i];
  ++steps;
}

double grid_total(void) {
  double mine = 0, total = 0;
  for (int i = 1; i <= CELLS; ++i) mine += cells[i];
  mine += steps * 0.0;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
