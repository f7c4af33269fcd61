// RankGlobals: one copy of the program's globals per rank, shared by every
// thread the rank starts.
//
// Under mpirun every rank is a process: its globals are its own, and the
// threads it starts (an OpenMP team, a pthread, std::thread) read and write
// them. Here ranks are threads of one process, so the translator
// (tools/mpi2pure) rewrites every use of a mutable global `x` of the
// program into PURE_RANK(x) (pure/compat.h): the address of x plus the
// calling thread's `pure_rank_delta`, the distance from the executable's
// writable segment (.data, .bss: where every global of the program lives)
// to the calling rank's copy of it. A rank thread gets its delta when it
// starts; a thread it starts inherits it (job/thread_start.cpp wraps
// pthread_create and thrd_create, which libgomp and libstdc++ call too);
// every other thread (main, helpers, the watchdog) keeps 0 and never
// touches a copy. With fibers each rank keeps its own thread-local block,
// so its delta moves with it.
//
// A copy is a private anonymous mapping of the segment's size, reserved
// and not committed: it gets the segment's file-backed part (.data) and
// the pages of .bss that something already wrote (static constructors),
// and every other page is committed only when the rank writes it -- one
// copy per rank, as with processes, and none for other threads.
//
// What a copy of bytes cannot carry is repaired per rank: pointers between
// globals (`int *p = &x;`) are relocated into the rank's copy, and C++
// objects with dynamic initialisation or a destructor are constructed by
// each rank as it starts and destroyed as it ends (pure_rank_object), as a
// process constructs and destroys its own. atexit handlers registered by a
// rank run when the rank ends.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace pure {

// What the runtime keeps per rank where every thread of the rank finds it.
struct RankShared {
  int index = -1;  // the rank's local index in its process
  int world = -1;  // its rank in PURE_COMM_WORLD
  // atexit handlers and destructors of per-rank objects, run in reverse
  // order when the rank ends.
  std::mutex exit_mutex;
  std::vector<std::pair<void (*)(void*), void*>> at_exit;
  // The C library stand-ins' state of this rank (api/compat_state.h),
  // created on first use; `libc_cleanup` ends it, after every exit action.
  // Threads of the rank may race to create it: both are atomic.
  std::atomic<void*> libc{nullptr};
  std::atomic<void (*)(void*)> libc_cleanup{nullptr};
};

class RankGlobals {
 public:
  // Whether the program links the per-rank C library (pure/compat.h, which
  // every translated program uses): only then do ranks get copies.
  static bool wanted();

  // Maps one copy per rank and fills it from the segment as it is now.
  // Call before any rank thread starts, while nothing writes the segment.
  RankGlobals(int ranks, const std::vector<int>& world_of_local);
  ~RankGlobals();
  RankGlobals(const RankGlobals&) = delete;
  RankGlobals& operator=(const RankGlobals&) = delete;

  // First thing on rank thread `index` (after the fiber hand-over): the
  // thread moves to its copy, then constructs the program's per-rank C++
  // objects in it. May throw what a constructor throws.
  void enter(int index);
  // On rank thread `index` once its main returned (or it called exit(0)):
  // runs the rank's exit actions, newest first. May throw.
  void leave(int index);
  // Last thing on rank thread `index`, however it ended: ends its C library
  // state (its output is flushed) and moves the thread off its copy.
  void finish(int index);

  // The calling thread's rank (its own thread or one it started); nullptr
  // on any other thread or when ranks have no copies.
  static RankShared* current();

 private:
  struct Copy;
  std::vector<std::unique_ptr<Copy>> copies_;
};

}  // namespace pure
