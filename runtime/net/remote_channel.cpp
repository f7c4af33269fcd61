// Endpoint, the part that reaches ranks in other processes through MPI.
//
// A message to world rank d on communicator C goes out at once with
// MPI_Isend (MPI_Issend for synchronous sends) on C's point-to-point MPI
// communicator for d's slot, to d's process, as bytes (packed first when
// the datatype is not contiguous), with the MPI tag
// (sender's slot << Cluster::slot_shift()) | user tag.
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
// process and one tag, into a contiguous buffer, that no receive in posted_
// may match, is posted to MPI as an MPI_Irecv and matched by MPI on
// arrival (direct_remote below says why the order still holds). That is
// the common case -- halo exchanges, windows of irecvs from one neighbour
// -- and costs one MPI call per message instead of a probe and a receive.
#include <mpi.h>

#include <climits>
#include <cstring>
#include <memory>

#include "channels/endpoint.h"
#include "net/cluster.h"
#include "comm/comm.h"
#include "net/comm_net.h"
#include "base/error.h"
#include "job/process.h"
#include "job/rank.h"

namespace pure {

static_assert(sizeof(MPI_Request) <= sizeof(Request::mpi_request),
              "Request::mpi_request must hold an MPI_Request");

namespace {
MPI_Request* mpi_request(Request* r) { return reinterpret_cast<MPI_Request*>(r->mpi_request); }
std::size_t at(int i) { return static_cast<std::size_t>(i); }
// The MPI communicator on which communicator member `member` receives.
MPI_Comm inbox(const CommNet& net, int member) { return net.p2p[at(net.slot_of[at(member)])]; }
// The MPI tag of a message from communicator member `sender` (the header
// comment gives the layout; `shift` is Cluster::slot_shift()).
int wire_tag(const CommNet& net, int sender, int tag, int shift) {
  return (net.slot_of[at(sender)] << shift) | tag;
}
}  // namespace

// Starts an MPI send of `count` items of `type` from `buf` to world rank
// `dest` of `comm`; `packed` keeps the packed copy of a non-contiguous buffer.
void Endpoint::start_remote_send(const void* buf, std::size_t count, const Datatype& t, int dest,
                                 const Comm& comm, int tag, SendMode mode, void* request,
                                 std::unique_ptr<char[]>* packed) {
  const std::size_t bytes = count * t.size();
  if (bytes > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_COUNT, "a message of %zu bytes to rank %d in another process is over MPI's "
         "limit of %d bytes", bytes, comm.rank_of(dest), INT_MAX);
  const CommNet& net = *comm.net();
  const int to = comm.rank_of(dest);
  const void* data = static_cast<const char*>(buf) + t.true_lb();
  if (!t.contiguous()) {
    packed->reset(new char[bytes ? bytes : 1]);
    pack(buf, count, t, 0, packed->get(), bytes);
    data = packed->get();
  }
  const int mpi_tag = wire_tag(net, comm.rank(), tag, process_.cluster()->slot_shift());
  MPI_Comm channel = inbox(net, to);
  const int where = net.pos_of[at(to)];
  MPI_Request* req = static_cast<MPI_Request*>(request);
  if (mode == SendMode::synchronous)
    mpi_check(MPI_Issend(data, static_cast<int>(bytes), MPI_BYTE, where, mpi_tag, channel, req),
              "MPI_Issend");
  else
    mpi_check(MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, where, mpi_tag, channel, req),
              "MPI_Isend");
}

Request* Endpoint::remote_isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                                const Comm& comm, int tag, SendMode mode) {
  Request* r = self_.new_request();
  r->kind = Request::Kind::send;
  r->remote = true;
  r->comm = &comm;
  r->context = comm.context();
  r->peer = dest;
  r->tag = tag;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = type;
  try {
    start_remote_send(buf, count, *type.type, dest, comm, tag, mode, mpi_request(r), &r->packed);
  } catch (...) {
    self_.free_request(r);
    throw;
  }
  ++remote_pending_;
  return r;
}

bool Endpoint::remote_test(Request* r) {
  int done = 0;
  if (r->kind == Request::Kind::send) {
    mpi_check(MPI_Test(mpi_request(r), &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) return false;
    r->complete = true;
    r->packed.reset();
    --remote_pending_;
    return true;
  }
  MPI_Status st;
  const int rc = MPI_Test(mpi_request(r), &done, &st);
  if (!done && rc == MPI_SUCCESS) return false;
  --remote_pending_;
  --direct_receives_;
  const std::size_t capacity = r->count * r->type.type->size();
  int error_class = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &error_class);
  if (error_class == MPI_ERR_TRUNCATE) {
    // Only MPI knows the message's size, and it does not say: report the
    // buffer full, and the error without the size (message_bytes 0).
    complete_recv(r, r->peer, r->tag, capacity, capacity);
    r->error = r->status.MPI_ERROR = PURE_ERR_TRUNCATE;
    r->message_bytes = 0;
    return true;
  }
  mpi_check(rc, "MPI_Test");
  int cancelled = 0;
  if (r->cancel_asked) mpi_check(MPI_Test_cancelled(&st, &cancelled), "MPI_Test_cancelled");
  if (cancelled) {
    complete_cancelled(r);
    return true;
  }
  int count = 0;
  mpi_check(MPI_Get_count(&st, MPI_BYTE, &count), "MPI_Get_count");
  complete_recv(r, r->peer, r->tag, static_cast<std::size_t>(count), capacity);
  return true;
}

void Endpoint::remote_send(const void* buf, std::size_t count, const TypeRef& type, int dest,
                           const Comm& comm, int tag, SendMode mode, const WaitSite& site) {
  // A blocking send needs no Request: its MPI request lives here.
  MPI_Request req;
  std::unique_ptr<char[]> packed;
  start_remote_send(buf, count, *type.type, dest, comm, tag, mode, &req, &packed);
  int done = 0;
  auto test = [&] {
    mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    return done != 0;
  };
  // A small message usually leaves at once: test before the wait loop.
  if (!test()) {
    WaitSite where = site;
    where.remote = true;
    self_.wait_until(test, where);
  }
}

// Direct receives. Why MPI's own matching keeps Pure's order here: no
// receive in posted_ that was posted earlier may match this one's
// messages, and the caller first looked in the unexpected list, which
// holds every message already pulled out of MPI (older than those still
// there). Once the MPI_Irecv is posted, MPI hands it the sender's messages
// with this tag in order, against every MPI_Irecv of this rank in posting
// order; a matched probe for a later receive never sees them.
bool Endpoint::direct_remote(const Request* r) const {
  if (!remote_ || r->peer < 0 || r->tag == PURE_ANY_TAG || !r->comm || !r->comm->net() ||
      process_.local_index(r->peer) >= 0 || !r->type.type->contiguous() ||
      r->count * r->type.type->size() > static_cast<std::size_t>(INT_MAX))
    return false;
  // r names one sender and one tag: an earlier receive that would match
  // r's message is exactly one that matches (r->peer, r->context, r->tag).
  return first_posted(r->peer, r->context, r->tag) == posted_.size();
}

void Endpoint::post_direct(Request* r) {
  const Comm& comm = *r->comm;
  const CommNet& net = *comm.net();
  const int from = comm.rank_of(r->peer);
  const Datatype& t = *r->type.type;
  mpi_check(MPI_Irecv(static_cast<char*>(r->buf) + t.true_lb(),
                      static_cast<int>(r->count * t.size()), MPI_BYTE, net.pos_of[at(from)],
                      wire_tag(net, from, r->tag, process_.cluster()->slot_shift()),
                      inbox(net, comm.rank()), mpi_request(r)),
            "MPI_Irecv");
  r->remote = true;
  ++remote_pending_;
  ++direct_receives_;
}

void Endpoint::remote_recv(Request* r, const WaitSite& site) {
  post_direct(r);
  // Not a tight loop of MPI_Test: measured, 64 back-to-back tests before the
  // wait loop made the 8 B latency between processes worse (0.167 -> 0.203 us).
  if (!remote_test(r)) {
    WaitSite where = site;
    where.remote = true;
    self_.wait_until([&] { return remote_test(r); }, where);
  }
}

// MPI decides: the receive completes either cancelled or, if it matched
// already, with its message; remote_test tells which.
bool Endpoint::remote_cancel(Request* r) {
  r->cancel_asked = true;
  mpi_check(MPI_Cancel(mpi_request(r)), "MPI_Cancel");
  return false;
}

bool Endpoint::may_match_remote(const Request* r, const Comm* comm) const {
  if (!remote_) return false;
  const Comm* c = comm ? comm : r->comm;
  if (!c || !c->net()) return false;
  return r->peer < 0 || process_.local_index(r->peer) < 0;
}

bool Endpoint::remote_in_flight() const {
  if (!remote_) return false;
  if (remote_pending_ != 0) return true;
  for (const Request* r : posted_)
    if (may_match_remote(r)) return true;
  return false;
}

void Endpoint::pull_remote(const Comm& comm) {
  const CommNet& net = *comm.net();
  MPI_Comm channel = inbox(net, comm.rank());
  const int shift = process_.cluster()->slot_shift();
  for (;;) {
    int found = 0;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    mpi_check(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, channel, &found, &msg, &st),
              "MPI_Improbe");
    if (!found) return;
    int count = 0;
    mpi_check(MPI_Get_count(&st, MPI_BYTE, &count), "MPI_Get_count");
    const std::size_t bytes = static_cast<std::size_t>(count);
    const auto& there = net.members_at[static_cast<std::size_t>(st.MPI_SOURCE)];
    const int sender = comm.index_of(there[static_cast<std::size_t>(st.MPI_TAG >> shift)]);
    const int tag = st.MPI_TAG & ((1 << shift) - 1);

    const std::size_t i = first_posted(sender, comm.context(), tag);
    if (i < posted_.size()) {
      Request* r = posted_[i];
      const Datatype& t = *r->type.type;
      const std::size_t capacity = r->count * t.size();
      if (t.contiguous() && bytes <= capacity) {
        mpi_check(MPI_Mrecv(static_cast<char*>(r->buf) + t.true_lb(), count, MPI_BYTE, &msg,
                            MPI_STATUS_IGNORE),
                  "MPI_Mrecv");
        complete_recv(r, sender, tag, bytes, capacity);
      } else {
        // Scattered or truncated: through a copy, never past the buffer.
        std::unique_ptr<char[]> data(new char[bytes ? bytes : 1]);
        mpi_check(MPI_Mrecv(data.get(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
        deliver_eager(r, sender, tag, data.get(), bytes);
      }
      retire_posted(i);
      continue;
    }
    Unexpected u{sender, comm.context(), tag, SlotKind::eager, bytes,
                 std::unique_ptr<char[]>(new char[bytes ? bytes : 1]), nullptr};
    mpi_check(MPI_Mrecv(u.data.get(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
    unexpected_.push_back(std::move(u));
  }
}

void Endpoint::progress_remote() {
  // The communicators of posted receives that another process may match,
  // each once (pulling may retire receives, so collect first).
  const Comm* comms[8];
  std::size_t n = 0;
  for (const Request* r : posted_) {
    if (!may_match_remote(r)) continue;
    bool seen = false;
    for (std::size_t k = 0; k < n; ++k) seen |= comms[k] == r->comm;
    if (seen) continue;
    if (n == 8) break;  // the rest on the next round
    comms[n++] = r->comm;
  }
  for (std::size_t k = 0; k < n; ++k) pull_remote(*comms[k]);
}

}  // namespace pure
