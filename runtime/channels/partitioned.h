// Partitioned communication (MPI-4: pure_psend_init, pure_precv_init,
// pure_pready, pure_parrived) between two ranks of one process.
//
// Matching. Each init sends or posts one small message on the
// communicator's hidden schedule twin (Comm::schedule_comm), with the tag
// -2 - tag, which no collective schedule and no user message uses: the
// sender's message carries the address of a PartitionedChannel it made,
// the receiver's receive takes it. So inits match in the order MPI gives
// them: per source, tag and communicator, in the order they were called.
//
// Known limit: a receive freed before its sender's message came cancels
// its posted receive, so that message stays unreceived, and a later
// partitioned receive of the same source, tag and communicator takes it
// (it then waits for a sender that is gone: a deadlock report, not wrong
// data). Pairs freed without a start, then re-made on the same tag, meet
// it; counting inits per source and tag on both sides would close it.
//
// Rounds. Every pure_start on either side begins that side's next round
// (1, 2, ...); round r of the sender pairs with round r of the receiver.
// The sender's buffer is read, and the receiver's written, only within a
// round both sides have started. A send partition is copied once per round
// into the receiver's buffer, by whichever side finds it both marked ready
// (pready) and the receiver's round started:
//   sender, pready(i):   ready[i] = r (seq_cst); if recv_round >= r: copy i
//   receiver, start (r): recv_round = r (seq_cst); every i with ready[i] == r: copy i
// The seq_cst store-then-load on each side (Dekker's pattern) makes at
// least one of them see the other; the claim (a compare-and-swap of
// claimed[i] from r - 1 to r) makes exactly one of them copy. copied[i] = r
// is stored with release after the bytes and read with acquire by
// pure_parrived and by either side's completion. Partitions of the two
// sides may differ in number; they cut the same packed bytes, so a
// receive partition has arrived once every send partition overlapping it
// was copied.
//
// A round completes for the sender when every partition was copied (its
// buffer may be reused), for the receiver when every byte arrived. Each
// copier wakes the other side's rank, which may be parked waiting.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/parker.h"
#include "channels/endpoint.h"
#include "channels/request.h"

namespace pure {

class Comm;

// What the two sides of one partitioned pair share.
struct PartitionedChannel {
  struct alignas(64) Partition {
    std::atomic<std::uint64_t> ready{0};    // the sender's round that marked it
    std::atomic<std::uint64_t> claimed{0};  // the round whose copy was claimed
    std::atomic<std::uint64_t> copied{0};   // the round whose copy is complete
  };
  PartitionedChannel(int partitions, std::size_t partition_bytes)
      : send_partitions(partitions),
        send_partition_bytes(partition_bytes),
        parts(new Partition[static_cast<std::size_t>(partitions)]) {}

  // The sender's side, fixed at its init.
  const void* send_buf = nullptr;
  std::size_t send_count = 0;  // elements in all partitions
  TypeRef send_type;
  int send_partitions;
  std::size_t send_partition_bytes;
  Parker* sender = nullptr;
  // The receiver's side, set once by the receiver before its first
  // recv_round store (which publishes it).
  void* recv_buf = nullptr;
  std::size_t recv_count = 0;
  TypeRef recv_type;
  Parker* receiver = nullptr;
  // What the sender's init sends: the address of a heap-held reference to
  // this channel, which the receiver takes over (so the channel outlives a
  // sender that frees its request first).
  std::uintptr_t handoff = 0;
  // The receiver's rounds started (seq_cst, see the header). Its buffer
  // must hold exactly the sender's bytes; otherwise `mismatch` is set
  // (release) with recv_round, and neither side copies.
  std::atomic<std::uint64_t> recv_round{0};
  std::atomic<bool> mismatch{false};
  std::unique_ptr<Partition[]> parts;

  std::size_t bytes() const { return send_partition_bytes * static_cast<std::size_t>(send_partitions); }
  // Copies send partition i of round r if nobody has (the claim); wakes the
  // side that did not copy.
  void copy(int i, std::uint64_t r, bool by_sender);
  // Whether send partition i of round r is in the receiver's buffer; when
  // it is not but is marked ready, and `may_copy` (the receive of round r
  // started), copies it first. Every wait and pure_parrived asks this.
  bool in_place(int i, std::uint64_t r, bool may_copy, bool by_sender);
};

// The sender's request of a partitioned pair.
class PartitionedSend final : public Operation {
 public:
  // Sends the channel to `dest` on `twin` (no channel for PURE_PROC_NULL).
  PartitionedSend(Endpoint& p2p, std::shared_ptr<PartitionedChannel> channel, const Comm& twin,
                  int dest, int tag);
  ~PartitionedSend() override;
  void start(Request& r) override;
  bool advance(Request& r) override;
  bool needs_progress() const override { return false; }
  std::string error_text() const override { return why_; }

  // pure_pready of partition i: the caller checked the request is running
  // and i is in range. False when i was marked ready already in this round.
  bool ready(int i);
  int partitions() const { return partitions_; }

 private:
  Endpoint& p2p_;
  std::shared_ptr<PartitionedChannel> channel_;  // sent nowhere towards PURE_PROC_NULL
  int partitions_;
  bool proc_null_;
  Request* setup_ = nullptr;  // the send of the channel's address
  std::uint64_t round_ = 0;
  int done_ = 0;  // partitions 0 .. done_-1 are copied in this round
  std::string why_;
};

// The receiver's request of a partitioned pair.
class PartitionedRecv final : public Operation {
 public:
  struct Args {
    void* buf;
    std::size_t count;  // elements in all partitions
    TypeRef type;
    int partitions;
    std::size_t partition_bytes;
    int source;  // in the communicator, for the status
    int tag;
  };
  // Posts the receive of the sender's channel from `source_world` on
  // `twin` (nothing for PURE_PROC_NULL).
  PartitionedRecv(Endpoint& p2p, Parker& me, Args args, const Comm& twin, int source_world);
  ~PartitionedRecv() override;
  void start(Request& r) override;
  bool advance(Request& r) override;
  // Until matched, the rank's progress must take the sender's channel and
  // publish the round, or a sender waiting for its copies would wait for
  // good while this rank blocks elsewhere.
  bool needs_progress() const override { return !channel_; }
  std::string error_text() const override { return why_; }

  // pure_parrived of partition j (in range; the request is running).
  bool arrived(int j);
  // Whether the sender's channel came (the setup receive matched); until
  // then only the rank's progress can match it.
  bool matched() const { return proc_null_ || channel_ != nullptr; }
  int partitions() const { return args_.partitions; }

 private:
  // Takes the channel once the setup receive matched; publishes the round
  // when one was started meanwhile.
  bool attach();
  void publish();

  Endpoint& p2p_;
  Parker& me_;
  Args args_;
  bool proc_null_;
  Request* setup_ = nullptr;  // the receive of the channel's address
  std::uintptr_t handoff_ = 0;  // what it receives
  std::shared_ptr<PartitionedChannel> channel_;
  std::uint64_t round_ = 0;
  std::uint64_t published_ = 0;
  int done_ = 0;  // send partitions 0 .. done_-1 are copied in this round
  std::string why_;
};

// Whether `r` is one of a partitioned pair (what MPI forbids freeing or
// cancelling while active).
bool is_partitioned(const Request& r);

// The inactive requests: a send whose channel is on its way to `dest` (a
// world rank of this process, or PURE_PROC_NULL), and a receive posted for
// one from `source_world`. `twin` is the user communicator's schedule twin
// (the header); `user` the communicator the requests report errors on.
Request* partitioned_send(Endpoint& p2p, const Comm& twin, Parker& me, const void* buf,
                          std::size_t count, const TypeRef& type, int partitions, int dest,
                          int tag, const Comm& user);
Request* partitioned_recv(Endpoint& p2p, const Comm& twin, Parker& me, PartitionedRecv::Args args,
                          int source_world, const Comm& user);

}  // namespace pure
