// Mode `batches`: messages between processes travel as records of batches
// (runtime/net/outbox.h): small ones copied in, the others announced and
// sent by themselves. These checks mix both kinds, and synchronous sends,
// in storms between every pair of ranks, and receive them every way MPI
// allows -- one source and tag, any tag, any source, probes and matched
// probes -- checking every byte and MPI's order: from one sender, with one
// tag (or any tag), messages arrive in the order they were sent.
#include <pure/pure.h>

#include <cstring>
#include <vector>

#include "check.h"

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// Message k of a storm from one rank to another: its size, tag and mode.
// Mostly small (batched), every 7th just past a record's limit, every 23rd
// large, every 11th synchronous.
std::size_t storm_size(int k) {
  if (k % 23 == 5) return 20000 + static_cast<std::size_t>(k);
  if (k % 7 == 3) return 600 + static_cast<std::size_t>(k % 5);
  return static_cast<std::size_t>(k % 41);
}
int storm_tag(int k) { return k % 3; }
bool storm_sync(int k) { return k % 11 == 4; }

// The message's sequence number rides in its first bytes when it has room.
std::vector<unsigned char> storm_message(int from, int to, int k) {
  std::vector<unsigned char> m = message(from, to, k, storm_size(k));
  if (m.size() >= sizeof k) std::memcpy(m.data(), &k, sizeof k);
  return m;
}
// Message k from `from` to `to` (ranks in the storm's communicator).
void check_storm(const unsigned char* got, std::size_t bytes, int from, int to, int k,
                 const char* what) {
  const std::vector<unsigned char> want = storm_message(from, to, k);
  CHECK(bytes == want.size(), "%s: message %d from %d: %zu bytes, not %zu", what, k, from, bytes,
        want.size());
  for (std::size_t i = 0; i < bytes; ++i)
    CHECK(got[i] == want[i], "%s: message %d from %d, byte %zu of %zu: %d, not %d", what, k, from,
          i, bytes, got[i], want[i]);
}

int count_of(const PURE_Status& st) {
  int n = -1;
  OK(pure_get_count(&st, PURE_BYTE, &n));
  return n;
}

// Every rank sends kStorm messages to every other rank at once (isend and
// issend, all outstanding), then receives each peer's in one of three ways
// chosen by the peer: by (source, tag) in per-tag order, by source with
// any tag in send order, or by any source and any tag (each sender's order
// kept), through probes first for every other message.
void storm(PURE_Comm comm) {
  constexpr int kStorm = 200;
  int me = -1, n = -1;
  OK(pure_comm_rank(comm, &me));
  OK(pure_comm_size(comm, &n));
  std::vector<std::vector<unsigned char>> out;
  out.reserve(at(kStorm * n));
  std::vector<PURE_Request> sends;
  for (int k = 0; k < kStorm; ++k)
    for (int to = 0; to < n; ++to) {
      if (to == me) continue;
      out.push_back(storm_message(me, to, k));
      std::vector<unsigned char>& m = out.back();
      PURE_Request r;
      if (storm_sync(k))
        OK(pure_issend(m.data(), static_cast<int>(m.size()), PURE_BYTE, to, storm_tag(k), comm,
                       &r));
      else
        OK(pure_isend(m.data(), static_cast<int>(m.size()), PURE_BYTE, to, storm_tag(k), comm, &r));
      sends.push_back(r);
    }

  std::vector<unsigned char> in(21000);
  // By (source, tag): each tag's messages in their order.
  auto by_tag = [&](int from) {
    for (int tag = 0; tag < 3; ++tag)
      for (int k = tag; k < kStorm; k += 3) {
        PURE_Status st;
        OK(pure_recv(in.data(), static_cast<int>(in.size()), PURE_BYTE, from, tag, comm, &st));
        check_storm(in.data(), at(count_of(st)), from, me, k, "storm by tag");
      }
  };
  // By source, any tag: every message in send order; every other one
  // probed first (its size and tag), then matched-probed or received.
  auto by_source = [&](int from) {
    for (int k = 0; k < kStorm; ++k) {
      PURE_Status st;
      if (k % 2 == 0) {
        OK(pure_recv(in.data(), static_cast<int>(in.size()), PURE_BYTE, from, PURE_ANY_TAG, comm,
                     &st));
      } else {
        PURE_Status probed;
        OK(pure_probe(from, PURE_ANY_TAG, comm, &probed));
        CHECK(probed.MPI_TAG == storm_tag(k) && count_of(probed) == static_cast<int>(storm_size(k)),
              "storm probe: message %d from %d: tag %d, %d bytes", k, from, probed.MPI_TAG,
              count_of(probed));
        if (k % 4 == 1) {
          PURE_Message msg;
          OK(pure_mprobe(from, probed.MPI_TAG, comm, &msg, &probed));
          OK(pure_mrecv(in.data(), count_of(probed), PURE_BYTE, &msg, &st));
        } else {
          OK(pure_recv(in.data(), count_of(probed), PURE_BYTE, from, probed.MPI_TAG, comm, &st));
        }
      }
      CHECK(st.MPI_TAG == storm_tag(k), "storm by source: message %d from %d has tag %d", k, from,
            st.MPI_TAG);
      check_storm(in.data(), at(count_of(st)), from, me, k, "storm by source");
    }
  };
  // The peers that receive by any source: their messages in any order
  // between senders, each sender's in order (the first bytes say which).
  std::vector<int> next(at(n), 0);
  int wild = 0;
  for (int from = 0; from < n; ++from) {
    if (from == me) continue;
    if (from % 3 == 0)
      by_tag(from);
    else if (from % 3 == 1)
      by_source(from);
    else
      wild += kStorm;
  }
  for (int i = 0; i < wild; ++i) {
    PURE_Status st;
    OK(pure_recv(in.data(), static_cast<int>(in.size()), PURE_BYTE, PURE_ANY_SOURCE, PURE_ANY_TAG,
                 comm, &st));
    const int from = st.MPI_SOURCE;
    CHECK(from >= 0 && from < n && from % 3 == 2 && from != me,
          "storm any source: a message from %d", from);
    const int k = next[at(from)]++;
    CHECK(st.MPI_TAG == storm_tag(k), "storm any source: message %d from %d has tag %d", k, from,
          st.MPI_TAG);
    check_storm(in.data(), at(count_of(st)), from, me, k, "storm any source");
  }
  OK(pure_waitall(static_cast<int>(sends.size()), sends.data(), PURE_STATUSES_IGNORE));
  OK(pure_barrier(comm));
}

// Small sends queued behind a batch in flight, some cancelled: a send is
// either cancelled and never received, or received whole, and the messages
// after it keep their order. The receiver learns which by a second message.
void cancel_in_batch() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  constexpr int kSends = 40;
  std::vector<std::vector<unsigned char>> out;
  std::vector<PURE_Request> r(kSends);
  for (int k = 0; k < kSends; ++k) {
    out.push_back(message(g_rank, to, k, 24));
    OK(pure_isend(out.back().data(), 24, PURE_BYTE, to, 90, PURE_COMM_WORLD, &r[at(k)]));
    if (k % 5 == 2) OK(pure_cancel(&r[at(k)]));
  }
  std::vector<int> cancelled(kSends, 0), theirs(kSends, -1);
  for (int k = 0; k < kSends; ++k) {
    PURE_Status st;
    OK(pure_wait(&r[at(k)], &st));
    OK(pure_test_cancelled(&st, &cancelled[at(k)]));
    CHECK(k % 5 == 2 || !cancelled[at(k)], "send %d was cancelled, not asked to be", k);
  }
  OK(pure_sendrecv(cancelled.data(), kSends, PURE_INT, to, 91, theirs.data(), kSends, PURE_INT,
                   from, 91, PURE_COMM_WORLD, PURE_STATUS_IGNORE));
  std::vector<unsigned char> in(24);
  for (int k = 0; k < kSends; ++k) {
    if (theirs[at(k)]) continue;
    PURE_Status st;
    OK(pure_recv(in.data(), 24, PURE_BYTE, from, 90, PURE_COMM_WORLD, &st));
    check_message(in.data(), from, g_rank, k, 24, "cancel in batch");
  }
  int flag = 1;
  OK(pure_iprobe(from, 90, PURE_COMM_WORLD, &flag, PURE_STATUS_IGNORE));
  CHECK(!flag, "a cancelled send arrived after all");
  OK(pure_barrier(PURE_COMM_WORLD));
}

}  // namespace

void run_batches() {
  storm(PURE_COMM_WORLD);
  // A communicator whose ranks are spread in another order.
  PURE_Comm reversed;
  OK(pure_comm_split(PURE_COMM_WORLD, 0, g_size - g_rank, &reversed));
  storm(reversed);
  OK(pure_comm_free(&reversed));
  cancel_in_batch();
}
