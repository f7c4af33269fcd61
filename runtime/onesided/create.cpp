#include "onesided/create.h"

#include <algorithm>
#include <cstdlib>

#include "base/error.h"

namespace pure::onesided {

namespace {

// Window memory: on a cache line, so that members' windows share none.
char* allocate(PURE_Aint size, const char* call) {
  (void)call;
  if (size == 0) return nullptr;
  void* p = nullptr;
  if (posix_memalign(&p, kCacheLine, static_cast<std::size_t>(size)) != 0)
    fail(PURE_ERR_NO_MEM, "cannot allocate %td bytes of window memory",
         static_cast<std::ptrdiff_t>(size));
  return static_cast<char*>(p);
}

}  // namespace

std::shared_ptr<SharedWindow> Shared::join(int context, std::uint64_t serial, const Group& group,
                                           const std::vector<int>& local_members) {
  std::lock_guard<std::mutex> hold(mutex_);
  Pending& p = pending_[{context, serial}];
  if (!p.window) {
    std::vector<Parker*> parkers;
    for (int w : local_members) parkers.push_back(&peers_.parker_of_world(w));
    std::vector<int> local_of(static_cast<std::size_t>(group.size()), -1);
    for (std::size_t i = 0; i < local_members.size(); ++i)
      local_of[static_cast<std::size_t>(group.rank_of(local_members[i]))] = static_cast<int>(i);
    p.window = std::make_shared<SharedWindow>(parkers, std::move(local_of));
  }
  std::shared_ptr<SharedWindow> window = p.window;
  if (++p.joined == static_cast<int>(local_members.size())) pending_.erase({context, serial});
  return window;
}

std::unique_ptr<Window> create(Member& member, const CreateArgs& args, int context,
                               const GroupRef& group, const std::vector<int>& local_members,
                               RemoteMaker* maker) {
  std::shared_ptr<SharedWindow> shared =
      member.shared().join(context, member.next_window(context), *group, local_members);
  const int me = shared->local_of()[static_cast<std::size_t>(group->rank_of(member.world()))];
  Target& t = shared->target(me);
  t.size = args.size;
  t.disp_unit = args.disp_unit;
  t.world = member.world();
  if (args.flavor == Flavor::create) {
    t.base = static_cast<char*>(args.base);
  } else if (args.flavor == Flavor::allocate && !maker) {
    t.base = allocate(args.size, args.call);
    t.owned = t.base;
  }
  Waiter& waiter = member.waiter();
  const WaitSite site{args.call, -1, -1};
  std::uint64_t barriers = 0;
  shared->barrier(waiter, barriers, site);
  if (maker) {
    if (me == 0) maker->make(*shared, args, waiter);
    shared->barrier(waiter, barriers, site);
  } else if (args.flavor == Flavor::shared) {
    // One block, each member's part right after the one before it, as MPI
    // specifies for shared windows. A member without memory has no address:
    // its base is null, as MPICH gives it (a program may test for that).
    if (me == 0) {
      PURE_Aint total = 0;
      for (int i = 0; i < shared->size(); ++i) total += shared->target(i).size;
      char* block = allocate(total, args.call);
      shared->target(0).owned = block;
      PURE_Aint at = 0;
      for (int i = 0; i < shared->size(); ++i) {
        shared->target(i).base = block && shared->target(i).size > 0 ? block + at : nullptr;
        at += shared->target(i).size;
      }
    }
    shared->barrier(waiter, barriers, site);
  }
  return std::make_unique<Window>(member, std::move(shared), group, args.flavor, barriers);
}

}  // namespace pure::onesided
