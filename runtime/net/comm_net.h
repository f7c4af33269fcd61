// CommNet: what a communicator whose members live in several processes adds
// to its Comm (its remote Part, comm/comm.h) -- which processes take part,
// where each member lives, and the MPI communicators its traffic between
// processes goes through. Shared by the communicator's members inside one
// process; built once per process when the communicator is created (by its
// first member there).
//
// Point-to-point: two MPI communicators per receiver slot (a member's index
// among its process's members), its batches and its payloads (net/outbox.h),
// so a rank receives only messages meant for it and nothing it does races
// with another thread of its process.
// Collectives: one more MPI communicator, used only by each process's leader
// (its first member), so MPI sees one thread per process calling
// collectives, in the communicator's order (collectives/hierarchical.cpp).
// In every one of them the MPI rank of a process is its position in procs.
#pragma once

#include <mpi.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "comm/comm.h"
#include "net/outbox.h"
#include "net/rank_map.h"

namespace pure {

class Cluster;
class CommDup;

struct CommNet final : Comm::Part {
  std::vector<int> procs;    // process ids, ordered by their first member
  int my_pos = -1;           // position of this process in procs
  std::vector<int> pos_of;   // communicator rank -> position of its process
  std::vector<int> slot_of;  // communicator rank -> index among its process's members
  std::vector<std::vector<int>> members_at;  // position -> communicator ranks there, in order
  std::vector<MPI_Comm> p2p;                 // 2 per receiver slot: batches, then payloads
  MPI_Comm coll = MPI_COMM_NULL;
  // What went wrong in the leader's part of a collective, for the members
  // (hierarchical.cpp: written before the closing local bcast, read after).
  std::string error;
  // Duplicates of this communicator being made by pure_comm_idup, oldest
  // first (comm_dup.cpp); only the leader of this process touches it.
  std::deque<CommDup*> dups;

  // The outbox of this process's messages to member `to` (in another
  // process), made on first use; shared by this process's members. A rank
  // whose sends wait on it keeps it alive (shared_from_this) after the
  // communicator is freed.
  Outbox& outbox(int to, const Cluster& cluster) {
    Outbox* box = outbox_at_[static_cast<std::size_t>(to)].load(std::memory_order_acquire);
    return box ? *box : make_outbox(to, cluster);
  }
  // The batches member `me` receives, made on first use; only the rank of
  // that member touches it.
  Inbox& inbox(int me) {
    std::unique_ptr<Inbox>& box =
        inboxes_[static_cast<std::size_t>(slot_of[static_cast<std::size_t>(me)])];
    return box ? *box : make_inbox(box, me);
  }
  // The MPI communicators of member `member`'s batches and payloads.
  MPI_Comm batches_to(int member) const {
    return p2p[static_cast<std::size_t>(slot_of[static_cast<std::size_t>(member)])];
  }
  MPI_Comm payloads_to(int member) const {
    return p2p[p2p.size() / 2 +
               static_cast<std::size_t>(slot_of[static_cast<std::size_t>(member)])];
  }

  // Where the members (world ranks, in communicator order) live.
  static std::shared_ptr<CommNet> layout(const std::vector<int>& members, const RankMap& map,
                                         int me_proc);
  // The same members in the same places as `other` (a duplicate's).
  void copy_layout(const CommNet& other);
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

 private:
  Outbox& make_outbox(int to, const Cluster& cluster);
  Inbox& make_inbox(std::unique_ptr<Inbox>& box, int me);
  void allocate_boxes();
  // By slot, each made and touched by its member's rank only.
  std::unique_ptr<std::unique_ptr<Inbox>[]> inboxes_;
  // By member, set once each under outbox_lock_ (release: pairs with
  // outbox()'s acquire); owned_ holds them.
  std::unique_ptr<std::atomic<Outbox*>[]> outbox_at_;
  std::vector<std::shared_ptr<Outbox>> owned_;
  std::mutex outbox_lock_;
};

// The MPI side of a communicator spanning processes.
inline CommNet& net_of(const Comm& comm) { return static_cast<CommNet&>(*comm.remote()); }

}  // namespace pure
