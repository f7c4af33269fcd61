/* MPI_Comm_split by parity (reversed keys) and pair-type reductions:
 * MPI_DOUBLE_INT with MINLOC/MAXLOC, MPI_2INT with MAXLOC. */
#include <mpi.h>
#include <stdio.h>

struct double_int {
  double value;
  int rank;
};

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int half_rank, half_size, half_sum = 0;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  MPI_Allreduce(&rank, &half_sum, 1, MPI_INT, MPI_SUM, half);

  struct double_int mine = {(rank - 1.5) * (rank - 1.5), rank}, lo, hi;
  MPI_Allreduce(&mine, &lo, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  int pair[2] = {rank % 3, rank}, best[2];
  MPI_Reduce(pair, best, 1, MPI_2INT, MPI_MAXLOC, 0, MPI_COMM_WORLD);

  int line[5] = {rank, rank % 2, half_rank, half_size, half_sum}, all[5 * 64];
  MPI_Gather(line, 5, MPI_INT, all, 5, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r)
      printf("rank %d color %d: half rank %d of %d, half sum %d\n", all[5 * r], all[5 * r + 1],
             all[5 * r + 2], all[5 * r + 3], all[5 * r + 4]);
    printf("min %.2f at %d, max %.2f at %d, 2int max %d at %d\n", lo.value, lo.rank, hi.value,
           hi.rank, best[0], best[1]);
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
