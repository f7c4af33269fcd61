// The PGAS API (pure/pgas.h) in a job spread over several processes, run
// by ctest through purerun (label multiproc), and in one process as fibers
// and as threads: the symmetric heap's layout, puts and gets of many sizes
// to every PE, strided ones, atomics from every rank at once (every ticket
// handed out once), a ring of data-then-flag puts with wait_until, active
// messages with replies to every rank, and locks. Every check verifies
// every value; a failure names the rank and the check and ends the job
// with exit code 1. Rank 0 prints "pgas_check: ok (N ranks, P processes)".
#include <pure/pure.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

thread_local int g_rank = -1, g_size = -1;

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      std::fprintf(stderr, "pgas_check: rank %d: %s:%d: check failed: %s: ", g_rank, __FILE__, \
                   __LINE__, #cond);                                                           \
      std::fprintf(stderr, __VA_ARGS__);                                                       \
      std::fprintf(stderr, "\n");                                                              \
      pure_abort(PURE_COMM_WORLD, 1);                                                          \
    }                                                                                          \
  } while (0)

unsigned char byte_of(int writer, int pe, std::size_t bytes, std::size_t i) {
  return static_cast<unsigned char>((writer * 131 + pe * 17 + bytes * 7 + i * 29) & 0xff);
}

// Every rank writes slot `rank` of every PE's buffer, for many sizes, then
// checks what every rank wrote into its own, and reads back its writes.
void put_get() {
  const std::size_t kSizes[] = {1, 4, 8, 12, 256, 8192, 70000};
  constexpr std::size_t kSlot = 70008;
  auto* heap = static_cast<unsigned char*>(pure_sym_malloc(kSlot * g_size));
  CHECK(heap, "pure_sym_malloc of %zu bytes", kSlot * g_size);
  std::vector<unsigned char> buf(kSlot);
  for (std::size_t bytes : kSizes) {
    for (int nbi = 0; nbi < 2; ++nbi) {
      for (int pe = 0; pe < g_size; ++pe) {
        for (std::size_t i = 0; i < bytes; ++i) buf[i] = byte_of(g_rank, pe, bytes, i);
        if (nbi) {
          pure_putmem_nbi(heap + kSlot * g_rank, buf.data(), bytes, pe);
          pure_quiet();  // buf is rewritten next
        } else {
          pure_putmem(heap + kSlot * g_rank, buf.data(), bytes, pe);
        }
      }
      pure_barrier_all();
      for (int from = 0; from < g_size; ++from)
        for (std::size_t i = 0; i < bytes; ++i)
          CHECK(heap[kSlot * from + i] == byte_of(from, g_rank, bytes, i),
                "byte %zu of %zu from rank %d", i, bytes, from);
      for (int pe = 0; pe < g_size; ++pe) {
        std::memset(buf.data(), 0, bytes);
        if (nbi) {
          pure_getmem_nbi(buf.data(), heap + kSlot * g_rank, bytes, pe);
          pure_quiet();
        } else {
          pure_getmem(buf.data(), heap + kSlot * g_rank, bytes, pe);
        }
        for (std::size_t i = 0; i < bytes; ++i)
          CHECK(buf[i] == byte_of(g_rank, pe, bytes, i), "got byte %zu of %zu from PE %d", i, bytes,
                pe);
      }
      pure_barrier_all();
    }
  }
  // Strided: every second int64 at the next PE from a packed row here.
  constexpr int kN = 40;
  auto* grid = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t) * 2 * kN));
  for (int i = 0; i < 2 * kN; ++i) grid[i] = -1;
  std::vector<std::int64_t> row(kN);
  for (int i = 0; i < kN; ++i) row[i] = g_rank * 1000 + i;
  pure_barrier_all();
  const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
  pure_iputmem(grid, row.data(), 2, 1, sizeof(std::int64_t), kN, next);
  pure_barrier_all();
  for (int i = 0; i < 2 * kN; ++i)
    CHECK(grid[i] == (i % 2 ? -1 : prev * 1000 + i / 2), "grid[%d] = %lld", i,
          static_cast<long long>(grid[i]));
  std::vector<std::int64_t> back(kN, 0);
  pure_igetmem(back.data(), grid, 1, 2, sizeof(std::int64_t), kN, next);
  for (int i = 0; i < kN; ++i)
    CHECK(back[i] == g_rank * 1000 + i, "back[%d] = %lld", i, static_cast<long long>(back[i]));
  pure_barrier_all();
  pure_sym_free(grid);
  pure_sym_free(heap);
}

// Tickets from PE 0's counter (a fetch-or bitmap proves each is handed out
// once), sums at every PE, a compare-and-swap mutex around a get and put.
void atomics() {
  constexpr int kRounds = 40;
  constexpr int kMutexRounds = 2;
  struct Words {
    std::int64_t ticket;
    std::int64_t sum;
    std::int32_t sum32;
    std::int32_t mutex;
    std::int64_t guarded;
    std::int64_t bitmap[64];
  };
  auto* w = static_cast<Words*>(pure_sym_malloc(sizeof(Words)));
  std::memset(w, 0, sizeof *w);
  pure_barrier_all();
  const int total = kRounds * g_size;
  CHECK(total <= 64 * 64, "too many ranks for the bitmap: %d", g_size);
  for (int i = 0; i < kRounds; ++i) {
    const std::int64_t t = pure_int64_atomic_fetch_inc(&w->ticket, 0);
    CHECK(t >= 0 && t < total, "ticket %lld", static_cast<long long>(t));
    const std::int64_t bit = std::int64_t{1} << (t % 64);
    const std::int64_t old = pure_int64_atomic_fetch_or(&w->bitmap[t / 64], bit, 0);
    CHECK(!(old & bit), "ticket %lld handed out twice", static_cast<long long>(t));
    for (int pe = 0; pe < g_size; ++pe) pure_int64_atomic_add(&w->sum, g_rank + 1, pe);
    pure_int32_atomic_fetch_add(&w->sum32, 1, (g_rank + i) % g_size);
    // Every rank spinning on one word through MPI is slow between
    // processes on 2 cores: a few rounds prove the mutex.
    if (i >= kMutexRounds) continue;
    while (pure_int32_atomic_compare_swap(&w->mutex, 0, g_rank + 1, 0) != 0) pure_am_poll();
    const std::int64_t v = pure_int64_g(&w->guarded, 0);
    pure_int64_p(&w->guarded, v + 1, 0);
    pure_quiet();  // the put lands before the mutex is free
    const std::int32_t held = pure_int32_atomic_swap(&w->mutex, 0, 0);
    CHECK(held == g_rank + 1, "mutex held by %d", held);
  }
  pure_barrier_all();
  const std::int64_t sum = pure_int64_atomic_fetch(&w->sum, g_rank);
  CHECK(sum == std::int64_t{kRounds} * g_size * (g_size + 1) / 2, "sum %lld",
        static_cast<long long>(sum));
  const std::int32_t sum32 = pure_int32_atomic_fetch(&w->sum32, g_rank);
  CHECK(sum32 == kRounds, "sum32 %d", sum32);
  if (g_rank == 0) {
    CHECK(pure_int64_atomic_fetch(&w->ticket, 0) == total, "tickets");
    CHECK(pure_int64_atomic_fetch(&w->guarded, 0) == kMutexRounds * g_size, "guarded %lld",
          static_cast<long long>(pure_int64_atomic_fetch(&w->guarded, 0)));
  }
  pure_barrier_all();
  pure_sym_free(w);
}

// A ring of data-then-flag puts, round after round.
void ring() {
  constexpr int kRounds = 20;
  constexpr std::size_t kBytes = 2048;
  auto* data = static_cast<unsigned char*>(pure_sym_malloc(kBytes));
  auto* flag = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t)));
  *flag = 0;
  pure_barrier_all();
  const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
  std::vector<unsigned char> buf(kBytes);
  for (int round = 1; round <= kRounds; ++round) {
    if (g_rank != 0) {
      pure_int64_wait_until(flag, PURE_CMP_GE, round);
      for (std::size_t i = 0; i < kBytes; ++i)
        CHECK(data[i] == byte_of(prev, round, kBytes, i), "round %d byte %zu", round, i);
    }
    for (std::size_t i = 0; i < kBytes; ++i) buf[i] = byte_of(g_rank, round, kBytes, i);
    pure_putmem(data, buf.data(), kBytes, next);
    pure_fence();
    pure_int64_p(flag, round, next);
    if (g_rank == 0) {
      pure_int64_wait_until(flag, PURE_CMP_EQ, round);
      for (std::size_t i = 0; i < kBytes; ++i)
        CHECK(data[i] == byte_of(prev, round, kBytes, i), "round %d byte %zu", round, i);
    }
  }
  pure_barrier_all();
  pure_sym_free(flag);
  pure_sym_free(data);
}

thread_local std::int64_t t_handled = 0, t_replies = 0, t_reply_sum = 0;
std::atomic<int> g_reply_id{-1};  // the same id on every rank (registered alike)

void on_reply(const pure_am_info_t* info, void* payload, std::size_t bytes) {
  CHECK(info->is_reply && bytes == sizeof(std::int64_t), "reply of %zu bytes", bytes);
  std::int64_t v = 0;
  std::memcpy(&v, payload, sizeof v);
  ++t_replies;
  t_reply_sum += v;
}

void on_request(const pure_am_info_t* info, void* payload, std::size_t bytes) {
  CHECK(info->target == g_rank, "handler for %d ran on %d", info->target, g_rank);
  const auto* p = static_cast<const unsigned char*>(payload);
  for (std::size_t i = 0; i < bytes; ++i)
    CHECK(p[i] == byte_of(info->source, g_rank, bytes, i), "payload byte %zu of %zu from %d", i,
          bytes, info->source);
  ++t_handled;
  const std::int64_t answer = info->source * 100000 + static_cast<std::int64_t>(bytes);
  CHECK(pure_am_reply(info, g_reply_id.load(), &answer, sizeof answer) == PURE_SUCCESS, "reply");
}

// Requests with payloads to every rank, replies back, quiet; then locks.
void active_messages() {
  int request = -1, reply = -1;
  CHECK(pure_am_register(on_request, PURE_AM_DEFAULT, &request) == PURE_SUCCESS, "register");
  CHECK(pure_am_register(on_reply, PURE_AM_DEFAULT, &reply) == PURE_SUCCESS, "register");
  g_reply_id.store(reply);
  pure_barrier_all();
  const std::size_t kSizes[] = {0, 8, 3000};
  std::int64_t expected = 0;
  int sent = 0;
  std::vector<unsigned char> p(3000);
  for (int round = 0; round < 3; ++round) {
    for (int pe = 0; pe < g_size; ++pe) {
      for (std::size_t bytes : kSizes) {
        for (std::size_t i = 0; i < bytes; ++i) p[i] = byte_of(g_rank, pe, bytes, i);
        CHECK(pure_am_request(pe, request, p.data(), bytes) == PURE_SUCCESS, "request");
        expected += g_rank * 100000 + static_cast<std::int64_t>(bytes);
        ++sent;
      }
    }
  }
  CHECK(pure_am_quiet() == PURE_SUCCESS, "quiet");
  CHECK(t_replies == sent && t_reply_sum == expected, "replies %lld of %d, sum %lld of %lld",
        static_cast<long long>(t_replies), sent, static_cast<long long>(t_reply_sum),
        static_cast<long long>(expected));
  pure_barrier_all();
  CHECK(t_handled == 9 * g_size, "handled %lld", static_cast<long long>(t_handled));

  constexpr int kRounds = 20;
  auto* lock = static_cast<pure_lock_t*>(pure_sym_malloc(sizeof(pure_lock_t)));
  auto* counter = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t)));
  *counter = 0;
  pure_barrier_all();
  for (int i = 0; i < kRounds; ++i) {
    pure_set_lock(&lock[0]);
    const std::int64_t v = pure_int64_g(counter, g_size - 1);
    pure_int64_p(counter, v + 1, g_size - 1);
    pure_clear_lock(&lock[0]);
  }
  pure_barrier_all();
  if (g_rank == g_size - 1)
    CHECK(*counter == std::int64_t{kRounds} * g_size, "counter %lld",
          static_cast<long long>(*counter));
  pure_barrier_all();
  pure_sym_free(counter);
  pure_sym_free(lock);
}

// `pgas_check huge`: 2^31 + 24 bytes, over MPI's int count, put by
// pure_putmem from PE 0 into the last PE's part of the heap (another
// process), then read back by pure_getmem; every byte checked at the
// target and at the origin. The heap must hold it (PURE_SYM_HEAP).
void huge() {
  constexpr std::size_t kBytes = (std::size_t{1} << 31) + 24;
  auto byte = [](std::size_t i) {
    return static_cast<unsigned char>((i * 131 + (i >> 20) * 7) & 0xFF);
  };
  auto* heap = static_cast<unsigned char*>(pure_sym_malloc(kBytes));
  CHECK(heap != nullptr, "a heap of %zu bytes (PURE_SYM_HEAP)", kBytes);
  const int last = g_size - 1;
  if (g_rank == 0) {
    std::vector<unsigned char> data(kBytes);
    for (std::size_t i = 0; i < kBytes; ++i) data[i] = byte(i);
    pure_putmem(heap, data.data(), kBytes, last);
    std::memset(data.data(), 0, kBytes);
    pure_getmem(data.data(), heap, kBytes, last);
    for (std::size_t i = 0; i < kBytes; ++i)
      CHECK(data[i] == byte(i), "byte %zu got back is %d", i, data[i]);
  }
  pure_barrier_all();
  if (g_rank == last)
    for (std::size_t i = 0; i < kBytes; ++i)
      CHECK(heap[i] == byte(i), "byte %zu at the target is %d", i, heap[i]);
  pure_barrier_all();
  pure_sym_free(heap);
}

}  // namespace

extern "C" int pure_main(int argc, char** argv) {
  CHECK(pure_init(&argc, &argv) == PURE_SUCCESS, "init");
  g_rank = pure_my_pe();
  g_size = pure_n_pes();
  if (argc > 1 && std::strcmp(argv[1], "huge") == 0) {
    huge();
    if (g_rank == 0) std::printf("pgas_check huge: ok\n");
    return pure_finalize() == PURE_SUCCESS ? 0 : 1;
  }
  put_get();
  atomics();
  ring();
  active_messages();
  pure_barrier_all();
  if (g_rank == 0) {
    const char* procs = std::getenv("PURE_PROCS");
    std::printf("pgas_check: ok (%d ranks, %s processes)\n", g_size, procs ? procs : "1");
  }
  return pure_finalize() == PURE_SUCCESS ? 0 : 1;
}
