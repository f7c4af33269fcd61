// The intercommunicators the intercommunicator tests run on: between the
// even and the odd world ranks, or between the ranks below `low` and the
// rest (intercomm_test.cpp, intercomm_nonblocking_test.cpp).
#pragma once

#include <algorithm>
#include <vector>

#include "harness.h"

namespace pure_testing {

// The intercommunicator between the even and the odd world ranks (or, with
// `low`, between ranks below `low` and the rest), and facts about it.
struct Pair {
  PURE_Comm local = PURE_COMM_NULL, inter = PURE_COMM_NULL;
  bool in_a = false;            // this rank's group is A (even / below low)
  std::vector<int> a, b;        // world ranks of each group, in group order
  const std::vector<int>& mine() const { return in_a ? a : b; }
  const std::vector<int>& theirs() const { return in_a ? b : a; }
};

inline Pair make_pair_of(int rank, int size, int low = -1) {
  Pair p;
  for (int r = 0; r < size; ++r) ((low < 0 ? r % 2 == 0 : r < low) ? p.a : p.b).push_back(r);
  p.in_a = low < 0 ? rank % 2 == 0 : rank < low;
  EXPECT_PURE_OK(pure_comm_split(PURE_COMM_WORLD, p.in_a ? 0 : 1, rank, &p.local));
  const int remote_leader = p.in_a ? p.b[0] : p.a[0];
  EXPECT_PURE_OK(pure_intercomm_create(p.local, 0, PURE_COMM_WORLD, remote_leader, 77, &p.inter));
  return p;
}

inline void free_pair(Pair& p) {
  EXPECT_PURE_OK(pure_comm_free(&p.inter));
  EXPECT_PURE_OK(pure_comm_free(&p.local));
}

inline int my_index(const std::vector<int>& g, int world) {
  return static_cast<int>(std::find(g.begin(), g.end(), world) - g.begin());
}

}  // namespace pure_testing
