// Group: an ordered set of world ranks (MPI's group), immutable once built
// and shared by every communicator and group handle that names the same
// members (shared_ptr<const Group>), across the ranks of a process.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace pure {

class Group {
 public:
  // `members`: world ranks in group-rank order, each at most once.
  explicit Group(std::vector<int> members) : members_(std::move(members)) {
    int top = -1;
    for (int w : members_) top = w > top ? w : top;
    rank_of_.assign(static_cast<std::size_t>(top + 1), -1);
    for (std::size_t r = 0; r < members_.size(); ++r)
      rank_of_[static_cast<std::size_t>(members_[r])] = static_cast<int>(r);
  }

  int size() const { return static_cast<int>(members_.size()); }
  // World rank of group rank `r` (0 <= r < size()).
  int world_of(int r) const { return members_[static_cast<std::size_t>(r)]; }
  // Group rank of world rank `world`, or -1 when it is not a member.
  int rank_of(int world) const {
    return world >= 0 && world < static_cast<int>(rank_of_.size())
               ? rank_of_[static_cast<std::size_t>(world)]
               : -1;
  }
  const std::vector<int>& members() const { return members_; }

 private:
  std::vector<int> members_;
  std::vector<int> rank_of_;  // dense by world rank, up to the largest member
};

using GroupRef = std::shared_ptr<const Group>;

}  // namespace pure
