// QueueTable: the eager queues between the rank threads of one process, one
// per ordered pair of ranks that ever exchange a message, created by the
// sender on first use and reused for the whole job. Nothing exists for pairs
// that never talk, so a process of thousands of ranks that each talk to a
// few costs memory in its ranks, not in their square.
//
// A sender creates the queue to `to` and announces it by pushing it on
// `to`'s inbound list (a lock-free stack: several senders may announce at
// once). The receiver learns its queues by walking that list from its head
// down to the head it saw last (Endpoint keeps what it learnt).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "channels/eager_queue.h"

namespace pure {

class QueueTable {
 public:
  // One queue and where it comes from, as the receiver's list holds it.
  struct Inbound {
    Inbound(std::size_t slots, std::size_t payload, int from) : queue(slots, payload), sender(from) {}
    EagerQueue queue;
    const int sender;             // local index
    Inbound* next = nullptr;      // older announcements to the same receiver
  };

  // `ranks` rank threads; every queue has `slots` slots of `payload` bytes.
  QueueTable(int ranks, std::size_t slots, std::size_t payload)
      : slots_(slots),
        payload_(payload),
        heads_(new std::atomic<Inbound*>[static_cast<std::size_t>(ranks)]),
        owned_(static_cast<std::size_t>(ranks)) {
    for (int i = 0; i < ranks; ++i) heads_[static_cast<std::size_t>(i)].store(nullptr, std::memory_order_relaxed);
  }
  QueueTable(const QueueTable&) = delete;
  QueueTable& operator=(const QueueTable&) = delete;

  // Creates the queue from local rank `from` to `to` and announces it to
  // `to`. Only `from` calls it, once per `to`.
  EagerQueue& create(int from, int to) {
    auto& mine = owned_[static_cast<std::size_t>(from)];
    mine.push_back(std::make_unique<Inbound>(slots_, payload_, from));
    Inbound* node = mine.back().get();
    std::atomic<Inbound*>& head = heads_[static_cast<std::size_t>(to)];
    Inbound* seen = head.load(std::memory_order_relaxed);
    do {
      node->next = seen;
      // Release pairs with the receiver's acquire in inbound(): it sees the
      // initialised queue, and every older node, before the pointer.
    } while (!head.compare_exchange_weak(seen, node, std::memory_order_release,
                                         std::memory_order_relaxed));
    return node->queue;
  }

  // The newest queue announced to `to` (then follow `next`); nullptr when none.
  Inbound* inbound(int to) const {
    return heads_[static_cast<std::size_t>(to)].load(std::memory_order_acquire);
  }

 private:
  const std::size_t slots_;
  const std::size_t payload_;
  std::unique_ptr<std::atomic<Inbound*>[]> heads_;  // per receiver
  // Per sender, the queues it created; each vector is touched by its sender
  // only (and destroyed with the table, after every rank ended).
  std::vector<std::vector<std::unique_ptr<Inbound>>> owned_;
};

}  // namespace pure
