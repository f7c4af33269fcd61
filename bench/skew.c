/* Uneven work per rank, as an unmodified MPI code has it: each iteration
 * every rank computes, exchanges a halo with its neighbours and joins an
 * allreduce. Ranks whose index is a multiple of --stride (default 2) do
 * --heavy (default 4) times the work of the others, so that placing ranks
 * on cores round-robin puts every heavy rank on the same core.
 *
 * One source built twice (bench_skew_mpi, bench_skew_pure), like the other
 * comparisons (bench/CMakeLists.txt). Rank 0 prints one JSON line:
 *   {"bench":"skew","kind":"time","ranks":N,"seconds":S,"check":C}
 * S is the slowest rank's time for the iterations; C sums every rank's
 * result, the same for every run with the same options.
 *
 * Usage: bench_skew [--iters N] [--work N] [--heavy N] [--stride N]
 *   --even   every rank does the same work (the total of the skewed run,
 *            spread evenly): the run to compare the skewed one against */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double compute(long steps, double x) {
  for (long k = 0; k < steps; ++k) x = 3.9 * x * (1.0 - x);
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = 200, work = 20000, heavy = 4, stride = 2;
  int even = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--even") == 0) even = 1;
    else if (i + 1 < argc && strcmp(argv[i], "--iters") == 0) iters = atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--work") == 0) work = atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--heavy") == 0) heavy = atol(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--stride") == 0) stride = atol(argv[++i]);
    else {
      if (rank == 0) fprintf(stderr, "bench_skew: unknown option %s\n", argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  long heavy_ranks = (size + stride - 1) / stride;
  long total = heavy_ranks * heavy * work + (size - heavy_ranks) * work;
  long mine = even ? total / size : (rank % stride == 0 ? heavy * work : work);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double x = 0.25 + 0.5 * rank / size, halo = 0, sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long it = 0; it < iters; ++it) {
    x = compute(mine, x);
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, right, 1, &halo, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    x = 0.25 + 0.5 * (0.5 * x + 0.5 * halo) * 0.999;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("{\"bench\":\"skew\",\"kind\":\"time\",\"ranks\":%d,\"even\":%d,\"seconds\":%.6f,"
           "\"check\":%.12g}\n",
           size, even, slowest, sum);
  MPI_Finalize();
  return 0;
}
