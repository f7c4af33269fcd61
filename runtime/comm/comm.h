// Comm: one rank's view of a communicator.
//
// Members are world ranks (0..ranks-1 across every process of the job,
// rank_map.h); a communicator maps its own ranks onto them. Its context id,
// unique inside the process, separates its point-to-point traffic from
// every other communicator's: messages carry the context and matching
// compares it.
//
// A communicator whose members live in several processes also has a CommNet
// (comm_net.h: the MPI side, shared by its members in this process) and a
// local view: a Comm of just the members in this process, with a Dropbox of
// its own and a context of the collective space (kLocalContextBit), on
// which collectives run their first and last stages.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pure/pure.h"

namespace pure {

class Dropbox;
struct CommNet;

// Contexts of local views; user-visible communicators never have this bit.
constexpr int kLocalContextBit = 1 << 30;

// How the members in this process of a new communicator spanning processes
// get its CommNet: the parent's leader sets `net` before the closing local
// bcast of the creation (collectives/hierarchical.cpp, split), after which
// the members read it.
struct NetShare {
  std::shared_ptr<CommNet> net;
};

class Comm {
 public:
  Comm(int context, std::vector<int> members, int my_index, std::string name)
      : context_(context), members_(std::move(members)), name_(std::move(name)) {
    rank_ = -1;
    for (size_t i = 0; i < members_.size(); ++i) {
      if (members_[i] == my_index) rank_ = static_cast<int>(i);
      if (members_[i] >= static_cast<int>(index_to_rank_.size()))
        index_to_rank_.resize(static_cast<size_t>(members_[i]) + 1, -1);
      index_to_rank_[static_cast<size_t>(members_[i])] = static_cast<int>(i);
    }
  }

  int context() const { return context_; }
  int rank() const { return rank_; }
  int size() const { return static_cast<int>(members_.size()); }
  // World rank of communicator rank `r` (0 <= r < size()).
  int index_of(int r) const { return members_[static_cast<size_t>(r)]; }
  // Communicator rank of world rank `index`, or -1 if it is not a member.
  int rank_of(int index) const {
    return index >= 0 && index < static_cast<int>(index_to_rank_.size())
               ? index_to_rank_[static_cast<size_t>(index)]
               : -1;
  }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const std::vector<int>& members() const { return members_; }

  // Collective state shared by every member (collectives/dropbox.h), and
  // this rank's count of collective rounds on it: members run the same
  // sequence of collectives, so their counts agree round by round.
  Dropbox& dropbox() const { return *dropbox_; }
  void set_dropbox(std::shared_ptr<Dropbox> box) { dropbox_ = std::move(box); }
  std::uint64_t next_round() { return ++rounds_; }

  // Members in several processes: the MPI side, and this rank's view of the
  // members in its own process. net() is nullptr when every member is here.
  CommNet* net() const { return net_.get(); }
  const std::shared_ptr<CommNet>& net_ref() const { return net_; }
  Comm& local() const { return *local_; }
  void set_net(std::shared_ptr<CommNet> net, std::unique_ptr<Comm> local) {
    net_ = std::move(net);
    local_ = std::move(local);
  }

  PURE_Errhandler errhandler() const { return errhandler_; }
  void set_errhandler(PURE_Errhandler h) { errhandler_ = h; }

 private:
  int context_;
  int rank_;
  std::vector<int> members_;
  std::vector<int> index_to_rank_;
  std::string name_;
  std::shared_ptr<Dropbox> dropbox_;
  std::uint64_t rounds_ = 0;
  std::shared_ptr<CommNet> net_;
  std::unique_ptr<Comm> local_;
  PURE_Errhandler errhandler_ = PURE_ERRORS_ARE_FATAL;
};

}  // namespace pure
