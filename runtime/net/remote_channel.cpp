#include "net/remote_channel.h"

#include <mpi.h>

#include <algorithm>
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
// A batched send's outbox (in the MPI request's place) and batch (in
// message_bytes, which a send has no other use for).
Outbox*& box_of(Request* r) { return *reinterpret_cast<Outbox**>(r->mpi_request); }
std::uint64_t& batch_of(Request* r) {
  static_assert(sizeof(r->message_bytes) == sizeof(std::uint64_t), "a batch number fits");
  return *reinterpret_cast<std::uint64_t*>(&r->message_bytes);
}

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

std::size_t at(int i) { return static_cast<std::size_t>(i); }
// Members are named by their index in the layout of the communicator's MPI
// side (Comm::net_index): their rank, but on an intercommunicator both
// groups are laid out, the first then the second.
// The record of a message from this rank on `comm` (its size and payload
// left to the outbox's caller).
Outbox::Record record_of(const Comm& comm, int tag, std::size_t bytes) {
  const CommNet& net = net_of(comm);
  return Outbox::Record{net.slot_of[at(comm.net_rank())], tag, bytes, Outbox::kInline,
                        (comm.context() & kScheduleContextBit) ? Outbox::kSchedule : 0u};
}
// The envelope of record `h` on `comm` from member `sender` (its index in
// the layout): the communicator and its hidden twin share the MPI
// communicators, and the record's flags say whose message it is.
Envelope envelope_of(const Comm& comm, int sender, const Outbox::Record& h) {
  const int context = (h.flags & Outbox::kSchedule) ? comm.context() | kScheduleContextBit
                                                    : comm.context() & ~kScheduleContextBit;
  return Envelope{comm.net_world(sender), comm.net_source(sender), context, h.tag};
}
bool batchable(const Datatype& t, std::size_t count, SendMode mode) {
  return mode != SendMode::synchronous && count * t.size() <= Outbox::kRecordBytes;
}
}  // namespace

std::uint64_t RemoteChannel::add_record(Outbox& box, const void* buf, std::size_t count,
                                        const Datatype& t, const Comm& comm, int tag, bool now) {
  const std::size_t bytes = count * t.size();
  return box.add(record_of(comm, tag, bytes), now, [&](char* to) {
    if (t.contiguous())
      std::memcpy(to, static_cast<const char*>(buf) + t.true_lb(), bytes);
    else
      pack(buf, count, t, 0, to, bytes);
  });
}

void RemoteChannel::announce(Outbox& box, const void* buf, std::size_t count, const Datatype& t,
                             const Comm& comm, int tag, SendMode mode, void* request,
                             std::unique_ptr<char[]>* packed) {
  const std::size_t bytes = count * t.size();
  const void* data = static_cast<const char*>(buf) + t.true_lb();
  if (!t.contiguous()) {
    packed->reset(new char[bytes ? bytes : 1]);
    pack(buf, count, t, 0, packed->get(), bytes);
    data = packed->get();
  }
  MPI_Request* req = static_cast<MPI_Request*>(request);
  const Bytes n(bytes);
  box.announce(record_of(comm, tag, bytes), [&](MPI_Comm payloads, int where, int payload_tag) {
    if (mode == SendMode::synchronous)
      mpi_check(MPI_Issend(data, n.count(), n.type(), where, payload_tag, payloads, req),
                "MPI_Issend");
    else
      mpi_check(MPI_Isend(data, n.count(), n.type(), where, payload_tag, payloads, req),
                "MPI_Isend");
  });
}

Request* RemoteChannel::isend(const void* buf, std::size_t count, const TypeRef& type, int dest,
                              const Comm& comm, int tag, SendMode mode) {
  const Datatype& t = *type.type;
  Outbox& box = net_of(comm).outbox(comm.net_index(dest), cluster_);
  std::uint64_t batch = 0;
  const bool inline_record = batchable(t, count, mode);
  if (inline_record) {
    batch = add_record(box, buf, count, t, comm, tag, false);
    if (box.started() >= batch) return completed_send_request();
  }
  Request* r = endpoint_.new_request();
  r->kind = Request::Kind::send;
  r->comm = &comm;
  r->context = comm.context();
  r->peer = dest;
  r->tag = tag;
  r->buf = const_cast<void*>(buf);
  r->count = count;
  r->type = type;
  if (inline_record) {
    r->batched = true;
    box_of(r) = &box;
    batch_of(r) = batch;
    if (std::none_of(waited_.begin(), waited_.end(),
                     [&](const std::shared_ptr<Outbox>& b) { return b.get() == &box; }))
      waited_.push_back(box.shared_from_this());
    batched_.push_back(r);
  } else {
    try {
      announce(box, buf, count, t, comm, tag, mode, mpi_request(r), &r->packed);
    } catch (...) {
      endpoint_.free_request(r);
      throw;
    }
  }
  r->state = Request::State::in_mpi;
  ++sends_;
  return r;
}

void RemoteChannel::advance_batches() {
  // This rank waits for its records (a wait, a test, its progress): they
  // leave now, behind a batch in flight or not, so that no send of this
  // rank waits on whether MPI finished another (perhaps not before its
  // receiver posts a receive).
  for (const std::shared_ptr<Outbox>& box : waited_) box->flush(true);
  std::size_t kept = 0;
  for (Request* r : batched_) {
    if (box_of(r)->started() >= batch_of(r)) {
      r->state = Request::State::complete;
      r->message_bytes = 0;
      --sends_;
    } else {
      batched_[kept++] = r;
    }
  }
  batched_.resize(kept);
  if (batched_.empty()) waited_.clear();
}

bool RemoteChannel::test(Request* r) {
  if (r->kind == Request::Kind::recv) return test_receive(r);
  if (r->batched) {
    advance_batches();
    return r->state == Request::State::complete;
  }
  int done = 0;
  mpi_check(MPI_Test(mpi_request(r), &done, MPI_STATUS_IGNORE), "MPI_Test");
  if (!done) return false;
  r->state = Request::State::complete;
  r->packed.reset();
  --sends_;
  return true;
}

void RemoteChannel::send(const void* buf, std::size_t count, const TypeRef& type, int dest,
                         const Comm& comm, int tag, SendMode mode, const WaitSite& site) {
  WaitSite where = site;
  where.remote = true;
  const Datatype& t = *type.type;
  Outbox& box = net_of(comm).outbox(comm.net_index(dest), cluster_);
  if (batchable(t, count, mode)) {
    // The buffer is free once copied in, and the batch leaves at once: a
    // message sent is on its way however long the program then goes
    // without calling MPI.
    add_record(box, buf, count, t, comm, tag, true);
    return;
  }
  // A blocking send needs no Request: its MPI request lives here.
  MPI_Request req;
  std::unique_ptr<char[]> packed;
  announce(box, buf, count, t, comm, tag, mode, &req, &packed);
  int done = 0;
  auto test = [&] {
    mpi_check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
    return done != 0;
  };
  if (!test()) endpoint_.waiter().wait_until(test, where);
}

// A send to another process is never taken back: its record may have left
// already, and a receiver that read an announcement waits for its payload.
// It completes normally (MPI lets a cancel fail).
void RemoteChannel::cancel(Request* r) { (void)r; }

bool RemoteChannel::may_match(const Request& r, const Comm& comm) const {
  if (!comm.spans_processes()) return false;
  return r.peer < 0 || !endpoint_.peers().here(r.peer);
}

bool RemoteChannel::in_flight() const {
  if (sends_ != 0 || !receiving_.empty()) return true;
  const Matcher& matcher = endpoint_.matcher();
  for (std::size_t i = 0; i < matcher.end(); ++i) {
    const Request* r = matcher.at(i);
    if (r && may_match(*r, *r->comm)) return true;
  }
  return false;
}

// ---- receiving ----

void RemoteChannel::receive_announced(Request* r, const Unexpected& u) {
  const CommNet& net = *static_cast<const CommNet*>(static_cast<const Comm::Part*>(u.net.get()));
  const Datatype& t = *r->type.type;
  const std::size_t capacity = r->count * t.size();
  // Straight into the user's buffer when it is contiguous and the message
  // fits; else through a copy, never past the buffer.
  void* into = static_cast<char*>(r->buf) + t.true_lb();
  if (!t.contiguous() || u.bytes > capacity) {
    r->packed.reset(new char[u.bytes ? u.bytes : 1]);
    into = r->packed.get();
  }
  const Bytes n(u.bytes);
  mpi_check(MPI_Irecv(into, n.count(), n.type(), u.payload_from, u.payload_tag,
                      net.payloads_to(u.receiver), mpi_request(r)),
            "MPI_Irecv");
  r->state = Request::State::in_mpi;
  r->message_bytes = u.bytes;
  // Kept for the completion (complete_recv writes the status then).
  r->status.MPI_SOURCE = u.envelope.source;
  r->status.MPI_TAG = u.envelope.tag;
  receiving_.push_back(r);
}

bool RemoteChannel::test_receive(Request* r) {
  int done = 0;
  mpi_check(MPI_Test(mpi_request(r), &done, MPI_STATUS_IGNORE), "MPI_Test");
  if (!done) return false;
  receiving_.erase(std::find(receiving_.begin(), receiving_.end(), r));
  const int source = r->status.MPI_SOURCE, tag = r->status.MPI_TAG;
  const std::size_t bytes = r->message_bytes;
  if (r->packed) {
    deliver(r, source, tag, r->packed.get(), bytes);
    r->packed.reset();
  } else {
    complete_recv(r, source, tag, bytes, r->count * r->type.type->size());
  }
  return true;
}

void RemoteChannel::take(const Comm& comm, const Envelope& e, const Outbox::Record& h, int from,
                         const char* data) {
  Matcher& matcher = endpoint_.matcher();
  const std::size_t i = matcher.first_match(e);
  if (h.payload != Outbox::kInline) {
    Unexpected u{e, SlotKind::remote, h.bytes, nullptr, nullptr};
    u.net = std::static_pointer_cast<const Comm::Part>(comm.remote_ref());
    u.receiver = comm.net_rank();
    u.payload_from = from;
    u.payload_tag = h.payload;
    if (i == Matcher::kNone) {
      matcher.add_unexpected(std::move(u));
      return;
    }
    receive_announced(matcher.at(i), u);
    endpoint_.retire_posted(i);
    return;
  }
  if (i == Matcher::kNone) {
    Unexpected u{e, SlotKind::eager, h.bytes,
                 std::unique_ptr<char[]>(new char[h.bytes ? h.bytes : 1]), nullptr};
    std::memcpy(u.data.get(), data, h.bytes);
    matcher.add_unexpected(std::move(u));
    return;
  }
  deliver(matcher.at(i), e.source, e.tag, data, h.bytes);
  endpoint_.retire_posted(i);
}

void RemoteChannel::pull(const Comm& comm) {
  CommNet& net = net_of(comm);
  Inbox& inbox = net.inbox(comm.net_rank());
  inbox.repost();
  // One batch per look: the rank acts on what it read before looking again.
  std::size_t bytes = 0;
  int from = 0;
  const char* batch = inbox.next(&bytes, &from);
  if (!batch) return;
  // The records of one batch, in the order they went in.
  const auto& there = net.members_at[at(from)];
  for (std::size_t pos = 0; pos < bytes;) {
    Outbox::Record h;
    std::memcpy(&h, batch + pos, sizeof h);
    const char* payload = batch + pos + sizeof h;
    pos += sizeof h + (h.payload == Outbox::kInline ? Outbox::padded(h.bytes) : 0);
    take(comm, envelope_of(comm, there[at(h.slot)], h), h, from, payload);
  }
  inbox.done();
}

void RemoteChannel::progress() {
  if (!batched_.empty()) advance_batches();
  for (std::size_t i = 0; i < receiving_.size();)
    if (!test_receive(receiving_[i])) ++i;  // a completed one left the list
  const Matcher& matcher = endpoint_.matcher();
  if (matcher.idle()) return;
  // The communicators of posted receives that another process may match,
  // each once (pulling may retire receives, so collect first).
  pulled_.clear();
  for (std::size_t i = 0; i < matcher.end(); ++i) {
    const Request* r = matcher.at(i);
    if (!r || !may_match(*r, *r->comm)) continue;
    if (std::find(pulled_.begin(), pulled_.end(), r->comm) == pulled_.end())
      pulled_.push_back(r->comm);
  }
  for (const Comm* comm : pulled_) pull(*comm);
}

}  // namespace pure
