// Partitioned communication (MPI-4: pure_psend_init, pure_precv_init,
// pure_pready*, pure_parrived) between rank threads, at 2 to 16 ranks:
// every byte of every round checked, partitions seen arriving one by one,
// the two sides cutting the message differently, derived datatypes, inits
// matched in the order they were called, a receiver that matches while it
// blocks elsewhere, PURE_PROC_NULL, requests never started, and misuse
// with its error class.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Partitioned : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};
INSTANTIATE_TEST_SUITE_P(, Partitioned, pure_testing::rank_sweep({2, 3, 4, 8, 16}),
                         rank_count_name);

int right_of(int rank, int size) { return (rank + 1) % size; }
int left_of(int rank, int size) { return (rank + size - 1) % size; }

// The value element i of `rank`'s message holds in `round`.
int value_of(int rank, int round, int i) { return rank * 1000003 + round * 7919 + i; }

// Around the ring, round after round from the same buffers: the sender
// cuts 12 partitions, the receiver `recv_parts`. The sender marks its
// partitions in a different order every round (one by one, by list, by
// range), and the receiver checks each of its partitions as soon as
// pure_parrived says it came. Odd rounds start the receive after the
// sender marked everything (the receiver copies), even rounds before (the
// sender copies as it marks).
void ring_rounds(int me, int size, int recv_parts) {
  constexpr int kSendParts = 12, kPer = 500, kTotal = kSendParts * kPer;
  const int right = right_of(me, size), left = left_of(me, size);
  const int recv_per = kTotal / recv_parts;
  std::vector<int> out(kTotal), in(kTotal);
  PURE_Request send, recv;
  EXPECT_PURE_OK(pure_psend_init(out.data(), kSendParts, kPer, PURE_INT, right, 5, W,
                                 PURE_INFO_NULL, &send));
  EXPECT_PURE_OK(pure_precv_init(in.data(), recv_parts, recv_per, PURE_INT, left, 5, W,
                                 PURE_INFO_NULL, &recv));
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    for (int i = 0; i < kTotal; ++i) out[static_cast<std::size_t>(i)] = value_of(me, round, i);
    std::fill(in.begin(), in.end(), -1);
    auto mark = [&] {
      if (round % 3 == 0) {
        for (int p = kSendParts - 1; p >= 0; --p) EXPECT_PURE_OK(pure_pready(p, send));
      } else if (round % 3 == 1) {
        std::vector<int> list(kSendParts);
        std::iota(list.begin(), list.end(), 0);
        std::rotate(list.begin(), list.begin() + 5, list.end());
        EXPECT_PURE_OK(pure_pready_list(kSendParts, list.data(), send));
      } else {
        EXPECT_PURE_OK(pure_pready_range(6, kSendParts - 1, send));
        EXPECT_PURE_OK(pure_pready_range(0, 5, send));
      }
    };
    if (round % 2) {
      EXPECT_PURE_OK(pure_start(&send));
      mark();
      EXPECT_PURE_OK(pure_barrier(W));
      EXPECT_PURE_OK(pure_start(&recv));
    } else {
      EXPECT_PURE_OK(pure_start(&recv));
      EXPECT_PURE_OK(pure_barrier(W));
      EXPECT_PURE_OK(pure_start(&send));
      mark();
    }
    // Each receive partition, checked as it arrives, in reverse order.
    for (int p = recv_parts - 1; p >= 0; --p) {
      int flag = 0;
      while (!flag) EXPECT_PURE_OK(pure_parrived(recv, p, &flag));
      for (int i = p * recv_per; i < (p + 1) * recv_per; ++i)
        ASSERT_EQ(in[static_cast<std::size_t>(i)], value_of(left, round, i)) << "element " << i;
    }
    PURE_Status st;
    EXPECT_PURE_OK(pure_wait(&recv, &st));
    EXPECT_EQ(st.MPI_SOURCE, left);
    EXPECT_EQ(st.MPI_TAG, 5);
    int count = -1;
    EXPECT_PURE_OK(pure_get_count(&st, PURE_INT, &count));
    EXPECT_EQ(count, kTotal);
    EXPECT_PURE_OK(pure_wait(&send, PURE_STATUS_IGNORE));
    // Inactive again: pure_parrived says arrived, a wait returns at once.
    int flag = 0;
    EXPECT_PURE_OK(pure_parrived(recv, 0, &flag));
    EXPECT_EQ(flag, 1);
  }
  EXPECT_PURE_OK(pure_request_free(&send));
  EXPECT_PURE_OK(pure_request_free(&recv));
  EXPECT_EQ(send, PURE_REQUEST_NULL);
}

TEST_P(Partitioned, RingRoundsSamePartitions) {
  expect_clean_run(n(), [](int me, int size) { ring_rounds(me, size, 12); });
}
TEST_P(Partitioned, RingRoundsFewerReceivePartitions) {
  expect_clean_run(n(), [](int me, int size) { ring_rounds(me, size, 4); });
}
TEST_P(Partitioned, RingRoundsMoreReceivePartitions) {
  expect_clean_run(n(), [](int me, int size) { ring_rounds(me, size, 24); });
}

// A strided sender (every other int of a wider array, by a vector type)
// into a contiguous receive of different partitions; nothing between the
// strided elements is read or written.
TEST_P(Partitioned, DerivedDatatypes) {
  expect_clean_run(n(), [](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    PURE_Datatype every_other;
    EXPECT_PURE_OK(pure_type_vector(10, 1, 2, PURE_INT, &every_other));
    PURE_Datatype strided;  // 10 ints, one extent of 20
    EXPECT_PURE_OK(pure_type_create_resized(every_other, 0, 20 * sizeof(int), &strided));
    EXPECT_PURE_OK(pure_type_commit(&strided));
    std::vector<int> out(6 * 20), in(60, -1);
    for (int i = 0; i < 120; ++i) out[static_cast<std::size_t>(i)] = value_of(me, 0, i);
    PURE_Request send, recv;
    // 3 partitions of 2 strided elements; 5 partitions of 12 ints.
    EXPECT_PURE_OK(pure_psend_init(out.data(), 3, 2, strided, right, 0, W, PURE_INFO_NULL, &send));
    EXPECT_PURE_OK(pure_precv_init(in.data(), 5, 12, PURE_INT, left, 0, W, PURE_INFO_NULL, &recv));
    EXPECT_PURE_OK(pure_type_free(&strided));  // in use: kept until the requests go
    EXPECT_PURE_OK(pure_type_free(&every_other));
    EXPECT_PURE_OK(pure_start(&recv));
    EXPECT_PURE_OK(pure_start(&send));
    EXPECT_PURE_OK(pure_pready_range(0, 2, send));
    PURE_Request both[2] = {send, recv};
    EXPECT_PURE_OK(pure_waitall(2, both, PURE_STATUSES_IGNORE));
    for (int k = 0; k < 60; ++k)
      ASSERT_EQ(in[static_cast<std::size_t>(k)], value_of(left, 0, 2 * k)) << "element " << k;
    EXPECT_PURE_OK(pure_request_free(&both[0]));
    EXPECT_PURE_OK(pure_request_free(&both[1]));
  });
}

// Inits match per source, tag and communicator in the order they were
// called: two pairs with one tag pair up first with first; a third with
// another tag, initialised first on one side and last on the other, still
// finds its own.
TEST_P(Partitioned, InitsMatchInTheOrderTheyWereCalled) {
  expect_clean_run(n(), [](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    int out[3][4], in[3][4];
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 4; ++i) out[k][i] = value_of(me, k, i), in[k][i] = -1;
    PURE_Request s[3], r[3];
    EXPECT_PURE_OK(pure_psend_init(out[2], 2, 2, PURE_INT, right, 9, W, PURE_INFO_NULL, &s[2]));
    EXPECT_PURE_OK(pure_psend_init(out[0], 2, 2, PURE_INT, right, 1, W, PURE_INFO_NULL, &s[0]));
    EXPECT_PURE_OK(pure_psend_init(out[1], 2, 2, PURE_INT, right, 1, W, PURE_INFO_NULL, &s[1]));
    EXPECT_PURE_OK(pure_precv_init(in[0], 1, 4, PURE_INT, left, 1, W, PURE_INFO_NULL, &r[0]));
    EXPECT_PURE_OK(pure_precv_init(in[1], 4, 1, PURE_INT, left, 1, W, PURE_INFO_NULL, &r[1]));
    EXPECT_PURE_OK(pure_precv_init(in[2], 2, 2, PURE_INT, left, 9, W, PURE_INFO_NULL, &r[2]));
    EXPECT_PURE_OK(pure_startall(3, r));
    EXPECT_PURE_OK(pure_startall(3, s));
    for (int k = 0; k < 3; ++k) EXPECT_PURE_OK(pure_pready_range(0, 1, s[k]));
    EXPECT_PURE_OK(pure_waitall(3, r, PURE_STATUSES_IGNORE));
    EXPECT_PURE_OK(pure_waitall(3, s, PURE_STATUSES_IGNORE));
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 4; ++i) EXPECT_EQ(in[k][i], value_of(left, k, i)) << k << " " << i;
    for (int k = 0; k < 3; ++k) {
      EXPECT_PURE_OK(pure_request_free(&s[k]));
      EXPECT_PURE_OK(pure_request_free(&r[k]));
    }
  });
}

// The receiver starts before its sender even made its request, then blocks
// in barriers: its rank's progress takes the channel, so that the sender's
// wait (between the receiver's two barriers) ends.
TEST_P(Partitioned, ReceiverMatchesWhileItBlocksElsewhere) {
  expect_clean_run(n(), [](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    std::vector<double> out(4096), in(4096, -1.0);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = value_of(me, 1, static_cast<int>(i));
    PURE_Request recv, send;
    EXPECT_PURE_OK(pure_precv_init(in.data(), 2, 2048, PURE_DOUBLE, left, 3, W, PURE_INFO_NULL,
                                   &recv));
    EXPECT_PURE_OK(pure_start(&recv));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_psend_init(out.data(), 8, 512, PURE_DOUBLE, right, 3, W, PURE_INFO_NULL,
                                   &send));
    EXPECT_PURE_OK(pure_start(&send));
    EXPECT_PURE_OK(pure_pready_range(0, 7, send));
    EXPECT_PURE_OK(pure_wait(&send, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_wait(&recv, PURE_STATUS_IGNORE));
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_EQ(in[i], value_of(left, 1, static_cast<int>(i))) << "element " << i;
    EXPECT_PURE_OK(pure_request_free(&send));
    EXPECT_PURE_OK(pure_request_free(&recv));
  });
}

// A receiver that only polls pure_parrived after its sender's init came
// late (after a barrier the receiver started its round before): the polls
// themselves must match the sender's channel.
TEST_P(Partitioned, PollingAloneMatchesALateSender) {
  expect_clean_run(n(), [](int me, int size) {
    const int right = right_of(me, size), left = left_of(me, size);
    std::vector<int> out(64), in(64, -1);
    for (int i = 0; i < 64; ++i) out[static_cast<std::size_t>(i)] = value_of(me, 2, i);
    PURE_Request recv, send;
    EXPECT_PURE_OK(pure_precv_init(in.data(), 4, 16, PURE_INT, left, 8, W, PURE_INFO_NULL, &recv));
    EXPECT_PURE_OK(pure_start(&recv));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_psend_init(out.data(), 2, 32, PURE_INT, right, 8, W, PURE_INFO_NULL, &send));
    EXPECT_PURE_OK(pure_start(&send));
    EXPECT_PURE_OK(pure_pready_range(0, 1, send));
    for (int p = 0; p < 4; ++p) {
      int flag = 0;
      while (!flag) EXPECT_PURE_OK(pure_parrived(recv, p, &flag));
    }
    for (int i = 0; i < 64; ++i) ASSERT_EQ(in[static_cast<std::size_t>(i)], value_of(left, 2, i));
    EXPECT_PURE_OK(pure_wait(&recv, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&send, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_request_free(&send));
    EXPECT_PURE_OK(pure_request_free(&recv));
  });
}

// PURE_PROC_NULL on both sides: every round completes at once, the
// receive's status names PURE_PROC_NULL; marking twice is still an error.
TEST(PartitionedEdges, ProcNull) {
  expect_clean_run(2, [](int, int) {
    int x[4] = {1, 2, 3, 4};
    PURE_Request send, recv;
    EXPECT_PURE_OK(pure_psend_init(x, 2, 2, PURE_INT, PURE_PROC_NULL, 0, W, PURE_INFO_NULL, &send));
    EXPECT_PURE_OK(pure_precv_init(x, 4, 1, PURE_INT, PURE_PROC_NULL, 0, W, PURE_INFO_NULL, &recv));
    for (int round = 0; round < 3; ++round) {
      EXPECT_PURE_OK(pure_start(&send));
      EXPECT_PURE_OK(pure_start(&recv));
      EXPECT_PURE_OK(pure_pready_range(0, 1, send));
      int flag = 0;
      EXPECT_PURE_OK(pure_parrived(recv, 3, &flag));
      EXPECT_EQ(flag, 1);
      PURE_Status st;
      EXPECT_PURE_OK(pure_wait(&recv, &st));
      EXPECT_EQ(st.MPI_SOURCE, PURE_PROC_NULL);
      EXPECT_PURE_OK(pure_wait(&send, PURE_STATUS_IGNORE));
    }
    EXPECT_EQ(x[0], 1);
    EXPECT_PURE_OK(pure_request_free(&send));
    EXPECT_PURE_OK(pure_request_free(&recv));
  });
}

// Requests made and freed without a start (on both sides, and a receive
// with no sender at all) leave nothing pending: the job ends cleanly.
// (Re-making a pair on the same tag after that is the known limit in
// channels/partitioned.h.)
TEST(PartitionedEdges, NeverStartedRequestsAreFreedCleanly) {
  expect_clean_run(2, [](int me, int) {
    const int other = 1 - me;
    int a = me, b = -1;
    PURE_Request q;
    if (me == 0) {
      EXPECT_PURE_OK(pure_psend_init(&a, 1, 1, PURE_INT, other, 0, W, PURE_INFO_NULL, &q));
    } else {
      EXPECT_PURE_OK(pure_precv_init(&b, 1, 1, PURE_INT, other, 0, W, PURE_INFO_NULL, &q));
    }
    EXPECT_PURE_OK(pure_request_free(&q));
    // A receive freed before any sender existed.
    if (me == 1) {
      EXPECT_PURE_OK(pure_precv_init(&b, 1, 1, PURE_INT, other, 4, W, PURE_INFO_NULL, &q));
      EXPECT_PURE_OK(pure_request_free(&q));
    }
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// Misuse: each call returns its class (PURE_ERRORS_RETURN), and an active
// request stays usable after a refused call.
TEST(PartitionedErrors, BadArgumentsReturnTheirClass) {
  expect_clean_run(2, [](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    const int other = 1 - me;
    int x[4] = {0, 0, 0, 0};
    PURE_Request q = PURE_REQUEST_NULL;
    EXPECT_EQ(pure_psend_init(x, 0, 1, PURE_INT, other, 0, W, PURE_INFO_NULL, &q), PURE_ERR_ARG);
    EXPECT_EQ(pure_psend_init(x, 2, -1, PURE_INT, other, 0, W, PURE_INFO_NULL, &q), PURE_ERR_COUNT);
    EXPECT_EQ(pure_psend_init(x, 2, 1, PURE_INT, 7, 0, W, PURE_INFO_NULL, &q), PURE_ERR_RANK);
    EXPECT_EQ(pure_psend_init(x, 2, 1, PURE_INT, other, -5, W, PURE_INFO_NULL, &q), PURE_ERR_TAG);
    EXPECT_EQ(pure_precv_init(x, 2, 1, PURE_INT, PURE_ANY_SOURCE, 0, W, PURE_INFO_NULL, &q),
              PURE_ERR_RANK);
    EXPECT_EQ(pure_precv_init(x, 2, 1, PURE_INT, other, PURE_ANY_TAG, W, PURE_INFO_NULL, &q),
              PURE_ERR_TAG);
    EXPECT_EQ(pure_psend_init(x, 2, 1, PURE_INT, other, 0, W, PURE_INFO_NULL, nullptr),
              PURE_ERR_REQUEST);

    PURE_Request send, recv;
    EXPECT_PURE_OK(pure_psend_init(x, 2, 2, PURE_INT, other, 1, W, PURE_INFO_NULL, &send));
    int y[4] = {-1, -1, -1, -1};
    EXPECT_PURE_OK(pure_precv_init(y, 2, 2, PURE_INT, other, 1, W, PURE_INFO_NULL, &recv));
    EXPECT_EQ(pure_pready(0, send), PURE_ERR_REQUEST);  // not started
    EXPECT_PURE_OK(pure_start(&send));
    EXPECT_PURE_OK(pure_start(&recv));
    EXPECT_EQ(pure_pready(2, send), PURE_ERR_ARG);
    EXPECT_EQ(pure_pready(-1, send), PURE_ERR_ARG);
    EXPECT_EQ(pure_pready_range(1, 0, send), PURE_ERR_ARG);
    EXPECT_EQ(pure_pready(0, recv), PURE_ERR_REQUEST);  // a receive
    int flag = 0;
    EXPECT_EQ(pure_parrived(send, 0, &flag), PURE_ERR_REQUEST);  // a send
    EXPECT_EQ(pure_parrived(recv, 5, &flag), PURE_ERR_ARG);
    EXPECT_EQ(pure_request_free(&send), PURE_ERR_REQUEST);  // active
    EXPECT_EQ(pure_cancel(&recv), PURE_ERR_REQUEST);
    EXPECT_PURE_OK(pure_pready(0, send));
    EXPECT_EQ(pure_pready(0, send), PURE_ERR_ARG);  // twice in one round
    EXPECT_PURE_OK(pure_pready(1, send));
    EXPECT_PURE_OK(pure_wait(&recv, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&send, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_request_free(&send));
    EXPECT_PURE_OK(pure_request_free(&recv));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));
  });
}

// Sides that disagree on the bytes: both waits end in PURE_ERR_TRUNCATE,
// and nothing is written into the receive buffer.
TEST(PartitionedErrors, SidesOfDifferentSizesFailBothWaits) {
  expect_clean_run(2, [](int me, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    int x[6] = {1, 2, 3, 4, 5, 6};
    int y[6] = {-1, -1, -1, -1, -1, -1};
    PURE_Request q;
    if (me == 0) {
      EXPECT_PURE_OK(pure_psend_init(x, 3, 2, PURE_INT, 1, 2, W, PURE_INFO_NULL, &q));
      EXPECT_PURE_OK(pure_start(&q));
      EXPECT_PURE_OK(pure_pready_range(0, 2, q));
    } else {
      EXPECT_PURE_OK(pure_precv_init(y, 2, 2, PURE_INT, 0, 2, W, PURE_INFO_NULL, &q));
      EXPECT_PURE_OK(pure_start(&q));
    }
    EXPECT_EQ(pure_wait(&q, PURE_STATUS_IGNORE), PURE_ERR_TRUNCATE);
    if (me == 1) {
      for (int v : y) EXPECT_EQ(v, -1);
    }
    EXPECT_PURE_OK(pure_request_free(&q));
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));
  });
}

// With the default handler, pure_pready of a partition twice ends the job
// with a message naming the rank, the call and the partition.
TEST(PartitionedErrors, MarkingTwiceEndsTheJobNamingThePartition) {
  const JobResult r = run_ranks_capturing(2, [](int me, int) {
    int x[2] = {0, 0};
    PURE_Request q;
    if (me == 0) {
      EXPECT_PURE_OK(pure_psend_init(x, 2, 1, PURE_INT, 1, 0, W, PURE_INFO_NULL, &q));
      EXPECT_PURE_OK(pure_start(&q));
      pure_pready(1, q);
      pure_pready(1, q);
    }
    pure_barrier(W);
  });
  EXPECT_EQ(r.code, PURE_ERR_ARG);
  EXPECT_NE(r.err.find("rank 0: pure_pready: partition 1 was marked ready already"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace pure_testing
