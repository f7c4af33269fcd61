// CommNet: what a communicator whose members live in several processes adds
// to its Comm (its remote Part, comm/comm.h) -- which processes take part, where each member lives, and the
// MPI communicators its traffic between processes goes through. Shared by
// the communicator's members inside one process; built once per process
// when the communicator is created (by its first member there).
//
// Point-to-point: one MPI communicator per receiver slot (a member's index
// among its process's members), so a rank probes only for messages meant
// for it and nothing it does races with another thread of its process; the
// MPI tag carries the sender's slot above the user's tag (Cluster).
// Collectives: one more MPI communicator, used only by each process's leader
// (its first member), so MPI sees one thread per process calling
// collectives, in the communicator's order (collectives/hierarchical.cpp).
// In every one of them the MPI rank of a process is its position in procs.
#pragma once

#include <mpi.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "comm/comm.h"
#include "net/rank_map.h"

namespace pure {

class CommDup;

struct CommNet final : Comm::Part {
  std::vector<int> procs;                    // process ids, ordered by their first member
  int my_pos = -1;                           // position of this process in procs
  std::vector<int> pos_of;                   // communicator rank -> position of its process
  std::vector<int> slot_of;                  // communicator rank -> index among its process's members
  std::vector<std::vector<int>> members_at;  // position -> communicator ranks there, in order
  std::vector<MPI_Comm> p2p;                 // per receiver slot
  MPI_Comm coll = MPI_COMM_NULL;
  // What went wrong in the leader's part of a collective, for the members
  // (hierarchical.cpp: written before the closing local bcast, read after).
  std::string error;
  // Duplicates of this communicator being made by pure_comm_idup, oldest
  // first (comm_dup.cpp); only the leader of this process touches it.
  std::deque<CommDup*> dups;

  // Where the members (world ranks, in communicator order) live.
  static std::shared_ptr<CommNet> layout(const std::vector<int>& members, const RankMap& map,
                                         int me_proc);
  int slots() const;  // the most members any one process holds
  // Creates the MPI communicators. World: by MPI_Comm_split on
  // MPI_COMM_WORLD (every process takes part). Others: from `coll`, made by
  // the parent communicator's leaders (hierarchical.cpp, split), whose
  // duplicates become the point-to-point communicators.
  void create_world();
  void adopt(MPI_Comm coll_comm);
  // For a communicator created by its members alone (composite/
  // create_among.h): the leaders of the processes in `procs` only make the
  // collective communicator, by MPI_Comm_create_group on `service`'s (the
  // runtime's own world communicator's) with `tag`, then adopt it.
  void create_among(const CommNet& service, int tag);

  CommNet() = default;
  CommNet(const CommNet&) = delete;
  CommNet& operator=(const CommNet&) = delete;
  ~CommNet() override;
};

// The MPI side of a communicator spanning processes.
inline CommNet& net_of(const Comm& comm) { return static_cast<CommNet&>(*comm.remote()); }

}  // namespace pure
