/* A Pure application in C, linked with Pure::main, whose behaviour is chosen
 * by argv[1]; ctest runs it through purerun and checks the process's exit
 * code and message (tests/apps/expect_exit.cmake).
 *
 *   ok          ring exchange, every rank checks its argv; exit 0
 *   abort       the last rank calls pure_abort(PURE_COMM_WORLD, 7); exit 7
 *   badrank     the last rank sends to rank 99; exit PURE_ERR_RANK (6)
 *   exitcode    the last rank returns 3; exit 3
 *   nofinalize  the last rank returns 0 without pure_finalize; exit non-zero
 *   deadlock    every rank receives from its partner; ended by the watchdog
 *   busyrank    the last rank computes for 3 s outside Pure, then sends to
 *               every other rank, which waited in pure_recv all along; exit
 *               0 (a job with a rank at work is not stalled, whatever
 *               process it is in)
 *   afterfinalize  every rank finalizes; the last returns 5 at once, rank 0
 *               works on for a while and then prints; exit 5, with rank 0's
 *               line (finalize is collective: no rank's status cuts the
 *               others' work short)
 *   mismatch    rank 0 calls pure_bcast where the others call pure_allreduce;
 *               exit PURE_ERR_OTHER (16), both calls named
 *   againstfinalize  rank 0 calls pure_barrier where the others finalize;
 *               across processes, a deadlock report naming both (exit 16)
 *   windowfinalize  rank 0 makes a window where the others finalize; the same
 *   winfreerecv every rank makes a window; rank 0 frees it while the others
 *               receive from rank 0; a deadlock report naming both (exit 16)
 *   segv, fpe, bus, assert, overflow
 *               the last rank crashes (a null write, an integer division by
 *               zero, a read past the end of a truncated mapping, a failed
 *               assert, unbounded recursion); the process ends with the
 *               signal, after a line naming the rank
 *
 * In every failing mode the other ranks are blocked in pure_recv. */
#undef NDEBUG /* the assert mode needs assert, in every build type */
#include <assert.h>
#include <pure/pure.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile int sink;

/* Unbounded recursion that the compiler cannot turn into a loop. */
static int recurse(volatile int depth) {
  volatile char frame[256];
  frame[0] = (char)depth;
  if (depth < 0) return 0; /* never: depth only grows */
  return recurse(depth + 1) + frame[0];
}

static void crash(const char* mode) {
  if (strcmp(mode, "segv") == 0) {
    volatile int* volatile null = NULL;
    *null = 1;
  } else if (strcmp(mode, "fpe") == 0) {
    /* Both operands unknown to the compiler: 1 / x it would compute without
     * dividing. */
    volatile int seven = 7, zero = 0;
    sink = seven / zero;
  } else if (strcmp(mode, "bus") == 0) {
    /* A mapping of a file that is then truncated: reading past its new end
     * raises SIGBUS. */
    FILE* f = tmpfile();
    long page = sysconf(_SC_PAGESIZE);
    if (!f || ftruncate(fileno(f), page * 2) != 0) abort();
    volatile char* p = mmap(NULL, (size_t)page * 2, PROT_READ, MAP_SHARED, fileno(f), 0);
    if (p == MAP_FAILED || ftruncate(fileno(f), 0) != 0) abort();
    sink = p[page];
  } else if (strcmp(mode, "assert") == 0) {
    assert(sink == 12345 && "the invariant this mode breaks");
  } else if (strcmp(mode, "overflow") == 0) {
    sink = recurse(0);
  }
}

static int wait_for(int source) {
  int value = 0;
  return pure_recv(&value, 1, PURE_INT, source, 0, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
}

int pure_main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "ok";
  int rank = -1, size = -1;
  pure_init(&argc, &argv);
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  pure_comm_size(PURE_COMM_WORLD, &size);
  const int last = size - 1;

  if (strcmp(mode, "ok") == 0) {
    int out = rank, in = -1;
    pure_sendrecv(&out, 1, PURE_INT, (rank + 1) % size, 1, &in, 1, PURE_INT,
                  (rank + size - 1) % size, 1, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
    if (in != (rank + size - 1) % size) {
      fprintf(stderr, "exit_codes: rank %d got %d\n", rank, in);
      return 1;
    }
    if (argc != 3 || strcmp(argv[2], "extra-arg") != 0) {
      fprintf(stderr, "exit_codes: rank %d got the wrong arguments\n", rank);
      return 1;
    }
    argv[1][0] = 'X'; /* each rank has its own copy of argv */
    pure_finalize();
    if (rank == 0) printf("exit_codes: ok from %d ranks\n", size);
    return 0;
  }
  if (strcmp(mode, "afterfinalize") == 0) {
    pure_finalize();
    if (rank == last) return 5;
    if (rank == 0) {
      const struct timespec pause = {0, 300 * 1000 * 1000};
      nanosleep(&pause, NULL);
      printf("exit_codes: rank 0 finished its work after finalize\n");
    }
    return 0;
  }
  if (strcmp(mode, "busyrank") == 0) {
    if (rank == last) {
      struct timespec start, now;
      clock_gettime(CLOCK_MONOTONIC, &start);
      do {
        for (int i = 0; i < 100000; ++i) sink += i;
        clock_gettime(CLOCK_MONOTONIC, &now);
      } while (now.tv_sec - start.tv_sec < 3);
      for (int peer = 0; peer < last; ++peer) pure_send(&rank, 1, PURE_INT, peer, 0, PURE_COMM_WORLD);
    } else {
      wait_for(last);
    }
    pure_finalize();
    if (rank == 0) printf("exit_codes: busyrank ok\n");
    return 0;
  }
  if (strcmp(mode, "mismatch") == 0) {
    int x = rank, sum = 0;
    if (rank == 0)
      pure_bcast(&x, 1, PURE_INT, 0, PURE_COMM_WORLD);
    else
      pure_allreduce(&x, &sum, 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
    pure_finalize();
    return 0;
  }
  if (strcmp(mode, "againstfinalize") == 0 || strcmp(mode, "windowfinalize") == 0) {
    if (rank == 0 && mode[0] == 'a') {
      pure_barrier(PURE_COMM_WORLD);
    } else if (rank == 0) {
      void* base = NULL;
      PURE_Win win;
      pure_win_allocate(64, 1, PURE_INFO_NULL, PURE_COMM_WORLD, &base, &win);
    }
    pure_finalize();
    fprintf(stderr, "exit_codes: rank %d finalized against a collective\n", rank);
    return 0;
  }
  if (strcmp(mode, "winfreerecv") == 0) {
    int cell = 0;
    PURE_Win win;
    pure_win_create(&cell, sizeof cell, 1, PURE_INFO_NULL, PURE_COMM_WORLD, &win);
    if (rank == 0)
      pure_win_free(&win);
    else
      wait_for(0);
    fprintf(stderr, "exit_codes: rank %d went on past a window freed against a receive\n", rank);
    return 0;
  }
  if (strcmp(mode, "deadlock") == 0) {
    wait_for(rank ^ 1);
  } else if (rank != last) {
    wait_for(last);
  } else if (strcmp(mode, "abort") == 0) {
    pure_abort(PURE_COMM_WORLD, 7);
  } else if (strcmp(mode, "badrank") == 0) {
    pure_send(&rank, 1, PURE_INT, 99, 0, PURE_COMM_WORLD);
  } else if (strcmp(mode, "exitcode") == 0) {
    return 3;
  } else if (strcmp(mode, "nofinalize") == 0) {
    return 0;
  } else if (strcmp(mode, "segv") == 0 || strcmp(mode, "fpe") == 0 || strcmp(mode, "bus") == 0 ||
             strcmp(mode, "assert") == 0 || strcmp(mode, "overflow") == 0) {
    crash(mode);
  } else {
    fprintf(stderr, "exit_codes: unknown mode '%s'\n", mode);
    return 64;
  }
  fprintf(stderr, "exit_codes: rank %d went on after the job should have ended\n", rank);
  pure_finalize();
  return 0;
}
