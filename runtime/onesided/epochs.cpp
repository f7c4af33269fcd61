// Window: the synchronisation calls (fence, PSCW, passive target, flush,
// sync), dynamic attachments, shared queries and free. shared_window.h
// says which atomic pairs with which.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>

#include "base/error.h"
#include "onesided/window.h"

namespace pure::onesided {

namespace {
// Keeps a waiting locker announced for exactly as long as it waits, also
// when the wait unwinds because the job aborts.
class LockWaiting {
 public:
  explicit LockWaiting(SharedWindow& w) : w_(w) {
    w_.lock_waiting(1);
    // Pairs with the fence in Window::release: either the releaser sees us
    // announced, or our first look at the word sees its release.
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  ~LockWaiting() { w_.lock_waiting(-1); }
  LockWaiting(const LockWaiting&) = delete;
  LockWaiting& operator=(const LockWaiting&) = delete;

 private:
  SharedWindow& w_;
};
}  // namespace

// ---- fence ----

void Window::fence(int assert, const char* call) {
  if (access_ == Access::pscw || access_ == Access::passive)
    sync_error(call, access_ == Access::pscw
                         ? "pure_win_fence inside a PSCW access epoch (pure_win_start without "
                           "pure_win_complete)"
                         : "pure_win_fence inside a passive-target epoch (a lock without its "
                           "unlock)");
  if (exposure_ == Exposure::post)
    sync_error(call,
               "pure_win_fence inside a PSCW exposure epoch (pure_win_post without pure_win_wait)");
  Waiter& waiter = member_.waiter();
  const WaitSite site{call, -1, -1};
  // Every member's operations of the closing epoch are done (local ones at
  // once; the first member flushes the MPI side between the barriers).
  shared_->barrier(waiter, barrier_generation_, site);
  if (remote_) {
    if (local_ == 0) remote_->fence(waiter, call);
    shared_->barrier(waiter, barrier_generation_, site);
  }
  const bool succeed = (assert & PURE_MODE_NOSUCCEED) == 0;
  access_ = succeed ? Access::fence_ready : Access::none;
  exposure_ = succeed ? Exposure::fence : Exposure::none;
}

// ---- PSCW ----

void Window::start(const std::vector<int>& targets, int assert, const char* call) {
  if (access_ == Access::pscw) sync_error(call, "pure_win_start inside an open PSCW access epoch");
  if (access_ == Access::passive)
    sync_error(call, "pure_win_start inside a passive-target epoch");
  if (access_ == Access::fence)
    sync_error(call,
               "pure_win_start inside a fence epoch that RMA calls used (end it with "
               "pure_win_fence(PURE_MODE_NOSUCCEED))");
  start_group_ = targets;
  start_nocheck_ = (assert & PURE_MODE_NOCHECK) != 0;
  start_posted_.assign(targets.size(), start_nocheck_ ? 1 : 0);
  start_index_ = IntMap<int>();
  for (std::size_t i = 0; i < targets.size(); ++i) start_index_[targets[i]] = static_cast<int>(i);
  access_ = Access::pscw;
}

void Window::take_post(std::size_t i, const char* call) {
  const int t = start_group_[i];
  if (local(t)) {
    const int from = local_of_[static_cast<std::size_t>(t)];
    std::atomic<std::uint64_t>& word = shared_->target(local_).posted[from / 64];
    const std::uint64_t bit = std::uint64_t{1} << (from % 64);
    // Acquire pairs with the target's fetch_or in Window::post: what it
    // stored before posting happens-before our accesses in the epoch.
    member_.waiter().wait_until(
        [&] { return (word.load(std::memory_order_acquire) & bit) != 0; },
        WaitSite{call, t, -1}, kWaitTight);
    // Only this origin clears its bits, and the target sets this one again
    // only after our complete: a plain RMW suffices.
    word.fetch_and(~bit, std::memory_order_relaxed);
  } else {
    remote_->await_post(member_.waiter(), rank_, t, call);
  }
  start_posted_[i] = 1;
}

void Window::complete(const char* call) {
  if (access_ != Access::pscw)
    sync_error(call, "pure_win_complete without an access epoch from pure_win_start");
  // Every target's post must have come, also where nothing was accessed:
  // the bit would otherwise be taken for the next epoch's.
  for (std::size_t i = 0; i < start_group_.size(); ++i)
    if (!start_posted_[i]) take_post(i, call);
  if (remote_) remote_->flush(member_.waiter(), -1, false, call);
  for (int t : start_group_) {
    if (local(t)) {
      Target& tg = target_of(t);
      // Release pairs with the target's acquire of `completes` in
      // Window::wait/test: our puts happen-before its reads after the wait.
      tg.completes.fetch_add(1, std::memory_order_release);
      tg.parker->notify();
    } else {
      remote_->complete(rank_, t);
    }
  }
  start_group_.clear();
  start_posted_.clear();
  start_index_ = IntMap<int>();
  access_ = Access::none;
}

void Window::post(const std::vector<int>& origins, int assert, const char* call) {
  if (exposure_ == Exposure::post)
    sync_error(call, "pure_win_post inside an open exposure epoch (pure_win_post without "
                     "pure_win_wait)");
  const bool nocheck = (assert & PURE_MODE_NOCHECK) != 0;
  std::vector<int> elsewhere;
  for (int o : origins) {
    if (!local(o)) {
      elsewhere.push_back(o);
      continue;
    }
    ++completes_expected_;
    if (nocheck) continue;
    Target& origin = target_of(o);
    // Release pairs with the origin's acquire in take_post: our stores
    // before the post happen-before its gets.
    origin.posted[local_ / 64].fetch_or(std::uint64_t{1} << (local_ % 64),
                                        std::memory_order_release);
    origin.parker->notify();
  }
  post_remote_ = !elsewhere.empty();
  if (post_remote_) remote_->post(rank_, elsewhere);
  exposure_ = Exposure::post;
}

bool Window::test(const char* call) {
  if (exposure_ != Exposure::post)
    sync_error(call, "pure_win_test without an exposure epoch from pure_win_post");
  Target& me = shared_->target(local_);
  // Acquire pairs with every origin's fetch_add in complete (one release
  // sequence of read-modify-writes): their puts happen-before our reads.
  const bool here = me.completes.load(std::memory_order_acquire) >= completes_expected_;
  if (!here || (post_remote_ && !remote_->completed(member_.waiter(), rank_, false, call))) {
    poll();
    return false;
  }
  if (remote_) remote_->sync();
  exposure_ = Exposure::none;
  return true;
}

void Window::wait(const char* call) {
  if (exposure_ != Exposure::post)
    sync_error(call, "pure_win_wait without an exposure epoch from pure_win_post");
  Target& me = shared_->target(local_);
  // Acquire: as in test above.
  member_.waiter().wait_until(
      [&] { return me.completes.load(std::memory_order_acquire) >= completes_expected_; },
      WaitSite{call, -1, -1});
  if (post_remote_) remote_->completed(member_.waiter(), rank_, true, call);
  if (remote_) remote_->sync();
  exposure_ = Exposure::none;
}

// ---- passive target ----

void Window::acquire(Target& t, bool exclusive, int target, const char* call) {
  auto try_lock = [&] {
    // The acquiring exchanges below pair with the release (store or
    // fetch_sub) in Window::release: the previous holders' accesses
    // happen-before ours.
    std::uint64_t v = t.lock.load(std::memory_order_relaxed);
    if (exclusive) {
      if (v != 0) return false;
      return t.lock.compare_exchange_strong(v, Target::kExclusive, std::memory_order_acquire,
                                            std::memory_order_relaxed);
    }
    while ((v & Target::kExclusive) == 0)
      if (t.lock.compare_exchange_weak(v, v + 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        return true;
    return false;
  };
  if (try_lock()) return;
  LockWaiting announced(*shared_);
  member_.waiter().wait_until(try_lock, WaitSite{call, target, -1});
}

void Window::release(Target& t, bool exclusive) {
  // Release: what we did under the lock happens-before the next holder's.
  if (exclusive)
    t.lock.store(0, std::memory_order_release);
  else
    t.lock.fetch_sub(1, std::memory_order_release);
  // Pairs with the fence in LockWaiting (see there).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  shared_->lock_released();
}

void Window::lock_word(int target, bool exclusive, const char* call) {
  if (remote_) {
    remote_->lock(member_.waiter(), target, exclusive, call);
    return;
  }
  acquire(target_of(target), exclusive, target, call);
}

void Window::unlock_word(int target, bool exclusive) {
  if (remote_) {
    remote_->unlock(target, exclusive);
    return;
  }
  release(target_of(target), exclusive);
}

void Window::lock(bool exclusive, int target, int assert, const char* call) {
  if (access_ == Access::pscw) sync_error(call, "pure_win_lock inside a PSCW access epoch");
  if (access_ == Access::fence)
    sync_error(call,
               "pure_win_lock inside a fence epoch that RMA calls used (end it with "
               "pure_win_fence(PURE_MODE_NOSUCCEED))");
  if (lock_all_) sync_error(call, "pure_win_lock inside the epoch of pure_win_lock_all");
  char& held = locks_[target];
  if (held != kNone) {
    char what[96];
    std::snprintf(what, sizeof what, "target rank %d is already locked by this rank", target);
    sync_error(call, what);
  }
  if (assert & PURE_MODE_NOCHECK) {
    held = kUnchecked;
  } else {
    lock_word(target, exclusive, call);
    held = exclusive ? kExclusive : kShared;
  }
  if (remote_) remote_->sync();  // what other processes wrote before their unlock
  ++lock_count_;
  access_ = Access::passive;
}

void Window::unlock(int target, const char* call) {
  char* held = locks_.find(target);
  if (lock_all_ || !held || *held == kNone) {
    char what[128];
    std::snprintf(what, sizeof what, "target rank %d is not locked by this rank%s", target,
                  lock_all_ ? " (pure_win_lock_all ends with pure_win_unlock_all)" : "");
    sync_error(call, what);
  }
  if (remote_) {
    remote_->flush(member_.waiter(), target, false, call);
    remote_->sync();  // our stores to this process's memory, before the release
  }
  if (*held != kUnchecked) unlock_word(target, *held == kExclusive);
  *held = kNone;
  if (--lock_count_ == 0) access_ = Access::none;
  poll();
}

void Window::lock_all(int assert, const char* call) {
  if (access_ == Access::pscw || access_ == Access::fence || access_ == Access::passive)
    sync_error(call, access_ == Access::passive
                         ? "pure_win_lock_all inside a passive-target epoch"
                         : "pure_win_lock_all inside a fence or PSCW access epoch");
  lock_all_ = true;
  lock_all_nocheck_ = (assert & PURE_MODE_NOCHECK) != 0;
  lock_all_held_.clear();
  lock_all_taken_ = IntMap<char>();
  if (remote_) remote_->sync();
  access_ = Access::passive;
}

void Window::unlock_all(const char* call) {
  if (!lock_all_) sync_error(call, "pure_win_unlock_all without pure_win_lock_all");
  if (remote_) {
    remote_->flush(member_.waiter(), -1, false, call);
    remote_->sync();
  }
  for (int t : lock_all_held_) unlock_word(t, false);
  lock_all_held_.clear();
  lock_all_taken_ = IntMap<char>();
  lock_all_ = false;
  access_ = Access::none;
  poll();
}

void Window::flush(int target, bool local_only, const char* call) {
  if (access_ != Access::passive)
    sync_error(call, "flush outside a passive-target epoch (pure_win_lock or pure_win_lock_all)");
  if (target >= 0 && !lock_all_) {
    const char* held = locks_.find(target);
    if (!held || *held == kNone) {
      char what[96];
      std::snprintf(what, sizeof what, "flush of target rank %d, which is not locked", target);
      sync_error(call, what);
    }
  }
  if (remote_) remote_->flush(member_.waiter(), target, local_only, call);
  // Local operations are complete already; order them before what follows.
  // A full barrier as MPI asks of a flush: it pairs with the target's fence
  // in pure_win_sync when the program signals through window memory.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  poll();
}

void Window::sync(const char* call) {
  (void)call;
  // pure_win_sync is a memory barrier: it pairs with the peer's own
  // pure_win_sync (or flush) fence around the program's flag in window memory.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (remote_) remote_->sync();
  poll();
}

// ---- dynamic and shared windows ----

void Window::attach(void* base, PURE_Aint size, const char* call) {
  (void)call;
  if (flavor_ != Flavor::dynamic)
    fail(PURE_ERR_RMA_FLAVOR, "%s was not created by pure_win_create_dynamic",
         describe().c_str());
  if (size < 0) fail(PURE_ERR_SIZE, "invalid size %td", static_cast<std::ptrdiff_t>(size));
  const auto begin = reinterpret_cast<std::uintptr_t>(base);
  const Region region{begin, begin + static_cast<std::uintptr_t>(size)};
  Target& me = shared_->target(local_);
  {
    std::lock_guard<std::mutex> hold(me.regions_mutex);
    for (const Region& r : me.regions)
      if (region.begin < r.end && r.begin < region.end)
        fail(PURE_ERR_RMA_ATTACH,
             "memory at %p (%td bytes) overlaps memory already attached to %s", base,
             static_cast<std::ptrdiff_t>(size), describe().c_str());
    me.regions.push_back(region);
  }
  if (remote_) remote_->attach(rank_, base, size);
}

void Window::detach(const void* base, const char* call) {
  (void)call;
  if (flavor_ != Flavor::dynamic)
    fail(PURE_ERR_RMA_FLAVOR, "%s was not created by pure_win_create_dynamic",
         describe().c_str());
  const auto begin = reinterpret_cast<std::uintptr_t>(base);
  Target& me = shared_->target(local_);
  {
    std::lock_guard<std::mutex> hold(me.regions_mutex);
    auto it = std::find_if(me.regions.begin(), me.regions.end(),
                           [&](const Region& r) { return r.begin == begin; });
    if (it == me.regions.end())
      fail(PURE_ERR_RMA_ATTACH, "no memory attached to %s at %p", describe().c_str(), base);
    me.regions.erase(it);
  }
  if (remote_) remote_->detach(rank_, base);
}

void Window::shared_query(int target, PURE_Aint* size, int* disp_unit, void** base,
                          const char* call) {
  (void)call;
  if (flavor_ != Flavor::shared)
    fail(PURE_ERR_RMA_FLAVOR, "%s was not created by pure_win_allocate_shared",
         describe().c_str());
  if (target == PURE_PROC_NULL) {
    // The lowest rank with memory, or the first rank when none has any.
    target = 0;
    for (int r = 0; r < this->size(); ++r) {
      const std::int64_t bytes =
          local(r) ? target_of(r).size : (*shared_->extents)[static_cast<std::size_t>(r)].size;
      if (bytes > 0) {
        target = r;
        break;
      }
    }
  }
  if (local(target)) {
    const Target& t = target_of(target);
    *size = static_cast<PURE_Aint>(t.size);
    *disp_unit = t.disp_unit;
    *base = t.base;
    return;
  }
  remote_->shared_query(target, size, disp_unit, base);
}

// ---- free ----

void Window::check_free(const char* call) const {
  if (access_ == Access::pscw || access_ == Access::passive || exposure_ == Exposure::post)
    sync_error(call, access_ == Access::passive
                         ? "pure_win_free while this rank holds a passive-target epoch (a lock "
                           "or lock_all without its unlock)"
                     : access_ == Access::pscw
                         ? "pure_win_free inside a PSCW access epoch (pure_win_start without "
                           "pure_win_complete)"
                         : "pure_win_free inside a PSCW exposure epoch (pure_win_post without "
                           "pure_win_wait)");
}

void Window::free(const char* call) {
  check_free(call);
  Waiter& waiter = member_.waiter();
  const WaitSite site{call, -1, -1};
  if (remote_) remote_->flush(waiter, -1, false, call);
  // No member uses the window's memory once all have arrived.
  shared_->barrier(waiter, barrier_generation_, site);
  if (remote_) {
    if (local_ == 0) remote_->free(waiter, call);
    shared_->barrier(waiter, barrier_generation_, site);
  }
  access_ = Access::none;
  exposure_ = Exposure::none;
}

}  // namespace pure::onesided
