// The inputs the nonblocking collective tests reduce and move, and their
// sums (nonblocking_collectives_test.cpp, nonblocking_interplay_test.cpp).
#pragma once

namespace pure_testing {

// Rank r's input element i (exact in doubles and long longs for the sums here).
inline long long input(int r, int i, int salt = 0) { return (r + 1) * 1000003LL + i * 7 + salt; }
inline long long sum_inputs(int lo, int hi, int i, int salt = 0) {
  long long s = 0;
  for (int r = lo; r <= hi; ++r) s += input(r, i, salt);
  return s;
}

}  // namespace pure_testing
