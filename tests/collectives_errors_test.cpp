// Collectives given bad input: what one rank can see alone (an invalid
// root, an op that does not apply to the type, PURE_IN_PLACE where it is not
// allowed) and what only shows when the members' arguments meet (counts that
// disagree, on every path a collective may take): each an error of MPI's
// class naming the rank, the call and the values, fatal by default and
// returned to every member under PURE_ERRORS_RETURN. Never a hang.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collectives_harness.h"
#include "pure/pure.h"

using coll_test::run_ranks;
using coll_test::run_ranks_capturing;

namespace {

TEST(CollectiveErrors, InvalidRoot) {
  auto r = run_ranks_capturing(3, [](int, int) {
    int x = 0;
    pure_bcast(&x, 1, PURE_INT, 3, PURE_COMM_WORLD);
  });
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("pure_bcast: invalid root 3 (PURE_COMM_WORLD has 3 ranks)"), std::string::npos) << r.err;
}

TEST(CollectiveErrors, OpNotDefinedForType) {
  auto r = run_ranks_capturing(2, [](int, int) {
    double x = 1, y = 0;
    pure_allreduce(&x, &y, 1, PURE_DOUBLE, PURE_BAND, PURE_COMM_WORLD);
  });
  EXPECT_EQ(r.code, PURE_ERR_OP);
  EXPECT_NE(r.err.find("pure_allreduce: PURE_BAND is not defined for datatype PURE_DOUBLE"), std::string::npos) << r.err;
}

TEST(CollectiveErrors, ReturnedToTheCallerWithErrorsReturn) {
  EXPECT_EQ(0, run_ranks(2, [](int, int) {
    pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
    double x = 1, y = 0;
    EXPECT_EQ(pure_allreduce(&x, &y, 1, PURE_DOUBLE, PURE_MINLOC, PURE_COMM_WORLD), PURE_ERR_OP);
    EXPECT_EQ(pure_reduce(&x, &y, 1, PURE_DOUBLE, PURE_SUM, -1, PURE_COMM_WORLD), PURE_ERR_ROOT);
    EXPECT_EQ(pure_allreduce(&x, &y, 1, PURE_DOUBLE, PURE_OP_NULL, PURE_COMM_WORLD), PURE_ERR_OP);
    EXPECT_EQ(pure_reduce(PURE_IN_PLACE, &y, 1, PURE_DOUBLE, PURE_SUM, 5, PURE_COMM_WORLD), PURE_ERR_ROOT);
  }));
}

TEST(CollectiveErrors, BcastCountMismatch) {
  for (int count : {4, 1000}) {
    auto r = run_ranks_capturing(4, [count](int rank, int) {
      std::vector<int> x(static_cast<std::size_t>(count) + 1);
      pure_bcast(x.data(), rank == 2 ? count + 1 : count, PURE_INT, 0, PURE_COMM_WORLD);
    });
    EXPECT_EQ(r.code, PURE_ERR_COUNT);
    EXPECT_NE(r.err.find("pure_bcast: bcast size mismatch: rank 2 expects"), std::string::npos) << r.err;
  }
}

TEST(CollectiveErrors, AllreduceCountMismatch) {
  for (int n : {2, 3}) {
    for (int count : {2, 100, 5000}) {
      auto r = run_ranks_capturing(n, [count](int rank, int) {
        std::vector<int> x(static_cast<std::size_t>(count) + 1), y(x.size());
        pure_allreduce(x.data(), y.data(), rank == 1 ? count + 1 : count, PURE_INT, PURE_SUM,
                       PURE_COMM_WORLD);
      });
      EXPECT_EQ(r.code, PURE_ERR_COUNT);
      EXPECT_NE(r.err.find("count mismatch: rank 1 passes " + std::to_string(4 * (count + 1)) + " bytes"),
                std::string::npos)
          << r.err;
    }
  }
}

// Two ranks whose counts send them down different two-member paths: the
// shared line (up to 16 B) against an arrival line (5 ints), or against a
// staged exchange (20 ints). Both must report the mismatch, whichever rank
// is which.
TEST(CollectiveErrors, PairAllreduceCountMismatchAcrossPaths) {
  const int pairs[][2] = {{2, 20}, {4, 5}};
  for (const auto& counts : pairs) {
    for (int big_rank : {0, 1}) {
      auto r = run_ranks_capturing(2, [&counts, big_rank](int rank, int) {
        std::vector<int> x(20, 1), y(20);
        pure_allreduce(x.data(), y.data(), rank == big_rank ? counts[1] : counts[0], PURE_INT,
                       PURE_SUM, PURE_COMM_WORLD);
      });
      EXPECT_EQ(r.code, PURE_ERR_COUNT) << "rank with " << counts[1] << " ints: " << big_rank;
      const std::string big = std::to_string(4 * counts[1]), small = std::to_string(4 * counts[0]);
      const std::string rank1 = big_rank == 1 ? big : small;
      const std::string rank0 = big_rank == 0 ? big : small;
      EXPECT_NE(r.err.find("count mismatch: rank 1 passes " + rank1 +
                           " bytes of data but rank 0 passes " + rank0),
                std::string::npos)
          << r.err;
    }
  }
}

// The same with errors returned, and counts far enough apart that the
// bigger one goes to the partitioned reducer, which waits for member 0's
// release: both ranks get the error back, neither waits forever.
TEST(CollectiveErrors, PairAllreduceCountMismatchReturnedOnBothPaths) {
  for (int big_rank : {0, 1}) {
    EXPECT_EQ(0, run_ranks(2, [big_rank](int rank, int) {
      pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
      std::vector<int> x(1000, 1), y(1000);
      EXPECT_EQ(pure_allreduce(x.data(), y.data(), rank == big_rank ? 1000 : 2, PURE_INT,
                               PURE_SUM, PURE_COMM_WORLD),
                PURE_ERR_COUNT)
          << "rank " << rank << ", rank with 1000 ints: " << big_rank;
    }));
  }
}

TEST(CollectiveErrors, SmallReduceCountMismatch) {
  auto r = run_ranks_capturing(3, [](int rank, int) {
    int x[2] = {1, 2}, y[2];
    pure_reduce(x, y, rank == 1 ? 2 : 1, PURE_INT, PURE_SUM, 0, PURE_COMM_WORLD);
  });
  EXPECT_EQ(r.code, PURE_ERR_COUNT);
  EXPECT_NE(r.err.find("count mismatch: rank 1 passes 8 bytes"), std::string::npos) << r.err;
}

TEST(CollectiveErrors, GatherCountMismatch) {
  auto r = run_ranks_capturing(3, [](int rank, int) {
    int x[4] = {0, 0, 0, 0}, all[12];
    pure_gather(x, rank == 2 ? 3 : 4, PURE_INT, all, 4, PURE_INT, 0, PURE_COMM_WORLD);
  });
  EXPECT_EQ(r.code, PURE_ERR_TRUNCATE);
  EXPECT_NE(r.err.find("rank 2 sends 12 bytes but rank 0 expects 16"), std::string::npos) << r.err;
}

TEST(CollectiveErrors, SmallAlltoallCountMismatch) {
  auto r = run_ranks_capturing(3, [](int rank, int) {
    int x[6] = {0, 0, 0, 0, 0, 0}, y[6];
    const int count = rank == 2 ? 1 : 2;
    pure_alltoall(x, count, PURE_INT, y, count, PURE_INT, PURE_COMM_WORLD);
  });
  EXPECT_EQ(r.code, PURE_ERR_TRUNCATE);
  EXPECT_TRUE(r.err.find("rank 2 sends 4 bytes but rank") != std::string::npos ||
              r.err.find("bytes but rank 2 expects 4") != std::string::npos)
      << r.err;
}

// Two ranks, the shortcut on one side at least: a count that differs gets
// the general path's error from whichever rank reports first, when the
// other's block came inline (2 ints against 1) and when it came by pointer
// (20 ints, too big for a line, against 1); nobody hangs.
TEST(CollectiveErrors, PairAlltoallCountMismatch) {
  for (int big : {2, 20}) {
    auto r = run_ranks_capturing(2, [big](int rank, int) {
      int x[40] = {}, y[40];
      const int count = rank == 1 ? big : 1;
      pure_alltoall(x, count, PURE_INT, y, count, PURE_INT, PURE_COMM_WORLD);
    });
    EXPECT_EQ(r.code, PURE_ERR_TRUNCATE) << big;
    const std::string bytes = std::to_string(4 * big);
    EXPECT_TRUE(r.err.find("rank 1 sends " + bytes + " bytes but rank 0 expects 4") !=
                    std::string::npos ||
                r.err.find("rank 0 sends 4 bytes but rank 1 expects " + bytes) != std::string::npos)
        << r.err;
  }
}

TEST(CollectiveErrors, InPlaceWhereNotAllowed) {
  auto r = run_ranks_capturing(2, [](int rank, int) {
    int y = 0;
    pure_reduce(PURE_IN_PLACE, &y, 1, PURE_INT, PURE_SUM, 0, PURE_COMM_WORLD);
    (void)rank;
  });
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("rank 1: pure_reduce: PURE_IN_PLACE is not allowed"), std::string::npos) << r.err;
}

}  // namespace
