// SharedWindow: the part of one window that its members in this process
// share -- each member's memory (a Target) with the words other members
// synchronise on, and the window's barrier. Every member's Window
// (window.h) holds it; members in other processes are reached through the
// window's Remote (remote.h), which this part knows nothing of.
//
// Synchronisation words, and what each pairs with:
//
// * Passive target: Target::lock, a reader-writer lock word (kExclusive, or
//   the number of shared holders). Acquired with an acquire CAS, released
//   with a release RMW: whatever a holder wrote to the target's memory
//   happens-before what the next holder reads. Lockers that wait announce
//   themselves in lock_waiters, then a seq_cst fence, then re-check the
//   word (LockWaiting, epochs.cpp); a releaser stores the word, then the
//   same fence, then reads lock_waiters and wakes the members if any waits.
//   The two fences order each side's store before its load (Dekker): either
//   the waiter sees the release or the releaser sees the waiter.
// * PSCW: a post by target T to origin O sets bit T in O's `posted` bitmap
//   (release); O's first access to T in its matching access epoch, or its
//   complete, takes the bit back (acquire): T's stores before the post
//   happen-before O's gets. T cannot post to O again before O's complete
//   (T's wait needs it), so one bit per pair suffices. O's complete adds
//   one to T's `completes` (release); T's wait reads the running total
//   (acquire): O's puts happen-before T's loads after the wait.
// * Fence and creation: the barrier below, a counter every member adds to
//   (acq_rel: the last arrival acquires every earlier one's release) and a
//   generation the last arrival publishes (release, read with acquire).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "base/cpu.h"
#include "base/parker.h"
#include "base/waiter.h"
#include "pure/pure.h"

namespace pure::onesided {

enum class Flavor { create = PURE_WIN_FLAVOR_CREATE, allocate = PURE_WIN_FLAVOR_ALLOCATE,
                    dynamic = PURE_WIN_FLAVOR_DYNAMIC, shared = PURE_WIN_FLAVOR_SHARED };

class WindowRemote;

// A member's memory as origins check their accesses against it.
struct Extent {
  std::int64_t size = 0;
  int disp_unit = 1;
};

// Memory a member of a dynamic window attached: [begin, end).
struct Region {
  std::uintptr_t begin;
  std::uintptr_t end;
};

struct alignas(kCacheLine) Target {
  static constexpr std::uint64_t kExclusive = std::uint64_t{1} << 63;

  // Set by the member at creation, published by the creation barrier,
  // read-only afterwards.
  char* base = nullptr;
  std::int64_t size = 0;
  int disp_unit = 1;
  int world = -1;           // the member's world rank
  Parker* parker = nullptr;  // wakes the member

  alignas(kCacheLine) std::atomic<std::uint64_t> lock{0};
  alignas(kCacheLine) std::atomic<std::uint64_t> completes{0};
  // This member as an origin: bit t set by target t's post (see above).
  std::unique_ptr<std::atomic<std::uint64_t>[]> posted;

  // Memory the window allocated for this member (pure_win_allocate and
  // _allocate_shared in one process): freed with the window.
  void* owned = nullptr;

  // Dynamic windows: what the member attached. The member changes it,
  // origins read it, both under the mutex (never held across a wait).
  std::mutex regions_mutex;
  std::vector<Region> regions;
};

class SharedWindow {
 public:
  // The members in this process, each with the Parker that wakes it (in
  // local-member order); `local_of` maps every window rank to its local
  // index, -1 for members in other processes.
  SharedWindow(const std::vector<Parker*>& parkers, std::vector<int> local_of);
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;
  ~SharedWindow();

  int size() const { return size_; }
  Target& target(int local) { return targets_[static_cast<std::size_t>(local)]; }
  const std::vector<int>& local_of() const { return local_of_; }

  // One member's arrival at the barrier; `generation` is the member's own
  // count of barriers on this window. Returns once every member arrived.
  void barrier(Waiter& waiter, std::uint64_t& generation, const WaitSite& site);

  // Passive target: a member that waits for a lock word (see the header;
  // the fences in LockWaiting and Window::release order this count).
  void lock_waiting(int delta) { lock_waiters_.fetch_add(delta, std::memory_order_seq_cst); }
  // After a release of a lock word and its fence: wakes the members if any
  // waits.
  void lock_released() {
    if (lock_waiters_.load(std::memory_order_seq_cst) != 0) wake_all();
  }
  void wake_all() {
    for (int i = 0; i < size_; ++i) target(i).parker->notify();
  }

  // Members in other processes: the MPI side and every member's extent (by
  // window rank). Written by the first member during creation, before a
  // barrier; read-only after it.
  std::shared_ptr<WindowRemote> remote;
  std::shared_ptr<const std::vector<Extent>> extents;

 private:
  const int size_;
  const std::vector<int> local_of_;
  std::unique_ptr<Target[]> targets_;
  alignas(kCacheLine) std::atomic<std::uint64_t> arrived_{0};
  alignas(kCacheLine) std::atomic<std::uint64_t> released_{0};
  alignas(kCacheLine) std::atomic<int> lock_waiters_{0};
};

}  // namespace pure::onesided
