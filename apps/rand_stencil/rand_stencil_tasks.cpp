// rand_stencil_tasks: rand_stencil (rand_stencil.c, README.md) written for
// Pure with tasks. Communication goes through the flat API (pure_*), and each
// iteration's compute loop is a PureTask: the owner runs its chunks, and ranks
// that wait (for a halo, in a barrier) steal chunks of it, so the work of an
// overloaded rank spreads over the idle ones.
//
// The work model, kernel, checksum, options and result line are those of the
// MPI version (stencil_kernel.h, stencil_options.h), so the result is
// bit-identical to it for the same options, at any rank count.
#include <pure/pure.h>
#include <pure/pure.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "stencil_kernel.h"
#include "stencil_options.h"

namespace {

constexpr std::size_t kCacheLine = 64;
constexpr std::int64_t kLineCells = kCacheLine / sizeof(double);

enum : int {
  kTagLeftward = 1,   // a rank's first cell, sent to its left neighbour
  kTagRightward = 2,  // a rank's last cell, sent to its right neighbour
};

// Ends the job when a Pure call fails (only reached where the error handler
// returns instead of aborting).
void check(int rc, const char* call) {
  if (rc != PURE_SUCCESS) {
    std::fprintf(stderr, "rand_stencil_tasks: %s failed with error %d\n", call, rc);
    pure_abort(PURE_COMM_WORLD, rc);
  }
}

// One rank's cells: `count` owned cells that start on a cache line, so that
// cache-line-aligned chunks of different threads never share a line, with a
// ghost cell right before and right after them.
class Cells {
 public:
  explicit Cells(std::int64_t count)
      : size_(static_cast<std::size_t>(count + 2 * kLineCells)),
        storage_(static_cast<double*>(
            ::operator new[](size_ * sizeof(double), std::align_val_t{kCacheLine}))) {
    std::uninitialized_fill_n(storage_.get(), size_, STENCIL_BOUNDARY);
  }
  // The first owned cell; data()[-1] and data()[count] are the ghosts.
  double* data() { return storage_.get() + kLineCells; }

 private:
  struct Free {
    void operator()(double* p) const { ::operator delete[](p, std::align_val_t{kCacheLine}); }
  };
  std::size_t size_;
  std::unique_ptr<double[], Free> storage_;
};

// Fills the ghost cells cells[-1] and cells[count] with the neighbours' edge
// cells; PURE_PROC_NULL beyond the ends leaves the boundary value there.
void exchange_halo(double* cells, std::int64_t count, int left, int right) {
  PURE_Request requests[4];
  check(pure_irecv(&cells[-1], 1, PURE_DOUBLE, left, kTagRightward, PURE_COMM_WORLD,
                   &requests[0]),
        "pure_irecv");
  check(pure_irecv(&cells[count], 1, PURE_DOUBLE, right, kTagLeftward, PURE_COMM_WORLD,
                   &requests[1]),
        "pure_irecv");
  check(pure_isend(&cells[0], 1, PURE_DOUBLE, left, kTagLeftward, PURE_COMM_WORLD,
                   &requests[2]),
        "pure_isend");
  check(pure_isend(&cells[count - 1], 1, PURE_DOUBLE, right, kTagRightward, PURE_COMM_WORLD,
                   &requests[3]),
        "pure_isend");
  check(pure_waitall(4, requests, PURE_STATUSES_IGNORE), "pure_waitall");
}

}  // namespace

int pure_main(int argc, char** argv) {
  int rank = 0, ranks = 0;
  check(pure_init(&argc, &argv), "pure_init");
  check(pure_comm_rank(PURE_COMM_WORLD, &rank), "pure_comm_rank");
  check(pure_comm_size(PURE_COMM_WORLD, &ranks), "pure_comm_size");

  stencil_options options;
  const int status =
      stencil_job_options(argc, argv, ranks, rank, "rand_stencil_tasks", &options);
  if (status >= 0) {
    check(pure_finalize(), "pure_finalize");
    return status;
  }
  const stencil_work work = stencil_options_work(&options);
  const std::int64_t first = stencil_block_first(options.n, ranks, rank);
  const std::int64_t count = stencil_block_first(options.n, ranks, rank + 1) - first;
  const int left = rank > 0 ? rank - 1 : PURE_PROC_NULL;
  const int right = rank < ranks - 1 ? rank + 1 : PURE_PROC_NULL;

  Cells a(count), b(count);
  for (std::int64_t i = 0; i < count; ++i) a.data()[i] = stencil_initial(options.seed, first + i);
  double* in = a.data();
  double* out = b.data();
  std::int64_t t = 0;

  // One iteration's compute loop. It reads in, out and t when it runs (they
  // change between executions); a thief sees them through the release/acquire
  // that publishes the task. Each chunk adds its inner iterations once.
  std::atomic<std::uint64_t> work_done{0};
  PureTask step = [&](chunk_id_t start, chunk_id_t end, std::optional<void*> /*args*/) {
    auto [lo, hi] = pure_aligned_idx_range<double>(count, start, end);  // inclusive hi
    std::uint64_t done = 0;
    double previous = STENCIL_BOUNDARY;
    for (auto i = lo; i <= hi; ++i) {
      const std::uint64_t k = stencil_work_of(&work, first + i, t);
      previous = out[i] = stencil_point(in[i - 1], in[i], in[i + 1], k, previous);
      done += k;
    }
    work_done.fetch_add(done, std::memory_order_relaxed);
  };

  check(pure_barrier(PURE_COMM_WORLD), "pure_barrier");
  const double began = pure_wtime();
  for (t = 0; t < options.iters; ++t) {
    exchange_halo(in, count, left, right);
    step.execute();
    std::swap(in, out);
  }
  check(pure_barrier(PURE_COMM_WORLD), "pure_barrier");
  const double seconds = pure_wtime() - began;

  std::uint64_t sums[STENCIL_SUMS] = {0, 0, work_done.load(std::memory_order_relaxed)};
  stencil_add_sums(in, first, count, sums);
  std::uint64_t totals[STENCIL_SUMS] = {0, 0, 0};
  check(pure_reduce(sums, totals, STENCIL_SUMS, PURE_UINT64_T, PURE_SUM, 0, PURE_COMM_WORLD),
        "pure_reduce");
  if (rank == 0) stencil_print_result("tasks", &options, totals, seconds, ranks);

  check(pure_finalize(), "pure_finalize");
  return 0;
}
