// Dropbox: the Sequenced Per-Thread Dropbox (SPTD) of one communicator,
// shared by its members (each member's Comm holds a shared_ptr).
//
// Every collective call is one or more *rounds*; each member counts its
// rounds on the communicator (Comm::next_round), and since members run the
// same collectives in the same order, round s means the same call everywhere.
//
// * Arrival lines: one cache line per member and per round parity. A member
//   fills line[s & 1] (arguments, a small inline payload or pointers to its
//   buffers) and then publishes it with a release store of s to its seq. Only
//   that member ever writes its lines: no counter that every thread hammers.
// * Release line (per parity) plus result buffers: written by the round's
//   single writer (the leader, communicator rank 0, or the root of a bcast or
//   reduce), published by a release store of s.
//
// Reuse rule (why two parities suffice). Every round ends, for every member,
// with a wait that covers all arrivals of the round: the writer waits for
// every member's arrival before it releases and everyone else waits for that
// release; with two members each waits for the other's arrival; a root that
// publishes pointers (scatter, large bcast) does so only after every
// arrival, so waiting for the root's arrival covers them too. A
// member reads others' lines and results of round s only before it arrives
// at round s+1. Hence when anyone passes round s+1, everyone has finished
// reading round s; so a member may overwrite its round-s line at round s+2,
// and the writer of round s+2 may overwrite the release line and result
// buffer of round s while combining, without waiting for the readers of its
// own round (the double buffering lets it leave right after releasing).
//
// Small bcasts and reduces, and every alltoall(v), do not use rounds: they
// go through the rings (ring.h), which keep several calls in flight.
//
// Two-member communicators have lines of their own (the "pair" lines below):
// one exchange per call, for the barrier, small allreduces and small
// alltoalls (pair.h).
//
// Wake-ups: whoever publishes something a member may be parked on wakes that
// member's Parker (wake below); the Dropbox keeps the members' Parkers, so a
// wake costs one load and the notify.

#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/cpu.h"
#include "base/parker.h"
#include "base/peers.h"
#include "collectives/call_log.h"
#include "collectives/meetings.h"
#include "collectives/ring.h"
#include "comm/comm.h"

namespace pure {

class Datatype;

namespace coll {
class Dropbox;
}

// Bytes of payload that travel inside an arrival or release line.
constexpr std::size_t kPayloadBytes = 48;

// Pointers a member publishes when its data is too big to travel inline.
// The member keeps every pointee alive until the round that ends its call.
struct Pointers {
  const void* in;
  void* out;
  const Datatype* type;
  const int* counts;
  const int* displs;
  std::int64_t count;
};

union Payload {
  unsigned char data[kPayloadBytes];
  Pointers p;
};

struct alignas(kCacheLine) Line {
  std::atomic<std::uint64_t> seq{0};
  // Arrival: a value the writer compares across members (a count or a byte
  // total). Release: 0, or the error class every member must report.
  std::int64_t check = 0;
  Payload payload{};
};
static_assert(sizeof(Line) == kCacheLine, "a dropbox line is exactly one cache line");
static_assert(alignof(Line) == kCacheLine, "dropbox lines start on a cache line");
static_assert(offsetof(Line, payload) % 16 == 0, "inline payload holds 16-byte types aligned");

// Two-member barrier: one line holding both members' sequence numbers.
// Sharing it is deliberate. When the members arrive together, the second
// gets the line with the first one's number already in it and its own
// store hits; with a line each, that store first takes its line back from
// the peer polling it (docs/perf-notes.md, "Two-member collectives", with
// bench/hw_floor.cpp's exchange over one line and over two).
struct alignas(kCacheLine) PairSeqLine {
  std::atomic<std::uint64_t> seq[2] = {0, 0};
};

// Two-member allreduce of up to kPairDataBytes: the same idea with data, one
// line per round parity, a half per member (pair.h, pair_exchange).
constexpr std::size_t kPairDataBytes = 16;
struct alignas(kCacheLine) PairDataLine {
  struct Half {
    std::atomic<std::uint64_t> seq{0};
    std::int64_t check = 0;
    unsigned char data[kPairDataBytes]{};
  };
  Half half[2];
};
static_assert(sizeof(PairDataLine) == kCacheLine, "both halves share one cache line");

struct Slot {
  Line line[2];  // by round parity
};
static_assert(sizeof(Slot) == 2 * kCacheLine, "a slot is two cache lines");

// Two-member communicators: where each member stages an allreduce input too
// big for its arrival line, by round parity (reduce.cpp, pair_reduce). Only
// the member itself writes its stage; the reuse rule is the arrival lines'.
constexpr std::size_t kPairStageBytes = 2048;
struct alignas(kCacheLine) PairStage {
  unsigned char data[kPairStageBytes];
};

// Where the members in this process of a new communicator spanning processes
// find its MPI side: the parent's leader fills `part` before the closing
// local bcast of the creation (net/hierarchical.cpp, split), after which the
// members read it.
struct RemoteSlot {
  std::shared_ptr<Comm::Part> part;
};

// What the leader hands each member when a communicator is created from this
// one (split, dup, create).
struct NewComm {
  int context = -1;  // -1: the member gets PURE_COMM_NULL
  GroupRef members;  // world ranks, in new rank order
  std::shared_ptr<coll::Dropbox> dropbox;
  // Filled when the members span processes (net/hierarchical.cpp); unused
  // otherwise.
  std::shared_ptr<RemoteSlot> remote_slot;
  // Members span processes: the MPI side, and the members in this process
  // (those `dropbox` serves).
  std::shared_ptr<Comm::Part> remote;
  GroupRef local_members;
};

namespace coll {

class Dropbox : public Comm::Part {
 public:
  // The Dropbox of `members`, every one of which lives in this process.
  Dropbox(const Group& members, const Peers& peers)
      : size_(members.size()),
        parkers_(static_cast<std::size_t>(members.size())),
        slots_(new Slot[static_cast<std::size_t>(size_)]),
        cursors_(new RingCursor[static_cast<std::size_t>(size_)]),
        reduce_ring_(new Line[static_cast<std::size_t>(size_) * kRingDepth]),
        pair_stage_(size_ == 2 ? new PairStage[4] : nullptr),
        a2a_cursors_(new AlltoallCursor[static_cast<std::size_t>(size_)]),
        call_logs_(new CallLog[static_cast<std::size_t>(size_)]) {
    for (int k = 0; k < size_; ++k)
      parkers_[static_cast<std::size_t>(k)] = &peers.parker_of_world(members.world_of(k));
  }
  ~Dropbox() override { delete[] a2a_ring_.load(std::memory_order_acquire); }
  Dropbox(const Dropbox&) = delete;
  Dropbox& operator=(const Dropbox&) = delete;

  int size() const { return size_; }
  // Wakes `member` (who may be parked on something we just published).
  void wake(int member) const { parkers_[static_cast<std::size_t>(member)]->notify(); }
  // The same for every member but `me`.
  void wake_others(int me) const {
    for (int k = 0; k < size_; ++k)
      if (k != me) wake(k);
  }
  Line& arrival(int member, std::uint64_t round) {
    return slots_[static_cast<std::size_t>(member)].line[round & 1];
  }
  Line& release(std::uint64_t round) { return release_[round & 1]; }
  PairSeqLine& pair_seq() { return pair_seq_; }
  PairDataLine& pair_data(std::uint64_t round) { return pair_data_[round & 1]; }
  // Two-member communicators only.
  unsigned char* pair_stage(int member, std::uint64_t round) {
    return pair_stage_[static_cast<std::size_t>(member) * 2 + (round & 1)].data;
  }
  // Ranks sharing cores: members that found themselves the last to arrive
  // at a round compete for being its writer here (Round::claim_writer).
  std::atomic<std::uint64_t>& writer_claim(std::uint64_t round) { return claims_[round & 1].seq; }
  // Written by the round's writer only (see the reuse rule above).
  std::vector<unsigned char>& result(std::uint64_t round) { return result_[round & 1]; }
  std::string& error(std::uint64_t round) { return error_[round & 1]; }
  // The last round of each parity that was released with an error (the
  // writer stores it before its release store): for barrier members, who do
  // not read the release line's check (Round::last_arrival_releases).
  std::atomic<std::uint64_t>& failed(std::uint64_t round) { return failed_[round & 1]; }
  std::vector<NewComm>& created(std::uint64_t round) { return created_[round & 1]; }

  // Rings (ring.h), by call number of the kind.
  RingCursor& cursor(int member) { return cursors_[static_cast<std::size_t>(member)]; }
  Line& bcast_slot(std::uint64_t call) { return bcast_ring_[call % kRingDepth]; }
  Line& reduce_slot(int member, std::uint64_t call) {
    return reduce_ring_[static_cast<std::size_t>(member) * kRingDepth + call % kRingDepth];
  }
  RingDone& reduce_done() { return reduce_done_; }
  AlltoallCursor& a2a_cursor(int member) { return a2a_cursors_[static_cast<std::size_t>(member)]; }
  // Nonblocking collectives that run in memory meet here (meetings.h).
  Meetings& meetings() { return meetings_; }
  // Which collective each member is in (call_log.h).
  CallLog& call_log(int member) { return call_logs_[static_cast<std::size_t>(member)]; }
  // Lines of the alltoall ring, sender-major then receiver then call; made
  // by whichever member gets here first (the others drop their copy).
  Line* a2a_ring() {
    Line* ring = a2a_ring_.load(std::memory_order_acquire);
    if (ring) return ring;
    const std::size_t n = static_cast<std::size_t>(size_);
    Line* made = new Line[n * n * kAlltoallDepth];
    if (a2a_ring_.compare_exchange_strong(ring, made, std::memory_order_acq_rel,
                                          std::memory_order_acquire))
      return made;
    delete[] made;
    return ring;
  }
  static Line& a2a_slot(Line* ring, int size, int sender, int receiver, std::uint64_t call) {
    return ring[(static_cast<std::size_t>(sender) * static_cast<std::size_t>(size) +
                 static_cast<std::size_t>(receiver)) *
                    kAlltoallDepth +
                call % kAlltoallDepth];
  }

 private:
  const int size_;
  std::vector<Parker*> parkers_;  // by member
  std::unique_ptr<Slot[]> slots_;
  Line release_[2];
  Line claims_[2];  // only .seq is used
  PairSeqLine pair_seq_;
  PairDataLine pair_data_[2];
  std::vector<unsigned char> result_[2];
  std::string error_[2];
  std::atomic<std::uint64_t> failed_[2] = {0, 0};
  std::vector<NewComm> created_[2];
  std::unique_ptr<RingCursor[]> cursors_;
  Line bcast_ring_[kRingDepth];
  std::unique_ptr<Line[]> reduce_ring_;  // member-major
  std::unique_ptr<PairStage[]> pair_stage_;  // member-major, then parity
  RingDone reduce_done_;
  std::unique_ptr<AlltoallCursor[]> a2a_cursors_;
  std::atomic<Line*> a2a_ring_{nullptr};
  std::unique_ptr<CallLog[]> call_logs_;
  Meetings meetings_;
};

// The Dropbox of a communicator (its collective Part).
inline Dropbox& dropbox(const Comm& comm) { return static_cast<Dropbox&>(comm.collective()); }

// The calling member of `comm` starts the collective `call` on it
// (call_log.h), on its local view when it spans processes: the members in
// this process compare their calls.
[[gnu::always_inline]] inline void record_call(const Comm& comm, const char* call) {
  if (comm.inter() || comm.size() == 1) return;
  const Comm& c = comm.spans_processes() ? comm.local() : comm;
  dropbox(c).call_log(c.rank()).record(call);
}

}  // namespace coll
}  // namespace pure
