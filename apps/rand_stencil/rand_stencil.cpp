// rand_stencil in the typed C++ API (include/pure/communicator.hpp): the
// task version (rand_stencil_tasks.cpp) as a program written for Pure in
// C++ would put it. The halo exchange is four requests waited for together,
// the compute loop a pure::parallel_for whose chunks idle ranks steal, the
// checksum a reduction with std::plus, and any failed call a pure::error.
//
// Work model, kernel, checksum, options and result line are the MPI
// version's (stencil_kernel.h, stencil_options.h): the same options print
// the same checksum, at any rank count.
#include <pure/pure.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
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

// One rank's cells: `count` owned cells that start on a cache line (chunks
// of different threads never share one), with a ghost cell on either side.
class Cells {
 public:
  explicit Cells(std::int64_t count)
      : count_(count),
        size_(static_cast<std::size_t>(count + 2 * kLineCells)),
        storage_(static_cast<double*>(
            ::operator new[](size_ * sizeof(double), std::align_val_t{kCacheLine}))) {
    std::uninitialized_fill_n(storage_.get(), size_, STENCIL_BOUNDARY);
  }
  // The owned cells; ghost(-1) and ghost(count) are the neighbours' edges.
  double* data() { return storage_.get() + kLineCells; }
  double& ghost_left() { return data()[-1]; }
  double& ghost_right() { return data()[count_]; }

 private:
  struct Free {
    void operator()(double* p) const { ::operator delete[](p, std::align_val_t{kCacheLine}); }
  };
  std::int64_t count_;
  std::size_t size_;
  std::unique_ptr<double[], Free> storage_;
};

// Fills the ghost cells with the neighbours' edge cells; pure::proc_null
// beyond the ends leaves the boundary value there.
void exchange_halo(const pure::communicator& world, Cells& cells, std::int64_t count, int left,
                   int right) {
  double* c = cells.data();
  std::array<pure::request, 4> requests{
      world.irecv(cells.ghost_left(), left, kTagRightward),
      world.irecv(cells.ghost_right(), right, kTagLeftward),
      world.isend(c[0], left, kTagLeftward),
      world.isend(c[count - 1], right, kTagRightward),
  };
  pure::wait_all(requests);
}

int run(int argc, char** argv) {
  const auto world = pure::communicator::world();
  const int rank = world.rank();
  const int ranks = world.size();

  stencil_options options;
  const int status =
      stencil_job_options(argc, argv, ranks, rank, "rand_stencil_typed", &options);
  if (status >= 0) return status;
  const stencil_work work = stencil_options_work(&options);
  const std::int64_t first = stencil_block_first(options.n, ranks, rank);
  const std::int64_t count = stencil_block_first(options.n, ranks, rank + 1) - first;
  const int left = rank > 0 ? rank - 1 : pure::proc_null;
  const int right = rank < ranks - 1 ? rank + 1 : pure::proc_null;

  Cells a(count), b(count);
  for (std::int64_t i = 0; i < count; ++i) a.data()[i] = stencil_initial(options.seed, first + i);
  Cells* in = &a;
  Cells* out = &b;

  // Each run of cells a chunk covers adds its inner iterations once.
  std::atomic<std::uint64_t> work_done{0};
  world.barrier();
  const double began = pure_wtime();
  for (std::int64_t t = 0; t < options.iters; ++t) {
    exchange_halo(world, *in, count, left, right);
    const double* from = in->data();
    double* to = out->data();
    pure::parallel_for<double>(pure::index_range{0, count}, [&](pure::index_range cells) {
      std::uint64_t done = 0;
      double previous = STENCIL_BOUNDARY;
      for (std::int64_t i = cells.begin; i < cells.end; ++i) {
        const std::uint64_t k = stencil_work_of(&work, first + i, t);
        previous = to[i] = stencil_point(from[i - 1], from[i], from[i + 1], k, previous);
        done += k;
      }
      work_done.fetch_add(done, std::memory_order_relaxed);
    });
    std::swap(in, out);
  }
  world.barrier();
  const double seconds = pure_wtime() - began;

  std::array<std::uint64_t, STENCIL_SUMS> sums{0, 0, work_done.load(std::memory_order_relaxed)};
  stencil_add_sums(in->data(), first, count, sums.data());
  std::array<std::uint64_t, STENCIL_SUMS> totals{};
  world.reduce(sums, totals, std::plus<>{}, 0);
  if (rank == 0) stencil_print_result("typed", &options, totals.data(), seconds, ranks);
  return 0;
}

}  // namespace

int pure_main(int argc, char** argv) {
  pure_init(&argc, &argv);
  const int status = run(argc, argv);
  pure_finalize();
  return status;
}
