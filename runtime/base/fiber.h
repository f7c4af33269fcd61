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
//   * Rank r belongs to group r % G (G = cores, the same cores round-robin
//     pinning gives it); rank g < G hosts group g and stays on its core.
//   * Every other member hands over its context as its thread starts: its
//     kernel thread saves its registers and stack pointer, moves to a small
//     stack of its own and sleeps there on a futex (pure_fiber_sleep, in
//     assembly: it must not touch the rank's thread-local state, which the
//     rank is using elsewhere meanwhile).
//   * The host runs its group's ranks one at a time. A rank that waits
//     (base/waiter.h) switches to the next one: callee-saved registers,
//     the stack pointer, and the thread pointer (FS base, written with
//     wrfsbase), so each rank always runs with its own thread-locals --
//     a rank's code cannot tell which kernel thread it is on.
//   * When a group's last rank is done, every member's kernel thread is
//     woken and resumes its own rank's final context, and the threads end
//     as ordinary threads.
//
// Only where user space may write the FS base (x86-64 with the FSGSBASE
// instructions enabled by the kernel, Linux >= 5.9), in single-process jobs
// (MPI libraries keep kernel-thread state of their own). Otherwise, or with
// PURE_FIBERS=off, ranks sharing cores wait through the kernel as before.
//
// Limits, as for any user-level threading: a rank that blocks in the kernel
// (a sleep, a lock another rank of its group holds) blocks its group; that
// is what MPI programs, whose ranks share nothing, never do. gettid() names
// the host's thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace pure {

class Fibers {
 public:
  // Whether this machine lets user space switch the thread pointer.
  static bool supported();

  // `ranks` rank threads in `groups` groups (groups <= ranks).
  Fibers(int ranks, int groups);
  ~Fibers();
  Fibers(const Fibers&) = delete;
  Fibers& operator=(const Fibers&) = delete;

  int groups() const { return static_cast<int>(groups_.size()); }
  static int group_of(int index, int groups) { return index % groups; }
  bool host(int index) const { return index < groups(); }

  // First thing rank thread `index` does. A host waits until every other
  // member of its group has handed over its context, then returns and runs
  // its rank. Any other member hands over its context: its call returns
  // later, on the host's kernel thread, when its turn first comes.
  void enter(int index);
  // Last thing rank `index` does as a fiber: runs the group's other ranks
  // until all are done, then returns on the rank's own kernel thread.
  void leave(int index);
  // Lets the next unfinished rank of the caller's group run, and returns when
  // the caller's turn comes again. False (at once) when the caller is its
  // group's only unfinished rank.
  bool yield(int index);

 private:
  struct Fiber;
  struct Group;
  void switch_to(Fiber& from, void** save, Fiber& to, void* sp);
  Fiber* next_unfinished(Fiber& from) const;

  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::vector<std::unique_ptr<Group>> groups_;
};

}  // namespace pure
