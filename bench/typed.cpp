// The typed C++ API (pure/communicator.hpp) against the flat API it sits on,
// in one run: the same measurement with each, batch by batch in turn, so
// both see the same phases of a shared machine.
//
// Measures (rank 0 prints JSON Lines for tools/bench_report.py):
//   {"bench":"typed","kind":"config","ranks":N,"batches":B}
//   {"bench":"typed","kind":"lat","api":"flat"|"typed","bytes":8,"usec":T}
//       one-way latency of a double, half a ping-pong round trip between
//       ranks 0 and 1; the mean over a batch, minimum over batches
//   {"bench":"typed","kind":"bw","api":...,"bytes":S,"gb_per_s":G}
//       a window of 64 isend/irecv of S bytes (doubles) from rank 0 to 1,
//       waited for together, then an ack; maximum over batches
//   {"bench":"typed","kind":"allreduce"|"barrier","api":...,"bytes":8|0,"usec":T}
//       one call on every rank, the slowest rank's mean over a batch,
//       minimum over batches
// Every received value is checked, so a path that moves nothing fails.
//
// Usage: bench_typed [--quick]   (5 batches instead of 20)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "pure/pure.hpp"

namespace {

constexpr int kWindow = 64;
constexpr int kTagData = 1;
constexpr int kTagAck = 2;

[[noreturn]] void fail(const char* what, double got, double expected) {
  std::fprintf(stderr, "bench_typed: %s: got %g, expected %g\n", what, got, expected);
  pure_abort(PURE_COMM_WORLD, 3);
  std::abort();
}

double slowest(double seconds) {
  double out = 0;
  pure_allreduce(&seconds, &out, 1, PURE_DOUBLE, PURE_MAX, PURE_COMM_WORLD);
  return out;
}

// ---- latency of one double, ranks 0 and 1 ----
double latency_flat(int rank, int iterations) {
  double x = rank == 0 ? 1.0 : 0.0;
  pure_barrier(PURE_COMM_WORLD);
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) {
    if (rank == 0) {
      pure_send(&x, 1, PURE_DOUBLE, 1, kTagData, PURE_COMM_WORLD);
      pure_recv(&x, 1, PURE_DOUBLE, 1, kTagData, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
    } else if (rank == 1) {
      pure_recv(&x, 1, PURE_DOUBLE, 0, kTagData, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
      x += 1.0;
      pure_send(&x, 1, PURE_DOUBLE, 0, kTagData, PURE_COMM_WORLD);
    }
  }
  const double t = pure_wtime() - start;
  if (rank == 0 && x != 1.0 + iterations) fail("flat ping-pong", x, 1.0 + iterations);
  return t / (2.0 * iterations);
}

double latency_typed(const pure::communicator& world, int iterations) {
  const int rank = world.rank();
  double x = rank == 0 ? 1.0 : 0.0;
  world.barrier();
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) {
    if (rank == 0) {
      world.send(x, 1, kTagData);
      x = world.recv<double>(1, kTagData);
    } else if (rank == 1) {
      x = world.recv<double>(0, kTagData) + 1.0;
      world.send(x, 0, kTagData);
    }
  }
  const double t = pure_wtime() - start;
  if (rank == 0 && x != 1.0 + iterations) fail("typed ping-pong", x, 1.0 + iterations);
  return t / (2.0 * iterations);
}

// ---- windowed bandwidth, rank 0 to rank 1 ----
void check_window(const std::vector<double>& in, int window) {
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != window * 1e6 + static_cast<double>(i)) fail("window data", in[i], window * 1e6 + static_cast<double>(i));
}

double bandwidth_flat(int rank, std::vector<double>& buf, int windows) {
  PURE_Request requests[kWindow];
  const int n = static_cast<int>(buf.size());
  unsigned char ack = 0;
  pure_barrier(PURE_COMM_WORLD);
  const double start = pure_wtime();
  for (int w = 0; w < windows; ++w) {
    if (rank == 0) {
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = w * 1e6 + static_cast<double>(i);
      for (auto& r : requests) pure_isend(buf.data(), n, PURE_DOUBLE, 1, kTagData, PURE_COMM_WORLD, &r);
      pure_waitall(kWindow, requests, PURE_STATUSES_IGNORE);
      pure_recv(&ack, 1, PURE_UNSIGNED_CHAR, 1, kTagAck, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
    } else if (rank == 1) {
      for (auto& r : requests) pure_irecv(buf.data(), n, PURE_DOUBLE, 0, kTagData, PURE_COMM_WORLD, &r);
      pure_waitall(kWindow, requests, PURE_STATUSES_IGNORE);
      check_window(buf, w);
      pure_send(&ack, 1, PURE_UNSIGNED_CHAR, 0, kTagAck, PURE_COMM_WORLD);
    }
  }
  const double t = pure_wtime() - start;
  return static_cast<double>(buf.size() * sizeof(double)) * kWindow * windows / t;
}

double bandwidth_typed(const pure::communicator& world, std::vector<double>& buf, int windows) {
  const int rank = world.rank();
  std::array<pure::request, kWindow> requests;
  unsigned char ack = 0;
  world.barrier();
  const double start = pure_wtime();
  for (int w = 0; w < windows; ++w) {
    if (rank == 0) {
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = w * 1e6 + static_cast<double>(i);
      for (auto& r : requests) r = world.isend(buf, 1, kTagData);
      pure::wait_all(requests);
      world.recv(ack, 1, kTagAck);
    } else if (rank == 1) {
      for (auto& r : requests) r = world.irecv(buf, 0, kTagData);
      pure::wait_all(requests);
      check_window(buf, w);
      world.send(ack, 0, kTagAck);
    }
  }
  const double t = pure_wtime() - start;
  return static_cast<double>(buf.size() * sizeof(double)) * kWindow * windows / t;
}

// ---- collectives, every rank ----
double allreduce_flat(int size, int iterations) {
  double x = 1.0, sum = 0;
  pure_barrier(PURE_COMM_WORLD);
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) pure_allreduce(&x, &sum, 1, PURE_DOUBLE, PURE_SUM, PURE_COMM_WORLD);
  const double t = pure_wtime() - start;
  if (sum != size) fail("flat allreduce", sum, size);
  return slowest(t) / iterations;
}

double allreduce_typed(const pure::communicator& world, int iterations) {
  double x = 1.0, sum = 0;
  world.barrier();
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) sum = world.allreduce(x, std::plus<>{});
  const double t = pure_wtime() - start;
  if (sum != world.size()) fail("typed allreduce", sum, world.size());
  return slowest(t) / iterations;
}

double barrier_flat(int iterations) {
  pure_barrier(PURE_COMM_WORLD);
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) pure_barrier(PURE_COMM_WORLD);
  return slowest(pure_wtime() - start) / iterations;
}

double barrier_typed(const pure::communicator& world, int iterations) {
  world.barrier();
  const double start = pure_wtime();
  for (int i = 0; i < iterations; ++i) world.barrier();
  return slowest(pure_wtime() - start) / iterations;
}

struct best {
  double flat, typed;
};

// Runs `batches` batches of each API in turn (flat first on even batches,
// typed first on odd ones); keeps the least (most, for bandwidth) of each.
template <class Flat, class Typed>
best alternate(int batches, bool more_is_better, Flat flat, Typed typed) {
  flat();
  typed();  // warm-up, untimed
  best b{more_is_better ? 0.0 : 1e30, more_is_better ? 0.0 : 1e30};
  auto keep = [&](double& slot, double v) {
    slot = more_is_better ? std::max(slot, v) : std::min(slot, v);
  };
  for (int k = 0; k < batches; ++k) {
    if (k % 2 == 0) {
      keep(b.flat, flat());
      keep(b.typed, typed());
    } else {
      keep(b.typed, typed());
      keep(b.flat, flat());
    }
  }
  return b;
}

void print(int rank, const char* kind, std::size_t bytes, const char* unit, double flat,
           double typed) {
  if (rank != 0) return;
  std::printf("{\"bench\":\"typed\",\"kind\":\"%s\",\"api\":\"flat\",\"bytes\":%zu,\"%s\":%.6g}\n",
              kind, bytes, unit, flat);
  std::printf("{\"bench\":\"typed\",\"kind\":\"%s\",\"api\":\"typed\",\"bytes\":%zu,\"%s\":%.6g}\n",
              kind, bytes, unit, typed);
  std::fflush(stdout);
}

}  // namespace

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  const int batches = argc > 1 && std::strcmp(argv[1], "--quick") == 0 ? 5 : 20;
  {
    const auto world = pure::communicator::world();
    const int rank = world.rank();
    const int size = world.size();
    if (rank == 0)
      std::printf("{\"bench\":\"typed\",\"kind\":\"config\",\"ranks\":%d,\"batches\":%d}\n", size,
                  batches);

    const best lat = alternate(batches, false, [&] { return latency_flat(rank, 1000); },
                               [&] { return latency_typed(world, 1000); });
    print(rank, "lat", 8, "usec", lat.flat * 1e6, lat.typed * 1e6);

    for (std::size_t bytes : {std::size_t{8}, std::size_t{1024}, std::size_t{65536}}) {
      std::vector<double> buf(bytes / sizeof(double));
      const int windows = std::max(1, static_cast<int>((std::size_t{1} << 23) / (kWindow * bytes)));
      const int capped = std::min(windows, 100);
      const best bw = alternate(batches, true, [&] { return bandwidth_flat(rank, buf, capped); },
                                [&] { return bandwidth_typed(world, buf, capped); });
      print(rank, "bw", bytes, "gb_per_s", bw.flat / 1e9, bw.typed / 1e9);
    }

    const best ar = alternate(batches, false, [&] { return allreduce_flat(size, 2000); },
                              [&] { return allreduce_typed(world, 2000); });
    print(rank, "allreduce", 8, "usec", ar.flat * 1e6, ar.typed * 1e6);
    const best bar = alternate(batches, false, [&] { return barrier_flat(2000); },
                               [&] { return barrier_typed(world, 2000); });
    print(rank, "barrier", 0, "usec", bar.flat * 1e6, bar.typed * 1e6);
  }
  return pure_finalize();
}
