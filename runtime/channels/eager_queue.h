// EagerQueue: the single-producer single-consumer ring that carries messages
// from one rank thread to another inside a process (the paper's
// PureBufferQueue).
//
// Each slot is cache-line aligned and carries its own sequence number, so the
// two sides never share an index variable: the producer at position p waits
// for seq == p (free), writes the message and publishes seq = p + 1 (release);
// the consumer sees seq == p + 1 (acquire), reads, and frees the slot by
// storing seq = p + capacity (release), which the producer's acquire pairs
// with before it overwrites the slot. A small message (header plus up to
// kInlineBytes of payload) lives in one cache line.
//
// Unlike a plain FIFO the consumer may consume any published slot, not only
// the oldest: MPI tag matching takes messages out of order. The producer still
// fills positions strictly in order, so it simply waits at the oldest
// unconsumed slot; FIFO order of what is published is never broken.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace pure {

constexpr std::size_t kCacheLine = 64;

// What a slot holds: an eager payload, or a rendezvous announcement whose
// payload is a pointer to the sender's descriptor.
enum class SlotKind : std::uint32_t { eager = 0, rendezvous = 1 };

struct SlotHeader {
  std::atomic<std::uint64_t> seq;
  std::int32_t context;  // communicator context id
  std::int32_t tag;
  SlotKind kind;
  std::uint32_t reserved;
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
    SlotHeader* s = slot(tail_);
    return s->seq.load(std::memory_order_acquire) == tail_ ? s : nullptr;
  }
  // Publishes the slot returned by try_claim() after the header fields and
  // payload were written.
  void publish(SlotHeader* s) {
    s->seq.store(tail_ + 1, std::memory_order_release);
    ++tail_;
  }

  // ---- consumer side (one thread) ----
  // Consumed slots are handed back to the producer in batches, not one by
  // one: freeing a slot writes its line, and on x86 that store would sit in
  // the store buffer ahead of the reply we send next, putting an extra cache
  // line transfer on every round trip. Until released, a consumed position is
  // remembered in taken_ (local memory, indexed by slot).

  // Oldest position not yet released.
  std::uint64_t head() const { return head_; }
  // The published, unconsumed message at `pos`, or nullptr if `pos` is
  // consumed; sets *end when `pos` has not been published yet.
  SlotHeader* peek(std::uint64_t pos, bool* end) const {
    SlotHeader* s = slot(pos);
    std::uint64_t seq = s->seq.load(std::memory_order_acquire);
    *end = seq == pos;
    return seq == pos + 1 && !taken_[pos & mask_] ? s : nullptr;
  }
  // Marks the message at `pos` read. Returns true when that released slots
  // of a queue that was full, so the caller should wake the producer.
  bool consume(std::uint64_t pos) {
    taken_[pos & mask_] = 1;
    if (pos >= taken_end_) taken_end_ = pos + 1;
    if (++unreleased_ < release_batch_) return false;
    return release();
  }
  // Hands every consumed slot back to the producer. Returns true when the
  // queue was full before (the producer may be waiting for room).
  bool release();
  // True while nothing has been published at `pos` (the first free
  // position): the one word a receiver waiting for the next message spins on.
  bool unpublished(std::uint64_t pos) const {
    return slot(pos)->seq.load(std::memory_order_acquire) == pos;
  }
  // True when the producer cannot publish: every slot holds a message that is
  // unconsumed or consumed but not yet released.
  // head_ is published and unreleased, so the producer can be at most at
  // head_ + slots_ (the slot of head_, not free): it is there exactly when
  // position head_ + slots_ - 1 was published, whether or not that message
  // has since been consumed (or even released) out of order.
  bool full() const {
    return slot(head_ + slots_ - 1)->seq.load(std::memory_order_acquire) != head_ + slots_ - 1;
  }

  static void* payload(SlotHeader* s) { return reinterpret_cast<char*>(s) + sizeof(SlotHeader); }

 private:
  SlotHeader* slot(std::uint64_t pos) const {
    return reinterpret_cast<SlotHeader*>(memory_.get() + (pos & mask_) * stride_);
  }

  struct FreeAligned {
    void operator()(char* p) const;
  };

  const std::size_t slots_;  // a power of two
  const std::uint64_t mask_;  // slots_ - 1: a position's slot index without a division
  const std::size_t payload_capacity_;
  const std::size_t stride_;
  std::unique_ptr<char, FreeAligned> memory_;
  alignas(kCacheLine) std::uint64_t tail_ = 0;  // producer's own position
  alignas(kCacheLine) std::uint64_t head_ = 0;  // consumer's own position
  std::size_t unreleased_ = 0;
  std::uint64_t taken_end_ = 0;  // one past the last consumed position
  std::size_t release_batch_;
  std::unique_ptr<unsigned char[]> taken_;
};

}  // namespace pure
