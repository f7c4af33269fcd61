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
//   to the slot's seq. A reader waits for that seq, copies the data out and
//   publishes t in its `bcast_read` (release).
// * reduce: one ring of kRingDepth lines per member. A non-root member
//   waits until `reduce_done` is at least t - kRingDepth, copies its input
//   into its slot t % kRingDepth and publishes t there. The root waits for
//   every member's slot, folds them in rank order and publishes t in
//   `reduce_done`. Roots finish in call order (the root of t+1 folds only
//   after the root of t contributed to t+1, which it does after finishing
//   t), so that one word is monotonic and covers every earlier call.
//
// A writer scans the others' words only when its cached bound (RingCursor)
// is too low, i.e. about once every kRingDepth calls when readers keep up.
//
// Wake-ups (everyone who waits parks when oversubscribed, so whoever makes
// the condition true notifies the waiter's Parker):
// * bcast readers are woken by the root after publishing (all members);
// * the reduce root is woken by each contributor after publishing;
// * a bcast root waiting for reader k first writes its rank index + 1 into
//   k's `waker`; k stores `bcast_read`, then (seq_cst fences on both sides,
//   Dekker style) reads `waker` and notifies that rank. Only one bcast root
//   can be waiting at a time (the next root must first read our call);
// * members waiting for `reduce_done` count themselves in `waiters`; the
//   root stores `reduce_done`, then (fences again) wakes every member when
//   the count is not zero. Only the slow path touches that count.
#pragma once

#include <atomic>
#include <cstdint>

namespace pure {

// Calls of one kind in flight at once. Eight lets a member that was
// descheduled catch up on several calls in one go (8 ranks on 2 cores).
constexpr std::uint64_t kRingDepth = 8;

// One per member. `bcast_read` is published to the bcast roots, `waker` is
// written by a waiting root; the counters and bounds are the member's own.
struct alignas(64) RingCursor {
  std::atomic<std::uint64_t> bcast_read{0};  // last small bcast this member is done with
  std::atomic<int> waker{0};                  // rank index + 1 of a waiting bcast root, or 0
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

}  // namespace pure
