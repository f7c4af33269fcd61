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
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "comm/group.h"
#include "pure/pure.h"

namespace pure {

// Contexts of local views; user-visible communicators never have this bit.
constexpr int kLocalContextBit = 1 << 30;
// Contexts of the hidden twins that carry the messages of nonblocking and
// persistent collectives (Comm::schedule_comm); user-visible communicators
// never have this bit either.
constexpr int kScheduleContextBit = 1 << 29;

class Comm {
 public:
  // State a layer above keeps per communicator (see the header).
  struct Part {
    virtual ~Part() = default;
  };

  // `me`: the caller's world rank (it need not be a member: rank() is -1).
  Comm(int context, GroupRef group, int me, std::string name)
      : context_(context), group_(std::move(group)), rank_(group_->rank_of(me)),
        size_(group_->size()), name_(std::move(name)) {}

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
  int context_;
  GroupRef group_;
  int rank_;
  int size_;  // group_->size(), without the pointer chase on every call
  std::string name_;
  std::uint64_t rounds_ = 0;
  std::shared_ptr<Part> collective_;
  std::shared_ptr<Part> remote_;
  std::unique_ptr<Comm> local_;
  std::shared_ptr<Comm> schedule_comm_;
  std::uint64_t schedules_ = 0;
  PURE_Errhandler errhandler_ = PURE_ERRORS_ARE_FATAL;
};

}  // namespace pure
