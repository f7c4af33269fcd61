// Endpoint: a rank's point-to-point engine inside the process.
//
// Send side: small messages are copied into the EagerQueue towards the
// receiver (the sender returns at once); large and synchronous sends announce
// a RendezvousDescriptor through the same queue, so order between a sender
// and a receiver is the queue's FIFO order for both kinds. When the queue is
// full, non-blocking sends wait in a per-destination FIFO of queued requests.
//
// Receive side (all owned by this rank's thread, no locks): posted receives
// in posting order, and the unexpected list holding messages drained out of
// full queues. Every message in the unexpected list from sender s is older
// than every message still in the queue from s, so "unexpected first, then
// the queue from its head" finds the earliest matching message.
//
// Peers are world ranks. Those in other processes are reached through MPI
// (endpoint_remote.cpp): sends go out with MPI_Isend at once; messages from
// them stay in MPI until a posted receive or a probe that may match one
// pulls them with a matched probe, straight into the earliest matching
// posted receive or else into the unexpected list -- so posting order and
// per-sender order hold for them exactly as for local senders.
#pragma once

#include <cstddef>
#include <deque>
#include <list>
#include <memory>
#include <vector>

#include "channels/eager_queue.h"
#include "channels/request.h"

namespace pure {

class Rank;
class Process;
struct WaitSite;

enum class SendMode { standard, synchronous, ready, buffered };

// Where a received message is delivered and what was received.
struct RecvTarget {
  void* buf;
  std::size_t count;
  const Datatype* type;
};

class Endpoint {
 public:
  Endpoint(Rank& self, Process& process);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // Blocking send to world rank `dest` on `comm` (returns when the buffer
  // may be reused).
  void send(const void* buf, std::size_t count, const TypeRef& type, int dest, const Comm* comm,
            int tag, SendMode mode, const WaitSite& site);
  // Non-blocking send; returns the request (possibly the shared completed one).
  Request* isend(const void* buf, std::size_t count, const TypeRef& type, int dest, int tag,
                 SendMode mode, const Comm* comm);
  // Blocking receive; `source` is a world rank or -1 for any.
  void recv(void* buf, std::size_t count, const TypeRef& type, int source, int context, int tag,
            const Comm* comm, PURE_Status* status, const WaitSite& site);
  Request* irecv(void* buf, std::size_t count, const TypeRef& type, int source, int context,
                 int tag, const Comm* comm);
  // Probe without receiving. Returns true and fills *status when a match exists.
  bool iprobe(int source, int context, int tag, const Comm* comm, PURE_Status* status);

  // Advances `r` (helps copy a rendezvous it sent) and says if it completed.
  bool test(Request* r);
  // Cancels a pending receive. Returns false if it already matched.
  bool cancel(Request* r);
  // Forgets a request the user freed while active; it completes in the background.
  void detach(Request* r);

  void progress(bool stuck);

  // Sends to or receives from other processes still in flight: the wait
  // loop then polls MPI instead of sleeping long.
  bool remote_in_flight() const;

  // What is still in flight, checked by finalize.
  std::size_t pending_sends() const {
    return queued_total_ + detached_.size() - detached_receives_;
  }
  std::size_t pending_receives() const { return posted_.size() + direct_receives_; }

 private:
  struct Unexpected {
    int sender;
    int context;
    int tag;
    SlotKind kind;
    std::size_t bytes;
    std::unique_ptr<char[]> data;              // eager payload
    RendezvousDescriptor* descriptor = nullptr;  // rendezvous announcement
  };

  EagerQueue& out_queue(int dest);
  bool try_push(Request* r);                // queued send -> queue; true when pushed
  template <class Fill>
  bool push(int dest, int context, int tag, SlotKind kind, std::size_t bytes, Fill&& fill);
  bool push_eager(const void* buf, std::size_t count, const Datatype& type, std::size_t bytes,
                  int dest, int context, int tag);
  bool push_announcement(RendezvousDescriptor* d, int dest, int context, int tag);
  void prepare_descriptor(RendezvousDescriptor* d, const void* buf, std::size_t count,
                          const Datatype& type);
  bool queued_to(int dest) const;
  void push_queued();

  bool match(Request* r);              // tries to complete a posted receive
  bool match_unexpected(Request* r);   // from the unexpected list only
  // A lone blocking receive from a known rank of this process, every rank
  // on its own core: after the unexpected list, spin_for_next scans the
  // sender's queue and then spins on its next slot.
  bool spins(const Request* r) const;
  bool spin_for_next(Request* r);
  bool match_queue(Request* r, int sender);
  bool take(Request* r, EagerQueue* q, std::uint64_t pos, SlotHeader* h, int sender);
  void match_posted();                 // matches several posted receives in order
  std::size_t first_posted(int sender, int context, int tag, std::size_t from = 0) const;
  std::size_t first_posted_from(int sender, std::size_t from = 0) const;
  void retire_posted(std::size_t i);
  void deliver_eager(Request* r, int sender, int tag, const void* payload, std::size_t bytes);
  void deliver_rendezvous(Request* r, int sender, int tag, RendezvousDescriptor* d);
  void complete_recv(Request* r, int sender, int tag, std::size_t bytes, std::size_t capacity);
  void complete_cancelled(Request* r);  // a receive cancelled before it matched
  void drain_full_queues();
  bool matches(const Request* r, int sender, int context, int tag) const {
    return context == r->context && (r->peer < 0 || r->peer == sender) &&
           (r->tag == PURE_ANY_TAG || r->tag == tag);
  }
  void help_rendezvous(RendezvousDescriptor* d, bool receiver);

  // ---- peers in other processes (endpoint_remote.cpp) ----
  void remote_send(const void* buf, std::size_t count, const TypeRef& type, int dest,
                   const Comm& comm, int tag, SendMode mode, const WaitSite& site);
  Request* remote_isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                        const Comm& comm, int tag, SendMode mode);
  // `request` is an MPI_Request (void here: this header needs no <mpi.h>).
  void start_remote_send(const void* buf, std::size_t count, const Datatype& type, int dest,
                         const Comm& comm, int tag, SendMode mode, void* request,
                         std::unique_ptr<char[]>* packed);
  // Completes a remote send or a direct receive whose MPI request is done.
  bool remote_test(Request* r);
  // A receive from one rank of another process, with one tag, into a
  // contiguous buffer, that no receive posted earlier in posted_ may match:
  // MPI can match it itself, on arrival, and then never shows its message
  // to a matched probe (direct receives: see endpoint_remote.cpp).
  bool direct_remote(const Request* r) const;
  void post_direct(Request* r);     // MPI_Irecv for a direct receive
  void remote_recv(Request* r, const WaitSite& site);
  bool remote_cancel(Request* r);
  // Whether a receive (or probe) on `comm` may be matched from another process.
  bool may_match_remote(const Request* r, const Comm* comm = nullptr) const;
  // Pulls every message MPI holds for this rank on `comm`.
  void pull_remote(const Comm& comm);
  void progress_remote();
  void fill_probe_status(PURE_Status* status, const Comm* comm, int sender, int tag,
                         std::size_t bytes) const;

  Rank& self_;
  Process& process_;
  const int me_;                         // local index
  const std::vector<int>& world_of_;     // local index -> world rank
  const bool remote_;                    // peers in other processes exist
  std::size_t remote_pending_ = 0;       // remote sends and direct receives in MPI
  std::size_t direct_receives_ = 0;      // direct receives in MPI (counted in remote_pending_)
  std::size_t detached_receives_ = 0;    // of which freed by the user, in detached_
  const std::size_t eager_limit_;
  std::vector<EagerQueue*> out_;               // cached pointers to my outgoing queues
  std::vector<std::deque<Request*>> queued_;   // per destination, FIFO of queued sends
  std::size_t queued_total_ = 0;
  std::vector<Request*> posted_;               // posted receives, in posting order
  std::list<Unexpected> unexpected_;
  std::vector<Request*> detached_;             // freed by the user while active
};

}  // namespace pure
