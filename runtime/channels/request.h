// Requests: the runtime object behind PURE_Request, and the rendezvous
// descriptor a large send announces through the eager queue.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "types/datatype.h"
#include "pure/pure.h"

struct pure_request_s {};  // opaque to users; pure::Request derives from it

namespace pure {

class Comm;

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
// (claimed with fetch_add), so a waiting sender doubles the copy bandwidth.
struct RendezvousDescriptor {
  // No initialisers: every field is set by prepare_descriptor (sender) or
  // deliver_rendezvous (receiver) before it is read, and a blocking receive
  // builds a Request -- with one of these inside -- on every call.

  // Written by the sender before the announcement; read-only afterwards.
  const void* src;
  std::size_t src_count;
  const Datatype* src_type;
  std::size_t bytes;
  int sender;  // rank index of the sender, for waking it

  // Written by the receiver before `matched` is stored (release); the sender
  // reads them after loading `matched` (acquire).
  void* dst;
  std::size_t dst_count;
  const Datatype* dst_type;
  std::size_t copy_bytes;   // min(bytes, receive capacity)
  std::size_t chunk_bytes;
  std::size_t chunks;

  alignas(64) std::atomic<bool> matched;
  std::atomic<std::size_t> next_chunk;    // claimed with relaxed fetch_add
  std::atomic<std::size_t> chunks_done;   // acq_rel: a copier's data happens-before the reader
  alignas(64) std::atomic<bool> released;  // receiver is done with this descriptor (release)
};

class Request : public pure_request_s {
 public:
  enum class Kind : unsigned char { send, recv };

  Kind kind = Kind::send;
  bool complete = false;       // owner thread only
  bool user_freed = false;     // pure_request_free on an active request
  bool rendezvous = false;     // send: announced through a descriptor
  bool queued = false;         // send: waiting for room in the eager queue
  bool bsend = false;          // send: data lives in the attached buffer
  bool remote = false;         // in MPI: a send to another process, or a direct receive
  bool cancel_asked = false;   // remote receive: MPI_Cancel was called on it

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
  int error = PURE_SUCCESS;  // error class recorded at completion (truncation)
  std::size_t bsend_offset = 0;
  std::size_t message_bytes = 0;  // whole size of the matched message

  RendezvousDescriptor rendezvous_desc;
  Request* next_free = nullptr;

  // A remote send's MPI_Request, kept as bytes so that this header needs no
  // <mpi.h> (endpoint_remote.cpp checks that it fits), and the packed copy
  // of a non-contiguous send buffer.
  alignas(8) unsigned char mpi_request[8] = {};
  std::unique_ptr<char[]> packed;

  // Back to a fresh request for reuse from the pool. The descriptor is left
  // alone (it is a few cache lines; clearing it on every small isend showed
  // in profiles): a rendezvous send re-initialises it in prepare_descriptor.
  void reset() {
    kind = Kind::send;
    complete = user_freed = rendezvous = queued = bsend = remote = cancel_asked = false;
    packed.reset();
    comm = nullptr;
    context = 0;
    peer = -1;
    tag = 0;
    buf = nullptr;
    count = 0;
    type = TypeRef{};
    status = PURE_Status{};
    error = PURE_SUCCESS;
    bsend_offset = 0;
    message_bytes = 0;
    next_free = nullptr;
  }
};

// An eager isend that went straight into the queue is complete at once; it
// is represented by this shared, never-written object instead of a fresh one.
Request* completed_send_request();

}  // namespace pure
