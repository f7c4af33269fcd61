// Rank sweeps: the rank counts a parameterised suite runs with, every one
// or a sample (tests/CMakeLists.txt, PURE_TEST_SWEEPS).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace pure_testing {

// The rank counts a parameterised suite runs with. A tree configured with
// PURE_TEST_SWEEPS=sampled (tools/test.sh's ThreadSanitizer tree, where a
// job costs ten times more) runs a sample of each sweep that keeps its code
// paths: the smallest count (on two cores, one rank per core: no fibers),
// the smallest odd count above 1 (trees and rings of a non-power of two,
// cores hosting unequal numbers of fibers) and the largest count up to 8
// (several fibers on every core). The counts left out, 4 and 16, take the
// paths of 2 and 8 with fewer or more of the same fibers; the Release tree
// runs every count.
inline std::vector<int> sampled_sweep(const std::vector<int>& counts) {
  std::vector<int> kept;
  const auto keep = [&kept](int n) {
    if (std::find(kept.begin(), kept.end(), n) == kept.end()) kept.push_back(n);
  };
  int smallest = counts.front(), odd = 0, up_to_8 = 0;
  for (int n : counts) {
    smallest = std::min(smallest, n);
    if (n > 1 && n % 2 == 1 && (odd == 0 || n < odd)) odd = n;
    if (n <= 8) up_to_8 = std::max(up_to_8, n);
  }
  keep(smallest);
  if (odd != 0) keep(odd);
  if (up_to_8 != 0) keep(up_to_8);
  std::sort(kept.begin(), kept.end());
  return kept;
}

inline auto rank_sweep(std::initializer_list<int> counts) {
#ifdef PURE_TEST_SAMPLED_SWEEPS
  return testing::ValuesIn(sampled_sweep(counts));
#else
  return testing::ValuesIn(std::vector<int>(counts));
#endif
}

}  // namespace pure_testing
