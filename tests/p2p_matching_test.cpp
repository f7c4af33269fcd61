// Point-to-point matching and completion through the flat API, with 2, 4, 8
// and 16 rank threads: every wait/test call, request_free, cancel, probe and
// get_count, non-overtaking order, and all-to-all patterns that must not
// deadlock when the eager queues fill.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Matching : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(, Matching, kRankCounts, rank_count_name);

int right_of(int rank, int size) { return (rank + 1) % size; }
int left_of(int rank, int size) { return (rank + size - 1) % size; }

// ------------------------------------------------------ completion calls

enum class Completion { waitall, waitall_ignore, waitany, waitsome, wait, test, testall, testany, testsome };
const Completion kCompletions[] = {Completion::waitall, Completion::waitall_ignore,
                                   Completion::waitany, Completion::waitsome, Completion::wait,
                                   Completion::test,    Completion::testall,
                                   Completion::testany, Completion::testsome};

TEST_P(Matching, EveryCompletionCallWithNullRequestsInTheArray) {
  constexpr int K = 6;
  constexpr int kSlots = K + 2;  // REQUEST_NULL at index 0 and at index K + 1
  expect_clean_run(n(), [&](int rank, int) {
    const int partner = rank ^ 1;
    int round = 0;
    for (Completion how : kCompletions) {
      SCOPED_TRACE(static_cast<int>(how));
      ++round;
      auto tag_of = [&](int k) { return round * 100 + k; };
      std::vector<std::vector<int>> bufs(kSlots, std::vector<int>(3, -1));
      std::vector<PURE_Request> reqs(kSlots, PURE_REQUEST_NULL);
      for (int k = 0; k < K; ++k)
        EXPECT_PURE_OK(pure_irecv(bufs[static_cast<size_t>(k + 1)].data(), 3, PURE_INT, partner,
                                  tag_of(k), W, &reqs[static_cast<size_t>(k + 1)]));
      // The partner sends the tags in reverse order of our posting.
      for (int k = K - 1; k >= 0; --k) {
        const int msg[3] = {rank, round, k};
        EXPECT_PURE_OK(pure_send(msg, 3, PURE_INT, partner, tag_of(k), W));
      }
      // Which slot completed, with which status; checked below.
      std::vector<int> done(kSlots, 0);
      auto record = [&](int slot, const PURE_Status* st) {
        ASSERT_GE(slot, 1);
        ASSERT_LE(slot, K);
        EXPECT_EQ(reqs[static_cast<size_t>(slot)], PURE_REQUEST_NULL);
        done[static_cast<size_t>(slot)] += 1;
        if (st) expect_status(*st, partner, tag_of(slot - 1), 3 * sizeof(int));
      };
      PURE_Status sts[kSlots];
      int index = -1, flag = 0, outcount = 0;
      PollGuard poll("completion by polling");
      int indices[kSlots];
      switch (how) {
        case Completion::waitall:
          EXPECT_PURE_OK(pure_waitall(kSlots, reqs.data(), sts));
          for (int s = 1; s <= K; ++s) record(s, &sts[s]);
          expect_empty_status(sts[0]);
          expect_empty_status(sts[K + 1]);
          break;
        case Completion::waitall_ignore:
          EXPECT_PURE_OK(pure_waitall(kSlots, reqs.data(), PURE_STATUSES_IGNORE));
          for (int s = 1; s <= K; ++s) record(s, nullptr);
          break;
        case Completion::waitany:
          for (int i = 0; i < K; ++i) {
            EXPECT_PURE_OK(pure_waitany(kSlots, reqs.data(), &index, &sts[0]));
            record(index, &sts[0]);
          }
          EXPECT_PURE_OK(pure_waitany(kSlots, reqs.data(), &index, &sts[0]));
          EXPECT_EQ(index, PURE_UNDEFINED);
          expect_empty_status(sts[0]);
          break;
        case Completion::waitsome:
          for (int got = 0; got < K; got += outcount) {
            EXPECT_PURE_OK(pure_waitsome(kSlots, reqs.data(), &outcount, indices, sts));
            ASSERT_GE(outcount, 1);
            for (int i = 0; i < outcount; ++i) record(indices[i], &sts[i]);
          }
          EXPECT_PURE_OK(pure_waitsome(kSlots, reqs.data(), &outcount, indices, sts));
          EXPECT_EQ(outcount, PURE_UNDEFINED);
          break;
        case Completion::wait:
          for (int s = 0; s < kSlots; ++s) {
            EXPECT_PURE_OK(pure_wait(&reqs[static_cast<size_t>(s)], &sts[s]));
            if (s >= 1 && s <= K) record(s, &sts[s]);
            else expect_empty_status(sts[s]);
          }
          break;
        case Completion::test:
          for (int s = 0; s < kSlots; ++s) {
            do {
              poll();
              EXPECT_PURE_OK(pure_test(&reqs[static_cast<size_t>(s)], &flag, &sts[s]));
            } while (!flag);
            if (s >= 1 && s <= K) record(s, &sts[s]);
            else expect_empty_status(sts[s]);
          }
          break;
        case Completion::testall:
          do {
            poll();
            EXPECT_PURE_OK(pure_testall(kSlots, reqs.data(), &flag, sts));
          } while (!flag);
          for (int s = 1; s <= K; ++s) record(s, &sts[s]);
          break;
        case Completion::testany:
          for (int got = 0; got < K;) {
            poll();
            EXPECT_PURE_OK(pure_testany(kSlots, reqs.data(), &index, &flag, &sts[0]));
            if (!flag) {
              EXPECT_EQ(index, PURE_UNDEFINED);
              continue;
            }
            record(index, &sts[0]);
            ++got;
          }
          EXPECT_PURE_OK(pure_testany(kSlots, reqs.data(), &index, &flag, &sts[0]));
          EXPECT_EQ(flag, 1);
          EXPECT_EQ(index, PURE_UNDEFINED);
          break;
        case Completion::testsome:
          for (int got = 0; got < K; got += outcount) {
            poll();
            EXPECT_PURE_OK(pure_testsome(kSlots, reqs.data(), &outcount, indices, sts));
            ASSERT_GE(outcount, 0);
            for (int i = 0; i < outcount; ++i) record(indices[i], &sts[i]);
          }
          EXPECT_PURE_OK(pure_testsome(kSlots, reqs.data(), &outcount, indices, sts));
          EXPECT_EQ(outcount, PURE_UNDEFINED);
          break;
      }
      for (int s = 1; s <= K; ++s) {
        EXPECT_EQ(done[static_cast<size_t>(s)], 1) << "slot " << s;
        const auto& b = bufs[static_cast<size_t>(s)];
        EXPECT_EQ(b[0], partner);
        EXPECT_EQ(b[1], round);
        EXPECT_EQ(b[2], s - 1);
      }
      for (PURE_Request r : reqs) EXPECT_EQ(r, PURE_REQUEST_NULL);
    }
    // Empty arrays and lone null requests.
    PURE_Request none = PURE_REQUEST_NULL;
    PURE_Status st;
    int flag = 0, index = 0, outcount = 0;
    EXPECT_PURE_OK(pure_waitall(0, nullptr, PURE_STATUSES_IGNORE));
    EXPECT_PURE_OK(pure_testall(0, nullptr, &flag, PURE_STATUSES_IGNORE));
    EXPECT_EQ(flag, 1);
    EXPECT_PURE_OK(pure_waitany(0, nullptr, &index, &st));
    EXPECT_EQ(index, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_waitsome(1, &none, &outcount, &index, PURE_STATUSES_IGNORE));
    EXPECT_EQ(outcount, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_test(&none, &flag, &st));
    EXPECT_EQ(flag, 1);
    expect_empty_status(st);
    EXPECT_PURE_OK(pure_wait(&none, &st));
    expect_empty_status(st);
  });
}

TEST_P(Matching, RequestFreeOnCompletedAndActiveRequests) {
  constexpr std::size_t kBig = 300000;
  // The freed receive's buffer outlives the job: if the runtime matched it
  // later than MPI allows, the check below fails instead of the runtime
  // writing into freed memory.
  std::vector<std::vector<char>> freed_bufs(static_cast<size_t>(n()), std::vector<char>(64));
  expect_clean_run(n(), [&](int rank, int) {
    const int partner = rank ^ 1;
    const auto small = make_payload(64, key_of(rank, 1));
    const auto big = make_payload(kBig, key_of(rank, 2));
    std::vector<char>& in1 = freed_bufs[static_cast<size_t>(rank)];
    std::vector<char> in2(64), bigin(kBig);

    // A completed send request (eager) and an active one (rendezvous).
    PURE_Request req;
    EXPECT_PURE_OK(pure_isend(small.data(), 64, PURE_BYTE, partner, 1, W, &req));
    EXPECT_PURE_OK(pure_request_free(&req));
    EXPECT_EQ(req, PURE_REQUEST_NULL);
    EXPECT_PURE_OK(pure_issend(big.data(), static_cast<int>(kBig), PURE_BYTE, partner, 2, W, &req));
    EXPECT_PURE_OK(pure_request_free(&req));
    EXPECT_EQ(req, PURE_REQUEST_NULL);

    // An active receive, freed; a second receive with the same envelope,
    // posted later, completes only after the first one matched.
    EXPECT_PURE_OK(pure_irecv(in1.data(), 64, PURE_BYTE, partner, 1, W, &req));
    EXPECT_PURE_OK(pure_request_free(&req));
    EXPECT_EQ(req, PURE_REQUEST_NULL);
    EXPECT_PURE_OK(pure_recv(bigin.data(), static_cast<int>(kBig), PURE_BYTE, partner, 2, W,
                             PURE_STATUS_IGNORE));
    EXPECT_TRUE(payload_ok(bigin.data(), kBig, key_of(partner, 2)));
    // The partner's second message on tag 1 follows its big one.
    const auto second = make_payload(64, key_of(rank, 3));
    EXPECT_PURE_OK(pure_send(second.data(), 64, PURE_BYTE, partner, 1, W));
    EXPECT_PURE_OK(pure_recv(in2.data(), 64, PURE_BYTE, partner, 1, W, PURE_STATUS_IGNORE));
    EXPECT_TRUE(payload_ok(in1.data(), 64, key_of(partner, 1))) << "the freed receive";
    EXPECT_TRUE(payload_ok(in2.data(), 64, key_of(partner, 3)));

    // A receive that completed (a later same-envelope receive finished) but
    // was never waited for.
    const auto third = make_payload(64, key_of(rank, 4));
    const auto fourth = make_payload(64, key_of(rank, 5));
    EXPECT_PURE_OK(pure_send(third.data(), 64, PURE_BYTE, partner, 9, W));
    EXPECT_PURE_OK(pure_send(fourth.data(), 64, PURE_BYTE, partner, 9, W));
    EXPECT_PURE_OK(pure_irecv(in1.data(), 64, PURE_BYTE, partner, 9, W, &req));
    EXPECT_PURE_OK(pure_recv(in2.data(), 64, PURE_BYTE, partner, 9, W, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_request_free(&req));
    EXPECT_EQ(req, PURE_REQUEST_NULL);
    EXPECT_TRUE(payload_ok(in1.data(), 64, key_of(partner, 4)));
    EXPECT_TRUE(payload_ok(in2.data(), 64, key_of(partner, 5)));
  });
}

// MPI_Request_free on an active receive: the receive still completes, even
// when its message is sent only after the free and the receiver goes
// straight on to finalize (which must wait for it, not call it pending).
TEST_P(Matching, FreedReceiveCompletesInFinalize) {
  std::vector<std::vector<char>> freed_bufs(static_cast<size_t>(n()), std::vector<char>(64));
  expect_clean_run(n(), [&](int rank, int) {
    const int partner = rank ^ 1;
    PURE_Request req;
    EXPECT_PURE_OK(pure_irecv(freed_bufs[static_cast<size_t>(rank)].data(), 64, PURE_BYTE, partner,
                              20, W, &req));
    EXPECT_PURE_OK(pure_request_free(&req));
    // Only now may the partner send what the freed receive takes.
    EXPECT_PURE_OK(pure_send(nullptr, 0, PURE_BYTE, partner, 21, W));
    EXPECT_PURE_OK(pure_recv(nullptr, 0, PURE_BYTE, partner, 21, W, PURE_STATUS_IGNORE));
    const auto data = make_payload(64, key_of(rank, 20));
    EXPECT_PURE_OK(pure_send(data.data(), 64, PURE_BYTE, partner, 20, W));
  });
  for (int r = 0; r < n(); ++r)
    EXPECT_TRUE(payload_ok(freed_bufs[static_cast<size_t>(r)].data(), 64, key_of(r ^ 1, 20)))
        << "rank " << r << "'s freed receive";
}

TEST_P(Matching, CancelAPendingReceive) {
  expect_clean_run(n(), [&](int rank, int) {
    const int partner = rank ^ 1;
    int buf[4] = {-1, -1, -1, -1};
    PURE_Request req;
    PURE_Status st;
    int flag = -1;
    // Nobody ever sends tag 42.
    EXPECT_PURE_OK(pure_irecv(buf, 4, PURE_INT, partner, 42, W, &req));
    EXPECT_PURE_OK(pure_cancel(&req));
    EXPECT_NE(req, PURE_REQUEST_NULL) << "cancel does not free the request";
    EXPECT_PURE_OK(pure_wait(&req, &st));
    EXPECT_EQ(req, PURE_REQUEST_NULL);
    EXPECT_PURE_OK(pure_test_cancelled(&st, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(buf[0], -1);
    // A wildcard receive, cancelled, completed through test.
    EXPECT_PURE_OK(pure_irecv(buf, 4, PURE_INT, PURE_ANY_SOURCE, 43, W, &req));
    EXPECT_PURE_OK(pure_cancel(&req));
    flag = 0;
    PollGuard poll("pure_test of a cancelled receive");
    while (!flag) {
      poll();
      EXPECT_PURE_OK(pure_test(&req, &flag, &st));
    }
    EXPECT_PURE_OK(pure_test_cancelled(&st, &flag));
    EXPECT_EQ(flag, 1);

    // Cancelling a receive that already matched does nothing: it completes
    // normally. The second, later receive on the same envelope completing
    // proves the first one matched.
    const int msg1[4] = {rank, 1, 2, 3}, msg2[4] = {rank, 4, 5, 6};
    EXPECT_PURE_OK(pure_send(msg1, 4, PURE_INT, partner, 44, W));
    EXPECT_PURE_OK(pure_send(msg2, 4, PURE_INT, partner, 44, W));
    int other[4];
    EXPECT_PURE_OK(pure_irecv(buf, 4, PURE_INT, partner, 44, W, &req));
    EXPECT_PURE_OK(pure_recv(other, 4, PURE_INT, partner, 44, W, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_cancel(&req));
    EXPECT_PURE_OK(pure_wait(&req, &st));
    EXPECT_PURE_OK(pure_test_cancelled(&st, &flag));
    EXPECT_EQ(flag, 0);
    expect_status(st, partner, 44, 4 * sizeof(int));
    EXPECT_EQ(buf[0], partner);
    EXPECT_EQ(buf[3], 3);
    EXPECT_EQ(other[3], 6);
  });
}

// ----------------------------------------------------------- probing

TEST_P(Matching, ProbeIprobeAndGetCount) {
  constexpr int kBigInts = (1 << 20) + 3;
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = right_of(rank, size), left = left_of(rank, size);
    int flag = -1;
    PURE_Status st;
    EXPECT_PURE_OK(pure_iprobe(PURE_ANY_SOURCE, 77, W, &flag, &st));  // tag 77 is never sent
    EXPECT_EQ(flag, 0);

    std::vector<int> small(static_cast<size_t>((rank + 1) * 3), rank);
    std::vector<int> big(kBigInts, rank);
    PURE_Request reqs[2];
    EXPECT_PURE_OK(pure_isend(small.data(), static_cast<int>(small.size()), PURE_INT, right,
                              10 + rank, W, &reqs[0]));
    EXPECT_PURE_OK(pure_isend(big.data(), kBigInts, PURE_INT, right, 20, W, &reqs[1]));

    EXPECT_PURE_OK(pure_probe(PURE_ANY_SOURCE, PURE_ANY_TAG, W, &st));
    EXPECT_EQ(st.MPI_SOURCE, left);
    EXPECT_EQ(st.MPI_TAG, 10 + left);
    const int ints = (left + 1) * 3;
    int count = -1;
    EXPECT_PURE_OK(pure_get_count(&st, PURE_INT, &count));
    EXPECT_EQ(count, ints);
    EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &count));
    EXPECT_EQ(count, ints * 4);
    EXPECT_PURE_OK(pure_get_count(&st, PURE_DOUBLE, &count));
    EXPECT_EQ(count, ints * 4 % 8 == 0 ? ints / 2 : PURE_UNDEFINED);
    // Probing again finds the same message: probe does not receive.
    EXPECT_PURE_OK(pure_probe(left, PURE_ANY_TAG, W, &st));
    EXPECT_EQ(st.MPI_TAG, 10 + left);
    std::vector<int> in(static_cast<size_t>(ints), -1);
    EXPECT_PURE_OK(pure_recv(in.data(), ints, PURE_INT, st.MPI_SOURCE, st.MPI_TAG, W, &st));
    EXPECT_EQ(std::count(in.begin(), in.end(), left), ints);

    flag = 0;
    PollGuard poll("pure_iprobe for a rendezvous message");
    while (!flag) {
      poll();
      EXPECT_PURE_OK(pure_iprobe(left, 20, W, &flag, &st));
    }
    EXPECT_EQ(st.MPI_SOURCE, left);
    EXPECT_EQ(st.MPI_TAG, 20);
    EXPECT_PURE_OK(pure_get_count(&st, PURE_INT, &count));
    EXPECT_EQ(count, kBigInts);
    std::vector<int> bigin(kBigInts, -1);
    EXPECT_PURE_OK(pure_recv(bigin.data(), kBigInts, PURE_INT, left, 20, W, &st));
    EXPECT_EQ(std::count(bigin.begin(), bigin.end(), left), kBigInts);
    EXPECT_PURE_OK(pure_waitall(2, reqs, PURE_STATUSES_IGNORE));

    // A byte count that is not a multiple of the type: PURE_UNDEFINED.
    char ten[10] = {}, got[10];
    EXPECT_PURE_OK(pure_sendrecv(ten, 10, PURE_BYTE, right, 30, got, 10, PURE_BYTE, left, 30, W, &st));
    EXPECT_PURE_OK(pure_get_count(&st, PURE_INT, &count));
    EXPECT_EQ(count, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_get_count(&st, PURE_SHORT, &count));
    EXPECT_EQ(count, 5);
  });
}

// A receiver that only polls must still let senders progress: the sender
// below is stuck on a queue full of messages the receiver has not asked for
// yet, and the message the receiver polls for comes after them (MPI's
// progress rule: a posted receive with a matching send started completes).
TEST_P(Matching, PollingDrainsFullQueues) {
  constexpr int kFill = 5;  // more than the two slots of the queue
  pure::Config config;
  config.queue_slots = 2;
  for (int how = 0; how < 5; ++how) {  // test, testany, testall, testsome, iprobe
    SCOPED_TRACE("method " + std::to_string(how));
    expect_clean_run(n(), [&](int rank, int) {
      const int partner = rank ^ 1;
      if (rank % 2 == 1) {
        for (int k = 0; k < kFill; ++k) EXPECT_PURE_OK(pure_send(&k, 1, PURE_INT, partner, 1, W));
        const int last = 77;
        EXPECT_PURE_OK(pure_send(&last, 1, PURE_INT, partner, 2, W));
        return;
      }
      int v = -1, flag = 0, index = -1, outcount = 0;
      PURE_Request req = PURE_REQUEST_NULL;
      PURE_Status st;
      if (how < 4) {
        EXPECT_PURE_OK(pure_irecv(&v, 1, PURE_INT, partner, 2, W, &req));
      }
      PollGuard poll("polling for a message behind a full queue", 20);
      while (!flag) {
        poll();
        switch (how) {
          case 0: EXPECT_PURE_OK(pure_test(&req, &flag, &st)); break;
          case 1: EXPECT_PURE_OK(pure_testany(1, &req, &index, &flag, &st)); break;
          case 2: EXPECT_PURE_OK(pure_testall(1, &req, &flag, &st)); break;
          case 3:
            EXPECT_PURE_OK(pure_testsome(1, &req, &outcount, &index, &st));
            flag = outcount > 0;
            break;
          default: EXPECT_PURE_OK(pure_iprobe(partner, 2, W, &flag, &st)); break;
        }
      }
      if (how == 4) {
        EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, partner, 2, W, &st));
      }
      EXPECT_EQ(v, 77);
      EXPECT_EQ(st.MPI_TAG, 2);
      for (int k = 0; k < kFill; ++k) {
        EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, partner, 1, W, PURE_STATUS_IGNORE));
        EXPECT_EQ(v, k);
      }
    }, config);
  }
}

// Messages consumed out of order (tag matching) leave the oldest slot of the
// ring occupied; a sender that then finds the ring full must still get
// through, both to another rank and to itself: the waiting receiver has to
// recognise the ring as full and drain it.
TEST_P(Matching, OutOfOrderConsumptionThenAFullRing) {
  pure::Config config;
  config.queue_slots = 4;
  config.deadlock_timeout_s = 2;  // fail fast if nobody drains
  expect_clean_run(n(), [&](int rank, int) {
    for (int peer : {rank, rank ^ 1}) {
      const bool self = peer == rank;
      const bool sends = self || rank % 2 == 0;
      const bool receives = self || rank % 2 == 1;
      const int base = self ? 0 : 100;
      if (sends) {
        // Four messages fill the ring; the receiver takes the last three.
        for (int t = 1; t <= 4; ++t) EXPECT_PURE_OK(pure_send(&t, 1, PURE_INT, peer, base + t, W));
      }
      int v = -1;
      if (receives) {
        for (int t = 4; t >= 2; --t) {
          EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, peer, base + t, W, PURE_STATUS_IGNORE));
          EXPECT_EQ(v, t);
        }
      }
      if (sends) {
        // Tag 1 still holds the oldest slot: these find the ring full.
        // Sending to ourselves, we drain our own ring while we wait.
        for (int t = 5; t <= 8; ++t) EXPECT_PURE_OK(pure_send(&t, 1, PURE_INT, peer, base + t, W));
      }
      if (receives) {
        for (int t : {5, 1, 6, 7, 8}) {
          EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, peer, base + t, W, PURE_STATUS_IGNORE));
          EXPECT_EQ(v, t);
        }
      }
    }
  }, config);
}

// A message matches the earliest posted receive it fits, even when it
// arrives while the runtime is part-way through the posted receives. The
// receiver posts its receives before telling the sender to go, so the
// messages race with its progress loop; many rounds make the race likely.
TEST_P(Matching, PostedReceivesMatchInPostingOrder) {
  constexpr int kRounds = 150;
  constexpr int kGo = 99;
  expect_clean_run(n(), [&](int rank, int) {
    const int partner = rank ^ 1;
    int failures = 0;  // reported once; the protocol goes on so nobody hangs
    for (int round = 0; round < kRounds; ++round) {
      const bool wildcard = round % 2 == 0;
      if (rank % 2 == 1) {
        EXPECT_PURE_OK(pure_recv(nullptr, 0, PURE_INT, partner, kGo, W, PURE_STATUS_IGNORE));
        for (int k = 0; k < 3; ++k) EXPECT_PURE_OK(pure_send(&k, 1, PURE_INT, partner, k, W));
        continue;
      }
      int v[3] = {-1, -1, -1};
      PURE_Request reqs[3];
      for (int k = 0; k < 3; ++k) {
        EXPECT_PURE_OK(pure_irecv(&v[k], 1, PURE_INT, wildcard ? PURE_ANY_SOURCE : partner,
                                  PURE_ANY_TAG, W, &reqs[k]));
      }
      EXPECT_PURE_OK(pure_send(nullptr, 0, PURE_INT, partner, kGo, W));
      EXPECT_PURE_OK(pure_waitall(3, reqs, PURE_STATUSES_IGNORE));
      if ((v[0] != 0 || v[1] != 1 || v[2] != 2) && failures++ == 0) {
        ADD_FAILURE() << "round " << round << (wildcard ? " (ANY_SOURCE)" : " (one source)")
                      << ": receives posted in order got " << v[0] << " " << v[1] << " " << v[2];
      }
    }
    if (failures > 1) ADD_FAILURE() << failures << " of " << kRounds / 2 << " rounds out of order";
  });
}

// Blocking sends that find the ring full wait for room; each message must
// still be delivered exactly once.
TEST_P(Matching, BlockingSendsIntoAFullRingArriveOnce) {
  constexpr int M = 300;
  pure::Config config;
  config.queue_slots = 2;
  expect_clean_run(n(), [&](int rank, int size) {
    for (int k = 0; k < M; ++k) EXPECT_PURE_OK(pure_send(&k, 1, PURE_INT, right_of(rank, size), 3, W));
    int failures = 0;
    for (int k = 0; k < M; ++k) {
      int v = -1;
      EXPECT_PURE_OK(pure_recv(&v, 1, PURE_INT, left_of(rank, size), 3, W, PURE_STATUS_IGNORE));
      if (v != k && failures++ == 0) ADD_FAILURE() << "message " << k << " of the stream is " << v;
    }
  }, config);
}

// ------------------------------------------------------------- ordering

// Messages from one sender with one tag arrive in the order sent, whatever
// the receiver does in between and however full the queue gets.
TEST_P(Matching, NonOvertaking) {
  constexpr int M = 40;
  for (const Tuning& tuning : kTunings) {
    SCOPED_TRACE(tuning.name);
    const std::size_t big = tuning.eager_limit + 100;  // rendezvous
    auto size_of = [&](int seq) { return seq % 3 == 1 ? big : static_cast<std::size_t>(8 + seq); };
    expect_clean_run(n(), [&](int rank, int size) {
      SCOPED_TRACE(tuning.name);  // per thread: rank failures name the tuning
      const int partner = rank ^ 1;
      std::vector<char> in(big);
      auto check_next = [&](int from, int seq, const PURE_Status& st) {
        const std::size_t s = size_of(seq);
        EXPECT_EQ(st.MPI_SOURCE, from);
        int count = -1;
        pure_get_count(&st, PURE_BYTE, &count);
        EXPECT_EQ(count, static_cast<int>(s)) << "message " << seq << " overtaken";
        EXPECT_TRUE(payload_ok(in.data(), s, key_of(from, rank, seq))) << "message " << seq;
      };
      // Phase A: even ranks send (eager and rendezvous mixed, non-blocking),
      // odd ranks first post a receive for the tag sent last.
      for (int sender_parity = 0; sender_parity < 2; ++sender_parity) {
        if (rank % 2 == sender_parity) {
          std::vector<std::vector<char>> outs;
          std::vector<PURE_Request> reqs(M + 1);
          for (int seq = 0; seq < M; ++seq) {
            outs.push_back(make_payload(size_of(seq), key_of(rank, partner, seq)));
            EXPECT_PURE_OK(pure_isend(outs.back().data(), static_cast<int>(outs.back().size()),
                                      PURE_BYTE, partner, 1, W, &reqs[static_cast<size_t>(seq)]));
          }
          const int last = -7;
          EXPECT_PURE_OK(pure_isend(&last, 1, PURE_INT, partner, 2, W, &reqs[M]));
          EXPECT_PURE_OK(pure_waitall(M + 1, reqs.data(), PURE_STATUSES_IGNORE));
        } else {
          int last = 0;
          PURE_Request lreq;
          EXPECT_PURE_OK(pure_irecv(&last, 1, PURE_INT, partner, 2, W, &lreq));
          for (int seq = 0; seq < M; ++seq) {
            PURE_Status st;
            EXPECT_PURE_OK(pure_recv(in.data(), static_cast<int>(big), PURE_BYTE, partner, 1, W, &st));
            check_next(partner, seq, st);
          }
          EXPECT_PURE_OK(pure_wait(&lreq, PURE_STATUS_IGNORE));
          EXPECT_EQ(last, -7);
        }
      }
      // Phase B: the receiver blocks on the message sent last while the
      // sender fills the queue with blocking eager sends; the receiver must
      // drain the full queue so the sender can finish.
      for (int sender_parity = 0; sender_parity < 2; ++sender_parity) {
        if (rank % 2 == sender_parity) {
          for (int seq = 0; seq < M; ++seq) {
            const auto out = make_payload(8 + static_cast<std::size_t>(seq), key_of(rank, partner, 1000 + seq));
            EXPECT_PURE_OK(pure_send(out.data(), static_cast<int>(out.size()), PURE_BYTE, partner, 3, W));
          }
          EXPECT_PURE_OK(pure_send(nullptr, 0, PURE_BYTE, partner, 4, W));
        } else {
          EXPECT_PURE_OK(pure_recv(nullptr, 0, PURE_BYTE, partner, 4, W, PURE_STATUS_IGNORE));
          for (int seq = 0; seq < M; ++seq) {
            PURE_Status st;
            EXPECT_PURE_OK(pure_recv(in.data(), static_cast<int>(big), PURE_BYTE, partner, 3, W, &st));
            int count = -1;
            pure_get_count(&st, PURE_BYTE, &count);
            EXPECT_EQ(count, 8 + seq);
            EXPECT_TRUE(payload_ok(in.data(), 8 + static_cast<std::size_t>(seq),
                                   key_of(partner, rank, 1000 + seq)));
          }
        }
      }
      // Phase C: everyone sends M messages around the ring before receiving.
      const int right = right_of(rank, size), left = left_of(rank, size);
      for (int seq = 0; seq < M; ++seq) {
        const auto out = make_payload(16, key_of(rank, right, 2000 + seq));
        EXPECT_PURE_OK(pure_send(out.data(), 16, PURE_BYTE, right, 5, W));
      }
      for (int seq = 0; seq < M; ++seq) {
        EXPECT_PURE_OK(pure_recv(in.data(), 16, PURE_BYTE, left, 5, W, PURE_STATUS_IGNORE));
        EXPECT_TRUE(payload_ok(in.data(), 16, key_of(left, rank, 2000 + seq))) << "message " << seq;
      }
    }, config_of(tuning));
  }
}

// Every rank sends many small messages to every rank before receiving any:
// blocking sends must not deadlock, because waiting ranks drain full queues.
TEST_P(Matching, AllToAllBeforeReceiving) {
  constexpr int K = 24;
  for (const Tuning& tuning : kTunings) {
    SCOPED_TRACE(tuning.name);
    for (int any_source = 0; any_source < 2; ++any_source) {
      expect_clean_run(n(), [&](int rank, int size) {
        SCOPED_TRACE(tuning.name);  // per thread: rank failures name the tuning
        auto bytes_of = [](int src, int dst, int k) {
          return static_cast<std::size_t>(key_of(src, dst, k) % 200);
        };
        for (int k = 0; k < K; ++k) {
          for (int step = 0; step < size; ++step) {
            const int d = (rank + step) % size;  // self included
            const auto out = make_payload(bytes_of(rank, d, k), key_of(rank, d, k, 1));
            EXPECT_PURE_OK(pure_send(out.data(), static_cast<int>(out.size()), PURE_BYTE, d, 6, W));
          }
        }
        std::vector<char> in(256);
        std::vector<int> next(static_cast<size_t>(size), 0);
        for (int m = 0; m < K * size; ++m) {
          const int want_source = any_source ? PURE_ANY_SOURCE : (rank + size - m % size) % size;
          PURE_Status st;
          EXPECT_PURE_OK(pure_recv(in.data(), 256, PURE_BYTE, want_source, 6, W, &st));
          const int s = st.MPI_SOURCE;
          ASSERT_TRUE(s >= 0 && s < size) << s;
          const int k = next[static_cast<size_t>(s)]++;
          int count = -1;
          pure_get_count(&st, PURE_BYTE, &count);
          EXPECT_EQ(count, static_cast<int>(bytes_of(s, rank, k))) << "from " << s << " #" << k;
          EXPECT_TRUE(payload_ok(in.data(), bytes_of(s, rank, k), key_of(s, rank, k, 1)));
        }
        for (int s = 0; s < size; ++s) EXPECT_EQ(next[static_cast<size_t>(s)], K);
      }, config_of(tuning));
    }
  }
}

}  // namespace
}  // namespace pure_testing
