// Two-member communicators: the barrier, the small allreduce and the small
// alltoall as inline code, for the flat API to compile into its own
// functions (always_inline: GCC otherwise keeps the exchange a call of its
// own, see below).
//
// Why. With two members each of these collectives is one exchange over
// shared cache lines (dropbox.h, PairLine and DuoLine; ring.h for alltoall), about 30 ns on the 2-core
// test machine (tools/bench.sh floor), and what decides the rest is the
// software between one call's exchange and the next: a member that has
// seen the peer's number returns, and its next store waits on everything
// it runs on the way. Through the general code (the Round's out-of-line
// barrier, an exchange function that serves every size and path, a lookup
// of the datatype and then of the kernel, copies through calls) that was
// 0.049-0.058 us for the barrier and 0.063-0.071 us for the 8 B allreduce;
// inline, with one table lookup for the kernel, 0.029-0.045 and
// 0.041-0.058 us (alternating runs of a 2-rank loop of 100000 calls, best
// of 15; the spread is this VM's phases). In tools/bench.sh coll: barrier
// 0.056 -> 0.032-0.039 us, 8 B allreduce 0.074 -> 0.050-0.054 us, and the
// 8 B alltoall, through the general ring code 0.136 us, 0.049-0.053 us.
//
// Tried: the allreduce on one line for every round, with a data slot per
// round parity in each half (as the barrier's PairLine, which beats two
// alternating lines, 0.037-0.046 against 0.047-0.052 us): slower, 0.063-0.070
// against 0.044-0.050 us. Asking for the next round's DuoLine exclusive
// (prefetchw) once the peer's data is read: no gain (0.047-0.056 against
// 0.042-0.061).
//
// The protocol is the general code's own (reduce.cpp uses pair_exchange
// for every two-member reduction that fits a line, and Round::barrier the
// same PairLine), so members may mix the inline and the general paths, as
// they do when one passes a derived datatype describing the same data.
#pragma once

#include <array>
#include <cstdint>

#include "collectives/dropbox.h"
#include "types/ops.h"
#include "collectives/round.h"
#include "comm/comm.h"
#include "types/datatype.h"
#include "pure/pure.h"
#include "job/rank.h"

namespace pure::coll {

// A predefined op's kernel on a predefined datatype whose elements are its
// dense items (every basic type; not the MINLOC/MAXLOC pair types, whose
// records are packed): `item` bytes each. kernel is nullptr where that does
// not hold or MPI does not define the op on the type.
struct PairKernel {
  Kernel kernel = nullptr;
  std::uint32_t item = 0;
};
constexpr int kPairKernelTypes = 64;  // predefined datatype handle indices
using PairKernelTable = std::array<std::array<PairKernel, kPairKernelTypes>, op_maxloc + 1>;
extern const PairKernelTable pair_kernels;  // ops.cpp

// The index of a predefined datatype handle in the tables below, or -1 for
// a derived type or a handle that is not valid at all.
inline int pair_type_index(PURE_Datatype type) {
  constexpr int kIndex = 0x00FFFFFF;
  const int t = type & kIndex;
  return (type & ~kIndex) == PURE_HANDLE_KIND_DATATYPE && t < kPairKernelTypes ? t : -1;
}

// Bytes of one element of each predefined datatype whose elements lie back
// to back with nothing between or before them (size == extent, lb 0): a
// block of count elements is count * size bytes at count * size * index.
// 0 for the others (the MINLOC/MAXLOC pair types, which have padding).
extern const std::array<std::uint32_t, kPairKernelTypes> pair_type_sizes;  // ops.cpp

// The size for a datatype handle, or 0 for a derived type, a pair type or
// a handle that is not valid at all.
inline std::size_t pair_type_size(PURE_Datatype type) {
  const int t = pair_type_index(type);
  return t < 0 ? 0 : pair_type_sizes[static_cast<std::size_t>(t)];
}

// The entry for an op handle and a datatype handle, or nullptr for a user
// op, a derived type, or a handle that is not valid at all.
inline const PairKernel* pair_kernel(PURE_Op op, PURE_Datatype type) {
  constexpr int kIndex = 0x00FFFFFF;
  const int o = op & kIndex;
  const int t = pair_type_index(type);
  if ((op & ~kIndex) != PURE_HANDLE_KIND_OP || o < op_max || o > op_maxloc || t < 0)
    return nullptr;
  const PairKernel& k = pair_kernels[static_cast<std::size_t>(o)][static_cast<std::size_t>(t)];
  return k.kernel ? &k : nullptr;
}

// The second half of pair_exchange, out of line (reduce.cpp): waits for
// the peer on both of its lines, checks its count and returns its data.
const unsigned char* pair_receive(Round& r, const void* in, std::size_t bytes);

// The two-member exchange (reduce.cpp's two_members and pair_allreduce
// below): publishes `bytes` of `in` with check `bytes` and waits for the
// peer's; returns the peer's data. Up to kDuoBytes it goes in our half of
// the round's DuoLine, more on our arrival line; `in` nullptr: only the
// check goes on the line (a staged input is elsewhere).
//
// Inline is only what the usual call runs: publishing, and for data in the
// DuoLine the tight spin on the peer's half, where a peer passing the same
// count publishes. Everything else (the wait loop, a peer on its arrival
// line, a mismatch) is pair_receive's.
[[gnu::always_inline]] inline const unsigned char* pair_exchange(Round& r, const void* in,
                                                                 std::size_t bytes) {
  const int me = r.me();
  const std::uint64_t s = r.seq();
  const std::int64_t ours = static_cast<std::int64_t>(bytes);
  DuoLine& duo = r.box().duo(s);
  const bool in_duo = in && bytes <= kDuoBytes;
  if (in_duo) {
    DuoLine::Half& h = duo.half[me];
    h.check = ours;
    if (bytes > kDuoBytes) __builtin_unreachable();  // so copy_fixed's 32 B case goes
    copy_fixed(h.data, in, bytes);
    h.seq.store(s, std::memory_order_release);
  } else {
    Line& mine = r.mine();
    mine.check = ours;
    if (in) copy_fixed(mine.payload.data, in, bytes);
    mine.seq.store(s, std::memory_order_release);
  }
  r.notify(1 - me);
  if (in_duo) {
    // Our release store of s pairs with the peer's acquire load of it, and
    // theirs with ours: the check and data written before are visible once
    // the seq is.
    const DuoLine::Half& theirs = duo.half[1 - me];
    if (r.spin_until([&] { return theirs.seq.load(std::memory_order_acquire) >= s; }) &&
        theirs.check == ours)
      return theirs.data;
  }
  return pair_receive(r, in, bytes);
}

// The allreduce of two members of one process on a predefined type and op
// whose data fits a line, straight from the flat API's arguments. Returns
// false, having done nothing, for anything else, including every argument
// the general path reports an error for (it then takes that path).
[[gnu::always_inline]] inline bool pair_allreduce(Rank& rank, Comm& comm, const void* send,
                                                  void* recv, int count, PURE_Datatype datatype,
                                                  PURE_Op op) {
  if (comm.size() != 2 || comm.net() || count <= 0 || !recv || recv == PURE_IN_PLACE || !send)
    return false;
  const PairKernel* k = pair_kernel(op, datatype);
  if (!k) return false;
  const std::size_t n = static_cast<std::size_t>(count);
  const std::size_t bytes = n * k->item;
  if (bytes > kPayloadBytes) return false;
  // Inlined into a program that reduces one small object, GCC does not see
  // that the count rules out copy_fixed's bigger cases, and warns that they
  // overflow the object (-Wstringop-overflow). The empty asm hides where the
  // pointers came from; it emits nothing.
  asm("" : "+r"(recv), "+r"(send));
  const bool in_place = send == PURE_IN_PLACE;
  const void* in = in_place ? recv : send;
  Round r(rank, comm, "pure_allreduce");
  const unsigned char* other = pair_exchange(r, in, bytes);
  // recv = in[0] op in[1], folded as everywhere else: acc = in[1], then
  // acc = in[0] op acc.
  if (r.me() == 1) {
    if (!in_place) copy_fixed(recv, in, bytes);
    k->kernel(other, recv, n);
  } else if (!in_place) {
    copy_fixed(recv, other, bytes);
    k->kernel(in, recv, n);
  } else {
    alignas(16) unsigned char own[kPayloadBytes];
    copy_fixed(own, in, bytes);
    copy_fixed(recv, other, bytes);
    k->kernel(own, recv, n);
  }
  return true;
}

// The barrier of two members of one process; false for any other
// communicator.
[[gnu::always_inline]] inline bool pair_barrier(Rank& rank, Comm& comm, const char* call) {
  if (comm.size() != 2 || comm.net()) return false;
  Round r(rank, comm, call);
  r.pair_barrier();
  return true;
}

// What pair_alltoall does not do inline (movement.cpp): the peer's line
// did not carry exactly the block we expect (a count mismatch, or a block
// too big for a line, sent as pointers): receive it as the general path
// does, publish that our column is read, and report a mismatch.
void pair_alltoall_receive(Rank& rank, Comm& comm, std::uint64_t t, void* dst,
                           std::size_t rcount, PURE_Datatype rtype);

// The alltoall of two members of one process whose blocks are contiguous
// predefined types that fit a line, straight from the flat API's
// arguments: the alltoall ring's protocol (ring.h) for two members, inline,
// so that a peer on the general path (a derived type describing the same
// data) meets it. Returns false, having done nothing, for anything else,
// including every argument the general path reports an error for.
[[gnu::always_inline]] inline bool pair_alltoall(Rank& rank, Comm& comm, const void* send,
                                                 int scount, PURE_Datatype stype, void* recv,
                                                 int rcount, PURE_Datatype rtype) {
  if (comm.size() != 2 || comm.net() || !send || send == PURE_IN_PLACE || !recv ||
      recv == PURE_IN_PLACE || scount < 0 || rcount < 0)
    return false;
  const std::size_t ssize = pair_type_size(stype);
  const std::size_t rsize = pair_type_size(rtype);
  if (ssize == 0 || rsize == 0) return false;
  const std::size_t bytes = static_cast<std::size_t>(scount) * ssize;
  // Our own block goes from us to us: its send and receive sizes must
  // agree, and the general path says so when they do not.
  if (bytes > kPayloadBytes || bytes != static_cast<std::size_t>(rcount) * rsize) return false;
  asm("" : "+r"(recv), "+r"(send));  // see pair_allreduce
  const int me = comm.rank();
  const int peer = 1 - me;
  Dropbox& box = comm.dropbox();
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
  wake_member(rank, comm, peer);
  copy_fixed(to + static_cast<std::size_t>(me) * bytes, from + static_cast<std::size_t>(me) * bytes,
             bytes);
  // The peer's release store of t pairs with our acquire load: its check
  // and block are visible once t is.
  Line& in = Dropbox::a2a_slot(ring, 2, peer, me, t);
  auto arrived = [&] { return in.seq.load(std::memory_order_acquire) >= t; };
  if (!spin_until(rank, arrived)) rank.wait_until(arrived, WaitSite{"pure_alltoall", peer, -1});
  if (in.check != static_cast<std::int64_t>(bytes)) {
    pair_alltoall_receive(rank, comm, t, to + static_cast<std::size_t>(peer) * bytes,
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
