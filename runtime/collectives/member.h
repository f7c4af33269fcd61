// Member: one rank as the collectives see it -- how it waits (its Waiter),
// its scratch buffers, and what the collectives of its process share.
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

#include "base/peers.h"
#include "base/waiter.h"
#include "collectives/creations.h"

namespace pure::coll {

// What the collectives of one process share; built by the job.
class Shared {
 public:
  // `reduce_partition`: reduce and allreduce of predefined ops from this many
  // bytes on use the partitioned reducer (resolve_partition, collectives.h).
  Shared(const Peers& peers, std::size_t reduce_partition)
      : peers_(peers), reduce_partition_(reduce_partition) {}
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;

  const Peers& peers() const { return peers_; }
  std::size_t reduce_partition() const { return reduce_partition_; }
  // A context id for a new communicator, unique inside the process (0..15
  // are the predefined communicators').
  int next_context() { return next_context_.fetch_add(1, std::memory_order_relaxed); }
  // Communicators created by their members alone meet here (creations.h).
  Creations& creations() { return creations_; }

 private:
  const Peers& peers_;
  const std::size_t reduce_partition_;
  std::atomic<int> next_context_{16};
  Creations creations_;
};

class Member {
 public:
  Member(Waiter& waiter, Shared& shared) : waiter_(waiter), shared_(shared) {}
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;

  Waiter& waiter() { return waiter_; }
  Shared& shared() { return shared_; }
  bool own_core() const { return waiter_.own_core(); }
  template <class Done>
  [[gnu::always_inline]] void wait_until(Done&& done, const WaitSite& site, unsigned flags = 0) {
    waiter_.wait_until(done, site, flags);
  }

  // Scratch: packed inputs, outputs and accumulators that a collective call
  // may publish to the other members. Each is reused only by this member's
  // next call, after every member has finished reading it.
  std::vector<unsigned char> input;
  std::vector<unsigned char> output;
  std::vector<unsigned char> acc;
  // Arrays a call publishes by pointer (a scatter root's counts and
  // displacements), under the same reuse rule.
  std::vector<int> published;

 private:
  Waiter& waiter_;
  Shared& shared_;
};

}  // namespace pure::coll
