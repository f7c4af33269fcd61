// EagerQueue: the single-producer single-consumer ring that carries messages
// from one rank thread to another inside a process (the paper's
// PureBufferQueue).
//
// Each slot is cache-line aligned and carries its own sequence number: the
// producer writes the message at position p and publishes seq = p + 1
// (release); the consumer sees seq == p + 1 (acquire) and reads. Any other
// value is an older lap: not published yet. A small message (header plus up
// to kInlineBytes of payload) lives in one cache line.
//
// Room is a separate word: the consumer publishes `released` (release), the
// position below which every slot is free again, and the producer keeps its
// own copy of the limit it may fill up to, re-reading `released` only when
// it reaches that limit. So sending a message writes one line and reads
// none of the consumer's: the stores go through the store buffer and
// several messages' cache-line transfers overlap (a per-slot "free" mark
// would make every send read a line the consumer had written;
// docs/perf-notes.md, "Eager queue").
//
// Unlike a plain FIFO the consumer may consume any published slot, not only
// the oldest: MPI tag matching takes messages out of order. The producer still
// fills positions strictly in order, so it waits at the oldest unconsumed
// slot anyway: a release prefix loses nothing against freeing slots one by
// one, and FIFO order of what is published is never broken.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/cpu.h"

namespace pure {

// What a slot holds: an eager payload, or a rendezvous announcement whose
// payload is a pointer to the sender's descriptor.
// What a message carries: its data (eager), a rendezvous announcement, or
// (remote: only in a Matcher's unexpected list) the announcement of a
// payload waiting in MPI (net/outbox.h).
enum class SlotKind : std::uint32_t { eager = 0, rendezvous = 1, remote = 2 };

struct SlotHeader {
  std::atomic<std::uint64_t> seq;
  std::int32_t context;  // communicator context id
  std::int32_t tag;
  SlotKind kind;
  std::int32_t source;  // the sender's rank in the communicator (the status's MPI_SOURCE)
  std::uint64_t bytes;  // payload bytes (eager) or whole message bytes (rendezvous)
};
static_assert(sizeof(SlotHeader) == 32, "the header must leave half a cache line for payload");
constexpr std::size_t kInlineBytes = kCacheLine - sizeof(SlotHeader);

class EagerQueue {
 public:
  // `slots` must be a power of two (std::invalid_argument otherwise).
  EagerQueue(std::size_t slots, std::size_t payload_capacity);
  EagerQueue(const EagerQueue&) = delete;
  EagerQueue& operator=(const EagerQueue&) = delete;

  std::size_t capacity() const { return slots_; }
  std::size_t payload_capacity() const { return payload_capacity_; }

  // ---- producer side (one thread) ----
  // The free slot at the producer's position, or nullptr when the ring is full.
  SlotHeader* try_claim() {
    if (tail_ == limit_) {
      // Acquire pairs with the consumer's release in release(): its reads of
      // the slots below `released` happen-before we overwrite them.
      limit_ = released_.load(std::memory_order_acquire) + slots_;
      if (tail_ == limit_) return nullptr;
    }
    return slot(tail_);
  }
  // Publishes the slot returned by try_claim() after the header fields and
  // payload were written.
  void publish(SlotHeader* s) {
    s->seq.store(tail_ + 1, std::memory_order_release);
    ++tail_;
  }

  // ---- consumer side (one thread) ----
  // Consumed slots are handed back to the producer in batches, not one by
  // one: handing back writes the `released` line, and on x86 that store
  // would sit in the store buffer ahead of the reply we send next, putting
  // an extra cache-line transfer on the round trip whenever the producer
  // has read the line since. Until released, a consumed position is
  // remembered in taken_ (local memory, indexed by slot).

  // Oldest position not yet released.
  std::uint64_t head() const { return head_; }
  // The published, unconsumed message at `pos`, or nullptr if `pos` is
  // consumed (or released); sets *end when `pos` has not been published yet.
  SlotHeader* peek(std::uint64_t pos, bool* end) const {
    // Released under a caller's scan (it consumed, and a batch went back):
    // gone, though its slot may still read "published" for it.
    if (pos < head_) {
      *end = false;
      return nullptr;
    }
    SlotHeader* s = slot(pos);
    const bool published = s->seq.load(std::memory_order_acquire) == pos + 1;
    *end = !published;
    return published && !taken_[pos & mask_] ? s : nullptr;
  }
  // Calls f(pos, header) on every published, unconsumed message from the
  // oldest unreleased position on, in publication order, until f returns
  // true. f may consume (and so release) what it is given. Returns whether
  // f accepted a message; *stopped is then its position, else the first
  // position not published yet (head() + capacity() when the ring is full).
  template <class F>
  bool scan(F&& f, std::uint64_t* stopped = nullptr) {
    const std::uint64_t start = head_;
    std::uint64_t pos = start;
    for (; pos < start + slots_; ++pos) {
      bool end = false;
      SlotHeader* h = peek(pos, &end);
      if (end) break;
      if (h && f(pos, h)) {
        if (stopped) *stopped = pos;
        return true;
      }
    }
    if (stopped) *stopped = pos;
    return false;
  }
  // Marks the message at `pos` read. Returns true when that handed slots
  // back, so the caller should wake the producer (which may wait for room).
  bool consume(std::uint64_t pos) {
    taken_[pos & mask_] = 1;
    if (++unreleased_ < release_batch_) return false;
    return release();
  }
  // Hands the consumed prefix back to the producer. Returns true when it
  // handed any slot back: the producer may be waiting for room then. (It
  // used to say so only when the queue had been full, found by reading the
  // last slot before storing `released`. That left a window: the producer
  // could fill that slot, fail to claim and go to sleep between our read
  // and our store, and nobody woke it. Waking a producer that is not
  // asleep costs one load of a line that stays in our cache.)
  bool release();
  // True while nothing has been published at `pos` (the first free
  // position): the one word a receiver waiting for the next message spins on.
  bool unpublished(std::uint64_t pos) const {
    return slot(pos)->seq.load(std::memory_order_acquire) != pos + 1;
  }
  // True when the producer cannot publish: it has filled every position
  // up to head_ + slots_ (head_ is the released prefix), i.e. the last of
  // them is published, whether or not its message has since been consumed.
  bool full() const {
    const std::uint64_t last = head_ + slots_ - 1;
    return slot(last)->seq.load(std::memory_order_acquire) == last + 1;
  }

  static void* payload(SlotHeader* s) { return reinterpret_cast<char*>(s) + sizeof(SlotHeader); }

 private:
  SlotHeader* slot(std::uint64_t pos) const {
    return reinterpret_cast<SlotHeader*>(slots_memory_ + (pos & mask_) * stride_);
  }

  struct Free {
    void operator()(char* p) const;
  };

  const std::size_t slots_;  // a power of two
  const std::uint64_t mask_;  // slots_ - 1: a position's slot index without a division
  const std::size_t payload_capacity_;
  const std::size_t stride_;
  std::unique_ptr<char, Free> memory_;  // zeroed, a line more than the slots need
  char* slots_memory_;                   // in memory_, on a cache line
  alignas(kCacheLine) std::uint64_t tail_ = 0;  // producer's own position
  std::uint64_t limit_ = 0;                      // producer's copy of released_ + slots_
  alignas(kCacheLine) std::atomic<std::uint64_t> released_{0};  // written by the consumer
  alignas(kCacheLine) std::uint64_t head_ = 0;  // consumer's own: oldest unreleased
  std::size_t unreleased_ = 0;                   // consumed since the last release
  std::size_t release_batch_;
  std::unique_ptr<unsigned char[]> taken_;
};

}  // namespace pure
