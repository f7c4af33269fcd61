// Remote: the part of a rank's point-to-point engine that reaches ranks in
// other processes. The net layer implements it (net/remote_channel.h) on top
// of MPI; a single-process job has none. The Endpoint hands it every
// operation whose peer lives elsewhere, and lets it pull messages from MPI
// into the Endpoint's Matcher: into the earliest matching posted receive,
// or the unexpected list, after local matching (so a message from MPI never
// overtakes one that a posted receive could take).
#pragma once

#include <cstddef>

#include "base/waiter.h"
#include "channels/matcher.h"
#include "channels/request.h"

namespace pure {

class Comm;

class Remote {
 public:
  virtual ~Remote() = default;

  // Blocking and non-blocking sends to world rank `dest` of `comm`, which
  // lives in another process.
  virtual void send(const void* buf, std::size_t count, const TypeRef& type, int dest,
                    const Comm& comm, int tag, SendMode mode, const WaitSite& site) = 0;
  virtual Request* isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                         const Comm& comm, int tag, SendMode mode) = 0;

  // Advances an in_mpi send or receive; whether it completed.
  virtual bool test(Request* r) = 0;
  // Asks to cancel an in_mpi send; it completes either cancelled or
  // normally.
  virtual void cancel(Request* r) = 0;

  // Receive `r` takes `message`, an unexpected message of kind
  // SlotKind::remote (its payload still in MPI): r goes in_mpi.
  virtual void receive_announced(Request* r, const Unexpected& message) = 0;

  // Whether receive (or probe) `r` on `comm` may be matched by a message
  // from another process.
  virtual bool may_match(const Request& r, const Comm& comm) const = 0;
  // Reads the next batch MPI holds for this rank on `comm`, if any, into
  // the Matcher.
  virtual void pull(const Comm& comm) = 0;
  // Moves this rank's sends on, and pulls for the posted receives another
  // process may match.
  virtual void progress() = 0;
  // Sends not yet done, or posted receives another process may match: the
  // wait loop then polls MPI instead of sleeping long.
  virtual bool in_flight() const = 0;
  // Non-blocking sends and in_mpi receives not yet done, for finalize's check.
  virtual std::size_t pending_sends() const = 0;
  virtual std::size_t pending_receives() const = 0;
};

}  // namespace pure
