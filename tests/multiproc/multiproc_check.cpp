// Checks of a job spread over several processes, run by ctest through
// `purerun -n N --ranks-per-proc R` (or a rank map): point-to-point,
// collectives, communicators and tasks, with peers in this process and in
// others. Every check verifies every byte; a failed check names the rank,
// the check and the values and ends the job with exit code 1. On success
// rank 0 prints "multiproc_check MODE: ok (N ranks, P processes)".
//
//   multiproc_check p2p | coll | comm | tasks | stress | requests | datatypes | batches | huge |
//                   tagoverflow
//
// The modes coll, requests, datatypes and batches are in files of their own.
#include <pure/pure.h>

#include <algorithm>
#include <climits>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"

namespace {

// ---------------------------------------------------------------- p2p

void p2p_ring_sizes(PURE_Comm comm) {
  int me, n;
  pure_comm_rank(comm, &me);
  pure_comm_size(comm, &n);
  const std::size_t sizes[] = {0, 1, 100, 8191, 8192, 100000, 1 << 20};
  int k = 0;
  for (std::size_t size : sizes) {
    const int to = (me + 1) % n, from = (me + n - 1) % n;
    auto out = message(me, to, k, size);
    std::vector<unsigned char> in(size + 1, 0xEE);
    PURE_Status st;
    OK(pure_sendrecv(out.data(), static_cast<int>(size), PURE_BYTE, to, k, in.data(),
                     static_cast<int>(size) + 1, PURE_BYTE, from, k, comm, &st));
    int count = -1;
    pure_get_count(&st, PURE_BYTE, &count);
    CHECK(count == static_cast<int>(size) && st.MPI_SOURCE == from && st.MPI_TAG == k,
          "size %zu: count %d source %d tag %d", size, count, st.MPI_SOURCE, st.MPI_TAG);
    check_message(in.data(), from, me, k, size, "ring");
    CHECK(in[size] == 0xEE, "ring: wrote past %zu bytes", size);
    ++k;
  }
}

// Rank 0 sends 300 messages to every other rank, mixing sizes (eager and
// large) and two tags; receivers take them with ANY_TAG and see them in order.
void p2p_order() {
  const int kMessages = 300;
  if (g_rank == 0) {
    std::vector<PURE_Request> reqs;
    std::vector<std::vector<unsigned char>> bufs;
    bufs.reserve(static_cast<std::size_t>(kMessages * g_size));
    for (int k = 0; k < kMessages; ++k) {
      for (int to = 1; to < g_size; ++to) {
        const std::size_t n = k % 50 == 7 ? 40000 : static_cast<std::size_t>(4 + k % 64);
        bufs.push_back(message(0, to, k, n));
        PURE_Request r;
        OK(pure_isend(bufs.back().data(), static_cast<int>(n), PURE_BYTE, to, k % 2, PURE_COMM_WORLD, &r));
        reqs.push_back(r);
      }
    }
    OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), PURE_STATUSES_IGNORE));
  } else {
    std::vector<unsigned char> in(40000);
    for (int k = 0; k < kMessages; ++k) {
      PURE_Status st;
      OK(pure_recv(in.data(), 40000, PURE_BYTE, 0, PURE_ANY_TAG, PURE_COMM_WORLD, &st));
      int count = 0;
      pure_get_count(&st, PURE_BYTE, &count);
      const std::size_t n = k % 50 == 7 ? 40000 : static_cast<std::size_t>(4 + k % 64);
      CHECK(st.MPI_TAG == k % 2 && count == static_cast<int>(n), "order: message %d tag %d count %d", k,
            st.MPI_TAG, count);
      check_message(in.data(), 0, g_rank, k, n, "order");
    }
  }
}

// Every rank sends 20 messages to rank 0; rank 0 takes them all with
// ANY_SOURCE and ANY_TAG and checks each sender's order and the contents.
void p2p_any_source() {
  const int kEach = 20;
  if (g_rank != 0) {
    for (int k = 0; k < kEach; ++k) {
      auto m = message(g_rank, 0, k, 16 + static_cast<std::size_t>(k));
      OK(pure_send(m.data(), static_cast<int>(m.size()), PURE_BYTE, 0, 100 + k, PURE_COMM_WORLD));
    }
    return;
  }
  std::vector<int> next(static_cast<std::size_t>(g_size), 0);
  std::vector<unsigned char> in(64);
  for (int i = 0; i < kEach * (g_size - 1); ++i) {
    PURE_Status st;
    OK(pure_recv(in.data(), 64, PURE_BYTE, PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &st));
    const int from = st.MPI_SOURCE;
    CHECK(from > 0 && from < g_size, "any source: source %d", from);
    const int k = next[static_cast<std::size_t>(from)]++;
    CHECK(st.MPI_TAG == 100 + k, "any source: from %d expected tag %d, got %d", from, 100 + k, st.MPI_TAG);
    check_message(in.data(), from, 0, k, 16 + static_cast<std::size_t>(k), "any source");
  }
}

// waitany and waitsome over receives from every other rank, local and remote.
void p2p_waitany() {
  std::vector<PURE_Request> reqs;
  std::vector<std::vector<unsigned char>> in(static_cast<std::size_t>(g_size), std::vector<unsigned char>(32));
  for (int from = 0; from < g_size; ++from) {
    if (from == g_rank) continue;
    PURE_Request r;
    OK(pure_irecv(in[static_cast<std::size_t>(from)].data(), 32, PURE_BYTE, from, 7, PURE_COMM_WORLD, &r));
    reqs.push_back(r);
  }
  std::vector<std::vector<unsigned char>> out;
  for (int to = 0; to < g_size; ++to) {
    if (to == g_rank) continue;
    out.push_back(message(g_rank, to, 3, 32));
    OK(pure_send(out.back().data(), 32, PURE_BYTE, to, 7, PURE_COMM_WORLD));
  }
  int done = 0;
  while (done < static_cast<int>(reqs.size())) {
    if (done % 2 == 0) {
      int index = -1;
      PURE_Status st;
      OK(pure_waitany(static_cast<int>(reqs.size()), reqs.data(), &index, &st));
      CHECK(index >= 0, "waitany: index %d", index);
      check_message(in[static_cast<std::size_t>(st.MPI_SOURCE)].data(), st.MPI_SOURCE, g_rank, 3, 32, "waitany");
      ++done;
    } else {
      int outcount = 0;
      std::vector<int> idx(reqs.size());
      std::vector<PURE_Status> sts(reqs.size());
      OK(pure_waitsome(static_cast<int>(reqs.size()), reqs.data(), &outcount, idx.data(), sts.data()));
      for (int i = 0; i < outcount; ++i)
        check_message(in[static_cast<std::size_t>(sts[static_cast<std::size_t>(i)].MPI_SOURCE)].data(),
                      sts[static_cast<std::size_t>(i)].MPI_SOURCE, g_rank, 3, 32, "waitsome");
      done += outcount;
    }
  }
}

// probe, then a receive sized from the status; iprobe until it sees one.
void p2p_probe_truncate() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  auto m = message(g_rank, to, 9, 777);
  PURE_Request r;
  OK(pure_isend(m.data(), 777, PURE_BYTE, to, 55, PURE_COMM_WORLD, &r));
  PURE_Status st;
  OK(pure_probe(PURE_ANY_SOURCE, 55, PURE_COMM_WORLD, &st));
  int count = 0;
  pure_get_count(&st, PURE_BYTE, &count);
  CHECK(st.MPI_SOURCE == from && count == 777, "probe: source %d count %d", st.MPI_SOURCE, count);
  std::vector<unsigned char> in(static_cast<std::size_t>(count));
  OK(pure_recv(in.data(), count, PURE_BYTE, st.MPI_SOURCE, 55, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
  check_message(in.data(), from, g_rank, 9, 777, "probe");
  OK(pure_wait(&r, PURE_STATUS_IGNORE));

  // Truncation from another rank is an error, never an overrun.
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
  OK(pure_send(m.data(), 777, PURE_BYTE, to, 56, PURE_COMM_WORLD));
  std::vector<unsigned char> small(101, 0xAB);
  int flag = 0;
  while (!flag) OK(pure_iprobe(from, 56, PURE_COMM_WORLD, &flag, &st));
  const int rc = pure_recv(small.data(), 100, PURE_BYTE, from, 56, PURE_COMM_WORLD, &st);
  CHECK(rc == PURE_ERR_TRUNCATE, "truncation: got %d", rc);
  check_message(small.data(), from, g_rank, 9, 100, "truncation");
  CHECK(small[100] == 0xAB, "truncation wrote past the buffer");
  // The same without a probe first: a lone receive from another process
  // goes to MPI itself (Endpoint::remote_recv).
  OK(pure_send(m.data(), 777, PURE_BYTE, to, 58, PURE_COMM_WORLD));
  std::fill(small.begin(), small.end(), 0xAB);
  const int rc2 = pure_recv(small.data(), 100, PURE_BYTE, from, 58, PURE_COMM_WORLD, &st);
  CHECK(rc2 == PURE_ERR_TRUNCATE, "truncation without a probe: got %d", rc2);
  // What a truncated receive leaves in the buffer is MPI's to decide (Open
  // MPI: the first bytes, MPICH: nothing); never anything past it.
  CHECK(small[100] == 0xAB, "truncation without a probe wrote past the buffer");
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ARE_FATAL);

  // Messages already pulled out of MPI (by a probe) come before anything a
  // later receive hands to MPI: two on tag 60, then one on tag 61 that the
  // probe waits for, so the first two are in the unexpected list by then.
  for (int k = 1; k <= 2; ++k) {
    auto a = message(g_rank, to, 20 + k, 64);
    OK(pure_send(a.data(), 64, PURE_BYTE, to, 60, PURE_COMM_WORLD));
  }
  auto c = message(g_rank, to, 23, 64);
  OK(pure_send(c.data(), 64, PURE_BYTE, to, 61, PURE_COMM_WORLD));
  flag = 0;
  while (!flag) OK(pure_iprobe(from, 61, PURE_COMM_WORLD, &flag, &st));
  std::vector<unsigned char> got(64);
  for (int k = 1; k <= 3; ++k) {
    OK(pure_recv(got.data(), 64, PURE_BYTE, from, k < 3 ? 60 : 61, PURE_COMM_WORLD, &st));
    check_message(got.data(), from, g_rank, 20 + k, 64, "probed, then received in order");
  }

  // Synchronous sends, and a strided datatype on both sides.
  PURE_Datatype every_other;
  OK(pure_type_vector(50, 1, 2, PURE_INT, &every_other));
  OK(pure_type_commit(&every_other));
  std::vector<int> sv(100), rv(100, -1);
  for (int i = 0; i < 100; ++i) sv[static_cast<std::size_t>(i)] = g_rank * 1000 + i;
  OK(pure_issend(sv.data(), 1, every_other, to, 57, PURE_COMM_WORLD, &r));
  OK(pure_recv(rv.data(), 1, every_other, from, 57, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
  OK(pure_wait(&r, PURE_STATUS_IGNORE));
  for (int i = 0; i < 100; ++i)
    CHECK(rv[static_cast<std::size_t>(i)] == (i % 2 ? -1 : from * 1000 + i), "vector: int %d = %d", i,
          rv[static_cast<std::size_t>(i)]);
  OK(pure_type_free(&every_other));
}

// Receives naming one rank of another process and one tag mixed with
// wildcard receives posted in between; MPI's rule decides who gets what:
// each message goes to the earliest posted receive it matches. `before`
// sends the messages before the receives are posted (they wait unread),
// else after.
void p2p_named_mixed(bool before) {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  const int kTags[4] = {71, 70, 70, 71};
  std::vector<std::vector<unsigned char>> out;
  auto send_all = [&] {
    for (int k = 0; k < 4; ++k) {
      out.push_back(message(g_rank, to, 40 + k, 48));
      OK(pure_send(out.back().data(), 48, PURE_BYTE, to, kTags[k], PURE_COMM_WORLD));
    }
  };
  if (before) {
    send_all();
    OK(pure_barrier(PURE_COMM_WORLD));
  }
  std::vector<std::vector<unsigned char>> in(4, std::vector<unsigned char>(48));
  PURE_Request r[4];
  OK(pure_irecv(in[0].data(), 48, PURE_BYTE, from, 70, PURE_COMM_WORLD, &r[0]));
  OK(pure_irecv(in[1].data(), 48, PURE_BYTE, from, PURE_ANY_TAG, PURE_COMM_WORLD, &r[1]));
  OK(pure_irecv(in[2].data(), 48, PURE_BYTE, PURE_ANY_SOURCE, 70, PURE_COMM_WORLD, &r[2]));
  OK(pure_irecv(in[3].data(), 48, PURE_BYTE, from, 71, PURE_COMM_WORLD, &r[3]));
  if (!before) send_all();
  PURE_Status st[4];
  OK(pure_waitall(4, r, st));
  // receive i gets message want[i]: (from,70) the first 70, (from,ANY) the
  // first 71, (ANY,70) the second 70, (from,71) the second 71.
  const int want[4] = {1, 0, 2, 3};
  for (int i = 0; i < 4; ++i) {
    CHECK(st[i].MPI_SOURCE == from && st[i].MPI_TAG == kTags[want[i]],
          "named mixed (%s): receive %d got source %d tag %d", before ? "before" : "after", i,
          st[i].MPI_SOURCE, st[i].MPI_TAG);
    check_message(in[static_cast<std::size_t>(i)].data(), from, g_rank, 40 + want[i], 48,
                  "named mixed");
  }
  OK(pure_barrier(PURE_COMM_WORLD));
}

// Cancelling and freeing receives from another process, and truncation on
// a non-blocking one.
void p2p_cancel_free() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  std::vector<unsigned char> in(64, 0);
  // A cancelled receive takes nothing: the message goes to the next one.
  PURE_Request r;
  PURE_Status st;
  OK(pure_irecv(in.data(), 64, PURE_BYTE, from, 80, PURE_COMM_WORLD, &r));
  OK(pure_cancel(&r));
  OK(pure_wait(&r, &st));
  int cancelled = 0;
  OK(pure_test_cancelled(&st, &cancelled));
  CHECK(cancelled == 1, "cancel: the receive was not cancelled");
  OK(pure_barrier(PURE_COMM_WORLD));
  auto a = message(g_rank, to, 50, 64);
  OK(pure_send(a.data(), 64, PURE_BYTE, to, 80, PURE_COMM_WORLD));
  OK(pure_recv(in.data(), 64, PURE_BYTE, from, 80, PURE_COMM_WORLD, &st));
  check_message(in.data(), from, g_rank, 50, 64, "after cancel");

  // A freed active receive still takes its message (MPI allows freeing it).
  std::vector<unsigned char> freed(64, 0);
  OK(pure_irecv(freed.data(), 64, PURE_BYTE, from, 81, PURE_COMM_WORLD, &r));
  OK(pure_request_free(&r));
  CHECK(r == PURE_REQUEST_NULL, "request_free did not null the handle");
  auto b = message(g_rank, to, 51, 64), c = message(g_rank, to, 52, 64);
  OK(pure_send(b.data(), 64, PURE_BYTE, to, 81, PURE_COMM_WORLD));
  OK(pure_send(c.data(), 64, PURE_BYTE, to, 81, PURE_COMM_WORLD));
  OK(pure_recv(in.data(), 64, PURE_BYTE, from, 81, PURE_COMM_WORLD, &st));
  check_message(in.data(), from, g_rank, 52, 64, "after a freed receive");

  // Truncation through irecv and wait: an error, never an overrun.
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
  std::vector<unsigned char> small(33, 0xAB);
  OK(pure_irecv(small.data(), 32, PURE_BYTE, from, 82, PURE_COMM_WORLD, &r));
  OK(pure_send(a.data(), 64, PURE_BYTE, to, 82, PURE_COMM_WORLD));
  const int rc = pure_wait(&r, &st);
  CHECK(rc == PURE_ERR_TRUNCATE && st.MPI_ERROR == PURE_ERR_TRUNCATE,
        "irecv truncation: wait gave %d, status %d", rc, st.MPI_ERROR);
  CHECK(small[32] == 0xAB, "irecv truncation wrote past the buffer");
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ARE_FATAL);
  OK(pure_barrier(PURE_COMM_WORLD));
}

// Each phase receives with wildcards: a barrier keeps the next phase's
// messages out of it.
void run_p2p() {
  p2p_ring_sizes(PURE_COMM_WORLD);
  OK(pure_barrier(PURE_COMM_WORLD));
  p2p_order();
  OK(pure_barrier(PURE_COMM_WORLD));
  p2p_any_source();
  OK(pure_barrier(PURE_COMM_WORLD));
  p2p_waitany();
  OK(pure_barrier(PURE_COMM_WORLD));
  p2p_probe_truncate();
  OK(pure_barrier(PURE_COMM_WORLD));
  p2p_named_mixed(false);
  p2p_named_mixed(true);
  p2p_cancel_free();
}

// ---------------------------------------------------------------- stress

// Random message storms: every rank sends random-sized messages (around the
// eager limit) with random tags to random ranks; the counts go first with
// alltoall; receivers take everything with wildcards, a mix of blocking and
// non-blocking receives, and check every byte and every sender's order.
void run_stress() {
  const int rounds = 3;
  for (int round = 0; round < rounds; ++round) {
    unsigned seed = 12345u + static_cast<unsigned>(g_rank) * 7919u + static_cast<unsigned>(round) * 104729u;
    auto rnd = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xFFFFFF; };
    const int sends = 150;
    std::vector<int> to_count(static_cast<std::size_t>(g_size), 0), from_count(static_cast<std::size_t>(g_size));
    std::vector<int> dest(sends), size(sends), tag(sends);
    for (int i = 0; i < sends; ++i) {
      dest[static_cast<std::size_t>(i)] = static_cast<int>(rnd() % static_cast<unsigned>(g_size));
      size[static_cast<std::size_t>(i)] = 8 + static_cast<int>(rnd() % 16384);
      tag[static_cast<std::size_t>(i)] = static_cast<int>(rnd() % 5);
      ++to_count[static_cast<std::size_t>(dest[static_cast<std::size_t>(i)])];
    }
    OK(pure_alltoall(to_count.data(), 1, PURE_INT, from_count.data(), 1, PURE_INT, PURE_COMM_WORLD));
    std::vector<std::vector<unsigned char>> out(sends);
    std::vector<PURE_Request> reqs;
    std::vector<int> seq(static_cast<std::size_t>(g_size), 0);
    for (int i = 0; i < sends; ++i) {
      const int d = dest[static_cast<std::size_t>(i)];
      const int k = seq[static_cast<std::size_t>(d)]++;
      auto& m = out[static_cast<std::size_t>(i)];
      m = message(g_rank, d, k, static_cast<std::size_t>(size[static_cast<std::size_t>(i)]));
      std::memcpy(m.data(), &k, sizeof k);  // the sequence number rides in the first bytes
      PURE_Request r;
      OK(pure_isend(m.data(), static_cast<int>(m.size()), PURE_BYTE, d, tag[static_cast<std::size_t>(i)],
                    PURE_COMM_WORLD, &r));
      reqs.push_back(r);
    }
    int expected = 0;
    for (int c : from_count) expected += c;
    std::vector<int> next(static_cast<std::size_t>(g_size), 0);
    std::vector<unsigned char> in(20000);
    for (int got = 0; got < expected; ++got) {
      PURE_Status st;
      if (got % 3 == 0) {
        PURE_Request r;
        OK(pure_irecv(in.data(), 20000, PURE_BYTE, PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &r));
        OK(pure_wait(&r, &st));
      } else {
        OK(pure_recv(in.data(), 20000, PURE_BYTE, PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &st));
      }
      int count = 0, k = -1;
      pure_get_count(&st, PURE_BYTE, &count);
      std::memcpy(&k, in.data(), sizeof k);
      const int from = st.MPI_SOURCE;
      CHECK(k == next[static_cast<std::size_t>(from)], "stress: from %d expected message %d, got %d", from,
            next[static_cast<std::size_t>(from)], k);
      ++next[static_cast<std::size_t>(from)];
      auto want = message(from, g_rank, k, static_cast<std::size_t>(count));
      std::memcpy(want.data(), &k, sizeof k);
      CHECK(std::memcmp(want.data(), in.data(), static_cast<std::size_t>(count)) == 0,
            "stress: message %d from %d (%d bytes) differs", k, from, count);
    }
    for (int s = 0; s < g_size; ++s)
      CHECK(next[static_cast<std::size_t>(s)] == from_count[static_cast<std::size_t>(s)],
            "stress: %d messages from %d, expected %d", next[static_cast<std::size_t>(s)], s,
            from_count[static_cast<std::size_t>(s)]);
    OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), PURE_STATUSES_IGNORE));
  }
  OK(pure_barrier(PURE_COMM_WORLD));
}

// ---------------------------------------------------------------- comm

void run_comm() {
  // Halves by parity span every process; reversed keys reorder them.
  PURE_Comm parity, dup, none, created;
  OK(pure_comm_split(PURE_COMM_WORLD, g_rank % 2, g_size - g_rank, &parity));
  int prank, psize;
  pure_comm_rank(parity, &prank);
  pure_comm_size(parity, &psize);
  CHECK(psize == (g_size + 1 - g_rank % 2) / 2, "split size %d", psize);
  // New rank order: by key (size - rank) ascending = world rank descending.
  int want_rank = 0;
  for (int r = g_size - 1; r > g_rank; --r)
    if (r % 2 == g_rank % 2) ++want_rank;
  CHECK(prank == want_rank, "split rank %d, expected %d", prank, want_rank);
  if (psize > 1) {
    p2p_ring_sizes(parity);
    coll_on(parity, 7 + g_rank % 2);
  }
  OK(pure_comm_dup(PURE_COMM_WORLD, &dup));
  int cmp = -1;
  OK(pure_comm_compare(PURE_COMM_WORLD, dup, &cmp));
  CHECK(cmp == PURE_CONGRUENT, "compare world and its dup: %d", cmp);
  // The same tags on world and on its dup never mix.
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  int a = g_rank, b = -g_rank - 1, ra = 0, rb = 0;
  PURE_Request reqs[2];
  OK(pure_isend(&a, 1, PURE_INT, to, 5, PURE_COMM_WORLD, &reqs[0]));
  OK(pure_isend(&b, 1, PURE_INT, to, 5, dup, &reqs[1]));
  OK(pure_recv(&rb, 1, PURE_INT, from, 5, dup, PURE_STATUS_IGNORE));
  OK(pure_recv(&ra, 1, PURE_INT, from, 5, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
  OK(pure_waitall(2, reqs, PURE_STATUSES_IGNORE));
  CHECK(ra == from && rb == -from - 1, "world/dup separation: %d %d", ra, rb);
  coll_on(dup, 11);
  // UNDEFINED colour: no communicator.
  OK(pure_comm_split(PURE_COMM_WORLD, g_rank == 0 ? 0 : PURE_UNDEFINED, 0, &none));
  CHECK((g_rank == 0) == (none != PURE_COMM_NULL), "UNDEFINED colour");
  if (none != PURE_COMM_NULL) OK(pure_comm_free(&none));
  // comm_create from a group: every third rank, in reverse.
  PURE_Group world_group, every_third;
  OK(pure_comm_group(PURE_COMM_WORLD, &world_group));
  std::vector<int> ranks;
  for (int r = g_size - 1; r >= 0; --r)
    if (r % 3 != 1) ranks.push_back(r);
  OK(pure_group_incl(world_group, static_cast<int>(ranks.size()), ranks.data(), &every_third));
  OK(pure_comm_create(PURE_COMM_WORLD, every_third, &created));
  const bool in = g_rank % 3 != 1;
  CHECK(in == (created != PURE_COMM_NULL), "comm_create membership");
  if (created != PURE_COMM_NULL) {
    int crank = -1;
    pure_comm_rank(created, &crank);
    CHECK(ranks[static_cast<std::size_t>(crank)] == g_rank, "comm_create rank %d", crank);
    coll_on(created, 13);
    // A split of the created communicator: concurrent collectives on disjoint halves.
    PURE_Comm halves;
    OK(pure_comm_split(created, crank % 2, crank, &halves));
    int hsize = 0;
    pure_comm_size(halves, &hsize);
    for (int k = 0; k < 20; ++k) {
      int x = k + crank, s = 0;
      OK(pure_allreduce(&x, &s, 1, PURE_INT, PURE_SUM, halves));
      int hrank;
      pure_comm_rank(halves, &hrank);
      CHECK(s % 1 == 0 && s >= k * hsize, "halves allreduce %d", s);
      OK(pure_barrier(halves));
    }
    OK(pure_comm_free(&halves));
    OK(pure_comm_free(&created));
  }
  OK(pure_group_free(&every_third));
  OK(pure_group_free(&world_group));
  OK(pure_comm_free(&dup));
  OK(pure_comm_free(&parity));
  OK(pure_barrier(PURE_COMM_WORLD));
}

// ---------------------------------------------------------------- tasks

struct TaskCounts {
  std::atomic<int> runs[128];  // PURE_MAX_TASK_CHUNKS' default
};

// Chunks [start, end], inclusive.
void count_chunks(PURE_Chunk_id start, PURE_Chunk_id end, void*, void* context) {
  auto* c = static_cast<TaskCounts*>(context);
  for (PURE_Chunk_id i = start; i <= end; ++i) {
    c->runs[i].fetch_add(1, std::memory_order_relaxed);
    volatile double x = 0;
    for (int k = 0; k < 20000; ++k) x = x + k * 0.5;
  }
}

void run_tasks() {
  // Rank 0 of each process runs a task while the others wait for a message
  // that another process sends only after it finished: they steal chunks.
  for (int round = 0; round < 3; ++round) {
    TaskCounts counts;
    for (auto& c : counts.runs) c.store(0);
    OK(pure_task_execute(count_chunks, &counts, 128, nullptr));
    for (int i = 0; i < 128; ++i)
      CHECK(counts.runs[i].load() == 1, "task chunk %d ran %d times", i, counts.runs[i].load());
    int token = round, got = -1;
    OK(pure_sendrecv(&token, 1, PURE_INT, (g_rank + 1) % g_size, round, &got, 1, PURE_INT,
                     (g_rank + g_size - 1) % g_size, round, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    CHECK(got == round, "token %d", got);
    int total = 0, mine = 128;
    OK(pure_allreduce(&mine, &total, 1, PURE_INT, PURE_SUM, PURE_COMM_WORLD));
    CHECK(total == 128 * g_size, "task totals %d", total);
  }
}

// ---------------------------------------------------------------- fibersplit

// Communicator creation across processes must wait in the wait loop: run as
// 2 processes of 4 ranks on 2 cores, so that world ranks 0 and 2 are fibers
// of one core. Rank 0 creates a communicator with rank 4 (another process),
// which joins only after a message from rank 2, which rank 2 sends only
// after a message from rank 0. Were rank 0 to wait for rank 4 inside a
// blocking MPI call, rank 2 would never run again.
void run_fibersplit() {
  const int other = g_size / 2;  // the first rank of the second process
  const bool in_pair = g_rank == 0 || g_rank == other;
  PURE_Comm pair = PURE_COMM_NULL, dup = PURE_COMM_NULL;
  OK(pure_comm_split(PURE_COMM_WORLD, in_pair ? 0 : PURE_UNDEFINED, g_rank, &pair));
  int token = 0;
  if (g_rank == 0) {
    PURE_Request r;
    token = 17;
    OK(pure_isend(&token, 1, PURE_INT, 2, 1, PURE_COMM_WORLD, &r));
    OK(pure_comm_dup(pair, &dup));
    OK(pure_wait(&r, PURE_STATUS_IGNORE));
  } else if (g_rank == 2) {
    OK(pure_recv(&token, 1, PURE_INT, 0, 1, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    CHECK(token == 17, "rank 2 got %d", token);
    OK(pure_send(&token, 1, PURE_INT, other, 2, PURE_COMM_WORLD));
  } else if (g_rank == other) {
    OK(pure_recv(&token, 1, PURE_INT, 2, 2, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
    CHECK(token == 17, "rank %d got %d", other, token);
    OK(pure_comm_dup(pair, &dup));
  }
  if (in_pair) {
    int one = 1, sum = 0;
    OK(pure_allreduce(&one, &sum, 1, PURE_INT, PURE_SUM, dup));
    CHECK(sum == 2, "allreduce on the duplicate gave %d", sum);
    OK(pure_comm_free(&dup));
    OK(pure_comm_free(&pair));
  }
  OK(pure_barrier(PURE_COMM_WORLD));
}

// ---------------------------------------------------------------- huge

// 3 GiB from rank 0 to the last rank (another process), over MPI's int
// count: once received by a receive MPI matches itself (one source, one
// tag), once by a wildcard receive that pulls it with a matched probe. The
// receive buffer is cleared first; every byte is checked.
void run_huge() {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  constexpr int kBlocks = 3 * 1024;  // 3 GiB
  constexpr std::size_t kBytes = kBlock * kBlocks;
  const int last = g_size - 1;
  if (g_rank != 0 && g_rank != last) return;
  PURE_Datatype block;
  OK(pure_type_contiguous(static_cast<int>(kBlock), PURE_BYTE, &block));
  OK(pure_type_commit(&block));
  std::vector<unsigned char> data(kBytes);
  auto byte = [](std::size_t i, int k) {
    return static_cast<unsigned char>((i * 131 + (i >> 20) * 7 + static_cast<std::size_t>(k)) & 0xFF);
  };
  for (int k = 0; k < 2; ++k) {
    if (g_rank == 0) {
      for (std::size_t i = 0; i < kBytes; ++i) data[i] = byte(i, k);
      OK(pure_send(data.data(), kBlocks, block, last, 40 + k, PURE_COMM_WORLD));
      continue;
    }
    std::memset(data.data(), 0, kBytes);
    PURE_Status st;
    if (k == 0)
      OK(pure_recv(data.data(), kBlocks, block, 0, 40, PURE_COMM_WORLD, &st));
    else
      OK(pure_recv(data.data(), kBlocks, block, PURE_ANY_SOURCE, PURE_ANY_TAG, PURE_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 40 + k, "source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);
    int blocks = 0;
    OK(pure_get_count(&st, block, &blocks));
    CHECK(blocks == kBlocks, "received %d blocks of 1 MiB", blocks);
    for (std::size_t i = 0; i < kBytes; ++i)
      CHECK(data[i] == byte(i, k), "receive %d: byte %zu is %d", k, i, data[i]);
  }
  OK(pure_type_free(&block));
}

}  // namespace

extern "C" int pure_main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "p2p";
  OK(pure_init(&argc, &argv));
  pure_comm_rank(PURE_COMM_WORLD, &g_rank);
  pure_comm_size(PURE_COMM_WORLD, &g_size);
  if (mode == "p2p") run_p2p();
  else if (mode == "coll") run_coll();
  else if (mode == "comm") run_comm();
  else if (mode == "tasks") run_tasks();
  else if (mode == "stress") run_stress();
  else if (mode == "huge") run_huge();
  else if (mode == "requests") run_requests();
  else if (mode == "datatypes") run_datatypes();
  else if (mode == "batches") run_batches();
  else if (mode == "fibersplit") run_fibersplit();
  else if (mode == "tagoverflow") {
    int* ub = nullptr;
    int flag = 0;
    OK(pure_comm_get_attr(PURE_COMM_WORLD, PURE_TAG_UB, &ub, &flag));
    int x = 0;
    // Tags travel in Pure's own records, so PURE_TAG_UB is INT_MAX and
    // no int is above it: a negative tag other than PURE_ANY_TAG is the
    // one out of range then.
    const int bad = *ub == INT_MAX ? -7 : *ub + 1;
    if (g_rank == g_size - 1) pure_send(&x, 1, PURE_INT, 0, bad, PURE_COMM_WORLD);
    else if (g_rank == 0) pure_recv(&x, 1, PURE_INT, g_size - 1, 0, PURE_COMM_WORLD, PURE_STATUS_IGNORE);
  } else {
    std::fprintf(stderr, "multiproc_check: unknown mode '%s'\n", mode.c_str());
    return 2;
  }
  OK(pure_finalize());
  if (g_rank == 0) {
    const char* procs = std::getenv("PURE_PROCS");
    std::printf("multiproc_check %s: ok (%d ranks, %s processes)\n", mode.c_str(), g_size,
                procs ? procs : "1");
  }
  return 0;
}
