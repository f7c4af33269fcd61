// Rings: the Dropbox's lanes for small rooted collectives (bcast and reduce
// of at most kPayloadBytes), which let the side that MPI does not make wait
// leave at once instead of meeting everyone in a round.
//
// Rounds (dropbox.h) end every call with a wait that covers all arrivals,
// because their lines are reused two rounds later. A bcast root or a reduce
// contributor that leaves at once cannot give that guarantee, so the rings
// keep kRingDepth calls in flight instead, and a writer waits only when it
// comes back to a slot whose last call some reader has not finished yet.
//
// Calls are numbered per kind, 1, 2, ...: every member counts its small
// bcasts (and, separately, its small reduces) on the communicator in its
// RingCursor, and since members make the same calls in the same order, call
// t means the same call everywhere. The rings use no rounds, so they never
// disturb the rounds' reuse rule, and rounds never touch a ring.
//
// * bcast: one ring of kRingDepth lines. The root of call t waits until
//   every member's `bcast_read` is at least t - kRingDepth (the last reader
//   of slot t % kRingDepth is done: the previous writer of that slot, a
//   reader of it or the same rank, is ordered before us through that),
//   packs the data into the slot and publishes it with a release store of t
//   to the slot's seq. A reader waits for that seq, copies the data out and,
//   when t is a multiple of kRingPublishBatch, publishes t in its
//   `bcast_read` (release).
// * reduce: one ring of kRingDepth lines per member. A non-root member
//   waits until `reduce_done` is at least t - kRingDepth, copies its input
//   into its slot t % kRingDepth and publishes t there. The root waits for
//   every member's slot, folds them in rank order and, when t is a multiple
//   of kRingPublishBatch, publishes t in `reduce_done`. Roots finish in
//   call order (the root of t+1 folds only after the root of t contributed
//   to t+1, which it does after finishing t), so that one word is monotonic
//   and covers every earlier call.
//
// A writer scans the others' words only when its cached bound (RingCursor)
// is too low, i.e. about once every kRingDepth calls when readers keep up.
// The reader of a slot prefetches the next one: the writer runs ahead, so
// it is usually written already.
//
// Wake-ups (everyone who waits parks when oversubscribed, so whoever makes
// the condition true notifies the waiter's Parker):
// * bcast readers are woken by the root after publishing (all members);
// * the reduce root is woken by each contributor after publishing;
// * a bcast root waiting for reader k first writes its communicator rank + 1
//   into k's `waker`; k stores `bcast_read`, then (seq_cst fences on both
//   sides, Dekker style) reads `waker` and notifies that rank. Only one bcast root
//   can be waiting at a time (the next root must first read our call);
// * members waiting for `reduce_done` count themselves in `waiters`; the
//   root stores `reduce_done`, then (fences again) wakes every member when
//   the count is not zero. Only the slow path touches that count.
//
// Alltoall (and alltoallv) has a ring too, numbered by its own call counter
// (AlltoallCursor::calls): one line per (sender, receiver) pair and call
// parity, kAlltoallDepth = 2, allocated on the first call (2 * n * n lines).
// Nobody is a root, so no member meets the others in a round:
// * sender i of call t writes line (i, j, t) for each receiver j: `check` =
//   the block's bytes, the bytes themselves when they fit the line
//   (kPayloadBytes), otherwise Pointers to its block; it publishes t in the
//   line's seq and wakes j;
// * receiver j waits for line (i, j, t) of every sender i, copies its block
//   out and then publishes t in its own `read` (release);
// * a sender that published a pointer waits, before it returns, until that
//   receiver's `read` is at least t (its buffer must outlive the copy).
//   Blocks that fit a line always travel inline, so a small alltoall never
//   waits for its readers and has no closing barrier.
// Why two lines per pair suffice, with no wait for free lines: sender i
// writes call t+2 only after finishing call t+1, for which it read (acquire)
// line (j, i, t+1) of every j; j wrote that only after it had copied out its
// whole column of call t (program order, release). So every reader of
// i's lines of call t is done before i comes back to them, and the reuse
// wait that the bcast and reduce rings need would never block here (a debug
// build asserts it). Unlike a bcast root or a reduce contributor, an
// alltoall member cannot run ahead: it needs every member's data.
// The choice inline/pointer is per pair and made by the sender alone, so
// the members need not agree on a size threshold (alltoallv counts differ).
// Wake-ups: receivers are woken by each sender after publishing; a sender
// waiting on `read` of member k counts itself in k's `waiters`, k stores
// `read`, then (seq_cst fences on both sides) wakes every member when the
// count is not zero.
#pragma once

#include <atomic>
#include <cstdint>

namespace pure {

// Calls of one kind in flight at once: a member that was descheduled
// catches up on that many calls in one go, and a root runs that far ahead
// in its time slice; a communicator's reduce ring is members x depth lines
// (docs/perf-notes.md, "Collective rings").
constexpr std::uint64_t kRingDepth = 32;
// The side of a ring that waits publishes how far it got only at calls
// that are multiples of this: a bcast member its `bcast_read`, a reduce
// root `reduce_done`. The other side polls that line once it has filled the
// ring, and a store to it on every call would have to take the line back
// first (with a seq_cst fence after it, on every call). It is enough: a
// bcast root or reduce contributor at call t waits for t - kRingDepth, and
// there is a multiple of the batch between t - kRingDepth and t - 1. The
// member it waits for gets there without waiting on it, since every slot
// of those calls is written (the waiter finished them), and for reduce a
// later root's publication vouches for every earlier call, because every
// member finishes its earlier calls (a root its fold) before it writes its
// slot of the next.
constexpr std::uint64_t kRingPublishBatch = 8;
static_assert(kRingDepth >= 2 * kRingPublishBatch, "a waiter must find a publishing call in reach");
// Alltoall calls whose lines exist at once (see above: two always suffice).
constexpr std::uint64_t kAlltoallDepth = 2;

// One per member. `bcast_read` is published to the bcast roots, `waker` is
// written by a waiting root; the counters and bounds are the member's own.
struct alignas(64) RingCursor {
  std::atomic<std::uint64_t> bcast_read{0};  // last small bcast this member is done with
  std::atomic<int> waker{0};                  // communicator rank + 1 of a waiting bcast root, or 0
  std::uint64_t bcasts = 0;                   // small bcasts started on this communicator
  std::uint64_t reduces = 0;                  // small reduces started
  std::uint64_t bcast_free = 0;   // every member was done with bcasts up to this (last scan)
  std::uint64_t reduce_free = 0;  // reduce_done as last seen
};
static_assert(sizeof(RingCursor) == 64, "a ring cursor is one cache line");

// Written by each reduce root after folding; `waiters` only by members that
// must wait for it.
struct alignas(64) RingDone {
  std::atomic<std::uint64_t> reduce_done{0};
  std::atomic<int> waiters{0};
};
static_assert(sizeof(RingDone) == 64, "the reduce-done word has a cache line of its own");

// One per member, for alltoall(v): `read` is published to the senders,
// `waiters` is counted by senders that wait for it; `calls` is the member's own.
struct alignas(64) AlltoallCursor {
  std::atomic<std::uint64_t> read{0};  // last alltoall whose column this member copied out
  std::atomic<int> waiters{0};         // senders waiting for `read`
  std::uint64_t calls = 0;             // alltoall(v) calls started on this communicator
};
static_assert(sizeof(AlltoallCursor) == 64, "an alltoall cursor is one cache line");

}  // namespace pure
