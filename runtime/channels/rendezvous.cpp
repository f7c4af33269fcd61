#include "channels/rendezvous.h"

#include <algorithm>

namespace pure::rendezvous {

void prepare(RendezvousDescriptor* d, const void* buf, std::size_t count, const Datatype& type,
             Parker* sender) {
  d->src = buf;
  d->src_count = count;
  d->src_type = &type;
  d->bytes = count * type.size();
  d->sender = sender;
  d->dst = nullptr;
  d->dst_count = d->copy_bytes = d->chunk_bytes = d->chunks = 0;
  d->dst_type = nullptr;
  d->receiver = nullptr;
  // Relaxed: the announcement's release store publishes the whole descriptor.
  d->matched.store(false, std::memory_order_relaxed);
  d->claim.store(kOpen, std::memory_order_relaxed);
  d->next_chunk.store(0, std::memory_order_relaxed);
  d->chunks_done.store(0, std::memory_order_relaxed);
  d->released.store(false, std::memory_order_relaxed);
}

void discard(RendezvousDescriptor* d) {
  Parker* sender = d->sender;
  // Release: the sender may reuse the descriptor once it sees this.
  d->released.store(true, std::memory_order_release);
  sender->notify();
}

void help(RendezvousDescriptor* d, bool receiver, WaitStatus* status) {
  // Acquire pairs with the receiver's release of `matched`: dst, counts and
  // the chunking are visible before we copy.
  if (!d->matched.load(std::memory_order_acquire)) return;
  if (!receiver && d->chunks < 2) return;
  for (;;) {
    const std::size_t c = d->next_chunk.fetch_add(1, std::memory_order_relaxed);
    if (c >= d->chunks) return;
    const std::size_t begin = c * d->chunk_bytes;
    const std::size_t end = std::min(d->copy_bytes, begin + d->chunk_bytes);
    copy_range(d->src, d->src_count, *d->src_type, d->dst, d->dst_count, *d->dst_type, begin, end);
    // Release: our bytes happen-before whoever sees the final count. The
    // sender whose chunk completes the copy wakes the receiver waiting for it.
    const std::size_t done = d->chunks_done.fetch_add(1, std::memory_order_acq_rel) + 1;
    if (!receiver && done == d->chunks) d->receiver->notify();
    if (status) status->progressed();
  }
}

void deliver(Request* r, int source, int tag, RendezvousDescriptor* d, Waiter& waiter,
             bool sender_may_help) {
  const Datatype& t = *r->type.type;
  const std::size_t capacity = r->count * t.size();
  d->dst = r->buf;
  d->dst_count = r->count;
  d->dst_type = &t;
  d->copy_bytes = std::min(d->bytes, capacity);
  d->chunk_bytes =
      d->copy_bytes >= 2 * kChunkBytes ? kChunkBytes : std::max<std::size_t>(d->copy_bytes, 1);
  d->chunks = (d->copy_bytes + d->chunk_bytes - 1) / d->chunk_bytes;
  d->receiver = &waiter.parker();
  d->matched.store(true, std::memory_order_release);
  // A parked sender can help copy only if it has a core to do it on.
  if (d->chunks > 1 && sender_may_help) d->sender->notify();
  help(d, true, &waiter.status());
  // The sender may be in the middle of its last chunk; its completion wakes
  // us. No progress meanwhile: we are inside the progress engine.
  waiter.wait_until([&] { return d->chunks_done.load(std::memory_order_acquire) >= d->chunks; },
                    WaitSite{"rendezvous copy", -1, -1}, kWaitTight | kWaitNoWork);
  complete_recv(r, source, tag, d->bytes, capacity);
  Parker* sender = d->sender;
  // Release: the sender may reuse its buffer and free `d` once it sees this;
  // `d` must not be touched afterwards.
  d->released.store(true, std::memory_order_release);
  sender->notify();
}

}  // namespace pure::rendezvous
