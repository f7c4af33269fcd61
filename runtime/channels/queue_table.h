// QueueTable: the eager queues between the rank threads of one process, one
// per ordered pair, each created by its sender on first use and reused for
// the whole job.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "channels/eager_queue.h"

namespace pure {

class QueueTable {
 public:
  // `ranks` rank threads; every queue has `slots` slots of `payload` bytes.
  QueueTable(int ranks, std::size_t slots, std::size_t payload)
      : ranks_(static_cast<std::size_t>(ranks)),
        slots_(slots),
        payload_(payload),
        queues_(new std::atomic<EagerQueue*>[ranks_ * ranks_]),
        storage_(ranks_ * ranks_) {
    for (std::size_t i = 0; i < ranks_ * ranks_; ++i)
      queues_[i].store(nullptr, std::memory_order_relaxed);
  }
  QueueTable(const QueueTable&) = delete;
  QueueTable& operator=(const QueueTable&) = delete;

  // The queue from local rank `from` to `to`, created on first use. Only
  // `from` calls it.
  EagerQueue& for_sender(int from, int to) {
    const std::size_t s = slot(from, to);
    if (EagerQueue* q = queues_[s].load(std::memory_order_relaxed)) return *q;
    storage_[s] = std::make_unique<EagerQueue>(slots_, payload_);
    // Release pairs with the receiver's acquire in for_receiver: it sees the
    // initialised slots before the pointer.
    queues_[s].store(storage_[s].get(), std::memory_order_release);
    return *storage_[s];
  }
  // The same queue as seen by `to`: nullptr until the sender created it.
  EagerQueue* for_receiver(int from, int to) const {
    return queues_[slot(from, to)].load(std::memory_order_acquire);
  }

 private:
  std::size_t slot(int from, int to) const {
    return static_cast<std::size_t>(from) * ranks_ + static_cast<std::size_t>(to);
  }

  const std::size_t ranks_;
  const std::size_t slots_;
  const std::size_t payload_;
  std::unique_ptr<std::atomic<EagerQueue*>[]> queues_;
  std::vector<std::unique_ptr<EagerQueue>> storage_;  // by slot; written by the sender only
};

}  // namespace pure
