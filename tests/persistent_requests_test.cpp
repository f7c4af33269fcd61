// Persistent sends and receives, pure_request_get_status, isendrecv and
// generalized requests through the flat API, at 2 to 16 rank threads:
// every *_init call restarted many times with every byte checked, inactive
// requests in every completion call, freeing active and inactive ones,
// requests of every kind in one array, callbacks of generalized requests
// in MPI's order (completed from threads that are no rank), and bad
// arguments with their error classes.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Persistent : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, Persistent, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

int right_of(int rank, int size) { return (rank + 1) % size; }
int left_of(int rank, int size) { return (rank + size - 1) % size; }

// Sizes on both sides of the eager limit.
constexpr int kSizes[] = {0, 24, 3000, 40000};

// Every send mode around the ring, restarted round after round from the
// same buffers, whose contents change between rounds: each start sends
// what the buffer holds then.
TEST_P(Persistent, EveryModeRestartedRoundAfterRound) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    std::vector<char> attached(1 << 20);
    EXPECT_PURE_OK(pure_buffer_attach(attached.data(), static_cast<int>(attached.size())));
    constexpr int kModes = 4;  // standard, buffered, synchronous, ready
    for (int bytes : kSizes) {
      SCOPED_TRACE(bytes);
      std::vector<std::vector<char>> out(kModes, std::vector<char>(static_cast<std::size_t>(bytes)));
      std::vector<std::vector<char>> in(kModes, std::vector<char>(static_cast<std::size_t>(bytes)));
      PURE_Request sends[kModes], recvs[kModes];
      EXPECT_PURE_OK(pure_send_init(out[0].data(), bytes, PURE_BYTE, right, 0, W, &sends[0]));
      EXPECT_PURE_OK(pure_bsend_init(out[1].data(), bytes, PURE_BYTE, right, 1, W, &sends[1]));
      EXPECT_PURE_OK(pure_ssend_init(out[2].data(), bytes, PURE_BYTE, right, 2, W, &sends[2]));
      EXPECT_PURE_OK(pure_rsend_init(out[3].data(), bytes, PURE_BYTE, right, 3, W, &sends[3]));
      for (int m = 0; m < kModes; ++m)
        EXPECT_PURE_OK(pure_recv_init(in[static_cast<std::size_t>(m)].data(), bytes, PURE_BYTE,
                                      m % 2 ? PURE_ANY_SOURCE : left, m, W, &recvs[m]));
      for (int round = 0; round < 6; ++round) {
        for (int m = 0; m < kModes; ++m) {
          fill_payload(out[static_cast<std::size_t>(m)].data(), static_cast<std::size_t>(bytes),
                       key_of(me, m, round));
          std::fill(in[static_cast<std::size_t>(m)].begin(), in[static_cast<std::size_t>(m)].end(), 0);
        }
        EXPECT_PURE_OK(pure_startall(kModes, recvs));
        // A ready send needs its receive posted: the barrier says it is.
        EXPECT_PURE_OK(pure_barrier(W));
        // Started one by one and all at once, alternately.
        if (round % 2) {
          EXPECT_PURE_OK(pure_startall(kModes, sends));
        } else {
          for (PURE_Request& s : sends) EXPECT_PURE_OK(pure_start(&s));
        }
        PURE_Status st[kModes];
        EXPECT_PURE_OK(pure_waitall(kModes, recvs, st));
        EXPECT_PURE_OK(pure_waitall(kModes, sends, PURE_STATUSES_IGNORE));
        for (int m = 0; m < kModes; ++m) {
          EXPECT_NE(recvs[m], PURE_REQUEST_NULL) << "a wait freed persistent receive " << m;
          EXPECT_NE(sends[m], PURE_REQUEST_NULL) << "a wait freed persistent send " << m;
          expect_status(st[m], left, m, static_cast<std::size_t>(bytes));
          EXPECT_TRUE(payload_ok(in[static_cast<std::size_t>(m)].data(),
                                 static_cast<std::size_t>(bytes), key_of(left, m, round)))
              << "mode " << m << " round " << round;
        }
      }
      for (int m = 0; m < kModes; ++m) {
        EXPECT_PURE_OK(pure_request_free(&sends[m]));
        EXPECT_PURE_OK(pure_request_free(&recvs[m]));
        EXPECT_EQ(sends[m], PURE_REQUEST_NULL);
      }
    }
    void* back = nullptr;
    int back_size = 0;
    EXPECT_PURE_OK(pure_buffer_detach(&back, &back_size));
  });
}

// An inactive persistent request completes at once with an empty status in
// wait, test, waitall and testall, and counts as a null handle in the
// any/some calls; the handle stays valid throughout.
TEST_P(Persistent, InactiveRequestsInEveryCompletionCall) {
  expect_clean_run(n(), [&](int me, int size) {
    int value = me, got = -1;
    PURE_Request q[2];
    EXPECT_PURE_OK(pure_send_init(&value, 1, PURE_INT, right_of(me, size), 5, W, &q[0]));
    EXPECT_PURE_OK(pure_recv_init(&got, 1, PURE_INT, left_of(me, size), 5, W, &q[1]));
    const PURE_Request kept[2] = {q[0], q[1]};
    PURE_Status st;
    st.MPI_SOURCE = 77;
    EXPECT_PURE_OK(pure_wait(&q[1], &st));
    expect_empty_status(st);
    int flag = 0;
    EXPECT_PURE_OK(pure_test(&q[1], &flag, &st));
    EXPECT_EQ(flag, 1);
    expect_empty_status(st);
    PURE_Status sts[2];
    EXPECT_PURE_OK(pure_waitall(2, q, sts));
    expect_empty_status(sts[0]);
    expect_empty_status(sts[1]);
    flag = 0;
    EXPECT_PURE_OK(pure_testall(2, q, &flag, sts));
    EXPECT_EQ(flag, 1);
    int index = -5;
    EXPECT_PURE_OK(pure_waitany(2, q, &index, &st));
    EXPECT_EQ(index, PURE_UNDEFINED);
    flag = 0;
    EXPECT_PURE_OK(pure_testany(2, q, &index, &flag, &st));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(index, PURE_UNDEFINED);
    int outcount = -5, indices[2];
    EXPECT_PURE_OK(pure_waitsome(2, q, &outcount, indices, sts));
    EXPECT_EQ(outcount, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_testsome(2, q, &outcount, indices, sts));
    EXPECT_EQ(outcount, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_request_get_status(q[0], &flag, &st));
    EXPECT_EQ(flag, 1);
    expect_empty_status(st);
    EXPECT_EQ(q[0], kept[0]);
    EXPECT_EQ(q[1], kept[1]);

    // Started, then found by waitany; after that it is inactive again and
    // waitany skips it.
    EXPECT_PURE_OK(pure_startall(2, q));
    int done = 0;
    while (done < 2) {
      EXPECT_PURE_OK(pure_waitany(2, q, &index, &st));
      ASSERT_TRUE(index == 0 || index == 1) << index;
      if (index == 1) {
        EXPECT_EQ(st.MPI_SOURCE, left_of(me, size));
      }
      ++done;
    }
    EXPECT_PURE_OK(pure_waitany(2, q, &index, &st));
    EXPECT_EQ(index, PURE_UNDEFINED);
    EXPECT_EQ(got, left_of(me, size));
    // Freeing an inactive request ends it; its handle is stale from then on.
    PURE_Request stale = q[0];
    EXPECT_PURE_OK(pure_request_free(&q[0]));
    EXPECT_PURE_OK(pure_request_free(&q[1]));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_start(&stale), PURE_ERR_REQUEST);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));
  });
}

// PURE_PROC_NULL: a persistent send or receive to or from it completes at
// every start, the receive with the status of PURE_PROC_NULL.
TEST_P(Persistent, ProcNull) {
  expect_clean_run(n(), [&](int, int) {
    int x = 3;
    PURE_Request q[2];
    EXPECT_PURE_OK(pure_send_init(&x, 1, PURE_INT, PURE_PROC_NULL, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_recv_init(&x, 1, PURE_INT, PURE_PROC_NULL, 0, W, &q[1]));
    for (int round = 0; round < 3; ++round) {
      EXPECT_PURE_OK(pure_startall(2, q));
      PURE_Status st[2];
      EXPECT_PURE_OK(pure_waitall(2, q, st));
      expect_proc_null_status(st[1]);
    }
    EXPECT_EQ(x, 3);
    EXPECT_PURE_OK(pure_request_free(&q[0]));
    EXPECT_PURE_OK(pure_request_free(&q[1]));
  });
}

// Freed while active: the transfer still happens (MPI lets the program free
// an active request; it completes on its own).
TEST_P(Persistent, FreedWhileActiveStillCompletes) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    std::vector<char> out = make_payload(20000, key_of(me, 9));
    std::vector<char> in(20000);
    PURE_Request send, recv;
    EXPECT_PURE_OK(pure_send_init(out.data(), 20000, PURE_BYTE, right, 9, W, &send));
    EXPECT_PURE_OK(pure_start(&send));
    EXPECT_PURE_OK(pure_request_free(&send));
    EXPECT_EQ(send, PURE_REQUEST_NULL);
    EXPECT_PURE_OK(pure_recv(in.data(), 20000, PURE_BYTE, left, 9, W, PURE_STATUS_IGNORE));
    EXPECT_TRUE(payload_ok(in.data(), 20000, key_of(left, 9)));
    // A persistent receive freed while active still takes its message; the
    // barrier orders the send after the free.
    int got = -1;
    EXPECT_PURE_OK(pure_recv_init(&got, 1, PURE_INT, left, 10, W, &recv));
    EXPECT_PURE_OK(pure_start(&recv));
    EXPECT_PURE_OK(pure_request_free(&recv));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_send(&me, 1, PURE_INT, right, 10, W));
    // A later message on the same envelope goes to the next receive.
    const int second = me + 1000;
    EXPECT_PURE_OK(pure_send(&second, 1, PURE_INT, right, 10, W));
    int next = -1;
    EXPECT_PURE_OK(pure_recv(&next, 1, PURE_INT, left, 10, W, PURE_STATUS_IGNORE));
    EXPECT_EQ(next, left + 1000);
    // The freed receive was posted first, so it took the first message
    // before the second could match anything.
    EXPECT_EQ(got, left);
  });
}

// pure_request_get_status reports completion without finishing the request:
// the handle stays, and a later wait returns the same status.
TEST_P(Persistent, RequestGetStatusLeavesTheRequest) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    int got = -1;
    PURE_Request recv;
    EXPECT_PURE_OK(pure_irecv(&got, 1, PURE_INT, left, 11, W, &recv));
    int flag = 1;
    PURE_Status st;
    EXPECT_PURE_OK(pure_request_get_status(recv, &flag, &st));
    EXPECT_EQ(flag, 0) << "nothing was sent yet";
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_send(&me, 1, PURE_INT, right, 11, W));
    PollGuard poll("pure_request_get_status");
    for (flag = 0; !flag;) {
      poll();
      EXPECT_PURE_OK(pure_request_get_status(recv, &flag, &st));
    }
    EXPECT_NE(recv, PURE_REQUEST_NULL);
    expect_status(st, left, 11, sizeof(int));
    EXPECT_PURE_OK(pure_request_get_status(recv, &flag, &st));  // again: still there
    EXPECT_EQ(flag, 1);
    PURE_Status st2;
    EXPECT_PURE_OK(pure_wait(&recv, &st2));
    expect_status(st2, left, 11, sizeof(int));
    EXPECT_EQ(got, left);
    EXPECT_PURE_OK(pure_request_get_status(PURE_REQUEST_NULL, &flag, &st));
    EXPECT_EQ(flag, 1);
    expect_empty_status(st);
  });
}

// isendrecv and isendrecv_replace around the ring in both directions, large
// and small, several in flight, completed in reverse order.
TEST_P(Persistent, IsendrecvAndReplace) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    for (int bytes : kSizes) {
      SCOPED_TRACE(bytes);
      const std::size_t b = static_cast<std::size_t>(bytes);
      std::vector<char> out = make_payload(b, key_of(me, 1, bytes)), in(b);
      std::vector<char> rep = make_payload(b, key_of(me, 2, bytes));
      PURE_Request q[3];
      EXPECT_PURE_OK(pure_isendrecv(out.data(), bytes, PURE_BYTE, right, 20, in.data(), bytes,
                                    PURE_BYTE, left, 20, W, &q[0]));
      EXPECT_PURE_OK(pure_isendrecv_replace(rep.data(), bytes, PURE_BYTE, left, 21, right, 21, W,
                                            &q[1]));
      int nothing = 5;
      EXPECT_PURE_OK(pure_isendrecv(&nothing, 1, PURE_INT, PURE_PROC_NULL, 0, &nothing, 1,
                                    PURE_INT, PURE_PROC_NULL, 0, W, &q[2]));
      PURE_Status st;
      for (int i = 2; i >= 0; --i) {
        EXPECT_PURE_OK(pure_wait(&q[i], &st));
        if (i == 2) expect_proc_null_status(st);
        if (i == 1) expect_status(st, right, 21, b);
        if (i == 0) expect_status(st, left, 20, b);
      }
      EXPECT_EQ(nothing, 5);
      EXPECT_TRUE(payload_ok(in.data(), b, key_of(left, 1, bytes)));
      EXPECT_TRUE(payload_ok(rep.data(), b, key_of(right, 2, bytes)));
    }
  });
}

// ---- generalized requests ----

// What the callbacks of one generalized request saw, in order.
struct Greq {
  std::atomic<int> queries{0}, frees{0}, cancels{0};
  std::atomic<int> cancel_complete{-1};
  std::string log;  // written by the callbacks, which MPI runs on the owner
  int source = 0;
  int query_error = PURE_SUCCESS;
  bool cancelled = false;
};

int greq_query(void* extra, PURE_Status* status) {
  auto* g = static_cast<Greq*>(extra);
  g->queries.fetch_add(1);
  g->log += "q";
  status->MPI_SOURCE = g->source;
  status->MPI_TAG = 4242;
  pure_status_set_elements(status, PURE_INT, 3);
  pure_status_set_cancelled(status, g->cancelled);
  return g->query_error;
}
int greq_free(void* extra) {
  auto* g = static_cast<Greq*>(extra);
  g->frees.fetch_add(1);
  g->log += "f";
  return PURE_SUCCESS;
}
int greq_cancel(void* extra, int complete) {
  auto* g = static_cast<Greq*>(extra);
  g->cancels.fetch_add(1);
  g->cancel_complete.store(complete);
  g->cancelled = !complete;
  return PURE_SUCCESS;
}

// Completed from another thread while the rank waits on it together with
// point-to-point requests: query_fn then free_fn, once each, and the status
// query_fn filled.
TEST_P(Persistent, GeneralizedCompletedFromAnotherThread) {
  expect_clean_run(n(), [&](int me, int size) {
    Greq g;
    g.source = me * 10;
    PURE_Request q[3];
    EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &q[0]));
    int flag = 1;
    EXPECT_PURE_OK(pure_test(&q[0], &flag, PURE_STATUS_IGNORE));
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(g.queries.load(), 0);
    int got = -1;
    EXPECT_PURE_OK(pure_irecv(&got, 1, PURE_INT, left_of(me, size), 30, W, &q[1]));
    EXPECT_PURE_OK(pure_isend(&me, 1, PURE_INT, right_of(me, size), 30, W, &q[2]));
    const PURE_Request handle = q[0];
    std::thread helper([handle] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      EXPECT_EQ(pure_grequest_complete(handle), PURE_SUCCESS);
    });
    PURE_Status st[3];
    EXPECT_PURE_OK(pure_waitall(3, q, st));
    helper.join();
    EXPECT_EQ(g.log, "qf");
    EXPECT_EQ(st[0].MPI_SOURCE, me * 10);
    EXPECT_EQ(st[0].MPI_TAG, 4242);
    int count = -1;
    EXPECT_PURE_OK(pure_get_count(&st[0], PURE_INT, &count));
    EXPECT_EQ(count, 3);
    EXPECT_EQ(q[0], PURE_REQUEST_NULL);
    EXPECT_EQ(got, left_of(me, size));
    EXPECT_EQ(g.cancels.load(), 0);
  });
}

// MPI's orders: request_get_status calls query_fn and keeps the request;
// cancel calls cancel_fn with whether it completed; freed before it
// completes, free_fn runs at pure_grequest_complete (and no query_fn);
// freed after, at pure_request_free.
TEST(Generalized, CallbacksInMpisOrder) {
  expect_clean_run(2, [&](int, int) {
    {
      Greq g;
      PURE_Request r;
      EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &r));
      EXPECT_PURE_OK(pure_cancel(&r));
      EXPECT_EQ(g.cancel_complete.load(), 0);
      EXPECT_PURE_OK(pure_grequest_complete(r));
      int flag = 0;
      PURE_Status st;
      EXPECT_PURE_OK(pure_request_get_status(r, &flag, &st));
      EXPECT_EQ(flag, 1);
      EXPECT_EQ(g.log, "q");
      EXPECT_NE(r, PURE_REQUEST_NULL);
      EXPECT_PURE_OK(pure_test(&r, &flag, &st));
      EXPECT_EQ(flag, 1);
      EXPECT_EQ(g.log, "qqf");
      int cancelled = 0;
      EXPECT_PURE_OK(pure_test_cancelled(&st, &cancelled));
      EXPECT_EQ(cancelled, 1) << "query_fn said so after cancel_fn";
    }
    {
      Greq g;
      PURE_Request r;
      EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &r));
      const PURE_Request handle = r;
      EXPECT_PURE_OK(pure_request_free(&r));
      EXPECT_EQ(r, PURE_REQUEST_NULL);
      EXPECT_EQ(g.frees.load(), 0) << "free_fn waits for the completion";
      std::thread([handle] { EXPECT_EQ(pure_grequest_complete(handle), PURE_SUCCESS); }).join();
      EXPECT_EQ(g.log, "f");
      EXPECT_PURE_OK(pure_barrier(W));  // the rank's progress returns the request to its pool
    }
    {
      Greq g;
      PURE_Request r;
      EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &r));
      EXPECT_PURE_OK(pure_grequest_complete(r));
      EXPECT_PURE_OK(pure_cancel(&r));
      EXPECT_EQ(g.cancel_complete.load(), 1);
      EXPECT_PURE_OK(pure_request_free(&r));
      EXPECT_EQ(g.log, "f");
    }
  });
}

// An error from query_fn is the wait's; with a statuses array in waitall,
// PURE_ERR_IN_STATUS and the error in the request's MPI_ERROR.
TEST(Generalized, QueryErrorIsReported) {
  expect_clean_run(2, [&](int, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    Greq g;
    g.query_error = PURE_ERR_OTHER;
    PURE_Request q[2];
    EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &q[0]));
    EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &q[1]));
    EXPECT_PURE_OK(pure_grequest_complete(q[0]));
    EXPECT_PURE_OK(pure_grequest_complete(q[1]));
    PURE_Status st[2];
    EXPECT_EQ(pure_waitall(2, q, st), PURE_ERR_IN_STATUS);
    EXPECT_EQ(st[0].MPI_ERROR, PURE_ERR_OTHER);
    EXPECT_EQ(g.frees.load(), 2);
    PURE_Request r;
    EXPECT_PURE_OK(pure_grequest_start(greq_query, greq_free, greq_cancel, &g, &r));
    EXPECT_PURE_OK(pure_grequest_complete(r));
    EXPECT_EQ(pure_wait(&r, PURE_STATUS_IGNORE), PURE_ERR_OTHER);
  });
}

// ---- bad arguments: each returns MPI's class and, fatal, names the value ----

TEST(PersistentErrors, BadArgumentsReturnTheirClass) {
  expect_clean_run(2, [&](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    int x = 0;
    PURE_Request r = PURE_REQUEST_NULL;
    EXPECT_EQ(pure_send_init(&x, 1, PURE_INT, 5, 0, W, &r), PURE_ERR_RANK);
    EXPECT_EQ(pure_ssend_init(&x, 1, PURE_INT, 1 - me, -3, W, &r), PURE_ERR_TAG);
    EXPECT_EQ(pure_rsend_init(&x, -1, PURE_INT, 1 - me, 0, W, &r), PURE_ERR_COUNT);
    EXPECT_EQ(pure_bsend_init(&x, 1, PURE_DATATYPE_NULL, 1 - me, 0, W, &r), PURE_ERR_TYPE);
    EXPECT_EQ(pure_recv_init(&x, 1, PURE_INT, 7, 0, W, &r), PURE_ERR_RANK);
    EXPECT_EQ(pure_recv_init(&x, 1, PURE_INT, 0, 0, PURE_COMM_NULL, &r), PURE_ERR_COMM);
    EXPECT_EQ(pure_send_init(&x, 1, PURE_INT, 0, 0, W, nullptr), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_start(nullptr), PURE_ERR_REQUEST);
    PURE_Request none = PURE_REQUEST_NULL;
    EXPECT_EQ(pure_start(&none), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_startall(-1, &none), PURE_ERR_COUNT);
    EXPECT_EQ(pure_startall(1, &none), PURE_ERR_REQUEST);
    // Only persistent, inactive requests start.
    EXPECT_PURE_OK(pure_irecv(&x, 1, PURE_INT, 1 - me, 1, W, &r));
    EXPECT_EQ(pure_start(&r), PURE_ERR_REQUEST);
    PURE_Request p;
    EXPECT_PURE_OK(pure_send_init(&me, 1, PURE_INT, 1 - me, 1, W, &p));
    EXPECT_PURE_OK(pure_start(&p));
    EXPECT_EQ(pure_start(&p), PURE_ERR_REQUEST);  // active already
    PURE_Request both[2] = {p, r};
    EXPECT_EQ(pure_startall(2, both), PURE_ERR_REQUEST);
    EXPECT_PURE_OK(pure_wait(&p, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_request_free(&p));
    // A buffered send with no buffer attached fails at the start.
    EXPECT_PURE_OK(pure_bsend_init(&x, 1, PURE_INT, 1 - me, 2, W, &p));
    EXPECT_EQ(pure_start(&p), PURE_ERR_BUFFER);
    EXPECT_PURE_OK(pure_request_free(&p));
    EXPECT_EQ(pure_request_get_status(PURE_REQUEST_NULL, nullptr, PURE_STATUS_IGNORE), PURE_ERR_ARG);
    EXPECT_EQ(pure_isendrecv(&x, 1, PURE_INT, 9, 0, &x, 1, PURE_INT, 0, 0, W, &r), PURE_ERR_RANK);
    EXPECT_EQ(pure_isendrecv_replace(&x, 1, PURE_INT, 0, 0, 0, -2, W, &r), PURE_ERR_TAG);
    EXPECT_EQ(pure_isendrecv_replace(&x, 1, PURE_INT, 0, 0, 0, 0, W, nullptr), PURE_ERR_REQUEST);
    EXPECT_EQ(pure_grequest_start(nullptr, greq_free, greq_cancel, nullptr, &r), PURE_ERR_ARG);
    EXPECT_EQ(pure_grequest_complete(PURE_REQUEST_NULL), PURE_ERR_REQUEST);
    EXPECT_PURE_OK(pure_irecv(&x, 1, PURE_INT, 1 - me, 3, W, &r));
    EXPECT_EQ(pure_grequest_complete(r), PURE_ERR_REQUEST);  // not a generalized request
    EXPECT_PURE_OK(pure_cancel(&r));
    EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    EXPECT_EQ(pure_status_set_cancelled(nullptr, 1), PURE_ERR_ARG);
    PURE_Status st;
    EXPECT_EQ(pure_status_set_elements(&st, PURE_INT, -1), PURE_ERR_COUNT);
  });
}

TEST(PersistentErrors, StartingAnActiveRequestIsFatalAndNamed) {
  const JobResult res = run_ranks_capturing(2, [&](int me, int) {
    int x = me;
    PURE_Request p;
    EXPECT_PURE_OK(pure_recv_init(&x, 1, PURE_INT, 1 - me, 0, W, &p));
    EXPECT_PURE_OK(pure_start(&p));
    pure_start(&p);
  });
  EXPECT_NE(res.code, 0);
  EXPECT_NE(res.err.find("pure_start: request is active"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("PURE_ERR_REQUEST"), std::string::npos) << res.err;
}

}  // namespace
}  // namespace pure_testing
