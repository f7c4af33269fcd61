#include "composite/build.h"

#include "composite/route.h"

namespace pure {

std::unique_ptr<Comm> make_comm(const NewComm& share, int world, std::string name) {
  if (share.context < 0) return nullptr;
  auto comm = std::make_unique<Comm>(share.context, share.members, world, std::move(name));
  if (share.remote) {
    // Members in several processes: the Dropbox serves the local view.
    auto local = std::make_unique<Comm>(share.context | kLocalContextBit, share.local_members,
                                        world, "the local part of " + comm->name());
    local->set_collective(share.dropbox);
    comm->set_remote(share.remote, std::move(local));
  } else {
    comm->set_collective(share.dropbox);
  }
  return comm;
}

std::unique_ptr<Comm> split_comm(Context& cx, Comm& comm, const char* call, int color, int key,
                                 std::string name) {
  return make_comm(route::split(cx.member, cx.cluster, comm, call, color, key), cx.world,
                   std::move(name));
}

std::unique_ptr<Comm> dup_comm(Context& cx, Comm& comm, const char* call, std::string name) {
  return split_comm(cx, comm, call, 0, comm.rank(), std::move(name));
}

}  // namespace pure
