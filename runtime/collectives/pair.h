// Two-member communicators: the barrier, the small allreduce and the small
// alltoall as inline code, for the flat API to compile into its own
// functions (always_inline: GCC otherwise keeps the exchange a call of its
// own).
//
// Why. With two members each of these collectives is one exchange over
// shared cache lines (dropbox.h, PairSeqLine and PairDataLine; ring.h for
// alltoall), and what decides the rest is the software between one call's
// exchange and the next: a member that has seen the peer's number returns,
// and its next store waits on everything it runs on the way. Inline, with
// one table lookup for the kernel (types/ops.h, dense_kernel), that is as
// little as it gets; docs/perf-notes.md ("Two-member collectives") has the
// measurements and the variants that lost.
//
// The protocol is the general code's own (reduce.cpp uses pair_exchange
// for every two-member reduction that fits a line, and Round::barrier the
// same PairSeqLine), so members may mix the inline and the general paths, as
// they do when one passes a derived datatype describing the same data.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "collectives/call_log.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "collectives/round.h"
#include "comm/comm.h"
#include "pure/pure.h"
#include "types/datatype.h"
#include "types/ops.h"

namespace pure::coll {

// The second half of pair_exchange, out of line (reduce.cpp): waits for
// the peer on both of its lines, checks its count and returns its data.
const unsigned char* pair_receive(Round& r, const void* in, std::size_t bytes);

// The two-member exchange (reduce.cpp's pair_reduce and pair_allreduce
// below): publishes `bytes` of `in` with check `bytes` and waits for the
// peer's; returns the peer's data. Up to kPairDataBytes it goes in our half of
// the round's PairDataLine, more on our arrival line; `in` nullptr: only the
// check goes on the line (a staged input is elsewhere).
//
// Inline is only what the usual call runs: publishing, and for data in the
// PairDataLine the tight spin on the peer's half, where a peer passing the same
// count publishes. Everything else (the wait loop, a peer on its arrival
// line, a mismatch) is pair_receive's.
[[gnu::always_inline]] inline const unsigned char* pair_exchange(Round& r, const void* in,
                                                                 std::size_t bytes) {
  const int me = r.me();
  const std::uint64_t s = r.seq();
  const std::int64_t ours = static_cast<std::int64_t>(bytes);
  PairDataLine& line = r.box().pair_data(s);
  const bool in_pair_line = in && bytes <= kPairDataBytes;
  if (in_pair_line) {
    PairDataLine::Half& h = line.half[me];
    h.check = ours;
    if (bytes > kPairDataBytes) __builtin_unreachable();  // so copy_fixed's 32 B case goes
    copy_fixed(h.data, in, bytes);
    h.seq.store(s, std::memory_order_release);
  } else {
    Line& mine = r.mine();
    mine.check = ours;
    if (in) copy_fixed(mine.payload.data, in, bytes);
    mine.seq.store(s, std::memory_order_release);
  }
  r.notify(1 - me);
  if (in_pair_line) {
    // Our release store of s pairs with the peer's acquire load of it, and
    // theirs with ours: the check and data written before are visible once
    // the seq is.
    const PairDataLine::Half& theirs = line.half[1 - me];
    if (r.spin_until([&] { return theirs.seq.load(std::memory_order_acquire) >= s; }) &&
        theirs.check == ours)
      return theirs.data;
  }
  return pair_receive(r, in, bytes);
}

// The allreduce of two members of one process on a predefined type and op,
// straight from the flat API's arguments: data that fits a line travels in
// it; bigger data, up to kPairStageBytes and below the partition threshold,
// goes through the members' stages, exactly as pair_reduce (reduce.cpp)
// does it, so that a member on the general path meets this one. Returns
// false, having done nothing, for anything else, including every argument
// the general path reports an error for (it then takes that path).
[[gnu::always_inline]] inline bool pair_allreduce(Member& member, Comm& comm, const void* send,
                                                  void* recv, int count, PURE_Datatype datatype,
                                                  PURE_Op op) {
  if (comm.size() != 2 || comm.spans_processes() || count <= 0 || !recv ||
      recv == PURE_IN_PLACE || !send)
    return false;
  const DenseKernel* k = dense_kernel(op, datatype);
  if (!k) return false;
  const std::size_t n = static_cast<std::size_t>(count);
  const std::size_t bytes = n * k->item;
  const bool staged = bytes > kPayloadBytes;
  if (staged && (bytes > kPairStageBytes || bytes >= member.shared().reduce_partition()))
    return false;
  // Inlined into a program that reduces one small object, GCC does not see
  // that the count rules out copy_fixed's bigger cases, and warns that they
  // overflow the object (-Wstringop-overflow). The empty asm hides where the
  // pointers came from; it emits nothing.
  asm("" : "+r"(recv), "+r"(send));
  const bool in_place = send == PURE_IN_PLACE;
  const void* in = in_place ? recv : send;
  record_call(comm, "pure_allreduce");
  Round r(member, comm, "pure_allreduce");
  const unsigned char* other;
  if (staged) {
    // Our stage is for the peer to read: as with our line, reading it back
    // would cost a transfer once the peer's reads took its lines over.
    std::memcpy(r.box().pair_stage(r.me(), r.seq()), in, bytes);
    pair_exchange(r, nullptr, bytes);
    other = r.box().pair_stage(1 - r.me(), r.seq());
  } else {
    other = pair_exchange(r, in, bytes);
  }
  // recv = in[0] op in[1], folded as everywhere else: acc = in[1], then
  // acc = in[0] op acc.
  if (r.me() == 1) {
    if (!in_place) copy_fixed(recv, in, bytes);
    k->kernel(other, recv, n);
  } else if (!in_place) {
    copy_fixed(recv, other, bytes);
    k->kernel(in, recv, n);
  } else {
    // In place, the output is our input: fold from a copy of it.
    alignas(16) unsigned char own[kPairStageBytes];
    copy_fixed(own, in, bytes);
    copy_fixed(recv, other, bytes);
    k->kernel(own, recv, n);
  }
  return true;
}

// The barrier of two members of one process; false for any other
// communicator.
[[gnu::always_inline]] inline bool pair_barrier(Member& member, Comm& comm, const char* call) {
  if (comm.size() != 2 || comm.spans_processes()) return false;
  record_call(comm, call);
  Round r(member, comm, call);
  r.pair_barrier();
  return true;
}

// What pair_alltoall does not do inline (movement.cpp): the peer's line
// did not carry exactly the block we expect (a count mismatch, or a block
// too big for a line, sent as pointers): receive it as the general path
// does, publish that our column is read, and report a mismatch.
void pair_alltoall_receive(Comm& comm, std::uint64_t t, void* dst,
                           std::size_t rcount, PURE_Datatype rtype);

// The alltoall of two members of one process whose blocks are contiguous
// predefined types that fit a line, straight from the flat API's
// arguments: the alltoall ring's protocol (ring.h) for two members, inline,
// so that a peer on the general path (a derived type describing the same
// data) meets it. Returns false, having done nothing, for anything else,
// including every argument the general path reports an error for.
[[gnu::always_inline]] inline bool pair_alltoall(Member& member, Comm& comm, const void* send,
                                                 int scount, PURE_Datatype stype, void* recv,
                                                 int rcount, PURE_Datatype rtype) {
  if (comm.size() != 2 || comm.spans_processes() || !send || send == PURE_IN_PLACE || !recv ||
      recv == PURE_IN_PLACE || scount < 0 || rcount < 0)
    return false;
  const std::size_t ssize = dense_type_size(stype);
  const std::size_t rsize = dense_type_size(rtype);
  if (ssize == 0 || rsize == 0) return false;
  const std::size_t bytes = static_cast<std::size_t>(scount) * ssize;
  // Our own block goes from us to us: its send and receive sizes must
  // agree, and the general path says so when they do not.
  if (bytes > kPayloadBytes || bytes != static_cast<std::size_t>(rcount) * rsize) return false;
  asm("" : "+r"(recv), "+r"(send));  // see pair_allreduce
  record_call(comm, "pure_alltoall");
  const int me = comm.rank();
  const int peer = 1 - me;
  Dropbox& box = dropbox(comm);
  AlltoallCursor& cursor = box.a2a_cursor(me);
  Line* ring = box.a2a_ring();
  const std::uint64_t t = ++cursor.calls;
  const unsigned char* from = static_cast<const unsigned char*>(send);
  unsigned char* to = static_cast<unsigned char*>(recv);
  // Our line of call t was last read at call t - 2, long done (ring.h).
  Line& out = Dropbox::a2a_slot(ring, 2, me, peer, t);
  out.check = static_cast<std::int64_t>(bytes);
  copy_fixed(out.payload.data, from + static_cast<std::size_t>(peer) * bytes, bytes);
  out.seq.store(t, std::memory_order_release);
  box.wake(peer);
  copy_fixed(to + static_cast<std::size_t>(me) * bytes, from + static_cast<std::size_t>(me) * bytes,
             bytes);
  // The peer's release store of t pairs with our acquire load: its check
  // and block are visible once t is.
  Line& in = Dropbox::a2a_slot(ring, 2, peer, me, t);
  auto arrived = [&] { return in.seq.load(std::memory_order_acquire) >= t; };
  member.wait_until(arrived, collective_site("pure_alltoall", peer, comm), kWaitTight);
  if (in.check != static_cast<std::int64_t>(bytes)) {
    pair_alltoall_receive(comm, t, to + static_cast<std::size_t>(peer) * bytes,
                          static_cast<std::size_t>(rcount), rtype);
    return true;
  }
  copy_fixed(to + static_cast<std::size_t>(peer) * bytes, in.payload.data, bytes);
  // As the general path: our line of call t+1 is that of call t-1, whose
  // reader is done; take it exclusive ahead of the next call's store. Then
  // say our column of call t is read (only a sender of pointers waits for
  // that, and the peer sent none; the release pairs with the acquire load
  // in its wait, movement.cpp's wait_read).
  prefetch_for_write(&Dropbox::a2a_slot(ring, 2, me, peer, t + 1));
  cursor.read.store(t, std::memory_order_release);
  return true;
}

}  // namespace pure::coll
