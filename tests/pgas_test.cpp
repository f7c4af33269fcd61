// The PGAS API (pure/pgas.h) within a process, 2 to 16 ranks on the 2
// cores: the symmetric heap hands out the same offsets everywhere; puts and
// gets of every size (blocking, _nbi, strided, single values) move every
// byte; atomics from every rank at once lose nothing and hand out every
// ticket once; wait_until sees data put before a flag; active messages run
// on the target while it waits in any call, replies reach the requester,
// any-thread handlers run, and quiet counts them all; locks exclude; and
// misuse is an error naming the rank, the call and the bad value.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "harness.h"
#include "pure/pure.hpp"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Pgas : public testing::TestWithParam<int> {};

// Every rank writes its number into slot `rank` of every PE's copy of an
// array; each PE then finds every slot filled: the same offsets everywhere,
// also after frees made room in the middle of the heap.
TEST_P(Pgas, SymmetricHeapHasTheSameLayoutEverywhere) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    EXPECT_EQ(pure_my_pe(), rank);
    EXPECT_EQ(pure_n_pes(), size);
    auto* a = static_cast<std::int64_t*>(pure_sym_malloc(100));
    auto* b = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t) * size));
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
    EXPECT_TRUE(pure_sym_accessible(b));
    int local = 0;
    EXPECT_FALSE(pure_sym_accessible(&local));
    pure_sym_free(a);
    // Fits where `a` was: first fit gives the same hole on every rank.
    auto* c = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t) * size));
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(static_cast<void*>(c), static_cast<void*>(a));
    for (int i = 0; i < size; ++i) {
      b[i] = -1;
      c[i] = -1;
    }
    pure_barrier_all();
    for (int pe = 0; pe < size; ++pe) {
      pure_int64_p(&b[rank], rank, pe);
      // The same through a direct pointer to pe's copy.
      auto* there = static_cast<std::int64_t*>(pure_sym_ptr(&c[rank], pe));
      ASSERT_NE(there, nullptr);
      __atomic_store_n(there, 1000 + rank, __ATOMIC_RELAXED);
    }
    pure_barrier_all();
    for (int i = 0; i < size; ++i) {
      EXPECT_EQ(b[i], i) << "slot " << i << " at PE " << rank;
      EXPECT_EQ(__atomic_load_n(&c[i], __ATOMIC_RELAXED), 1000 + i);
    }
    pure_sym_free(b);
    pure_sym_free(c);
    // Zero bytes: no memory, on every rank.
    EXPECT_EQ(pure_sym_malloc(0), nullptr);
  });
}

// Puts and gets of many sizes and alignments, to and from every PE, verify
// every byte; _nbi ones after a quiet; strided ones element by element.
TEST_P(Pgas, PutAndGetMoveEveryByte) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    const std::size_t kSizes[] = {1, 3, 4, 8, 13, 64, 4096, 100000};
    constexpr std::size_t kSlot = 100008;  // room for the largest at offset 8
    auto* heap = static_cast<unsigned char*>(pure_sym_malloc(kSlot * size));
    ASSERT_NE(heap, nullptr);
    std::vector<unsigned char> buf(kSlot);
    for (std::size_t bytes : kSizes) {
      for (std::size_t shift : {std::size_t{0}, std::size_t{1}}) {
        for (bool nbi : {false, true}) {
          // Rank r writes slot r of every PE.
          for (int pe = 0; pe < size; ++pe) {
            fill_payload(buf.data(), bytes, key_of(rank, pe, bytes, shift));
            unsigned char* dest = heap + kSlot * rank + shift;
            if (nbi)
              pure_putmem_nbi(dest, buf.data(), bytes, pe);
            else
              pure_putmem(dest, buf.data(), bytes, pe);
            if (nbi) pure_quiet();
          }
          pure_barrier_all();
          for (int from = 0; from < size; ++from)
            EXPECT_TRUE(
                payload_ok(heap + kSlot * from + shift, bytes, key_of(from, rank, bytes, shift)))
                << bytes << " bytes from " << from;
          // Read back what this rank wrote at every PE.
          for (int pe = 0; pe < size; ++pe) {
            std::fill(buf.begin(), buf.end(), 0);
            const unsigned char* source = heap + kSlot * rank + shift;
            if (nbi) {
              pure_getmem_nbi(buf.data(), source, bytes, pe);
              pure_quiet();
            } else {
              pure_getmem(buf.data(), source, bytes, pe);
            }
            EXPECT_TRUE(payload_ok(buf.data(), bytes, key_of(rank, pe, bytes, shift)));
          }
          pure_barrier_all();
        }
      }
    }
    // Strided: every third int32 of this rank's row at the next PE, from
    // every second one here; then back.
    constexpr int kN = 50;
    auto* grid = static_cast<std::int32_t*>(pure_sym_malloc(sizeof(std::int32_t) * 3 * kN * size));
    std::vector<std::int32_t> src(2 * kN);
    for (int i = 0; i < 2 * kN; ++i) src[static_cast<std::size_t>(i)] = rank * 10000 + i;
    std::fill(grid, grid + 3 * kN * size, -1);
    pure_barrier_all();
    const int next = (rank + 1) % size;
    pure_iputmem(grid + 3 * kN * rank, src.data(), 3, 2, sizeof(std::int32_t), kN, next);
    pure_barrier_all();
    const int prev = (rank + size - 1) % size;
    for (int i = 0; i < 3 * kN; ++i)
      EXPECT_EQ(grid[3 * kN * prev + i], i % 3 == 0 ? prev * 10000 + (i / 3) * 2 : -1) << i;
    std::vector<std::int32_t> back(kN, 0);
    pure_igetmem(back.data(), grid + 3 * kN * rank, 1, 3, sizeof(std::int32_t), kN, next);
    for (int i = 0; i < kN; ++i) EXPECT_EQ(back[static_cast<std::size_t>(i)], rank * 10000 + 2 * i);
    EXPECT_EQ(pure_int32_g(grid + 3 * kN * rank, next), rank * 10000);
    pure_barrier_all();
    pure_sym_free(grid);
    pure_sym_free(heap);
  });
}

// Every rank at once on the same words of PE 0 (and of its neighbour):
// fetch-inc hands out every ticket exactly once (a fetch-or bitmap proves
// it), adds and xors sum up, a compare-and-swap mutex protects plain
// read-modify-writes, swaps pass one token around.
TEST_P(Pgas, AtomicsFromEveryRankLoseNothing) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRounds = 100;
    struct Words {
      std::int64_t ticket;
      std::int64_t sum;
      std::int32_t sum32;
      std::int32_t mutex;
      std::int64_t guarded;
      std::int64_t xors;
      std::int32_t ors;
      std::int32_t ands;
      std::int64_t bitmap[64];
    };
    auto* w = static_cast<Words*>(pure_sym_malloc(sizeof(Words)));
    std::memset(w, 0, sizeof *w);
    w->ands = -1;
    pure_barrier_all();
    const int total = kRounds * size;
    ASSERT_LE(total, 64 * 64);
    for (int i = 0; i < kRounds; ++i) {
      const std::int64_t t = pure_int64_atomic_fetch_inc(&w->ticket, 0);
      ASSERT_GE(t, 0);
      ASSERT_LT(t, total);
      const std::int64_t bit = std::int64_t{1} << (t % 64);
      const std::int64_t old = pure_int64_atomic_fetch_or(&w->bitmap[t / 64], bit, 0);
      EXPECT_EQ(old & bit, 0) << "ticket " << t << " handed out twice";
      pure_int64_atomic_add(&w->sum, rank + 1, 0);
      EXPECT_GE(pure_int32_atomic_fetch_add(&w->sum32, 2, (rank + 1) % size), 0);
      pure_int64_atomic_fetch_xor(&w->xors, std::int64_t{1} << (rank % 60), 0);
      pure_int32_atomic_fetch_or(&w->ors, 1 << (rank % 31), 0);
      if (i == 0) pure_int32_atomic_fetch_and(&w->ands, ~(1 << (rank % 31)), 0);
      // The mutex: a plain get, add and put under it.
      while (pure_int32_atomic_compare_swap(&w->mutex, 0, rank + 1, 0) != 0) pure_am_poll();
      const std::int64_t v = pure_int64_g(&w->guarded, 0);
      pure_int64_p(&w->guarded, v + 1, 0);
      EXPECT_EQ(pure_int32_atomic_swap(&w->mutex, 0, 0), rank + 1);
    }
    pure_barrier_all();
    if (rank == 0) {
      EXPECT_EQ(pure_int64_atomic_fetch(&w->ticket, 0), total);
      EXPECT_EQ(w->sum, std::int64_t{kRounds} * size * (size + 1) / 2);
      EXPECT_EQ(w->guarded, total);
      for (int t = 0; t < total; ++t)
        EXPECT_TRUE(w->bitmap[t / 64] & (std::int64_t{1} << (t % 64)));
      std::int64_t xors = 0;
      std::int32_t ors = 0;
      std::int32_t ands = -1;
      for (int r = 0; r < size; ++r) {
        for (int i = 0; i < kRounds; ++i) xors ^= std::int64_t{1} << (r % 60);
        ors |= 1 << (r % 31);
        ands &= ~(1 << (r % 31));
      }
      EXPECT_EQ(w->xors, xors);
      EXPECT_EQ(w->ors, ors);
      EXPECT_EQ(w->ands, ands);
    }
    EXPECT_EQ(pure_int32_atomic_fetch(&w->sum32, rank), 2 * kRounds);
    pure_int32_atomic_set(&w->sum32, -5, rank);
    EXPECT_EQ(w->sum32, -5);
    pure_barrier_all();
    pure_sym_free(w);
  });
}

// A ring of data-then-flag puts: each rank waits for its flag and then
// finds the data that was put before it, round after round.
TEST_P(Pgas, WaitUntilSeesTheDataPutBeforeTheFlag) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRounds = 30;
    constexpr std::size_t kBytes = 4096;
    auto* data = static_cast<unsigned char*>(pure_sym_malloc(kBytes));
    auto* flag = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t)));
    auto* flag32 = static_cast<std::int32_t*>(pure_sym_malloc(sizeof(std::int32_t)));
    *flag = 0;
    *flag32 = 0;
    pure_barrier_all();
    const int next = (rank + 1) % size;
    const int prev = (rank + size - 1) % size;
    std::vector<unsigned char> buf(kBytes);
    for (int round = 1; round <= kRounds; ++round) {
      // The ring starts at rank 0; every other rank passes it on.
      if (rank != 0) {
        pure_int64_wait_until(flag, PURE_CMP_GE, round);
        EXPECT_TRUE(payload_ok(data, kBytes, key_of(prev, round)));
      }
      fill_payload(buf.data(), kBytes, key_of(rank, round));
      pure_putmem(data, buf.data(), kBytes, next);
      pure_fence();
      pure_int64_p(flag, round, next);
      if (rank == 0) {
        pure_int64_wait_until(flag, PURE_CMP_EQ, round);
        EXPECT_TRUE(payload_ok(data, kBytes, key_of(prev, round)));
      }
    }
    // 32-bit flags through an atomic, and the test form.
    pure_int32_atomic_add(flag32, 1, next);
    pure_int32_wait_until(flag32, PURE_CMP_NE, 0);
    EXPECT_TRUE(pure_int32_test(flag32, PURE_CMP_EQ, 1));
    EXPECT_FALSE(pure_int64_test(flag, PURE_CMP_LT, 0));
    pure_barrier_all();
    pure_sym_free(flag32);
    pure_sym_free(flag);
    pure_sym_free(data);
  });
}

// ---- active messages ----

// Per rank (thread_local: the handlers run on the target's thread, or for
// any-thread ones on some rank's thread of the process).
thread_local std::int64_t t_handled = 0;
thread_local std::int64_t t_replies = 0;
thread_local std::int64_t t_reply_sum = 0;
std::atomic<std::int64_t> g_any_handled{0};
std::atomic<int> g_wrong_target{0};
std::atomic<int> g_echo_reply{-1};  // the same id on every rank (registered alike)

void on_reply(const pure_am_info_t* info, void* payload, std::size_t bytes) {
  EXPECT_TRUE(info->is_reply);
  EXPECT_EQ(bytes, sizeof(std::int64_t));
  std::int64_t v = 0;
  std::memcpy(&v, payload, sizeof v);
  ++t_replies;
  t_reply_sum += v;
}

// Checks the payload (key_of(source, n), n bytes), counts, and replies
// with source * 1000 + bytes.
void on_echo(const pure_am_info_t* info, void* payload, std::size_t bytes) {
  EXPECT_FALSE(info->is_reply);
  EXPECT_TRUE(payload_ok(payload, bytes, key_of(info->source, bytes)));
  if (info->target != pure_my_pe()) g_wrong_target.fetch_add(1);
  ++t_handled;
  const std::int64_t answer = info->source * 1000 + static_cast<std::int64_t>(bytes);
  EXPECT_EQ(pure_am_reply(info, g_echo_reply.load(), &answer, sizeof answer), PURE_SUCCESS);
}

void on_any(const pure_am_info_t* info, void*, std::size_t) {
  EXPECT_FALSE(info->is_reply);
  g_any_handled.fetch_add(1, std::memory_order_relaxed);
}

// Requests to every rank with payloads of many sizes, while the targets
// wait in other calls (a barrier, a receive): every handler runs on its
// target, every reply reaches its requester, quiet waits for all.
TEST_P(Pgas, ActiveMessagesRunWhileTargetsWaitAndRepliesReturn) {
  g_any_handled = 0;
  g_wrong_target = 0;
  expect_clean_run(GetParam(), [](int rank, int size) {
    t_handled = t_replies = t_reply_sum = 0;
    int echo = -1, reply = -1, any = -1;
    ASSERT_EQ(pure_am_register(on_echo, PURE_AM_DEFAULT, &echo), PURE_SUCCESS);
    ASSERT_EQ(pure_am_register(on_reply, PURE_AM_DEFAULT, &reply), PURE_SUCCESS);
    ASSERT_EQ(pure_am_register(on_any, PURE_AM_ANY_THREAD, &any), PURE_SUCCESS);
    EXPECT_EQ(echo, 0);
    EXPECT_EQ(reply, 1);
    EXPECT_EQ(any, 2);
    g_echo_reply = reply;
    EXPECT_PURE_OK(pure_barrier(W));
    const std::size_t kSizes[] = {0, 1, 8, 100, 5000};
    std::int64_t expected_sum = 0;
    int sent = 0;
    for (int pe = 0; pe < size; ++pe) {
      for (std::size_t bytes : kSizes) {
        std::vector<char> p = make_payload(bytes, key_of(rank, bytes));
        ASSERT_EQ(pure_am_request(pe, echo, p.data(), bytes), PURE_SUCCESS);
        ASSERT_EQ(pure_am_request(pe, any, nullptr, 0), PURE_SUCCESS);
        expected_sum += rank * 1000 + static_cast<std::int64_t>(bytes);
        ++sent;
      }
    }
    ASSERT_EQ(pure_am_quiet(), PURE_SUCCESS);
    EXPECT_EQ(t_replies, sent);
    EXPECT_EQ(t_reply_sum, expected_sum);
    // A target blocked in a receive from the requester still runs the
    // request: the requester waits for the reply before it sends.
    if (size > 1) {
      if (rank == 0) {
        int x = 0;
        EXPECT_PURE_OK(pure_recv(&x, 1, PURE_INT, 1, 7, W, PURE_STATUS_IGNORE));
        EXPECT_EQ(x, 42);
      } else if (rank == 1) {
        const std::int64_t before = t_replies;
        ASSERT_EQ(pure_am_request(0, echo, nullptr, 0), PURE_SUCCESS);
        ASSERT_EQ(pure_am_quiet(), PURE_SUCCESS);
        EXPECT_EQ(t_replies, before + 1);
        int x = 42;
        EXPECT_PURE_OK(pure_send(&x, 1, PURE_INT, 0, 7, W));
      }
    }
    EXPECT_PURE_OK(pure_barrier(W));
    // Everything sent to this rank ran here.
    const std::int64_t extra = (size > 1 && rank == 0) ? 1 : 0;
    EXPECT_EQ(t_handled, static_cast<std::int64_t>(size) * 5 + extra);
    EXPECT_PURE_OK(pure_barrier(W));
  });
  EXPECT_EQ(g_wrong_target.load(), 0);
  EXPECT_EQ(g_any_handled.load(), 0 + GetParam() * GetParam() * 5);
}

// A target busy in a loop that makes no blocking call runs requests at its
// pure_am_poll.
TEST_P(Pgas, BusyTargetRunsRequestsWhenItPolls) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    t_handled = t_replies = t_reply_sum = 0;
    int echo = -1, reply = -1;
    ASSERT_EQ(pure_am_register(on_echo, PURE_AM_DEFAULT, &echo), PURE_SUCCESS);
    ASSERT_EQ(pure_am_register(on_reply, PURE_AM_DEFAULT, &reply), PURE_SUCCESS);
    g_echo_reply = reply;
    auto* done = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t)));
    *done = 0;
    pure_barrier_all();
    if (rank == 0) {
      // Busy until every other rank had its reply and said so.
      PollGuard guard("busy target");
      while (!pure_int64_test(done, PURE_CMP_EQ, size - 1)) {
        pure_am_poll();
        guard();
      }
      EXPECT_EQ(t_handled, size - 1);
    } else {
      ASSERT_EQ(pure_am_request(0, echo, nullptr, 0), PURE_SUCCESS);
      ASSERT_EQ(pure_am_quiet(), PURE_SUCCESS);
      EXPECT_EQ(t_replies, 1);
      pure_int64_atomic_inc(done, 0);
    }
    pure_barrier_all();
    pure_sym_free(done);
  });
}

// set_lock excludes: a plain get-increment-put of a counter at PE 0 under
// the lock loses nothing; test_lock refuses a held lock.
TEST_P(Pgas, LocksExclude) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    constexpr int kRounds = 50;
    auto* locks = static_cast<pure_lock_t*>(pure_sym_malloc(2 * sizeof(pure_lock_t)));
    auto* counter = static_cast<std::int64_t*>(pure_sym_malloc(sizeof(std::int64_t)));
    *counter = 0;
    locks[0] = locks[1] = 0;
    pure_barrier_all();
    for (int i = 0; i < kRounds; ++i) {
      pure_set_lock(&locks[0]);
      std::int64_t v = 0;
      pure_getmem(&v, counter, sizeof v, 0);
      ++v;
      pure_putmem(counter, &v, sizeof v, 0);
      pure_clear_lock(&locks[0]);
    }
    pure_barrier_all();
    if (rank == 0) {
      EXPECT_EQ(*counter, std::int64_t{kRounds} * size);
      // Held by rank 0: everyone else's test fails until it is cleared.
      EXPECT_EQ(pure_test_lock(&locks[1]), 0);
    }
    pure_barrier_all();
    if (rank != 0) {
      EXPECT_EQ(pure_test_lock(&locks[1]), 1);
    }
    pure_barrier_all();
    if (rank == 0) pure_clear_lock(&locks[1]);
    pure_barrier_all();
    pure_sym_free(counter);
    pure_sym_free(locks);
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, Pgas, kRankCounts, rank_count_name);

// ---- misuse: an error naming the rank, the call and the value ----

TEST(PgasErrors, NamesTheRankTheCallAndTheValue) {
  const JobResult outside = run_ranks_capturing(2, [](int rank, int) {
    auto* p = static_cast<int*>(pure_sym_malloc(64));
    int local = 0;
    if (rank == 1) pure_putmem(&local, p, sizeof local, 0);
    pure_barrier_all();
  });
  EXPECT_EQ(outside.code, PURE_ERR_ARG);
  EXPECT_NE(outside.err.find("rank 1: pure_putmem: destination "), std::string::npos)
      << outside.err;
  EXPECT_NE(outside.err.find("is not in this rank's part of the symmetric heap"), std::string::npos)
      << outside.err;

  const JobResult pe = run_ranks_capturing(2, [](int rank, int) {
    auto* p = static_cast<std::int64_t*>(pure_sym_malloc(64));
    if (rank == 0) pure_int64_atomic_inc(p, 5);
    pure_barrier_all();
  });
  EXPECT_EQ(pe.code, PURE_ERR_RANK);
  EXPECT_NE(pe.err.find("rank 0: pure_int64_atomic_inc: invalid PE 5 (the job has 2 ranks)"),
            std::string::npos)
      << pe.err;

  const JobResult sizes =
      run_ranks_capturing(3, [](int rank, int) { pure_sym_malloc(rank == 2 ? 128 : 64); });
  EXPECT_EQ(sizes.code, PURE_ERR_ARG);
  EXPECT_NE(sizes.err.find("pure_sym_malloc: size "), std::string::npos) << sizes.err;
  EXPECT_NE(sizes.err.find("between 64 and 128 among the ranks"), std::string::npos) << sizes.err;

  const JobResult unheld = run_ranks_capturing(2, [](int rank, int) {
    auto* l = static_cast<pure_lock_t*>(pure_sym_malloc(sizeof(pure_lock_t)));
    if (rank == 1) pure_clear_lock(l);
    pure_barrier_all();
  });
  EXPECT_EQ(unheld.code, PURE_ERR_ARG);
  EXPECT_NE(unheld.err.find("rank 1: pure_clear_lock: lock "), std::string::npos) << unheld.err;
  EXPECT_NE(unheld.err.find("is not held by this rank"), std::string::npos) << unheld.err;

  const JobResult unknown = run_ranks_capturing(2, [](int rank, int) {
    int id = -1;
    pure_am_register(on_any, PURE_AM_DEFAULT, &id);
    if (rank == 0) pure_am_request(1, 3, nullptr, 0);
    pure_barrier_all();
  });
  EXPECT_EQ(unknown.code, PURE_ERR_ARG);
  EXPECT_NE(
      unknown.err.find("rank 0: pure_am_request: invalid handler id 3 (this rank registered 1)"),
      std::string::npos)
      << unknown.err;

  const JobResult cmp = run_ranks_capturing(1, [](int, int) {
    auto* v = static_cast<std::int32_t*>(pure_sym_malloc(4));
    *v = 0;
    pure_int32_wait_until(v, 9, 0);
  });
  EXPECT_EQ(cmp.code, PURE_ERR_ARG);
  EXPECT_NE(cmp.err.find("rank 0: pure_int32_wait_until: invalid comparison 9"), std::string::npos)
      << cmp.err;
}

// A reply to a reply is refused: the handler's call returns the error
// class under PURE_ERRORS_RETURN.
void reply_to_reply(const pure_am_info_t* info, void*, std::size_t) {
  if (info->is_reply) {
    EXPECT_EQ(pure_am_reply(info, 0, nullptr, 0), PURE_ERR_ARG);
    ++t_replies;
    return;
  }
  EXPECT_EQ(pure_am_reply(info, 0, nullptr, 0), PURE_SUCCESS);
}

TEST(PgasErrors, AReplyCannotBeRepliedTo) {
  expect_clean_run(2, [](int rank, int) {
    t_replies = 0;
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    int id = -1;
    ASSERT_EQ(pure_am_register(reply_to_reply, PURE_AM_DEFAULT, &id), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_barrier(W));
    ASSERT_EQ(pure_am_request(1 - rank, id, nullptr, 0), PURE_SUCCESS);
    ASSERT_EQ(pure_am_quiet(), PURE_SUCCESS);
    EXPECT_EQ(t_replies, 1);
    EXPECT_PURE_OK(pure_barrier(W));
  });
}

// A handler must not wait: its quiet and its lock calls are refused, and
// so is a collective that would block (a barrier on a communicator the
// other rank never enters) -- the class under PURE_ERRORS_RETURN -- and the
// job goes on.
thread_local PURE_Comm t_unvisited = PURE_COMM_NULL;
void waits_in_handler(const pure_am_info_t* info, void*, std::size_t) {
  EXPECT_EQ(pure_am_quiet(), PURE_ERR_OTHER);
  // Rank 0 never enters a barrier there (its own handler does not try).
  if (info->target == 1) EXPECT_EQ(pure_barrier(t_unvisited), PURE_ERR_OTHER);
  ++t_handled;
}

TEST(PgasErrors, AHandlerMustNotWait) {
  expect_clean_run(2, [](int rank, int) {
    t_handled = 0;
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    ASSERT_EQ(pure_comm_dup(W, &t_unvisited), PURE_SUCCESS);
    int id = -1;
    ASSERT_EQ(pure_am_register(waits_in_handler, PURE_AM_DEFAULT, &id), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_barrier(W));
    ASSERT_EQ(pure_am_request(1 - rank, id, nullptr, 0), PURE_SUCCESS);
    ASSERT_EQ(pure_am_quiet(), PURE_SUCCESS);
    EXPECT_PURE_OK(pure_barrier(W));
    EXPECT_EQ(t_handled, 1);
    EXPECT_PURE_OK(pure_comm_free(&t_unvisited));
  });
}

}  // namespace
}  // namespace pure_testing
