#include "eager_queue.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace pure {

void EagerQueue::FreeAligned::operator()(char* p) const { std::free(p); }

static std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

EagerQueue::EagerQueue(std::size_t slots, std::size_t payload_capacity)
    : slots_(slots),
      mask_(slots - 1),
      payload_capacity_(payload_capacity),
      stride_(round_up(sizeof(SlotHeader) + payload_capacity, kCacheLine)) {
  if (slots < 2 || (slots & (slots - 1)) != 0)
    throw std::invalid_argument("EagerQueue: slots must be a power of two >= 2");
  void* p = std::aligned_alloc(kCacheLine, stride_ * slots_);
  if (!p) throw std::bad_alloc();
  memory_.reset(static_cast<char*>(p));
  release_batch_ = std::max<std::size_t>(1, slots_ / 4);
  taken_.reset(new unsigned char[slots_]());
  for (std::size_t i = 0; i < slots_; ++i) {
    auto* s = new (memory_.get() + i * stride_) SlotHeader;
    s->seq.store(i, std::memory_order_relaxed);
  }
}

bool EagerQueue::release() {
  if (unreleased_ == 0) return false;
  const bool was_full = full();
  // Every position in [head_, head_ + slots_) maps to a distinct slot, and
  // every consumed-but-unreleased position lies in [head_, taken_end_),
  // inside that window.
  for (std::uint64_t pos = head_; pos < taken_end_; ++pos) {
    unsigned char& t = taken_[pos & mask_];
    if (!t) continue;
    t = 0;
    // Release pairs with the producer's acquire in try_claim: our reads of
    // the slot happen-before it overwrites the slot.
    slot(pos)->seq.store(pos + slots_, std::memory_order_release);
  }
  unreleased_ = 0;
  // Advance past released positions. A released slot reads head_ + slots_
  // (free) or head_ + slots_ + 1 (already refilled one lap ahead); only
  // head_ (unpublished) and head_ + 1 (unconsumed) stop the head.
  for (;;) {
    std::uint64_t seq = slot(head_)->seq.load(std::memory_order_relaxed);
    if (seq == head_ || seq == head_ + 1) break;
    ++head_;
  }
  return was_full;
}

}  // namespace pure
