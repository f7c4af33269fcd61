/* One call in a tight loop, for comparing two builds of the runtime (an A/B
 * of a change, docs/perf-notes.md): nothing between calls but the loop, so
 * the software on the call's path is what the figure is made of.
 *
 *   bench_loop_pure reduce|allreduce|barrier|window [ITERS]
 *
 * reduce and allreduce move one double (the sum to rank 0, or to every
 * rank); window is rank 0 sending 64 8-byte messages to rank 1 with
 * MPI_Isend/MPI_Irecv and both completing them with MPI_Waitall. Prints,
 * from rank 0, the best over 5 repetitions of the slowest rank's mean time
 * per iteration:
 *
 *   {"bench":"loop","kind":"<what>","ranks":<N>,"usec":<t>}
 *
 * Every result is checked: a wrong sum ends the job with a message. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWindow = 64, kRepetitions = 5 };

static void check_sum(const char* what, int rank, int size, double got) {
  const double want = (double)size * (size + 1) / 2;
  if (got != want) {
    fprintf(stderr, "bench_loop: rank %d: %s gave %g, expected %g\n", rank, what, got, want);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = argc > 1 ? argv[1] : "";
  const long iters = argc > 2 ? atol(argv[2]) : 200000;
  const int kind = !strcmp(what, "reduce")      ? 0
                   : !strcmp(what, "allreduce") ? 1
                   : !strcmp(what, "barrier")   ? 2
                   : !strcmp(what, "window")    ? 3
                                                : -1;
  if (kind < 0 || iters <= 0 || (kind == 3 && size < 2)) {
    if (rank == 0)
      fprintf(stderr,
              "usage: bench_loop reduce|allreduce|barrier|window [ITERS > 0] (window: 2+ ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const double in = rank + 1;
  double out = 0;
  char bytes[kWindow][8];
  memset(bytes, rank, sizeof bytes);
  MPI_Request requests[kWindow];
  double best = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int rep = 0; rep < kRepetitions; ++rep) {
    const double t0 = MPI_Wtime();
    for (long i = 0; i < iters; ++i) {
      switch (kind) {
        case 0:
          MPI_Reduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
          break;
        case 1:
          MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          break;
        case 2:
          MPI_Barrier(MPI_COMM_WORLD);
          break;
        default:
          if (rank > 1) break;
          for (int k = 0; k < kWindow; ++k) {
            if (rank == 0)
              MPI_Isend(bytes[k], 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &requests[k]);
            else
              MPI_Irecv(bytes[k], 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &requests[k]);
          }
          MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE);
      }
    }
    double t = (MPI_Wtime() - t0) / (double)iters * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (best < 0 || t < best) best = t;
  }
  if (kind == 0 && rank == 0) check_sum(what, rank, size, out);
  if (kind == 1) check_sum(what, rank, size, out);
  if (kind == 3 && rank == 1)
    for (int k = 0; k < kWindow; ++k)
      if (bytes[k][0] != 0) {
        fprintf(stderr, "bench_loop: rank 1: message %d holds byte %d, expected 0\n", k,
                bytes[k][0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
  if (rank == 0)
    printf("{\"bench\":\"loop\",\"kind\":\"%s\",\"ranks\":%d,\"usec\":%.4f}\n", what, size, best);
  MPI_Finalize();
  return 0;
}
