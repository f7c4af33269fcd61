// Collectives through the per-communicator rings (runtime/collectives/ring.h):
// small bcasts and reduces, whose roots and contributors leave without
// waiting, and alltoall(v), whose members wait only for their own column.
// Calls run back to back with random delays, so slots wrap while being
// read; every call checks its own data.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "collectives_harness.h"
#include "pure/pure.h"

using coll_test::Affine;
using coll_test::affine_of;
using coll_test::compose;
using coll_test::fold_affine;
using coll_test::run_ranks;

namespace {

class Collectives : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Collectives, pure_testing::rank_sweep({2, 3, 4, 8, 16}),
                         coll_test::rank_count_name);

// ---- small bcast and reduce through the rings (runtime/collectives/ring.h) ----
// A bcast root and the non-root members of a reduce leave without waiting,
// up to several calls ahead of the others; every call below checks its own
// data, so a slot read for the wrong call or overwritten too early shows.

// Sometimes lets a rank fall behind the others, to vary how far ahead the
// ones that do not wait get (and to make slots wrap while being read).
void jitter(unsigned& state) {
  state = state * 1103515245u + 12345u;
  const unsigned r = (state >> 16) & 63u;
  if (r == 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  } else if (r < 8) {
    std::this_thread::yield();
  }
}

// One small collective on `comm` (rank me of n), checking its data: 0 bcast,
// 1 reduce, 2 allreduce, otherwise barrier. `id` tells communicators apart,
// `k` calls; the root moves with both.
void small_collective(int which, PURE_Comm comm, int me, int n, int id, int k) {
  const int root = (k * 3 + id) % n;
  switch (which) {
    case 0: {
      long long v[4] = {-1, -1, -1, -1};
      if (me == root)
        for (int i = 0; i < 4; ++i) v[i] = id * 1000000 + k * 10 + i;
      EXPECT_PURE_OK(pure_bcast(v, 4, PURE_LONG_LONG, root, comm));
      for (int i = 0; i < 4; ++i) ASSERT_EQ(v[i], id * 1000000 + k * 10 + i) << id << " " << k;
      break;
    }
    case 1: {
      int x = id * 1000 + k + me, s = -1;
      EXPECT_PURE_OK(pure_reduce(&x, &s, 1, PURE_INT, PURE_SUM, root, comm));
      if (me == root) {
        ASSERT_EQ(s, n * (id * 1000 + k) + n * (n - 1) / 2) << id << " " << k;
      }
      break;
    }
    case 2: {
      int x = id + k * me, mx = -1;
      EXPECT_PURE_OK(pure_allreduce(&x, &mx, 1, PURE_INT, PURE_MAX, comm));
      ASSERT_EQ(mx, id + k * (n - 1)) << id << " " << k;
      break;
    }
    default:
      EXPECT_PURE_OK(pure_barrier(comm));
  }
}

// Runs step(comm, me, n, id, k) for k < rounds on a duplicate of the world
// (id 1), on halves of it (id 2 or 3, every third round twice) and on the
// world (id 4), interleaved, with random delays: several communicators' rings
// in use at once.
template <class Step>
void on_three_communicators(int rank, int size, unsigned seed, int rounds, const Step& step) {
  PURE_Comm dup, half;
  EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &dup));
  EXPECT_PURE_OK(pure_comm_split(PURE_COMM_WORLD, rank % 2, -rank, &half));
  int hrank = -1, hsize = -1;
  pure_comm_rank(half, &hrank);
  pure_comm_size(half, &hsize);
  unsigned state = seed + static_cast<unsigned>(rank);
  for (int k = 0; k < rounds; ++k) {
    step(dup, rank, size, 1, k);
    step(half, hrank, hsize, 2 + rank % 2, k);
    if (k % 3 == 0) step(half, hrank, hsize, 2 + rank % 2, k + 1);
    step(PURE_COMM_WORLD, rank, size, 4, k);
    jitter(state);
  }
  EXPECT_PURE_OK(pure_comm_free(&half));
  EXPECT_PURE_OK(pure_comm_free(&dup));
}

TEST_P(Collectives, BackToBackSmallBcastsWithChangingRoots) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    unsigned state = 7u + static_cast<unsigned>(rank);
    for (int k = 0; k < 1500; ++k) {
      // Runs of one root (the ring wraps under one writer), then changing roots.
      const int root = k < 500 ? (k / 100) % size : (k * 7 + k / 3) % size;
      const int count = k % 13;  // 0 to 48 bytes: every size the ring carries
      int b[12];
      for (int i = 0; i < 12; ++i) b[i] = rank == root ? k * 31 + i * 5 + root : -1;
      EXPECT_PURE_OK(pure_bcast(b, count, PURE_INT, root, PURE_COMM_WORLD));
      for (int i = 0; i < count; ++i) ASSERT_EQ(b[i], k * 31 + i * 5 + root) << "call " << k << " item " << i;
      for (int i = count; i < 12; ++i) ASSERT_EQ(b[i], rank == root ? k * 31 + i * 5 + root : -1) << k;
      // Bytes and a strided type on some members, the same signature elsewhere.
      if (k % 10 == 0) {
        unsigned char c[48];
        for (int i = 0; i < 48; ++i) c[i] = static_cast<unsigned char>(rank == root ? k + i : 0);
        EXPECT_PURE_OK(pure_bcast(c, 48, PURE_BYTE, root, PURE_COMM_WORLD));
        for (int i = 0; i < 48; ++i) ASSERT_EQ(c[i], static_cast<unsigned char>(k + i)) << k;
      }
      jitter(state);
    }
  }));
}

// Non-commutative user op and SUM, with changing roots and inputs that change
// every call: the root must fold exactly this call's inputs in rank order.
TEST_P(Collectives, BackToBackSmallReducesInRankOrder) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Datatype affine;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_LONG_LONG, &affine));
    EXPECT_PURE_OK(pure_type_commit(&affine));
    PURE_Op comp;
    EXPECT_PURE_OK(pure_op_create(&compose, 0, &comp));
    unsigned state = 11u + static_cast<unsigned>(rank);
    for (int k = 0; k < 1000; ++k) {
      const int root = k < 300 ? (k / 60) % size : (k * 5 + k / 7) % size;
      const int count = 1 + k % 3;  // 16 to 48 bytes
      Affine in[3], out[3];
      for (int i = 0; i < count; ++i) {
        in[i] = affine_of(rank + k, i);
        out[i] = {-1, -1};
      }
      if (rank == root && k % 4 == 1) {
        for (int i = 0; i < count; ++i) out[i] = in[i];
        EXPECT_PURE_OK(pure_reduce(PURE_IN_PLACE, out, count, affine, comp, root, PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_reduce(in, out, count, affine, comp, root, PURE_COMM_WORLD));
      }
      if (rank == root) {
        for (int i = 0; i < count; ++i) {
          Affine want = affine_of(size - 1 + k, i);
          for (int r = size - 2; r >= 0; --r) {
            Affine f = affine_of(r + k, i);
            int one = 1;
            compose(&f, &want, &one, nullptr);
          }
          ASSERT_TRUE(out[i].a == want.a && out[i].b == want.b) << "call " << k << " item " << i;
        }
      } else {
        for (int i = 0; i < count; ++i) ASSERT_EQ(out[i].a, -1) << "a non-root's output changed";
      }
      long long x[6], sum[6];
      const int n = 1 + k % 6;
      for (int i = 0; i < n; ++i) x[i] = (rank + 1) * (k + i);
      EXPECT_PURE_OK(pure_reduce(x, sum, n, PURE_LONG_LONG, PURE_SUM, (root + 1) % size, PURE_COMM_WORLD));
      if (rank == (root + 1) % size) {
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(sum[i], static_cast<long long>(size) * (size + 1) / 2 * (k + i)) << k;
      }
      jitter(state);
    }
    EXPECT_PURE_OK(pure_op_free(&comp));
    EXPECT_PURE_OK(pure_type_free(&affine));
  }));
}

// A reduce of a predefined op on a predefined type goes from the flat API
// straight into the ring (collectives/ring_reduce.h); the same data passed
// with a derived type takes the general path. Members mixing the two in one
// call meet in the same slots, and the root folds in rank order whichever
// path it took: doubles whose sum depends on that order come out exactly.
TEST_P(Collectives, SmallReduceMixesTheInlineAndGeneralPaths) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Datatype one_double;
    EXPECT_PURE_OK(pure_type_contiguous(1, PURE_DOUBLE, &one_double));
    EXPECT_PURE_OK(pure_type_commit(&one_double));
    unsigned state = 29u + static_cast<unsigned>(rank);
    auto value = [](int r, int k, int i) { return (r % 2 ? 1e16 : 1.0) * (r + 1) + k * 0.25 + i; };
    for (int k = 0; k < 800; ++k) {
      const int root = (k * 7 + k / 5) % size;
      const int count = 1 + k % 6;  // 8 to 48 bytes: every size a slot holds
      const bool derived = (rank + k) % 3 == 0;
      const PURE_Datatype type = derived ? one_double : PURE_DOUBLE;
      double in[6], out[6];
      for (int i = 0; i < count; ++i) {
        in[i] = value(rank, k, i);
        out[i] = -1;
      }
      if (rank == root && k % 4 == 1) {
        for (int i = 0; i < count; ++i) out[i] = in[i];
        EXPECT_PURE_OK(pure_reduce(PURE_IN_PLACE, out, count, type, PURE_SUM, root, PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_reduce(in, out, count, type, PURE_SUM, root, PURE_COMM_WORLD));
      }
      if (rank == root) {
        for (int i = 0; i < count; ++i) {
          double want = value(size - 1, k, i);
          for (int r = size - 2; r >= 0; --r) want = value(r, k, i) + want;
          ASSERT_EQ(out[i], want) << "call " << k << " item " << i;
        }
      } else {
        for (int i = 0; i < count; ++i) ASSERT_EQ(out[i], -1) << "a non-root's output changed";
      }
      // MAX on ints through the inline path at every member, root moving.
      int x = (rank * 37 + k) % (size + 3), m = -1;
      EXPECT_PURE_OK(pure_reduce(&x, &m, 1, PURE_INT, PURE_MAX, (root + 1) % size, PURE_COMM_WORLD));
      if (rank == (root + 1) % size) {
        int want = 0;
        for (int r = 0; r < size; ++r) want = std::max(want, (r * 37 + k) % (size + 3));
        ASSERT_EQ(m, want) << k;
      }
      jitter(state);
    }
    EXPECT_PURE_OK(pure_type_free(&one_double));
  }));
}

// Two communicators at once (a duplicate of the world and halves of it),
// with bcast, reduce, allreduce and barrier interleaved differently on each:
// the rings of different communicators, kinds and calls stay apart.
TEST_P(Collectives, SmallRootedCollectivesInterleavedOnTwoCommunicators) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    on_three_communicators(rank, size, 3u, 600, [](PURE_Comm comm, int me, int n, int id, int k) {
      small_collective((k + id) % 4, comm, me, n, id, k);
    });
  }));
}

// ---- alltoall(v) through its ring (runtime/collectives/ring.h) ----
// Members leave a small alltoall as soon as their own column is in, up to
// several calls ahead of slower readers; every call checks its own data, so
// a line read for the wrong call or overwritten too early shows.

// What rank `from` sends rank `to` as item i of call k.
int a2a_value(int k, int from, int to, int i) { return k * 100003 + from * 4099 + to * 67 + i; }

TEST_P(Collectives, BackToBackSmallAlltoallsWrapTheRing) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Datatype every_other;  // 12 ints, every second one: 48 bytes, extent 23 ints
    EXPECT_PURE_OK(pure_type_vector(12, 1, 2, PURE_INT, &every_other));
    EXPECT_PURE_OK(pure_type_commit(&every_other));
    const std::size_t n = static_cast<std::size_t>(size);
    unsigned state = 5u + static_cast<unsigned>(rank);
    for (int k = 0; k < 1500; ++k) {
      // 0 to 48 bytes a block (inline), now and then 52 or 400 (by pointer).
      const int count = k % 29 == 0 ? 13 : k % 31 == 0 ? 100 : k % 13;
      const std::size_t c = static_cast<std::size_t>(count);
      std::vector<int> send(c * n), recv(c * n, -1);
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < count; ++i) send[static_cast<std::size_t>(j * count + i)] = a2a_value(k, rank, j, i);
      if (k % 5 == 1) {
        recv = send;
        EXPECT_PURE_OK(pure_alltoall(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, recv.data(), count, PURE_INT, PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_alltoall(send.data(), count, PURE_INT, recv.data(), count, PURE_INT, PURE_COMM_WORLD));
      }
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < count; ++i)
          ASSERT_EQ(recv[static_cast<std::size_t>(j * count + i)], a2a_value(k, j, rank, i))
              << "call " << k << " from " << j << " item " << i;
      if (k % 10 == 3) {
        // 12 ints sent, received into every second int of a strided block.
        std::vector<int> s12(12 * n), r(23 * n, -7);
        for (int j = 0; j < size; ++j)
          for (int i = 0; i < 12; ++i) s12[static_cast<std::size_t>(j * 12 + i)] = a2a_value(k + 1, rank, j, i);
        EXPECT_PURE_OK(pure_alltoall(s12.data(), 12, PURE_INT, r.data(), 1, every_other, PURE_COMM_WORLD));
        for (int j = 0; j < size; ++j)
          for (int i = 0; i < 23; ++i)
            ASSERT_EQ(r[static_cast<std::size_t>(j * 23 + i)], i % 2 ? -7 : a2a_value(k + 1, j, rank, i / 2))
                << "call " << k << " from " << j << " int " << i;
      }
      jitter(state);
    }
    EXPECT_PURE_OK(pure_type_free(&every_other));
  }));
}

// Uneven counts that change every call (most blocks inline, some pairs now
// and then by pointer), with gaps and reversed receive blocks; in place
// with symmetric counts every fourth call.
TEST_P(Collectives, BackToBackSmallAlltoallvUnevenCounts) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    const std::size_t n = static_cast<std::size_t>(size);
    unsigned state = 9u + static_cast<unsigned>(rank);
    for (int k = 0; k < 1200; ++k) {
      const bool in_place = k % 4 == 2;
      auto cnt = [&](int from, int to) {
        int c = in_place ? (from + to + k) % 7 : (from * 3 + to * 5 + k) % 7;  // 0 to 24 bytes
        if (k % 17 == 0 && (from + to) % 3 == 0) c += 10;  // 40 to 64 bytes
        return c;
      };
      std::vector<int> sc(n), sd(n), rc(n), rd(n);
      int sat = 0, rat = 1;
      for (int j = 0; j < size; ++j) {
        sc[static_cast<std::size_t>(j)] = cnt(rank, j);
        sd[static_cast<std::size_t>(j)] = sat;
        sat += cnt(rank, j) + (j % 2);
        rc[static_cast<std::size_t>(j)] = cnt(j, rank);
      }
      for (int j = size - 1; j >= 0; --j) {
        rd[static_cast<std::size_t>(j)] = rat;
        rat += cnt(j, rank) + 1;
      }
      std::vector<int> send(static_cast<std::size_t>(sat) + 1), recv(static_cast<std::size_t>(rat), -1);
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < cnt(rank, j); ++i)
          send[static_cast<std::size_t>(sd[static_cast<std::size_t>(j)] + i)] = a2a_value(k, rank, j, i);
      if (in_place) {
        for (int j = 0; j < size; ++j)
          for (int i = 0; i < cnt(rank, j); ++i)
            recv[static_cast<std::size_t>(rd[static_cast<std::size_t>(j)] + i)] = a2a_value(k, rank, j, i);
        EXPECT_PURE_OK(pure_alltoallv(PURE_IN_PLACE, nullptr, nullptr, PURE_DATATYPE_NULL, recv.data(),
                                      rc.data(), rd.data(), PURE_INT, PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_alltoallv(send.data(), sc.data(), sd.data(), PURE_INT, recv.data(), rc.data(),
                                      rd.data(), PURE_INT, PURE_COMM_WORLD));
      }
      std::vector<int> want(recv.size(), -1);
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < cnt(j, rank); ++i)
          want[static_cast<std::size_t>(rd[static_cast<std::size_t>(j)] + i)] = a2a_value(k, j, rank, i);
      for (std::size_t i = 0; i < recv.size(); ++i)
        ASSERT_EQ(recv[i], want[i]) << "call " << k << " int " << i << (in_place ? " in place" : "");
      jitter(state);
    }
  }));
}

// Alltoall(v) interleaved with the ring's other users (bcast, reduce) and
// with rounds (allreduce, barrier, a bigger alltoall) on a duplicate of the
// world and on halves of it, at once.
TEST_P(Collectives, AlltoallInterleavedOnTwoCommunicators) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    auto step = [](PURE_Comm comm, int me, int n, int id, int k) {
      const std::size_t un = static_cast<std::size_t>(n);
      switch ((k + id) % 7) {
        case 0:
        case 3: {  // small alltoall; a bigger one (by pointer) now and then
          const int count = k % 11 == 0 ? 40 : 1 + (k + id) % 4;
          const std::size_t c = static_cast<std::size_t>(count);
          std::vector<long long> s(c * un), r(c * un, -1);
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < count; ++i) s[static_cast<std::size_t>(j * count + i)] = id * 10000000LL + a2a_value(k, me, j, i);
          EXPECT_PURE_OK(pure_alltoall(s.data(), count, PURE_LONG_LONG, r.data(), count, PURE_LONG_LONG, comm));
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < count; ++i)
              ASSERT_EQ(r[static_cast<std::size_t>(j * count + i)], id * 10000000LL + a2a_value(k, j, me, i)) << id << " " << k;
          break;
        }
        case 1: {  // alltoallv, uneven
          auto cnt = [&](int from, int to) { return (from + 2 * to + k) % 4; };
          std::vector<int> sc(un), sd(un), rc(un), rd(un);
          int sat = 0, rat = 0;
          for (int j = 0; j < n; ++j) {
            sc[static_cast<std::size_t>(j)] = cnt(me, j);
            sd[static_cast<std::size_t>(j)] = sat;
            sat += cnt(me, j);
            rc[static_cast<std::size_t>(j)] = cnt(j, me);
            rd[static_cast<std::size_t>(j)] = rat;
            rat += cnt(j, me);
          }
          std::vector<int> s(static_cast<std::size_t>(sat) + 1), r(static_cast<std::size_t>(rat) + 1, -1);
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < cnt(me, j); ++i) s[static_cast<std::size_t>(sd[static_cast<std::size_t>(j)] + i)] = id + a2a_value(k, me, j, i);
          EXPECT_PURE_OK(pure_alltoallv(s.data(), sc.data(), sd.data(), PURE_INT, r.data(), rc.data(), rd.data(), PURE_INT, comm));
          for (int j = 0; j < n; ++j)
            for (int i = 0; i < cnt(j, me); ++i)
              ASSERT_EQ(r[static_cast<std::size_t>(rd[static_cast<std::size_t>(j)] + i)], id + a2a_value(k, j, me, i)) << id << " " << k;
          break;
        }
        case 2:
          small_collective(0, comm, me, n, id, k);
          break;
        case 4:
          small_collective(1, comm, me, n, id, k);
          break;
        case 5:
          small_collective(2, comm, me, n, id, k);
          break;
        default:
          EXPECT_PURE_OK(pure_barrier(comm));
      }
    };
    on_three_communicators(rank, size, 13u, 700, step);
  }));
}

}  // namespace
