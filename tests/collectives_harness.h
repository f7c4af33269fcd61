// Small helpers for the collectives and communicators tests: run a body on n
// rank threads between pure_init and pure_finalize, optionally capturing
// stderr (where fatal errors are reported).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "pure/pure.h"
#include "job_config.h"
#include "rank_sweep.h"
#include "pure/run.hpp"

#define EXPECT_PURE_OK(expr) EXPECT_EQ(PURE_SUCCESS, (expr)) << #expr

namespace coll_test {

inline std::string rank_count_name(const testing::TestParamInfo<int>& info) {
  return "ranks" + std::to_string(info.param);
}

using Body = std::function<void(int rank, int size)>;

// The job's exit code: 0 when every rank finished normally.
inline int run_ranks(const pure::Config& config, const Body& body) {
  return pure::run(pure_testing::job_config(config), [&](int argc, char** argv) {
    if (pure_init(&argc, &argv) != PURE_SUCCESS) return 101;
    int rank = -1, size = -1;
    pure_comm_rank(PURE_COMM_WORLD, &rank);
    pure_comm_size(PURE_COMM_WORLD, &size);
    body(rank, size);
    return pure_finalize() == PURE_SUCCESS ? 0 : 102;
  });
}

inline int run_ranks(int n, const Body& body) {
  pure::Config config;
  config.ranks = n;
  return run_ranks(config, body);
}

struct JobResult {
  int code;
  std::string err;
};

inline JobResult run_ranks_capturing(int n, const Body& body) {
  testing::internal::CaptureStderr();
  const int code = run_ranks(n, body);
  return {code, testing::internal::GetCapturedStderr()};
}

// A non-commutative user op: composition of affine maps x -> a*x + b
// (mod 1000003), as pairs of long long. in op inout = in o inout.
struct Affine {
  long long a, b;
};
inline constexpr long long kMod = 1000003;
inline void compose(void* in, void* inout, int* len, PURE_Datatype*) {
  auto* f = static_cast<Affine*>(in);
  auto* g = static_cast<Affine*>(inout);
  for (int k = 0; k < *len; ++k) {
    // (f o g)(x) = f.a * (g.a x + g.b) + f.b
    g[k] = {f[k].a * g[k].a % kMod, (f[k].a * g[k].b + f[k].b) % kMod};
  }
}
inline Affine affine_of(int r, int i) { return {(r * 7 + i) % 13 + 1, (r * 5 + i * 3) % 17}; }
inline Affine fold_affine(int lo, int hi, int i) {
  Affine acc = affine_of(hi, i);
  for (int r = hi - 1; r >= lo; --r) {
    Affine f = affine_of(r, i);
    int one = 1;
    compose(&f, &acc, &one, nullptr);
  }
  return acc;
}

}  // namespace coll_test
