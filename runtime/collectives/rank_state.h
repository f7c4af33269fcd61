// RankCollectives: what one rank keeps for groups, user ops and collective
// calls: its group and op handle tables and scratch buffers that a
// collective call may publish to the other members (each is reused only by
// this rank's next call, after every member has finished reading it).
#pragma once

#include <memory>
#include <vector>

#include "base/handle_table.h"
#include "types/ops.h"
#include "pure/pure.h"

namespace pure {

// A group: rank indices (inside the process) in group-rank order.
using Group = std::shared_ptr<const std::vector<int>>;

class RankCollectives {
 public:
  RankCollectives() {
    groups.set(PURE_GROUP_EMPTY & 0xFFFF, std::make_shared<const std::vector<int>>());
  }
  RankCollectives(const RankCollectives&) = delete;
  RankCollectives& operator=(const RankCollectives&) = delete;

  static constexpr int kFirstGroup = 2;  // 1 is PURE_GROUP_EMPTY
  HandleTable<Group> groups{PURE_HANDLE_KIND_GROUP, kFirstGroup};
  HandleTable<coll::UserOp> ops{PURE_HANDLE_KIND_OP, coll::kFirstUserOp};

  // Scratch: packed inputs, outputs and accumulators.
  std::vector<unsigned char> input;
  std::vector<unsigned char> output;
  std::vector<unsigned char> acc;
};

}  // namespace pure
