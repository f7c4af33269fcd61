// Active messages within a process (pure/pgas.h): a request names a handler
// by id and carries a copy of its payload; the target rank runs the handler
// when it next waits or polls, and the handler may reply.
//
// Each rank has a Mailbox: an inbox (AmQueue) that any thread pushes to
// and only the rank's own thread takes from, its handler table, and the
// count of its requests and replies not yet handled. Handlers registered
// as any-thread go to the process's AmQueue instead, which every rank of
// the process takes from when it waits (Shared::run_any).
//
// What pairs with what:
// * AmQueue::push is a release CAS of the list head, take_all an acquire
//   exchange: the sender's payload (and everything it wrote before the
//   request) happens-before the handler.
// * Mailbox::pending: the sender adds one per request before pushing it;
//   the rank that ran the handler subtracts it (release) after the handler
//   returned, and after adding one for each reply the handler sent;
//   pure_am_quiet reads it with acquire. Once it reads 0 every handler of
//   its requests, and every reply handler, has run and its effects are
//   visible.
// * Handler table entries are written by the owning rank (release) and
//   read by whichever thread runs a message for it (acquire).
// * Mailbox::lock_answer: stored (release) by the thread that ran the
//   grant, read (acquire) by the rank waiting for it. With the queues'
//   release/acquire in between, the previous holder's writes before its
//   release message happen-before the next holder's accesses.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "base/cpu.h"
#include "pure/pure.h"

namespace pure::onesided {

struct AmMessage {
  AmMessage* next;
  int handler;  // a registered id (>= 0), or an internal one (< 0: locks)
  int source;   // world ranks
  int target;
  bool reply;
  std::size_t bytes;
  // The payload follows, aligned for any type.
  alignas(std::max_align_t) unsigned char payload[1];

  // A message with a copy of `bytes` of `payload`.
  static AmMessage* make(int handler, int source, int target, bool reply, const void* payload,
                         std::size_t bytes);
  static void destroy(AmMessage* m);
};

// Many producers push; consumers take everything at once (several may
// take: each gets its own batch). Oldest first.
class AmQueue {
 public:
  AmQueue() = default;
  AmQueue(const AmQueue&) = delete;
  AmQueue& operator=(const AmQueue&) = delete;
  ~AmQueue();

  void push(AmMessage* m) {
    AmMessage* head = head_.load(std::memory_order_relaxed);
    do {
      m->next = head;
    } while (!head_.compare_exchange_weak(head, m, std::memory_order_release,
                                          std::memory_order_relaxed));
  }
  // Cheap enough to ask in every round of a wait.
  bool empty() const { return head_.load(std::memory_order_relaxed) == nullptr; }
  // Everything pushed so far, oldest first; nullptr when empty.
  AmMessage* take_all();

 private:
  alignas(kCacheLine) std::atomic<AmMessage*> head_{nullptr};
};

struct Handler {
  pure_am_handler_t fn;
  int flags;
};

// One rank's side of active messages.
class Mailbox {
 public:
  Mailbox() = default;
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  // Returns the new id, or -1 when the table is full.
  int add_handler(pure_am_handler_t fn, int flags);
  // The handler with `id`, fn nullptr when none is registered.
  Handler handler(int id) const;
  int handlers() const { return count_.load(std::memory_order_acquire); }

  AmQueue& inbox() { return inbox_; }
  std::atomic<std::int64_t>& pending() { return pending_; }

  // Locks (Shared's lock service): the answer to this rank's last lock
  // request: -1 none yet, 0 granted, 1 refused (test_lock only).
  std::atomic<int>& lock_answer() { return lock_answer_; }
  // The locks this rank holds (by heap offset), its own thread only.
  std::set<std::int64_t>& held_locks() { return held_; }

  // Whether this rank's thread is inside a handler now: handlers must not
  // wait, and a wait inside one does not run more handlers.
  bool in_handler = false;

 private:
  AmQueue inbox_;
  alignas(kCacheLine) std::atomic<std::int64_t> pending_{0};
  alignas(kCacheLine) std::atomic<int> lock_answer_{-1};
  std::atomic<int> count_{0};
  std::atomic<pure_am_handler_t> fns_[PURE_AM_MAX_HANDLERS] = {};
  int flags_[PURE_AM_MAX_HANDLERS] = {};
  std::set<std::int64_t> held_;
};

// The locks served in this process (pure_set_lock ...), by home rank and
// heap offset: who holds each and who waits for it, in arrival order. The
// lock messages' handlers run on any rank thread, under the mutex.
class LockService {
 public:
  // The requester gets the lock (true), or waits in line.
  bool acquire(int home, std::int64_t offset, int requester);
  // The requester gets the lock if it is free.
  bool try_acquire(int home, std::int64_t offset, int requester);
  // The holder lets go; returns the next holder, or -1.
  int release(int home, std::int64_t offset, int holder);

 private:
  struct State {
    int holder = -1;
    std::deque<int> waiters;
  };
  std::mutex mutex_;
  std::map<std::pair<int, std::int64_t>, State> locks_;
};

// Internal handler ids (AmMessage::handler < 0).
enum InternalHandler : int {
  kLockAcquire = -1,  // payload: int64 offset; home = target
  kLockTry = -2,
  kLockRelease = -3,
  kLockAnswer = -4,  // payload: int answer (0 granted, 1 refused)
  // Across processes: the message counted in `target`'s pending was
  // handled (the runner cannot reach that count itself). Never run as a
  // handler: taken as it arrives (Shared::arrived).
  kAmDone = -5,
};

// The part of active messages that crosses processes: the net layer
// implements it on MPI (net/am_net.h); a one-process job has none.
//
// Counting across processes (Mailbox::pending): a request to another
// process is counted by its sender as any request; the rank that ran it
// there sends kAmDone back instead of subtracting. A reply to another
// process is counted where it arrives, before it is queued. Its handler
// sent the reply before the kAmDone of its request, from the same thread,
// and arrivals are taken one at a time in MPI's order (non-overtaking
// between two processes on one communicator and tag): the reply is
// counted before the request's count goes, so pure_am_quiet never sees
// zero while a reply is on its way.
class AmRemote {
 public:
  virtual ~AmRemote() = default;
  // Sends `m` to the process of its target; owns it from now on.
  virtual void send(AmMessage* m) = 0;
  // Takes what arrived for this process's ranks, in order, handing each to
  // the Shared's arrived(); completes finished sends. Another thread
  // polling already: returns at once.
  virtual void poll() = 0;
};

}  // namespace pure::onesided
