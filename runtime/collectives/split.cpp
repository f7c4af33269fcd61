// Communicator creation (split, and dup/create expressed as splits).
//
// Across processes: net/hierarchical.cpp, which splits the local views here.
//
// Inside one process:
// One round on the parent's Dropbox: every member publishes (colour, key)
// inline; the leader sorts each colour by (key, parent rank), takes a fresh
// process-wide context id and a new shared Dropbox for each new
// communicator, and leaves every member's share in the parent's created()
// vector of this round's parity, which members copy after the release.
#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "collectives/collectives.h"
#include "collectives/round.h"

namespace pure::coll {

NewComm split(Member& member, Comm& comm, const char* call, int color, int key,
              bool remote_slots) {
  Round r(member, comm, call);
  Line& mine = r.mine();
  std::memcpy(mine.payload.data, &color, sizeof color);
  std::memcpy(mine.payload.data + sizeof color, &key, sizeof key);
  r.arrive(r.me() == 0 ? Round::kNobody : 0);
  if (r.me() == 0) {
    r.wait_all(r.seq());
    std::map<int, std::vector<std::tuple<int, int>>> by_color;  // colour -> (key, parent rank)
    for (int k = 0; k < r.size(); ++k) {
      int c, kk;
      std::memcpy(&c, r.of(k).payload.data, sizeof c);
      std::memcpy(&kk, r.of(k).payload.data + sizeof c, sizeof kk);
      if (c != PURE_UNDEFINED) by_color[c].emplace_back(kk, k);
    }
    std::vector<NewComm>& created = r.box().created(r.seq());
    created.assign(static_cast<std::size_t>(r.size()), NewComm{});
    for (auto& [c, list] : by_color) {
      std::sort(list.begin(), list.end());
      std::vector<int> members;
      for (auto& [kk, k] : list) members.push_back(comm.world_of(k));
      NewComm share;
      share.context = member.shared().next_context();
      share.members = std::make_shared<const Group>(std::move(members));
      share.dropbox = std::make_shared<Dropbox>(*share.members, member.shared().peers());
      if (remote_slots) share.remote_slot = std::make_shared<RemoteSlot>();
      for (auto& [kk, k] : list) created[static_cast<std::size_t>(k)] = share;
    }
    r.release();
  } else {
    r.wait_release();
  }
  return r.box().created(r.seq())[static_cast<std::size_t>(r.me())];
}

}  // namespace pure::coll
