// Communicators spanning processes: split (and dup and create, expressed as
// splits), built on the hierarchical collectives of hierarchical.cpp; and
// the MPI side of those their members create alone.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "base/handle.h"
#include "net/comm_net.h"
#include "net/cluster.h"
#include "net/hierarchical.h"
#include "net/stage.h"

namespace pure::hier {

namespace {
struct SplitMember {
  int color;
  RemoteSlot* slot;  // its new communicator's, when it spans processes and this is its first member here
};
}  // namespace

// An allgather of (colour, key) over the parent tells every member the whole
// membership of every new communicator; a split of the parent's local view
// gives the members in each process their context and Dropbox. The MPI side
// of each new communicator that spans processes is made by the parent's
// leaders alone, one colour after another in increasing order: an
// MPI_Comm_split of the parent's MPI communicator (the processes without
// that colour pass MPI_UNDEFINED) and duplicates of the result. Every
// process runs the same sequence of MPI calls on one thread, so creations
// never overlap on the parent, and communicators created at the same time
// from different parents are MPI's ordinary concurrent case.
//
// MPI_Comm_split blocks outside the wait loop, but only once every leader
// is known to be here: the allgather of colours before it completes at a
// leader only when every process has contributed, and it is waited for in
// the wait loop (stealing, and letting a fiber's core run its other ranks,
// which may be what another process waits for before it joins; test:
// multiproc_fibersplit). What follows needs nothing but the leaders.
NewComm split(coll::Member& member, Comm& comm, const char* call, int color, int key,
              const Cluster& cluster) {
  const int n = comm.size();
  int mine[2] = {color, key};
  std::vector<int> all(static_cast<std::size_t>(n) * 2);
  std::vector<int> counts(static_cast<std::size_t>(n), 2), displs(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) displs[static_cast<std::size_t>(k)] = 2 * k;
  const Datatype& int_type = *Datatype::predefined(handle_index(PURE_INT));
  hier::allgatherv(member, comm, call, mine, 2, &int_type, all.data(), counts.data(), displs.data(),
             &int_type);

  // Every colour's members (world ranks) in new rank order.
  std::map<int, std::vector<std::pair<int, int>>> order;  // colour -> (key, parent rank)
  for (int k = 0; k < n; ++k) {
    const int c = all[static_cast<std::size_t>(2 * k)];
    if (c != PURE_UNDEFINED) order[c].emplace_back(all[static_cast<std::size_t>(2 * k + 1)], k);
  }
  std::map<int, std::vector<int>> members_of;
  for (auto& [c, list] : order) {
    std::sort(list.begin(), list.end());
    for (auto& kr : list) members_of[c].push_back(comm.world_of(kr.second));
  }
  const RankMap& map = cluster.map();
  const int me = comm.world_of(comm.rank());
  // Members in more than one process (decided alike in every process).
  auto spans = [&](const std::vector<int>& members) {
    for (int m : members)
      if (map.proc_of(m) != map.proc_of(members[0])) return true;
    return false;
  };

  // The members here share a context and a Dropbox: split the local view,
  // keyed by the new rank so that its order is the new order.
  int new_rank = 0;
  if (color != PURE_UNDEFINED) {
    const auto& m = members_of[color];
    new_rank = static_cast<int>(std::find(m.begin(), m.end(), me) - m.begin());
  }
  NewComm share = coll::split(member, comm.local(), call, color, new_rank, true);
  const bool spanning = color != PURE_UNDEFINED && spans(members_of[color]);

  Stage s(member, comm, call);
  SplitMember mine_here{color,
                        spanning && share.members->world_of(0) == me ? share.remote_slot.get()
                                                                     : nullptr};
  auto here = s.to_leader(&mine_here);
  if (s.leader) {
    for (auto& [c, members] : members_of) {
      if (!spans(members)) continue;
      auto net = CommNet::layout(members, map, cluster.me());
      const bool hosted = net->my_pos >= 0;
      MPI_Comm made = MPI_COMM_NULL;
      mpi_check(MPI_Comm_split(s.net.coll, hosted ? c : MPI_UNDEFINED, hosted ? net->my_pos : 0,
                               &made),
                "MPI_Comm_split");
      if (!hosted) continue;
      net->adopt(made);
      for (SplitMember* m : here)
        if (m->slot && m->color == c) m->slot->part = net;
    }
  }
  s.from_leader();
  if (!spanning) return share;
  NewComm result;
  result.context = share.context;
  result.members = std::make_shared<const Group>(members_of[color]);
  result.dropbox = share.dropbox;
  result.remote = share.remote_slot->part;
  result.local_members = share.members;
  return result;
}

std::shared_ptr<Comm::Part> create_among(const Group& members, const Comm& service,
                                         std::uint32_t order, const Cluster& cluster) {
  const RankMap& map = cluster.map();
  auto net = CommNet::layout(members.members(), map, cluster.me());
  // The tag grows with the order (MPI libraries run a process's concurrent
  // creations lowest tag first); the first member tells apart creations of
  // the same order.
  const std::uint32_t ranks = static_cast<std::uint32_t>(map.ranks());
  const std::uint32_t per_rank = (static_cast<std::uint32_t>(cluster.mpi_tag_ub()) + 1) / ranks;
  const std::uint32_t first = static_cast<std::uint32_t>(members.world_of(0));
  net->create_among(net_of(service), static_cast<int>((order % per_rank) * ranks + first));
  return net;
}

}  // namespace pure::hier
