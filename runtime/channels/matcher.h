// Matcher: one rank's receive-side bookkeeping -- the receives it posted, in
// posting order, and the unexpected messages: those taken out of full eager
// queues (endpoint.cpp) or read from other processes' batches
// (net/remote_channel.cpp) before any posted receive matched them. A plain data structure, owned by the
// rank's thread: no atomics, no waiting, testable on its own.
//
// MPI's matching rules, as they apply here:
// * a message goes to the earliest posted receive that matches it;
// * from one sender, on one communicator, messages match in the order they
//   were sent (non-overtaking). Every unexpected message from sender s is
//   older than every message still in s's queue (or in MPI), so "the
//   unexpected list first, then the queue from its head" finds the earliest.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <vector>

#include "channels/eager_queue.h"
#include "channels/request.h"

namespace pure {

class Comm;

// Who sent a message and how it is addressed.
struct Envelope {
  int sender;   // world rank
  int source;   // the sender's rank in the communicator (the status's MPI_SOURCE)
  int context;
  int tag;
};

// Whether receive (or probe) `r` takes a message with envelope `e`.
inline bool matches(const Request& r, const Envelope& e) {
  return e.context == r.context && (r.peer < 0 || r.peer == e.sender) &&
         (r.tag == PURE_ANY_TAG || r.tag == e.tag);
}

struct Unexpected {
  Envelope envelope;
  SlotKind kind;
  std::size_t bytes;
  std::unique_ptr<char[]> data;                // eager payload
  RendezvousDescriptor* descriptor = nullptr;  // rendezvous announcement
  // remote: the communicator's MPI side (its Comm may be freed first), the
  // receiver's place in it, the payload's MPI source and tag (net/outbox.h).
  std::shared_ptr<const void> net = nullptr;
  int receiver = -1;
  int payload_from = -1;
  int payload_tag = 0;
};

class Matcher {
 public:
  static constexpr std::size_t kNone = ~std::size_t{0};

  // ---- posted receives ----
  bool idle() const { return posted_.empty(); }
  std::size_t posted() const { return live_; }
  Request* at(std::size_t i) const { return posted_[i]; }
  std::size_t end() const { return posted_.size(); }
  void post(Request* r) {
    r->state = Request::State::posted;
    posted_.push_back(r);
    ++live_;
    any_source_ += r->peer < 0;
  }
  // The earliest posted receive from position `from` on that a message with
  // envelope `e` matches, or kNone.
  std::size_t first_match(const Envelope& e, std::size_t from = 0) const;
  // The earliest posted receive from position `from` on that names `sender`.
  std::size_t first_from(int sender, std::size_t from = 0) const;
  // Some posted receive takes any source.
  bool any_source() const { return any_source_ != 0; }
  // Takes receive i out of the list (it matched or was cancelled). During a
  // batch (below) it leaves a hole, squeezed out by end_batch.
  void retire(std::size_t i);
  // Takes `r` out of the list if it is there; whether it was.
  bool remove(Request* r);
  // Batches: matching several receives at once retires many; holes are
  // cheaper than erasing each from the front. first_live() skips them.
  void begin_batch() { batch_ = true; }
  void end_batch();
  std::size_t first_live() const { return first_live_; }

  // ---- unexpected messages ----
  std::list<Unexpected>& unexpected() { return unexpected_; }
  const std::list<Unexpected>& unexpected() const { return unexpected_; }
  void add_unexpected(Unexpected u) { unexpected_.push_back(std::move(u)); }
  // The oldest unexpected message receive (or probe) `r` takes, or end().
  std::list<Unexpected>::iterator find_unexpected(const Request& r);

 private:
  std::vector<Request*> posted_;  // posting order; nullptr holes during a batch
  std::size_t live_ = 0;
  std::size_t any_source_ = 0;    // live receives with peer < 0
  std::size_t first_live_ = 0;    // posted_[0, first_live_) are holes
  bool batch_ = false;
  std::list<Unexpected> unexpected_;
};

}  // namespace pure
