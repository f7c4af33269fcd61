// RemoteChannel: one rank's point-to-point traffic with ranks in other
// processes, through MPI -- the net layer's implementation of the
// Endpoint's Remote (channels/remote.h).
//
// A message to world rank d on communicator C goes out at once with
// MPI_Isend (MPI_Issend for synchronous sends) on C's point-to-point MPI
// communicator for d's slot, to d's process, as bytes (packed first when
// the datatype is not contiguous), with the MPI tag
// (sender's slot << Cluster::slot_shift()) | schedule bit | user tag, where
// the schedule bit marks the messages of C's hidden twin (collective
// schedules, comm.h), which shares C's MPI communicators.
//
// Receiving: only this rank ever probes its slot's MPI communicators, so a
// matched probe (MPI_Improbe) followed by MPI_Mrecv needs no lock. Messages
// stay in MPI until a posted receive or a probe that may match one pulls
// them; each pulled message goes to the earliest posted receive it matches
// (straight into the user's buffer when the type is contiguous and the
// message fits: one copy), or else to the unexpected list. Pulling runs
// after local matching, so the unexpected list never holds a message that
// a posted receive matches, and a remote sender's messages keep their order.
//
// Direct receives skip all that: a receive naming one rank of another
// process and one tag, into a contiguous buffer, that no posted receive may
// match, is posted to MPI as an MPI_Irecv and matched by MPI on arrival
// (direct() in remote_channel.cpp says why the order still holds). That is
// the common case -- halo exchanges, windows of irecvs from one neighbour
// -- and costs one MPI call per message instead of a probe and a receive.
#pragma once

#include <cstddef>

#include "channels/endpoint.h"
#include "channels/remote.h"
#include "net/cluster.h"

namespace pure {

class RemoteChannel final : public Remote {
 public:
  RemoteChannel(Endpoint& endpoint, const Cluster& cluster)
      : endpoint_(endpoint), cluster_(cluster) {}

  void send(const void* buf, std::size_t count, const TypeRef& type, int dest, const Comm& comm,
            int tag, SendMode mode, const WaitSite& site) override;
  Request* isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                 const Comm& comm, int tag, SendMode mode) override;
  bool direct(const Request& r) const override;
  void post_direct(Request* r) override;
  void recv_direct(Request* r, const WaitSite& site) override;
  bool test(Request* r) override;
  void cancel(Request* r) override;
  bool may_match(const Request& r, const Comm& comm) const override;
  void pull(const Comm& comm) override;
  void progress() override;
  bool in_flight() const override;
  std::size_t pending_sends() const override { return sends_; }
  std::size_t pending_receives() const override { return direct_receives_; }

 private:
  // Starts an MPI send of `count` items of `type` from `buf` to world rank
  // `dest` of `comm`; `packed` keeps the packed copy of a non-contiguous
  // buffer. `request` is an MPI_Request.
  void start_send(const void* buf, std::size_t count, const Datatype& type, int dest,
                  const Comm& comm, int tag, SendMode mode, void* request,
                  std::unique_ptr<char[]>* packed);

  Endpoint& endpoint_;
  const Cluster& cluster_;
  std::size_t sends_ = 0;            // non-blocking sends in MPI
  std::size_t direct_receives_ = 0;  // direct receives in MPI
};

}  // namespace pure
