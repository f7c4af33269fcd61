#include "collectives/creations.h"

#include "collectives/member.h"

namespace pure::coll {

Creations::Joined Creations::join(Shared& shared, std::uint64_t id, const GroupRef& members,
                                  const GroupRef& here, bool remote_slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, first] = pending_.try_emplace(id);
  Pending& p = it->second;
  if (first) {
    NewComm& s = p.joined.share;
    s.context = shared.next_context();
    s.members = members;
    s.local_members = here;
    s.dropbox = std::make_shared<Dropbox>(*here, shared.peers());
    if (remote_slot) {
      s.remote_slot = std::make_shared<RemoteSlot>();
      p.joined.setup = std::make_shared<Dropbox>(*here, shared.peers());
    }
    p.left = here->size();
  }
  Joined joined = p.joined;
  if (--p.left == 0) pending_.erase(it);
  return joined;
}

}  // namespace pure::coll
