#include "onesided/active_messages.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "base/error.h"
#include "onesided/member.h"
#include "onesided/sym_heap.h"

namespace pure::onesided {

// ---- messages and queues ----

AmMessage* AmMessage::make(int handler, int source, int target, bool reply, const void* payload,
                           std::size_t bytes) {
  void* raw = std::malloc(offsetof(AmMessage, payload) + (bytes > 0 ? bytes : 1));
  if (!raw) fail(PURE_ERR_NO_MEM, "cannot allocate an active message of %zu bytes", bytes);
  auto* m = static_cast<AmMessage*>(raw);
  m->next = nullptr;
  m->handler = handler;
  m->source = source;
  m->target = target;
  m->reply = reply;
  m->bytes = bytes;
  if (bytes > 0) std::memcpy(m->payload, payload, bytes);
  return m;
}

void AmMessage::destroy(AmMessage* m) { std::free(m); }

AmQueue::~AmQueue() {
  for (AmMessage* m = take_all(); m;) {
    AmMessage* next = m->next;
    AmMessage::destroy(m);
    m = next;
  }
}

AmMessage* AmQueue::take_all() {
  if (empty()) return nullptr;
  AmMessage* newest = head_.exchange(nullptr, std::memory_order_acquire);
  // Pushed newest first: reverse into arrival order.
  AmMessage* oldest = nullptr;
  while (newest) {
    AmMessage* next = newest->next;
    newest->next = oldest;
    oldest = newest;
    newest = next;
  }
  return oldest;
}

// ---- handler tables ----

int Mailbox::add_handler(pure_am_handler_t fn, int flags) {
  const int id = count_.load(std::memory_order_relaxed);
  if (id >= PURE_AM_MAX_HANDLERS) return -1;
  flags_[id] = flags;
  fns_[id].store(fn, std::memory_order_release);
  count_.store(id + 1, std::memory_order_release);
  return id;
}

Handler Mailbox::handler(int id) const {
  if (id < 0 || id >= count_.load(std::memory_order_acquire)) return {nullptr, 0};
  return {fns_[id].load(std::memory_order_acquire), flags_[id]};
}

// ---- locks ----

bool LockService::acquire(int home, std::int64_t offset, int requester) {
  std::lock_guard<std::mutex> hold(mutex_);
  State& s = locks_[{home, offset}];
  if (s.holder < 0) {
    s.holder = requester;
    return true;
  }
  s.waiters.push_back(requester);
  return false;
}

bool LockService::try_acquire(int home, std::int64_t offset, int requester) {
  std::lock_guard<std::mutex> hold(mutex_);
  State& s = locks_[{home, offset}];
  if (s.holder >= 0) return false;
  s.holder = requester;
  return true;
}

int LockService::release(int home, std::int64_t offset, int holder) {
  std::lock_guard<std::mutex> hold(mutex_);
  auto it = locks_.find({home, offset});
  // The releasing rank checked that it holds the lock (pure_clear_lock).
  if (it == locks_.end() || it->second.holder != holder) return -1;
  State& s = it->second;
  if (s.waiters.empty()) {
    locks_.erase(it);
    return -1;
  }
  s.holder = s.waiters.front();
  s.waiters.pop_front();
  return s.holder;
}

// ---- Member ----

Member::Member(Waiter& waiter, Shared& shared, int world)
    : waiter_(waiter), shared_(shared), world_(world) {}

Member::~Member() = default;

void Shared::enroll(int local, Member* member) {
  members_[static_cast<std::size_t>(local)] = member;
}

void Member::set_heap(std::unique_ptr<SymHeap> heap) { heap_ = std::move(heap); }

void Member::free_heap(const char* call) {
  if (!heap_) return;
  heap_->free(call);
  heap_.reset();
}

void Member::send_message(int target, int handler, const void* payload, std::size_t bytes,
                          bool reply) {
  const Peers& peers = shared_.peers();
  AmMessage* m = AmMessage::make(handler, world_, target, reply, payload, bytes);
  // Counted before it can run: its runner takes the count. A reply to
  // another process is counted where it arrives (AmRemote).
  const int counted = reply ? target : world_;
  if (peers.here(counted))
    shared_.member_of_world(counted).mailbox().pending().fetch_add(1, std::memory_order_relaxed);
  if (!peers.here(target)) {
    if (!shared_.remote()) {
      AmMessage::destroy(m);
      fail(PURE_ERR_INTERN, "rank %d is in another process, and this process has no MPI side",
           target);
    }
    shared_.remote()->send(m);
    return;
  }
  shared_.queue_for(target, handler).push(m);
  peers.parker_of_world(target).notify();
}

AmQueue& Shared::queue_for(int target, int handler) {
  Member& t = member_of_world(target);
  const bool any = handler < 0 || (t.mailbox().handler(handler).flags & PURE_AM_ANY_THREAD);
  return any ? any_ : t.mailbox().inbox();
}

void Shared::arrived(AmMessage* m) {
  Mailbox& box = member_of_world(m->target).mailbox();
  Parker& parker = peers_.parker_of_world(m->target);
  if (m->handler == kAmDone) {
    AmMessage::destroy(m);
    box.pending().fetch_sub(1, std::memory_order_release);
    parker.notify();
    return;
  }
  if (m->reply) box.pending().fetch_add(1, std::memory_order_relaxed);
  queue_for(m->target, m->handler).push(m);
  parker.notify();
}

int Member::run_waiting() {
  // A wait inside a handler does not run more handlers: handlers run one
  // at a time on a thread, never nested.
  if (mailbox_.in_handler) return 0;
  int ran = 0;
  for (AmQueue* q : {&mailbox_.inbox(), &shared_.any_thread()}) {
    AmMessage* m = q->take_all();
    while (m) {
      AmMessage* next = m->next;
      run(m);
      m = next;
      ++ran;
    }
  }
  return ran;
}

void Member::run(AmMessage* m) {
  // The rank whose pending counts this message: the requester.
  const int counted = m->reply ? m->target : m->source;
  const int target = m->target;
  pure_am_info_t info{m->source, m->target, m->handler, m->reply ? 1 : 0, m};
  mailbox_.in_handler = true;
  // A handler's wait would block the rank that runs it, and with it the
  // handlers it runs: a blocking call in one (a collective, a receive that
  // must wait) fails instead of ending in a deadlock.
  waiter_.forbid_waits("inside an active-message handler");
  try {
    if (m->handler < 0) {
      run_internal(*m);
    } else {
      const Handler h = shared_.member_of_world(m->target).mailbox().handler(m->handler);
      if (!h.fn)
        fail(PURE_ERR_ARG,
             "an active message from rank %d names handler %d, which rank %d has not "
             "registered (every rank registers its handlers, then a barrier, before any sends)",
             m->source, m->handler, m->target);
      h.fn(&info, m->payload, m->bytes);
    }
  } catch (...) {
    mailbox_.in_handler = false;
    waiter_.forbid_waits(nullptr);
    AmMessage::destroy(m);
    throw;
  }
  mailbox_.in_handler = false;
  waiter_.forbid_waits(nullptr);
  AmMessage::destroy(m);
  // After the handler and any reply it sent were counted (release: its
  // effects are visible to the requester's quiet).
  if (shared_.peers().here(counted)) {
    shared_.member_of_world(counted).mailbox().pending().fetch_sub(1, std::memory_order_release);
    shared_.peers().parker_of_world(counted).notify();
  } else {
    // Not counted itself: it takes the count at the requester's process.
    shared_.remote()->send(AmMessage::make(kAmDone, target, counted, false, nullptr, 0));
  }
}

void Member::run_internal(AmMessage& m) {
  LockService& locks = shared_.locks();
  if (m.handler == kLockAnswer) {
    int answer = 0;
    std::memcpy(&answer, m.payload, sizeof answer);
    shared_.member_of_world(m.target).mailbox().lock_answer().store(answer,
                                                                    std::memory_order_release);
    return;
  }
  std::int64_t offset = 0;
  std::memcpy(&offset, m.payload, sizeof offset);
  const int home = m.target;
  Member& home_member = shared_.member_of_world(home);
  int answer = 0;
  switch (m.handler) {
    case kLockAcquire:
      if (!locks.acquire(home, offset, m.source)) return;  // granted by a later release
      break;
    case kLockTry:
      answer = locks.try_acquire(home, offset, m.source) ? 0 : 1;
      break;
    case kLockRelease: {
      const int next = locks.release(home, offset, m.source);
      // The grant is the home's message to the next holder.
      if (next >= 0) home_member.send_message(next, kLockAnswer, &answer, sizeof answer, false);
      return;
    }
    default:
      fail(PURE_ERR_INTERN, "unknown internal active message %d", m.handler);
  }
  // Granted (or refused, for a try): a reply to the requester.
  home_member.send_message(m.source, kLockAnswer, &answer, sizeof answer, true);
}

}  // namespace pure::onesided
