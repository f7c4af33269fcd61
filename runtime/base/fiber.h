// Rank fibers: ranks that share a core take turns on one kernel thread.
//
// When ranks outnumber cores, every wait that hands the core to another rank
// through the kernel (sched_yield, futex) costs a context switch, over a
// microsecond, and a barrier of 8 ranks on 2 cores costs at least 4
// switches per core. A fiber switch costs a few tens of nanoseconds
// (docs/perf-notes.md, "Fibers").
//
// What makes a fiber a rank is its thread-local storage: the translator
// (tools/mpi2pure) turns every global of an MPI program into a thread_local,
// errno and the C++ runtime keep per-thread state, and so does Pure. So
// every rank still gets a real thread (pthread), with its own stack and
// thread-local block. Fibers only change who runs it:
//
//   * Ranks 0 .. H-1 (H = cores) are the hosts: their kernel threads run
//     ranks, each pinned to its core. Every other rank hands over its
//     context as its thread starts: its kernel thread saves its registers
//     and stack pointer, moves to a small stack of its own and sleeps there
//     on a futex (pure_fiber_sleep, in assembly: it must not touch the
//     rank's thread-local state, which the rank is using elsewhere
//     meanwhile).
//   * A host runs one rank at a time. A rank that waits (base/waiter.h)
//     switches to another rank whose context is saved: callee-saved
//     registers, the stack pointer, and the thread pointer (FS base,
//     written with wrfsbase), so each rank always runs with its own
//     thread-locals -- a rank's code cannot tell which kernel thread it is
//     on.
//   * Any host may run any rank (a rank is claimed by a compare-and-swap on
//     its state). A host takes the ranks it ran last first (their data is
//     in its cache); a rank whose wait has gone round without progress also
//     takes a rank last run by a busy host (one that has not switched since
//     it last looked), and a host with no rank to run takes any: so ranks
//     that are ready move to the core that has nothing to do, and the kernel
//     threads of an uneven job stay busy. A rank starts on host r % H.
//   * A host with nothing to run waits on a small stack of its own (its idle
//     loop). When every rank is done, every kernel thread resumes its own
//     rank's final context and ends as an ordinary thread.
//
// On x86-64 Linux, in single-process jobs (MPI libraries keep kernel-thread
// state of their own). The thread pointer is written with wrfsbase where
// the kernel allows it (FSGSBASE, Linux >= 5.9; some virtual machines hide
// it), else with the arch_prctl system call. Elsewhere, or with
// PURE_FIBERS=off, ranks sharing cores wait through the kernel.
//
// Limits, as for any user-level threading: a rank that blocks in the kernel
// (a sleep, a lock another rank holds) blocks its host meanwhile; that is
// what MPI programs, whose ranks share nothing, seldom do. gettid() names
// the host's thread, which may change at any wait.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace pure {

class Fibers {
 public:
  // Whether fibers run here (x86-64 Linux), and whether a switch writes the
  // thread pointer itself (FSGSBASE, Linux >= 5.9) rather than through a
  // system call.
  static bool supported();
  static bool fast_switch();

  // `ranks` rank threads run by `hosts` hosts (hosts <= ranks).
  Fibers(int ranks, int hosts);
  ~Fibers();
  Fibers(const Fibers&) = delete;
  Fibers& operator=(const Fibers&) = delete;

  int hosts() const { return static_cast<int>(hosts_.size()); }
  bool host(int index) const { return index < hosts(); }

  // First thing rank thread `index` does. A host returns at once and runs
  // its rank. Any other rank hands over its context: its call returns
  // later, on whichever host takes it first.
  void enter(int index);
  // Last thing rank `index` does as a fiber: lets its host run other ranks;
  // returns on the rank's own kernel thread once every rank is done.
  void leave(int index);
  // Lets another rank whose context is saved run on the caller's host, and
  // returns when the caller runs again (on any host). False (at once) when
  // there is none. `idle`: the caller's wait went round without progress,
  // so it may also take a rank last run by a busy host.
  bool yield(int index, bool idle = true);

  struct Fiber;
  struct Host;
  // The idle loop of a host (entered from assembly).
  [[noreturn]] void idle(Host& host, Fiber* from);

 private:
  Fiber* pick(Host& host, const Fiber* me, bool steal);
  template <class Wanted>
  Fiber* take(Host& host, const Fiber* me, std::size_t start, Wanted wanted);
  void arrived(Fiber* from);
  // What `me` does once it runs again, `from` having switched to it.
  void resumed(Fiber& me, Fiber* from);
  void switch_to(Fiber& from, void** save, Fiber& to, Host& host);

  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::vector<std::unique_ptr<Host>> hosts_;
  // The same as raw arrays, for the code a host's idle loop runs, which
  // must not call into instrumented code (fiber.cpp, load and store).
  std::vector<Fiber*> fiber_at_;
  std::vector<Host*> host_at_;
  Fiber* const* fiber_list_ = nullptr;
  Host* const* host_list_ = nullptr;
  int nfibers_ = 0;
  int nhosts_ = 0;
  // Ranks not yet done and released (arrived); atomic builtins only.
  int unfinished_ = 0;
};

}  // namespace pure
