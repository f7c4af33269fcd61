// The MPI side of windows whose members live in several processes
// (onesided/remote.h): window_net.cpp implements onesided::WindowRemote on
// MPI windows of the MPI underneath.
//
// Per window and process, on a duplicate of the communicator's collective
// MPI communicator (whose MPI ranks are the processes):
//   * the data window: every member's memory at one MPI rank (its process).
//     Allocate windows: MPI_Win_allocate of the process's members' memory,
//     one block, each member's part on a cache line. Shared windows:
//     MPI_Win_allocate_shared, the parts back to back as MPI lays out shared
//     memory. Create and dynamic windows: one MPI window per slot (the k-th
//     member of each process), by MPI_Win_create of that member's memory
//     or MPI_Win_create_dynamic with what that member attaches
//     (displacements are addresses there).
//   * the control window: one lock word per member, for the passive-target
//     locks (MPI atomics; remote.h says why every lock goes through MPI).
// Both are held in MPI_Win_lock_all from creation to free: every Pure epoch
// is built on passive target (flushes, atomics and messages), so MPI sees
// none of Pure's fence, PSCW or lock epochs. A fence is hierarchical: the
// members here meet, the first one flushes, the processes meet (an
// MPI_Ibarrier), the members here meet again. PSCW between processes is
// messages on the same communicator: a post goes to each origin, a
// complete (after a flush) to each target.
//
// MPI's window calls that have no non-blocking form (creation, flush,
// free) block inside MPI; everything else waits in the wait loop.
#pragma once

#include "collectives/member.h"
#include "comm/comm.h"
#include "onesided/create.h"

namespace pure {

// Whether a window spanning processes exists in this process: its ranks'
// waits then keep MPI progressing (a passive-target operation from another
// process may need this process's MPI to act) and poll instead of sleeping.
bool windows_span_processes();

// Builds the MPI side of a new window on `comm` (which spans processes).
class WindowNetMaker final : public onesided::RemoteMaker {
 public:
  WindowNetMaker(coll::Member& member, Comm& comm) : member_(member), comm_(comm) {}
  void make(onesided::SharedWindow& window, const onesided::CreateArgs& args,
            Waiter& waiter) override;

 private:
  coll::Member& member_;
  Comm& comm_;
};

}  // namespace pure
