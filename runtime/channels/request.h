// Requests: the runtime object behind PURE_Request, and the rendezvous
// descriptor a large send announces through the eager queue.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/parker.h"
#include "pure/pure.h"
#include "types/datatype.h"

struct pure_request_s {};  // opaque to users; pure::Request derives from it

namespace pure {

class Comm;
class Request;

enum class SendMode { standard, synchronous, ready, buffered };

// A datatype held for the lifetime of an operation. Predefined types live
// forever; a derived one is kept alive by shared ownership so that
// pure_type_free on a type in use by a pending operation is safe (MPI allows it).
struct TypeRef {
  const Datatype* type = nullptr;
  std::shared_ptr<const Datatype> keep;
};

// A large (or synchronous) send: the sender announces this descriptor through
// the eager queue and keeps it alive until the receiver releases it. The
// receiver publishes where the data goes; then both sides may copy chunks
// (claimed with fetch_add), so a waiting sender doubles the copy bandwidth
// (rendezvous.h has the protocol).
struct RendezvousDescriptor {
  // No initialisers: every field is set by Rendezvous::prepare (sender) or
  // Rendezvous::deliver (receiver) before it is read, and a blocking receive
  // builds a Request -- with one of these inside -- on every call.

  // Written by the sender before the announcement; read-only afterwards.
  const void* src;
  std::size_t src_count;
  const Datatype* src_type;
  std::size_t bytes;
  Parker* sender;  // woken when the receiver matched and when it released

  // Written by the receiver before `matched` is stored (release); the sender
  // reads them after loading `matched` (acquire).
  void* dst;
  std::size_t dst_count;
  const Datatype* dst_type;
  std::size_t copy_bytes;   // min(bytes, receive capacity)
  std::size_t chunk_bytes;
  std::size_t chunks;
  Parker* receiver;  // woken by the sender when its chunk completes the copy

  alignas(64) std::atomic<bool> matched;
  // Who has the announcement (rendezvous.h: claim, cancel): open, a
  // receive's, or cancelled by the sender. On the line the receiver writes
  // next anyway.
  std::atomic<int> claim;
  std::atomic<std::size_t> next_chunk;    // claimed with relaxed fetch_add
  std::atomic<std::size_t> chunks_done;   // acq_rel: a copier's data happens-before the reader
  alignas(64) std::atomic<bool> released;  // receiver is done with this descriptor (release)
};

// What a request of kind `operation` carries out: anything the
// point-to-point engine does not run itself -- a nonblocking collective's
// schedule (nonblocking/schedule.h), a persistent send or receive
// (channels/persistent.h), a generalized request (channels/generalized.h),
// a pair of requests (isendrecv). Owned by its Request; only the owning
// rank's thread calls it, except where a subclass says otherwise.
class Operation {
 public:
  virtual ~Operation() = default;
  // Does what can be done now without waiting; true once the operation
  // completed, its status and error class then stored in `r`.
  virtual bool advance(Request& r) = 0;
  // MPI_Cancel: the operation completes either cancelled or normally.
  virtual void cancel(Request& r) { (void)r; }
  // Persistent requests: (re)starts the operation (MPI_Start) on an
  // inactive request. Non-persistent operations are started when made.
  virtual void start(Request& r) { (void)r; }
  // Whether the rank's progress must advance it while it runs (it owes
  // other ranks messages in rounds: a schedule), rather than only when the
  // request is tested. Operations whose parts the point-to-point engine
  // progresses anyway (a persistent receive is a posted receive) say no.
  virtual bool needs_progress() const { return true; }
  // What went wrong, once it completed with an error class in its Request.
  virtual std::string error_text() const { return {}; }
  // The user freed the running request: whether it may be returned to the
  // pool at once, the operation finishing on its own (a persistent send
  // hands its inner send to the Endpoint's detached list). Otherwise it is
  // kept and freed when it completes.
  virtual bool release_running(Request& r) {
    (void)r;
    return false;
  }
};

// One point-to-point operation, or another kind of operation behind a
// request handle (an Operation). Only the owning rank's thread touches it
// (a rendezvous send's descriptor excepted, see above). Its life:
//
//   send:    queued -> (announced) -> complete      (eager sends that found
//            room are complete at once; rendezvous ones are announced)
//            in_mpi -> complete                     (to another process)
//   receive: posted -> complete                     (matched, or cancelled)
//   operation: running -> complete                 (Operation::advance said so)
//            persistent: inactive -> running -> complete -> inactive ...
//
// and back to free when the user frees it (or at completion, when the user
// freed it while active: `detached`). A persistent request returns to
// inactive when a wait or test finishes it, and to free only when the user
// frees it.
class Request : public pure_request_s {
 public:
  enum class Kind : std::uint8_t { send, recv, operation };
  enum class State : std::uint8_t {
    free,       // in the pool
    inactive,   // persistent: made or finished, not started
    queued,     // send: waiting for room in the eager queue to its receiver
    announced,  // send by rendezvous: waiting for the receiver's release
    posted,     // receive: in the matcher's posted list
    in_mpi,     // a send to another process, in MPI or in a batch
                // (net/remote_channel.cpp)
    running,    // operation: started, not yet complete
    complete,
  };

  Kind kind = Kind::send;
  State state = State::free;
  bool rendezvous = false;    // send: goes through the descriptor below
  bool detached = false;      // freed by the user while active: freed at completion
  bool cancel_asked = false;  // in_mpi: MPI_Cancel was called on it
  bool batched = false;       // in_mpi: a send waiting for its batch to leave (net/outbox.h)
  bool persistent = false;    // operation: made by a *_init call, restarted by MPI_Start
  bool collective = false;    // operation: a nonblocking or persistent collective
                              // (MPI forbids cancelling it or freeing it while active)
  // Bumped every time the request returns to the pool: the flat API's
  // handles carry it, so a handle kept after its request was freed is
  // recognised (api/requests.h).
  std::uint8_t generation = 0;

  // envelope
  const Comm* comm = nullptr;
  int context = 0;
  // send: local index of the receiver (world rank when remote);
  // recv: world rank of the source, or -1 for PURE_ANY_SOURCE
  int peer = -1;
  int tag = 0;

  // user buffer
  void* buf = nullptr;
  std::size_t count = 0;
  TypeRef type;

  PURE_Status status{};
  int error = PURE_SUCCESS;       // error class recorded at completion (truncation)
  std::size_t message_bytes = 0;  // whole size of the matched message

  RendezvousDescriptor rendezvous_desc;
  Request* next = nullptr;  // the pool's free list, or the endpoint's queued sends

  // A remote operation's MPI_Request, kept as bytes so that this header needs
  // no <mpi.h> (net/remote_channel.cpp checks that it fits), and the packed
  // copy of a non-contiguous send buffer.
  alignas(8) unsigned char mpi_request[8] = {};
  std::unique_ptr<char[]> packed;

  std::unique_ptr<Operation> op;  // kind operation

  bool complete() const { return state == State::complete; }

  // Back to a fresh request for reuse from the pool. The descriptor is left
  // alone (it is a few cache lines; clearing it on every small isend showed
  // in profiles): a rendezvous send re-initialises it in Rendezvous::prepare.
  void reset() {
    kind = Kind::send;
    state = State::free;
    rendezvous = detached = cancel_asked = batched = persistent = collective = false;
    packed.reset();
    op.reset();
    comm = nullptr;
    context = 0;
    peer = -1;
    tag = 0;
    buf = nullptr;
    count = 0;
    type = TypeRef{};
    status = PURE_Status{};
    error = PURE_SUCCESS;
    message_bytes = 0;
    next = nullptr;
  }
};

// An eager isend that went straight into the queue is complete at once; it
// is represented by this shared, never-written object instead of a fresh one.
// Set during static initialisation (endpoint.cpp), before any rank runs:
// read without the guard a function-local static would check on every send.
namespace detail {
extern Request* const completed_send;
}
inline Request* completed_send_request() { return detail::completed_send; }

// ---- completing receives (every path: local, unexpected, from MPI) ----

// Completes receive `r` with a message of `bytes` from communicator rank
// `source` with `tag`, of which min(bytes, capacity) were delivered.
void complete_recv(Request* r, int source, int tag, std::size_t bytes, std::size_t capacity);
// Copies a message held as dense bytes into `r`'s buffer (never past its
// end: a longer message is truncated and reported as PURE_ERR_TRUNCATE)
// and completes it.
void deliver(Request* r, int source, int tag, const void* payload, std::size_t bytes);
// Completes a receive cancelled before it matched.
void complete_cancelled(Request* r);
// What went wrong with a completed receive whose error class is not
// PURE_SUCCESS (a truncation), naming the sizes, source and tag.
std::string describe_error(const Request& r);

}  // namespace pure
