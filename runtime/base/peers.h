// Peers: the rank threads of this process as every layer sees them -- which
// world ranks live here, at which local index, and how to wake each (its
// Parker). Built by the job before any rank runs; read-only afterwards, so
// any thread may read it without locks.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "base/parker.h"

namespace pure {

class Peers {
 public:
  // `world_of_local`: the world rank of each local index, increasing;
  // `world_size`: ranks in the whole job.
  Peers(std::vector<int> world_of_local, int world_size)
      : world_of_(std::move(world_of_local)),
        local_of_(static_cast<std::size_t>(world_size), -1),
        parkers_(world_of_.size(), nullptr) {
    for (std::size_t i = 0; i < world_of_.size(); ++i)
      local_of_[static_cast<std::size_t>(world_of_[i])] = static_cast<int>(i);
  }
  Peers(const Peers&) = delete;
  Peers& operator=(const Peers&) = delete;

  // Rank threads of this process.
  int size() const { return static_cast<int>(world_of_.size()); }
  int world_size() const { return static_cast<int>(local_of_.size()); }
  int world_of(int local) const { return world_of_[static_cast<std::size_t>(local)]; }
  const std::vector<int>& world_ranks() const { return world_of_; }
  // Local index of a world rank, or -1 when it lives in another process.
  int local_of(int world) const { return local_of_[static_cast<std::size_t>(world)]; }
  bool here(int world) const { return local_of(world) >= 0; }

  // The Parker of local rank `local`: notify() it after publishing what it
  // may be parked on.
  Parker& parker(int local) const { return *parkers_[static_cast<std::size_t>(local)]; }
  // The same by world rank (which must live here).
  Parker& parker_of_world(int world) const { return parker(local_of(world)); }
  // Set by the job for every local rank before any of them runs.
  void set_parker(int local, Parker* parker) { parkers_[static_cast<std::size_t>(local)] = parker; }

 private:
  std::vector<int> world_of_;
  std::vector<int> local_of_;
  std::vector<Parker*> parkers_;
};

}  // namespace pure
