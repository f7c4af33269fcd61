#include "channels/endpoint.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "base/error.h"
#include "channels/copy.h"
#include "channels/rendezvous.h"
#include "comm/comm.h"

namespace pure {

namespace {

void copy_out(void* out, const void* src, std::size_t count, const Datatype& type,
              std::size_t bytes) {
  if (type.contiguous())
    copy_bytes(out, static_cast<const char*>(src) + type.true_lb(), bytes);
  else
    pack(src, count, type, 0, out, bytes);
}

}  // namespace

namespace detail {
Request* const completed_send = [] {
  auto* r = new Request;
  r->kind = Request::Kind::send;
  r->state = Request::State::complete;
  return r;
}();
}  // namespace detail

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

Request* Endpoint::grow_requests() {
  request_storage_.push_back(std::make_unique<Request>());
  return request_storage_.back().get();
}

void Endpoint::park_cancelled(Request* r) {
  // Acquire pairs with discard()'s release store (rendezvous.cpp): the
  // receiver's last read of the descriptor happens-before we reuse it.
  if (!r->rendezvous_desc.released.load(std::memory_order_acquire)) {
    // A cancelled announcement still in its receiver's queue: the
    // descriptor is ours until the receiver hands it back (progress
    // returns the request to the pool then).
    unreturned_.push_back(r);
    return;
  }
  r->state = Request::State::free;
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

std::size_t Endpoint::freed_receives() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < matcher_.end(); ++i)
    if (const Request* r = matcher_.at(i)) n += r->detached;
  for (const Request* r : detached_) n += r->kind == Request::Kind::recv;
  return n;
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
  QueuedSends& q = queued_[r->peer];
  if (q.tail)
    q.tail->next = r;
  else
    q.head = r;
  q.tail = r;
  ++queued_total_;
  // The receiver drains full queues while it waits: make sure it looks.
  wake(r->peer);
}

// Pushes queued sends in order: each destination's, oldest first, until
// one finds its queue full (later ones to it stay behind that one).
void Endpoint::push_queued() {
  queued_.for_each([&](int, QueuedSends& q) {
    while (q.head && try_push(q.head)) {
      Request* r = q.head;
      q.head = r->next;
      if (!q.head) q.tail = nullptr;
      --queued_total_;
    }
  });
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
  if (remote_) remote_->progress();
  if (!running_.empty()) advance_running();
  for (std::size_t i = 0; i < unreturned_.size();) {
    Request* r = unreturned_[i];
    // Acquire: as in free_request, with discard()'s release.
    if (!r->rendezvous_desc.released.load(std::memory_order_acquire)) {
      ++i;
      continue;
    }
    unreturned_[i] = unreturned_.back();
    unreturned_.pop_back();
    r->state = Request::State::free;
    r->next = free_requests_;
    free_requests_ = r;
  }
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

bool Endpoint::test_slow(Request* r) {
  switch (r->state) {
    case Request::State::complete:
    case Request::State::inactive:
      return true;
    case Request::State::running:
      if (!r->op->advance(*r)) return false;
      finish_operation(r);
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
  if (r->kind == Request::Kind::operation) {
    if (r->state == Request::State::running) r->op->cancel(*r);
    return false;
  }
  if (r->kind == Request::Kind::send) return cancel_send(r);
  if (r->state != Request::State::posted || !matcher_.remove(r)) return false;
  complete_cancelled(r);
  return true;
}

// A send not yet matched is cancelled: one still waiting for room in its
// queue leaves the queued list; an announced rendezvous (or synchronous)
// send wins the claim against its receiver (rendezvous.h). An eager send
// already in its queue completed when it went in (MPI lets a cancel find
// the send complete); one to another process is MPI's to cancel.
bool Endpoint::cancel_send(Request* r) {
  switch (r->state) {
    case Request::State::queued: {
      QueuedSends& q = *queued_.find(r->peer);
      Request** link = &q.head;
      Request* prev = nullptr;
      while (*link != r) {
        prev = *link;
        link = &(*link)->next;
      }
      *link = r->next;
      if (q.tail == r) q.tail = prev;
      --queued_total_;
      // Never announced: no receiver will hand the descriptor back, so it is
      // ours again now (relaxed: only this thread ever saw it).
      if (r->rendezvous) r->rendezvous_desc.released.store(true, std::memory_order_relaxed);
      complete_cancelled(r);
      return true;
    }
    case Request::State::announced:
      if (!rendezvous::cancel(&r->rendezvous_desc)) return false;  // a receive has it
      complete_cancelled(r);
      return true;
    case Request::State::in_mpi:
      remote_->cancel(r);
      return false;
    default:
      return false;
  }
}

void Endpoint::detach(Request* r) {
  if (r->kind == Request::Kind::operation) {
    if (r->state != Request::State::running || r->op->release_running(*r)) {
      free_request(r);
      return;
    }
    r->detached = true;
    // A running operation in the running list is freed there when it
    // completes; any other is tested by progress like a detached send.
    if (std::find(running_.begin(), running_.end(), r) == running_.end()) detached_.push_back(r);
    return;
  }
  r->detached = true;
  if (r->kind == Request::Kind::recv) {
    if (r->complete())
      free_request(r);
    else if (r->state == Request::State::in_mpi)
      detached_.push_back(r);  // its payload in MPI: progress tests it
    return;  // still posted: retire_posted frees it when it matches
  }
  if (test(r))
    free_request(r);
  else
    detached_.push_back(r);
}

// ---------------------------------------------------------------- operations

void Endpoint::start(Request* r) {
  if (r->persistent) r->op->start(*r);
  r->state = Request::State::running;
  if (r->op->advance(*r)) {
    r->state = Request::State::complete;
    return;
  }
  if (r->op->needs_progress()) running_.push_back(r);
}

void Endpoint::finish_operation(Request* r) {
  r->state = Request::State::complete;
  auto it = std::find(running_.begin(), running_.end(), r);
  if (it == running_.end()) return;
  *it = running_.back();
  running_.pop_back();
}

void Endpoint::advance_running() {
  // By index: an operation's advance may start point-to-point traffic but
  // never another operation, and a completed one leaves the list here.
  for (std::size_t i = 0; i < running_.size();) {
    Request* r = running_[i];
    if (!r->op->advance(*r)) {
      ++i;
      continue;
    }
    r->state = Request::State::complete;
    running_[i] = running_.back();
    running_.pop_back();
    if (r->detached) free_request(r);
  }
}

}  // namespace pure
