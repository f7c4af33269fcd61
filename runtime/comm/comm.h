// Comm: one rank's view of a communicator -- a Group of world ranks, the
// caller's rank in it, and a context id that separates its traffic from every
// other communicator's (messages carry the context and matching compares it).
//
// The layers above keep shared state per communicator and attach it here
// as Parts, shared by the communicator's members inside one process: the
// collectives' Dropbox (collectives/dropbox.h), and, for a communicator whose
// members live in several processes, its MPI side (net/comm_net.h) together
// with a local view -- a Comm of just the members in this process, with a
// Dropbox of its own and a context of the collective space
// (kLocalContextBit), on which collectives run their first and last stages.
//
// An intercommunicator (composite/intercomm.h builds it) also has a remote
// group, which its point-to-point ranks name, and owns the hidden
// communicators its collectives run on. A communicator with a process
// topology owns a hidden twin for its neighbourhood collectives. Every
// communicator caches attributes (base/attributes.h) and keeps its hints.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/attributes.h"
#include "base/info.h"
#include "comm/group.h"
#include "comm/process_topology.h"
#include "pure/pure.h"

namespace pure {

// Contexts of local views; user-visible communicators never have this bit.
constexpr int kLocalContextBit = 1 << 30;
// Contexts of the hidden twins that carry the messages of nonblocking and
// persistent collectives (Comm::schedule_comm); user-visible communicators
// never have this bit either.
constexpr int kScheduleContextBit = 1 << 29;
// Contexts 0..15 are the predefined communicators': PURE_COMM_WORLD (0),
// PURE_COMM_SELF (1) and the runtime's own world communicator (2,
// composite/context.h).
constexpr int kServiceContext = 2;

class Comm {
 public:
  // State a layer above keeps per communicator (see the header).
  struct Part {
    virtual ~Part() = default;
  };

  // `me`: the caller's world rank (it need not be a member: rank() is -1).
  Comm(int context, GroupRef group, int me, std::string name)
      : context_(context), group_(std::move(group)), rank_(group_->rank_of(me)),
        size_(group_->size()), name_(std::move(name)), peers_(group_.get()), peer_size_(size_) {}

  int context() const { return context_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // World rank of communicator rank `r` (0 <= r < size()).
  int world_of(int r) const { return group_->world_of(r); }
  // Communicator rank of world rank `world`, or -1 if it is not a member.
  int rank_of(int world) const { return group_->rank_of(world); }
  const Group& group() const { return *group_; }
  const GroupRef& group_ref() const { return group_; }
  const std::vector<int>& members() const { return group_->members(); }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  // This rank's count of collective rounds on the communicator: members run
  // the same sequence of collectives, so their counts agree round by round.
  std::uint64_t next_round() { return ++rounds_; }

  // The collectives' shared state (a collectives::Dropbox).
  Part& collective() const { return *collective_; }
  // Shared, for what must outlive a pure_comm_free (a running schedule).
  const std::shared_ptr<Part>& collective_ref() const { return collective_; }
  void set_collective(std::shared_ptr<Part> part) { collective_ = std::move(part); }

  // Members in several processes: the MPI side (a net::CommNet) and this
  // rank's view of the members in its own process. remote() is nullptr when
  // every member is here.
  Part* remote() const { return remote_.get(); }
  const std::shared_ptr<Part>& remote_ref() const { return remote_; }
  bool spans_processes() const { return remote_ != nullptr; }
  Comm& local() const { return *local_; }
  void set_remote(std::shared_ptr<Part> remote, std::unique_ptr<Comm> local) {
    remote_ = std::move(remote);
    local_ = std::move(local);
  }

  PURE_Errhandler errhandler() const { return errhandler_; }
  void set_errhandler(PURE_Errhandler h) { errhandler_ = h; }
  // The handle the program knows this communicator by (0 for hidden ones):
  // what a user error handler and attribute callbacks are given.
  int handle() const { return handle_; }
  void set_handle(int handle) { handle_ = handle; }

  // ---- point-to-point ranks ----
  // The group a destination or source rank names: the remote group of an
  // intercommunicator, the group itself otherwise.
  int peer_size() const { return peer_size_; }
  int peer_world(int r) const { return peers_->world_of(r); }
  int peer_rank_of(int world) const { return peers_->rank_of(world); }

  // ---- intercommunicators ----
  bool inter() const { return inter_; }
  const Group& remote_group() const { return *remote_group_; }
  const GroupRef& remote_group_ref() const { return remote_group_; }
  // Makes this an intercommunicator with `remote` as the other group. Its
  // MPI side (net/comm_net.h) lays out both groups, the first group's
  // members then the second's: `local_first` says which this one is.
  void set_remote_group(GroupRef remote, bool local_first) {
    remote_group_ = std::move(remote);
    inter_ = true;
    peers_ = remote_group_.get();
    peer_size_ = remote_group_->size();
    local_offset_ = local_first ? 0 : remote_group_->size();
    remote_offset_ = local_first ? size_ : 0;
  }
  bool local_first() const { return local_offset_ == 0; }
  // Indices in the layout of the MPI side: this rank's, a world rank's, and
  // the world rank and the rank a receive reports of the sender at an index
  // (for an intracommunicator all are communicator ranks).
  int net_rank() const { return rank_ + local_offset_; }
  int net_index(int world) const {
    if (!remote_group_) return rank_of(world);
    const int r = remote_group_->rank_of(world);
    return r >= 0 ? r + remote_offset_ : rank_of(world) + local_offset_;
  }
  int net_world(int index) const {
    if (!remote_group_) return world_of(index);
    return in_remote(index) ? remote_group_->world_of(index - remote_offset_)
                            : world_of(index - local_offset_);
  }
  int net_source(int index) const {
    if (!remote_group_) return index;
    return in_remote(index) ? index - remote_offset_ : index - local_offset_;
  }
  // The hidden communicators an intercommunicator's collectives run on:
  // the bridge (both groups, the first then the second) and the local
  // intracommunicator (this rank's group).
  Comm& bridge() const { return *bridge_; }
  Comm& group_comm() const { return *group_comm_; }
  void set_inter_parts(std::unique_ptr<Comm> bridge, std::unique_ptr<Comm> group_comm) {
    bridge_ = std::move(bridge);
    group_comm_ = std::move(group_comm);
  }

  // ---- process topology ----
  const ProcessTopology* topology() const { return topology_.get(); }
  const std::shared_ptr<const ProcessTopology>& topology_ref() const { return topology_; }
  void set_topology(std::shared_ptr<const ProcessTopology> topology) {
    topology_ = std::move(topology);
  }

  // ---- attributes and hints ----
  AttributeSet& attributes() { return attributes_; }
  const Info& hints() const { return hints_; }
  void set_hints(Info hints) { hints_ = std::move(hints); }

  // The communicator's hidden twin for the point-to-point messages of
  // nonblocking and persistent collectives (nonblocking/schedule.h): the
  // same members and MPI side, context | kScheduleContextBit, so that its
  // messages never match the user's. Made by this rank on first use (the
  // context follows from this one's, so the members need not agree on
  // anything); shared with the schedules that use it, so that it outlives
  // a pure_comm_free while they run, as MPI allows.
  const std::shared_ptr<Comm>& schedule_comm() {
    if (!schedule_comm_) {
      schedule_comm_ = std::make_shared<Comm>(context_ | kScheduleContextBit, group_,
                                              group_->world_of(rank_),
                                              name_ + " (collective schedules)");
      schedule_comm_->remote_ = remote_;
    }
    return schedule_comm_;
  }
  // This rank's count of collective schedules started on the communicator
  // (nonblocking initiations and persistent inits): members start them in
  // the same order, so their counts agree, and the count tells one
  // schedule's messages from another's.
  std::uint64_t next_schedule() { return ++schedules_; }

 private:
  bool in_remote(int index) const {
    return index >= remote_offset_ && index < remote_offset_ + remote_group_->size();
  }

  int context_;
  GroupRef group_;
  int rank_;
  int size_;  // group_->size(), without the pointer chase on every call
  bool inter_ = false;  // next to size_: collectives test it on every call
  std::string name_;
  std::uint64_t rounds_ = 0;
  std::shared_ptr<Part> collective_;
  std::shared_ptr<Part> remote_;
  std::unique_ptr<Comm> local_;
  std::shared_ptr<Comm> schedule_comm_;
  std::uint64_t schedules_ = 0;
  PURE_Errhandler errhandler_ = PURE_ERRORS_ARE_FATAL;
  int handle_ = 0;
  const Group* peers_;  // group_ or remote_group_
  int peer_size_;
  GroupRef remote_group_;
  int local_offset_ = 0;  // where this rank's group starts in the MPI side's layout
  int remote_offset_ = 0;
  std::unique_ptr<Comm> bridge_;
  std::unique_ptr<Comm> group_comm_;
  std::shared_ptr<const ProcessTopology> topology_;
  AttributeSet attributes_;
  Info hints_;
};

}  // namespace pure
