// Members of a communicator that call different collectives at the same
// point (an erroneous program) are told so, naming both calls and the call's
// number on the communicator, also as returned errors; correct programs that
// mix a call with its large-count twin are not (runtime/collectives/
// call_log.h). Every pair of collectives: collective_mismatch_matrix_test.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "harness.h"
#include "pure/pure.h"

namespace {

using pure_testing::JobResult;
using pure_testing::run_ranks;
using pure_testing::run_ranks_capturing;

// The call number counts every collective on the communicator, and the
// communicator named is the one the calls were made on.
TEST(CollectiveMismatchReport, NamesTheCallNumberAndTheCommunicator) {
  pure::Config config;
  config.deadlock_timeout_s = 60;
  const JobResult r = run_ranks_capturing(
      4,
      [](int rank, int) {
        PURE_Comm half;
        pure_comm_split(PURE_COMM_WORLD, rank % 2, rank, &half);
        pure_comm_set_name(half, "half");
        int x = rank, y = 0;
        pure_allreduce(&x, &y, 1, PURE_INT, PURE_SUM, half);
        pure_barrier(half);
        if (rank == 3)
          pure_bcast(&x, 1, PURE_INT, 0, half);
        else
          pure_allreduce(&x, &y, 1, PURE_INT, PURE_MAX, half);
        pure_comm_free(&half);
      },
      config);
  EXPECT_EQ(r.code, PURE_ERR_OTHER) << r.err;
  EXPECT_NE(r.err.find("mismatched collectives on half: rank "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("called pure_bcast"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("called pure_allreduce"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(collective call 3 on it;"), std::string::npos) << r.err;
}

// Returned errors: every member that waits on the mismatched call gets the
// error back instead of waiting forever.
TEST(CollectiveMismatchReport, ReturnedToEveryWaitingRank) {
  for (int ranks : {2, 4}) {
    EXPECT_EQ(0, run_ranks(ranks, [](int rank, int size) {
      pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
      PURE_Comm dup;
      pure_comm_dup(PURE_COMM_WORLD, &dup);
      pure_comm_set_errhandler(dup, PURE_ERRORS_RETURN);
      int x = rank, y = 0;
      // Nobody in the barrier can finish it: the last rank never joins.
      const int rc = rank == size - 1 ? pure_allreduce(&x, &y, 1, PURE_INT, PURE_SUM, dup)
                                      : pure_barrier(dup);
      EXPECT_EQ(rc, PURE_ERR_OTHER) << "rank " << rank;
      // The world is untouched: the job still ends normally.
      pure_barrier(PURE_COMM_WORLD);
    }));
  }
}

// MPI's large-count twins are the same collective as their int calls.
TEST(CollectiveMismatchReport, LargeCountTwinsMatchTheirIntCalls) {
  for (int ranks : {2, 3, 8}) {
    EXPECT_EQ(0, run_ranks(ranks, [](int rank, int size) {
      std::vector<int> in(1000, rank + 1), out(1000 * static_cast<std::size_t>(size), 0);
      for (int count : {1, 100, 1000}) {
        if (rank % 2 == 0) {
          pure_bcast_c(in.data(), count, PURE_INT, 0, PURE_COMM_WORLD);
          pure_allreduce_c(in.data(), out.data(), count, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
          pure_allgather_c(in.data(), count, PURE_INT, out.data(), count, PURE_INT,
                           PURE_COMM_WORLD);
        } else {
          pure_bcast(in.data(), count, PURE_INT, 0, PURE_COMM_WORLD);
          pure_allreduce(in.data(), out.data(), count, PURE_INT, PURE_SUM, PURE_COMM_WORLD);
          pure_allgather(in.data(), count, PURE_INT, out.data(), count, PURE_INT,
                         PURE_COMM_WORLD);
        }
        for (int k = 0; k < size; ++k)
          ASSERT_EQ(out[static_cast<std::size_t>(k * count)], 1) << "rank " << rank;
      }
    }));
  }
}

}  // namespace
