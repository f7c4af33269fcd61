// Small helpers for the collectives and communicators tests: run a body on n
// rank threads between pure_init and pure_finalize, optionally capturing
// stderr (where fatal errors are reported).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "pure/pure.h"
#include "pure/run.hpp"

#define EXPECT_PURE_OK(expr) EXPECT_EQ(PURE_SUCCESS, (expr)) << #expr

namespace coll_test {

inline std::string rank_count_name(const testing::TestParamInfo<int>& info) {
  return "ranks" + std::to_string(info.param);
}

using Body = std::function<void(int rank, int size)>;

// The job's exit code: 0 when every rank finished normally.
inline int run_ranks(const pure::Config& config, const Body& body) {
  return pure::run(config, [&](int argc, char** argv) {
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

}  // namespace coll_test
