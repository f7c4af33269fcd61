// pure/compat.h: the per-rank C library state and the exit semantics that
// translated code relies on. The rand tests compare every rank's sequence
// with glibc's own rand()/random(), run on this (non-rank) thread after the
// same seeding, which is what a separate MPI process would see.
#include "pure/compat.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "harness.h"

namespace {

constexpr int kValues = 2000;

std::vector<long> glibc_rand(unsigned seed, bool seeded) {
  std::srand(seeded ? seed : 1u);  // unseeded glibc behaves as srand(1)
  std::vector<long> v;
  for (int i = 0; i < kValues; ++i) v.push_back(std::rand());
  return v;
}

std::vector<long> glibc_random(unsigned seed) {
  srandom(seed);
  std::vector<long> v;
  for (int i = 0; i < kValues; ++i) v.push_back(random());
  return v;
}

TEST(Compat, RandMatchesGlibcPerRank) {
  const int n = 4;
  std::vector<std::vector<long>> got(n), unseeded(n);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    // Unseeded first: every rank starts where a fresh process starts.
    for (int i = 0; i < 10; ++i) unseeded[rank].push_back(pure_rand());
    pure_srand(static_cast<unsigned>(rank * 13 + 5));
    for (int i = 0; i < kValues; ++i) {
      got[rank].push_back(pure_rand());
      // Other ranks draw at the same time; none may disturb this sequence.
      if (i % 500 == 0) pure_barrier(PURE_COMM_WORLD);
    }
  });
  const std::vector<long> fresh = glibc_rand(0, false);
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(unseeded[r], std::vector<long>(fresh.begin(), fresh.begin() + 10)) << "rank " << r;
    EXPECT_EQ(got[r], glibc_rand(static_cast<unsigned>(r * 13 + 5), true)) << "rank " << r;
  }
}

TEST(Compat, RandomAndSrandomMatchGlibc) {
  const int n = 3;
  std::vector<std::vector<long>> got(n);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    pure_srandom(static_cast<unsigned>(rank));  // seed 0 behaves as 1, as in glibc
    for (int i = 0; i < kValues; ++i) got[rank].push_back(pure_random());
  });
  for (int r = 0; r < n; ++r)
    EXPECT_EQ(got[r], glibc_random(static_cast<unsigned>(r))) << "rank " << r;
}

TEST(Compat, StrtokKeepsOnePositionPerRank) {
  const int n = 4;
  std::vector<std::string> joined(n);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    std::string text = "r" + std::to_string(rank) + "a r" + std::to_string(rank) + "b r" +
                       std::to_string(rank) + "c";
    std::vector<char> buffer(text.begin(), text.end());
    buffer.push_back('\0');
    for (char* t = pure_strtok(buffer.data(), " "); t; t = pure_strtok(nullptr, " ")) {
      joined[rank] += t;
      pure_barrier(PURE_COMM_WORLD);  // interleave the ranks' calls
    }
  });
  for (int r = 0; r < n; ++r) {
    const std::string s = std::to_string(r);
    EXPECT_EQ(joined[r], "r" + s + "a" + "r" + s + "b" + "r" + s + "c");
  }
}

TEST(Compat, TimeAndErrorTextArePerRank) {
  const int n = 2;
  std::vector<std::string> text(n);
  pure_testing::expect_clean_run(n, [&](int rank, int) {
    std::time_t when = static_cast<std::time_t>(86400) * (rank + 1);
    struct tm* utc = pure_gmtime(&when);
    pure_barrier(PURE_COMM_WORLD);  // the other rank's call must not overwrite ours
    text[rank] = std::string(pure_asctime(utc)) + pure_strerror(rank ? ENOENT : EACCES);
  });
  EXPECT_EQ(text[0], "Fri Jan  2 00:00:00 1970\nPermission denied");
  EXPECT_EQ(text[1], "Sat Jan  3 00:00:00 1970\nNo such file or directory");
}

// exit(0) after finalize ends only the calling rank; the others go on.
TEST(Compat, ExitZeroEndsOnlyTheRank) {
  std::vector<int> after(3, 0);
  pure::Config config;
  config.ranks = 3;
  const int code = pure::run(config, [&](int argc, char** argv) {
    pure_init(&argc, &argv);
    int rank = 0;
    pure_comm_rank(PURE_COMM_WORLD, &rank);
    pure_barrier(PURE_COMM_WORLD);
    pure_finalize();
    if (rank == 1) pure_exit(0);
    after[rank] = 1;
    return 0;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(after, (std::vector<int>{1, 0, 1}));
}

// exit(non-zero) ends the whole job with that status, like MPI_Abort.
TEST(Compat, ExitNonZeroEndsTheJob) {
  pure::Config config;
  config.ranks = 3;
  auto result = pure_testing::capture_stderr([&] {
    return pure::run(config, [&](int argc, char** argv) {
      pure_init(&argc, &argv);
      int rank = 0;
      pure_comm_rank(PURE_COMM_WORLD, &rank);
      if (rank == 2) pure_exit(9);
      pure_barrier(PURE_COMM_WORLD);  // never completes: rank 2 is gone
      pure_finalize();
      return 0;
    });
  });
  EXPECT_EQ(result.code, 9);
  EXPECT_NE(result.err.find("rank 2: exit: called exit(9)"), std::string::npos) << result.err;
  // 9 is the program's status, not an error class (PURE_ERR_COMM is 9 too).
  EXPECT_EQ(result.err.find("[PURE_ERR"), std::string::npos) << result.err;
}

TEST(Compat, AbortEndsTheJobWithSigabrtStatus) {
  pure::Config config;
  config.ranks = 2;
  auto result = pure_testing::capture_stderr([&] {
    return pure::run(config, [&](int argc, char** argv) {
      pure_init(&argc, &argv);
      int rank = 0;
      pure_comm_rank(PURE_COMM_WORLD, &rank);
      if (rank == 0) pure_abort_job();
      pure_barrier(PURE_COMM_WORLD);
      pure_finalize();
      return 0;
    });
  });
  EXPECT_EQ(result.code, 134);
  EXPECT_NE(result.err.find("rank 0: abort: called abort()"), std::string::npos) << result.err;
}

}  // namespace
