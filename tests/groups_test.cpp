// Groups and the communicators made from them: the group algebra (ranges,
// union, intersection, difference, with MPI's order and errors), freed
// group handles, MPI_Comm_create_group (collective over the group alone,
// while other ranks do something else; several groups at once; the group
// empty or without the caller), MPI_Comm_split_type, MPI_Comm_dup_with_info
// and communicator hints.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

class Groups : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Groups, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// The world ranks of a group, in group order.
std::vector<int> worlds(PURE_Group g) {
  PURE_Group world;
  EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
  int n = -1;
  EXPECT_PURE_OK(pure_group_size(g, &n));
  std::vector<int> ranks(at(n)), out(at(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  EXPECT_PURE_OK(pure_group_translate_ranks(g, n, ranks.data(), world, out.data()));
  EXPECT_PURE_OK(pure_group_free(&world));
  return out;
}

PURE_Group incl(PURE_Group g, std::vector<int> ranks) {
  PURE_Group out;
  EXPECT_PURE_OK(pure_group_incl(g, static_cast<int>(ranks.size()), ranks.data(), &out));
  return out;
}

TEST_P(Groups, Algebra) {
  expect_clean_run(GetParam(), [](int, int size) {
    PURE_Group world;
    EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
    // Ranges: every other rank from the top down, then rank 0 again refused.
    int down[1][3] = {{size - 1, 0, -2}};
    PURE_Group g;
    EXPECT_PURE_OK(pure_group_range_incl(world, 1, down, &g));
    std::vector<int> expect;
    for (int r = size - 1; r >= 0; r -= 2) expect.push_back(r);
    EXPECT_EQ(worlds(g), expect);
    PURE_Group rest;
    EXPECT_PURE_OK(pure_group_range_excl(world, 1, down, &rest));
    std::vector<int> expect_rest;
    for (int r = 0; r < size; ++r)
      if (std::find(expect.begin(), expect.end(), r) == expect.end()) expect_rest.push_back(r);
    EXPECT_EQ(worlds(rest), expect_rest);
    // Two ranges, one of a single rank.
    int two[2][3] = {{0, 0, 1}, {size - 1, size - 1, 5}};
    PURE_Group ends;
    EXPECT_PURE_OK(pure_group_range_incl(world, size > 1 ? 2 : 1, two, &ends));
    EXPECT_EQ(worlds(ends), (std::vector<int>{0, size - 1}));

    // Union keeps group1's order, then group2's new members in its order.
    PURE_Group u, i, d;
    EXPECT_PURE_OK(pure_group_union(g, ends, &u));
    std::vector<int> eu = expect;
    if (std::find(eu.begin(), eu.end(), 0) == eu.end()) eu.push_back(0);
    EXPECT_EQ(worlds(u), eu);
    EXPECT_PURE_OK(pure_group_intersection(ends, g, &i));
    std::vector<int> ei;
    for (int w : {0, size - 1})
      if (std::find(expect.begin(), expect.end(), w) != expect.end()) ei.push_back(w);
    EXPECT_EQ(worlds(i), ei);
    EXPECT_PURE_OK(pure_group_difference(world, g, &d));
    EXPECT_EQ(worlds(d), expect_rest);
    int cmp = -1;
    EXPECT_PURE_OK(pure_group_compare(d, rest, &cmp));
    EXPECT_EQ(cmp, PURE_IDENT);
    // World minus world is empty: PURE_GROUP_EMPTY itself.
    PURE_Group none;
    EXPECT_PURE_OK(pure_group_difference(world, world, &none));
    EXPECT_EQ(none, PURE_GROUP_EMPTY);
    PURE_Group reversed = incl(world, [&] {
      std::vector<int> r(at(size));
      std::iota(r.rbegin(), r.rend(), 0);
      return r;
    }());
    EXPECT_PURE_OK(pure_group_compare(world, reversed, &cmp));
    EXPECT_EQ(cmp, size > 1 ? PURE_SIMILAR : PURE_IDENT);
    PURE_Group both;
    EXPECT_PURE_OK(pure_group_union(reversed, world, &both));
    EXPECT_PURE_OK(pure_group_compare(both, reversed, &cmp));
    EXPECT_EQ(cmp, PURE_IDENT);
    // Translation into a group without the rank: PURE_UNDEFINED.
    int r0 = 0, t = -1;
    EXPECT_PURE_OK(pure_group_translate_ranks(world, 1, &r0, rest, &t));
    EXPECT_EQ(t, std::find(expect_rest.begin(), expect_rest.end(), 0) == expect_rest.end()
                     ? PURE_UNDEFINED
                     : 0);

    // Errors.
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    PURE_Group bad;
    int zero_stride[1][3] = {{0, 0, 0}};
    EXPECT_EQ(pure_group_range_incl(world, 1, zero_stride, &bad), PURE_ERR_ARG);
    int outside[1][3] = {{0, size, 1}};
    EXPECT_EQ(pure_group_range_incl(world, 1, outside, &bad), PURE_ERR_RANK);
    int twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
    EXPECT_EQ(pure_group_range_excl(world, 2, twice, &bad), PURE_ERR_RANK);
    int backwards[1][3] = {{size - 1, 0, 1}};
    if (size > 1) {
      EXPECT_EQ(pure_group_range_incl(world, 1, backwards, &bad), PURE_ERR_ARG);
    }
    PURE_Group freed = g;
    EXPECT_PURE_OK(pure_group_free(&g));
    EXPECT_EQ(g, PURE_GROUP_NULL);
    EXPECT_EQ(pure_group_union(freed, world, &bad), PURE_ERR_GROUP);
    EXPECT_EQ(pure_group_union(PURE_GROUP_NULL, world, &bad), PURE_ERR_GROUP);
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ARE_FATAL));
    for (PURE_Group* x : {&world, &rest, &ends, &u, &i, &d, &reversed, &both})
      EXPECT_PURE_OK(pure_group_free(x));
  });
}

// MPI_Comm_create_group: only the group's members call, while the others
// run collectives of their own; two disjoint groups create at once with the
// same tag, then in a loop (the same group and tag again and again).
TEST_P(Groups, CreateGroupIsCollectiveOverTheGroupOnly) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Group world;
    EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
    std::vector<int> evens, odds;
    for (int r = size - 1; r >= 0; --r) (r % 2 ? odds : evens).push_back(r);  // reversed order
    PURE_Group mine = incl(world, rank % 2 ? odds : evens);
    for (int round = 0; round < 20; ++round) {
      PURE_Comm c;
      EXPECT_PURE_OK(pure_comm_create_group(PURE_COMM_WORLD, mine, 7, &c));
      const std::vector<int>& members = rank % 2 ? odds : evens;
      int r = -1, n = -1;
      EXPECT_PURE_OK(pure_comm_rank(c, &r));
      EXPECT_PURE_OK(pure_comm_size(c, &n));
      ASSERT_EQ(n, static_cast<int>(members.size()));
      EXPECT_EQ(members[at(r)], rank);
      std::vector<int> got(members.size(), -1);
      EXPECT_PURE_OK(pure_allgather(&rank, 1, PURE_INT, got.data(), 1, PURE_INT, c));
      EXPECT_EQ(got, members);
      if (n > 1) {
        int token = rank, back = -1;
        EXPECT_PURE_OK(pure_sendrecv(&token, 1, PURE_INT, (r + 1) % n, 0, &back, 1, PURE_INT,
                                     (r + n - 1) % n, 0, c, PURE_STATUS_IGNORE));
        EXPECT_EQ(back, members[at((r + n - 1) % n)]);
      }
      EXPECT_PURE_OK(pure_comm_free(&c));
    }
    // Only the first half creates; the rest barrier among themselves.
    const int half = (size + 1) / 2;
    PURE_Group first = incl(world, [&] {
      std::vector<int> v(at(half));
      std::iota(v.begin(), v.end(), 0);
      return v;
    }());
    PURE_Comm others;
    EXPECT_PURE_OK(pure_comm_split(PURE_COMM_WORLD, rank < half, rank, &others));
    if (rank < half) {
      PURE_Comm c;
      EXPECT_PURE_OK(pure_comm_create_group(PURE_COMM_WORLD, first, 3, &c));
      int n = -1;
      EXPECT_PURE_OK(pure_comm_size(c, &n));
      EXPECT_EQ(n, half);
      EXPECT_PURE_OK(pure_barrier(c));
      EXPECT_PURE_OK(pure_comm_free(&c));
    } else {
      for (int k = 0; k < 10; ++k) EXPECT_PURE_OK(pure_barrier(others));
      // Not in the group: a local call returning PURE_COMM_NULL.
      PURE_Comm c = PURE_COMM_WORLD;
      EXPECT_PURE_OK(pure_comm_create_group(PURE_COMM_WORLD, first, 3, &c));
      EXPECT_EQ(c, PURE_COMM_NULL);
      EXPECT_PURE_OK(pure_comm_create_group(PURE_COMM_WORLD, PURE_GROUP_EMPTY, 3, &c));
      EXPECT_EQ(c, PURE_COMM_NULL);
    }
    EXPECT_PURE_OK(pure_comm_free(&others));
    for (PURE_Group* g : {&world, &mine, &first}) EXPECT_PURE_OK(pure_group_free(g));
  });
}

// A member that passes another order of the group than the first member
// fails instead of joining a communicator it does not describe.
TEST(CreateGroupErrors, MembersDisagreeingOnTheGroupFail) {
  expect_clean_run(3, [](int rank, int) {
    PURE_Group world, mine;
    EXPECT_PURE_OK(pure_comm_group(PURE_COMM_WORLD, &world));
    mine = rank == 1 ? incl(world, {0, 2, 1}) : incl(world, {0, 1, 2});
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    PURE_Comm c = PURE_COMM_NULL;
    const int rc = pure_comm_create_group(PURE_COMM_WORLD, mine, 1, &c);
    EXPECT_EQ(rc, rank == 1 ? PURE_ERR_GROUP : PURE_SUCCESS);
    if (c != PURE_COMM_NULL) {
      EXPECT_PURE_OK(pure_comm_free(&c));
    }
    EXPECT_PURE_OK(pure_group_free(&world));
    EXPECT_PURE_OK(pure_group_free(&mine));
  });
}

TEST_P(Groups, SplitTypeSharedIsThisProcess) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Comm shared;
    EXPECT_PURE_OK(pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_SHARED, -rank,
                                        PURE_INFO_NULL, &shared));
    int n = -1, r = -1;
    EXPECT_PURE_OK(pure_comm_size(shared, &n));
    EXPECT_PURE_OK(pure_comm_rank(shared, &r));
    EXPECT_EQ(n, size);  // one process: every rank
    EXPECT_EQ(r, size - 1 - rank);
    EXPECT_PURE_OK(pure_comm_free(&shared));
    EXPECT_PURE_OK(pure_comm_split_type(PURE_COMM_WORLD, rank == 0 ? PURE_UNDEFINED
                                                                   : PURE_COMM_TYPE_SHARED,
                                        0, PURE_INFO_NULL, &shared));
    EXPECT_EQ(shared == PURE_COMM_NULL, rank == 0);
    if (shared != PURE_COMM_NULL) {
      EXPECT_PURE_OK(pure_comm_size(shared, &n));
      EXPECT_EQ(n, size - 1);
      EXPECT_PURE_OK(pure_comm_free(&shared));
    }
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_split_type(PURE_COMM_WORLD, 12345, 0, PURE_INFO_NULL, &shared),
              PURE_ERR_ARG);
  });
}

TEST_P(Groups, DupWithInfoAndHints) {
  expect_clean_run(GetParam(), [](int rank, int) {
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    EXPECT_PURE_OK(pure_info_set(info, "mpi_assert_no_any_tag", "true"));
    EXPECT_PURE_OK(pure_info_set(info, "no_such_hint", "1"));
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup_with_info(PURE_COMM_WORLD, info, &dup));
    int r = -1;
    EXPECT_PURE_OK(pure_comm_rank(dup, &r));
    EXPECT_EQ(r, rank);
    PURE_Info used;
    EXPECT_PURE_OK(pure_comm_get_info(dup, &used));
    char value[PURE_MAX_INFO_VAL + 1];
    int flag = 0;
    EXPECT_PURE_OK(pure_info_get(used, "mpi_assert_no_any_tag", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_STREQ(value, "true");
    EXPECT_PURE_OK(pure_info_get(used, "no_such_hint", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 0);  // ignored: not a hint Pure knows
    EXPECT_PURE_OK(pure_info_get(used, "mpi_assert_exact_length", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_STREQ(value, "false");
    EXPECT_PURE_OK(pure_info_free(&used));
    // set_info changes the hint; a plain dup keeps the hints.
    EXPECT_PURE_OK(pure_info_set(info, "mpi_assert_no_any_tag", "false"));
    EXPECT_PURE_OK(pure_comm_set_info(dup, info));
    PURE_Comm dup2;
    EXPECT_PURE_OK(pure_comm_dup(dup, &dup2));
    EXPECT_PURE_OK(pure_comm_get_info(dup2, &used));
    EXPECT_PURE_OK(pure_info_get(used, "mpi_assert_no_any_tag", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_STREQ(value, "false");
    int sum = -1;
    EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_MAX, dup2));
    EXPECT_PURE_OK(pure_info_free(&used));
    EXPECT_PURE_OK(pure_info_free(&info));
    EXPECT_PURE_OK(pure_comm_free(&dup2));
    EXPECT_PURE_OK(pure_comm_free(&dup));
  });
}

}  // namespace
// MPI-4's hardware-guided splits: "mpi_shared_memory" is the process;
// NUMANode and Core are what each rank's core belongs to (with
// PURE_BIND=none every rank may run anywhere: the process again); a name
// Pure does not know gives PURE_COMM_NULL to every member; the unguided
// split takes the widest level smaller than the communicator, or none.
// Each new communicator's info names its level.
TEST_P(Groups, SplitTypeByHardware) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    auto level_of = [](PURE_Comm comm) {
      PURE_Info used;
      EXPECT_PURE_OK(pure_comm_get_info(comm, &used));
      char value[PURE_MAX_INFO_VAL + 1] = "";
      int flag = 0;
      EXPECT_PURE_OK(pure_info_get(used, "mpi_hw_resource_type", PURE_MAX_INFO_VAL, value, &flag));
      EXPECT_PURE_OK(pure_info_free(&used));
      return flag ? std::string(value) : std::string("(none)");
    };
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    for (const char* type : {"mpi_shared_memory", "hwloc://NUMANode", "Core"}) {
      EXPECT_PURE_OK(pure_info_set(info, "mpi_hw_resource_type", type));
      PURE_Comm part;
      EXPECT_PURE_OK(
          pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_GUIDED, rank, info, &part));
      ASSERT_NE(part, PURE_COMM_NULL) << type;
      int n = -1;
      EXPECT_PURE_OK(pure_comm_size(part, &n));
      EXPECT_GE(n, 1);
      if (std::string(type) == "mpi_shared_memory") {
        EXPECT_EQ(n, size);
      }
      // Every member of a part names the same part: their smallest world
      // rank agrees.
      int least = -1;
      EXPECT_PURE_OK(pure_allreduce(&rank, &least, 1, PURE_INT, PURE_MIN, part));
      int agreed = -1;
      EXPECT_PURE_OK(pure_allreduce(&least, &agreed, 1, PURE_INT, PURE_MAX, part));
      EXPECT_EQ(least, agreed);
      const std::string want = std::string(type) == "hwloc://NUMANode" ? "NUMANode" : type;
      EXPECT_EQ(level_of(part), want);
      EXPECT_PURE_OK(pure_comm_free(&part));
    }
    EXPECT_PURE_OK(pure_info_set(info, "mpi_hw_resource_type", "no_such_resource"));
    PURE_Comm none;
    EXPECT_PURE_OK(
        pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_GUIDED, 0, info, &none));
    EXPECT_EQ(none, PURE_COMM_NULL);
    // Unguided: a strict subset, or nothing.
    PURE_Comm below;
    EXPECT_PURE_OK(pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_UNGUIDED, 0,
                                        PURE_INFO_NULL, &below));
    if (below != PURE_COMM_NULL) {
      int n = -1;
      EXPECT_PURE_OK(pure_comm_size(below, &n));
      EXPECT_LT(n, size);
      EXPECT_NE(level_of(below), "(none)");
      EXPECT_PURE_OK(pure_comm_free(&below));
    }
    // Guided without the key is an error naming it.
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_PURE_OK(pure_info_delete(info, "mpi_hw_resource_type"));
    EXPECT_EQ(pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_GUIDED, 0, info, &none),
              PURE_ERR_INFO_KEY);
    EXPECT_PURE_OK(pure_info_free(&info));
  });
}

// Two pinned ranks: the unguided split finds the level below the process.
// With a core each (the CI machine), that is the core, a communicator of
// one; where both share one core, no level is smaller than the world and it
// makes nothing. Which of the two holds is read from the guided Core split.
TEST(SplitTypeByHardware, UnguidedFindsTheCoresOfPinnedRanks) {
  pure::Config config;
  config.bind = pure::Bind::core;
  expect_clean_run(
      2,
      [](int, int) {
        PURE_Info info;
        EXPECT_PURE_OK(pure_info_create(&info));
        EXPECT_PURE_OK(pure_info_set(info, "mpi_hw_resource_type", "Core"));
        PURE_Comm core;
        EXPECT_PURE_OK(
            pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_GUIDED, 0, info, &core));
        EXPECT_PURE_OK(pure_info_free(&info));
        ASSERT_NE(core, PURE_COMM_NULL);
        int sharing = -1;
        EXPECT_PURE_OK(pure_comm_size(core, &sharing));
        EXPECT_PURE_OK(pure_comm_free(&core));
        PURE_Comm below;
        EXPECT_PURE_OK(pure_comm_split_type(PURE_COMM_WORLD, PURE_COMM_TYPE_HW_UNGUIDED, 0,
                                            PURE_INFO_NULL, &below));
        if (sharing == 2) {
          EXPECT_EQ(below, PURE_COMM_NULL);
          return;
        }
        ASSERT_EQ(sharing, 1);
        ASSERT_NE(below, PURE_COMM_NULL);
        int n = -1;
        EXPECT_PURE_OK(pure_comm_size(below, &n));
        EXPECT_EQ(n, 1);
        EXPECT_PURE_OK(pure_comm_free(&below));
      },
      config);
}

// MPI-4's comm_idup_with_info: the hints of the info given at the call,
// even though the program frees the info before the request completes.
TEST_P(Groups, IdupWithInfo) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    EXPECT_PURE_OK(pure_info_set(info, "mpi_assert_no_any_source", "true"));
    PURE_Comm dup;
    PURE_Request r;
    EXPECT_PURE_OK(pure_comm_idup_with_info(PURE_COMM_WORLD, info, &dup, &r));
    EXPECT_PURE_OK(pure_info_free(&info));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    ASSERT_NE(dup, PURE_COMM_NULL);
    int sum = -1;
    EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_SUM, dup));
    EXPECT_EQ(sum, size * (size - 1) / 2);
    PURE_Info used;
    EXPECT_PURE_OK(pure_comm_get_info(dup, &used));
    char value[PURE_MAX_INFO_VAL + 1];
    int flag = 0;
    EXPECT_PURE_OK(
        pure_info_get(used, "mpi_assert_no_any_source", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_STREQ(value, "true");
    EXPECT_PURE_OK(pure_info_free(&used));
    EXPECT_PURE_OK(pure_comm_free(&dup));
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_idup_with_info(PURE_COMM_WORLD, 4242, &dup, &r), PURE_ERR_INFO);
  });
}

}  // namespace pure_testing
