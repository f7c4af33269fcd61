/* Message rate: the first half of the ranks each streams small messages to
 * a partner in the second half (rank r to r + N/2), all pairs at once.
 * Between processes (tools/bench.sh internode): Pure with 2 processes of
 * N/2 ranks, so every pair spans them, against Open MPI with N processes.
 *
 * One source, built twice like p2p.c (bench_msgrate_mpi, bench_msgrate_pure).
 * Rank 0 prints JSON Lines for tools/bench_report.py:
 *   {"bench":"msgrate","kind":"config","ranks":N,"pairs":P,"batches":B,"window":64}
 *   {"bench":"msgrate","kind":"rate","bytes":S,"msgs_per_s":R}
 *       a window of 64 isend/irecv then a 1-byte ack, repeated by every
 *       pair; all pairs' messages over the slowest pair's time, maximum
 *       over the batches
 * Every batch's received bytes are checked against a pattern.
 *
 * Usage: bench_msgrate [--quick] [--batches N] [--bytes S]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWindow = 64, kTagData = 1, kTagAck = 2, kWindows = 200 };

static unsigned char pattern(size_t i, int pair) { return (unsigned char)(i * 7 + pair * 13 + 1); }

/* One batch of windows; returns this rank's elapsed seconds. */
static double batch(unsigned char* send, unsigned char* recv, int bytes, int me, int half) {
  MPI_Request requests[kWindow];
  unsigned char ack = 0;
  const int sender = me < half, partner = sender ? me + half : me - half;
  const int pair = sender ? me : partner;
  memset(recv, 0, (size_t)bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int w = 0; w < kWindows; ++w) {
    if (sender) {
      for (int i = 0; i < kWindow; ++i)
        MPI_Isend(send, bytes, MPI_BYTE, partner, kTagData, MPI_COMM_WORLD, &requests[i]);
      MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE);
      MPI_Recv(&ack, 1, MPI_BYTE, partner, kTagAck, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      for (int i = 0; i < kWindow; ++i)
        MPI_Irecv(recv, bytes, MPI_BYTE, partner, kTagData, MPI_COMM_WORLD, &requests[i]);
      MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE);
      ack = 1;
      MPI_Send(&ack, 1, MPI_BYTE, partner, kTagAck, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  if (!sender)
    for (int i = 0; i < bytes; ++i)
      if (recv[i] != pattern((size_t)i, pair)) {
        fprintf(stderr, "bench_msgrate: rank %d: byte %d from %d is %u, not %u\n", me, i, partner,
                (unsigned)recv[i], (unsigned)pattern((size_t)i, pair));
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
  if (sender && ack != 1) {
    fprintf(stderr, "bench_msgrate: rank %d: no acknowledgement from %d\n", me, partner);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return elapsed;
}

int main(int argc, char** argv) {
  int batches = 10, bytes = 8;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      batches = 3;
    } else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) {
      batches = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
      bytes = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: bench_msgrate [--quick] [--batches N] [--bytes S]\n");
      return 2;
    }
  }
  MPI_Init(&argc, &argv);
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n < 2 || n % 2 != 0 || batches < 1 || bytes < 1) {
    if (me == 0) fprintf(stderr, "bench_msgrate: needs an even number of ranks, batches and bytes >= 1\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int half = n / 2;
  unsigned char* send = malloc((size_t)bytes);
  unsigned char* recv = malloc((size_t)bytes);
  for (int i = 0; i < bytes; ++i) send[i] = pattern((size_t)i, me < half ? me : me - half);
  if (me == 0)
    printf("{\"bench\":\"msgrate\",\"kind\":\"config\",\"ranks\":%d,\"pairs\":%d,\"batches\":%d,"
           "\"window\":%d}\n",
           n, half, batches, kWindow);
  batch(send, recv, bytes, me, half); /* warm-up */
  double best = 0;
  for (int b = 0; b < batches; ++b) {
    double mine = batch(send, recv, bytes, me, half), slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const double rate = (double)half * kWindow * kWindows / slowest;
    if (rate > best) best = rate;
  }
  if (me == 0) {
    printf("{\"bench\":\"msgrate\",\"kind\":\"rate\",\"bytes\":%d,\"msgs_per_s\":%.0f}\n", bytes, best);
    fflush(stdout);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
