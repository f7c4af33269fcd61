#include "channels/endpoint.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "base/error.h"
#include "channels/rendezvous.h"
#include "comm/comm.h"

namespace pure {

namespace {

// memcpy for the few bytes most messages carry: a library call costs more
// than the copy. Two possibly overlapping fixed-size moves cover 1..16 bytes.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  auto* s = static_cast<const unsigned char*>(src);
  if (n >= 8 && n <= 16) {
    std::uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    std::uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(d, &a, 4);
    std::memcpy(d + n - 4, &b, 4);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    std::memcpy(d, s, n);
  }
}

void copy_out(void* out, const void* src, std::size_t count, const Datatype& type,
              std::size_t bytes) {
  if (type.contiguous())
    copy_bytes(out, static_cast<const char*>(src) + type.true_lb(), bytes);
  else
    pack(src, count, type, 0, out, bytes);
}

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

Request* completed_send_request() {
  static Request* const done = [] {
    auto* r = new Request;
    r->kind = Request::Kind::send;
    r->state = Request::State::complete;
    return r;
  }();
  return done;
}

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

// ------------------------------------------------------------ the endpoint

Endpoint::Endpoint(int me, Waiter& waiter, const Peers& peers, QueueTable& queues,
                   std::size_t eager_limit, bool shared_cores)
    : me_(me),
      waiter_(waiter),
      peers_(peers),
      queues_(queues),
      eager_limit_(eager_limit),
      shared_cores_(shared_cores) {}

Endpoint::~Endpoint() = default;

bool Endpoint::learn_inbound() {
  QueueTable::Inbound* head = queues_.inbound(me_);
  if (head == known_head_) return false;
  for (QueueTable::Inbound* in = head; in != known_head_; in = in->next) {
    in_by_sender_[in->sender] = &in->queue;
    inbound_.push_back(in);
  }
  known_head_ = head;
  // By sender, as a wildcard receive looks at the senders' queues in turn.
  std::sort(inbound_.begin(), inbound_.end(),
            [](const QueueTable::Inbound* a, const QueueTable::Inbound* b) {
              return a->sender < b->sender;
            });
  return true;
}

Request* Endpoint::new_request() {
  if (!free_requests_) {
    request_storage_.push_back(std::make_unique<Request>());
    return request_storage_.back().get();
  }
  Request* r = free_requests_;
  free_requests_ = r->next;
  r->reset();
  return r;
}

void Endpoint::free_request(Request* r) {
  if (r == completed_send_request()) return;
  r->type = TypeRef{};  // drop the datatype reference now, not at reuse
  r->state = Request::State::free;
  ++r->generation;
  r->next = free_requests_;
  free_requests_ = r;
}

std::size_t Endpoint::pending_sends() const {
  std::size_t n = queued_total_;
  for (const Request* r : detached_) n += r->kind == Request::Kind::send;
  return n;
}

std::size_t Endpoint::pending_receives() const {
  return matcher_.posted() + (remote_ ? remote_->pending_receives() : 0);
}

// ---------------------------------------------------------------- send side

// Claims the next slot towards `dest`, writes the envelope and lets
// `fill(payload)` write the payload, publishes and wakes the receiver.
// Returns false, writing nothing, when the queue is full.
template <class Fill>
bool Endpoint::push(int dest, const Comm& comm, int tag, SlotKind kind, std::size_t bytes,
                    Fill&& fill) {
  EagerQueue& q = out_queue(dest);
  SlotHeader* s = q.try_claim();
  if (!s) return false;
  s->context = comm.context();
  s->tag = tag;
  s->kind = kind;
  s->source = comm.rank();
  s->bytes = bytes;
  fill(EagerQueue::payload(s));
  q.publish(s);
  wake(dest);
  return true;
}

bool Endpoint::push_eager(const void* buf, std::size_t count, const Datatype& type,
                          std::size_t bytes, int dest, const Comm& comm, int tag) {
  return push(dest, comm, tag, SlotKind::eager, bytes,
              [&](void* payload) { copy_out(payload, buf, count, type, bytes); });
}

bool Endpoint::push_announcement(RendezvousDescriptor* d, int dest, const Comm& comm, int tag) {
  return push(dest, comm, tag, SlotKind::rendezvous, d->bytes,
              [&](void* payload) { std::memcpy(payload, &d, sizeof d); });
}

bool Endpoint::try_push(Request* r) {
  if (r->rendezvous) {
    if (!push_announcement(&r->rendezvous_desc, r->peer, *r->comm, r->tag)) return false;
    r->state = Request::State::announced;
    return true;
  }
  const Datatype& t = *r->type.type;
  if (!push_eager(r->buf, r->count, t, r->count * t.size(), r->peer, *r->comm, r->tag))
    return false;
  r->state = Request::State::complete;
  return true;
}

void Endpoint::enqueue(Request* r) {
  r->state = Request::State::queued;
  r->next = nullptr;
  if (queued_tail_)
    queued_tail_->next = r;
  else
    queued_head_ = r;
  queued_tail_ = r;
  ++queued_to_[r->peer];
  ++queued_total_;
  // The receiver drains full queues while it waits: make sure it looks.
  wake(r->peer);
}

// Pushes queued sends in order: once one to a destination finds its queue
// full, later ones to the same destination stay queued behind it.
void Endpoint::push_queued() {
  std::vector<int> blocked;  // destinations whose queue was full in this pass
  Request** link = &queued_head_;
  Request* prev = nullptr;
  while (Request* r = *link) {
    const bool behind =
        std::find(blocked.begin(), blocked.end(), r->peer) != blocked.end();
    if (behind || !try_push(r)) {
      if (!behind) blocked.push_back(r->peer);
      prev = r;
      link = &r->next;
      continue;
    }
    *link = r->next;
    if (queued_tail_ == r) queued_tail_ = prev;
    --queued_to_[r->peer];
    --queued_total_;
  }
}

void Endpoint::send(const void* buf, std::size_t count, const TypeRef& type, int to,
                    const Comm& comm, int tag, SendMode mode, const WaitSite& site) {
  const int dest = peers_.local_of(to);
  if (dest < 0) {
    remote_->send(buf, count, type, to, comm, tag, mode, site);
    return;
  }
  const Datatype& t = *type.type;
  const std::size_t bytes = count * t.size();
  // Earlier non-blocking sends to `dest` still waiting for room go first.
  if (queued_to(dest)) waiter_.wait_until([&] { return !queued_to(dest); }, site);

  if (mode != SendMode::synchronous && bytes < eager_limit_) {
    if (push_eager(buf, count, t, bytes, dest, comm, tag)) return;
    // The queue is full: wake the receiver (it drains full queues while it
    // waits) and wait for room, draining our own incoming queues meanwhile so
    // two ranks sending to each other cannot block each other.
    wake(dest);
    waiter_.wait_until([&] { return push_eager(buf, count, t, bytes, dest, comm, tag); }, site);
    return;
  }

  // A pooled request, not a stack object: if the job aborts while we wait,
  // the receiver may still touch the descriptor, and pooled requests live
  // until the job ends.
  Request* r = new_request();
  r->type = type;
  RendezvousDescriptor* d = &r->rendezvous_desc;
  rendezvous::prepare(d, buf, count, t, &waiter_.parker());
  if (!push_announcement(d, dest, comm, tag)) {
    wake(dest);
    waiter_.wait_until([&] { return push_announcement(d, dest, comm, tag); }, site);
  }
  waiter_.wait_until([&] { return rendezvous::released(d); }, site);
  free_request(r);
}

Request* Endpoint::isend(const void* buf, std::size_t count, const TypeRef& type, int to,
                         const Comm& comm, int tag, SendMode mode) {
  const int dest = peers_.local_of(to);
  if (dest < 0) return remote_->isend(buf, count, type, to, comm, tag, mode);
  const Datatype& t = *type.type;
  const std::size_t bytes = count * t.size();
  const bool eager = mode != SendMode::synchronous && bytes < eager_limit_;
  if (eager && !queued_to(dest) && push_eager(buf, count, t, bytes, dest, comm, tag))
    return completed_send_request();

  Request* r = new_request();
  r->kind = Request::Kind::send;
  r->comm = &comm;
  r->context = comm.context();
  r->peer = dest;
  r->tag = tag;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = type;
  r->rendezvous = !eager;
  if (!eager) rendezvous::prepare(&r->rendezvous_desc, buf, count, t, &waiter_.parker());
  if (queued_to(dest) || !try_push(r)) enqueue(r);
  return r;
}

// ------------------------------------------------------------- receive side

// Delivers the message at `pos` of `q` into `r` and consumes it. The sender
// waits for room only when the queue is full; the result says when
// consuming made some, and then the caller wakes it.
bool Endpoint::take(Request* r, EagerQueue* q, std::uint64_t pos, SlotHeader* h) {
  if (h->kind == SlotKind::eager) {
    deliver(r, h->source, h->tag, EagerQueue::payload(h), h->bytes);
    return q->consume(pos);
  }
  RendezvousDescriptor* d;
  std::memcpy(&d, EagerQueue::payload(h), sizeof d);
  const int source = h->source;
  const int tag = h->tag;
  const bool made_room = q->consume(pos);
  rendezvous::deliver(r, source, tag, d, waiter_, !shared_cores_);
  return made_room;
}

void Endpoint::deliver_unexpected(Request* r, Unexpected& u) {
  if (u.kind == SlotKind::eager)
    deliver(r, u.envelope.source, u.envelope.tag, u.data.get(), u.bytes);
  else
    rendezvous::deliver(r, u.envelope.source, u.envelope.tag, u.descriptor, waiter_,
                        !shared_cores_);
}

bool Endpoint::match_queue(Request* r, int s) {
  EagerQueue* q = in_queue(s);
  if (!q) return false;
  const int sender = peers_.world_of(s);
  // Only the earliest matching message may be taken (non-overtaking).
  return q->scan([&](std::uint64_t pos, SlotHeader* h) {
    if (!matches(*r, Envelope{sender, h->source, h->context, h->tag})) return false;
    if (take(r, q, pos, h)) wake(s);
    return true;
  });
}

bool Endpoint::match_unexpected(Request* r) {
  auto it = matcher_.find_unexpected(*r);
  if (it == matcher_.unexpected().end()) return false;
  deliver_unexpected(r, *it);
  matcher_.unexpected().erase(it);
  return true;
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
  if (r->detached) free_request(r);
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
    deliver_unexpected(matcher_.at(i), *it);
    it = unexpected.erase(it);
    retire_posted(i);
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
        made_room |= take(matcher_.at(i), q, pos, h);
        retire_posted(i);
      }
      return matcher_.posted() == 0;
    });
    if (made_room) wake(s);
  }
}

void Endpoint::progress(bool stuck) {
  if (queued_total_ != 0) push_queued();
  if (stuck) drain_full_queues();
  if (matcher_.posted() == 1) {
    // One receive cannot be overtaken: the direct search is the same match.
    if (match(matcher_.at(0))) retire_posted(0);
  } else if (!matcher_.idle()) {
    match_posted();
  }
  // After local matching: then no unexpected message matches a posted
  // receive, and pulled messages cannot overtake one (remote.h).
  if (remote_ && !matcher_.idle()) remote_->progress();
  for (std::size_t i = 0; i < detached_.size();) {
    Request* r = detached_[i];
    // A queued send is pushed (and freed) by push_queued.
    if (r->state != Request::State::queued && test(r)) {
      free_request(r);
      detached_[i] = detached_.back();
      detached_.pop_back();
    } else {
      ++i;
    }
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
    if (take(r, q, pos, h)) wake(s);
    return true;
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
  if (remote_ && remote_->direct(r)) {
    // The unexpected list may hold an older message; else MPI matches it.
    if (!match(&r)) remote_->recv_direct(&r, site);
  } else if (!matcher_.idle() ||
             !(spins(&r) ? match_unexpected(&r) || spin_for_next(&r) : match(&r))) {
    matcher_.post(&r);
    PostedGuard guard{matcher_, &r};
    WaitSite where = site;
    where.remote = remote_ && remote_->may_match(r, comm);
    waiter_.wait_until([&] { return r.complete(); }, where);
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
  if (remote_ && remote_->direct(*r)) {
    if (!match(r)) remote_->post_direct(r);
    return r;
  }
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
    auto it = matcher_.find_unexpected(probe);
    if (it == matcher_.unexpected().end()) return false;
    fill_probe_status(status, it->envelope.source, it->envelope.tag, it->bytes);
    return true;
  };
  if (found()) return true;
  learn_inbound();
  for (QueueTable::Inbound* in : inbound_) {
    const int sender = peers_.world_of(in->sender);
    if (source >= 0 && sender != source) continue;
    EagerQueue* q = &in->queue;
    if (q->scan([&](std::uint64_t, SlotHeader* h) {
          if (!matches(probe, Envelope{sender, h->source, h->context, h->tag})) return false;
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

bool Endpoint::test(Request* r) {
  switch (r->state) {
    case Request::State::complete:
      return true;
    case Request::State::in_mpi:
      return remote_->test(r);
    case Request::State::announced:
      if (!rendezvous::released(&r->rendezvous_desc)) return false;
      r->state = Request::State::complete;
      return true;
    default:  // queued, posted: progress moves them on
      return false;
  }
}

bool Endpoint::cancel(Request* r) {
  if (r->kind != Request::Kind::recv) return false;
  if (r->state == Request::State::in_mpi) {
    remote_->cancel(r);
    return false;
  }
  if (r->state != Request::State::posted || !matcher_.remove(r)) return false;
  complete_cancelled(r);
  return true;
}

void Endpoint::detach(Request* r) {
  r->detached = true;
  if (r->kind == Request::Kind::recv) {
    if (r->complete())
      free_request(r);
    else if (r->state == Request::State::in_mpi)
      detached_.push_back(r);  // in MPI: progress tests it
    return;  // still posted: retire_posted frees it when it matches
  }
  if (test(r))
    free_request(r);
  else
    detached_.push_back(r);
}

}  // namespace pure
