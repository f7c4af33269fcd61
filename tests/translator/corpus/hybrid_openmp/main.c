/* A hybrid MPI+OpenMP program: a rank fills a global array and sets a
 * global scale, then an OpenMP team sums scale * data[i] with a reduction
 * into a global, and a second parallel region counts its threads into a
 * global with an atomic. As processes, each rank's team sees that rank's
 * globals; ported, the team threads a rank starts must see the rank's too,
 * not fresh copies. The sums are of small integers, exact in any order.
 * Rank 0 prints every rank's result. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define N 100000

static double data[N];
double scale = 1.0;
double total;
static int members;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; ++i) data[i] = (double)(i % 7) + rank;
  scale = 2.0 + rank;
  MPI_Barrier(MPI_COMM_WORLD); /* every rank has set its globals */
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(3)
  for (int i = 0; i < N; ++i) sum += scale * data[i];
  total = sum;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    members += 1;
  }
  double line[2] = {total, (double)members};
  double all[2 * 64];
  MPI_Gather(line, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size && r < 64; ++r)
      printf("rank %d: the team summed %.1f; %d team members counted\n", r, all[2 * r],
             (int)all[2 * r + 1]);
  MPI_Finalize();
  return 0;
}
