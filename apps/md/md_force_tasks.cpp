// md: the force loop over the link cells as a PureTask (md_tasks.h). Each
// chunk computes the forces of a range of owned cells; a cell's forces
// depend only on positions, and a chunk writes only its own cells' atoms,
// so chunks run on any rank of the process in any order and the forces are
// bit-identical to the loop of the MPI version.
#include "md_tasks.h"

#include <pure/pure.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>

namespace {

// Owned cells per chunk at least: a cell of copper at CoMD's density holds
// about 18 atoms and costs about 9000 pair distances, so a chunk of a few
// cells already dwarfs the cost of claiming it.
constexpr std::int64_t kMinChunkCells = 4;

}  // namespace

extern "C" uint64_t md_forces_tasks(const md_cells* cells, const double* x, double* f, double* e,
                                    const md_lj* lj) {
  const std::int64_t owned = md_owned_cells(cells);
  std::atomic<std::uint64_t> pairs{0};
  PureTask task(
      [&](chunk_id_t start, chunk_id_t end, std::optional<void*>) {
        const auto [lo, hi] = pure_idx_range(owned, start, end);
        if (lo > hi) return;
        const std::uint64_t done =
            md_forces_of_cells(cells, x, f, e, lj, static_cast<int>(lo), static_cast<int>(hi + 1));
        // Relaxed: execute() returns after every chunk finished, which orders
        // these additions before the owner's load.
        pairs.fetch_add(done, std::memory_order_relaxed);
      },
      std::clamp<std::int64_t>(owned / kMinChunkCells, 1, 128));
  task.execute();
  return pairs.load(std::memory_order_relaxed);
}
