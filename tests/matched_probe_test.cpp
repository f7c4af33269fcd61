// Matched probes (mprobe, improbe, mrecv, imrecv) and cancelled sends
// through the flat API, at 2 to 16 rank threads: a probed message is out of
// matching (no probe or receive sees it again, earlier posted receives keep
// theirs), order per sender holds, sizes on both sides of the eager limit,
// every byte checked; a send cancelled before a receive claimed it never
// arrives, one that was not is received exactly once, also when the cancel
// races with the receive; bad arguments with their error classes.
#include <string>
#include <vector>

#include "harness.h"
#include "job/rank.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class MatchedProbe : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, MatchedProbe, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

int right_of(int rank, int size) { return (rank + 1) % size; }
int left_of(int rank, int size) { return (rank + size - 1) % size; }

// The size of message k from `from` to `to`: eager and rendezvous mixed.
std::size_t size_of(int from, int to, int k) {
  const std::uint64_t h = key_of(from, to, k, 3);
  return h % 4 == 0 ? 20000 + h % 5000 : h % 300;
}

// Every rank sends K messages to every other; each receiver takes them all
// by matched probes of any source and any tag, receiving them alternately
// with mrecv and imrecv. Per sender they arrive in order, each once.
TEST_P(MatchedProbe, EveryMessageOnceAndInOrder) {
  constexpr int K = 6;
  for (const Tuning& tuning : kTunings) {
    SCOPED_TRACE(tuning.name);
    expect_clean_run(n(), [&](int me, int size) {
      std::vector<std::vector<char>> out;
      std::vector<PURE_Request> sends;
      for (int k = 0; k < K; ++k)
        for (int step = 1; step < size; ++step) {
          const int to = (me + step) % size;
          out.push_back(make_payload(size_of(me, to, k), key_of(me, to, k)));
          sends.emplace_back();
          EXPECT_PURE_OK(pure_isend(out.back().data(), static_cast<int>(out.back().size()),
                                    PURE_BYTE, to, 100 + k, W, &sends.back()));
        }
      std::vector<int> next(static_cast<std::size_t>(size), 0);
      for (int m = 0; m < K * (size - 1); ++m) {
        PURE_Message msg = PURE_MESSAGE_NULL;
        PURE_Status st;
        if (m % 3 == 2) {
          int flag = 0;
          PollGuard poll("pure_improbe");
          while (!flag) {
            poll();
            EXPECT_PURE_OK(pure_improbe(PURE_ANY_SOURCE, PURE_ANY_TAG, W, &flag, &msg, &st));
          }
        } else {
          EXPECT_PURE_OK(pure_mprobe(PURE_ANY_SOURCE, PURE_ANY_TAG, W, &msg, &st));
        }
        ASSERT_NE(msg, PURE_MESSAGE_NULL);
        const int from = st.MPI_SOURCE;
        ASSERT_TRUE(from >= 0 && from < size && from != me) << from;
        const int k = next[static_cast<std::size_t>(from)]++;
        EXPECT_EQ(st.MPI_TAG, 100 + k) << "from " << from << ": out of order";
        const std::size_t bytes = size_of(from, me, k);
        int count = -1;
        EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
        EXPECT_EQ(count, static_cast<int>(bytes));
        std::vector<char> in(bytes + 8);
        PURE_Status got;
        if (m % 2) {
          EXPECT_PURE_OK(pure_mrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &msg, &got));
        } else {
          PURE_Request r;
          EXPECT_PURE_OK(pure_imrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &msg, &r));
          EXPECT_PURE_OK(pure_wait(&r, &got));
        }
        EXPECT_EQ(msg, PURE_MESSAGE_NULL);
        expect_status(got, from, 100 + k, bytes);
        EXPECT_TRUE(payload_ok(in.data(), bytes, key_of(from, me, k))) << "from " << from << " #" << k;
      }
      for (int s = 0; s < size; ++s)
        EXPECT_EQ(next[static_cast<std::size_t>(s)], s == me ? 0 : K);
      EXPECT_PURE_OK(pure_waitall(static_cast<int>(sends.size()), sends.data(), PURE_STATUSES_IGNORE));
    }, config_of(tuning));
  }
}

// A probed message leaves matching: probes and receives see the next one.
// A receive posted before the message arrived owns it: a matched probe
// skips it.
TEST_P(MatchedProbe, ProbedMessageLeavesMatchingPostedReceivesKeepTheirs) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    for (std::size_t big : {std::size_t{40}, std::size_t{30000}}) {
      SCOPED_TRACE(big);
      // The receive for the first message is posted before anything is sent.
      std::vector<char> first(big);
      PURE_Request posted;
      EXPECT_PURE_OK(pure_irecv(first.data(), static_cast<int>(big), PURE_BYTE, left, 5, W, &posted));
      EXPECT_PURE_OK(pure_barrier(W));
      std::vector<std::vector<char>> out;
      PURE_Request sends[4];
      for (int k = 0; k < 4; ++k) {
        out.push_back(make_payload(big + static_cast<std::size_t>(k), key_of(me, k, big)));
        EXPECT_PURE_OK(pure_isend(out.back().data(), static_cast<int>(out.back().size()), PURE_BYTE,
                                  right, 5, W, &sends[k]));
      }
      // Message 0 is the posted receive's; the probe takes message 1.
      PURE_Message m1;
      PURE_Status st;
      EXPECT_PURE_OK(pure_mprobe(left, 5, W, &m1, &st));
      expect_status(st, left, 5, big + 1);
      // Probes and receives now see message 2.
      int flag = 0;
      PollGuard poll("pure_iprobe");
      while (!flag) {
        poll();
        EXPECT_PURE_OK(pure_iprobe(left, 5, W, &flag, &st));
      }
      expect_status(st, left, 5, big + 2);
      std::vector<char> third(big + 2);
      EXPECT_PURE_OK(pure_recv(third.data(), static_cast<int>(third.size()), PURE_BYTE, left, 5, W, &st));
      EXPECT_TRUE(payload_ok(third.data(), big + 2, key_of(left, 2, big)));
      PURE_Message m3;
      EXPECT_PURE_OK(pure_mprobe(PURE_ANY_SOURCE, 5, W, &m3, &st));
      expect_status(st, left, 5, big + 3);
      // Received in any order.
      std::vector<char> fourth(big + 3), second(big + 1);
      EXPECT_PURE_OK(pure_mrecv(fourth.data(), static_cast<int>(fourth.size()), PURE_BYTE, &m3, &st));
      EXPECT_PURE_OK(pure_mrecv(second.data(), static_cast<int>(second.size()), PURE_BYTE, &m1, &st));
      EXPECT_PURE_OK(pure_wait(&posted, &st));
      expect_status(st, left, 5, big);
      EXPECT_TRUE(payload_ok(first.data(), big, key_of(left, 0, big)));
      EXPECT_TRUE(payload_ok(second.data(), big + 1, key_of(left, 1, big)));
      EXPECT_TRUE(payload_ok(fourth.data(), big + 3, key_of(left, 3, big)));
      EXPECT_PURE_OK(pure_waitall(4, sends, PURE_STATUSES_IGNORE));
      flag = 1;
      EXPECT_PURE_OK(pure_iprobe(PURE_ANY_SOURCE, 5, W, &flag, &st));
      EXPECT_EQ(flag, 0) << "every message was received once";
      EXPECT_PURE_OK(pure_barrier(W));
    }
  });
}

// Nothing to probe: flag 0 and PURE_MESSAGE_NULL. PURE_PROC_NULL: the
// message PURE_MESSAGE_NO_PROC, received at once with its status. A
// message too long for the buffer: PURE_ERR_TRUNCATE, the message gone.
TEST_P(MatchedProbe, EmptyProcNullAndTruncated) {
  expect_clean_run(n(), [&](int me, int size) {
    PURE_Message m = 12345;
    PURE_Status st;
    int flag = 1;
    EXPECT_PURE_OK(pure_improbe(PURE_ANY_SOURCE, 77, W, &flag, &m, &st));
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(m, PURE_MESSAGE_NULL);
    EXPECT_PURE_OK(pure_improbe(PURE_PROC_NULL, 77, W, &flag, &m, &st));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(m, PURE_MESSAGE_NO_PROC);
    expect_proc_null_status(st);
    int x = 4;
    EXPECT_PURE_OK(pure_mrecv(&x, 1, PURE_INT, &m, &st));
    EXPECT_EQ(m, PURE_MESSAGE_NULL);
    expect_proc_null_status(st);
    EXPECT_PURE_OK(pure_mprobe(PURE_PROC_NULL, PURE_ANY_TAG, W, &m, &st));
    PURE_Request r;
    EXPECT_PURE_OK(pure_imrecv(&x, 1, PURE_INT, &m, &r));
    EXPECT_PURE_OK(pure_wait(&r, &st));
    expect_proc_null_status(st);
    EXPECT_EQ(x, 4);

    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    const int right = right_of(me, size), left = left_of(me, size);
    for (std::size_t bytes : {std::size_t{64}, std::size_t{50000}}) {
      // Tags of their own per size: the left neighbour may be a size ahead.
      const int tag = bytes == 64 ? 8 : 10;
      std::vector<char> out = make_payload(bytes, key_of(me, bytes)), in(bytes / 2);
      EXPECT_PURE_OK(pure_isend(out.data(), static_cast<int>(bytes), PURE_BYTE, right, tag, W, &r));
      EXPECT_PURE_OK(pure_mprobe(left, tag, W, &m, &st));
      EXPECT_EQ(pure_mrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &m, &st),
                PURE_ERR_TRUNCATE);
      EXPECT_EQ(m, PURE_MESSAGE_NULL);
      EXPECT_TRUE(payload_ok(in.data(), in.size(), key_of(left, bytes)));
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
      EXPECT_PURE_OK(pure_iprobe(left, tag, W, &flag, &st));
      EXPECT_EQ(flag, 0);
      // The same through imrecv (another tag: the probe above must not see
      // it): the request reports it.
      EXPECT_PURE_OK(pure_isend(out.data(), static_cast<int>(bytes), PURE_BYTE, right, tag + 1, W, &r));
      EXPECT_PURE_OK(pure_mprobe(left, tag + 1, W, &m, &st));
      PURE_Request got;
      EXPECT_PURE_OK(pure_imrecv(in.data(), static_cast<int>(in.size()), PURE_BYTE, &m, &got));
      EXPECT_EQ(pure_wait(&got, &st), PURE_ERR_TRUNCATE);
      EXPECT_PURE_OK(pure_wait(&r, PURE_STATUS_IGNORE));
    }
  });
}

// ---- cancelling sends ----

// Sends nobody has received yet -- synchronous, rendezvous, and one still
// queued for room -- are cancelled: they complete cancelled and never
// arrive; an eager send already in its queue completed when it went in, so
// cancelling it does nothing and it arrives. The messages after the
// cancelled ones arrive in order.
TEST_P(MatchedProbe, CancelledSendsNeverArrive) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    int small = me, big_tag = 2;
    std::vector<char> big = make_payload(30000, key_of(me, 1));
    PURE_Request q[3];
    EXPECT_PURE_OK(pure_issend(&small, 1, PURE_INT, right, 1, W, &q[0]));
    EXPECT_PURE_OK(pure_isend(big.data(), 30000, PURE_BYTE, right, big_tag, W, &q[1]));
    const int eager = me + 100;
    EXPECT_PURE_OK(pure_isend(&eager, 1, PURE_INT, right, 3, W, &q[2]));
    PURE_Status st[3];
    for (PURE_Request& r : q) EXPECT_PURE_OK(pure_cancel(&r));
    EXPECT_PURE_OK(pure_waitall(3, q, st));
    int flags[3];
    for (int i = 0; i < 3; ++i) EXPECT_PURE_OK(pure_test_cancelled(&st[i], &flags[i]));
    EXPECT_EQ(flags[0], 1) << "an unmatched synchronous send";
    EXPECT_EQ(flags[1], 1) << "an unmatched rendezvous send";
    EXPECT_EQ(flags[2], 0) << "an eager send completes when it is queued";
    // The cancelled ones are no messages: a probe skips them.
    EXPECT_PURE_OK(pure_barrier(W));
    int flag = 1;
    PURE_Status pst;
    EXPECT_PURE_OK(pure_iprobe(left, 1, W, &flag, &pst));
    EXPECT_EQ(flag, 0);
    EXPECT_PURE_OK(pure_iprobe(left, big_tag, W, &flag, &pst));
    EXPECT_EQ(flag, 0);
    int got = -1;
    EXPECT_PURE_OK(pure_recv(&got, 1, PURE_INT, left, 3, W, PURE_STATUS_IGNORE));
    EXPECT_EQ(got, left + 100);
    // Everyone has probed before anyone sends again.
    EXPECT_PURE_OK(pure_barrier(W));
    // New messages on the same envelopes are received, not the old ones.
    std::vector<char> big2 = make_payload(30000, key_of(me, 2)), in(30000);
    const int small2 = me + 7;
    EXPECT_PURE_OK(pure_isend(&small2, 1, PURE_INT, right, 1, W, &q[0]));
    EXPECT_PURE_OK(pure_isend(big2.data(), 30000, PURE_BYTE, right, big_tag, W, &q[1]));
    EXPECT_PURE_OK(pure_recv(&got, 1, PURE_INT, left, 1, W, PURE_STATUS_IGNORE));
    EXPECT_EQ(got, left + 7);
    EXPECT_PURE_OK(pure_recv(in.data(), 30000, PURE_BYTE, PURE_ANY_SOURCE, big_tag, W, PURE_STATUS_IGNORE));
    EXPECT_TRUE(payload_ok(in.data(), 30000, key_of(left, 2)));
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
  });
}

// A send queued for room (the queue to its receiver is full) is cancelled
// if it is still queued; whichever way it went, the receiver gets exactly
// the messages that were not cancelled, in order.
TEST_P(MatchedProbe, CancelQueuedSends) {
  pure::Config two_slots;
  two_slots.queue_slots = 2;
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    constexpr int K = 8;
    int values[K];
    PURE_Request q[K];
    for (int k = 0; k < K; ++k) {
      values[k] = me * 100 + k;
      EXPECT_PURE_OK(pure_isend(&values[k], 1, PURE_INT, right, 4, W, &q[k]));
    }
    for (int k = 1; k < K; k += 2) EXPECT_PURE_OK(pure_cancel(&q[k]));
    PURE_Status st[K];
    EXPECT_PURE_OK(pure_waitall(K, q, st));
    int cancelled[K];
    for (int k = 0; k < K; ++k) {
      EXPECT_PURE_OK(pure_test_cancelled(&st[k], &cancelled[k]));
      if (k % 2 == 0) {
        EXPECT_EQ(cancelled[k], 0);
      }
    }
    // Tell the receiver which ones went.
    int theirs[K];
    EXPECT_PURE_OK(pure_sendrecv(cancelled, K, PURE_INT, right, 5, theirs, K, PURE_INT, left, 5, W,
                                 PURE_STATUS_IGNORE));
    for (int k = 0; k < K; ++k) {
      if (theirs[k]) continue;
      int got = -1;
      EXPECT_PURE_OK(pure_recv(&got, 1, PURE_INT, left, 4, W, PURE_STATUS_IGNORE));
      EXPECT_EQ(got, left * 100 + k);
    }
    int flag = 1;
    PURE_Status pst;
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_iprobe(left, 4, W, &flag, &pst));
    EXPECT_EQ(flag, 0) << "a cancelled send arrived";
  }, two_slots);
}

// A rendezvous send queued for room and cancelled was never announced: its
// request goes back to the pool when freed, not to the list of requests
// waiting for a receiver to hand their descriptor back (where it would stay
// for good). Cancelled announced ones return once their receiver discards
// them. Either way none is left once every receiver has looked past them.
TEST_P(MatchedProbe, CancelledRendezvousSendsReturnTheirRequests) {
  pure::Config two_slots;
  two_slots.queue_slots = 2;
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    constexpr int K = 4;
    constexpr int kBytes = 30000;  // rendezvous
    std::vector<std::vector<char>> out;
    for (int k = 0; k < K; ++k) out.push_back(make_payload(kBytes, key_of(me, k)));
    EXPECT_PURE_OK(pure_barrier(W));
    PURE_Request q[K];
    // Two fill the queue to `right` (two slots); the last two wait for room.
    for (int k = 0; k < K; ++k)
      EXPECT_PURE_OK(pure_isend(out[k].data(), kBytes, PURE_BYTE, right, 6, W, &q[k]));
    for (int k = 2; k < K; ++k) {
      EXPECT_PURE_OK(pure_cancel(&q[k]));
      PURE_Status st;
      EXPECT_PURE_OK(pure_wait(&q[k], &st));
      int cancelled = 0;
      EXPECT_PURE_OK(pure_test_cancelled(&st, &cancelled));
      EXPECT_EQ(cancelled, 1) << "send " << k << " was not matched";
    }
    std::vector<char> in(kBytes);
    for (int k = 0; k < 2; ++k) {
      EXPECT_PURE_OK(pure_recv(in.data(), kBytes, PURE_BYTE, left, 6, W, PURE_STATUS_IGNORE));
      EXPECT_TRUE(payload_ok(in.data(), kBytes, key_of(left, k))) << "message " << k;
    }
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    EXPECT_PURE_OK(pure_barrier(W));  // every send of this test is done
    int flag = 1;
    EXPECT_PURE_OK(pure_iprobe(left, 6, W, &flag, PURE_STATUS_IGNORE));
    EXPECT_EQ(flag, 0) << "a cancelled send arrived";
    EXPECT_PURE_OK(pure_barrier(W));  // every rank has probed before anyone sends again
    // A message on the same envelope behind them: the receive that takes it
    // meets every cancelled announcement on the way and hands it back.
    const int after = me;
    int got = -1;
    EXPECT_PURE_OK(pure_sendrecv(&after, 1, PURE_INT, right, 6, &got, 1, PURE_INT, left, 6, W,
                                 PURE_STATUS_IGNORE));
    EXPECT_EQ(got, left);
    EXPECT_PURE_OK(pure_barrier(W));  // every receiver has looked past them
    EXPECT_PURE_OK(pure_iprobe(left, 6, W, &flag, PURE_STATUS_IGNORE));  // progress
    EXPECT_EQ(pure::Rank::current()->p2p().unreturned_requests(), 0u) << "rank " << me;
  }, two_slots);
}

// A cancel racing with the receive of the same message: exactly one wins.
// Whichever did, the receiver's view agrees with the sender's, and a send
// cancelled and freed without a wait is handed back cleanly.
TEST_P(MatchedProbe, CancelRacesWithTheReceive) {
  expect_clean_run(n(), [&](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    std::vector<char> out(20000), in(20000);
    for (int round = 0; round < 40; ++round) {
      fill_payload(out.data(), out.size(), key_of(me, round));
      std::fill(in.begin(), in.end(), 0);
      const bool sync = round % 2;
      const int bytes = sync ? 16 : 20000;
      PURE_Request recv, send;
      EXPECT_PURE_OK(pure_irecv(in.data(), bytes, PURE_BYTE, left, 6, W, &recv));
      if (sync) {
        EXPECT_PURE_OK(pure_issend(out.data(), bytes, PURE_BYTE, right, 6, W, &send));
      } else {
        EXPECT_PURE_OK(pure_isend(out.data(), bytes, PURE_BYTE, right, 6, W, &send));
      }
      EXPECT_PURE_OK(pure_cancel(&send));
      int cancelled = 0;
      if (round % 4 == 3) {
        // Freed without a wait: the outcome is not known here, so the
        // receiver learns nothing and cancels its receive if it can.
        EXPECT_PURE_OK(pure_request_free(&send));
        cancelled = -1;
      } else {
        PURE_Status st;
        EXPECT_PURE_OK(pure_wait(&send, &st));
        EXPECT_PURE_OK(pure_test_cancelled(&st, &cancelled));
      }
      int theirs = -2;
      EXPECT_PURE_OK(pure_sendrecv(&cancelled, 1, PURE_INT, right, 7, &theirs, 1, PURE_INT, left, 7,
                                   W, PURE_STATUS_IGNORE));
      if (theirs != 0) {
        EXPECT_PURE_OK(pure_cancel(&recv));
      }
      PURE_Status rst;
      EXPECT_PURE_OK(pure_wait(&recv, &rst));
      int recv_cancelled = -1;
      EXPECT_PURE_OK(pure_test_cancelled(&rst, &recv_cancelled));
      if (theirs == 1) {
        EXPECT_EQ(recv_cancelled, 1) << "round " << round << ": a cancelled send arrived";
      } else if (theirs == 0) {
        EXPECT_EQ(recv_cancelled, 0) << "round " << round;
      }
      if (!recv_cancelled) {
        EXPECT_TRUE(payload_ok(in.data(), static_cast<std::size_t>(bytes), key_of(left, round)))
            << "round " << round;
      }
      // The sender's buffer is rewritten next round: a freed send must be
      // done with it, cancelled or received, before then.
      EXPECT_PURE_OK(pure_barrier(W));
    }
  });
}

// ---- bad arguments ----

TEST(MatchedProbeErrors, BadArgumentsReturnTheirClass) {
  expect_clean_run(2, [&](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    PURE_Message m = PURE_MESSAGE_NULL;
    PURE_Status st;
    int x = me;
    EXPECT_EQ(pure_mprobe(5, 0, W, &m, &st), PURE_ERR_RANK);
    EXPECT_EQ(pure_mprobe(0, -4, W, &m, &st), PURE_ERR_TAG);
    EXPECT_EQ(pure_mprobe(0, 0, PURE_COMM_NULL, &m, &st), PURE_ERR_COMM);
    EXPECT_EQ(pure_mprobe(0, 0, W, nullptr, &st), PURE_ERR_ARG);
    EXPECT_EQ(pure_improbe(0, 0, W, nullptr, &m, &st), PURE_ERR_ARG);
    EXPECT_EQ(pure_mrecv(&x, 1, PURE_INT, nullptr, &st), PURE_ERR_ARG);
    m = PURE_MESSAGE_NULL;
    EXPECT_EQ(pure_mrecv(&x, 1, PURE_INT, &m, &st), PURE_ERR_REQUEST);
    PURE_Request r;
    EXPECT_EQ(pure_imrecv(&x, 1, PURE_INT, &m, &r), PURE_ERR_REQUEST);
    m = PURE_HANDLE_KIND_MESSAGE | 0x77;  // never issued
    EXPECT_EQ(pure_mrecv(&x, 1, PURE_INT, &m, &st), PURE_ERR_REQUEST);
    // A message handle is good for one receive; bad receive arguments leave it.
    EXPECT_PURE_OK(pure_send(&x, 1, PURE_INT, 1 - me, 9, W));
    EXPECT_PURE_OK(pure_mprobe(1 - me, 9, W, &m, &st));
    EXPECT_EQ(pure_mrecv(&x, -1, PURE_INT, &m, &st), PURE_ERR_COUNT);
    EXPECT_EQ(pure_mrecv(&x, 1, PURE_DATATYPE_NULL, &m, &st), PURE_ERR_TYPE);
    EXPECT_EQ(pure_imrecv(&x, 1, PURE_INT, &m, nullptr), PURE_ERR_REQUEST);
    const PURE_Message used = m;
    EXPECT_PURE_OK(pure_mrecv(&x, 1, PURE_INT, &m, &st));
    EXPECT_EQ(x, 1 - me);
    PURE_Message again = used;
    EXPECT_EQ(pure_mrecv(&x, 1, PURE_INT, &again, &st), PURE_ERR_REQUEST);
  });
}

TEST(MatchedProbeErrors, ReceivingAUsedMessageIsFatalAndNamed) {
  const JobResult res = run_ranks_capturing(2, [&](int me, int) {
    int x = me;
    PURE_Message m;
    EXPECT_PURE_OK(pure_send(&x, 1, PURE_INT, 1 - me, 0, W));
    EXPECT_PURE_OK(pure_mprobe(1 - me, 0, W, &m, PURE_STATUS_IGNORE));
    const PURE_Message kept = m;
    EXPECT_PURE_OK(pure_mrecv(&x, 1, PURE_INT, &m, PURE_STATUS_IGNORE));
    m = kept;
    pure_mrecv(&x, 1, PURE_INT, &m, PURE_STATUS_IGNORE);
  });
  EXPECT_NE(res.code, 0);
  EXPECT_NE(res.err.find("pure_mrecv"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("PURE_ERR_REQUEST"), std::string::npos) << res.err;
}

}  // namespace
}  // namespace pure_testing
