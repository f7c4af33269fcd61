// Member: one rank as the one-sided layer sees it -- how it waits, its world
// rank, its counts of windows created per communicator, its part of the
// symmetric heap and its active-message Mailbox -- and Shared, what the
// one-sided state of one process has in common: the Peers (to wake a rank),
// the windows being created, where the members of a new window in this
// process meet, every rank's Member (to reach its Mailbox), the queue of
// any-thread active messages and the locks served here.
#pragma once

#include <atomic>
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
#include "onesided/active_messages.h"
#include "onesided/shared_window.h"

namespace pure::onesided {

class Member;
class SymHeap;

class Shared {
 public:
  explicit Shared(const Peers& peers)
      : peers_(peers), members_(static_cast<std::size_t>(peers.size()), nullptr) {}
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

  // Every rank's Member, by local index: set by the job before any rank
  // runs, read-only afterwards.
  void enroll(int local, Member* member);
  Member& member_of_world(int world) const {
    return *members_[static_cast<std::size_t>(peers_.local_of(world))];
  }
  AmQueue& any_thread() { return any_; }
  LockService& locks() { return locks_; }

  // Active messages between processes: the net layer's side, set by the
  // job before any rank runs (null in a one-process job).
  void set_remote(AmRemote* remote) { remote_ = remote; }
  bool has_remote() const { return remote_ != nullptr; }
  // Ranks poll for messages from other processes once this process may get
  // any: from its first handler registration or symmetric heap on.
  // Relaxed: the flag only turns polling on; what polling finds is ordered
  // by MPI and the queues, not by it.
  void activate_remote() {
    if (remote_) remote_active_.store(true, std::memory_order_relaxed);
  }
  AmRemote* active_remote() const {
    return remote_active_.load(std::memory_order_relaxed) ? remote_ : nullptr;
  }
  bool remote_active() const { return active_remote() != nullptr; }
  AmRemote* remote() const { return remote_; }
  // Where a message for local rank `target` waits: the process's
  // any-thread queue (internal handlers, and those registered so), else
  // the target's inbox.
  AmQueue& queue_for(int target, int handler);
  // A message from another process for a rank here: counted (a reply) and
  // queued for it, or, for kAmDone, its count taken.
  void arrived(AmMessage* m);

 private:
  struct Pending {
    std::shared_ptr<SharedWindow> window;
    int joined = 0;
  };
  const Peers& peers_;
  std::mutex mutex_;  // held only to find or make an entry, never across a wait
  std::map<std::pair<int, std::uint64_t>, Pending> pending_;
  std::vector<Member*> members_;
  AmQueue any_;
  LockService locks_;
  AmRemote* remote_ = nullptr;
  std::atomic<bool> remote_active_{false};
};

class Member {
 public:
  Member(Waiter& waiter, Shared& shared, int world);
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;
  ~Member();

  Waiter& waiter() { return waiter_; }
  Shared& shared() { return shared_; }
  int world() const { return world_; }
  // This rank's count of windows created on the communicator with
  // `context`: members create windows in the same order, so the counts
  // agree window by window.
  std::uint64_t next_window(int context) { return ++windows_[context]; }

  // ---- the symmetric heap: null until the first pure_sym_malloc ----
  SymHeap* heap() { return heap_.get(); }
  void set_heap(std::unique_ptr<SymHeap> heap);
  // Frees the heap (collective, at finalize; every rank has one or none).
  void free_heap(const char* call);

  // ---- active messages (active_messages.h) ----
  Mailbox& mailbox() { return mailbox_; }
  // Sends handler `handler` to world rank `target` from this rank, counted
  // in the requester's pending: this rank's for a request, the target's
  // for a reply.
  void send_message(int target, int handler, const void* payload, std::size_t bytes, bool reply);
  // Runs the messages waiting for this rank and the process's any-thread
  // ones, after taking those from other processes (pure_am_poll and the
  // other explicit polls).
  int run_messages() {
    if (AmRemote* remote = shared_.active_remote()) remote->poll();
    return run_local();
  }
  // The same from a round of a wait (Rank::progress), where the empty case
  // must stay a few loads: other processes are polled (an MPI matched
  // probe) only every kRemotePollRounds-th round and when the wait is
  // stuck, not in every round of every wait of the process.
  int run_in_wait(bool stuck) {
    AmRemote* remote = shared_.active_remote();
    if (remote && (stuck || ++wait_rounds_ % kRemotePollRounds == 0)) remote->poll();
    return run_local();
  }

 private:
  static constexpr std::uint32_t kRemotePollRounds = 8;
  int run_local() {
    if (mailbox_.inbox().empty() && shared_.any_thread().empty()) return 0;
    return run_waiting();
  }
  int run_waiting();
  void run(AmMessage* m);
  void run_internal(AmMessage& m);

  Waiter& waiter_;
  Shared& shared_;
  const int world_;
  IntMap<std::uint64_t> windows_;
  std::unique_ptr<SymHeap> heap_;
  Mailbox mailbox_;
  std::uint32_t wait_rounds_ = 0;  // this rank's thread only
};

}  // namespace pure::onesided
