#include "composite/create_among.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/handle.h"
#include "collectives/collectives.h"
#include "composite/exchange.h"
#include "net/hierarchical.h"

namespace pure {

namespace {

struct Naming {
  std::uint64_t id;           // (first member << 32) | number in its process
  std::uint64_t fingerprint;  // of the member list
  std::uint32_t order;        // in the job's order of creations (create_among.h)
  std::uint32_t padding = 0;  // sent as bytes: no uninitialised hole
};

std::uint64_t fingerprint(const Group& g) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(g.size());
  for (int w : g.members()) {
    h ^= static_cast<std::uint64_t>(w) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
  }
  return h;
}

}  // namespace

NewComm create_among(Context& cx, const GroupRef& members, int tag, const char* call) {
  const Peers& peers = cx.member.shared().peers();
  const int root = members->world_of(0);
  Naming naming{0, fingerprint(*members), 0};
  if (cx.world == root) {
    naming.id = static_cast<std::uint64_t>(root) << 32 |
                cx.member.shared().creations().next_number();
    // The order: past every member's last creation.
    std::vector<std::uint32_t> clocks(static_cast<std::size_t>(members->size()), 0);
    {
      Exchange x(cx, cx.service, call);
      for (int k = 1; k < members->size(); ++k)
        x.recv_bytes(members->world_of(k), &clocks[static_cast<std::size_t>(k)],
                     sizeof(std::uint32_t), tag);
      x.wait();
    }
    clocks[0] = cx.creation_clock;
    naming.order = *std::max_element(clocks.begin(), clocks.end()) + 1;
    Exchange x(cx, cx.service, call);
    for (int k = 1; k < members->size(); ++k)
      x.send_bytes(members->world_of(k), &naming, sizeof naming, tag);
    x.wait();
  } else {
    Naming got{};
    Exchange x(cx, cx.service, call);
    x.send_bytes(root, &cx.creation_clock, sizeof(std::uint32_t), tag);
    x.recv_bytes(root, &got, sizeof got, tag);
    x.wait();
    if (got.fingerprint != naming.fingerprint)
      fail(PURE_ERR_GROUP,
           "rank %d and rank %d passed different groups (with tag %d): every member must pass "
           "the same group, in the same order",
           cx.world, root, tag);
    naming.id = got.id;
    naming.order = got.order;
  }
  cx.creation_clock = naming.order;

  std::vector<int> here_list;
  for (int w : members->members())
    if (peers.here(w)) here_list.push_back(w);
  const bool spans = here_list.size() != members->members().size();
  auto here = std::make_shared<const Group>(std::move(here_list));
  coll::Creations::Joined joined =
      cx.member.shared().creations().join(cx.member.shared(), naming.id, members, here, spans);
  const NewComm& share = joined.share;
  if (!spans) return share;

  // The MPI side: made by the first member here, handed over in a bcast
  // among the members here, with its failure if it failed.
  Comm local(share.context | kLocalContextBit, share.local_members, cx.world,
             "the members here of a new communicator");
  local.set_collective(joined.setup);
  char failure[256] = {};
  if (local.rank() == 0) {
    try {
      share.remote_slot->part = hier::create_among(*members, cx.service, naming.order, *cx.cluster);
    } catch (const Error& e) {
      std::snprintf(failure, sizeof failure, "%s", e.what());
    }
  }
  const Datatype& bytes = *Datatype::predefined(handle_index(PURE_BYTE));
  coll::bcast(cx.member, local, call, failure, sizeof failure, bytes, 0);
  if (failure[0]) fail(PURE_ERR_INTERN, "%s", failure);
  NewComm result = share;
  result.remote = share.remote_slot->part;
  return result;
}

}  // namespace pure
