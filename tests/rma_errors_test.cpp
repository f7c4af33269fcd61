// One-sided misuse: every call outside the epoch that allows it, a window
// freed while this rank still holds an epoch, accesses outside the target's
// memory, bad ops, types, ranks, lock types, assertions and handles -- each
// an error of MPI's class, returned under PURE_ERRORS_RETURN (the job goes
// on and the window still works afterwards) and, under the default
// handler, fatal with a message that names the rank, the call, the window
// and the displacement. Never a hang. The program's own window error
// handlers (pure_win_create_errhandler) are called with the window and the
// code, and are one kind with communicators' handlers.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

void add_ints(void* in, void* inout, int* len, PURE_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += static_cast<int*>(in)[i];
}

// One misuse: what it does on a window of 4 ints per rank with
// PURE_ERRORS_RETURN, and the class it must return.
struct Misuse {
  const char* name;
  int error_class;
  std::function<int(PURE_Win win, int rank, int size)> call;
};

std::vector<Misuse> misuses() {
  static int buf[4];
  static double dbuf[4];
  return {
      {"PutWithoutEpoch", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_put(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, w); }},
      {"GetWithoutEpoch", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_get(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, w); }},
      {"FlushWithoutLock", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_win_flush(0, w); }},
      {"UnlockWithoutLock", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_win_unlock(0, w); }},
      {"UnlockAllWithoutLockAll", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_win_unlock_all(w); }},
      {"CompleteWithoutStart", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_win_complete(w); }},
      {"WaitWithoutPost", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) { return pure_win_wait(w); }},
      {"TestWithoutPost", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         int flag = 0;
         return pure_win_test(w, &flag);
       }},
      {"LockTwice", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock(PURE_LOCK_SHARED, 0, 0, w);
         const int rc = pure_win_lock(PURE_LOCK_SHARED, 0, 0, w);
         pure_win_unlock(0, w);
         return rc;
       }},
      {"FenceInsideLock", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock(PURE_LOCK_SHARED, 0, 0, w);
         const int rc = pure_win_fence(0, w);
         pure_win_unlock(0, w);
         return rc;
       }},
      {"LockInsideLockAll", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_win_lock(PURE_LOCK_EXCLUSIVE, 0, 0, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"UnlockOfLockAll", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_win_unlock(0, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"PutToUnlockedTarget", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int size) {
         pure_win_lock(PURE_LOCK_SHARED, 0, 0, w);
         const int rc = pure_put(buf, 1, PURE_INT, size - 1, 0, 1, PURE_INT, w);
         pure_win_unlock(0, w);
         return size == 1 ? PURE_ERR_RMA_SYNC : rc;
       }},
      {"FreeWhileLocked", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock(PURE_LOCK_EXCLUSIVE, 0, 0, w);
         PURE_Win copy = w;
         const int rc = pure_win_free(&copy);
         pure_win_unlock(0, w);
         return rc;
       }},
      {"FreeWhileLockAll", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         PURE_Win copy = w;
         const int rc = pure_win_free(&copy);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"RequestPutOutsidePassiveEpoch", PURE_ERR_RMA_SYNC,
       [](PURE_Win w, int, int) {
         PURE_Request r;
         return pure_rput(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, w, &r);
       }},
      {"PastTheEnd", PURE_ERR_RMA_RANGE,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_put(buf, 2, PURE_INT, 0, 3, 2, PURE_INT, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"NegativeDisplacement", PURE_ERR_RMA_RANGE,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_get(buf, 1, PURE_INT, 0, -1, 1, PURE_INT, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"TargetRankTooLarge", PURE_ERR_RANK,
       [](PURE_Win w, int, int size) {
         return pure_put(buf, 1, PURE_INT, size, 0, 1, PURE_INT, w);
       }},
      {"BadLockType", PURE_ERR_LOCKTYPE,
       [](PURE_Win w, int, int) { return pure_win_lock(99, 0, 0, w); }},
      {"BadAssert", PURE_ERR_ASSERT,
       [](PURE_Win w, int, int) { return pure_win_fence(1 << 20, w); }},
      {"UserOpInAccumulate", PURE_ERR_OP,
       [](PURE_Win w, int, int) {
         PURE_Op op;
         pure_op_create(add_ints, 1, &op);
         pure_win_lock_all(0, w);
         const int rc = pure_accumulate(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, op, w);
         pure_win_unlock_all(w);
         pure_op_free(&op);
         return rc;
       }},
      {"NoOpInAccumulate", PURE_ERR_OP,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_accumulate(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, PURE_NO_OP, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"MinlocOnInt", PURE_ERR_OP,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_accumulate(buf, 1, PURE_INT, 0, 0, 1, PURE_INT, PURE_MINLOC, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"ReplaceInAllreduce", PURE_ERR_OP,
       [](PURE_Win, int, int) {
         int in = 1, out = 0;
         return pure_allreduce(&in, &out, 1, PURE_INT, PURE_REPLACE, W);
       }},
      {"AccumulateTypesDiffer", PURE_ERR_TYPE,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         const int rc = pure_accumulate(dbuf, 1, PURE_DOUBLE, 0, 0, 2, PURE_INT, PURE_SUM, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"CompareAndSwapOnDouble", PURE_ERR_TYPE,
       [](PURE_Win w, int, int) {
         pure_win_lock_all(0, w);
         double r;
         const int rc = pure_compare_and_swap(dbuf, dbuf + 1, &r, PURE_DOUBLE, 0, 0, w);
         pure_win_unlock_all(w);
         return rc;
       }},
      {"AttachToCreatedWindow", PURE_ERR_RMA_FLAVOR,
       [](PURE_Win w, int, int) { return pure_win_attach(w, buf, sizeof buf); }},
      {"SharedQueryOfCreatedWindow", PURE_ERR_RMA_FLAVOR,
       [](PURE_Win w, int, int) {
         PURE_Aint size;
         int unit;
         void* base;
         return pure_win_shared_query(w, 0, &size, &unit, &base);
       }},
      {"WindowNull", PURE_ERR_WIN,
       [](PURE_Win, int, int) { return pure_win_fence(0, PURE_WIN_NULL); }},
  };
}

class RmaMisuse : public testing::TestWithParam<Misuse> {};

TEST_P(RmaMisuse, ReturnsItsClassAndTheWindowStillWorks) {
  const Misuse m = GetParam();
  expect_clean_run(3, [&](int rank, int size) {
    int mem[4] = {0, 0, 0, 0};
    PURE_Win win;
    ASSERT_EQ(pure_win_create(mem, sizeof mem, sizeof(int), PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_set_errhandler(win, PURE_ERRORS_RETURN));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    if (rank == 1) {
      EXPECT_EQ(m.call(win, rank, size), m.error_class) << m.name;
    }
    EXPECT_PURE_OK(pure_barrier(W));
    // Still a working window.
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_put(&rank, 1, PURE_INT, (rank + 1) % size, 2, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    EXPECT_EQ(mem[2], (rank + size - 1) % size);
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

INSTANTIATE_TEST_SUITE_P(Calls, RmaMisuse, testing::ValuesIn(misuses()),
                         [](const testing::TestParamInfo<Misuse>& info) {
                           return std::string(info.param.name);
                         });

TEST(RmaErrors, FreedHandleAndDynamicMisuse) {
  expect_clean_run(2, [](int rank, int) {
    PURE_Win win, dyn;
    int x = 0;
    ASSERT_EQ(pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    PURE_Win kept = win;
    EXPECT_PURE_OK(pure_win_free(&win));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_fence(0, kept), PURE_ERR_WIN);
    EXPECT_EQ(pure_win_create(&x, sizeof x, 1, PURE_HANDLE_KIND_WIN | 5, W, &win), PURE_ERR_INFO);
    EXPECT_EQ(pure_win_create(&x, -1, 1, PURE_INFO_NULL, W, &win), PURE_ERR_SIZE);
    EXPECT_EQ(pure_win_create(&x, sizeof x, 0, PURE_INFO_NULL, W, &win), PURE_ERR_DISP);
    // A unit past int, which windows keep, through the _c form.
    EXPECT_EQ(pure_win_create_c(&x, sizeof x, PURE_Aint{1} << 40, PURE_INFO_NULL, W, &win),
              PURE_ERR_DISP);
    void* mem = nullptr;
    EXPECT_EQ(pure_alloc_mem(-8, PURE_INFO_NULL, &mem), PURE_ERR_SIZE);
    EXPECT_EQ(pure_alloc_mem(8, PURE_INFO_NULL, nullptr), PURE_ERR_ARG);
    EXPECT_EQ(mem, nullptr);

    ASSERT_EQ(pure_win_create_dynamic(PURE_INFO_NULL, W, &dyn), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_set_errhandler(dyn, PURE_ERRORS_RETURN));
    long region[4] = {0, 0, 0, 0};
    EXPECT_PURE_OK(pure_win_attach(dyn, region, sizeof region));
    EXPECT_EQ(pure_win_attach(dyn, region + 1, sizeof(long)), PURE_ERR_RMA_ATTACH);
    EXPECT_EQ(pure_win_detach(dyn, region + 2), PURE_ERR_RMA_ATTACH);
    PURE_Aint address = 0;
    pure_get_address(region, &address);
    PURE_Aint other = 0;
    EXPECT_PURE_OK(pure_sendrecv(&address, 1, PURE_AINT, 1 - rank, 0, &other, 1, PURE_AINT,
                                 1 - rank, 0, W, PURE_STATUS_IGNORE));
    const long v = 5;
    EXPECT_PURE_OK(pure_win_lock_all(0, dyn));
    EXPECT_PURE_OK(pure_put(&v, 1, PURE_LONG, 1 - rank, other + 3 * sizeof(long), 1, PURE_LONG, dyn));
    EXPECT_EQ(pure_put(&v, 1, PURE_LONG, 1 - rank, other + 4 * sizeof(long), 1, PURE_LONG, dyn),
              PURE_ERR_RMA_RANGE);
    EXPECT_PURE_OK(pure_win_unlock_all(dyn));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_EQ(region[3], 5);
    EXPECT_PURE_OK(pure_win_detach(dyn, region));
    EXPECT_PURE_OK(pure_win_free(&dyn));
  });
}

TEST(RmaErrors, GroupMemberOutsideTheWindow) {
  expect_clean_run(4, [](int rank, int) {
    PURE_Comm pair;
    ASSERT_EQ(pure_comm_split(W, rank / 2, rank, &pair), PURE_SUCCESS);
    int x = 0;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, pair, &win), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_set_errhandler(win, PURE_ERRORS_RETURN));
    PURE_Group world, outsider;
    pure_comm_group(W, &world);
    const int other = (rank + 2) % 4;  // in the other pair
    pure_group_incl(world, 1, &other, &outsider);
    EXPECT_EQ(pure_win_start(outsider, 0, win), PURE_ERR_GROUP);
    EXPECT_EQ(pure_win_post(outsider, 0, win), PURE_ERR_GROUP);
    pure_group_free(&outsider);
    pure_group_free(&world);
    EXPECT_PURE_OK(pure_win_free(&win));
    pure_comm_free(&pair);
  });
}

// Under the default handler a misuse ends the job, with the class as exit
// code and a message naming rank, call, window and displacement.
TEST(RmaErrors, FatalMessagesNameRankWindowAndDisplacement) {
  const JobResult out = run_ranks_capturing(3, [](int rank, int) {
    double mem[10];
    PURE_Win win;
    if (pure_win_create(mem, sizeof mem, sizeof(double), PURE_INFO_NULL, W, &win) != PURE_SUCCESS)
      return;
    pure_win_set_name(win, "grid");
    pure_win_lock_all(0, win);
    if (rank == 2) pure_put(mem, 4, PURE_DOUBLE, 1, 8, 4, PURE_DOUBLE, win);
    pure_win_unlock_all(win);
    pure_barrier(W);
    pure_win_free(&win);
  });
  EXPECT_EQ(out.code, PURE_ERR_RMA_RANGE);
  EXPECT_NE(out.err.find("rank 2: pure_put: target rank 1, displacement 8 (bytes 64 to 96 at "
                         "displacement unit 8) is outside window 'grid', which has 80 bytes at "
                         "rank 1 [PURE_ERR_RMA_RANGE]"),
            std::string::npos)
      << out.err;

  const JobResult sync = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    if (rank == 1) pure_put(&x, 1, PURE_INT, 0, 0, 1, PURE_INT, win);
    pure_win_free(&win);
  });
  EXPECT_EQ(sync.code, PURE_ERR_RMA_SYNC);
  EXPECT_NE(sync.err.find("rank 1: pure_put: no access epoch for target rank 0"), std::string::npos)
      << sync.err;
  EXPECT_NE(sync.err.find("[PURE_ERR_RMA_SYNC]"), std::string::npos) << sync.err;

  const JobResult freed = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    pure_win_lock(PURE_LOCK_EXCLUSIVE, 1 - rank, 0, win);
    pure_win_free(&win);
  });
  EXPECT_EQ(freed.code, PURE_ERR_RMA_SYNC);
  EXPECT_NE(freed.err.find("pure_win_free while this rank holds a passive-target epoch"),
            std::string::npos)
      << freed.err;
}

// What a window error handler saw, per rank thread.
thread_local int handler_calls = 0;
thread_local PURE_Win handler_win = PURE_WIN_NULL;
thread_local int handler_code = PURE_SUCCESS;

void on_window_error(PURE_Win* win, int* code, ...) {
  ++handler_calls;
  handler_win = *win;
  handler_code = *code;
}

void on_comm_error(PURE_Comm*, int*, ...) {}

// A window's user error handler gets every error of a call on the window
// (the call then returns the code); it lives while the window uses it,
// after the program freed its handles; pure_win_call_errhandler raises a
// code through it; a communicator's handler cannot be set on a window, nor
// the other way round.
TEST(RmaErrors, UserErrorHandlerOfAWindow) {
  expect_clean_run(3, [](int rank, int) {
    handler_calls = 0;
    int x = 0;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    PURE_Errhandler mine, comm_handler;
    EXPECT_PURE_OK(pure_win_create_errhandler(on_window_error, &mine));
    EXPECT_PURE_OK(pure_comm_create_errhandler(on_comm_error, &comm_handler));
    EXPECT_PURE_OK(pure_win_set_errhandler(win, mine));
    PURE_Errhandler got = PURE_ERRHANDLER_NULL;
    EXPECT_PURE_OK(pure_win_get_errhandler(win, &got));
    EXPECT_EQ(got, mine);
    EXPECT_PURE_OK(pure_errhandler_free(&got));
    EXPECT_PURE_OK(pure_errhandler_free(&mine));  // the window still uses it

    EXPECT_EQ(pure_put(&x, 1, PURE_INT, (rank + 1) % 3, 0, 1, PURE_INT, win), PURE_ERR_RMA_SYNC);
    EXPECT_EQ(handler_calls, 1);
    EXPECT_EQ(handler_win, win);
    EXPECT_EQ(handler_code, PURE_ERR_RMA_SYNC);
    EXPECT_EQ(pure_win_lock(99, 0, 0, win), PURE_ERR_LOCKTYPE);
    EXPECT_EQ(handler_code, PURE_ERR_LOCKTYPE);
    EXPECT_EQ(pure_win_set_errhandler(win, comm_handler), PURE_ERR_ARG);
    EXPECT_EQ(handler_calls, 3);
    EXPECT_PURE_OK(pure_win_call_errhandler(win, PURE_ERR_OTHER));  // the handler was called
    EXPECT_EQ(handler_calls, 4);
    EXPECT_EQ(handler_code, PURE_ERR_OTHER);

    // The window's handler, not the communicator's, decides a window call.
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_get_errhandler(win, nullptr), PURE_ERR_ARG);
    EXPECT_EQ(handler_calls, 5);
    PURE_Errhandler win_handler;
    EXPECT_PURE_OK(pure_win_get_errhandler(win, &win_handler));
    EXPECT_EQ(pure_comm_set_errhandler(W, win_handler), PURE_ERR_ARG);
    EXPECT_EQ(handler_calls, 5);  // a communicator call: W's handler
    EXPECT_PURE_OK(pure_errhandler_free(&win_handler));
    EXPECT_PURE_OK(pure_errhandler_free(&comm_handler));

    EXPECT_PURE_OK(pure_win_set_errhandler(win, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_call_errhandler(win, PURE_ERR_RMA_CONFLICT), PURE_ERR_RMA_CONFLICT);
    EXPECT_EQ(handler_calls, 5);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Under the default handler the same misuses end the job with messages
// that name the bad handler, keyval or code.
TEST(RmaErrors, FatalMessagesOfHandlersAndAttributes) {
  const JobResult kind = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    PURE_Errhandler h;
    pure_comm_create_errhandler(on_comm_error, &h);
    if (rank == 1) pure_win_set_errhandler(win, h);
    pure_win_free(&win);
  });
  EXPECT_EQ(kind.code, PURE_ERR_ARG);
  EXPECT_NE(kind.err.find("rank 1: pure_win_set_errhandler: error handler 0x"), std::string::npos)
      << kind.err;
  EXPECT_NE(kind.err.find("was made by pure_comm_create_errhandler; a window needs one made by "
                          "pure_win_create_errhandler [PURE_ERR_ARG]"),
            std::string::npos)
      << kind.err;

  const JobResult predefined = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    if (rank == 0) pure_win_set_attr(win, PURE_WIN_SIZE, &x);
    pure_win_free(&win);
  });
  EXPECT_EQ(predefined.code, PURE_ERR_KEYVAL);
  EXPECT_NE(predefined.err.find("rank 0: pure_win_set_attr: PURE_WIN_SIZE is a predefined "
                                "attribute: it cannot be set or deleted [PURE_ERR_KEYVAL]"),
            std::string::npos)
      << predefined.err;

  const JobResult raised = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    pure_win_set_name(win, "grid");
    if (rank == 1) pure_win_call_errhandler(win, PURE_ERR_RMA_CONFLICT);
    pure_win_free(&win);
  });
  EXPECT_EQ(raised.code, PURE_ERR_RMA_CONFLICT);
  EXPECT_NE(raised.err.find("rank 1: pure_win_call_errhandler: error code 46 raised on window "
                            "'grid', whose error handler is PURE_ERRORS_ARE_FATAL"),
            std::string::npos)
      << raised.err;

  const JobResult info = run_ranks_capturing(2, [](int rank, int) {
    int x = 0;
    PURE_Win win;
    if (pure_win_create(&x, sizeof x, 1, PURE_INFO_NULL, W, &win) != PURE_SUCCESS) return;
    if (rank == 0) pure_win_set_info(win, PURE_INFO_NULL);
    pure_win_free(&win);
  });
  EXPECT_EQ(info.code, PURE_ERR_INFO);
  EXPECT_NE(info.err.find("rank 0: pure_win_set_info: PURE_INFO_NULL is not a valid info object"),
            std::string::npos)
      << info.err;
}

}  // namespace
}  // namespace pure_testing
