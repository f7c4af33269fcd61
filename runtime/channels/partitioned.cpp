#include "channels/partitioned.h"

#include <utility>

#include "base/handle.h"
#include "types/datatype.h"

namespace pure {

namespace {

const TypeRef& handoff_type() {
  static const TypeRef bytes{Datatype::predefined(handle_index(PURE_BYTE)), nullptr};
  return bytes;
}

// The schedule twin's tags are 0 .. tag_ub and PURE_ANY_TAG is -1: the
// matching messages of partitioned inits take the rest.
int handoff_tag(int tag) { return -2 - tag; }

}  // namespace

void PartitionedChannel::copy(int i, std::uint64_t r, bool by_sender) {
  // Callers saw recv_round >= r, which publishes the receiver's side.
  if (mismatch.load(std::memory_order_relaxed)) return;
  Partition& p = parts[static_cast<std::size_t>(i)];
  std::uint64_t expected = r - 1;
  // Pairs with the other side's claim: one copy per partition and round.
  if (!p.claimed.compare_exchange_strong(expected, r, std::memory_order_acq_rel)) return;
  const std::size_t begin = static_cast<std::size_t>(i) * send_partition_bytes;
  if (send_partition_bytes > 0)
    copy_range(send_buf, send_count, *send_type.type, recv_buf, recv_count, *recv_type.type, begin,
               begin + send_partition_bytes);
  // Pairs with the acquire loads of completion and pure_parrived.
  p.copied.store(r, std::memory_order_release);
  (by_sender ? receiver : sender)->notify();
}

bool PartitionedChannel::in_place(int i, std::uint64_t r, bool may_copy, bool by_sender) {
  Partition& p = parts[static_cast<std::size_t>(i)];
  if (p.copied.load(std::memory_order_acquire) == r) return true;
  // Acquire: the sender's data before its ready store (release).
  if (!may_copy || p.ready.load(std::memory_order_acquire) != r) return false;
  copy(i, r, by_sender);
  // Claimed by the other side, which may still be copying.
  return p.copied.load(std::memory_order_acquire) == r;
}

// ---- sender ----

PartitionedSend::PartitionedSend(Endpoint& p2p, std::shared_ptr<PartitionedChannel> channel,
                                 const Comm& twin, int dest, int tag)
    : p2p_(p2p),
      channel_(std::move(channel)),
      partitions_(channel_->send_partitions),
      proc_null_(dest == PURE_PROC_NULL) {
  if (proc_null_) return;
  // The heap-held reference is the receiver's to delete (it keeps the
  // channel, and so `handoff`, alive until the receiver took it).
  channel_->handoff =
      reinterpret_cast<std::uintptr_t>(new std::shared_ptr<PartitionedChannel>(channel_));
  setup_ = p2p_.isend(&channel_->handoff, sizeof channel_->handoff, handoff_type(), dest, twin,
                      handoff_tag(tag), SendMode::standard);
}

PartitionedSend::~PartitionedSend() {
  if (!setup_) return;
  if (p2p_.test(setup_))
    p2p_.free_request(setup_);
  else
    p2p_.detach(setup_);  // reads the channel, which the handoff keeps alive
}

void PartitionedSend::start(Request& r) {
  ++round_;
  done_ = 0;
  why_.clear();
  r.status = PURE_Status{};
  r.error = PURE_SUCCESS;
  if (setup_ && p2p_.test(setup_)) {
    p2p_.free_request(setup_);
    setup_ = nullptr;
  }
}

bool PartitionedSend::ready(int i) {
  PartitionedChannel::Partition& p = channel_->parts[static_cast<std::size_t>(i)];
  if (p.ready.load(std::memory_order_relaxed) == round_) return false;
  if (proc_null_) {
    // Nobody copies: only the once-per-round rule to keep.
    p.ready.store(round_, std::memory_order_relaxed);
    return true;
  }
  // seq_cst store, then seq_cst load of recv_round: the header's pattern,
  // against the receiver's publish.
  p.ready.store(round_, std::memory_order_seq_cst);
  if (channel_->recv_round.load(std::memory_order_seq_cst) >= round_)
    channel_->copy(i, round_, true);
  return true;
}

bool PartitionedSend::advance(Request& r) {
  r.status = PURE_Status{};
  r.status.MPI_SOURCE = PURE_ANY_SOURCE;
  r.status.MPI_TAG = PURE_ANY_TAG;
  if (proc_null_) return true;
  // One load: the mismatch check and the copies below see the same round.
  const bool started = channel_->recv_round.load(std::memory_order_seq_cst) >= round_;
  if (started && channel_->mismatch.load(std::memory_order_relaxed)) {
    r.error = PURE_ERR_TRUNCATE;
    why_ = "the partitioned receive that matched this send takes " +
           std::to_string(channel_->recv_count * channel_->recv_type.type->size()) +
           " bytes, this send has " + std::to_string(channel_->bytes()) +
           " (the two sides' buffers must hold the same bytes)";
    return true;
  }
  for (; done_ < partitions_; ++done_)
    if (!channel_->in_place(done_, round_, started, true)) return false;
  return true;
}

// ---- receiver ----

PartitionedRecv::PartitionedRecv(Endpoint& p2p, Parker& me, Args args, const Comm& twin,
                                 int source_world)
    : p2p_(p2p), me_(me), args_(std::move(args)), proc_null_(source_world == PURE_PROC_NULL) {
  if (proc_null_) return;
  setup_ = p2p_.irecv(&handoff_, sizeof handoff_, handoff_type(), source_world, twin,
                      handoff_tag(args_.tag));
}

PartitionedRecv::~PartitionedRecv() {
  if (!setup_) return;
  // Freed before its sender's channel came: the receive is cancelled, or
  // found matched and its channel dropped.
  p2p_.cancel(setup_);
  if (p2p_.test(setup_) && !setup_->status.pure_cancelled && handoff_)
    delete reinterpret_cast<std::shared_ptr<PartitionedChannel>*>(handoff_);
  p2p_.free_request(setup_);
}

bool PartitionedRecv::attach() {
  if (!setup_ || !p2p_.test(setup_)) return false;
  p2p_.free_request(setup_);
  setup_ = nullptr;
  auto* held = reinterpret_cast<std::shared_ptr<PartitionedChannel>*>(handoff_);
  channel_ = std::move(*held);
  delete held;
  PartitionedChannel& ch = *channel_;
  ch.recv_buf = args_.buf;
  ch.recv_count = args_.count;
  ch.recv_type = args_.type;
  ch.receiver = &me_;
  // Published with the first recv_round store.
  if (args_.partition_bytes * static_cast<std::size_t>(args_.partitions) != ch.bytes())
    ch.mismatch.store(true, std::memory_order_relaxed);
  return true;
}

void PartitionedRecv::publish() {
  if (published_ == round_) return;
  published_ = round_;
  PartitionedChannel& ch = *channel_;
  ch.recv_round.store(round_, std::memory_order_seq_cst);
  if (ch.mismatch.load(std::memory_order_relaxed)) {
    ch.sender->notify();  // its wait ends in the error
    return;
  }
  for (int i = 0; i < ch.send_partitions; ++i)
    if (ch.parts[static_cast<std::size_t>(i)].ready.load(std::memory_order_seq_cst) == round_)
      ch.copy(i, round_, false);
}

void PartitionedRecv::start(Request& r) {
  ++round_;
  done_ = 0;
  why_.clear();
  r.status = PURE_Status{};
  r.error = PURE_SUCCESS;
  if (channel_ || attach()) publish();
}

bool PartitionedRecv::advance(Request& r) {
  if (proc_null_) {
    r.status = PURE_Status{};
    r.status.MPI_SOURCE = PURE_PROC_NULL;
    r.status.MPI_TAG = PURE_ANY_TAG;
    return true;
  }
  if (!channel_ && !attach()) return false;
  publish();
  PartitionedChannel& ch = *channel_;
  r.status = PURE_Status{};
  r.status.MPI_SOURCE = args_.source;
  r.status.MPI_TAG = args_.tag;
  if (ch.mismatch.load(std::memory_order_relaxed)) {
    r.error = PURE_ERR_TRUNCATE;
    r.status.MPI_ERROR = PURE_ERR_TRUNCATE;
    why_ = "the matching partitioned send has " + std::to_string(ch.bytes()) +
           " bytes, this receive takes " +
           std::to_string(args_.partition_bytes * static_cast<std::size_t>(args_.partitions)) +
           " (the two sides' buffers must hold the same bytes)";
    return true;
  }
  for (; done_ < ch.send_partitions; ++done_)
    if (!ch.in_place(done_, round_, true, false)) return false;
  r.status.pure_count = ch.bytes();
  return true;
}

bool PartitionedRecv::arrived(int j) {
  if (proc_null_) return true;
  if (!channel_ && !attach()) return false;
  publish();
  PartitionedChannel& ch = *channel_;
  // A mismatch is reported by the completion; nothing will arrive.
  if (ch.mismatch.load(std::memory_order_relaxed)) return true;
  const std::size_t pb = args_.partition_bytes;
  if (pb == 0) return true;
  const std::size_t first = static_cast<std::size_t>(j) * pb / ch.send_partition_bytes;
  const std::size_t last = ((static_cast<std::size_t>(j) + 1) * pb - 1) / ch.send_partition_bytes;
  for (std::size_t i = first; i <= last; ++i)
    if (!ch.in_place(static_cast<int>(i), round_, true, false)) return false;
  return true;
}

// ---- the requests ----

bool is_partitioned(const Request& r) {
  return r.kind == Request::Kind::operation &&
         (dynamic_cast<const PartitionedSend*>(r.op.get()) ||
          dynamic_cast<const PartitionedRecv*>(r.op.get()));
}

namespace {
Request* inactive(Endpoint& p2p, const Comm& user, int peer, int tag) {
  Request* r = p2p.new_request();
  r->kind = Request::Kind::operation;
  r->persistent = true;
  r->state = Request::State::inactive;
  r->comm = &user;
  r->peer = peer;
  r->tag = tag;
  return r;
}
}  // namespace

Request* partitioned_send(Endpoint& p2p, const Comm& twin, Parker& me, const void* buf,
                          std::size_t count, const TypeRef& type, int partitions, int dest,
                          int tag, const Comm& user) {
  const std::size_t per = count / static_cast<std::size_t>(partitions);
  auto channel = std::make_shared<PartitionedChannel>(partitions, per * type.type->size());
  channel->send_buf = buf;
  channel->send_count = count;
  channel->send_type = type;
  channel->sender = &me;
  Request* r = inactive(p2p, user, dest, tag);
  r->op = std::make_unique<PartitionedSend>(p2p, std::move(channel), twin, dest, tag);
  return r;
}

Request* partitioned_recv(Endpoint& p2p, const Comm& twin, Parker& me, PartitionedRecv::Args args,
                          int source_world, const Comm& user) {
  const int tag = args.tag;
  Request* r = inactive(p2p, user, source_world, tag);
  r->op = std::make_unique<PartitionedRecv>(p2p, me, std::move(args), twin, source_world);
  return r;
}

}  // namespace pure
