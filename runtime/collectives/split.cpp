// Communicator creation (split, and dup/create expressed as splits).
//
// Across processes (hier::split): an allgather of (colour, key) over the
// parent tells every member the whole membership of its new communicator;
// a split of the parent's local view gives the members in each process
// their shared context and Dropbox; when the new communicator spans
// processes, its first member in each process creates the MPI
// communicators (CommNet) and hands them to the others through the
// NetShare of that local split. MPI_Comm_create_group is collective over
// the new communicator's processes only, so creations on disjoint groups
// never wait for each other; its tag (Cluster::create_tag) is the new
// communicator's lowest world rank and that rank's count of such creations,
// which tells apart creations that overlap in time.
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

#include "cluster.h"
#include "collectives/collectives.h"
#include "collectives/round.h"
#include "comm_net.h"

namespace pure::coll {

NewComm split(Rank& rank, Comm& comm, const char* call, int color, int key) {
  if (comm.net()) return hier::split(rank, comm, call, color, key);
  Round r(rank, comm, call);
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
      auto members = std::make_shared<std::vector<int>>();
      for (auto& [kk, k] : list) members->push_back(comm.index_of(k));
      NewComm share;
      share.context = rank.process().next_context();
      share.members = members;
      share.dropbox = std::make_shared<Dropbox>(static_cast<int>(list.size()));
      share.net_share = std::make_shared<NetShare>();
      for (auto& [kk, k] : list) created[static_cast<std::size_t>(k)] = share;
    }
    r.release();
  } else {
    r.wait_release();
  }
  return r.box().created(r.seq())[static_cast<std::size_t>(r.me())];
}

namespace hier {

NewComm split(Rank& rank, Comm& comm, const char* call, int color, int key) {
  // (colour, key, creations led) of every member, in parent rank order.
  const int n = comm.size();
  int mine[3] = {color, key, static_cast<int>(rank.comms_led)};
  std::vector<int> all(static_cast<std::size_t>(n) * 3);
  std::vector<int> counts(static_cast<std::size_t>(n), 3), displs(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) displs[static_cast<std::size_t>(k)] = 3 * k;
  const Datatype& int_type = *Datatype::predefined(PURE_INT & 0x00FFFFFF);
  hier::allgatherv(rank, comm, call, mine, 3, &int_type, all.data(), counts.data(), displs.data(),
             &int_type);

  std::vector<std::pair<int, int>> order;  // (key, parent rank) of my colour
  if (color != PURE_UNDEFINED)
    for (int k = 0; k < n; ++k)
      if (all[static_cast<std::size_t>(3 * k)] == color)
        order.emplace_back(all[static_cast<std::size_t>(3 * k + 1)], k);
  std::sort(order.begin(), order.end());
  auto members = std::make_shared<std::vector<int>>();
  for (auto& [kk, k] : order) members->push_back(comm.index_of(k));

  // The members in this process share a context and a Dropbox: split the
  // local view, keyed by the new rank so its order is the new order.
  int new_rank = 0;
  while (new_rank < static_cast<int>(members->size()) &&
         (*members)[static_cast<std::size_t>(new_rank)] != rank.world())
    ++new_rank;
  NewComm share = coll::split(rank, comm.local(), call, color, new_rank);
  if (color == PURE_UNDEFINED) return share;

  Process& process = rank.process();
  bool spans = false;
  for (int m : *members) spans |= process.local_index(m) < 0;
  if (!spans) return share;  // every member is here: an ordinary local communicator

  // The lowest member's count of creations it led tells this creation apart.
  int lowest_parent_rank = order.front().second;
  for (auto& [kk, k] : order) lowest_parent_rank = std::min(lowest_parent_rank, k);
  const int lowest = comm.index_of(lowest_parent_rank);
  const unsigned counter = static_cast<unsigned>(all[static_cast<std::size_t>(3 * lowest_parent_rank + 2)]);
  if (lowest == rank.world()) ++rank.comms_led;

  NetShare& holder = *share.net_share;
  if ((*share.members)[0] == rank.world()) {
    auto net = CommNet::layout(*members, process.map(), process.proc());
    net->create(process.cluster()->create_tag(lowest, counter));
    holder.net = std::move(net);
    // Release pairs with the acquire below: the other members see the
    // finished CommNet.
    holder.ready.store(true, std::memory_order_release);
    for (int m : *share.members)
      if (m != rank.world()) process.rank_of_world(m).parker().notify();
  } else if (!holder.ready.load(std::memory_order_acquire)) {
    rank.wait_until([&] { return holder.ready.load(std::memory_order_acquire); },
                    WaitSite{call, -1, -1, true});
  }
  NewComm result;
  result.context = share.context;
  result.members = members;
  result.dropbox = share.dropbox;
  result.net = holder.net;
  result.local_members = share.members;
  return result;
}

}  // namespace hier

}  // namespace pure::coll
