#include "channels/eager_queue.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace pure {

void EagerQueue::Free::operator()(char* p) const { std::free(p); }

static std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

EagerQueue::EagerQueue(std::size_t slots, std::size_t payload_capacity)
    : slots_(slots),
      mask_(slots - 1),
      payload_capacity_(payload_capacity),
      stride_(round_up(sizeof(SlotHeader) + payload_capacity, kCacheLine)) {
  if (slots < 2 || (slots & (slots - 1)) != 0)
    throw std::invalid_argument("EagerQueue: slots must be a power of two >= 2");
  // Zeroed memory: every slot's seq starts at 0 (position i of the first lap
  // is published at seq i + 1) without being written, so the pages of slots
  // a pair of ranks never uses are never touched -- a large eager limit
  // costs address space, not memory, until messages fill the slots.
  void* p = std::calloc(1, stride_ * slots_ + kCacheLine);
  if (!p) throw std::bad_alloc();
  memory_.reset(static_cast<char*>(p));
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  slots_memory_ = static_cast<char*>(p) + (kCacheLine - at % kCacheLine) % kCacheLine;
  for (std::size_t i = 0; i < slots_; ++i) new (slots_memory_ + i * stride_) SlotHeader;
  release_batch_ = std::max<std::size_t>(1, slots_ / 4);
  taken_.reset(new unsigned char[slots_]());
  limit_ = slots_;
}

bool EagerQueue::release() {
  if (unreleased_ == 0) return false;
  // Only the consumed prefix goes back: the producer fills in order, so it
  // waits at the oldest unconsumed position whatever lies beyond it.
  const std::uint64_t before = head_;
  while (taken_[head_ & mask_]) {
    taken_[head_ & mask_] = 0;
    ++head_;
  }
  // What stays taken past an unconsumed message is released later.
  unreleased_ -= static_cast<std::size_t>(head_ - before);
  if (head_ == before) return false;
  // Release pairs with the producer's acquire in try_claim: our reads of
  // every slot below head_ happen-before it overwrites them.
  released_.store(head_, std::memory_order_release);
  return true;
}

}  // namespace pure
