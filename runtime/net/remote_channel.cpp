#include "net/remote_channel.h"

#include <mpi.h>

#include <climits>
#include <cstring>
#include <memory>

#include "base/error.h"
#include "comm/comm.h"
#include "net/comm_net.h"

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

void RemoteChannel::start_send(const void* buf, std::size_t count, const Datatype& t, int dest,
                               const Comm& comm, int tag, SendMode mode, void* request,
                               std::unique_ptr<char[]>* packed) {
  const std::size_t bytes = count * t.size();
  if (bytes > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_COUNT, "a message of %zu bytes to rank %d in another process is over MPI's "
         "limit of %d bytes", bytes, comm.rank_of(dest), INT_MAX);
  const CommNet& net = net_of(comm);
  const int to = comm.rank_of(dest);
  const void* data = static_cast<const char*>(buf) + t.true_lb();
  if (!t.contiguous()) {
    packed->reset(new char[bytes ? bytes : 1]);
    pack(buf, count, t, 0, packed->get(), bytes);
    data = packed->get();
  }
  const int mpi_tag = wire_tag(net, comm.rank(), tag, cluster_.slot_shift());
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

Request* RemoteChannel::isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                              const Comm& comm, int tag, SendMode mode) {
  Request* r = endpoint_.new_request();
  r->kind = Request::Kind::send;
  r->comm = &comm;
  r->context = comm.context();
  r->peer = dest;
  r->tag = tag;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = type;
  try {
    start_send(buf, count, *type.type, dest, comm, tag, mode, mpi_request(r), &r->packed);
  } catch (...) {
    endpoint_.free_request(r);
    throw;
  }
  r->state = Request::State::in_mpi;
  ++sends_;
  return r;
}

bool RemoteChannel::test(Request* r) {
  int done = 0;
  if (r->kind == Request::Kind::send) {
    mpi_check(MPI_Test(mpi_request(r), &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (!done) return false;
    r->state = Request::State::complete;
    r->packed.reset();
    --sends_;
    return true;
  }
  MPI_Status st;
  const int rc = MPI_Test(mpi_request(r), &done, &st);
  if (!done && rc == MPI_SUCCESS) return false;
  --direct_receives_;
  const std::size_t capacity = r->count * r->type.type->size();
  const int source = r->comm->rank_of(r->peer);
  int error_class = rc;
  if (rc != MPI_SUCCESS) mpi_check(MPI_Error_class(rc, &error_class), "MPI_Error_class");
  if (error_class == MPI_ERR_TRUNCATE) {
    // Only MPI knows the message's size, and it does not say: report the
    // buffer full, and the error without the size (message_bytes 0).
    complete_recv(r, source, r->tag, capacity, capacity);
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
  complete_recv(r, source, r->tag, static_cast<std::size_t>(count), capacity);
  return true;
}

void RemoteChannel::send(const void* buf, std::size_t count, const TypeRef& type, int dest,
                         const Comm& comm, int tag, SendMode mode, const WaitSite& site) {
  // A blocking send needs no Request: its MPI request lives here.
  MPI_Request req;
  std::unique_ptr<char[]> packed;
  start_send(buf, count, *type.type, dest, comm, tag, mode, &req, &packed);
  int done = 0;
  auto test = [&] {
    mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    return done != 0;
  };
  // A small message usually leaves at once: test before the wait loop.
  if (!test()) {
    WaitSite where = site;
    where.remote = true;
    endpoint_.waiter().wait_until(test, where);
  }
}

// Direct receives. Why MPI's own matching keeps Pure's order here: no
// posted receive -- all were posted earlier -- may match this one's
// messages, and the caller first looked in the unexpected list, which holds
// every message already pulled out of MPI (older than those still there).
// Once the MPI_Irecv is posted, MPI hands it the sender's messages with
// this tag in order, against every MPI_Irecv of this rank in posting order;
// a matched probe for a later receive never sees them.
bool RemoteChannel::direct(const Request& r) const {
  if (r.peer < 0 || r.tag == PURE_ANY_TAG || !r.comm || !r.comm->spans_processes() ||
      endpoint_.peers().here(r.peer) || !r.type.type->contiguous() ||
      r.count * r.type.type->size() > static_cast<std::size_t>(INT_MAX))
    return false;
  // r names one sender and one tag: an earlier receive that would match
  // r's message is exactly one that matches (r.peer, r.context, r.tag).
  Matcher& matcher = endpoint_.matcher();
  return matcher.first_match(Envelope{r.peer, -1, r.context, r.tag}) == Matcher::kNone;
}

void RemoteChannel::post_direct(Request* r) {
  const Comm& comm = *r->comm;
  const CommNet& net = net_of(comm);
  const int from = comm.rank_of(r->peer);
  const Datatype& t = *r->type.type;
  mpi_check(MPI_Irecv(static_cast<char*>(r->buf) + t.true_lb(),
                      static_cast<int>(r->count * t.size()), MPI_BYTE, net.pos_of[at(from)],
                      wire_tag(net, from, r->tag, cluster_.slot_shift()),
                      inbox(net, comm.rank()), mpi_request(r)),
            "MPI_Irecv");
  r->state = Request::State::in_mpi;
  ++direct_receives_;
}

void RemoteChannel::recv_direct(Request* r, const WaitSite& site) {
  post_direct(r);
  // Not a tight loop of MPI_Test: back-to-back tests before the wait loop
  // made the 8 B latency between processes worse (docs/perf-notes.md).
  if (!test(r)) {
    WaitSite where = site;
    where.remote = true;
    endpoint_.waiter().wait_until([&] { return test(r); }, where);
  }
}

// MPI decides: the receive completes either cancelled or, if it matched
// already, with its message; test() tells which.
void RemoteChannel::cancel(Request* r) {
  r->cancel_asked = true;
  mpi_check(MPI_Cancel(mpi_request(r)), "MPI_Cancel");
}

bool RemoteChannel::may_match(const Request& r, const Comm& comm) const {
  if (!comm.spans_processes()) return false;
  return r.peer < 0 || !endpoint_.peers().here(r.peer);
}

bool RemoteChannel::in_flight() const {
  if (sends_ != 0 || direct_receives_ != 0) return true;
  const Matcher& matcher = endpoint_.matcher();
  for (std::size_t i = 0; i < matcher.end(); ++i) {
    const Request* r = matcher.at(i);
    if (r && may_match(*r, *r->comm)) return true;
  }
  return false;
}

void RemoteChannel::pull(const Comm& comm) {
  const CommNet& net = net_of(comm);
  MPI_Comm channel = inbox(net, comm.rank());
  const int shift = cluster_.slot_shift();
  Matcher& matcher = endpoint_.matcher();
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
    const int source = there[static_cast<std::size_t>(st.MPI_TAG >> shift)];
    const Envelope e{comm.world_of(source), source, comm.context(), st.MPI_TAG & ((1 << shift) - 1)};

    const std::size_t i = matcher.first_match(e);
    if (i != Matcher::kNone) {
      Request* r = matcher.at(i);
      const Datatype& t = *r->type.type;
      const std::size_t capacity = r->count * t.size();
      if (t.contiguous() && bytes <= capacity) {
        mpi_check(MPI_Mrecv(static_cast<char*>(r->buf) + t.true_lb(), count, MPI_BYTE, &msg,
                            MPI_STATUS_IGNORE),
                  "MPI_Mrecv");
        complete_recv(r, e.source, e.tag, bytes, capacity);
      } else {
        // Scattered or truncated: through a copy, never past the buffer.
        std::unique_ptr<char[]> data(new char[bytes ? bytes : 1]);
        mpi_check(MPI_Mrecv(data.get(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
        deliver(r, e.source, e.tag, data.get(), bytes);
      }
      endpoint_.retire_posted(i);
      continue;
    }
    Unexpected u{e, SlotKind::eager, bytes, std::unique_ptr<char[]>(new char[bytes ? bytes : 1]),
                 nullptr};
    mpi_check(MPI_Mrecv(u.data.get(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
    matcher.add_unexpected(std::move(u));
  }
}

void RemoteChannel::progress() {
  // The communicators of posted receives that another process may match,
  // each once (pulling may retire receives, so collect first).
  const Comm* comms[8];
  std::size_t n = 0;
  const Matcher& matcher = endpoint_.matcher();
  for (std::size_t i = 0; i < matcher.end() && n < 8; ++i) {
    const Request* r = matcher.at(i);
    if (!r || !may_match(*r, *r->comm)) continue;
    bool seen = false;
    for (std::size_t k = 0; k < n; ++k) seen |= comms[k] == r->comm;
    if (!seen) comms[n++] = r->comm;  // beyond 8 communicators: the rest next round
  }
  for (std::size_t k = 0; k < n; ++k) pull(*comms[k]);
}

}  // namespace pure
