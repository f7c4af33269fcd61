// CallLog: which collective each member of a communicator is in, so that
// members that called different collectives at the same point are told so
// ("rank 1 called pure_bcast where rank 0 called pure_allreduce") instead of
// deadlocking, or meeting in a round whose lines they read wrongly.
//
// MPI requires every member to call the same collectives on a communicator
// in the same order. Each member numbers its collective calls on it 1, 2,
// ... (the flat API records every call, api/collectives.cpp) and writes the
// call's name in its own line, which keeps the last kCallLogDepth names. A
// member that waits long in a collective, or sees a count that does not
// match, compares its current call with the other members' calls of the
// same number (check_calls, call_log.cpp). Nothing compares on the fast
// path: recording is three stores into a line only its member writes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/cpu.h"
#include "base/waiter.h"

namespace pure {
class Comm;
}

namespace pure::coll {

constexpr int kCallLogDepth = 6;

// One member's calls; written by that member only, read by any. The names
// are static strings (the flat API's call names). A seqlock over the slots:
// `begun` then the name then `done` on the writer's side; `done`, the name,
// then `begun` on the reader's, which drops a slot overwritten meanwhile.
struct alignas(kCacheLine) CallLog {
  std::atomic<std::uint64_t> begun{0};
  std::atomic<std::uint64_t> done{0};  // the member's current call number
  std::atomic<const char*> name[kCallLogDepth] = {};

  // The member starts its next call, `call`.
  void record(const char* call) {
    const std::uint64_t t = done.load(std::memory_order_relaxed) + 1;
    begun.store(t, std::memory_order_relaxed);
    // Orders the store of `begun` before the name's: a reader that sees the
    // new name (its acquire fence in at()) then sees `begun` at least t.
    std::atomic_thread_fence(std::memory_order_release);
    name[t % kCallLogDepth].store(call, std::memory_order_relaxed);
    // Pairs with the acquire load of `done` in at(): the name of every call
    // up to t is visible to whoever sees t.
    done.store(t, std::memory_order_release);
  }
  // The member's own current call number (its own thread only).
  std::uint64_t current() const { return done.load(std::memory_order_relaxed); }
  // The name of the member's call number `t`, or nullptr when it has not
  // made that call yet or has made kCallLogDepth more since.
  const char* at(std::uint64_t t) const {
    if (t == 0 || done.load(std::memory_order_acquire) < t) return nullptr;
    const char* n = name[t % kCallLogDepth].load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (begun.load(std::memory_order_relaxed) >= t + kCallLogDepth) return nullptr;
    return n;
  }
};
static_assert(sizeof(CallLog) == kCacheLine, "a call log is one cache line");

// Check words (dropbox.h, Line::check) of rounds whose lines carry
// Pointers hold a tag of the call above the byte count: members that meet in
// one round from different collectives then see different words and report
// it, instead of following another collective's inline data as pointers.
constexpr int kCallTagShift = 47;
// The check word of a barrier round (Round::barrier), above every tag.
constexpr std::int64_t kBarrierCheck = std::int64_t{1} << 62;
// `bytes` tagged with `call` (its large-count twin has the same tag).
std::int64_t tagged_check(const char* call, std::size_t bytes);
// The byte count of a check word, tagged or not.
inline long long check_bytes(std::int64_t check) {
  return static_cast<long long>(check & ((std::int64_t{1} << kCallTagShift) - 1));
}

// record_call(comm, call), which starts a member's next call, is in
// dropbox.h, inline.

// Throws PURE_ERR_OTHER, naming both calls, when another member's call of
// the same number on `comm` (the caller's current one) is a different
// collective; returns otherwise. For waits (a WaitSite's check) and for
// checks that found the members' arguments disagree.
void check_calls(const Comm& comm);
// The members' arguments disagree (`code`, `message`): throws the mismatch
// of calls behind it if there is one (check_calls), else that Error.
[[noreturn]] void fail_disagreement(const Comm& comm, int code, const std::string& message);
// The same for a WaitSite: `comm` is a const Comm*.
void check_calls_of(const void* comm);

// Where a member of `comm` waits in collective `call` for member `peer`
// (-1: whoever writes the round): the wait checks the members' calls.
inline WaitSite collective_site(const char* call, int peer, const Comm& comm) {
  return WaitSite{call, peer, -1, false, &check_calls_of, &comm};
}

}  // namespace pure::coll
