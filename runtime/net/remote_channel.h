// RemoteChannel: one rank's point-to-point traffic with ranks in other
// processes, through MPI -- the net layer's implementation of the
// Endpoint's Remote (channels/remote.h).
//
// Every message to world rank d on communicator C goes through C's outbox
// for d (net/outbox.h), shared by every rank of this process: a small one
// (standard or ready mode, up to Outbox::kRecordBytes) copied into a record
// of a batch, any other announced by a record and sent by itself (packed
// first when its datatype is not contiguous). A small isend is complete
// once its batch left; a blocking send's batch leaves at once. C's hidden
// twin (collective schedules, comm.h) shares C's MPI communicators: the
// schedule bit of a record's tag says whose message it is.
//
// Receiving: only this rank reads its slot's batches (its Inbox), so that
// needs no lock, and it reads each process's batches in the order they
// left. It reads them when a posted receive or a probe may want one; each
// record goes to the earliest posted receive it matches, or else to the
// unexpected list. An inline record's data is copied into the receive's
// buffer; an announced one's payload is received by MPI_Irecv straight
// into it (when contiguous and large enough), the receive being in_mpi
// until then. Reading runs after local matching, so the unexpected list
// never holds a message that a posted receive matches, and a remote
// sender's messages keep their order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "channels/endpoint.h"
#include "channels/remote.h"
#include "net/cluster.h"
#include "net/outbox.h"

namespace pure {

class RemoteChannel final : public Remote {
 public:
  RemoteChannel(Endpoint& endpoint, const Cluster& cluster)
      : endpoint_(endpoint), cluster_(cluster) {}

  void send(const void* buf, std::size_t count, const TypeRef& type, int dest, const Comm& comm,
            int tag, SendMode mode, const WaitSite& site) override;
  Request* isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                 const Comm& comm, int tag, SendMode mode) override;
  bool test(Request* r) override;
  void cancel(Request* r) override;
  void receive_announced(Request* r, const Unexpected& message) override;
  bool may_match(const Request& r, const Comm& comm) const override;
  void pull(const Comm& comm) override;
  void progress() override;
  bool in_flight() const override;
  std::size_t pending_sends() const override { return sends_; }
  std::size_t pending_receives() const override { return receiving_.size(); }

 private:
  // Copies a small message into its outbox (`now`: its batch leaves at
  // once); the batch it went into.
  std::uint64_t add_record(Outbox& box, const void* buf, std::size_t count, const Datatype& type,
                           const Comm& comm, int tag, bool now);
  // Announces a message through its outbox and starts sending its data;
  // `packed` keeps the packed copy of a non-contiguous buffer, `request`
  // is an MPI_Request.
  void announce(Outbox& box, const void* buf, std::size_t count, const Datatype& type,
                const Comm& comm, int tag, SendMode mode, void* request,
                std::unique_ptr<char[]>* packed);
  // Completes the sends whose batches left, flushing the outboxes of the rest.
  void advance_batches();
  bool test_receive(Request* r);
  // Record `h` of a batch on `comm` from the process at MPI rank `from`,
  // with envelope `e` and (inline) its data: into the earliest posted
  // receive it matches, or the unexpected list.
  void take(const Comm& comm, const Envelope& e, const Outbox::Record& h, int from,
            const char* data);

  Endpoint& endpoint_;
  const Cluster& cluster_;
  std::size_t sends_ = 0;  // non-blocking sends in MPI or waiting in a batch
  // Non-blocking sends waiting for their batches to leave, in the order
  // they were sent (each names its outbox and batch: batch_of), and the
  // outboxes they wait on, kept alive while any does.
  std::vector<Request*> batched_;
  std::vector<std::shared_ptr<Outbox>> waited_;
  std::vector<Request*> receiving_;  // receives of announced payloads, in MPI
  std::vector<const Comm*> pulled_;  // progress's list of communicators to read
};

}  // namespace pure
