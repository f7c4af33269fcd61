// The Endpoint's receive side: matching posted receives against the
// unexpected list and the senders' queues, blocking and nonblocking
// receives, probes. (endpoint.h has the design; endpoint.cpp the send side,
// the request pool and progress.)
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "base/error.h"
#include "channels/copy.h"
#include "channels/endpoint.h"
#include "channels/rendezvous.h"
#include "comm/comm.h"

namespace pure {

namespace {

void fill_probe_status(PURE_Status* status, int source, int tag, std::size_t bytes) {
  if (!status) return;
  status->MPI_SOURCE = source;
  status->MPI_TAG = tag;
  status->MPI_ERROR = PURE_SUCCESS;
  status->pure_count = bytes;
  status->pure_cancelled = 0;
}

// Removes a stack-allocated receive from the posted list if we unwind (abort).
struct PostedGuard {
  Matcher& matcher;
  Request* r;
  ~PostedGuard() {
    if (r->state == Request::State::posted) matcher.remove(r);
  }
};

// A batch of matches leaves holes in the posted list, squeezed out at the
// end, also when a delivery throws.
struct Batch {
  explicit Batch(Matcher& m) : matcher(m) { matcher.begin_batch(); }
  ~Batch() { matcher.end_batch(); }
  Matcher& matcher;
};

}  // namespace

// ------------------------------------------------- completing receives

void complete_recv(Request* r, int source, int tag, std::size_t bytes, std::size_t capacity) {
  r->status.MPI_SOURCE = source;
  r->status.MPI_TAG = tag;
  r->status.pure_count = std::min(bytes, capacity);
  r->status.pure_cancelled = 0;
  r->message_bytes = bytes;
  r->error = bytes > capacity ? PURE_ERR_TRUNCATE : PURE_SUCCESS;
  r->status.MPI_ERROR = r->error;
  r->state = Request::State::complete;
}

void deliver(Request* r, int source, int tag, const void* payload, std::size_t bytes) {
  const Datatype& t = *r->type.type;
  const std::size_t capacity = r->count * t.size();
  const std::size_t n = std::min(bytes, capacity);
  if (t.contiguous())
    copy_bytes(static_cast<char*>(r->buf) + t.true_lb(), payload, n);
  else
    unpack(payload, n, r->buf, r->count, t, 0);
  complete_recv(r, source, tag, bytes, capacity);
}

void complete_cancelled(Request* r) {
  r->state = Request::State::complete;
  r->status.pure_cancelled = 1;
  r->status.pure_count = 0;
  r->status.MPI_SOURCE = PURE_ANY_SOURCE;
  r->status.MPI_TAG = PURE_ANY_TAG;
  r->status.MPI_ERROR = PURE_SUCCESS;
}

std::string describe_error(const Request& q) {
  if (q.error != PURE_ERR_TRUNCATE) {
    const char* text = error_class_string(q.error);
    return text ? text : "error code " + std::to_string(q.error);
  }
  // A receive MPI matched itself (another process) does not learn the
  // whole size: message_bytes is 0 then.
  const std::string what = q.message_bytes
                               ? "message of " + std::to_string(q.message_bytes) + " bytes"
                               : std::string("message");
  return what + " from rank " + std::to_string(q.status.MPI_SOURCE) + " (tag " +
         std::to_string(q.status.MPI_TAG) + ") does not fit the receive buffer of " +
         std::to_string(q.count * q.type.type->size()) + " bytes";
}

// ------------------------------------------------------------- receive side

// Delivers the message at `pos` of `q` into `r` and consumes it; or, for
// an announcement its sender cancelled, consumes it and hands it back (not
// kTaken: the caller looks further). The sender waits for room only when
// the queue is full; kMadeRoom says when consuming made some, and then the
// caller wakes it.
unsigned Endpoint::take(Request* r, EagerQueue* q, std::uint64_t pos, SlotHeader* h) {
  if (h->kind == SlotKind::eager) {
    deliver(r, h->source, h->tag, EagerQueue::payload(h), h->bytes);
    return kTaken | (q->consume(pos) ? kMadeRoom : 0u);
  }
  RendezvousDescriptor* d;
  std::memcpy(&d, EagerQueue::payload(h), sizeof d);
  const int source = h->source;
  const int tag = h->tag;
  const unsigned made_room = q->consume(pos) ? kMadeRoom : 0u;
  if (!rendezvous::claim(d)) {
    rendezvous::discard(d);
    return made_room;
  }
  rendezvous::deliver(r, source, tag, d, waiter_, !shared_cores_);
  return kTaken | made_room;
}

bool Endpoint::deliver_unexpected(Request* r, Unexpected& u) {
  if (u.kind == SlotKind::eager) {
    deliver(r, u.envelope.source, u.envelope.tag, u.data.get(), u.bytes);
    return true;
  }
  if (u.kind == SlotKind::remote) {
    remote_->receive_announced(r, u);  // r completes when MPI has the payload in
    return true;
  }
  if (!rendezvous::claim(u.descriptor)) {
    rendezvous::discard(u.descriptor);
    return false;
  }
  rendezvous::deliver(r, u.envelope.source, u.envelope.tag, u.descriptor, waiter_,
                      !shared_cores_);
  return true;
}

bool Endpoint::match_queue(Request* r, int s) {
  EagerQueue* q = in_queue(s);
  if (!q) return false;
  const int sender = peers_.world_of(s);
  // Only the earliest matching message may be taken (non-overtaking).
  return q->scan([&](std::uint64_t pos, SlotHeader* h) {
    if (!matches(*r, Envelope{sender, h->source, h->context, h->tag})) return false;
    const unsigned t = take(r, q, pos, h);
    if (t & kMadeRoom) wake(s);
    return (t & kTaken) != 0;
  });
}

bool Endpoint::match_unexpected(Request* r) {
  for (;;) {
    auto it = matcher_.find_unexpected(*r);
    if (it == matcher_.unexpected().end()) return false;
    const bool taken = deliver_unexpected(r, *it);
    matcher_.unexpected().erase(it);
    if (taken) return true;
  }
}

bool Endpoint::match(Request* r) {
  if (match_unexpected(r)) return true;
  if (r->peer >= 0) {
    const int s = peers_.local_of(r->peer);
    return s >= 0 && match_queue(r, s);
  }
  learn_inbound();
  for (QueueTable::Inbound* in : inbound_)
    if (match_queue(r, in->sender)) return true;
  return false;
}

void Endpoint::drain_full_queues() {
  learn_inbound();
  for (QueueTable::Inbound* in : inbound_) {
    const int s = in->sender;
    EagerQueue* q = &in->queue;
    // Hand back slots consumed but not yet released first: that alone may
    // unblock the sender.
    if (q->release()) wake(s);
    if (!q->full()) continue;
    // Everything left in the queue moves, in order, behind what is already
    // in the unexpected list: the "unexpected is older" invariant holds.
    const int sender = peers_.world_of(s);
    q->scan([&](std::uint64_t pos, SlotHeader* h) {
      Unexpected u{Envelope{sender, h->source, h->context, h->tag}, h->kind, h->bytes, nullptr,
                   nullptr};
      if (h->kind == SlotKind::eager) {
        u.data.reset(new char[h->bytes ? h->bytes : 1]);
        std::memcpy(u.data.get(), EagerQueue::payload(h), h->bytes);
      } else {
        std::memcpy(&u.descriptor, EagerQueue::payload(h), sizeof u.descriptor);
      }
      matcher_.add_unexpected(std::move(u));
      q->consume(pos);
      return false;
    });
    q->release();
    wake(s);
  }
}

void Endpoint::retire_posted(std::size_t i) {
  Request* r = matcher_.at(i);
  matcher_.retire(i);
  if (!r->detached) return;
  if (r->complete())
    free_request(r);
  else
    detached_.push_back(r);  // its payload still in MPI: progress tests it
}

// Several posted receives. Matching walks the messages, not the receives:
// each message, taken per sender in arrival order, goes to the earliest
// posted receive it matches. Walking the receives instead would let a later
// receive take a message that arrived just after an earlier, equally
// matching receive had looked at that sender's queue.
void Endpoint::match_posted() {
  Batch batch(matcher_);
  // The unexpected list first: from each sender it holds older messages than
  // the sender's queue.
  auto& unexpected = matcher_.unexpected();
  for (auto it = unexpected.begin(); it != unexpected.end() && matcher_.posted() != 0;) {
    const std::size_t i = matcher_.first_match(it->envelope);
    if (i == Matcher::kNone) {
      ++it;
      continue;
    }
    const bool taken = deliver_unexpected(matcher_.at(i), *it);
    it = unexpected.erase(it);
    if (taken) retire_posted(i);
  }
  learn_inbound();
  for (std::size_t k = 0; k < inbound_.size() && matcher_.posted() != 0; ++k) {
    const int s = inbound_[k]->sender;
    const int sender = peers_.world_of(s);
    if (!matcher_.any_source() && matcher_.first_from(sender) == Matcher::kNone) continue;
    EagerQueue* q = &inbound_[k]->queue;
    bool made_room = false;
    q->scan([&](std::uint64_t pos, SlotHeader* h) {
      const std::size_t i =
          matcher_.first_match(Envelope{sender, h->source, h->context, h->tag});
      if (i != Matcher::kNone) {
        const unsigned t = take(matcher_.at(i), q, pos, h);
        made_room |= (t & kMadeRoom) != 0;
        if (t & kTaken) retire_posted(i);
      }
      return matcher_.posted() == 0;
    });
    if (made_room) wake(s);
  }
}


// A lone blocking receive from a known source (nothing else posted, every
// rank on its own core), once the unexpected list has nothing for it, is
// satisfied by the earliest matching message in the sender's queue, or else
// by one the sender has yet to publish: spin_for_next scans the queue once
// and then spins on the next slot's one word instead of running the whole
// progress engine each round, so the message is seen within a few
// nanoseconds of its cache line arriving. It gives up after a bounded spin
// and leaves the rest to the general wait loop (which also parks and steals).
bool Endpoint::spins(const Request* r) const {
  return r->peer >= 0 && matcher_.idle() && !shared_cores_ && peers_.here(r->peer);
}

bool Endpoint::spin_for_next(Request* r) {
  constexpr int kSpins = 1 << 14;
  const int s = peers_.local_of(r->peer);
  EagerQueue* q = in_queue(s);
  if (!q) return false;
  // About to wait: hand consumed slots back now, while the store's cache
  // line transfer overlaps the wait, rather than in a batch right before a
  // reply (x86 commits stores in order, so the reply would wait for it).
  if (q->release()) wake(s);
  const int sender = r->peer;
  // Takes the message at `pos` if it matches.
  auto take_at = [&](std::uint64_t pos, SlotHeader* h) {
    if (!matches(*r, Envelope{sender, h->source, h->context, h->tag})) return false;
    const unsigned t = take(r, q, pos, h);
    if (t & kMadeRoom) wake(s);
    return (t & kTaken) != 0;
  };
  // The earliest matching message from the sender (the caller looked in the
  // unexpected list): take it rather than spin past it on the next position
  // (which its sender, if it waits for this one, would never fill).
  std::uint64_t next = 0;
  if (q->scan(take_at, &next)) return true;
  if (next == q->head() + q->capacity()) return false;  // full: the general loop drains it
  if (!waiter_.spin([&] { return !q->unpublished(next); }, kSpins)) return false;
  // The message at `next` is the sender's next: if it matches, nothing
  // older from this sender does (we looked above), so take it here.
  bool end = false;
  SlotHeader* h = q->peek(next, &end);
  return (h && take_at(next, h)) || match(r);
}

void Endpoint::recv(void* buf, std::size_t count, const TypeRef& type, int source,
                    const Comm& comm, int tag, PURE_Status* status, const WaitSite& site) {
  Request r;
  r.kind = Request::Kind::recv;
  r.comm = &comm;
  r.context = comm.context();
  r.peer = source;
  r.tag = tag;
  r.buf = buf;
  r.count = count;
  r.type.type = type.type;  // the caller's TypeRef outlives this call
  // Receives posted earlier get the first chance at every message.
  if (!matcher_.idle()) progress(false);
  if (!matcher_.idle() ||
             !(spins(&r) ? match_unexpected(&r) || spin_for_next(&r) : match(&r))) {
    matcher_.post(&r);
    PostedGuard guard{matcher_, &r};
    WaitSite where = site;
    where.remote = remote_ && remote_->may_match(r, comm);
    waiter_.wait_until([&] { return r.complete(); }, where);
  } else if (!r.complete()) {
    // Matched a message whose payload is still in MPI (in_mpi).
    WaitSite where = site;
    where.remote = true;
    waiter_.wait_until([&] { return test(&r); }, where);
  }
  if (status) *status = r.status;
  if (r.error == PURE_ERR_TRUNCATE && r.message_bytes == 0)  // from MPI, whole size unknown
    fail(PURE_ERR_TRUNCATE,
         "a message from rank %d (tag %d) is longer than the receive buffer of %zu bytes",
         r.status.MPI_SOURCE, r.status.MPI_TAG, r.count * type.type->size());
  if (r.error == PURE_ERR_TRUNCATE)
    fail(PURE_ERR_TRUNCATE,
         "message of %zu bytes from rank %d (tag %d) does not fit the receive buffer of %zu bytes",
         r.message_bytes, r.status.MPI_SOURCE, r.status.MPI_TAG, r.count * type.type->size());
}

Request* Endpoint::irecv(void* buf, std::size_t count, const TypeRef& type, int source,
                         const Comm& comm, int tag) {
  Request* r = new_request();
  r->kind = Request::Kind::recv;
  r->comm = &comm;
  r->context = comm.context();
  r->peer = source;
  r->tag = tag;
  r->buf = buf;
  r->count = count;
  r->type = type;
  if (matcher_.idle() && match(r)) return r;
  matcher_.post(r);
  return r;
}

bool Endpoint::iprobe(int source, const Comm& comm, int tag, PURE_Status* status) {
  progress(false);
  Request probe;
  probe.context = comm.context();
  probe.peer = source;
  probe.tag = tag;
  auto found = [&] {
    for (const Unexpected& u : matcher_.unexpected()) {
      if (!matches(probe, u.envelope)) continue;
      if (u.descriptor && rendezvous::cancelled(u.descriptor)) continue;  // no message
      fill_probe_status(status, u.envelope.source, u.envelope.tag, u.bytes);
      return true;
    }
    return false;
  };
  if (found()) return true;
  learn_inbound();
  for (QueueTable::Inbound* in : inbound_) {
    const int sender = peers_.world_of(in->sender);
    if (source >= 0 && sender != source) continue;
    EagerQueue* q = &in->queue;
    if (q->scan([&](std::uint64_t, SlotHeader* h) {
          if (!matches(probe, Envelope{sender, h->source, h->context, h->tag})) return false;
          if (h->kind == SlotKind::rendezvous) {
            RendezvousDescriptor* d;
            std::memcpy(&d, EagerQueue::payload(h), sizeof d);
            if (rendezvous::cancelled(d)) return false;
          }
          fill_probe_status(status, h->source, h->tag, h->bytes);
          return true;
        }))
      return true;
  }
  // Messages from other processes wait in MPI until pulled.
  if (remote_ && remote_->may_match(probe, comm)) {
    remote_->pull(comm);
    return found();
  }
  return false;
}


bool Endpoint::improbe(int source, const Comm& comm, int tag, PURE_Status* status,
                       Unexpected* message) {
  // Receives posted earlier own what they match: they match first, and a
  // message one of them matches is never the probe's.
  progress(false);
  Request probe;
  probe.context = comm.context();
  probe.peer = source;
  probe.tag = tag;
  auto ours = [&](const Envelope& e) {
    return matches(probe, e) && matcher_.first_match(e) == Matcher::kNone;
  };
  auto taken = [&] {
    fill_probe_status(status, message->envelope.source, message->envelope.tag, message->bytes);
    return true;
  };
  auto from_unexpected = [&] {
    auto& list = matcher_.unexpected();
    for (auto it = list.begin(); it != list.end();) {
      if (!ours(it->envelope)) {
        ++it;
        continue;
      }
      if (it->descriptor && !rendezvous::claim(it->descriptor)) {
        rendezvous::discard(it->descriptor);  // its sender cancelled it: no message
        it = list.erase(it);
        continue;
      }
      *message = std::move(*it);
      list.erase(it);
      return taken();
    }
    return false;
  };
  if (from_unexpected()) return true;
  learn_inbound();
  for (QueueTable::Inbound* in : inbound_) {
    const int sender = peers_.world_of(in->sender);
    if (source >= 0 && sender != source) continue;
    EagerQueue* q = &in->queue;
    bool made_room = false;
    // The earliest message of this sender the probe matches (non-overtaking).
    const bool got = q->scan([&](std::uint64_t pos, SlotHeader* h) {
      const Envelope e{sender, h->source, h->context, h->tag};
      if (!ours(e)) return false;
      Unexpected u{e, h->kind, h->bytes, nullptr, nullptr};
      if (h->kind == SlotKind::eager) {
        u.data.reset(new char[h->bytes ? h->bytes : 1]);
        std::memcpy(u.data.get(), EagerQueue::payload(h), h->bytes);
      } else {
        std::memcpy(&u.descriptor, EagerQueue::payload(h), sizeof u.descriptor);
      }
      made_room |= q->consume(pos);
      if (u.descriptor && !rendezvous::claim(u.descriptor)) {
        rendezvous::discard(u.descriptor);
        return false;
      }
      *message = std::move(u);
      return true;
    });
    if (made_room) wake(in->sender);
    if (got) return taken();
  }
  // Messages from other processes wait in MPI until pulled (by MPI's own
  // matched probe, remote_channel.cpp) into the unexpected list.
  if (remote_ && remote_->may_match(probe, comm)) {
    remote_->pull(comm);
    return from_unexpected();
  }
  return false;
}

void Endpoint::receive_matched(Request* r, Unexpected& message) {
  if (message.kind == SlotKind::eager) {
    deliver(r, message.envelope.source, message.envelope.tag, message.data.get(), message.bytes);
  } else if (message.kind == SlotKind::remote) {
    remote_->receive_announced(r, message);  // r completes when MPI brought the payload in
  } else {  // claimed by the probe already
    rendezvous::deliver(r, message.envelope.source, message.envelope.tag, message.descriptor,
                        waiter_, !shared_cores_);
  }
}

}  // namespace pure
