/* rand/srand/random/srandom with per-rank seeds: each rank must see the
 * sequence a separate process sees. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long values[8];
  values[0] = rand(); /* unseeded: as if srand(1) */
  srand(rank * 7 + 1);
  for (int i = 1; i < 4; ++i) values[i] = rand();
  srandom(rank + 100);
  for (int i = 4; i < 7; ++i) values[i] = random();
  srand(rank * 7 + 1); /* reseeding restarts the sequence */
  values[7] = rand();
  long *all = malloc(sizeof(long) * 8 * size);
  MPI_Gather(values, 8, MPI_LONG, all, 8, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) {
      printf("rank %d:", r);
      for (int i = 0; i < 8; ++i) printf(" %ld", all[8 * r + i]);
      printf("\n");
    }
  free(all);
  MPI_Finalize();
  return 0;
}
