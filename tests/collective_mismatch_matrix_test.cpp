// Every pair of different collectives, in small and large forms (so that
// every protocol meets every other), met at one point by the members of
// PURE_COMM_WORLD: the job ends with both calls named, never a deadlock, a
// crash or a silent success (runtime/collectives/call_log.h).
//
// A member that finds the mismatch may have published buffers that others
// are still copying from (a scatter root): the job must end without anyone
// reading freed memory (base/waiter.h, AbortState; the scatter root publishes
// from its Member's storage).
//
// Not under ThreadSanitizer (label "errors", not "concurrency"): its
// hundreds of aborting jobs are slow there; collective_mismatch_test holds
// the cases that tool checks.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "harness.h"
#include "pure/pure.h"

namespace {

using pure_testing::JobResult;
using pure_testing::run_ranks_capturing;

// Buffers big enough for every call below at up to 8 ranks.
struct Buffers {
  std::vector<int> in = std::vector<int>(100000, 1);
  std::vector<int> out = std::vector<int>(800000, 0);
};

struct Collective {
  const char* name;  // what the error names
  std::function<void(Buffers&)> call;
};

// Small and large forms, so that every protocol meets every other: the
// rings (small bcast, small reduce, alltoall), the pair lines, flat
// combining, the partitioned reducer, and the rounds that carry pointers.
const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all = {
      {"pure_barrier", [](Buffers&) { pure_barrier(PURE_COMM_WORLD); }},
      {"pure_bcast", [](Buffers& b) { pure_bcast(b.in.data(), 1, PURE_INT, 0, PURE_COMM_WORLD); }},
      {"pure_bcast",
       [](Buffers& b) { pure_bcast(b.in.data(), 100000, PURE_INT, 0, PURE_COMM_WORLD); }},
      {"pure_allreduce",
       [](Buffers& b) {
         pure_allreduce(b.in.data(), b.out.data(), 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
       }},
      {"pure_allreduce",
       [](Buffers& b) {
         pure_allreduce(b.in.data(), b.out.data(), 100, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
       }},
      {"pure_allreduce",
       [](Buffers& b) {
         pure_allreduce(b.in.data(), b.out.data(), 100000, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
       }},
      {"pure_reduce",
       [](Buffers& b) {
         pure_reduce(b.in.data(), b.out.data(), 1, PURE_INT, PURE_SUM, 0, PURE_COMM_WORLD);
       }},
      {"pure_reduce",
       [](Buffers& b) {
         pure_reduce(b.in.data(), b.out.data(), 100000, PURE_INT, PURE_SUM, 0, PURE_COMM_WORLD);
       }},
      {"pure_gather",
       [](Buffers& b) {
         pure_gather(b.in.data(), 1, PURE_INT, b.out.data(), 1, PURE_INT, 0, PURE_COMM_WORLD);
       }},
      {"pure_scatter",
       [](Buffers& b) {
         pure_scatter(b.out.data(), 1, PURE_INT, b.in.data(), 1, PURE_INT, 0, PURE_COMM_WORLD);
       }},
      {"pure_allgather",
       [](Buffers& b) {
         pure_allgather(b.in.data(), 1000, PURE_INT, b.out.data(), 1000, PURE_INT,
                        PURE_COMM_WORLD);
       }},
      {"pure_alltoall",
       [](Buffers& b) {
         pure_alltoall(b.in.data(), 1, PURE_INT, b.out.data(), 1, PURE_INT, PURE_COMM_WORLD);
       }},
      {"pure_scan",
       [](Buffers& b) {
         pure_scan(b.in.data(), b.out.data(), 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
       }},
      {"pure_exscan",
       [](Buffers& b) {
         pure_exscan(b.in.data(), b.out.data(), 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
       }},
  };
  return all;
}

// A job where the last rank makes call `odd` and every other rank call
// `usual`, after `before` matched allreduces. The deadlock watchdog is
// left at a minute: the mismatch must be found by the collectives, well
// before (the test's own timeout is shorter).
JobResult mismatched(int ranks, std::size_t odd, std::size_t usual, int before) {
  pure::Config config;
  config.deadlock_timeout_s = 60;
  return run_ranks_capturing(
      ranks,
      [&](int rank, int size) {
        Buffers b;
        for (int i = 0; i < before; ++i) collectives()[3].call(b);
        collectives()[rank == size - 1 ? odd : usual].call(b);
      },
      config);
}

class CollectiveMismatch : public testing::TestWithParam<int> {};

TEST_P(CollectiveMismatch, EveryPairOfDifferentCollectivesIsNamed) {
  const int ranks = GetParam();
  const auto& all = collectives();
  for (std::size_t odd = 0; odd < all.size(); ++odd) {
    for (std::size_t usual = 0; usual < all.size(); ++usual) {
      if (std::string(all[odd].name) == all[usual].name) continue;
      const JobResult r = mismatched(ranks, odd, usual, static_cast<int>((odd + usual) % 3));
      const std::string what = std::string("rank ") + std::to_string(ranks - 1) + " calls " +
                               all[odd].name + " (form " + std::to_string(odd) + "), the others " +
                               all[usual].name + " (form " + std::to_string(usual) + ")";
      EXPECT_EQ(r.code, PURE_ERR_OTHER) << what << "\n" << r.err;
      EXPECT_NE(r.err.find("mismatched collectives on PURE_COMM_WORLD"), std::string::npos)
          << what << "\n" << r.err;
      // Both calls are named, whichever pair of ranks noticed.
      EXPECT_NE(r.err.find(std::string("called ") + all[odd].name + " "), std::string::npos)
          << what << "\n" << r.err;
      EXPECT_NE(r.err.find(std::string("called ") + all[usual].name + " "), std::string::npos)
          << what << "\n" << r.err;
      EXPECT_EQ(r.err.find("deadlock"), std::string::npos) << what << "\n" << r.err;
      if (HasFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, CollectiveMismatch, testing::Values(2, 3, 5, 8),
                         pure_testing::rank_count_name);

}  // namespace
