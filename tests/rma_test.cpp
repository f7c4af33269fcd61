// One-sided communication within a process: window creation of every
// flavour and its attributes, put and get under fence and passive target
// with basic and derived datatypes on both sides, request-based calls,
// dynamic windows, shared windows and their queries, the program's cached
// attributes (keyvals) and the info hints of a window. Every job runs at
// 2, 4, 8 and 16 ranks on the 2 cores (as fibers, and as threads with
// PURE_FIBERS=off) and checks every byte it moved.
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Rma : public testing::TestWithParam<int> {};

TEST_P(Rma, AttributesOfEveryFlavor) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    std::vector<long> mine(static_cast<std::size_t>(rank + 1));
    PURE_Win created, allocated, dynamic, shared;
    EXPECT_PURE_OK(pure_win_create(mine.data(), static_cast<PURE_Aint>(mine.size() * sizeof(long)),
                                   sizeof(long), PURE_INFO_NULL, W, &created));
    double* block = nullptr;
    EXPECT_PURE_OK(pure_win_allocate(64 * rank, 8, PURE_INFO_NULL, W, &block, &allocated));
    EXPECT_PURE_OK(pure_win_create_dynamic(PURE_INFO_NULL, W, &dynamic));
    char* part = nullptr;
    EXPECT_PURE_OK(pure_win_allocate_shared(rank + 3, 1, PURE_INFO_NULL, W, &part, &shared));

    void* base = nullptr;
    PURE_Aint* bytes = nullptr;
    int* unit = nullptr;
    int* flavor = nullptr;
    int* model = nullptr;
    int flag = 0;
    EXPECT_PURE_OK(pure_win_get_attr(created, PURE_WIN_BASE, &base, &flag));
    EXPECT_TRUE(flag);
    EXPECT_EQ(base, mine.data());
    EXPECT_PURE_OK(pure_win_get_attr(created, PURE_WIN_SIZE, &bytes, &flag));
    EXPECT_EQ(*bytes, static_cast<PURE_Aint>((rank + 1) * sizeof(long)));
    EXPECT_PURE_OK(pure_win_get_attr(created, PURE_WIN_DISP_UNIT, &unit, &flag));
    EXPECT_EQ(*unit, static_cast<int>(sizeof(long)));
    EXPECT_PURE_OK(pure_win_get_attr(created, PURE_WIN_CREATE_FLAVOR, &flavor, &flag));
    EXPECT_EQ(*flavor, PURE_WIN_FLAVOR_CREATE);
    EXPECT_PURE_OK(pure_win_get_attr(created, PURE_WIN_MODEL, &model, &flag));
    EXPECT_EQ(*model, PURE_WIN_UNIFIED);
    EXPECT_PURE_OK(pure_win_get_attr(allocated, PURE_WIN_BASE, &base, &flag));
    EXPECT_EQ(base, block);
    EXPECT_PURE_OK(pure_win_get_attr(allocated, PURE_WIN_CREATE_FLAVOR, &flavor, &flag));
    EXPECT_EQ(*flavor, PURE_WIN_FLAVOR_ALLOCATE);
    EXPECT_PURE_OK(pure_win_get_attr(dynamic, PURE_WIN_CREATE_FLAVOR, &flavor, &flag));
    EXPECT_EQ(*flavor, PURE_WIN_FLAVOR_DYNAMIC);
    EXPECT_PURE_OK(pure_win_get_attr(dynamic, PURE_WIN_SIZE, &bytes, &flag));
    EXPECT_EQ(*bytes, 0);
    EXPECT_PURE_OK(pure_win_get_attr(shared, PURE_WIN_CREATE_FLAVOR, &flavor, &flag));
    EXPECT_EQ(*flavor, PURE_WIN_FLAVOR_SHARED);
    // A keyval that names nothing is an error, as on a communicator.
    EXPECT_PURE_OK(pure_win_set_errhandler(created, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_get_attr(created, 12345, &base, &flag), PURE_ERR_KEYVAL);

    // The window's group is the communicator's.
    PURE_Group group, world;
    EXPECT_PURE_OK(pure_win_get_group(created, &group));
    EXPECT_PURE_OK(pure_comm_group(W, &world));
    int same = -1;
    EXPECT_PURE_OK(pure_group_compare(group, world, &same));
    EXPECT_EQ(same, PURE_IDENT);
    pure_group_free(&group);
    pure_group_free(&world);

    char name[PURE_MAX_OBJECT_NAME];
    int len = -1;
    EXPECT_PURE_OK(pure_win_get_name(created, name, &len));
    EXPECT_EQ(len, 0);
    EXPECT_PURE_OK(pure_win_set_name(created, "halo"));
    EXPECT_PURE_OK(pure_win_get_name(created, name, &len));
    EXPECT_STREQ(name, "halo");

    for (PURE_Win* w : {&created, &allocated, &dynamic, &shared}) {
      EXPECT_PURE_OK(pure_win_free(w));
      EXPECT_EQ(*w, PURE_WIN_NULL);
    }
    (void)size;
  });
}

// Every rank puts a block of its own into the next rank's window and gets
// one from the previous rank's, in many fence epochs.
TEST_P(Rma, FencePutGetRing) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kBlock = 100;
    constexpr int kEpochs = 20;
    std::vector<std::uint64_t> mem(2 * kBlock, 0);
    PURE_Win win;
    ASSERT_EQ(pure_win_create(mem.data(), static_cast<PURE_Aint>(mem.size() * 8), 8,
                              PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    std::vector<std::uint64_t> out(kBlock), in(kBlock);
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOPRECEDE, win));
    for (int e = 0; e < kEpochs; ++e) {
      for (int i = 0; i < kBlock; ++i) out[i] = key_of(rank, e, i);
      // The second half of every window holds what its owner wrote there.
      for (int i = 0; i < kBlock; ++i) mem[kBlock + i] = key_of(rank, e, i, 7);
      EXPECT_PURE_OK(pure_win_fence(0, win));
      EXPECT_PURE_OK(pure_put(out.data(), kBlock, PURE_UINT64_T, next, 0, kBlock, PURE_UINT64_T, win));
      EXPECT_PURE_OK(pure_get(in.data(), kBlock, PURE_UINT64_T, prev, kBlock, kBlock, PURE_UINT64_T, win));
      EXPECT_PURE_OK(pure_win_fence(0, win));
      for (int i = 0; i < kBlock; ++i) {
        ASSERT_EQ(mem[i], key_of(prev, e, i)) << "epoch " << e << " element " << i;
        ASSERT_EQ(in[i], key_of(prev, e, i, 7)) << "epoch " << e << " element " << i;
      }
    }
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Derived datatypes on both sides: a strided vector at the origin lands in
// an indexed layout at the target, and comes back through a get with the
// roles swapped.
TEST_P(Rma, DerivedDatatypesBothSides) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kCount = 16;
    PURE_Datatype strided, scattered;
    ASSERT_EQ(pure_type_vector(kCount, 1, 3, PURE_INT, &strided), PURE_SUCCESS);
    std::vector<int> blocklens(kCount, 1), displs(kCount);
    for (int i = 0; i < kCount; ++i) displs[i] = 2 * (kCount - 1 - i);  // reversed, every other
    ASSERT_EQ(pure_type_indexed(kCount, blocklens.data(), displs.data(), PURE_INT, &scattered),
              PURE_SUCCESS);
    pure_type_commit(&strided);
    pure_type_commit(&scattered);
    std::vector<int> mem(2 * kCount, -1);
    PURE_Win win;
    ASSERT_EQ(pure_win_create(mem.data(), static_cast<PURE_Aint>(mem.size() * sizeof(int)),
                              sizeof(int), PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    std::vector<int> src(3 * kCount);
    for (int i = 0; i < 3 * kCount; ++i) src[i] = rank * 1000 + i;
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_put(src.data(), 1, strided, next, 0, 1, scattered, win));
    EXPECT_PURE_OK(pure_win_fence(0, win));
    for (int i = 0; i < kCount; ++i) {
      EXPECT_EQ(mem[2 * (kCount - 1 - i)], prev * 1000 + 3 * i) << "element " << i;
      EXPECT_EQ(mem[2 * (kCount - 1 - i) + 1], -1) << "gap " << i << " was written";
    }
    std::vector<int> back(3 * kCount, -7);
    EXPECT_PURE_OK(pure_get(back.data(), 1, strided, next, 0, 1, scattered, win));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    for (int i = 0; i < 3 * kCount; ++i)
      EXPECT_EQ(back[i], i % 3 == 0 ? rank * 1000 + i : -7) << "element " << i;
    EXPECT_PURE_OK(pure_win_free(&win));
    pure_type_free(&strided);
    pure_type_free(&scattered);
  });
}

// Passive target: every rank writes its row into every other rank's
// window under lock_all, flushes, and tells the owner through a barrier;
// request-based gets then read the rows back.
TEST_P(Rma, LockAllPutFlushAndRequests) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRow = 32;
    double* mem = nullptr;
    PURE_Win win;
    ASSERT_EQ(pure_win_allocate(static_cast<PURE_Aint>(size * kRow * sizeof(double)),
                                sizeof(double), PURE_INFO_NULL, W, &mem, &win),
              PURE_SUCCESS);
    std::vector<double> row(kRow);
    for (int i = 0; i < kRow; ++i) row[i] = rank + i / 1000.0;
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int t = 0; t < size; ++t) {
      EXPECT_PURE_OK(pure_put(row.data(), kRow, PURE_DOUBLE, t, rank * kRow, kRow, PURE_DOUBLE, win));
      EXPECT_PURE_OK(pure_win_flush(t, win));
    }
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < kRow; ++i) ASSERT_EQ(mem[r * kRow + i], r + i / 1000.0);
    EXPECT_PURE_OK(pure_barrier(W));

    // The same rows, read back from every target with request-based gets.
    std::vector<double> got(static_cast<std::size_t>(size) * kRow, -1);
    std::vector<PURE_Request> requests(static_cast<std::size_t>(size));
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int t = 0; t < size; ++t)
      EXPECT_PURE_OK(pure_rget(&got[t * kRow], kRow, PURE_DOUBLE, t, rank * kRow, kRow,
                               PURE_DOUBLE, win, &requests[t]));
    EXPECT_PURE_OK(pure_waitall(size, requests.data(), PURE_STATUSES_IGNORE));
    PURE_Request put_request;
    EXPECT_PURE_OK(pure_rput(row.data(), kRow, PURE_DOUBLE, rank, rank * kRow, kRow, PURE_DOUBLE,
                             win, &put_request));
    EXPECT_PURE_OK(pure_wait(&put_request, PURE_STATUS_IGNORE));
    EXPECT_EQ(put_request, PURE_REQUEST_NULL);
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    for (int t = 0; t < size; ++t)
      for (int i = 0; i < kRow; ++i) ASSERT_EQ(got[t * kRow + i], rank + i / 1000.0);
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Dynamic windows: memory attached after creation, addressed by its
// address, detached again.
TEST_P(Rma, DynamicAttachPutDetach) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Win win;
    ASSERT_EQ(pure_win_create_dynamic(PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    std::vector<long long> region(8, 0);
    EXPECT_PURE_OK(pure_win_attach(win, region.data(), static_cast<PURE_Aint>(region.size() * 8)));
    PURE_Aint mine = 0;
    EXPECT_PURE_OK(pure_get_address(region.data(), &mine));
    std::vector<PURE_Aint> addresses(static_cast<std::size_t>(size));
    EXPECT_PURE_OK(pure_allgather(&mine, 1, PURE_AINT, addresses.data(), 1, PURE_AINT, W));
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    const long long value = 1000 + rank;
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_put(&value, 1, PURE_LONG_LONG, next,
                            pure_aint_add(addresses[next], 3 * 8), 1, PURE_LONG_LONG, win));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    EXPECT_EQ(region[3], 1000 + prev);
    EXPECT_EQ(pure_aint_diff(pure_aint_add(mine, 24), mine), 24);
    EXPECT_PURE_OK(pure_win_detach(win, region.data()));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// A region filled to its last byte by one put, and nodes attached one by
// one, each addressed by pure_get_address and read and replaced with
// get_accumulate (PURE_REPLACE, PURE_NO_OP) under lock_all and under a
// shared lock, as a distributed linked list is built.
TEST_P(Rma, DynamicRegionsFilledExactlyAndNodesAttachedOneByOne) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Win win;
    ASSERT_EQ(pure_win_create_dynamic(PURE_INFO_NULL, W, &win), PURE_SUCCESS);
    constexpr int kBytes = 36864;
    std::vector<unsigned char> region(kBytes, 0), out(kBytes);
    for (int i = 0; i < kBytes; ++i) out[static_cast<std::size_t>(i)] = static_cast<unsigned char>(rank + i);
    EXPECT_PURE_OK(pure_win_attach(win, region.data(), kBytes));
    struct Node {
      int value;
      PURE_Aint next;
    };
    constexpr int kNodes = 4;
    Node* nodes[kNodes];
    PURE_Aint where[kNodes + 1];
    for (int i = 0; i < kNodes; ++i) {
      EXPECT_PURE_OK(pure_alloc_mem(sizeof(Node), PURE_INFO_NULL, &nodes[i]));
      *nodes[i] = Node{rank * 10 + i, 0};
      EXPECT_PURE_OK(pure_win_attach(win, nodes[i], sizeof(Node)));
      EXPECT_PURE_OK(pure_get_address(nodes[i], &where[i]));
    }
    EXPECT_PURE_OK(pure_get_address(region.data(), &where[kNodes]));
    std::vector<PURE_Aint> all(static_cast<std::size_t>(size) * (kNodes + 1));
    EXPECT_PURE_OK(pure_allgather(where, kNodes + 1, PURE_AINT, all.data(), kNodes + 1, PURE_AINT, W));
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    const PURE_Aint* theirs = &all[static_cast<std::size_t>(next) * (kNodes + 1)];

    EXPECT_PURE_OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, next, 0, win));
    EXPECT_PURE_OK(pure_put(out.data(), kBytes, PURE_BYTE, next, theirs[kNodes], kBytes, PURE_BYTE, win));
    EXPECT_PURE_OK(pure_win_unlock(next, win));
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int i = 0; i < kNodes; ++i) {
      int mine = 1000 + rank, old = -1;
      EXPECT_PURE_OK(pure_get_accumulate(&mine, 1, PURE_INT, &old, 1, PURE_INT, next,
                                         theirs[i] + static_cast<PURE_Aint>(offsetof(Node, value)),
                                         1, PURE_INT, PURE_REPLACE, win));
      EXPECT_PURE_OK(pure_win_flush(next, win));
      EXPECT_EQ(old, next * 10 + i);
    }
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    for (int i = 0; i < kBytes; ++i)
      ASSERT_EQ(region[static_cast<std::size_t>(i)], static_cast<unsigned char>(prev + i)) << "byte " << i;
    EXPECT_PURE_OK(pure_win_lock(PURE_LOCK_SHARED, next, 0, win));
    int seen = -1;
    EXPECT_PURE_OK(pure_get_accumulate(nullptr, 0, PURE_INT, &seen, 1, PURE_INT, next,
                                       theirs[kNodes - 1] + static_cast<PURE_Aint>(offsetof(Node, value)),
                                       1, PURE_INT, PURE_NO_OP, win));
    EXPECT_PURE_OK(pure_win_unlock(next, win));
    EXPECT_EQ(seen, 1000 + rank);
    EXPECT_PURE_OK(pure_barrier(W));
    for (int i = 0; i < kNodes; ++i) {
      EXPECT_EQ(nodes[i]->value, 1000 + prev);
      EXPECT_PURE_OK(pure_win_detach(win, nodes[i]));
      EXPECT_PURE_OK(pure_free_mem(nodes[i]));
    }
    EXPECT_PURE_OK(pure_win_detach(win, region.data()));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Shared windows where some ranks give no memory: their base is null, both
// where pure_win_allocate_shared returns it and through
// pure_win_shared_query, with alloc_shared_noncontig or without; the other
// parts stay contiguous.
TEST_P(Rma, SharedWindowPartsOfSizeZeroHaveNoAddress) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    for (const char* noncontig : {"false", "true"}) {
      PURE_Info info;
      EXPECT_PURE_OK(pure_info_create(&info));
      EXPECT_PURE_OK(pure_info_set(info, "alloc_shared_noncontig", noncontig));
      const PURE_Aint bytes = rank % 2 == 1 ? 0 : 8;
      double* part = reinterpret_cast<double*>(&info);  // any non-null value
      PURE_Win win;
      ASSERT_EQ(pure_win_allocate_shared(bytes, sizeof(double), info, W, &part, &win), PURE_SUCCESS);
      EXPECT_PURE_OK(pure_info_free(&info));
      if (bytes == 0) {
        EXPECT_EQ(part, nullptr) << "rank " << rank << ", alloc_shared_noncontig " << noncontig;
      } else {
        EXPECT_NE(part, nullptr);
      }
      for (int r = 0; r < size; ++r) {
        double* base = nullptr;
        PURE_Aint got = -1;
        int unit = 0;
        EXPECT_PURE_OK(pure_win_shared_query(win, r, &got, &unit, &base));
        EXPECT_EQ(got, r % 2 == 1 ? 0 : 8);
        if (r % 2 == 1) {
          EXPECT_EQ(base, nullptr) << "rank " << r << "'s part";
        } else if (std::string(noncontig) == "false") {
          double* first = nullptr;
          EXPECT_PURE_OK(pure_win_shared_query(win, 0, &got, &unit, &first));
          EXPECT_EQ(base, first + r / 2);
        }
      }
      EXPECT_PURE_OK(pure_win_free(&win));
    }
  });
}

// Shared windows: one contiguous block, each rank's part right after the
// one before it; every rank reads the others' parts with plain loads.
TEST_P(Rma, SharedWindowContiguousAndQueries) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    int* part = nullptr;
    PURE_Win win;
    const int ints = rank + 1;  // parts of different sizes
    ASSERT_EQ(pure_win_allocate_shared(ints * static_cast<PURE_Aint>(sizeof(int)), sizeof(int),
                                       PURE_INFO_NULL, W, &part, &win),
              PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    for (int i = 0; i < ints; ++i) part[i] = rank * 100 + i;
    EXPECT_PURE_OK(pure_win_sync(win));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_win_sync(win));
    int* first = nullptr;
    PURE_Aint bytes = 0;
    int unit = 0;
    EXPECT_PURE_OK(pure_win_shared_query(win, 0, &bytes, &unit, &first));
    EXPECT_EQ(bytes, static_cast<PURE_Aint>(sizeof(int)));
    EXPECT_EQ(unit, static_cast<int>(sizeof(int)));
    int* any = nullptr;
    EXPECT_PURE_OK(pure_win_shared_query(win, PURE_PROC_NULL, &bytes, &unit, &any));
    EXPECT_EQ(any, first);
    // Contiguous: rank r's part starts after r(r+1)/2 ints.
    for (int r = 0; r < size; ++r) {
      int* theirs = nullptr;
      EXPECT_PURE_OK(pure_win_shared_query(win, r, &bytes, &unit, &theirs));
      EXPECT_EQ(theirs, first + r * (r + 1) / 2);
      for (int i = 0; i <= r; ++i) ASSERT_EQ(theirs[i], r * 100 + i);
    }
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// Windows on a communicator from a split: ranks are the communicator's,
// and windows of different communicators do not meet.
TEST_P(Rma, WindowsOnSplitCommunicators) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Comm half;
    ASSERT_EQ(pure_comm_split(W, rank % 2, -rank, &half), PURE_SUCCESS);
    int me = -1, n = 0;
    pure_comm_rank(half, &me);
    pure_comm_size(half, &n);
    int slot = -1;
    PURE_Win win;
    ASSERT_EQ(pure_win_create(&slot, sizeof slot, sizeof slot, PURE_INFO_NULL, half, &win),
              PURE_SUCCESS);
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_PURE_OK(pure_put(&rank, 1, PURE_INT, (me + 1) % n, 0, 1, PURE_INT, win));
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    // Ranks are ordered by decreasing world rank within each parity.
    const int prev_in_half = (me + n - 1) % n;
    int expect = -1;
    for (int w = 0, k = 0; w < size; ++w) {
      const int world = size - 1 - w;
      if (world % 2 != rank % 2) continue;
      if (k++ == prev_in_half) expect = world;
    }
    EXPECT_EQ(slot, expect);
    EXPECT_PURE_OK(pure_win_free(&win));
    pure_comm_free(&half);
  });
}

// Heap bytes the process holds, in every arena (not resident memory, which
// the allocator keeps as it likes).
std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// Windows made and freed on a duplicate of the world, thousands of times,
// leave the heap as they found it once each rank's caches are warm (a
// window on a duplicate once leaked about 110 bytes a cycle).
TEST(RmaLifetime, WindowsOnADuplicateLeaveNothingBehind) {
  expect_clean_run(2, [](int rank, int) {
    PURE_Comm dup;
    ASSERT_EQ(pure_comm_dup(W, &dup), PURE_SUCCESS);
    int cell = 0;
    auto cycles = [&](int n) {
      for (int i = 0; i < n; ++i) {
        PURE_Win win;
        ASSERT_EQ(pure_win_create(&cell, sizeof cell, 1, PURE_INFO_NULL, dup, &win), PURE_SUCCESS);
        ASSERT_EQ(pure_win_free(&win), PURE_SUCCESS);
      }
    };
    cycles(500);
    std::size_t before = 0;
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == 0) before = heap_in_use();
    EXPECT_PURE_OK(pure_barrier(W));
    cycles(4000);
    EXPECT_PURE_OK(pure_barrier(W));
    if (rank == 0) {
      const std::size_t after = heap_in_use();
      EXPECT_LT(after, before + 64 * 1024)
          << "the heap grew by " << (after - before) << " bytes over 4000 windows";
    }
    EXPECT_PURE_OK(pure_barrier(W));
    pure_comm_free(&dup);
  });
}

// Counts, per rank, what a window keyval's delete callback saw.
struct Deletions {
  int calls = 0;
  long last = 0;     // the value it deleted last
  int fail_once = 0;  // the next call fails with this code (then 0)
};

int count_deletion(PURE_Win, int, void* value, void* extra) {
  Deletions& d = *static_cast<Deletions*>(extra);
  ++d.calls;
  d.last = *static_cast<long*>(value);
  const int fail = d.fail_once;
  d.fail_once = 0;
  return fail;
}

// Attribute caching on windows is communicators' machinery: set, get,
// replace and delete run the delete callback; the window's free runs it for
// what is left; a freed keyval lives while an attribute holds it; keyvals of
// another kind and the predefined attributes cannot be set; a failing delete
// callback fails the free, which leaves the window usable.
TEST_P(Rma, KeyvalAttributesOnWindows) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    Deletions deletions;
    int key = PURE_KEYVAL_INVALID, other = PURE_KEYVAL_INVALID, comm_key = PURE_KEYVAL_INVALID;
    EXPECT_PURE_OK(pure_win_create_keyval(PURE_WIN_NULL_COPY_FN, count_deletion, &key, &deletions));
    EXPECT_PURE_OK(pure_win_create_keyval(PURE_WIN_DUP_FN, PURE_WIN_NULL_DELETE_FN, &other, nullptr));
    EXPECT_PURE_OK(pure_comm_create_keyval(PURE_COMM_NULL_COPY_FN, PURE_COMM_NULL_DELETE_FN,
                                           &comm_key, nullptr));
    long cell = 0;
    PURE_Win win;
    EXPECT_PURE_OK(pure_win_create(&cell, sizeof cell, sizeof cell, PURE_INFO_NULL, W, &win));

    long first = 100 + rank, second = 200 + rank;
    void* got = nullptr;
    int flag = 1;
    EXPECT_PURE_OK(pure_win_get_attr(win, key, &got, &flag));
    EXPECT_FALSE(flag);
    EXPECT_PURE_OK(pure_win_set_attr(win, key, &first));
    EXPECT_PURE_OK(pure_win_set_attr(win, other, &second));
    EXPECT_PURE_OK(pure_win_get_attr(win, key, &got, &flag));
    EXPECT_TRUE(flag);
    EXPECT_EQ(got, &first);
    EXPECT_EQ(deletions.calls, 0);
    EXPECT_PURE_OK(pure_win_set_attr(win, key, &second));  // replaces: deletes `first`
    EXPECT_EQ(deletions.calls, 1);
    EXPECT_EQ(deletions.last, 100 + rank);
    EXPECT_PURE_OK(pure_win_delete_attr(win, key));
    EXPECT_EQ(deletions.calls, 2);
    EXPECT_EQ(deletions.last, 200 + rank);
    EXPECT_PURE_OK(pure_win_get_attr(win, key, &got, &flag));
    EXPECT_FALSE(flag);

    // Misuse, returned under PURE_ERRORS_RETURN on the window.
    EXPECT_PURE_OK(pure_win_set_errhandler(win, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_set_attr(win, comm_key, &first), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_win_set_attr(win, PURE_WIN_SIZE, &first), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_win_delete_attr(win, PURE_WIN_BASE), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_win_set_attr(win, PURE_KEYVAL_INVALID, &first), PURE_ERR_KEYVAL);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_comm_set_attr(W, key, &first), PURE_ERR_KEYVAL);
    EXPECT_EQ(pure_win_free_keyval(&comm_key), PURE_ERR_KEYVAL);
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));

    // The keyval freed while an attribute holds it: the attribute is still
    // read, and the free's delete callback still gets it.
    EXPECT_PURE_OK(pure_win_set_attr(win, key, &first));
    int freed = key;
    EXPECT_PURE_OK(pure_win_free_keyval(&freed));
    EXPECT_EQ(freed, PURE_KEYVAL_INVALID);
    EXPECT_PURE_OK(pure_win_get_attr(win, key, &got, &flag));
    EXPECT_TRUE(flag);
    EXPECT_EQ(got, &first);
    EXPECT_EQ(pure_win_set_attr(win, key, &second), PURE_ERR_KEYVAL);

    // A failing delete callback fails the free; the window still works.
    deletions.fail_once = PURE_ERR_OTHER;
    EXPECT_EQ(pure_win_free(&win), PURE_ERR_OTHER);
    EXPECT_NE(win, PURE_WIN_NULL);
    EXPECT_EQ(deletions.calls, 3);
    EXPECT_PURE_OK(pure_win_fence(0, win));
    const long mark = rank;
    EXPECT_PURE_OK(pure_put(&mark, 1, PURE_LONG, (rank + 1) % size, 0, 1, PURE_LONG, win));
    EXPECT_PURE_OK(pure_win_fence(0, win));
    EXPECT_EQ(cell, (rank + size - 1) % size);
    EXPECT_PURE_OK(pure_win_free(&win));
    EXPECT_EQ(deletions.calls, 4);
    EXPECT_EQ(deletions.last, 100 + rank);
    EXPECT_PURE_OK(pure_win_free_keyval(&other));
    EXPECT_PURE_OK(pure_comm_free_keyval(&comm_key));
  });
}

std::string info_value(PURE_Info info, const char* key) {
  char value[PURE_MAX_INFO_VAL + 1];
  int flag = 0;
  EXPECT_PURE_OK(pure_info_get(info, key, PURE_MAX_INFO_VAL, value, &flag));
  return flag ? std::string(value) : std::string("(unset)");
}

// A window keeps the hints MPI defines for windows, each with its default
// until a valid value is given at creation or by pure_win_set_info; other
// keys and invalid values are ignored. The window works the same under any.
TEST_P(Rma, InfoHintsOfAWindow) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Info hints;
    EXPECT_PURE_OK(pure_info_create(&hints));
    EXPECT_PURE_OK(pure_info_set(hints, "accumulate_ordering", "raw,war"));
    EXPECT_PURE_OK(pure_info_set(hints, "no_locks", "true"));
    EXPECT_PURE_OK(pure_info_set(hints, "accumulate_ops", "bogus"));
    EXPECT_PURE_OK(pure_info_set(hints, "not_a_window_key", "1"));
    int* cells = nullptr;
    PURE_Win win;
    EXPECT_PURE_OK(pure_win_allocate(sizeof(int), sizeof(int), hints, W, &cells, &win));
    EXPECT_PURE_OK(pure_info_free(&hints));

    PURE_Info used;
    EXPECT_PURE_OK(pure_win_get_info(win, &used));
    EXPECT_EQ(info_value(used, "accumulate_ordering"), "raw,war");
    EXPECT_EQ(info_value(used, "no_locks"), "true");
    EXPECT_EQ(info_value(used, "accumulate_ops"), "same_op_no_op");
    EXPECT_EQ(info_value(used, "same_size"), "false");
    EXPECT_EQ(info_value(used, "not_a_window_key"), "(unset)");
    EXPECT_PURE_OK(pure_info_free(&used));

    EXPECT_PURE_OK(pure_info_create(&hints));
    EXPECT_PURE_OK(pure_info_set(hints, "accumulate_ops", "same_op"));
    EXPECT_PURE_OK(pure_info_set(hints, "accumulate_ordering", "rar,bad"));
    EXPECT_PURE_OK(pure_win_set_info(win, hints));
    EXPECT_PURE_OK(pure_info_free(&hints));
    EXPECT_PURE_OK(pure_win_get_info(win, &used));
    EXPECT_EQ(info_value(used, "accumulate_ops"), "same_op");
    EXPECT_EQ(info_value(used, "accumulate_ordering"), "raw,war");
    EXPECT_PURE_OK(pure_info_free(&used));

    EXPECT_PURE_OK(pure_win_set_errhandler(win, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_win_set_info(win, PURE_INFO_NULL), PURE_ERR_INFO);
    EXPECT_EQ(pure_win_get_info(win, nullptr), PURE_ERR_ARG);

    *cells = 0;
    EXPECT_PURE_OK(pure_win_fence(0, win));
    const int one = 1;
    EXPECT_PURE_OK(pure_accumulate(&one, 1, PURE_INT, 0, 0, 1, PURE_INT, PURE_SUM, win));
    EXPECT_PURE_OK(pure_win_fence(0, win));
    if (rank == 0) {
      EXPECT_EQ(*cells, size);
    }
    EXPECT_PURE_OK(pure_win_free(&win));
  });
}

// MPI-4's large-count forms, on memory from pure_alloc_mem: a window made by
// pure_win_create_c with a 64-bit displacement unit; every communication
// call's _c twin, fenced and under lock_all; pure_win_allocate_shared_c and
// pure_win_shared_query_c. Every element is checked.
TEST_P(Rma, LargeCountFormsOnAllocatedMemory) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr PURE_Count kBlock = 64;
    std::uint64_t* mem = nullptr;
    ASSERT_EQ(pure_alloc_mem(static_cast<PURE_Aint>(4 * kBlock * 8), PURE_INFO_NULL, &mem),
              PURE_SUCCESS);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(mem) % 64, 0u) << "aligned to a cache line";
    for (PURE_Count i = 0; i < 4 * kBlock; ++i) mem[i] = 0;
    PURE_Win win;
    ASSERT_EQ(pure_win_create_c(mem, 4 * kBlock * 8, PURE_Aint{8}, PURE_INFO_NULL, W, &win),
              PURE_SUCCESS);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    std::vector<std::uint64_t> out(kBlock), in(kBlock), fetched(kBlock), old(kBlock);
    for (PURE_Count i = 0; i < kBlock; ++i) out[i] = key_of(rank, 1, i);
    // Block 3 of every window holds what its owner wrote there.
    for (PURE_Count i = 0; i < kBlock; ++i) mem[3 * kBlock + i] = key_of(rank, 3, i);
    EXPECT_PURE_OK(pure_win_fence(0, win));
    // Block 0: a put; block 1: two accumulates (sum); block 2: a get-accumulate.
    EXPECT_PURE_OK(pure_put_c(out.data(), kBlock, PURE_UINT64_T, next, 0, kBlock, PURE_UINT64_T, win));
    EXPECT_PURE_OK(pure_accumulate_c(out.data(), kBlock, PURE_UINT64_T, next, kBlock, kBlock,
                                     PURE_UINT64_T, PURE_SUM, win));
    EXPECT_PURE_OK(pure_accumulate_c(out.data(), kBlock, PURE_UINT64_T, next, kBlock, kBlock,
                                     PURE_UINT64_T, PURE_SUM, win));
    EXPECT_PURE_OK(pure_get_accumulate_c(out.data(), kBlock, PURE_UINT64_T, fetched.data(), kBlock,
                                         PURE_UINT64_T, next, 2 * kBlock, kBlock, PURE_UINT64_T,
                                         PURE_REPLACE, win));
    EXPECT_PURE_OK(pure_get_c(in.data(), kBlock, PURE_UINT64_T, prev, 3 * kBlock, kBlock,
                              PURE_UINT64_T, win));
    EXPECT_PURE_OK(pure_win_fence(0, win));
    for (PURE_Count i = 0; i < kBlock; ++i) {
      ASSERT_EQ(mem[i], key_of(prev, 1, i)) << "put, element " << i;
      ASSERT_EQ(mem[kBlock + i], 2 * key_of(prev, 1, i)) << "accumulate, element " << i;
      ASSERT_EQ(mem[2 * kBlock + i], key_of(prev, 1, i)) << "get_accumulate, element " << i;
      ASSERT_EQ(fetched[i], 0u) << "get_accumulate's result, element " << i;
      ASSERT_EQ(in[i], key_of(prev, 3, i)) << "get, element " << i;
    }
    // The request-based twins under lock_all: the same blocks again.
    EXPECT_PURE_OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_PURE_OK(pure_win_lock_all(0, win));
    PURE_Request req[4];
    for (PURE_Count i = 0; i < kBlock; ++i) out[i] = key_of(rank, 2, i);
    EXPECT_PURE_OK(pure_rput_c(out.data(), kBlock, PURE_UINT64_T, next, 0, kBlock, PURE_UINT64_T,
                               win, &req[0]));
    EXPECT_PURE_OK(pure_raccumulate_c(out.data(), kBlock, PURE_UINT64_T, next, kBlock, kBlock,
                                      PURE_UINT64_T, PURE_REPLACE, win, &req[1]));
    EXPECT_PURE_OK(pure_rget_accumulate_c(out.data(), kBlock, PURE_UINT64_T, old.data(), kBlock,
                                          PURE_UINT64_T, next, 2 * kBlock, kBlock, PURE_UINT64_T,
                                          PURE_REPLACE, win, &req[2]));
    EXPECT_PURE_OK(pure_rget_c(in.data(), kBlock, PURE_UINT64_T, prev, 3 * kBlock, kBlock,
                               PURE_UINT64_T, win, &req[3]));
    EXPECT_PURE_OK(pure_waitall(4, req, PURE_STATUSES_IGNORE));
    EXPECT_PURE_OK(pure_win_unlock_all(win));
    EXPECT_PURE_OK(pure_barrier(W));
    for (PURE_Count i = 0; i < kBlock; ++i) {
      ASSERT_EQ(mem[i], key_of(prev, 2, i)) << "rput, element " << i;
      ASSERT_EQ(mem[kBlock + i], key_of(prev, 2, i)) << "raccumulate, element " << i;
      ASSERT_EQ(mem[2 * kBlock + i], key_of(prev, 2, i)) << "rget_accumulate, element " << i;
      ASSERT_EQ(old[i], key_of(rank, 1, i)) << "rget_accumulate's result, element " << i;
      ASSERT_EQ(in[i], key_of(prev, 3, i)) << "rget, element " << i;
    }
    EXPECT_PURE_OK(pure_win_free(&win));
    EXPECT_PURE_OK(pure_free_mem(mem));

    // Shared memory with a 64-bit unit, queried back through the _c twin.
    char* part = nullptr;
    PURE_Win shared;
    EXPECT_PURE_OK(pure_win_allocate_shared_c(16 * (rank + 1), PURE_Aint{16}, PURE_INFO_NULL, W,
                                              &part, &shared));
    PURE_Aint bytes = 0, unit = 0;
    char* theirs = nullptr;
    EXPECT_PURE_OK(pure_win_shared_query_c(shared, next, &bytes, &unit, &theirs));
    EXPECT_EQ(bytes, 16 * (next + 1));
    EXPECT_EQ(unit, 16);
    int small_unit = 0;
    char* again = nullptr;
    EXPECT_PURE_OK(pure_win_shared_query(shared, next, &bytes, &small_unit, &again));
    EXPECT_EQ(small_unit, 16);
    EXPECT_EQ(again, theirs);
    EXPECT_PURE_OK(pure_win_free(&shared));
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, Rma, kRankCounts, rank_count_name);

}  // namespace
}  // namespace pure_testing
