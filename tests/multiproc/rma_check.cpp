// One-sided communication in a job spread over several processes, run by
// ctest through purerun (label multiproc): windows of every flavour whose
// members live in this and other processes; fence, PSCW and passive target
// with flushes; concurrent accumulates, fetch-and-op tickets and a
// compare-and-swap mutex from every rank; exclusive locks; derived
// datatypes; request-based calls; dynamic and shared windows. Every check
// verifies every value; a failure names the rank and the check and ends
// the job with exit code 1. Rank 0 prints "rma_check: ok (N ranks, P
// processes)" at the end.
#include <pure/pure.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

thread_local int g_rank = -1, g_size = -1;

#define CHECK(cond, ...)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "rma_check: rank %d: %s:%d: check failed: %s: ", g_rank,       \
                   __FILE__, __LINE__, #cond);                                            \
      std::fprintf(stderr, __VA_ARGS__);                                                  \
      std::fprintf(stderr, "\n");                                                         \
      pure_abort(PURE_COMM_WORLD, 1);                                                     \
    }                                                                                     \
  } while (0)

#define OK(call) CHECK((call) == PURE_SUCCESS, "%s", #call)

constexpr PURE_Comm W = PURE_COMM_WORLD;

std::uint64_t value_of(int rank, int epoch, int i) {
  return (static_cast<std::uint64_t>(rank) << 40) ^ (static_cast<std::uint64_t>(epoch) << 20) ^
         static_cast<std::uint64_t>(i * 2654435761u);
}

// Fence epochs on windows of three flavours: every rank puts a block into
// the next rank's window and gets one from the previous rank's.
void fence_ring(int flavor) {
  constexpr int kBlock = 64;
  const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
  std::vector<std::uint64_t> own(2 * kBlock);
  std::uint64_t* mem = own.data();
  PURE_Win win;
  const PURE_Aint bytes = 2 * kBlock * 8;
  if (flavor == PURE_WIN_FLAVOR_CREATE)
    OK(pure_win_create(mem, bytes, 8, PURE_INFO_NULL, W, &win));
  else if (flavor == PURE_WIN_FLAVOR_ALLOCATE)
    OK(pure_win_allocate(bytes, 8, PURE_INFO_NULL, W, &mem, &win));
  else
    OK(pure_win_allocate_shared(bytes, 8, PURE_INFO_NULL, W, &mem, &win));
  std::vector<std::uint64_t> out(kBlock), in(kBlock);
  for (int e = 0; e < 10; ++e) {
    for (int i = 0; i < kBlock; ++i) {
      out[i] = value_of(g_rank, e, i);
      mem[kBlock + i] = value_of(g_rank, e, i) + 1;
    }
    OK(pure_win_fence(0, win));
    OK(pure_put(out.data(), kBlock, PURE_UINT64_T, next, 0, kBlock, PURE_UINT64_T, win));
    OK(pure_get(in.data(), kBlock, PURE_UINT64_T, prev, kBlock, kBlock, PURE_UINT64_T, win));
    OK(pure_win_fence(0, win));
    for (int i = 0; i < kBlock; ++i) {
      CHECK(mem[i] == value_of(prev, e, i), "flavor %d epoch %d: put element %d", flavor, e, i);
      CHECK(in[i] == value_of(prev, e, i) + 1, "flavor %d epoch %d: got element %d", flavor, e, i);
    }
  }
  OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
  OK(pure_win_free(&win));
}

// Accumulates, fetch-and-op tickets and a compare-and-swap mutex, from
// every rank at once on the last rank's memory.
void atomics() {
  constexpr int kRounds = 100;
  struct Mem {
    std::int64_t sum[4];
    double dsum[4];
    long ticket;
    int lock;
    int counter;
  };
  Mem* mem = nullptr;
  PURE_Win win;
  OK(pure_win_allocate(sizeof(Mem), 1, PURE_INFO_NULL, W, &mem, &win));
  std::memset(mem, 0, sizeof(Mem));
  OK(pure_barrier(W));
  const int target = g_size - 1;
  const std::int64_t ones[4] = {1, 2, 3, 4};
  const double halves[4] = {0.5, 0.5, 0.5, 0.5};
  const long one = 1;
  std::vector<long> tickets(kRounds);
  OK(pure_win_lock_all(0, win));
  for (int r = 0; r < kRounds; ++r) {
    OK(pure_accumulate(ones, 4, PURE_INT64_T, target, offsetof(Mem, sum), 4, PURE_INT64_T,
                       PURE_SUM, win));
    OK(pure_accumulate(halves, 4, PURE_DOUBLE, target, offsetof(Mem, dsum), 4, PURE_DOUBLE,
                       PURE_SUM, win));
    OK(pure_fetch_and_op(&one, &tickets[r], PURE_LONG, target, offsetof(Mem, ticket), PURE_SUM,
                         win));
    OK(pure_win_flush(target, win));
  }
  // The mutex: compare-and-swap on `lock`, plain get and put on `counter`.
  const int unlocked = 0, locked = g_rank + 1;
  for (int r = 0; r < 20; ++r) {
    int seen = -1;
    do {
      OK(pure_compare_and_swap(&locked, &unlocked, &seen, PURE_INT, target, offsetof(Mem, lock),
                               win));
      OK(pure_win_flush(target, win));
    } while (seen != 0);
    int c = -1;
    OK(pure_get(&c, 1, PURE_INT, target, offsetof(Mem, counter), 1, PURE_INT, win));
    OK(pure_win_flush(target, win));
    ++c;
    OK(pure_put(&c, 1, PURE_INT, target, offsetof(Mem, counter), 1, PURE_INT, win));
    OK(pure_win_flush(target, win));
    OK(pure_compare_and_swap(&unlocked, &locked, &seen, PURE_INT, target, offsetof(Mem, lock),
                             win));
    OK(pure_win_flush(target, win));
    CHECK(seen == locked, "unlock found %d", seen);
  }
  OK(pure_win_unlock_all(win));
  std::vector<long> all(static_cast<std::size_t>(g_size) * kRounds);
  OK(pure_allgather(tickets.data(), kRounds, PURE_LONG, all.data(), kRounds, PURE_LONG, W));
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i)
    CHECK(all[i] == static_cast<long>(i), "ticket %zu is %ld", i, all[i]);
  OK(pure_barrier(W));
  if (g_rank == target) {
    OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, target, 0, win));
    for (int i = 0; i < 4; ++i) {
      CHECK(mem->sum[i] == static_cast<std::int64_t>(g_size) * kRounds * (i + 1),
            "sum[%d] = %lld", i, static_cast<long long>(mem->sum[i]));
      CHECK(mem->dsum[i] == 0.5 * g_size * kRounds, "dsum[%d] = %g", i, mem->dsum[i]);
    }
    CHECK(mem->counter == 20 * g_size, "counter %d", mem->counter);
    OK(pure_win_unlock(target, win));
  }
  OK(pure_barrier(W));
  OK(pure_win_free(&win));
}

// Exclusive locks serialise read-modify-write through get and put on rank
// 0's pair of counters; request-based gets read them under lock_all.
void locks_and_requests() {
  std::int64_t cell[2] = {0, 0};
  PURE_Win win;
  OK(pure_win_create(cell, sizeof cell, 8, PURE_INFO_NULL, W, &win));
  for (int r = 0; r < 20; ++r) {
    OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, 0, 0, win));
    std::int64_t v[2];
    OK(pure_get(v, 2, PURE_INT64_T, 0, 0, 2, PURE_INT64_T, win));
    OK(pure_win_flush(0, win));
    CHECK(v[0] == v[1], "two holders of an exclusive lock: %lld %lld",
          static_cast<long long>(v[0]), static_cast<long long>(v[1]));
    ++v[0];
    ++v[1];
    OK(pure_put(v, 2, PURE_INT64_T, 0, 0, 2, PURE_INT64_T, win));
    OK(pure_win_unlock(0, win));
  }
  OK(pure_barrier(W));
  std::int64_t got[2] = {-1, -1};
  PURE_Request req;
  OK(pure_win_lock_all(0, win));
  OK(pure_rget(got, 2, PURE_INT64_T, 0, 0, 2, PURE_INT64_T, win, &req));
  OK(pure_wait(&req, PURE_STATUS_IGNORE));
  OK(pure_win_flush(0, win));
  OK(pure_win_unlock_all(win));
  CHECK(got[0] == 20 * g_size && got[1] == 20 * g_size, "counters %lld %lld",
        static_cast<long long>(got[0]), static_cast<long long>(got[1]));
  OK(pure_barrier(W));
  OK(pure_win_free(&win));
}

PURE_Group group_of(int rank) {
  PURE_Group world, g;
  pure_comm_group(W, &world);
  pure_group_incl(world, 1, &rank, &g);
  pure_group_free(&world);
  return g;
}

// PSCW with the neighbours, over process boundaries, many epochs; derived
// datatypes on both sides.
void pscw() {
  constexpr int kCount = 8;
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  PURE_Group to = group_of(right), from = group_of(left);
  PURE_Datatype strided, reversed;
  OK(pure_type_vector(kCount, 1, 2, PURE_INT, &strided));
  std::vector<int> blocklens(kCount, 1), displs(kCount);
  for (int i = 0; i < kCount; ++i) displs[i] = kCount - 1 - i;
  OK(pure_type_indexed(kCount, blocklens.data(), displs.data(), PURE_INT, &reversed));
  pure_type_commit(&strided);
  pure_type_commit(&reversed);
  std::vector<int> mem(kCount, 0);
  PURE_Win win;
  OK(pure_win_create(mem.data(), kCount * sizeof(int), sizeof(int), PURE_INFO_NULL, W, &win));
  for (int e = 0; e < 20; ++e) {
    std::vector<int> src(2 * kCount);
    for (int i = 0; i < 2 * kCount; ++i) src[i] = g_rank * 10000 + e * 100 + i;
    OK(pure_win_post(from, 0, win));
    OK(pure_win_start(to, 0, win));
    OK(pure_put(src.data(), 1, strided, right, 0, 1, reversed, win));
    OK(pure_win_complete(win));
    OK(pure_win_wait(win));
    for (int i = 0; i < kCount; ++i)
      CHECK(mem[kCount - 1 - i] == left * 10000 + e * 100 + 2 * i, "epoch %d element %d: %d", e,
            i, mem[kCount - 1 - i]);
  }
  OK(pure_win_free(&win));
  pure_type_free(&strided);
  pure_type_free(&reversed);
  pure_group_free(&to);
  pure_group_free(&from);
}

// Dynamic windows: memory attached after creation, addressed by address.
void dynamic() {
  PURE_Win win;
  OK(pure_win_create_dynamic(PURE_INFO_NULL, W, &win));
  std::vector<long> region(4, 0);
  OK(pure_win_attach(win, region.data(), 4 * sizeof(long)));
  PURE_Aint mine = 0;
  pure_get_address(region.data(), &mine);
  std::vector<PURE_Aint> at(static_cast<std::size_t>(g_size));
  OK(pure_allgather(&mine, 1, PURE_AINT, at.data(), 1, PURE_AINT, W));
  const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
  const long v = 100 + g_rank;
  OK(pure_win_fence(0, win));
  OK(pure_put(&v, 1, PURE_LONG, next, pure_aint_add(at[next], 2 * sizeof(long)), 1, PURE_LONG,
              win));
  OK(pure_win_fence(PURE_MODE_NOSUCCEED, win));
  CHECK(region[2] == 100 + prev, "dynamic: %ld", region[2]);
  OK(pure_win_detach(win, region.data()));
  OK(pure_win_free(&win));
}

// Shared windows across processes of one node: every rank's part, from any
// process, is plain memory here.
void shared() {
  int* part = nullptr;
  PURE_Win win;
  OK(pure_win_allocate_shared(2 * sizeof(int), sizeof(int), PURE_INFO_NULL, W, &part, &win));
  OK(pure_win_lock_all(0, win));
  part[0] = g_rank * 3;
  part[1] = g_rank * 3 + 1;
  OK(pure_win_sync(win));
  OK(pure_barrier(W));
  OK(pure_win_sync(win));
  for (int r = 0; r < g_size; ++r) {
    int* theirs = nullptr;
    PURE_Aint size = 0;
    int unit = 0;
    OK(pure_win_shared_query(win, r, &size, &unit, &theirs));
    CHECK(size == 2 * static_cast<PURE_Aint>(sizeof(int)) && unit == static_cast<int>(sizeof(int)),
          "rank %d: size %td unit %d", r, static_cast<std::ptrdiff_t>(size), unit);
    CHECK(theirs[0] == r * 3 && theirs[1] == r * 3 + 1, "rank %d's part: %d %d", r, theirs[0],
          theirs[1]);
  }
  OK(pure_win_unlock_all(win));
  OK(pure_barrier(W));
  OK(pure_win_free(&win));
}

// `rma_check huge`: 2^31 + 24 bytes, over MPI's int count, put from rank 0
// into the last rank's window (another process), read back by a get, then
// written over by an accumulate with PURE_REPLACE; every byte checked at the
// target and at the origin.
void huge() {
  constexpr std::size_t kBytes = (std::size_t{1} << 31) + 24;
  const int last = g_size - 1;
  auto byte = [](std::size_t i, int round) {
    return static_cast<unsigned char>((i * 131 + (i >> 20) * 7 + static_cast<std::size_t>(round)) & 0xFF);
  };
  unsigned char* mem = nullptr;
  PURE_Win win;
  OK(pure_win_allocate(g_rank == last ? static_cast<PURE_Aint>(kBytes) : 0, 1, PURE_INFO_NULL, W,
                       &mem, &win));
  std::vector<unsigned char> data(g_rank == 0 ? kBytes : 0);
  for (int round = 0; round < 2; ++round) {
    if (g_rank == 0) {
      for (std::size_t i = 0; i < kBytes; ++i) data[i] = byte(i, round);
      OK(pure_win_lock(PURE_LOCK_EXCLUSIVE, last, 0, win));
      if (round == 0)
        OK(pure_put_c(data.data(), static_cast<PURE_Count>(kBytes), PURE_BYTE, last, 0,
                      static_cast<PURE_Count>(kBytes), PURE_BYTE, win));
      else
        OK(pure_accumulate_c(data.data(), static_cast<PURE_Count>(kBytes), PURE_BYTE, last, 0,
                             static_cast<PURE_Count>(kBytes), PURE_BYTE, PURE_REPLACE, win));
      OK(pure_win_unlock(last, win));
      std::memset(data.data(), 0, kBytes);
      OK(pure_win_lock(PURE_LOCK_SHARED, last, 0, win));
      OK(pure_get_c(data.data(), static_cast<PURE_Count>(kBytes), PURE_BYTE, last, 0,
                    static_cast<PURE_Count>(kBytes), PURE_BYTE, win));
      OK(pure_win_unlock(last, win));
      for (std::size_t i = 0; i < kBytes; ++i)
        CHECK(data[i] == byte(i, round), "round %d: byte %zu got back is %d", round, i, data[i]);
    }
    OK(pure_barrier(W));
    if (g_rank == last) {
      OK(pure_win_lock(PURE_LOCK_SHARED, last, 0, win));
      for (std::size_t i = 0; i < kBytes; ++i)
        CHECK(mem[i] == byte(i, round), "round %d: byte %zu at the target is %d", round, i, mem[i]);
      OK(pure_win_unlock(last, win));
    }
    OK(pure_barrier(W));
  }
  OK(pure_win_free(&win));
}

}  // namespace

extern "C" int pure_main(int argc, char** argv) {
  OK(pure_init(&argc, &argv));
  pure_comm_rank(W, &g_rank);
  pure_comm_size(W, &g_size);
  if (argc > 1 && std::strcmp(argv[1], "huge") == 0) {
    huge();
    if (g_rank == 0) std::printf("rma_check huge: ok\n");
    return pure_finalize() == PURE_SUCCESS ? 0 : 1;
  }
  for (int flavor : {PURE_WIN_FLAVOR_CREATE, PURE_WIN_FLAVOR_ALLOCATE, PURE_WIN_FLAVOR_SHARED})
    fence_ring(flavor);
  atomics();
  locks_and_requests();
  pscw();
  dynamic();
  shared();
  OK(pure_barrier(W));
  if (g_rank == 0) {
    const char* procs = std::getenv("PURE_PROCS");
    std::printf("rma_check: ok (%d ranks, %s processes)\n", g_size, procs ? procs : "1");
  }
  return pure_finalize() == PURE_SUCCESS ? 0 : 1;
}
