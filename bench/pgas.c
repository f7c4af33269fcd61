/* PGAS benchmark (pure/pgas.h): latency of rank 0's operations on rank 1's
 * part of the symmetric heap, each completed before the next:
 *   put+quiet and get of 8 B and 64 KiB, fetch-add of an int64, and an
 *   active-message round trip (a request whose handler replies; rank 0
 *   waits for the reply's handler), beside Pure's own 8 B send/recv round
 *   trip (the active-message target's yardstick, issue 18).
 * The same operations as bench/rma.c, so tools/bench.sh rma sets them
 * against MPICH's and Open MPI's RMA.
 *
 * Pure only (there is no MPI form of these calls). Two ranks: threads of
 * one process, or one per process (purerun --ranks-per-proc 1).
 *
 * Rank 0 prints JSON Lines for tools/bench_report.py (the rma suite):
 *   {"bench":"pgas","kind":"config","ranks":N,"batches":B,"reps":R}
 *   {"bench":"pgas","kind":"lat","op":"put|get|fetch_add|am_rtt|sendrecv_rtt","bytes":S,"usec":T}
 *       the mean over a batch of R operations, minimum over the batches
 * Everything is checked: puts are read back, gets hold what rank 1 wrote,
 * the fetch-add counter ends at the number of additions with every fetched
 * value the one before, and every reply carries the request's number.
 *
 * Usage: bench_pgas [--quick] [--batches N]
 */
#include <pure/pure.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLarge = 64 << 10, kReps = 1000 };

static void die(const char* what) {
  fprintf(stderr, "bench_pgas: %s\n", what);
  pure_abort(PURE_COMM_WORLD, 1);
}

static unsigned char pattern(size_t i, int round) {
  return (unsigned char)(i * 31u + (unsigned)round);
}

/* Per rank: the handlers run on the rank's own thread. */
static _Thread_local int64_t t_replied = -1;
static _Atomic int g_reply = -1; /* the same id on every rank */

static void on_reply(const pure_am_info_t* info, void* payload, size_t bytes) {
  (void)info;
  if (bytes != sizeof(int64_t)) die("reply of the wrong size");
  memcpy(&t_replied, payload, sizeof t_replied);
}

static void on_request(const pure_am_info_t* info, void* payload, size_t bytes) {
  if (bytes != sizeof(int64_t)) die("request of the wrong size");
  if (pure_am_reply(info, atomic_load(&g_reply), payload, bytes) != PURE_SUCCESS) die("reply");
}

static double now_us(void) { return pure_wtime() * 1e6; }

int pure_main(int argc, char** argv) {
  int batches = 20;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0)
      batches = 5;
    else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc)
      batches = atoi(argv[++i]);
  }
  pure_init(&argc, &argv);
  const int rank = pure_my_pe(), size = pure_n_pes();
  if (size != 2 || batches < 1) die("needs exactly 2 ranks and --batches >= 1");
  int request = -1, reply = -1;
  pure_am_register(on_request, PURE_AM_DEFAULT, &request);
  pure_am_register(on_reply, PURE_AM_DEFAULT, &reply);
  atomic_store(&g_reply, reply);

  int64_t* counter = pure_sym_malloc(sizeof(int64_t));
  unsigned char* mem = pure_sym_malloc(kLarge);
  unsigned char* local = malloc(kLarge);
  unsigned char* check = malloc(kLarge);
  if (!counter || !mem || !local || !check) die("out of memory");
  *counter = 0;
  memset(mem, 0, kLarge);
  pure_barrier_all();
  if (rank == 0)
    printf("{\"bench\":\"pgas\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d,\"reps\":%d}\n",
           size, batches, kReps);

  static const struct {
    const char* op;
    int size;
  } cases[] = {{"put", 8},      {"get", 8},    {"fetch_add", 8},   {"put", kLarge},
               {"get", kLarge}, {"am_rtt", 8}, {"sendrecv_rtt", 8}};
  int64_t expect_counter = 0, sequence = 0;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const char* op = cases[k].op;
    const int n = cases[k].size;
    double best = 1e30;
    for (int b = -1; b < batches; ++b) { /* batch -1: untimed warm-up */
      if (rank == 1)
        for (int i = 0; i < n; ++i) mem[i] = pattern((size_t)i, b + 7);
      pure_barrier_all();
      if (strcmp(op, "sendrecv_rtt") == 0) {
        /* Both ranks take part; rank 1 echoes. */
        int64_t v = 0;
        const double t0 = now_us();
        for (int r = 0; r < kReps; ++r) {
          if (rank == 0) {
            v = r;
            pure_send(&v, 1, PURE_INT64_T, 1, 0, PURE_COMM_WORLD);
            pure_recv(&v, 1, PURE_INT64_T, 1, 0, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
            if (v != r) die("send/recv: wrong echo");
          } else {
            pure_recv(&v, 1, PURE_INT64_T, 0, 0, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
            pure_send(&v, 1, PURE_INT64_T, 0, 0, PURE_COMM_WORLD);
          }
        }
        const double usec = (now_us() - t0) / kReps;
        if (b >= 0 && usec < best) best = usec;
      } else if (rank == 0) {
        for (int i = 0; i < n; ++i) local[i] = pattern((size_t)i, b);
        const double t0 = now_us();
        for (int r = 0; r < kReps; ++r) {
          if (strcmp(op, "put") == 0) {
            pure_putmem(mem, local, (size_t)n, 1);
            pure_quiet();
          } else if (strcmp(op, "get") == 0) {
            pure_getmem(local, mem, (size_t)n, 1);
          } else if (strcmp(op, "fetch_add") == 0) {
            if (pure_int64_atomic_fetch_add(counter, 1, 1) != expect_counter + r)
              die("fetch_add fetched a wrong value");
          } else {
            ++sequence;
            pure_am_request(1, request, &sequence, sizeof sequence);
            pure_am_quiet();
            if (t_replied != sequence) die("active message: wrong reply");
          }
        }
        const double usec = (now_us() - t0) / kReps;
        if (b >= 0 && usec < best) best = usec;
        if (strcmp(op, "fetch_add") == 0) expect_counter += kReps;
        if (strcmp(op, "put") == 0) {
          pure_getmem(check, mem, (size_t)n, 1);
          if (memcmp(check, local, (size_t)n) != 0) die("put: the target does not hold the data");
        } else if (strcmp(op, "get") == 0) {
          for (int i = 0; i < n; ++i)
            if (local[i] != pattern((size_t)i, b + 7)) die("get: wrong data");
        } else if (strcmp(op, "fetch_add") == 0) {
          if (pure_int64_atomic_fetch(counter, 1) != expect_counter)
            die("fetch_add: additions lost");
        }
      }
      /* Rank 1 waits here, running rank 0's active messages meanwhile. */
      pure_barrier_all();
    }
    if (rank == 0)
      printf("{\"bench\":\"pgas\",\"kind\":\"lat\",\"op\":\"%s\",\"bytes\":%d,\"usec\":%.4f}\n", op,
             n, best);
  }
  fflush(stdout);
  free(local);
  free(check);
  pure_sym_free(mem);
  pure_sym_free(counter);
  pure_finalize();
  return 0;
}
