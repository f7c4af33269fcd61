#include "eager_queue.h"

#include <cstdlib>
#include <new>

namespace pure {

void EagerQueue::FreeAligned::operator()(char* p) const { std::free(p); }

static std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

EagerQueue::EagerQueue(std::size_t slots, std::size_t payload_capacity)
    : slots_(slots),
      payload_capacity_(payload_capacity),
      stride_(round_up(sizeof(SlotHeader) + payload_capacity, kCacheLine)) {
  void* p = std::aligned_alloc(kCacheLine, stride_ * slots_);
  if (!p) throw std::bad_alloc();
  memory_.reset(static_cast<char*>(p));
  for (std::size_t i = 0; i < slots_; ++i) {
    auto* s = new (memory_.get() + i * stride_) SlotHeader;
    s->seq.store(i, std::memory_order_relaxed);
  }
}

}  // namespace pure
