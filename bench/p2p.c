/* Point-to-point benchmark: ping-pong latency and windowed bandwidth between
 * ranks 0 and 1, for message sizes 1 B .. 4 MiB (powers of 2).
 *
 * One source, written against the MPI API, built twice: with Open MPI
 * (bench_p2p_mpi, processes) and with Pure's <mpi.h> and -Dmain=pure_main
 * (bench_p2p_pure, rank threads). Ranks may be threads, so there are no
 * mutable globals: all state lives on each rank's stack or heap.
 *
 * Rank 0 prints JSON Lines, one object per line, for tools/bench_report.py:
 *   {"bench":"p2p","kind":"config","ranks":N,"batches":B,"window":64}
 *   {"bench":"p2p","kind":"lat","bytes":S,"usec":T}
 *       one-way latency = half the round trip; the mean over a batch of round
 *       trips, minimum over the batches
 *   {"bench":"p2p","kind":"bw","bytes":S,"gb_per_s":G}
 *       a window of 64 isend/irecv then a 1-byte ack, repeated; 1e9 bytes/s,
 *       maximum over the batches
 * Every batch is preceded by a handshake and an untimed warm-up batch runs
 * first for every size. Every batch's received bytes are checked against a
 * pattern that depends on the size, so a benchmark that moves no data fails
 * instead of looking fast. Like the OSU benchmarks, a window reuses one send
 * and one receive buffer.
 *
 * Usage: bench_p2p [--quick] [--batches N] [--max-bytes N] [--thread-level L]
 *   --quick        5 batches instead of 20 (for the demo)
 *   --batches N    timed batches per size and measurement (default 20)
 *   --max-bytes N  stop after the largest power of 2 <= N (default 4 MiB)
 *   --thread-level single|funneled|serialized|multiple
 *                  MPI_Init_thread at that level instead of MPI_Init: what
 *                  an MPI library's thread safety costs a single-threaded
 *                  exchange (the config line says the level provided)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kWindow = 64,
  kMaxBytes = 4 << 20,
  kTagData = 1,
  kTagAck = 2,
  kTagSync = 3,
  kAckByte = 0xA5,
};

struct options {
  int batches;
  size_t max_bytes;
};

struct buffers {
  unsigned char* send;
  unsigned char* recv;
};

static unsigned char pattern(size_t i, size_t size) {
  return (unsigned char)((i * 131u + size * 7u + 1u) & 0xffu);
}

static void fill_pattern(unsigned char* b, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) b[i] = pattern(i, bytes);
}

/* Aborts the job when `b` does not hold the pattern of a `bytes` message. */
static void verify(const unsigned char* b, size_t bytes, const char* what, int rank) {
  for (size_t i = 0; i < bytes; ++i) {
    if (b[i] != pattern(i, bytes)) {
      fprintf(stderr, "bench_p2p: rank %d: %s of %zu bytes: byte %zu is %u, expected %u\n",
              rank, what, bytes, i, (unsigned)b[i], (unsigned)pattern(i, bytes));
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

/* Both ranks leave together (a zero-byte round trip); nothing else is pending. */
static void handshake(int rank) {
  if (rank == 0) {
    MPI_Send(NULL, 0, MPI_BYTE, 1, kTagSync, MPI_COMM_WORLD);
    MPI_Recv(NULL, 0, MPI_BYTE, 1, kTagSync, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(NULL, 0, MPI_BYTE, 0, kTagSync, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(NULL, 0, MPI_BYTE, 0, kTagSync, MPI_COMM_WORLD);
  }
}

static int clamp(size_t n, int lo, int hi) {
  return n < (size_t)lo ? lo : n > (size_t)hi ? hi : (int)n;
}

/* Batches are short (about a millisecond of small messages) and many, so
 * that on a shared machine some of them run undisturbed; the minimum over
 * batches then measures the transport, not the neighbours. */

/* Round trips per batch: about 2 MiB moved, between 10 and 2000 trips. */
static int latency_iterations(size_t bytes) {
  return clamp(((size_t)1 << 21) / (bytes < 1024 ? 1024 : bytes), 10, 2000);
}

/* Windows per batch: about 8 MiB moved, between 1 and 100 windows. */
static int bandwidth_windows(size_t bytes) {
  return clamp(((size_t)1 << 23) / (kWindow * bytes), 1, 100);
}

/* One batch of round trips; returns the mean one-way time in seconds. Rank 0
 * sends the pattern, rank 1 echoes what it received, both check it. */
static double pingpong_batch(const struct buffers* b, size_t bytes, int iterations, int rank) {
  const int count = (int)bytes;
  memset(b->recv, 0, bytes);
  handshake(rank);
  const double start = MPI_Wtime();
  for (int i = 0; i < iterations; ++i) {
    if (rank == 0) {
      MPI_Send(b->send, count, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
      MPI_Recv(b->recv, count, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(b->recv, count, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(b->recv, count, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  verify(b->recv, bytes, rank == 0 ? "ping-pong echo" : "ping-pong message", rank);
  return elapsed / (2.0 * iterations);
}

/* One batch of windows; returns bytes per second as seen by rank 0. */
static double bandwidth_batch(const struct buffers* b, size_t bytes, int windows, int rank) {
  const int count = (int)bytes;
  MPI_Request requests[kWindow];
  unsigned char ack = 0;
  MPI_Status status;
  memset(b->recv, 0, bytes);
  handshake(rank);
  const double start = MPI_Wtime();
  for (int w = 0; w < windows; ++w) {
    if (rank == 0) {
      for (int i = 0; i < kWindow; ++i)
        MPI_Isend(b->send, count, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, &requests[i]);
      MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE);
      MPI_Recv(&ack, 1, MPI_BYTE, 1, kTagAck, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      for (int i = 0; i < kWindow; ++i)
        MPI_Irecv(b->recv, count, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &requests[i]);
      MPI_Waitall(kWindow, requests, MPI_STATUSES_IGNORE);
      ack = kAckByte;
      MPI_Send(&ack, 1, MPI_BYTE, 0, kTagAck, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0 && ack != kAckByte) {
    fprintf(stderr, "bench_p2p: rank 0: acknowledgement byte is %u, expected %u\n",
            (unsigned)ack, (unsigned)kAckByte);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  if (rank == 1) verify(b->recv, bytes, "windowed message", rank);

  /* One more message whose received length is checked through the status. */
  if (rank == 0) {
    MPI_Send(b->send, count, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
  } else {
    int received = -1;
    memset(b->recv, 0, bytes);
    MPI_Recv(b->recv, count, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_BYTE, &received);
    if (received != count || status.MPI_SOURCE != 0 || status.MPI_TAG != kTagData) {
      fprintf(stderr, "bench_p2p: rank 1: status says %d bytes from %d tag %d, expected %d from 0 tag %d\n",
              received, status.MPI_SOURCE, status.MPI_TAG, count, (int)kTagData);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    verify(b->recv, bytes, "status-checked message", rank);
  }
  return (double)bytes * kWindow * windows / elapsed;
}

/* Reads a whole decimal number in [lo, hi]; returns 0 when it is not one. */
static int parse_number(const char* text, long lo, long hi, long* out) {
  char* end = NULL;
  long n = strtol(text, &end, 10);
  if (end == text || *end != '\0' || n < lo || n > hi) return 0;
  *out = n;
  return 1;
}

static const char* const kLevelNames[] = {"single", "funneled", "serialized", "multiple"};
static const int kLevels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                              MPI_THREAD_MULTIPLE};

/* The level --thread-level names: -1 when there is none, -2 when it names
 * no level. Read before MPI_Init_thread, so from argv as given. */
static int requested_level(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--thread-level") != 0) continue;
    for (int l = 0; l < 4; ++l)
      if (strcmp(argv[i + 1], kLevelNames[l]) == 0) return kLevels[l];
    return -2;
  }
  return -1;
}

static const char* level_name(int level) {
  for (int l = 0; l < 4; ++l)
    if (kLevels[l] == level) return kLevelNames[l];
  return "unknown";
}

static int parse_options(int argc, char** argv, struct options* o) {
  long n = 0;
  o->batches = 20;
  o->max_bytes = kMaxBytes;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      o->batches = 5;
    } else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) {
      if (!parse_number(argv[++i], 1, 1000, &n)) return 0;
      o->batches = (int)n;
    } else if (strcmp(argv[i], "--max-bytes") == 0 && i + 1 < argc) {
      if (!parse_number(argv[++i], 1, kMaxBytes, &n)) return 0;
      o->max_bytes = (size_t)n;
    } else if (strcmp(argv[i], "--thread-level") == 0 && i + 1 < argc) {
      if (requested_level(argc, argv) < 0) return 0;
      ++i;
    } else {
      return 0;
    }
  }
  return 1;
}

int main(int argc, char** argv) {
  const int level = requested_level(argc, argv);
  int provided = -1;
  if (level >= 0)
    MPI_Init_thread(&argc, &argv, level, &provided);
  else
    MPI_Init(&argc, &argv);
  if (provided < 0) MPI_Query_thread(&provided);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  struct options opts;
  if (!parse_options(argc, argv, &opts)) {
    if (rank == 0)
      fprintf(stderr,
              "usage: bench_p2p [--quick] [--batches N] [--max-bytes N<=%d] "
              "[--thread-level single|funneled|serialized|multiple]\n",
              (int)kMaxBytes);
    MPI_Finalize();
    return 2;
  }
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "bench_p2p: needs 2 ranks, got %d\n", size);
    MPI_Finalize();
    return 2;
  }
  if (rank >= 2) { /* only ranks 0 and 1 take part */
    MPI_Finalize();
    return 0;
  }

  struct buffers b;
  b.send = aligned_alloc(4096, kMaxBytes);
  b.recv = aligned_alloc(4096, kMaxBytes);
  if (!b.send || !b.recv) {
    fprintf(stderr, "bench_p2p: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(b.recv, 0, kMaxBytes); /* touch every page before timing */

  if (rank == 0) {
    printf("{\"bench\":\"p2p\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d,\"window\":%d,"
           "\"thread_level\":\"%s\"}\n",
           size, opts.batches, (int)kWindow, level_name(provided));
    fflush(stdout);
  }

  for (size_t bytes = 1; bytes <= opts.max_bytes; bytes *= 2) {
    fill_pattern(b.send, bytes);

    const int iterations = latency_iterations(bytes);
    pingpong_batch(&b, bytes, iterations / 4 > 1 ? iterations / 4 : 1, rank); /* warm-up */
    double best_latency = 1e30;
    for (int k = 0; k < opts.batches; ++k) {
      double t = pingpong_batch(&b, bytes, iterations, rank);
      if (t < best_latency) best_latency = t;
    }

    const int windows = bandwidth_windows(bytes);
    bandwidth_batch(&b, bytes, windows / 4 > 1 ? windows / 4 : 1, rank); /* warm-up */
    double best_bandwidth = 0;
    for (int k = 0; k < opts.batches; ++k) {
      double bw = bandwidth_batch(&b, bytes, windows, rank);
      if (bw > best_bandwidth) best_bandwidth = bw;
    }

    if (rank == 0) {
      printf("{\"bench\":\"p2p\",\"kind\":\"lat\",\"bytes\":%zu,\"usec\":%.4f}\n", bytes,
             best_latency * 1e6);
      printf("{\"bench\":\"p2p\",\"kind\":\"bw\",\"bytes\":%zu,\"gb_per_s\":%.4f}\n", bytes,
             best_bandwidth / 1e9);
      fflush(stdout);
    }
  }

  free(b.send);
  free(b.recv);
  MPI_Finalize();
  return 0;
}
