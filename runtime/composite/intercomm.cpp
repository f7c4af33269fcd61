// Creating intercommunicators: create, merge, dup, split (intercomm.h).
#include "composite/intercomm.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "base/handle.h"
#include "composite/build.h"
#include "composite/create_among.h"
#include "composite/exchange.h"
#include "composite/route.h"

namespace pure::inter {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

const Datatype& int_type() { return *Datatype::predefined(handle_index(PURE_INT)); }

TypeRef int_ref() {
  TypeRef t;
  t.type = &int_type();
  return t;
}

// The intercommunicator on `bridge` (both groups, the first then the
// second): each group's own communicator split off it, and a duplicate for
// the program's messages.
// The intercommunicator of its parts: `bridge`, the group's own
// communicator `own`, and `mine`, whose context (and MPI side) the
// program's messages take; `me` is the caller's world rank.
std::unique_ptr<Comm> from_parts(std::unique_ptr<Comm> bridge, std::unique_ptr<Comm> own,
                                 const Comm& mine, bool local_first, const GroupRef& remote,
                                 int me, const char* call) {
  auto inter = std::make_unique<Comm>(mine.context(), own->group_ref(), me,
                                      std::string("an intercommunicator from ") + call);
  inter->set_remote_group(remote, local_first);
  if (mine.spans_processes()) inter->set_remote(mine.remote_ref(), nullptr);
  inter->set_inter_parts(std::move(bridge), std::move(own));
  return inter;
}

std::unique_ptr<Comm> assemble(Context& cx, std::unique_ptr<Comm> bridge, bool local_first,
                               const GroupRef& remote, const char* call) {
  auto own = split_comm(cx, *bridge, call, local_first ? 0 : 1, bridge->rank(),
                        "the group of an intercommunicator");
  auto mine = dup_comm(cx, *bridge, call, "an intercommunicator's messages");
  return from_parts(std::move(bridge), std::move(own), *mine, local_first, remote, cx.world,
                    call);
}

// The groups in bridge order.
std::vector<int> both(const Comm& inter) {
  const std::vector<int>& a = inter.local_first() ? inter.members() : inter.remote_group().members();
  const std::vector<int>& b = inter.local_first() ? inter.remote_group().members() : inter.members();
  std::vector<int> all(a);
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

}  // namespace

std::unique_ptr<Comm> create(Context& cx, Comm& local_comm, int local_leader, Comm* peer,
                             int remote_leader, int tag, const char* call) {
  // The leaders trade their groups (size, then members) on the peer
  // communicator; each tells its own group.
  std::vector<int> remote;
  int remote_size = 0;
  const bool leader = local_comm.rank() == local_leader;
  if (leader) {
    const int other = peer->world_of(remote_leader);
    const int mine = local_comm.size();
    {
      Exchange x(cx, *peer, call);
      x.send(other, &mine, 1, int_ref(), tag);
      x.recv(other, &remote_size, 1, int_ref(), tag);
      x.wait();
    }
    remote.resize(at(remote_size));
    Exchange x(cx, *peer, call);
    x.send(other, local_comm.members().data(), at(mine), int_ref(), tag);
    x.recv(other, remote.data(), at(remote_size), int_ref(), tag);
    x.wait();
  }
  route::bcast(cx.member, local_comm, call, &remote_size, 1, int_type(), local_leader);
  remote.resize(at(remote_size));
  route::bcast(cx.member, local_comm, call, remote.data(), at(remote_size), int_type(),
               local_leader);
  for (int w : remote)
    if (local_comm.rank_of(w) >= 0)
      fail(PURE_ERR_COMM,
           "rank %d (of PURE_COMM_WORLD) is in both groups: an intercommunicator's groups "
           "must be disjoint",
           w);

  const std::vector<int>& local = local_comm.members();
  const bool local_first = *std::min_element(local.begin(), local.end()) <
                           *std::min_element(remote.begin(), remote.end());
  std::vector<int> members(local_first ? local : remote);
  const std::vector<int>& second = local_first ? remote : local;
  members.insert(members.end(), second.begin(), second.end());
  auto members_ref = std::make_shared<const Group>(std::move(members));
  auto bridge = make_comm(create_among(cx, members_ref, tag, call), cx.world,
                          "the bridge of an intercommunicator");
  return assemble(cx, std::move(bridge), local_first,
                  std::make_shared<const Group>(std::move(remote)), call);
}

std::unique_ptr<Comm> merge(Context& cx, Comm& inter, bool high, const char* call) {
  Comm& bridge = inter.bridge();
  const int key = high ? bridge.size() + bridge.rank() : bridge.rank();
  return split_comm(cx, bridge, call, 0, key, std::string("a communicator from ") + call);
}

std::unique_ptr<Comm> dup(Context& cx, Comm& inter, const char* call) {
  auto bridge = dup_comm(cx, inter.bridge(), call, "the bridge of an intercommunicator");
  return assemble(cx, std::move(bridge), inter.local_first(), inter.remote_group_ref(), call);
}

std::unique_ptr<Comm> assemble_dup(const Comm& inter, std::unique_ptr<Comm> bridge,
                                   std::unique_ptr<Comm> group, std::unique_ptr<Comm> messages,
                                   const char* call) {
  const int me = inter.world_of(inter.rank());
  return from_parts(std::move(bridge), std::move(group), *messages, inter.local_first(),
                    inter.remote_group_ref(), me, call);
}

std::unique_ptr<Comm> split(Context& cx, Comm& inter, int color, int key, const char* call) {
  Comm& bridge = inter.bridge();
  const int n = bridge.size();
  // Every member's (colour, key), in bridge order.
  int mine[2] = {color, key};
  std::vector<int> all(at(n) * 2);
  std::vector<int> counts(at(n), 2), displs(at(n));
  for (int k = 0; k < n; ++k) displs[at(k)] = 2 * k;
  route::allgatherv(cx.member, bridge, call, static_cast<const void*>(mine), std::size_t{2},
                    &int_type(), static_cast<void*>(all.data()), counts.data(), displs.data(),
                    &int_type());

  // This colour's members of each group, by (key, bridge rank).
  const std::vector<int> order = both(inter);
  const int first_size = inter.local_first() ? inter.size() : inter.remote_group().size();
  std::vector<std::tuple<int, int>> sides[2];
  if (color != PURE_UNDEFINED)
    for (int k = 0; k < n; ++k)
      if (all[at(2 * k)] == color) sides[k < first_size ? 0 : 1].emplace_back(all[at(2 * k + 1)], k);
  const bool made = !sides[0].empty() && !sides[1].empty();
  int position = 0;
  std::vector<int> groups[2];
  for (int s = 0; s < 2 && made; ++s) {
    std::sort(sides[s].begin(), sides[s].end());
    for (auto& [kk, k] : sides[s]) {
      if (k == bridge.rank())
        position = static_cast<int>(s == 0 ? groups[0].size() : groups[0].size() + groups[1].size());
      groups[s].push_back(order[at(k)]);
    }
  }
  auto new_bridge = split_comm(cx, bridge, call, made ? color : PURE_UNDEFINED, position,
                               "the bridge of an intercommunicator");
  if (!made) return nullptr;
  const int remote_side = inter.local_first() ? 1 : 0;
  return assemble(cx, std::move(new_bridge), inter.local_first(),
                  std::make_shared<const Group>(std::move(groups[remote_side])), call);
}

}  // namespace pure::inter
