/* One-sided benchmark: latency of a passive-target operation completed by a
 * flush, from rank 0 to rank 1's window, under MPI_Win_lock_all:
 *   put+flush and get+flush of 8 B and 64 KiB, fetch_and_op (MPI_SUM on a
 *   long) + flush;
 * and fence epochs, both ranks at once: a put of 100 ints to the other
 * rank, a fence, a get of them back, a fence, an MPI_SUM accumulate of
 * them, a fence -- the loop of contiguous puts, gets and accumulates a
 * public MPI suite runs 10,000 times ("fence_put_get_acc", per iteration).
 *
 * One source, written against the MPI API, built twice: with an MPI library
 * (bench_rma_mpi; tools/bench.sh rma also builds it with MPICH's mpicc) and
 * with Pure's <mpi.h> and -Dmain=pure_main (bench_rma_pure, rank threads in
 * one process, or one rank per process with purerun --ranks-per-proc 1).
 * Ranks may be threads, so there are no mutable globals.
 *
 * Rank 0 prints JSON Lines for tools/bench_report.py:
 *   {"bench":"rma","kind":"config","ranks":N,"batches":B,"reps":R}
 *   {"bench":"rma","kind":"lat","op":"put|get|fetch_op","bytes":S,"usec":T}
 *       the mean over a batch of R operations, minimum over the batches
 * The data is checked: every put is read back, every get holds what rank 1
 * wrote, and the fetch-and-op counter ends at the number of additions and
 * every fetched value is the one before, so a benchmark that moves nothing
 * fails instead of looking fast. Rank 1 only waits in barriers.
 *
 * Usage: bench_rma [--quick] [--batches N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLarge = 64 << 10, kReps = 1000 };

static void die(const char* what) {
  fprintf(stderr, "bench_rma: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static unsigned char pattern(size_t i, int round) { return (unsigned char)(i * 31u + (unsigned)round); }

enum { kFenceInts = 100 };

/* Fence epochs of contiguous transfers between the two ranks (see the
 * header), on a window of their own (kFenceInts ints, displacement unit an
 * int). Checks every get and the last accumulate's sums. */
static void fence_loop(int rank, int batches) {
  const int peer = 1 - rank;
  const MPI_Aint disp = 0;
  int* at = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)(kFenceInts * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &at, &win);
  int out[kFenceInts], got[kFenceInts];
  double best = 1e30;
  for (int b = -1; b < batches; ++b) {
    for (int i = 0; i < kFenceInts; ++i) out[i] = rank * 100000 + b * 1000 + i;
    MPI_Win_fence(0, win);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < kReps; ++r) {
      MPI_Put(out, kFenceInts, MPI_INT, peer, disp, kFenceInts, MPI_INT, win);
      MPI_Win_fence(0, win);
      MPI_Get(got, kFenceInts, MPI_INT, peer, disp, kFenceInts, MPI_INT, win);
      MPI_Win_fence(0, win);
      if (got[r % kFenceInts] != out[r % kFenceInts]) die("fence loop: a get read the wrong value");
      MPI_Accumulate(out, kFenceInts, MPI_INT, peer, disp, kFenceInts, MPI_INT, MPI_SUM, win);
      MPI_Win_fence(0, win);
    }
    const double usec = (MPI_Wtime() - t0) * 1e6 / kReps;
    if (b >= 0 && usec < best) best = usec;
    /* The peer put its ints here, then added them once. */
    for (int i = 0; i < kFenceInts; ++i)
      if (at[i] != 2 * (peer * 100000 + b * 1000 + i)) die("fence loop: the accumulates' sums are wrong");
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_free(&win);
  if (rank == 0)
    printf("{\"bench\":\"rma\",\"kind\":\"lat\",\"op\":\"fence_put_get_acc\",\"bytes\":%d,"
           "\"usec\":%.4f}\n",
           (int)(kFenceInts * sizeof(int)), best);
}

int main(int argc, char** argv) {
  int batches = 20;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) batches = 5;
    else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) batches = atoi(argv[++i]);
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2 || batches < 1) die("needs exactly 2 ranks and --batches >= 1");

  /* Window layout: a counter (long), then kLarge bytes. */
  unsigned char* mem = NULL;
  MPI_Win win;
  const MPI_Aint bytes = (MPI_Aint)sizeof(long) + kLarge;
  MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  memset(mem, 0, (size_t)bytes);
  unsigned char* local = malloc(kLarge);
  unsigned char* check = malloc(kLarge);
  if (!local || !check) die("out of memory");
  if (rank == 0)
    printf("{\"bench\":\"rma\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d,\"reps\":%d}\n",
           size, batches, kReps);

  static const struct {
    const char* op;
    int size;
  } cases[] = {{"put", 8}, {"get", 8}, {"fetch_op", 8}, {"put", kLarge}, {"get", kLarge}};
  long expect_counter = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const char* op = cases[k].op;
    const int n = cases[k].size;
    double best = 1e30;
    for (int b = -1; b < batches; ++b) { /* batch -1: untimed warm-up */
      MPI_Win_lock_all(0, win);
      /* Rank 1 writes what gets will read, by a put to itself and a flush:
       * a plain store and MPI_Win_sync left MPICH 4.0's gets reading the
       * value before it. */
      if (rank == 1) {
        for (int i = 0; i < n; ++i) check[i] = pattern((size_t)i, b + 7);
        MPI_Put(check, n, MPI_BYTE, 1, sizeof(long), n, MPI_BYTE, win);
        MPI_Win_flush(1, win);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        const long one = 1;
        long fetched = -1;
        for (int i = 0; i < n; ++i) local[i] = pattern((size_t)i, b);
        const double t0 = MPI_Wtime();
        for (int r = 0; r < kReps; ++r) {
          if (strcmp(op, "put") == 0) {
            MPI_Put(local, n, MPI_BYTE, 1, sizeof(long), n, MPI_BYTE, win);
          } else if (strcmp(op, "get") == 0) {
            MPI_Get(local, n, MPI_BYTE, 1, sizeof(long), n, MPI_BYTE, win);
          } else {
            MPI_Fetch_and_op(&one, &fetched, MPI_LONG, 1, 0, MPI_SUM, win);
          }
          MPI_Win_flush(1, win);
          if (fetched >= 0 && fetched != expect_counter + r) die("fetch_and_op fetched a wrong value");
        }
        const double usec = (MPI_Wtime() - t0) * 1e6 / kReps;
        if (b >= 0 && usec < best) best = usec;
        if (strcmp(op, "fetch_op") == 0) expect_counter += kReps;
        /* Check what moved. */
        if (strcmp(op, "put") == 0) {
          MPI_Get(check, n, MPI_BYTE, 1, sizeof(long), n, MPI_BYTE, win);
          MPI_Win_flush(1, win);
          if (memcmp(check, local, (size_t)n) != 0) die("put: the target does not hold the data");
        } else if (strcmp(op, "get") == 0) {
          for (int i = 0; i < n; ++i)
            if (local[i] != pattern((size_t)i, b + 7)) die("get: wrong data");
        } else {
          long counter = -1;
          MPI_Get(&counter, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win);
          MPI_Win_flush(1, win);
          if (counter != expect_counter) die("fetch_and_op: additions lost");
        }
      }
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Win_unlock_all(win);
    }
    if (rank == 0)
      printf("{\"bench\":\"rma\",\"kind\":\"lat\",\"op\":\"%s\",\"bytes\":%d,\"usec\":%.4f}\n", op,
             n, best);
  }
  fence_loop(rank, batches);
  fflush(stdout);
  free(local);
  free(check);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
