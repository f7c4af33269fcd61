// The rendezvous protocol: how a large (or synchronous) message crosses from
// sender to receiver inside a process with one copy.
//
// 1. The sender fills a RendezvousDescriptor (prepare) and announces a
//    pointer to it through the eager queue, in order with its eager messages.
// 2. The receiver that matches the announcement (deliver) publishes where
//    the data goes and how it is chunked, then stores `matched` (release).
// 3. Both sides claim chunks with a relaxed fetch_add on `next_chunk` and
//    copy them straight from the sender's layout into the receiver's
//    (help): a waiting sender doubles the copy bandwidth. A one-chunk copy
//    is the receiver's alone: were the sender to claim it, the receiver
//    would wait for another core's copy and then for the lines it wrote.
// 4. The receiver waits for every chunk (`chunks_done`, acq_rel: each
//    copier's bytes happen-before whoever sees the final count; the sender
//    whose chunk completes the count wakes the receiver), completes its
//    request and stores `released` (release): from then on the sender may
//    reuse its buffer and the descriptor, and the receiver never touches it
//    again.
#pragma once

#include <cstddef>

#include "base/parker.h"
#include "base/waiter.h"
#include "channels/request.h"

namespace pure::rendezvous {

// Copies of at least two chunks of this size are split so that the waiting
// sender can copy half while the receiver copies the other half.
constexpr std::size_t kChunkBytes = 256 * 1024;

// Sender, before announcing: `sender` is its Parker (woken when the
// receiver matched, and when it released).
void prepare(RendezvousDescriptor* d, const void* buf, std::size_t count, const Datatype& type,
             Parker* sender);

// Cancelling (pure_cancel of a send not yet matched). Before it touches
// an announcement, a receive claims it with a compare-and-swap on `claim`;
// the sender cancels with one from the same open state, so exactly one of
// the two wins: the compare-and-swap itself decides. No data passes through
// `claim` (the announcement publishes the descriptor, `released` hands it
// back); the acq_rel and acquire orders below are stronger than needed.
enum Claim : int { kOpen = 0, kTaken = 1, kCancelled = 2 };
// Receiver: claims `d` for a receive; false when the sender cancelled it,
// in which case the receiver hands it back (discard) and looks further.
inline bool claim(RendezvousDescriptor* d) {
  int open = kOpen;
  return d->claim.compare_exchange_strong(open, kTaken, std::memory_order_acq_rel);
}
// Receiver: gives a cancelled announcement back to its sender, who keeps
// the descriptor until then; `d` must not be touched afterwards.
void discard(RendezvousDescriptor* d);
// A probe's view: whether the sender cancelled `d` (then it is no message).
inline bool cancelled(const RendezvousDescriptor* d) {
  return d->claim.load(std::memory_order_acquire) == kCancelled;
}
// Sender: cancels `d` if no receive claimed it yet; whether it did.
inline bool cancel(RendezvousDescriptor* d) {
  int open = kOpen;
  return d->claim.compare_exchange_strong(open, kCancelled, std::memory_order_acq_rel);
}

// Either side: copies chunks while any is left to claim (a sender only once
// the receiver matched, and only when there are two chunks or more). Each
// chunk copied counts as progress of `status` (when given, the caller's
// own), so that a copy of gigabytes, which takes a while under a sanitizer,
// does not look like a deadlock to the watchdog.
void help(RendezvousDescriptor* d, bool receiver, WaitStatus* status = nullptr);

// Sender: whether the receiver is done (the send is complete); helps copy
// meanwhile.
inline bool released(RendezvousDescriptor* d) {
  help(d, false);
  return d->released.load(std::memory_order_acquire);
}

// Receiver: receive `r` matched the announcement `d` of a message from
// communicator rank `source` with `tag`. Copies it (with the sender's help
// when `sender_may_help`: it has a core to copy on), completes `r` and
// releases `d`. `waiter` is the receiver's.
void deliver(Request* r, int source, int tag, RendezvousDescriptor* d, Waiter& waiter,
             bool sender_may_help);

}  // namespace pure::rendezvous
