// WindowRemote: the part of a window whose members live in several
// processes that goes through MPI. The net layer implements it
// (net/window_net.h) on MPI windows of the MPI underneath; a window whose
// members all live in one process has none. One object per window and
// process, shared by the members here; every call names the calling
// member (`me`, its window rank) where per-member state is involved, and
// waits through the caller's Waiter.
//
// What goes through it (window.cpp decides): puts and gets to members in
// other processes; on such windows every accumulate, fetch-and-op and
// compare-and-swap and every passive-target lock, whatever the target's
// process, because MPI's atomicity holds only among MPI's own operations
// (a CPU atomic and an MPI accumulate on one word are not atomic together);
// the processes' step of a fence; PSCW messages between processes.
#pragma once

#include <cstddef>
#include <vector>

#include "base/waiter.h"
#include "onesided/transfer.h"
#include "pure/pure.h"

namespace pure::onesided {

class WindowRemote {
 public:
  virtual ~WindowRemote() = default;

  // ---- operations on window rank `target` at `disp` (in its displacement
  // units, or an address in a dynamic window) ----
  virtual void put(const ConstLayout& origin, int target, PURE_Aint disp, std::size_t tcount,
                   const Datatype& ttype) = 0;
  virtual void get(const Layout& origin, int target, PURE_Aint disp, std::size_t tcount,
                   const Datatype& ttype) = 0;
  // With `result`: get-accumulate, the old values land there once flushed.
  virtual void accumulate(int op, const ConstLayout& origin, int target, PURE_Aint disp,
                          std::size_t tcount, const Datatype& ttype, const Layout* result) = 0;
  virtual void compare_and_swap(const void* origin, const void* compare, void* result,
                                const Datatype& type, int target, PURE_Aint disp) = 0;

  // Completes, at the target (`local_only`: at the origin), what this
  // process started towards `target` (-1: every target).
  virtual void flush(Waiter& waiter, int target, bool local_only, const char* call) = 0;
  // MPI_Win_sync on the MPI windows: local loads and stores and MPI's
  // accesses to this process's window memory see each other.
  virtual void sync() = 0;

  // ---- passive target: the lock word of window rank `target` ----
  virtual void lock(Waiter& waiter, int target, bool exclusive, const char* call) = 0;
  virtual void unlock(int target, bool exclusive) = 0;

  // ---- fence: between the two local barriers, run by this process's
  // first member only ----
  virtual void fence(Waiter& waiter, const char* call) = 0;

  // ---- PSCW with members in other processes ----
  // Target `me` exposes itself to `origins` (all in other processes).
  virtual void post(int me, const std::vector<int>& origins) = 0;
  // Origin `me` waits for `target`'s post.
  virtual void await_post(Waiter& waiter, int me, int target, const char* call) = 0;
  // Origin `me` ends its access epoch towards `target` (after a flush).
  virtual void complete(int me, int target) = 0;
  // Target `me`: whether every origin of its exposure epoch in another
  // process has completed (`wait`: until they have).
  virtual bool completed(Waiter& waiter, int me, bool wait, const char* call) = 0;

  // ---- dynamic windows ----
  // Member `me` attaches or detaches memory of its own.
  virtual void attach(int me, void* base, PURE_Aint size) = 0;
  virtual void detach(int me, const void* base) = 0;

  // ---- shared windows: the memory of a member in another process ----
  virtual void shared_query(int target, PURE_Aint* size, int* disp_unit, void** base) = 0;

  // MPI_Win_free of the MPI windows: run by this process's first member
  // between two local barriers of pure_win_free.
  virtual void free(Waiter& waiter, const char* call) = 0;
};

}  // namespace pure::onesided
