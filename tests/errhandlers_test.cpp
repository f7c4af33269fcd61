// Error handlers and error classes: a user handler is called with the
// communicator's handle and the error code when a call fails under it (and
// the call returns the code), by MPI_Comm_call_errhandler, on a dup that
// inherits it, after its handle was freed while a communicator still uses
// it; freed handles are refused; user error classes, codes and strings,
// PURE_LASTUSEDCODE; and info objects (set, get, lengths, keys, dup, free,
// PURE_INFO_ENV, MPI 4's get_string), with their errors.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

class Errhandlers : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Errhandlers, pure_testing::rank_sweep({2, 4, 16}), rank_count_name);

struct Seen {
  std::vector<PURE_Comm> comms;
  std::vector<int> codes;
};
thread_local Seen t_seen;

void remember(PURE_Comm* comm, int* code, ...) {
  t_seen.comms.push_back(*comm);
  t_seen.codes.push_back(*code);
}

TEST_P(Errhandlers, UserHandlerIsCalledWithTheCommunicatorAndCode) {
  expect_clean_run(GetParam(), [](int, int size) {
    t_seen = Seen{};
    PURE_Errhandler eh;
    EXPECT_PURE_OK(pure_comm_create_errhandler(remember, &eh));
    PURE_Comm comm;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &comm));
    EXPECT_PURE_OK(pure_comm_set_errhandler(comm, eh));
    PURE_Errhandler got;
    EXPECT_PURE_OK(pure_comm_get_errhandler(comm, &got));
    EXPECT_EQ(got, eh);
    EXPECT_PURE_OK(pure_errhandler_free(&got));
    // A failing call: the handler sees the handle and the class; the call
    // returns it.
    int x = 0;
    EXPECT_EQ(pure_send(&x, 1, PURE_INT, size, 0, comm), PURE_ERR_RANK);
    EXPECT_EQ(pure_barrier(comm), PURE_SUCCESS);
    ASSERT_EQ(t_seen.codes.size(), 1u);
    EXPECT_EQ(t_seen.comms[0], comm);
    EXPECT_EQ(t_seen.codes[0], PURE_ERR_RANK);
    // Called on purpose, with a code of the program's own.
    int cls = 0, code = 0;
    EXPECT_PURE_OK(pure_add_error_class(&cls));
    EXPECT_PURE_OK(pure_add_error_code(cls, &code));
    EXPECT_PURE_OK(pure_comm_call_errhandler(comm, code));
    ASSERT_EQ(t_seen.codes.size(), 2u);
    EXPECT_EQ(t_seen.codes[1], code);
    // The handler's handle is freed, but the communicator still uses it;
    // a dup inherits it.
    EXPECT_PURE_OK(pure_errhandler_free(&eh));
    EXPECT_EQ(eh, PURE_ERRHANDLER_NULL);
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup(comm, &dup));
    EXPECT_PURE_OK(pure_comm_call_errhandler(dup, PURE_ERR_OTHER));
    ASSERT_EQ(t_seen.codes.size(), 3u);
    EXPECT_EQ(t_seen.comms[2], dup);
    // PURE_ERRORS_RETURN: call_errhandler returns the code.
    EXPECT_PURE_OK(pure_comm_set_errhandler(dup, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_call_errhandler(dup, PURE_ERR_TAG), PURE_ERR_TAG);
    EXPECT_PURE_OK(pure_comm_free(&dup));
    EXPECT_PURE_OK(pure_comm_free(&comm));
    EXPECT_EQ(t_seen.codes.size(), 3u);
    // Predefined handlers may be freed (as handles from get are).
    PURE_Errhandler fatal = PURE_ERRORS_ARE_FATAL;
    EXPECT_PURE_OK(pure_errhandler_free(&fatal));
    EXPECT_EQ(fatal, PURE_ERRHANDLER_NULL);
  });
}

// MPI-1's names, removed in MPI-3, do what their successors do.
TEST_P(Errhandlers, MpiOneNamesAreTheirSuccessors) {
  expect_clean_run(GetParam(), [](int, int size) {
    t_seen = Seen{};
    PURE_Errhandler eh;
    EXPECT_PURE_OK(pure_errhandler_create(remember, &eh));
    PURE_Comm comm;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &comm));
    EXPECT_PURE_OK(pure_errhandler_set(comm, eh));
    PURE_Errhandler got;
    EXPECT_PURE_OK(pure_errhandler_get(comm, &got));
    EXPECT_EQ(got, eh);
    EXPECT_PURE_OK(pure_errhandler_free(&got));
    int x = 0;
    EXPECT_EQ(pure_send(&x, 1, PURE_INT, size, 0, comm), PURE_ERR_RANK);
    ASSERT_EQ(t_seen.codes.size(), 1u);
    EXPECT_EQ(t_seen.comms[0], comm);
    EXPECT_PURE_OK(pure_errhandler_free(&eh));
    EXPECT_PURE_OK(pure_comm_free(&comm));
  });
}

TEST_P(Errhandlers, FreedHandlesAreRefused) {
  expect_clean_run(GetParam(), [](int, int) {
    PURE_Errhandler eh;
    EXPECT_PURE_OK(pure_comm_create_errhandler(remember, &eh));
    const PURE_Errhandler stale = eh;
    EXPECT_PURE_OK(pure_errhandler_free(&eh));
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_set_errhandler(PURE_COMM_WORLD, stale), PURE_ERR_ARG);
    PURE_Errhandler again = stale;
    EXPECT_EQ(pure_errhandler_free(&again), PURE_ERR_ARG);
    EXPECT_EQ(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRHANDLER_NULL), PURE_ERR_ARG);
    EXPECT_EQ(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_HANDLE_KIND_COMM | 1), PURE_ERR_ARG);
  });
}

TEST(ErrhandlerMessages, FreedHandleIsNamed) {
  JobResult r = run_ranks_capturing(2, [](int rank, int) {
    PURE_Errhandler eh;
    EXPECT_PURE_OK(pure_comm_create_errhandler(remember, &eh));
    const PURE_Errhandler stale = eh;
    EXPECT_PURE_OK(pure_errhandler_free(&eh));
    if (rank == 1) pure_comm_set_errhandler(PURE_COMM_WORLD, stale);
  });
  EXPECT_EQ(r.code, PURE_ERR_ARG);
  EXPECT_NE(r.err.find("rank 1: pure_comm_set_errhandler: error handler handle 0x"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("was freed"), std::string::npos) << r.err;
}

TEST_P(Errhandlers, ErrorClassesCodesAndStrings) {
  expect_clean_run(GetParam(), [](int, int) {
    int classes[3], codes[3][2];
    for (int i = 0; i < 3; ++i) {
      EXPECT_PURE_OK(pure_add_error_class(&classes[i]));
      EXPECT_GT(classes[i], PURE_ERR_LASTCODE);
      for (int j = 0; j < 2; ++j) {
        EXPECT_PURE_OK(pure_add_error_code(classes[i], &codes[i][j]));
        const std::string text = "class " + std::to_string(i) + " code " + std::to_string(j);
        EXPECT_PURE_OK(pure_add_error_string(codes[i][j], text.c_str()));
      }
    }
    int* last = nullptr;
    int flag = 0;
    EXPECT_PURE_OK(pure_comm_get_attr(PURE_COMM_WORLD, PURE_LASTUSEDCODE, &last, &flag));
    EXPECT_EQ(*last, codes[2][1]);
    char text[PURE_MAX_ERROR_STRING];
    int len = 0, cls = -1;
    for (int i = 0; i < 3; ++i) {
      EXPECT_PURE_OK(pure_error_class(classes[i], &cls));
      EXPECT_EQ(cls, classes[i]);
      EXPECT_PURE_OK(pure_error_string(classes[i], text, &len));
      EXPECT_EQ(len, 0);  // no string was set
      for (int j = 0; j < 2; ++j) {
        EXPECT_PURE_OK(pure_error_class(codes[i][j], &cls));
        EXPECT_EQ(cls, classes[i]);
        EXPECT_PURE_OK(pure_error_string(codes[i][j], text, &len));
        EXPECT_STREQ(text, ("class " + std::to_string(i) + " code " + std::to_string(j)).c_str());
      }
    }
    // A code of a predefined class.
    int code = 0;
    EXPECT_PURE_OK(pure_add_error_code(PURE_ERR_ARG, &code));
    EXPECT_PURE_OK(pure_error_class(code, &cls));
    EXPECT_EQ(cls, PURE_ERR_ARG);
    EXPECT_PURE_OK(pure_error_string(PURE_ERR_INFO_NOKEY, text, &len));
    EXPECT_NE(std::strstr(text, "PURE_ERR_INFO_NOKEY"), nullptr) << text;
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_add_error_string(PURE_ERR_ARG, "mine"), PURE_ERR_ARG);
    EXPECT_EQ(pure_add_error_code(codes[0][0], &code), PURE_ERR_ARG);  // a code is no class
    EXPECT_EQ(pure_add_error_code(*last + 100, &code), PURE_ERR_ARG);
    EXPECT_EQ(pure_error_class(*last + 100, &cls), PURE_ERR_ARG);
  });
}

TEST_P(Errhandlers, InfoObjects) {
  expect_clean_run(GetParam(), [](int, int size) {
    PURE_Info info;
    EXPECT_PURE_OK(pure_info_create(&info));
    int nkeys = -1, flag = -1, len = -1;
    EXPECT_PURE_OK(pure_info_get_nkeys(info, &nkeys));
    EXPECT_EQ(nkeys, 0);
    EXPECT_PURE_OK(pure_info_set(info, "b_key", "first"));
    EXPECT_PURE_OK(pure_info_set(info, "a_key", "second value"));
    EXPECT_PURE_OK(pure_info_set(info, "b_key", "replaced"));
    EXPECT_PURE_OK(pure_info_get_nkeys(info, &nkeys));
    EXPECT_EQ(nkeys, 2);
    char key[PURE_MAX_INFO_KEY + 1], value[PURE_MAX_INFO_VAL + 1];
    EXPECT_PURE_OK(pure_info_get_nthkey(info, 0, key));
    EXPECT_STREQ(key, "b_key");  // the order keys were first set
    EXPECT_PURE_OK(pure_info_get_nthkey(info, 1, key));
    EXPECT_STREQ(key, "a_key");
    EXPECT_PURE_OK(pure_info_get_valuelen(info, "a_key", &len, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(len, 12);
    EXPECT_PURE_OK(pure_info_get(info, "b_key", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_STREQ(value, "replaced");
    EXPECT_PURE_OK(pure_info_get(info, "a_key", 3, value, &flag));  // truncated to valuelen
    EXPECT_STREQ(value, "sec");
    EXPECT_PURE_OK(pure_info_get(info, "c_key", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 0);
    // MPI 4's get_string: the length needed, then the value.
    int buflen = 0;
    EXPECT_PURE_OK(pure_info_get_string(info, "a_key", &buflen, nullptr, &flag));
    EXPECT_EQ(buflen, 13);
    char small[5];
    buflen = 5;
    EXPECT_PURE_OK(pure_info_get_string(info, "a_key", &buflen, small, &flag));
    EXPECT_STREQ(small, "seco");
    EXPECT_EQ(buflen, 13);
    PURE_Info copy;
    EXPECT_PURE_OK(pure_info_dup(info, &copy));
    EXPECT_PURE_OK(pure_info_delete(info, "b_key"));
    EXPECT_PURE_OK(pure_info_get_nkeys(info, &nkeys));
    EXPECT_EQ(nkeys, 1);
    EXPECT_PURE_OK(pure_info_get_nkeys(copy, &nkeys));
    EXPECT_EQ(nkeys, 2);
    // PURE_INFO_ENV: what the job runs.
    EXPECT_PURE_OK(pure_info_get(PURE_INFO_ENV, "maxprocs", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(std::string(value), std::to_string(size));
    EXPECT_PURE_OK(pure_info_get(PURE_INFO_ENV, "command", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_PURE_OK(pure_info_get(PURE_INFO_ENV, "thread_level", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_STREQ(value, "MPI_THREAD_SINGLE");

    // Errors.
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_info_delete(info, "b_key"), PURE_ERR_INFO_NOKEY);
    EXPECT_EQ(pure_info_set(info, "", "x"), PURE_ERR_INFO_KEY);
    const std::string long_key(PURE_MAX_INFO_KEY + 1, 'k');
    EXPECT_EQ(pure_info_set(info, long_key.c_str(), "x"), PURE_ERR_INFO_KEY);
    const std::string long_value(PURE_MAX_INFO_VAL + 1, 'v');
    EXPECT_EQ(pure_info_set(info, "k", long_value.c_str()), PURE_ERR_INFO_VALUE);
    EXPECT_EQ(pure_info_get_nthkey(info, 1, key), PURE_ERR_ARG);
    EXPECT_EQ(pure_info_set(PURE_INFO_ENV, "k", "v"), PURE_ERR_INFO);
    PURE_Info env = PURE_INFO_ENV;
    EXPECT_EQ(pure_info_free(&env), PURE_ERR_INFO);
    const PURE_Info stale = copy;
    EXPECT_PURE_OK(pure_info_free(&copy));
    EXPECT_EQ(copy, PURE_INFO_NULL);
    EXPECT_EQ(pure_info_get_nkeys(stale, &nkeys), PURE_ERR_INFO);
    EXPECT_EQ(pure_info_get_nkeys(PURE_INFO_NULL, &nkeys), PURE_ERR_INFO);
    EXPECT_PURE_OK(pure_info_free(&info));
  });
}

}  // namespace
// MPI-4's info_create_env: PURE_INFO_ENV's keys in an object of the
// program's own, the command and arguments those given when there are any.
TEST_P(Errhandlers, InfoCreateEnv) {
  expect_clean_run(GetParam(), [](int, int size) {
    char value[PURE_MAX_INFO_VAL + 1];
    int flag = 0;
    PURE_Info env;
    EXPECT_PURE_OK(pure_info_create_env(0, nullptr, &env));
    EXPECT_PURE_OK(pure_info_get(env, "maxprocs", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(std::string(value), std::to_string(size));
    EXPECT_PURE_OK(pure_info_get(env, "command", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_PURE_OK(pure_info_set(env, "mine", "1"));  // the program's: it may change it
    EXPECT_PURE_OK(pure_info_free(&env));
    char prog[] = "solver", a1[] = "-n", a2[] = "10";
    char* argv[] = {prog, a1, a2, nullptr};
    EXPECT_PURE_OK(pure_info_create_env(3, argv, &env));
    EXPECT_PURE_OK(pure_info_get(env, "command", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_STREQ(value, "solver");
    EXPECT_PURE_OK(pure_info_get(env, "argv", PURE_MAX_INFO_VAL, value, &flag));
    EXPECT_STREQ(value, "-n 10");
    EXPECT_PURE_OK(pure_info_free(&env));
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_info_create_env(-1, nullptr, &env), PURE_ERR_ARG);
    EXPECT_EQ(pure_info_create_env(0, nullptr, nullptr), PURE_ERR_ARG);
  });
}

// PURE_ERRORS_ABORT ends the job as a fatal error does, naming the handler
// when the program raises an error on purpose.
TEST(ErrhandlerMessages, ErrorsAbortEndsTheJob) {
  JobResult r = run_ranks_capturing(2, [](int rank, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ABORT));
    PURE_Errhandler eh = PURE_ERRHANDLER_NULL;
    EXPECT_PURE_OK(pure_comm_get_errhandler(PURE_COMM_WORLD, &eh));
    EXPECT_EQ(eh, PURE_ERRORS_ABORT);
    if (rank == 1) pure_comm_call_errhandler(PURE_COMM_WORLD, PURE_ERR_OTHER);
  });
  EXPECT_EQ(r.code, PURE_ERR_OTHER);
  EXPECT_NE(r.err.find("rank 1: pure_comm_call_errhandler:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("PURE_ERRORS_ABORT"), std::string::npos) << r.err;
  JobResult bad = run_ranks_capturing(2, [](int rank, int) {
    pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ABORT);
    int x = 0;
    if (rank == 0) pure_send(&x, 1, PURE_INT, 7, 0, PURE_COMM_WORLD);
  });
  EXPECT_EQ(bad.code, PURE_ERR_RANK);
  EXPECT_NE(bad.err.find("rank 0: pure_send:"), std::string::npos) << bad.err;
}

}  // namespace pure_testing
