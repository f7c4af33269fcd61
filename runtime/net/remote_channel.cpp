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

// `bytes` of data as an MPI count and datatype: MPI_BYTE while the count
// fits an int; above that one element of a type of 1 MiB blocks and the
// rest, so that a message of any size is still one MPI message (matching
// and order need that). Either side may describe it either way: both are
// sequences of MPI_BYTE to MPI's type matching. The type may be freed as
// soon as the call that uses it returned (MPI keeps it for the operation).
class Bytes {
 public:
  explicit Bytes(std::size_t bytes) {
    if (bytes <= static_cast<std::size_t>(INT_MAX)) {
      count_ = static_cast<int>(bytes);
      return;
    }
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    MPI_Datatype block = MPI_DATATYPE_NULL;
    mpi_check(MPI_Type_contiguous(static_cast<int>(kBlock), MPI_BYTE, &block),
              "MPI_Type_contiguous");
    const int blocks = static_cast<int>(bytes / kBlock);
    const int rest = static_cast<int>(bytes % kBlock);
    int lengths[2] = {blocks, rest};
    MPI_Aint displs[2] = {0, static_cast<MPI_Aint>(static_cast<std::size_t>(blocks) * kBlock)};
    MPI_Datatype types[2] = {block, MPI_BYTE};
    mpi_check(MPI_Type_create_struct(rest ? 2 : 1, lengths, displs, types, &type_),
              "MPI_Type_create_struct");
    mpi_check(MPI_Type_free(&block), "MPI_Type_free");
    mpi_check(MPI_Type_commit(&type_), "MPI_Type_commit");
    count_ = 1;
  }
  ~Bytes() {
    if (type_ != MPI_BYTE) mpi_check(MPI_Type_free(&type_), "MPI_Type_free", MpiFailure::report);
  }
  Bytes(const Bytes&) = delete;
  Bytes& operator=(const Bytes&) = delete;
  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }

 private:
  int count_ = 0;
  MPI_Datatype type_ = MPI_BYTE;
};

// The bytes a completed receive (or a matched probe) carries; any size.
std::size_t received_bytes(const MPI_Status& st) {
  MPI_Count n = 0;
  mpi_check(MPI_Get_elements_x(&st, MPI_BYTE, &n), "MPI_Get_elements_x");
  return static_cast<std::size_t>(n);
}
std::size_t at(int i) { return static_cast<std::size_t>(i); }
// Members are named by their index in the layout of the communicator's MPI
// side (Comm::net_index): their rank, but on an intercommunicator both
// groups are laid out, the first then the second.
// The MPI communicator on which member `member` receives.
MPI_Comm inbox(const CommNet& net, int member) { return net.p2p[at(net.slot_of[at(member)])]; }
// The MPI tag of a message from member `sender` (its index in the layout)
// on `comm` (the header comment gives the layout).
int wire_tag(const Cluster& cluster, const Comm& comm, const CommNet& net, int sender, int tag) {
  const int schedule = (comm.context() & kScheduleContextBit) ? cluster.schedule_tag_bit() : 0;
  return (net.slot_of[at(sender)] << cluster.slot_shift()) | schedule | tag;
}
}  // namespace

void RemoteChannel::start_send(const void* buf, std::size_t count, const Datatype& t, int dest,
                               const Comm& comm, int tag, SendMode mode, void* request,
                               std::unique_ptr<char[]>* packed) {
  const std::size_t bytes = count * t.size();
  const CommNet& net = net_of(comm);
  const int to = comm.net_index(dest);
  const void* data = static_cast<const char*>(buf) + t.true_lb();
  if (!t.contiguous()) {
    packed->reset(new char[bytes ? bytes : 1]);
    pack(buf, count, t, 0, packed->get(), bytes);
    data = packed->get();
  }
  const int mpi_tag = wire_tag(cluster_, comm, net, comm.net_rank(), tag);
  MPI_Comm channel = inbox(net, to);
  const int where = net.pos_of[at(to)];
  MPI_Request* req = static_cast<MPI_Request*>(request);
  const Bytes n(bytes);
  if (mode == SendMode::synchronous)
    mpi_check(MPI_Issend(data, n.count(), n.type(), where, mpi_tag, channel, req), "MPI_Issend");
  else
    mpi_check(MPI_Isend(data, n.count(), n.type(), where, mpi_tag, channel, req), "MPI_Isend");
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
    MPI_Status st;
    mpi_check(MPI_Test(mpi_request(r), &done, &st), "MPI_Test");
    if (!done) return false;
    r->state = Request::State::complete;
    r->packed.reset();
    --sends_;
    int cancelled = 0;
    if (r->cancel_asked) mpi_check(MPI_Test_cancelled(&st, &cancelled), "MPI_Test_cancelled");
    r->status.pure_cancelled = cancelled;
    return true;
  }
  MPI_Status st;
  const int rc = MPI_Test(mpi_request(r), &done, &st);
  if (!done && rc == MPI_SUCCESS) return false;
  --direct_receives_;
  const std::size_t capacity = r->count * r->type.type->size();
  const int source = r->comm->peer_rank_of(r->peer);
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
  complete_recv(r, source, r->tag, received_bytes(st), capacity);
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
      endpoint_.peers().here(r.peer) || !r.type.type->contiguous())
    return false;
  // r names one sender and one tag: an earlier receive that would match
  // r's message is exactly one that matches (r.peer, r.context, r.tag).
  Matcher& matcher = endpoint_.matcher();
  return matcher.first_match(Envelope{r.peer, -1, r.context, r.tag}) == Matcher::kNone;
}

void RemoteChannel::post_direct(Request* r) {
  const Comm& comm = *r->comm;
  const CommNet& net = net_of(comm);
  const int from = comm.net_index(r->peer);
  const Datatype& t = *r->type.type;
  const Bytes n(r->count * t.size());
  mpi_check(MPI_Irecv(static_cast<char*>(r->buf) + t.true_lb(), n.count(), n.type(),
                      net.pos_of[at(from)], wire_tag(cluster_, comm, net, from, r->tag),
                      inbox(net, comm.net_rank()), mpi_request(r)),
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

// MPI decides: the operation completes either cancelled or, if it matched
// already, normally; test() tells which.
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
  MPI_Comm channel = inbox(net, comm.net_rank());
  const int shift = cluster_.slot_shift();
  Matcher& matcher = endpoint_.matcher();
  for (;;) {
    int found = 0;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    mpi_check(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, channel, &found, &msg, &st),
              "MPI_Improbe");
    if (!found) return;
    const std::size_t bytes = received_bytes(st);
    const Bytes n(bytes);
    const auto& there = net.members_at[static_cast<std::size_t>(st.MPI_SOURCE)];
    const int sender = there[static_cast<std::size_t>(st.MPI_TAG >> shift)];
    // The communicator and its hidden twin share the MPI communicators: the
    // schedule bit of the tag says whose message this is.
    const int schedule_bit = cluster_.schedule_tag_bit();
    const int context = (st.MPI_TAG & schedule_bit) ? comm.context() | kScheduleContextBit
                                                    : comm.context() & ~kScheduleContextBit;
    const Envelope e{comm.net_world(sender), comm.net_source(sender), context,
                     st.MPI_TAG & (schedule_bit - 1)};

    const std::size_t i = matcher.first_match(e);
    if (i != Matcher::kNone) {
      Request* r = matcher.at(i);
      const Datatype& t = *r->type.type;
      const std::size_t capacity = r->count * t.size();
      if (t.contiguous() && bytes <= capacity) {
        mpi_check(MPI_Mrecv(static_cast<char*>(r->buf) + t.true_lb(), n.count(), n.type(), &msg,
                            MPI_STATUS_IGNORE),
                  "MPI_Mrecv");
        complete_recv(r, e.source, e.tag, bytes, capacity);
      } else {
        // Scattered or truncated: through a copy, never past the buffer.
        std::unique_ptr<char[]> data(new char[bytes ? bytes : 1]);
        mpi_check(MPI_Mrecv(data.get(), n.count(), n.type(), &msg, MPI_STATUS_IGNORE),
                  "MPI_Mrecv");
        deliver(r, e.source, e.tag, data.get(), bytes);
      }
      endpoint_.retire_posted(i);
      continue;
    }
    Unexpected u{e, SlotKind::eager, bytes, std::unique_ptr<char[]>(new char[bytes ? bytes : 1]),
                 nullptr};
    mpi_check(MPI_Mrecv(u.data.get(), n.count(), n.type(), &msg, MPI_STATUS_IGNORE), "MPI_Mrecv");
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
