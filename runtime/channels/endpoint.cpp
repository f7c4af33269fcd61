#include "channels/endpoint.h"

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "job/process.h"
#include "job/rank.h"

namespace pure {

namespace {
// Rendezvous copies of at least two chunks are split so that the waiting
// sender can copy half while the receiver copies the other half.
constexpr std::size_t kChunkBytes = 256 * 1024;

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

void copy_into(void* dst, std::size_t dcount, const Datatype& dtype, const void* src,
               std::size_t bytes) {
  if (dtype.contiguous())
    copy_bytes(static_cast<char*>(dst) + dtype.true_lb(), src, bytes);
  else
    unpack(src, bytes, dst, dcount, dtype, 0);
}

void copy_out(void* out, const void* src, std::size_t count, const Datatype& type,
              std::size_t bytes) {
  if (type.contiguous())
    copy_bytes(out, static_cast<const char*>(src) + type.true_lb(), bytes);
  else
    pack(src, count, type, 0, out, bytes);
}
}  // namespace

Request* completed_send_request() {
  static Request* const done = [] {
    auto* r = new Request;
    r->kind = Request::Kind::send;
    r->complete = true;
    return r;
  }();
  return done;
}

Endpoint::Endpoint(Rank& self, Process& process)
    : self_(self),
      process_(process),
      me_(self.index()),
      world_of_(process.map().ranks_of(process.proc())),
      remote_(process.cluster() != nullptr),
      eager_limit_(process.config().eager_limit),
      out_(static_cast<size_t>(process.size()), nullptr),
      queued_(static_cast<size_t>(process.size())) {}

Endpoint::~Endpoint() = default;

EagerQueue& Endpoint::out_queue(int dest) {
  EagerQueue*& q = out_[static_cast<size_t>(dest)];
  if (!q) q = &process_.queue_for_sender(me_, dest);
  return *q;
}

// ---------------------------------------------------------------- send side

// Claims the next slot towards `dest`, writes the envelope and lets
// `fill(payload)` write the payload, publishes and wakes the receiver.
// Returns false, writing nothing, when the queue is full.
template <class Fill>
bool Endpoint::push(int dest, int context, int tag, SlotKind kind, std::size_t bytes, Fill&& fill) {
  EagerQueue& q = out_queue(dest);
  SlotHeader* s = q.try_claim();
  if (!s) return false;
  s->context = context;
  s->tag = tag;
  s->kind = kind;
  s->bytes = bytes;
  fill(EagerQueue::payload(s));
  q.publish(s);
  process_.rank(dest).parker().notify();
  return true;
}

bool Endpoint::push_eager(const void* buf, std::size_t count, const Datatype& type,
                          std::size_t bytes, int dest, int context, int tag) {
  return push(dest, context, tag, SlotKind::eager, bytes,
              [&](void* payload) { copy_out(payload, buf, count, type, bytes); });
}

bool Endpoint::push_announcement(RendezvousDescriptor* d, int dest, int context, int tag) {
  return push(dest, context, tag, SlotKind::rendezvous, d->bytes,
              [&](void* payload) { std::memcpy(payload, &d, sizeof d); });
}

void Endpoint::prepare_descriptor(RendezvousDescriptor* d, const void* buf, std::size_t count,
                                  const Datatype& type) {
  d->src = buf;
  d->src_count = count;
  d->src_type = &type;
  d->bytes = count * type.size();
  d->sender = me_;
  d->dst = nullptr;
  d->dst_count = d->copy_bytes = d->chunk_bytes = d->chunks = 0;
  d->dst_type = nullptr;
  // Relaxed: the announcement's release store publishes the whole descriptor.
  d->matched.store(false, std::memory_order_relaxed);
  d->next_chunk.store(0, std::memory_order_relaxed);
  d->chunks_done.store(0, std::memory_order_relaxed);
  d->released.store(false, std::memory_order_relaxed);
}

bool Endpoint::queued_to(int dest) const { return !queued_[static_cast<size_t>(dest)].empty(); }

bool Endpoint::try_push(Request* r) {
  if (r->rendezvous) return push_announcement(&r->rendezvous_desc, r->peer, r->context, r->tag);
  const Datatype& t = *r->type.type;
  if (!push_eager(r->buf, r->count, t, r->count * t.size(), r->peer, r->context, r->tag))
    return false;
  r->complete = true;
  return true;
}

void Endpoint::push_queued() {
  for (auto& fifo : queued_) {
    while (!fifo.empty() && try_push(fifo.front())) {
      fifo.front()->queued = false;
      fifo.pop_front();
      --queued_total_;
    }
  }
}

void Endpoint::send(const void* buf, std::size_t count, const TypeRef& type, int to,
                    const Comm* comm, int tag, SendMode mode, const WaitSite& site) {
  const int dest = process_.local_index(to);
  if (dest < 0) {
    remote_send(buf, count, type, to, *comm, tag, mode, site);
    return;
  }
  const int context = comm->context();
  const Datatype& t = *type.type;
  const std::size_t bytes = count * t.size();
  // Earlier non-blocking sends to `dest` still waiting for room go first.
  if (queued_to(dest)) self_.wait_until([&] { return !queued_to(dest); }, site);

  if (mode != SendMode::synchronous && bytes < eager_limit_) {
    if (push_eager(buf, count, t, bytes, dest, context, tag)) return;
    // The queue is full: wake the receiver (it drains full queues while it
    // waits) and wait for room, draining our own incoming queues meanwhile so
    // two ranks sending to each other cannot block each other.
    process_.rank(dest).parker().notify();
    self_.wait_until([&] { return push_eager(buf, count, t, bytes, dest, context, tag); }, site);
    return;
  }

  // A pooled request, not a stack object: if the job aborts while we wait,
  // the receiver may still touch the descriptor, and pooled requests live
  // until the job ends.
  Request* r = self_.new_request();
  r->type = type;
  RendezvousDescriptor* d = &r->rendezvous_desc;
  prepare_descriptor(d, buf, count, t);
  if (!push_announcement(d, dest, context, tag)) {
    process_.rank(dest).parker().notify();
    self_.wait_until([&] { return push_announcement(d, dest, context, tag); }, site);
  }
  self_.wait_until(
      [&] {
        help_rendezvous(d, false);
        return d->released.load(std::memory_order_acquire);
      },
      site);
  self_.free_request(r);
}

Request* Endpoint::isend(const void* buf, std::size_t count, const TypeRef& type, int to,
                         int tag, SendMode mode, const Comm* comm) {
  const int dest = process_.local_index(to);
  if (dest < 0) return remote_isend(buf, count, type, to, *comm, tag, mode);
  const int context = comm->context();
  const Datatype& t = *type.type;
  const std::size_t bytes = count * t.size();
  const bool eager = mode != SendMode::synchronous && bytes < eager_limit_;
  if (eager && !queued_to(dest) && push_eager(buf, count, t, bytes, dest, context, tag))
    return completed_send_request();

  Request* r = self_.new_request();
  r->kind = Request::Kind::send;
  r->comm = comm;
  r->context = context;
  r->peer = dest;
  r->tag = tag;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = type;
  r->rendezvous = !eager;
  if (!eager) prepare_descriptor(&r->rendezvous_desc, buf, count, t);
  if (queued_to(dest) || !try_push(r)) {
    r->queued = true;
    queued_[static_cast<size_t>(dest)].push_back(r);
    ++queued_total_;
    process_.rank(dest).parker().notify();
  }
  return r;
}

void Endpoint::help_rendezvous(RendezvousDescriptor* d, bool receiver) {
  // Acquire pairs with the receiver's release of `matched`: dst, counts and
  // the chunking are visible before we copy.
  if (!d->matched.load(std::memory_order_acquire)) return;
  // A one-chunk copy is the receiver's alone: were the sender to claim it,
  // the receiver would sit waiting for another core's copy and then for the
  // cache lines that copy wrote.
  if (!receiver && d->chunks < 2) return;
  for (;;) {
    std::size_t c = d->next_chunk.fetch_add(1, std::memory_order_relaxed);
    if (c >= d->chunks) return;
    std::size_t begin = c * d->chunk_bytes;
    std::size_t end = std::min(d->copy_bytes, begin + d->chunk_bytes);
    copy_range(d->src, d->src_count, *d->src_type, d->dst, d->dst_count, *d->dst_type, begin, end);
    // Release: our bytes happen-before whoever sees the final count.
    d->chunks_done.fetch_add(1, std::memory_order_acq_rel);
  }
}

// ------------------------------------------------------------- receive side

void Endpoint::complete_recv(Request* r, int sender, int tag, std::size_t bytes,
                             std::size_t capacity) {
  r->status.MPI_SOURCE = r->comm ? r->comm->rank_of(sender) : sender;
  r->status.MPI_TAG = tag;
  r->status.pure_count = std::min(bytes, capacity);
  r->status.pure_cancelled = 0;
  r->message_bytes = bytes;
  r->error = bytes > capacity ? PURE_ERR_TRUNCATE : PURE_SUCCESS;
  r->status.MPI_ERROR = r->error;
  r->complete = true;
}

void Endpoint::deliver_eager(Request* r, int sender, int tag, const void* payload,
                             std::size_t bytes) {
  const Datatype& t = *r->type.type;
  const std::size_t capacity = r->count * t.size();
  // Never write past the receive buffer: a longer message is truncated and
  // reported as PURE_ERR_TRUNCATE.
  copy_into(r->buf, r->count, t, payload, std::min(bytes, capacity));
  complete_recv(r, sender, tag, bytes, capacity);
}

void Endpoint::deliver_rendezvous(Request* r, int sender, int tag, RendezvousDescriptor* d) {
  const Datatype& t = *r->type.type;
  const std::size_t capacity = r->count * t.size();
  d->dst = r->buf;
  d->dst_count = r->count;
  d->dst_type = &t;
  d->copy_bytes = std::min(d->bytes, capacity);
  d->chunk_bytes = d->copy_bytes >= 2 * kChunkBytes ? kChunkBytes : std::max<std::size_t>(d->copy_bytes, 1);
  d->chunks = (d->copy_bytes + d->chunk_bytes - 1) / d->chunk_bytes;
  d->matched.store(true, std::memory_order_release);
  // A parked sender can help copy only if it has a core to do it on.
  if (d->chunks > 1 && !process_.oversubscribed()) process_.rank(d->sender).parker().notify();
  help_rendezvous(d, true);
  // The sender may be in the middle of its last chunk: it is running, not
  // blocked (unless preempted, hence the yield), so this wait is short.
  for (unsigned n = 0; d->chunks_done.load(std::memory_order_acquire) < d->chunks; ++n) {
    if (n < 4096) cpu_relax();
    else self_.yield_core();
  }
  complete_recv(r, sender, tag, d->bytes, capacity);
  const int who = d->sender;
  // Release: the sender may reuse its buffer and free `d` once it sees this;
  // `d` must not be touched afterwards.
  d->released.store(true, std::memory_order_release);
  process_.rank(who).parker().notify();
}

bool Endpoint::match_queue(Request* r, int s) {
  EagerQueue* q = process_.queue_for_receiver(s, me_);
  if (!q) return false;
  const int sender = world_of_[static_cast<size_t>(s)];
  const std::uint64_t start = q->head();
  for (std::uint64_t pos = start; pos < start + q->capacity(); ++pos) {
    bool end = false;
    SlotHeader* h = q->peek(pos, &end);
    if (end) break;
    if (!h || !matches(r, sender, h->context, h->tag)) continue;
    if (take(r, q, pos, h, sender)) process_.rank(s).parker().notify();
    return true;
  }
  return false;
}

// Delivers the message at `pos` of `q` into `r` and consumes it. The sender
// waits for room only when the queue is full; the result says when
// consuming made some, and then the caller wakes it.
bool Endpoint::take(Request* r, EagerQueue* q, std::uint64_t pos, SlotHeader* h, int sender) {
  if (h->kind == SlotKind::eager) {
    deliver_eager(r, sender, h->tag, EagerQueue::payload(h), h->bytes);
    return q->consume(pos);
  }
  RendezvousDescriptor* d;
  std::memcpy(&d, EagerQueue::payload(h), sizeof d);
  const int tag = h->tag;
  const bool made_room = q->consume(pos);
  deliver_rendezvous(r, sender, tag, d);
  return made_room;
}

bool Endpoint::match_unexpected(Request* r) {
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (!matches(r, it->sender, it->context, it->tag)) continue;
    if (it->kind == SlotKind::eager)
      deliver_eager(r, it->sender, it->tag, it->data.get(), it->bytes);
    else
      deliver_rendezvous(r, it->sender, it->tag, it->descriptor);
    unexpected_.erase(it);
    return true;
  }
  return false;
}

bool Endpoint::match(Request* r) {
  if (match_unexpected(r)) return true;
  if (r->peer >= 0) {
    const int s = process_.local_index(r->peer);
    return s >= 0 && match_queue(r, s);
  }
  for (int s = 0; s < process_.size(); ++s)
    if (match_queue(r, s)) return true;
  return false;
}

void Endpoint::drain_full_queues() {
  for (int s = 0; s < process_.size(); ++s) {
    EagerQueue* q = process_.queue_for_receiver(s, me_);
    if (!q) continue;
    // Hand back slots consumed but not yet released first: that alone may
    // unblock the sender.
    if (q->release()) process_.rank(s).parker().notify();
    if (!q->full()) continue;
    // Everything left in the queue moves, in order, behind what is already
    // in the unexpected list: the "unexpected is older" invariant holds.
    const std::uint64_t start = q->head();
    for (std::uint64_t pos = start; pos < start + q->capacity(); ++pos) {
      bool end = false;
      SlotHeader* h = q->peek(pos, &end);
      if (end) break;
      if (!h) continue;
      Unexpected u{world_of_[static_cast<size_t>(s)], h->context, h->tag, h->kind, h->bytes,
                   nullptr, nullptr};
      if (h->kind == SlotKind::eager) {
        u.data.reset(new char[h->bytes ? h->bytes : 1]);
        std::memcpy(u.data.get(), EagerQueue::payload(h), h->bytes);
      } else {
        std::memcpy(&u.descriptor, EagerQueue::payload(h), sizeof u.descriptor);
      }
      unexpected_.push_back(std::move(u));
      q->consume(pos);
    }
    q->release();
    process_.rank(s).parker().notify();
  }
}

// The earliest posted receive from `from` on that a message from `sender`
// matches (match_posted leaves null holes behind it; they match nothing).
std::size_t Endpoint::first_posted(int sender, int context, int tag, std::size_t from) const {
  std::size_t i = from;
  while (i < posted_.size() && (!posted_[i] || !matches(posted_[i], sender, context, tag))) ++i;
  return i;
}

void Endpoint::retire_posted(std::size_t i) {
  Request* r = posted_[i];
  posted_.erase(posted_.begin() + static_cast<std::ptrdiff_t>(i));
  if (r->user_freed) self_.free_request(r);
}

// Several posted receives. Matching walks the messages, not the receives:
// each message, taken per sender in arrival order, goes to the earliest
// posted receive it matches. Walking the receives instead would let a later
// receive take a message that arrived just after an earlier, equally
// matching receive had looked at that sender's queue.
void Endpoint::match_posted() {
  // Retired receives become holes, squeezed out once at the end: erasing
  // each from the vector's front would move all the others, per message.
  std::size_t live = posted_.size();
  std::size_t begin = 0;  // posted_[0, begin) are holes
  auto retire = [&](std::size_t i) {
    Request* r = posted_[i];
    posted_[i] = nullptr;
    --live;
    while (begin < posted_.size() && !posted_[begin]) ++begin;
    if (r->user_freed) self_.free_request(r);
  };
  // The unexpected list first: from each sender it holds older messages than
  // the sender's queue.
  for (auto it = unexpected_.begin(); it != unexpected_.end() && live != 0;) {
    std::size_t i = first_posted(it->sender, it->context, it->tag, begin);
    if (i == posted_.size()) {
      ++it;
      continue;
    }
    Request* r = posted_[i];
    if (it->kind == SlotKind::eager)
      deliver_eager(r, it->sender, it->tag, it->data.get(), it->bytes);
    else
      deliver_rendezvous(r, it->sender, it->tag, it->descriptor);
    it = unexpected_.erase(it);
    retire(i);
  }
  bool any_source = false;
  for (const Request* r : posted_) any_source |= r && r->peer < 0;
  for (int s = 0; s < process_.size() && live != 0; ++s) {
    const int sender = world_of_[static_cast<size_t>(s)];
    if (!any_source && first_posted_from(sender, begin) == posted_.size()) continue;
    EagerQueue* q = process_.queue_for_receiver(s, me_);
    if (!q) continue;
    const std::uint64_t start = q->head();
    bool made_room = false;
    for (std::uint64_t pos = start; pos < start + q->capacity() && live != 0; ++pos) {
      bool end = false;
      SlotHeader* h = q->peek(pos, &end);
      if (end) break;
      if (!h) continue;
      std::size_t i = first_posted(sender, h->context, h->tag, begin);
      if (i == posted_.size()) continue;
      made_room |= take(posted_[i], q, pos, h, sender);
      retire(i);
    }
    if (made_room) process_.rank(s).parker().notify();
  }
  if (live != posted_.size())
    posted_.erase(std::remove(posted_.begin(), posted_.end(), nullptr), posted_.end());
}

std::size_t Endpoint::first_posted_from(int sender, std::size_t from) const {
  std::size_t i = from;
  while (i < posted_.size() && (!posted_[i] || posted_[i]->peer != sender)) ++i;
  return i;
}

void Endpoint::progress(bool stuck) {
  if (queued_total_ != 0) push_queued();
  if (stuck) drain_full_queues();
  if (posted_.size() == 1) {
    // One receive cannot be overtaken: the direct search is the same match.
    if (match(posted_[0])) retire_posted(0);
  } else if (!posted_.empty()) {
    match_posted();
  }
  // After local matching: then no unexpected message matches a posted
  // receive, and pulled messages cannot overtake one (endpoint_remote.cpp).
  if (remote_ && !posted_.empty()) progress_remote();
  if (!detached_.empty()) {
    for (size_t i = 0; i < detached_.size();) {
      if (test(detached_[i])) {
        if (detached_[i]->kind == Request::Kind::recv) --detached_receives_;
        self_.free_request(detached_[i]);
        detached_[i] = detached_.back();
        detached_.pop_back();
      } else {
        ++i;
      }
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
  return r->peer >= 0 && posted_.empty() && !process_.oversubscribed() &&
         process_.local_index(r->peer) >= 0;
}

bool Endpoint::spin_for_next(Request* r) {
  constexpr int kSpins = 1 << 14;
  const int s = process_.local_index(r->peer);
  EagerQueue* q = process_.queue_for_receiver(s, me_);
  if (!q) return false;
  // About to wait: hand consumed slots back now, while the store's cache
  // line transfer overlaps the wait, rather than in a batch right before a
  // reply (x86 commits stores in order, so the reply would wait for it).
  // Measured, 2 ranks: 8 B latency 0.083 -> 0.082 us.
  if (q->release()) process_.rank(s).parker().notify();
  std::uint64_t pos = q->head();
  const std::uint64_t limit = pos + q->capacity();
  const int sender = r->peer;
  // Takes the message at `pos` if it matches.
  auto take_at = [&](std::uint64_t at, bool* end) {
    SlotHeader* h = q->peek(at, end);
    if (!h || !matches(r, sender, h->context, h->tag)) return false;
    if (take(r, q, at, h, sender)) process_.rank(s).parker().notify();
    return true;
  };
  for (bool end = false; pos < limit; ++pos) {
    // The earliest matching message from the sender (the caller looked in
    // the unexpected list): take it rather than spin past it on the next
    // position (which its sender, if it waits for this one, would never fill).
    if (take_at(pos, &end)) return true;
    if (end) break;
  }
  if (pos == limit) return false;  // full: the general loop drains it
  for (int i = 0; i < kSpins; ++i) {
    if (!q->unpublished(pos)) {
      // The message at `pos` is the sender's next: if it matches, nothing
      // older from this sender does (we looked above), so take it here.
      bool end = false;
      return take_at(pos, &end) || match(r);
    }
    cpu_relax();
  }
  return false;
}

namespace {
// Removes a stack-allocated receive from the posted list if we unwind (abort).
struct PostedGuard {
  std::vector<Request*>& posted;
  Request* r;
  ~PostedGuard() {
    auto it = std::find(posted.begin(), posted.end(), r);
    if (it != posted.end()) posted.erase(it);
  }
};
}  // namespace

void Endpoint::recv(void* buf, std::size_t count, const TypeRef& type, int source, int context,
                    int tag, const Comm* comm, PURE_Status* status, const WaitSite& site) {
  Request r;
  r.kind = Request::Kind::recv;
  r.comm = comm;
  r.context = context;
  r.peer = source;
  r.tag = tag;
  r.buf = buf;
  r.count = count;
  r.type.type = type.type;  // the caller's TypeRef outlives this call
  // Receives posted earlier get the first chance at every message.
  if (!posted_.empty()) progress(false);
  if (direct_remote(&r)) {
    // The unexpected list may hold an older message; else MPI matches it.
    if (!match(&r)) remote_recv(&r, site);
  } else if (!posted_.empty() || !(spins(&r) ? match_unexpected(&r) || spin_for_next(&r)
                                              : match(&r))) {
    posted_.push_back(&r);
    PostedGuard guard{posted_, &r};
    WaitSite where = site;
    where.remote = may_match_remote(&r);
    self_.wait_until([&] { return r.complete; }, where);
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
                         int context, int tag, const Comm* comm) {
  Request* r = self_.new_request();
  r->kind = Request::Kind::recv;
  r->comm = comm;
  r->context = context;
  r->peer = source;
  r->tag = tag;
  r->buf = buf;
  r->count = count;
  r->type = type;
  if (direct_remote(r)) {
    if (!match(r)) post_direct(r);
    return r;
  }
  if (posted_.empty() && match(r)) return r;
  posted_.push_back(r);
  return r;
}

void Endpoint::fill_probe_status(PURE_Status* status, const Comm* comm, int sender, int tag,
                                 std::size_t bytes) const {
  if (!status) return;
  status->MPI_SOURCE = comm ? comm->rank_of(sender) : sender;
  status->MPI_TAG = tag;
  status->MPI_ERROR = PURE_SUCCESS;
  status->pure_count = bytes;
  status->pure_cancelled = 0;
}

bool Endpoint::iprobe(int source, int context, int tag, const Comm* comm, PURE_Status* status) {
  progress(false);
  Request probe;
  probe.context = context;
  probe.peer = source;
  probe.tag = tag;
  for (const Unexpected& u : unexpected_) {
    if (matches(&probe, u.sender, u.context, u.tag)) {
      fill_probe_status(status, comm, u.sender, u.tag, u.bytes);
      return true;
    }
  }
  for (int s = 0; s < process_.size(); ++s) {
    const int sender = world_of_[static_cast<size_t>(s)];
    if (source >= 0 && sender != source) continue;
    EagerQueue* q = process_.queue_for_receiver(s, me_);
    if (!q) continue;
    const std::uint64_t start = q->head();
    for (std::uint64_t pos = start; pos < start + q->capacity(); ++pos) {
      bool end = false;
      SlotHeader* h = q->peek(pos, &end);
      if (end) break;
      if (h && matches(&probe, sender, h->context, h->tag)) {
        fill_probe_status(status, comm, sender, h->tag, h->bytes);
        return true;
      }
    }
  }
  // Messages from other processes wait in MPI until pulled.
  if (remote_ && comm && may_match_remote(&probe, comm)) {
    pull_remote(*comm);
    for (const Unexpected& u : unexpected_) {
      if (matches(&probe, u.sender, u.context, u.tag)) {
        fill_probe_status(status, comm, u.sender, u.tag, u.bytes);
        return true;
      }
    }
  }
  return false;
}

bool Endpoint::test(Request* r) {
  if (r->complete) return true;
  if (r->remote) return remote_test(r);
  if (r->kind == Request::Kind::recv || r->queued) return false;
  if (r->rendezvous) {
    help_rendezvous(&r->rendezvous_desc, false);
    if (r->rendezvous_desc.released.load(std::memory_order_acquire)) r->complete = true;
  }
  return r->complete;
}

bool Endpoint::cancel(Request* r) {
  if (r->complete || r->kind != Request::Kind::recv) return false;
  if (r->remote) return remote_cancel(r);
  auto it = std::find(posted_.begin(), posted_.end(), r);
  if (it == posted_.end()) return false;
  posted_.erase(it);
  complete_cancelled(r);
  return true;
}

void Endpoint::complete_cancelled(Request* r) {
  r->complete = true;
  r->status.pure_cancelled = 1;
  r->status.pure_count = 0;
  r->status.MPI_SOURCE = PURE_ANY_SOURCE;
  r->status.MPI_TAG = PURE_ANY_TAG;
  r->status.MPI_ERROR = PURE_SUCCESS;
}

void Endpoint::detach(Request* r) {
  r->user_freed = true;
  if (r->kind == Request::Kind::recv) {
    if (r->complete) {
      self_.free_request(r);
    } else if (r->remote) {
      detached_.push_back(r);  // in MPI: progress tests it
      ++detached_receives_;
    }
    return;  // still posted: progress frees it when it matches
  }
  if (test(r))
    self_.free_request(r);
  else
    detached_.push_back(r);
}

}  // namespace pure
