// Window creation, collective over the members of a communicator: each
// member fills its Target in the window's SharedWindow (member.h, join),
// and they meet in the window's barrier; a window whose members live in
// several processes gets its MPI side from the net layer (RemoteMaker)
// between two barriers, run by the first member in each process.
#pragma once

#include <memory>
#include <vector>

#include "comm/group.h"
#include "onesided/member.h"
#include "onesided/window.h"

namespace pure::onesided {

struct CreateArgs {
  Flavor flavor = Flavor::create;
  void* base = nullptr;  // create: the member's memory
  PURE_Aint size = 0;    // create, allocate, shared
  int disp_unit = 1;
  const char* call = "";
};

// Builds the MPI side of a window whose members live in several processes
// (net/window_net.h).
class RemoteMaker {
 public:
  virtual ~RemoteMaker() = default;
  // Run by the first member in this process once every member here has
  // filled its Target (the base of a create window; the size and
  // displacement unit of all). Allocates the memory of allocate and shared
  // windows (setting the Targets' bases), creates the MPI windows and sets
  // the SharedWindow's remote and extents. The other members wait.
  virtual void make(SharedWindow& window, const CreateArgs& args, Waiter& waiter) = 0;
};

// This rank's Window of a new window on the communicator with `context`
// whose members are `group` (world ranks, in window-rank order), of which
// `local_members` live in this process; `maker` is null when that is all of
// them. Collective over the members.
std::unique_ptr<Window> create(Member& member, const CreateArgs& args, int context,
                               const GroupRef& group, const std::vector<int>& local_members,
                               RemoteMaker* maker);

}  // namespace pure::onesided
