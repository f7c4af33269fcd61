// The typed C++ API (include/pure/communicator.hpp) within one process, over
// the rank sweep, with fibers and (in the PURE_FIBERS=off rerun) threads.
// The checks themselves are tests/cxx_checks.h, which the job of several
// processes (tests/multiproc/cxx_check.cpp) runs too; here also what ends
// a job: an abandoned request and an uncaught pure::error.
#include <gtest/gtest.h>

#include <string>

#include "cxx_checks.h"
#include "harness.h"

namespace {

using pure_testing::expect_clean_run;
using pure_testing::run_ranks_capturing;

class CxxApi : public testing::TestWithParam<int> {};

TEST_P(CxxApi, DeducedTypes) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::deduced_types(); });
}
TEST_P(CxxApi, VectorsSizedByProbe) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::sized_by_probe(); });
}
TEST_P(CxxApi, Requests) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::requests(); });
}
TEST_P(CxxApi, CommunicatorsAreFreedWithTheirObjects) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::communicators(); });
}
TEST_P(CxxApi, Reductions) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::reductions(); });
}
TEST_P(CxxApi, Collectives) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::collectives(); });
}
TEST_P(CxxApi, OneSided) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::one_sided(); });
}
TEST_P(CxxApi, SymmetricHeap) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::symmetric_heap(); });
}
TEST_P(CxxApi, TasksOverARange) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::tasks(); });
}
TEST_P(CxxApi, ErrorsAreExceptions) {
  expect_clean_run(GetParam(), [](int, int) { cxx_checks::errors(); });
}

// The same error with the world's handler set to return codes: still an
// exception (the typed API never hands back a code to ignore).
TEST_P(CxxApi, ErrorsAreExceptionsWhateverTheHandler) {
  expect_clean_run(GetParam(), [](int, int) {
    pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
    cxx_checks::errors();
  });
}

INSTANTIATE_TEST_SUITE_P(Sweep, CxxApi, pure_testing::kRankCounts,
                         pure_testing::rank_count_name);

// A request destroyed while active ends the job, naming the call that made
// it; the other ranks, waiting in a barrier, are released.
TEST(CxxApiJobEnd, AbandonedRequestEndsTheJobNamingItsCall) {
  const auto r = run_ranks_capturing(2, [](int rank, int) {
    auto world = pure::communicator::world();
    if (rank == 0) {
      int never = 0;
      pure::request lost = world.irecv(never, 1, 99);
    }
    world.barrier();
  });
  EXPECT_EQ(r.code, PURE_ERR_REQUEST) << r.err;
  EXPECT_NE(r.err.find("rank 0: pure_irecv: a pure::request was destroyed while its operation "
                       "was still active"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("[PURE_ERR_REQUEST]"), std::string::npos) << r.err;
}

// An uncaught pure::error ends the job as any uncaught exception does, with
// the flat API's message in the report.
TEST(CxxApiJobEnd, UncaughtErrorEndsTheJobWithItsMessage) {
  const auto r = run_ranks_capturing(2, [](int rank, int) {
    auto world = pure::communicator::world();
    if (rank == 1) world.send(0.5, 7, 0);
    world.barrier();
  });
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("pure: rank 1: pure_send:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[PURE_ERR_RANK]"), std::string::npos) << r.err;
}

}  // namespace
