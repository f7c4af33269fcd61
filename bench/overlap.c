/* Overlap of a nonblocking allreduce with computation: how much of an
 * MPI_Iallreduce's time a rank hides behind work it does meanwhile.
 *
 * One source, written against the MPI API, built twice like bench/coll.c:
 * bench_overlap_mpi (Open MPI, processes) and bench_overlap_pure (Pure's
 * <mpi.h>, rank threads). No mutable globals: ranks may be threads.
 *
 * For each size, four quantities, each the slowest rank's time of one
 * repetition (MPI_MAX), the minimum over the timed batches:
 *   coll      MPI_Iallreduce then MPI_Wait, nothing between;
 *   compute   the computation alone: `slices` slices of a dependent
 *             floating-point loop on registers (no memory traffic),
 *             calibrated by each rank to last about `coll` in all;
 *   tested    MPI_Iallreduce, the slices with an MPI_Test after each, then
 *             MPI_Wait: a program that offers the library its progress;
 *   waited    MPI_Iallreduce, the slices with no call between, MPI_Wait.
 * Overlap, as the OSU benchmarks define it: the share of `coll` that did not
 * add to the computation, 100 * (1 - (total - compute) / coll), clamped to
 * [0, 100].
 *
 * Checks: the allreduce sums doubles (rank r contributes (r + 1) * (i % 5 +
 * 1) at index i, so every sum is exact); the output is cleared before every
 * call and checked after it; a mismatch ends the job with MPI_Abort.
 *
 * Rank 0 prints JSON Lines for tools/bench_report.py:
 *   {"bench":"overlap","kind":"config","ranks":N,"batches":B,"slices":K}
 *   {"bench":"overlap","kind":"iallreduce","bytes":S,"coll_us":..,
 *    "compute_us":..,"tested_us":..,"waited_us":..,"tested_pct":..,
 *    "waited_pct":..}
 *
 * Usage: bench_overlap [--quick] [--batches N] [--slices K]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxBytes = 4 << 20,
  kRepetitions = 5, /* calls per batch; each is timed on its own */
};

struct options {
  int batches;
  int slices;
};

struct context {
  int rank;
  int size;
  double* send;
  double* recv;
};

static double contribution(int rank, size_t i) { return (double)(rank + 1) * (double)(i % 5 + 1); }

/* The work between the calls: a dependent multiply-add chain in registers,
 * `iterations` long; its result is returned so that it is not optimised
 * away. */
static double compute(long iterations, double x) {
  for (long i = 0; i < iterations; ++i) x = x * 0.999999 + 1e-7;
  return x;
}

static void check(const struct context* c, size_t n) {
  const double ranks = (double)c->size * (double)(c->size + 1) / 2;
  for (size_t i = 0; i < n; ++i) {
    if (c->recv[i] != ranks * (double)(i % 5 + 1)) {
      fprintf(stderr, "bench_overlap: rank %d: element %zu of %zu is %g, expected %g\n", c->rank,
              i, n, c->recv[i], ranks * (double)(i % 5 + 1));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

enum mode { kColl, kCompute, kTested, kWaited };

/* One repetition of `mode`; returns the slowest rank's seconds. */
static double once(const struct context* c, size_t n, enum mode mode, int slices,
                   long per_slice, double* sink) {
  if (mode != kCompute) memset(c->recv, 0, n * sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  MPI_Request req = MPI_REQUEST_NULL;
  if (mode != kCompute)
    MPI_Iallreduce(c->send, c->recv, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
  if (mode != kColl) {
    for (int s = 0; s < slices; ++s) {
      *sink = compute(per_slice, *sink);
      if (mode == kTested) {
        int done = 0;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      }
    }
  }
  if (mode != kCompute) MPI_Wait(&req, MPI_STATUS_IGNORE);
  double mine = MPI_Wtime() - t0, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (mode != kCompute) check(c, n);
  return slowest;
}

static double best_of(const struct context* c, const struct options* o, size_t n, enum mode mode,
                      long per_slice, double* sink) {
  double best = 1e30;
  for (int b = 0; b < o->batches; ++b)
    for (int r = 0; r < kRepetitions; ++r) {
      const double t = once(c, n, mode, o->slices, per_slice, sink);
      if (t < best) best = t;
    }
  return best;
}

/* Iterations of compute() that last `seconds` on this rank. */
static long calibrate(double seconds, double* sink) {
  long iterations = 1 << 16;
  for (;;) {
    const double t0 = MPI_Wtime();
    *sink = compute(iterations, *sink);
    const double t = MPI_Wtime() - t0;
    if (t > 2e-3 || iterations > (1L << 40)) return (long)((double)iterations * seconds / t) + 1;
    iterations *= 4;
  }
}

static double overlap_pct(double coll, double compute_s, double total) {
  double pct = 100.0 * (1.0 - (total - compute_s) / coll);
  return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

static void measure(const struct context* c, const struct options* o, size_t bytes,
                    double* sink) {
  const size_t n = bytes / sizeof(double);
  /* Warm-up: the first calls pay for page faults and the library's set-up. */
  for (int i = 0; i < 3; ++i) once(c, n, kColl, 0, 0, sink);
  const double coll = best_of(c, o, n, kColl, 0, sink);
  const long per_slice = calibrate(coll / o->slices, sink);
  const double comp = best_of(c, o, n, kCompute, per_slice, sink);
  const double tested = best_of(c, o, n, kTested, per_slice, sink);
  const double waited = best_of(c, o, n, kWaited, per_slice, sink);
  if (c->rank == 0)
    printf("{\"bench\":\"overlap\",\"kind\":\"iallreduce\",\"bytes\":%zu,\"coll_us\":%.3f,"
           "\"compute_us\":%.3f,\"tested_us\":%.3f,\"waited_us\":%.3f,\"tested_pct\":%.1f,"
           "\"waited_pct\":%.1f}\n",
           bytes, coll * 1e6, comp * 1e6, tested * 1e6, waited * 1e6,
           overlap_pct(coll, comp, tested), overlap_pct(coll, comp, waited));
  fflush(stdout);
}

static int parse_number(const char* s, long lo, long hi, long* out) {
  char* end = NULL;
  const long v = strtol(s, &end, 10);
  if (!end || *end || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

static int parse_options(int argc, char** argv, struct options* o) {
  o->batches = 10;
  o->slices = 16;
  for (int i = 1; i < argc; ++i) {
    long v = 0;
    if (strcmp(argv[i], "--quick") == 0) {
      o->batches = 3;
    } else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) {
      if (!parse_number(argv[++i], 1, 1000, &v)) return 0;
      o->batches = (int)v;
    } else if (strcmp(argv[i], "--slices") == 0 && i + 1 < argc) {
      if (!parse_number(argv[++i], 1, 4096, &v)) return 0;
      o->slices = (int)v;
    } else {
      return 0;
    }
  }
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct context c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);
  struct options o;
  if (!parse_options(argc, argv, &o)) {
    if (c.rank == 0)
      fprintf(stderr, "usage: bench_overlap [--quick] [--batches 1..1000] [--slices 1..4096]\n");
    MPI_Finalize();
    return 2;
  }
  const size_t n = kMaxBytes / sizeof(double);
  c.send = malloc(n * sizeof(double));
  c.recv = malloc(n * sizeof(double));
  if (!c.send || !c.recv) {
    fprintf(stderr, "bench_overlap: rank %d: out of memory\n", c.rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < n; ++i) c.send[i] = contribution(c.rank, i);
  if (c.rank == 0)
    printf("{\"bench\":\"overlap\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d,"
           "\"slices\":%d}\n",
           c.size, o.batches, o.slices);
  double sink = 1.0;
  static const size_t kSizes[] = {8, 1 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
  for (size_t i = 0; i < sizeof kSizes / sizeof kSizes[0]; ++i) measure(&c, &o, kSizes[i], &sink);
  if (sink == 0) printf("{}\n"); /* never: keeps the computation's result alive */
  free(c.send);
  free(c.recv);
  MPI_Finalize();
  return 0;
}
