#include "net/comm_net.h"

#include <algorithm>

#include "net/cluster.h"

namespace pure {

std::shared_ptr<CommNet> CommNet::layout(const std::vector<int>& members, const RankMap& map,
                                         int me_proc) {
  auto net = std::make_shared<CommNet>();
  const std::size_t n = members.size();
  net->pos_of.resize(n);
  net->slot_of.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    const int p = map.proc_of(members[r]);
    auto it = std::find(net->procs.begin(), net->procs.end(), p);
    const int pos = static_cast<int>(it - net->procs.begin());
    if (it == net->procs.end()) {
      net->procs.push_back(p);
      net->members_at.emplace_back();
    }
    net->pos_of[r] = pos;
    net->slot_of[r] = static_cast<int>(net->members_at[static_cast<std::size_t>(pos)].size());
    net->members_at[static_cast<std::size_t>(pos)].push_back(static_cast<int>(r));
  }
  net->allocate_boxes();
  auto me = std::find(net->procs.begin(), net->procs.end(), me_proc);
  net->my_pos = me == net->procs.end() ? -1 : static_cast<int>(me - net->procs.begin());
  return net;
}

void CommNet::copy_layout(const CommNet& other) {
  procs = other.procs;
  my_pos = other.my_pos;
  pos_of = other.pos_of;
  slot_of = other.slot_of;
  members_at = other.members_at;
  allocate_boxes();
}

void CommNet::allocate_boxes() {
  outbox_at_.reset(new std::atomic<Outbox*>[pos_of.size()]());
  const std::size_t slot_count = static_cast<std::size_t>(std::max(slots(), 1));
  inboxes_.reset(new std::unique_ptr<Inbox>[slot_count]);
}

int CommNet::slots() const {
  std::size_t most = 0;
  for (const auto& m : members_at) most = std::max(most, m.size());
  return static_cast<int>(most);
}

void CommNet::create_world() {
  p2p.assign(2 * static_cast<std::size_t>(slots()), MPI_COMM_NULL);
  for (MPI_Comm& c : p2p)
    mpi_check(MPI_Comm_split(MPI_COMM_WORLD, 0, my_pos, &c), "MPI_Comm_split");
  mpi_check(MPI_Comm_split(MPI_COMM_WORLD, 0, my_pos, &coll), "MPI_Comm_split");
  for (MPI_Comm& c : p2p)
    mpi_check(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  mpi_check(MPI_Comm_set_errhandler(coll, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

void CommNet::adopt(MPI_Comm coll_comm) {
  coll = coll_comm;
  mpi_check(MPI_Comm_set_errhandler(coll, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  p2p.assign(2 * static_cast<std::size_t>(slots()), MPI_COMM_NULL);
  for (MPI_Comm& c : p2p) mpi_check(MPI_Comm_dup(coll, &c), "MPI_Comm_dup");
}

void CommNet::create_among(const CommNet& service, int tag) {
  // MPI ranks in the new communicator follow the group's order: procs'.
  std::vector<int> ranks;
  for (int p : procs)
    ranks.push_back(static_cast<int>(std::find(service.procs.begin(), service.procs.end(), p) -
                                     service.procs.begin()));
  MPI_Group all = MPI_GROUP_NULL, some = MPI_GROUP_NULL;
  mpi_check(MPI_Comm_group(service.coll, &all), "MPI_Comm_group");
  mpi_check(MPI_Group_incl(all, static_cast<int>(ranks.size()), ranks.data(), &some),
            "MPI_Group_incl");
  MPI_Comm made = MPI_COMM_NULL;
  const int rc = MPI_Comm_create_group(service.coll, some, tag, &made);
  mpi_check(MPI_Group_free(&some), "MPI_Group_free", MpiFailure::report);
  mpi_check(MPI_Group_free(&all), "MPI_Group_free", MpiFailure::report);
  mpi_check(rc, "MPI_Comm_create_group");
  adopt(made);
}

Outbox& CommNet::make_outbox(int to, const Cluster& cluster) {
  std::lock_guard<std::mutex> hold(outbox_lock_);
  std::atomic<Outbox*>& at = outbox_at_[static_cast<std::size_t>(to)];
  // Relaxed: every store to `at` is made under outbox_lock_, held here.
  if (Outbox* made = at.load(std::memory_order_relaxed)) return *made;
  owned_.push_back(std::make_shared<Outbox>(
      batches_to(to), payloads_to(to), pos_of[static_cast<std::size_t>(to)], cluster.mpi_tag_ub()));
  at.store(owned_.back().get(), std::memory_order_release);
  return *owned_.back();
}

Inbox& CommNet::make_inbox(std::unique_ptr<Inbox>& box, int me) {
  box = std::make_unique<Inbox>(batches_to(me));
  return *box;
}

CommNet::~CommNet() {
  Cluster* cluster = Cluster::current();
  if (!cluster || cluster->finalized()) return;
  // Records still waiting leave before their MPI communicators go.
  for (const std::shared_ptr<Outbox>& box : owned_) box->close();
  for (int s = 0; s < slots(); ++s) inboxes_[static_cast<std::size_t>(s)].reset();
  // A destructor cannot throw: a failure is reported and the job goes on.
  for (MPI_Comm& c : p2p)
    if (c != MPI_COMM_NULL) mpi_check(MPI_Comm_free(&c), "MPI_Comm_free", MpiFailure::report);
  if (coll != MPI_COMM_NULL) mpi_check(MPI_Comm_free(&coll), "MPI_Comm_free", MpiFailure::report);
}

}  // namespace pure
