// Member: one rank as the one-sided layer sees it -- how it waits, its world
// rank, its counts of windows created per communicator -- and Shared, what
// the one-sided state of one process has in common: the Peers (to wake a
// rank) and the windows being created, where the members of a new window in
// this process meet.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "base/int_map.h"
#include "base/peers.h"
#include "base/waiter.h"
#include "comm/group.h"
#include "onesided/shared_window.h"

namespace pure::onesided {

class Shared {
 public:
  explicit Shared(const Peers& peers) : peers_(peers) {}
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;

  const Peers& peers() const { return peers_; }

  // The SharedWindow of the `serial`-th window created on the communicator
  // with `context`, whose members in this process are `local_members`
  // (world ranks, in window-rank order): made by the first of them to get
  // here, handed to each of the others, forgotten once all have it.
  // `group` is the window's members (world ranks, in window-rank order).
  std::shared_ptr<SharedWindow> join(int context, std::uint64_t serial, const Group& group,
                                     const std::vector<int>& local_members);

 private:
  struct Pending {
    std::shared_ptr<SharedWindow> window;
    int joined = 0;
  };
  const Peers& peers_;
  std::mutex mutex_;  // held only to find or make an entry, never across a wait
  std::map<std::pair<int, std::uint64_t>, Pending> pending_;
};

class Member {
 public:
  Member(Waiter& waiter, Shared& shared, int world) : waiter_(waiter), shared_(shared), world_(world) {}
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;

  Waiter& waiter() { return waiter_; }
  Shared& shared() { return shared_; }
  int world() const { return world_; }
  // This rank's count of windows created on the communicator with
  // `context`: members create windows in the same order, so the counts
  // agree window by window.
  std::uint64_t next_window(int context) { return ++windows_[context]; }

 private:
  Waiter& waiter_;
  Shared& shared_;
  const int world_;
  IntMap<std::uint64_t> windows_;
};

}  // namespace pure::onesided
