/* Collectives benchmark: allreduce, barrier, bcast, reduce and alltoall over
 * MPI_COMM_WORLD, every rank taking part.
 *
 * One source, written against the MPI API, built twice: with Open MPI
 * (bench_coll_mpi, processes) and with Pure's <mpi.h> and -Dmain=pure_main
 * (bench_coll_pure, rank threads). Ranks may be threads, so there are no
 * mutable globals: all state lives on each rank's stack or heap.
 *
 * Rank 0 prints JSON Lines, one object per line, for tools/bench_report.py:
 *   {"bench":"coll","kind":"config","ranks":N,"batches":B,"batch_ms":2}
 *       with "yield_when_idle":0|1 under Open MPI (whether idle processes
 *       yield the core, which mpirun turns on when it oversubscribes)
 *   {"bench":"coll","kind":<op>,"bytes":S,"usec":T}
 *       op is allreduce, barrier, bcast, reduce or alltoall; bytes is the
 *       message size (per pair for alltoall, 0 for barrier); usec the mean
 *       time of one call.
 * Timing. A batch is a barrier, then `iterations` back-to-back calls; each
 * rank times its own calls and the batch's time is the slowest rank's
 * (MPI_MAX over the ranks), divided by the iterations. The reported time is
 * the minimum over the timed batches. Before them, an untimed warm-up batch
 * runs and a calibration batch picks the iterations so that a batch lasts
 * about 2 ms (5 to 20000 calls); every rank computes the same count from the
 * same MPI_MAX result. Batches are short and many so that, on a shared
 * machine, some of them run undisturbed.
 *
 * Checks. Allreduce and reduce sum doubles (rank r contributes
 * (r + 1) * (i % 5 + 1) at index i, so every sum is exact); bcast and
 * alltoall move byte patterns. Outputs are cleared before every batch and
 * checked after it, on every rank that receives something; a mismatch ends
 * the job with MPI_Abort, so a collective that computes nothing fails
 * instead of looking fast. (A barrier has no result to check.)
 *
 * Usage: bench_coll [--quick] [--batches N] [--sweep LO HI | --small]
 *   --quick        5 timed batches instead of 20 (for the demo)
 *   --batches N    timed batches per measurement (default 20)
 *   --sweep LO HI  only allreduce, at every power of 2 from LO to HI bytes
 *                  (tools/bench.sh coll --threshold)
 *   --small        only the barrier and allreduce of 8 B and 1 KiB
 *                  (tools/bench.sh internode, across processes)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxBytes = 1 << 20,  /* allreduce, reduce, bcast */
  kMaxPairBytes = 4096, /* alltoall, per pair of ranks */
  kMinIterations = 5,
  kMaxIterations = 20000,
  kWarmupIterations = 5,
  kCalibrationIterations = 20,
};
static const double kBatchSeconds = 2e-3;

enum op_kind { kAllreduce, kBarrier, kBcast, kReduce, kAlltoall };
static const char* const kOpNames[] = {"allreduce", "barrier", "bcast", "reduce", "alltoall"};

struct measurement {
  enum op_kind op;
  size_t bytes;
};

struct options {
  int batches;
  size_t sweep_lo; /* 0: the full suite */
  size_t sweep_hi;
  int small; /* --small */
};

/* One rank's buffers; every one is allocated for the largest measurement. */
struct context {
  int rank;
  int size;
  double* send;            /* allreduce, reduce input */
  double* recv;            /* allreduce, reduce output */
  unsigned char* bcast;    /* the root's data, the others' output */
  unsigned char* a2a_send; /* kMaxPairBytes per destination */
  unsigned char* a2a_recv; /* kMaxPairBytes per source */
};

static double contribution(int rank, size_t i) { return (double)(rank + 1) * (double)(i % 5 + 1); }

static double expected_sum(int size, size_t i) {
  return (double)size * (double)(size + 1) / 2.0 * (double)(i % 5 + 1);
}

static unsigned char bcast_byte(size_t i, size_t bytes) {
  return (unsigned char)((i * 131u + bytes * 7u + 1u) & 0xffu);
}

static unsigned char pair_byte(int from, int to, size_t i) {
  return (unsigned char)(((size_t)from * 31u + (size_t)to * 7u + i * 3u + 1u) & 0xffu);
}

static void fail(const struct context* c, const struct measurement* m, size_t at, double got,
                 double want) {
  fprintf(stderr, "bench_coll: rank %d: %s of %zu bytes: element %zu is %g, expected %g\n",
          c->rank, kOpNames[m->op], m->bytes, at, got, want);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void call(const struct context* c, const struct measurement* m) {
  const int doubles = (int)(m->bytes / sizeof(double));
  switch (m->op) {
    case kAllreduce:
      MPI_Allreduce(c->send, c->recv, doubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      break;
    case kBarrier:
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    case kBcast:
      MPI_Bcast(c->bcast, (int)m->bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
      break;
    case kReduce:
      MPI_Reduce(c->send, c->recv, doubles, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case kAlltoall:
      MPI_Alltoall(c->a2a_send, (int)m->bytes, MPI_BYTE, c->a2a_recv, (int)m->bytes, MPI_BYTE,
                   MPI_COMM_WORLD);
      break;
  }
}

/* Clears what the batch must write. */
static void clear_outputs(const struct context* c, const struct measurement* m) {
  switch (m->op) {
    case kAllreduce:
    case kReduce:
      memset(c->recv, 0, m->bytes);
      break;
    case kBcast:
      if (c->rank != 0) memset(c->bcast, 0, m->bytes);
      break;
    case kAlltoall:
      memset(c->a2a_recv, 0, m->bytes * (size_t)c->size);
      break;
    case kBarrier:
      break;
  }
}

static void check_outputs(const struct context* c, const struct measurement* m) {
  switch (m->op) {
    case kAllreduce:
    case kReduce:
      if (m->op == kReduce && c->rank != 0) break;
      for (size_t i = 0; i < m->bytes / sizeof(double); ++i)
        if (c->recv[i] != expected_sum(c->size, i)) fail(c, m, i, c->recv[i], expected_sum(c->size, i));
      break;
    case kBcast:
      for (size_t i = 0; i < m->bytes; ++i)
        if (c->bcast[i] != bcast_byte(i, m->bytes)) fail(c, m, i, c->bcast[i], bcast_byte(i, m->bytes));
      break;
    case kAlltoall:
      for (int from = 0; from < c->size; ++from) {
        const unsigned char* block = c->a2a_recv + (size_t)from * m->bytes;
        for (size_t i = 0; i < m->bytes; ++i)
          if (block[i] != pair_byte(from, c->rank, i))
            fail(c, m, (size_t)from * m->bytes + i, block[i], pair_byte(from, c->rank, i));
      }
      break;
    case kBarrier:
      break;
  }
}

/* Sets up the inputs of a measurement (untimed). */
static void fill_inputs(const struct context* c, const struct measurement* m) {
  switch (m->op) {
    case kAllreduce:
    case kReduce:
      for (size_t i = 0; i < m->bytes / sizeof(double); ++i) c->send[i] = contribution(c->rank, i);
      break;
    case kBcast:
      if (c->rank == 0)
        for (size_t i = 0; i < m->bytes; ++i) c->bcast[i] = bcast_byte(i, m->bytes);
      break;
    case kAlltoall:
      for (int to = 0; to < c->size; ++to)
        for (size_t i = 0; i < m->bytes; ++i)
          c->a2a_send[(size_t)to * m->bytes + i] = pair_byte(c->rank, to, i);
      break;
    case kBarrier:
      break;
  }
}

/* One batch; returns the slowest rank's mean time per call, in seconds. */
static double batch(const struct context* c, const struct measurement* m, int iterations) {
  clear_outputs(c, m);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < iterations; ++i) call(c, m);
  const double elapsed = MPI_Wtime() - start;
  check_outputs(c, m);
  double slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest / iterations;
}

static void measure(const struct context* c, const struct measurement* m, int batches) {
  fill_inputs(c, m);
  batch(c, m, kWarmupIterations);
  const double per_call = batch(c, m, kCalibrationIterations);
  double n = per_call > 0 ? kBatchSeconds / per_call : kMaxIterations;
  const int iterations = n < kMinIterations ? kMinIterations
                         : n > kMaxIterations ? kMaxIterations
                                              : (int)n;
  double best = 1e30;
  for (int k = 0; k < batches; ++k) {
    const double t = batch(c, m, iterations);
    if (t < best) best = t;
  }
  if (c->rank == 0) {
    printf("{\"bench\":\"coll\",\"kind\":\"%s\",\"bytes\":%zu,\"usec\":%.4f}\n", kOpNames[m->op],
           m->bytes, best * 1e6);
    fflush(stdout);
  }
}

/* Reads a whole decimal number in [lo, hi]; returns 0 when it is not one. */
static int parse_number(const char* text, long lo, long hi, long* out) {
  char* end = NULL;
  long n = strtol(text, &end, 10);
  if (end == text || *end != '\0' || n < lo || n > hi) return 0;
  *out = n;
  return 1;
}

static int parse_options(int argc, char** argv, struct options* o) {
  long n = 0;
  long hi = 0;
  o->batches = 20;
  o->sweep_lo = 0;
  o->sweep_hi = 0;
  o->small = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      o->batches = 5;
    } else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) {
      if (!parse_number(argv[++i], 1, 1000, &n)) return 0;
      o->batches = (int)n;
    } else if (strcmp(argv[i], "--sweep") == 0 && i + 2 < argc) {
      if (!parse_number(argv[i + 1], (long)sizeof(double), kMaxBytes, &n) ||
          !parse_number(argv[i + 2], n, kMaxBytes, &hi))
        return 0;
      o->sweep_lo = (size_t)n;
      o->sweep_hi = (size_t)hi;
      i += 2;
    } else if (strcmp(argv[i], "--small") == 0) {
      o->small = 1;
    } else {
      return 0;
    }
  }
  return 1;
}

/* The full suite, in the order it runs. */
static int suite(struct measurement* out) {
  int n = 0;
  out[n++] = (struct measurement){kBarrier, 0};
  for (size_t b = 8; b < kMaxBytes; b *= 4) out[n++] = (struct measurement){kAllreduce, b};
  out[n++] = (struct measurement){kAllreduce, kMaxBytes};
  const size_t rooted[] = {8, 64 << 10, kMaxBytes};
  for (int i = 0; i < 3; ++i) out[n++] = (struct measurement){kBcast, rooted[i]};
  for (int i = 0; i < 3; ++i) out[n++] = (struct measurement){kReduce, rooted[i]};
  out[n++] = (struct measurement){kAlltoall, 8};
  out[n++] = (struct measurement){kAlltoall, kMaxPairBytes};
  return n;
}

/* The small collectives only: what latency across processes decides. */
static int small(struct measurement* out) {
  int n = 0;
  out[n++] = (struct measurement){kBarrier, 0};
  out[n++] = (struct measurement){kAllreduce, 8};
  out[n++] = (struct measurement){kAllreduce, 1024};
  return n;
}

static int sweep(size_t lo, size_t hi, struct measurement* out) {
  int n = 0;
  size_t b = 8;
  while (b < lo) b *= 2;
  for (; b <= hi; b *= 2) out[n++] = (struct measurement){kAllreduce, b};
  return n;
}

/* Open MPI only: whether idle processes yield the core, which Open MPI turns
 * on by itself when mpirun oversubscribes the node, as a member of the
 * config record (",\"yield_when_idle\":0|1"); nothing elsewhere. */
static void print_yield_mode(void) {
#if defined(OPEN_MPI) && OPEN_MPI
  int provided = 0;
  int index = 0;
  int count = 0;
  unsigned char value[8] = {0}; /* an MPI_T bool cvar is C's bool */
  MPI_T_cvar_handle handle;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return;
  if (MPI_T_cvar_get_index("mpi_yield_when_idle", &index) == MPI_SUCCESS &&
      MPI_T_cvar_handle_alloc(index, NULL, &handle, &count) == MPI_SUCCESS) {
    if (MPI_T_cvar_read(handle, value) == MPI_SUCCESS)
      printf(",\"yield_when_idle\":%d", value[0] != 0);
    MPI_T_cvar_handle_free(&handle);
  }
  MPI_T_finalize();
#endif
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  struct context c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size);

  struct options opts;
  if (!parse_options(argc, argv, &opts)) {
    if (c.rank == 0)
      fprintf(stderr,
              "usage: bench_coll [--quick] [--batches N] [--sweep LO HI (8..%d bytes) | --small]\n",
              (int)kMaxBytes);
    MPI_Finalize();
    return 2;
  }

  const size_t pair_total = (size_t)kMaxPairBytes * (size_t)c.size;
  c.send = aligned_alloc(4096, kMaxBytes);
  c.recv = aligned_alloc(4096, kMaxBytes);
  c.bcast = aligned_alloc(4096, kMaxBytes);
  c.a2a_send = aligned_alloc(4096, pair_total);
  c.a2a_recv = aligned_alloc(4096, pair_total);
  if (!c.send || !c.recv || !c.bcast || !c.a2a_send || !c.a2a_recv) {
    fprintf(stderr, "bench_coll: rank %d: out of memory\n", c.rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* Touch every page before timing. */
  memset(c.send, 0, kMaxBytes);
  memset(c.recv, 0, kMaxBytes);
  memset(c.bcast, 0, kMaxBytes);
  memset(c.a2a_send, 0, pair_total);
  memset(c.a2a_recv, 0, pair_total);

  struct measurement plan[64];
  const int n = opts.sweep_lo ? sweep(opts.sweep_lo, opts.sweep_hi, plan)
                : opts.small ? small(plan)
                             : suite(plan);

  if (c.rank == 0) {
    printf("{\"bench\":\"coll\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d,\"batch_ms\":%g",
           c.size, opts.batches, kBatchSeconds * 1e3);
    print_yield_mode();
    printf("}\n");
    fflush(stdout);
  }
  for (int i = 0; i < n; ++i) measure(&c, &plan[i], opts.batches);

  free(c.send);
  free(c.recv);
  free(c.bcast);
  free(c.a2a_send);
  free(c.a2a_recv);
  MPI_Finalize();
  return 0;
}
