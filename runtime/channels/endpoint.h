// Endpoint: a rank's point-to-point engine.
//
// Send side: small messages are copied into the EagerQueue towards the
// receiver (the sender returns at once); large and synchronous sends announce
// a RendezvousDescriptor through the same queue (rendezvous.h), so order
// between a sender and a receiver is the queue's FIFO order for both kinds.
// When the queue is full, non-blocking sends wait in a FIFO of queued
// requests, in order per destination.
//
// Receive side: the Matcher (matcher.h) holds the posted receives and the
// unexpected messages drained out of full queues; "unexpected first, then
// the sender's queue from its head" finds the earliest matching message.
//
// Peers are world ranks. Those in other processes are reached through the
// Remote (remote.h; absent in a single-process job).
//
// Only the owning rank's thread calls an Endpoint; other threads reach it
// only through its queues and rendezvous descriptors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/int_map.h"
#include "base/peers.h"
#include "base/waiter.h"
#include "channels/eager_queue.h"
#include "channels/matcher.h"
#include "channels/queue_table.h"
#include "channels/remote.h"
#include "channels/request.h"

namespace pure {

class Comm;

class Endpoint {
 public:
  // The endpoint of local rank `me`. `shared_cores`: ranks outnumber cores
  // (a waiting sender cannot help copy; receives do not spin for the next
  // message).
  Endpoint(int me, Waiter& waiter, const Peers& peers, QueueTable& queues,
           std::size_t eager_limit, bool shared_cores);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // Set once, before the rank first communicates, in a job of several processes.
  void set_remote(Remote* remote) { remote_ = remote; }

  // Blocking send to world rank `dest` of `comm` (returns when the buffer
  // may be reused).
  void send(const void* buf, std::size_t count, const TypeRef& type, int dest, const Comm& comm,
            int tag, SendMode mode, const WaitSite& site);
  // Non-blocking send; returns the request (possibly the shared completed one).
  Request* isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                 const Comm& comm, int tag, SendMode mode);
  // Blocking receive; `source` is a world rank or -1 for any. Fills
  // *status (when not null) and throws PURE_ERR_TRUNCATE for a message too
  // long for the buffer.
  void recv(void* buf, std::size_t count, const TypeRef& type, int source, const Comm& comm,
            int tag, PURE_Status* status, const WaitSite& site);
  Request* irecv(void* buf, std::size_t count, const TypeRef& type, int source, const Comm& comm,
                 int tag);
  // Probe without receiving: true and *status filled when a match exists.
  bool iprobe(int source, const Comm& comm, int tag, PURE_Status* status);
  // Matched probe: takes the earliest message a receive of (source, tag) on
  // `comm` would match out of matching, into *message (an announcement
  // claimed from its sender); true and *status filled if there was one.
  bool improbe(int source, const Comm& comm, int tag, PURE_Status* status, Unexpected* message);
  // Receives a message a matched probe took into receive `r`: complete at
  // once, or (a payload still in another process's MPI send) in_mpi, and
  // complete when test(r) says so.
  void receive_matched(Request* r, Unexpected& message);

  // Advances `r` (helps copy a rendezvous it sent, advances an operation)
  // and says if it completed. An inactive persistent request counts as
  // complete (MPI: waiting on one returns at once).
  bool test(Request* r) {
    // The answers every wait loop asks for most, without a call: done, or
    // still in a queue or the posted list (progress moves those on).
    switch (r->state) {
      case Request::State::complete:
      case Request::State::inactive:
        return true;
      case Request::State::queued:
      case Request::State::posted:
        return false;
      default:
        return test_slow(r);
    }
  }
  // Cancels a pending receive, a send not yet matched, or an operation
  // (Operation::cancel). Returns false if it already matched.
  bool cancel(Request* r);
  // Forgets a request the user freed while active; it completes in the background.
  void detach(Request* r);

  // Starts operation request `r` (Operation::start for a persistent one)
  // and advances it once; from then on the rank's progress advances it when
  // it needs that (Operation::needs_progress), so that it moves on while
  // the rank waits for anything at all.
  void start(Request* r);

  // One step of everything this rank owes others (WaitWork::progress).
  void progress(bool stuck);
  // Something in flight in another process (WaitWork::remote_in_flight).
  // A running operation may be waiting on one (its next round's messages
  // are not posted yet): across processes it counts.
  bool remote_in_flight() const {
    return remote_ && (remote_->in_flight() || !running_.empty());
  }

  // What is still in flight, checked by finalize.
  std::size_t pending_sends() const;
  std::size_t pending_receives() const;
  // Of those, the receives the program freed while active
  // (pure_request_free): they must still complete, so finalize waits for
  // them where it reports the others.
  std::size_t freed_receives() const;
  // Freed cancelled sends whose announcement a receiver still holds: the
  // requests free_request could not return to the pool yet.
  std::size_t unreturned_requests() const { return unreturned_.size(); }

  // ---- the request pool (requests live until the job ends) ----
  // Inline: every nonblocking call takes one and every completion returns it.
  Request* new_request() {
    Request* r = free_requests_;
    if (!r) return grow_requests();
    free_requests_ = r->next;
    r->reset();
    return r;
  }
  void free_request(Request* r) {
    if (r == completed_send_request()) return;
    r->type = TypeRef{};  // drop the datatype reference now, not at reuse
    r->op.reset();        // and an operation's buffers
    ++r->generation;      // its handles are stale from now on
    if (r->rendezvous && r->status.pure_cancelled) return park_cancelled(r);
    r->state = Request::State::free;
    r->next = free_requests_;
    free_requests_ = r;
  }

  // ---- for the Remote ----
  Matcher& matcher() { return matcher_; }
  Waiter& waiter() { return waiter_; }
  const Peers& peers() const { return peers_; }
  // Takes posted receive i out of the Matcher once it completed, freeing it
  // if the user already did.
  void retire_posted(std::size_t i);

 private:
  bool test_slow(Request* r);
  // The queue to local rank `dest`, created on first use. The last one used
  // is at hand without a lookup (a rank mostly talks to the same peer
  // several times in a row).
  EagerQueue& out_queue(int dest) {
    if (dest == last_dest_) return *last_out_;
    EagerQueue*& q = out_[dest];
    if (!q) q = &queues_.create(me_, dest);
    last_dest_ = dest;
    last_out_ = q;
    return *q;
  }
  // The queue from local rank `sender`, or nullptr while it has sent nothing.
  // The last one asked for is at hand without a lookup.
  EagerQueue* in_queue(int sender) {
    if (sender == last_sender_) return last_in_;
    EagerQueue** q = in_by_sender_.find(sender);
    if (!q && learn_inbound()) q = in_by_sender_.find(sender);
    if (!q) return nullptr;
    last_sender_ = sender;
    last_in_ = *q;
    return *q;
  }
  // Takes in the queues announced to us since we last looked; whether any.
  bool learn_inbound();
  // The request pool's slow halves: new_request with the pool empty, and
  // free_request of a cancelled rendezvous send.
  Request* grow_requests();
  void park_cancelled(Request* r);

  // ---- send side ----
  template <class Fill>
  bool push(int dest, const Comm& comm, int tag, SlotKind kind, std::size_t bytes, Fill&& fill);
  bool push_eager(const void* buf, std::size_t count, const Datatype& type, std::size_t bytes,
                  int dest, const Comm& comm, int tag);
  bool push_announcement(RendezvousDescriptor* d, int dest, const Comm& comm, int tag);
  bool try_push(Request* r);  // a queued send into its queue; true when pushed
  bool queued_to(int dest) const {
    if (queued_total_ == 0) return false;  // the usual case: no lookup
    const QueuedSends* q = queued_.find(dest);
    return q && q->head;
  }
  void enqueue(Request* r);
  void push_queued();
  bool cancel_send(Request* r);

  // ---- receive side ----
  bool match(Request* r);             // tries to complete a posted receive
  bool match_unexpected(Request* r);  // from the unexpected list only
  bool match_queue(Request* r, int sender);
  // What take() did: kTaken (the message went into the receive), kMadeRoom.
  static constexpr unsigned kTaken = 1, kMadeRoom = 2;
  unsigned take(Request* r, EagerQueue* q, std::uint64_t pos, SlotHeader* h);
  void match_posted();  // matches several posted receives in order
  bool spins(const Request* r) const;
  bool spin_for_next(Request* r);
  void drain_full_queues();
  // Delivers `u` into `r`; false for an announcement its sender cancelled
  // (handed back: the caller drops `u` and looks further).
  bool deliver_unexpected(Request* r, Unexpected& u);
  void wake(int local) const { peers_.parker(local).notify(); }

  // ---- operations ----
  // Advances every running operation that needs progress.
  void advance_running();
  // Operation `r` completed: out of the running list.
  void finish_operation(Request* r);

  const int me_;
  Waiter& waiter_;
  const Peers& peers_;
  QueueTable& queues_;
  const std::size_t eager_limit_;
  const bool shared_cores_;
  Remote* remote_ = nullptr;

  Matcher matcher_;
  // Per peer, only for the peers this rank has talked to (queue_table.h).
  IntMap<EagerQueue*> out_;                      // my queues to each destination
  int last_dest_ = -1;                           // the destination of last_out_
  EagerQueue* last_out_ = nullptr;
  std::vector<QueueTable::Inbound*> inbound_;    // queues to me, by sender
  IntMap<EagerQueue*> in_by_sender_;
  int last_sender_ = -1;                         // the sender of last_in_
  EagerQueue* last_in_ = nullptr;
  QueueTable::Inbound* known_head_ = nullptr;    // the newest announcement learnt
  // Sends waiting for room in their queue, per destination (only those this
  // rank sends to), oldest first, chained by Request::next: a pass pushes
  // each destination's until one finds its queue full.
  struct QueuedSends {
    Request* head = nullptr;
    Request* tail = nullptr;
  };
  IntMap<QueuedSends> queued_;
  std::size_t queued_total_ = 0;
  std::vector<Request*> detached_;          // freed by the user while active
  std::vector<Request*> running_;           // operations that need progress
  std::vector<Request*> unreturned_;        // freed cancelled sends whose receiver still
                                            // holds the announcement (free_request)

  std::vector<std::unique_ptr<Request>> request_storage_;
  Request* free_requests_ = nullptr;
};

}  // namespace pure
