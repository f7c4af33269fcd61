// Comm: one rank's view of a communicator.
//
// Ranks address each other by their index inside the process (the "rank
// index", 0..ranks-1); a communicator maps its own ranks onto those indices.
// Its context id separates its point-to-point traffic from every other
// communicator's: messages carry the context and matching compares it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pure/pure.h"

namespace pure {

class Dropbox;

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
  // Rank index (inside the process) of communicator rank `r` (0 <= r < size()).
  int index_of(int r) const { return members_[static_cast<size_t>(r)]; }
  // Communicator rank of rank index `index`, or -1 if it is not a member.
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
  PURE_Errhandler errhandler_ = PURE_ERRORS_ARE_FATAL;
};

}  // namespace pure
