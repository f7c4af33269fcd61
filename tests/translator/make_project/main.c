#define HEAT_MAIN
#include "heat.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  for (int i = 1; i <= CELLS; ++i) cells[i] = rank * CELLS + i;
  for (int step = 0; step < 10; ++step) grid_step();
  print_total(grid_total());
  MPI_Finalize();
  return 0;
}
