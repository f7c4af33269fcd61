// Reductions: reduce, allreduce, scan, exscan, reduce_scatter(_block).
//
// Order: every path folds the inputs right to left in rank order,
//   acc = in[hi]; acc = in[k] op acc for k = hi-1 .. lo,
// which is the MPI order for non-commutative ops (user functions compute
// inout = in op inout) and gives the same floating-point result on every
// path and every member.
//
// Paths for reduce/allreduce, chosen identically on every member (from the
// byte count, the op and the communicator size, which MPI makes agree):
// * reduce (with a root) whose data fits a line (kPayloadBytes), any op:
//   the ring (ring.h). The others leave once their input is in their ring
//   slot; the root folds the slots in rank order;
// * two members, predefined op, contiguous data that fits a line
//   (pair_reduce): each publishes its data and reads the other's, one
//   exchange. Up to kPairDataBytes both use one shared line, else their
//   arrival lines. With a predefined type the flat API goes straight to
//   pair_allreduce (pair.h), the same exchange inline, without a
//   Reduction;
// * allreduce of two members, predefined op, contiguous data up to
//   kPairStageBytes (2 KiB) and below the partition threshold: the same
//   exchange, with each member's data copied to its stage in the Dropbox
//   (at 4 KiB the partitioned reducer wins); with a predefined type the
//   flat API takes it inline too (pair_allreduce);
// * below the partition threshold (resolve_partition below), or any user
//   op: flat combining, the writer (the root, or the leader for allreduce)
//   folds everything; allreduce results go to the release line or a result
//   buffer that members copy out;
// * from the threshold on: the partitioned reducer. Every member folds one
//   cache-line-aligned slice of all inputs, straight from the others'
//   buffers, and writes it into every output (allreduce) or the root's. It
//   costs a second round (the closing barrier) and saves the writer's
//   serial fold and the members' copy-out.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "collectives/collectives.h"
#include "collectives/pair.h"
#include "collectives/ring_reduce.h"
#include "collectives/round.h"
#include "pure/run.hpp"

namespace pure::coll {

namespace {

// Items per chunk of the partitioned reducer: the accumulator stays in L1.
constexpr std::size_t kChunkBytes = 8192;

// PURE_REDUCE_PARTITION=auto: where the partitioned reducer starts to beat
// flat combining, measured with tools/bench.sh coll --threshold
// (docs/perf-notes.md has the figures). With a core per rank its extra round
// is one cache-line exchange; with ranks sharing cores every round costs
// switches (context switches as threads, cheaper fiber switches as fibers),
// so the crossover moves up.
constexpr std::size_t kPartitionOwnCores = 2048;
constexpr std::size_t kPartitionSharedCores = 128 << 10;
constexpr std::size_t kPartitionFibers = 32 << 10;


// acc (a view of n items) = ins[hi] op ... op ins[lo] over items [first, first+n).
void fold(const Reduction& red, const void* const* ins, int lo, int hi, std::size_t first,
          std::size_t n, void* acc) {
  red.copy(red.at(ins[hi], first), acc, n);
  for (int k = hi - 1; k >= lo; --k) red.combine(red.at(ins[k], first), acc, n);
}


// The writer's check of what every member published, against member 0 (so
// the message is the same whoever writes).
void check_members(Round& r, const char* what) {
  const std::int64_t first = r.of(0).check;
  for (int k = 1; k < r.size(); ++k) {
    if (r.of(k).check != first)
      r.release_error(PURE_ERR_COUNT,
                      count_mismatch(what, k, r.of(k).check, 0, static_cast<long long>(first)));
  }
}

void local_copy(const ReduceArgs& a) {
  if (a.send && a.count != 0)
    copy_range(a.send, a.count, *a.type, a.recv, a.count, *a.type, 0, a.count * a.type->size());
}

}  // namespace

std::string count_mismatch(const char* what, int member, long long bytes, int writer,
                     long long writer_bytes) {
  return std::string(what) + " mismatch: rank " + std::to_string(member) + " passes " +
         std::to_string(check_bytes(bytes)) + " bytes of data but rank " +
         std::to_string(writer) + " passes " + std::to_string(check_bytes(writer_bytes)) +
         " (every rank must pass the same count and datatype)";
}

Slice partition_slice(const Reduction& red, int n, int me) {
  // Slices start on cache-line boundaries (for line-aligned buffers) so no
  // two members write the same line of an output.
  const std::size_t per_line = std::max<std::size_t>(1, kCacheLine / red.stride());
  std::size_t slice = (red.items() + static_cast<std::size_t>(n) - 1) / static_cast<std::size_t>(n);
  slice = (slice + per_line - 1) / per_line * per_line;
  const std::size_t begin = std::min(red.items(), slice * static_cast<std::size_t>(me));
  return Slice{begin, std::min(red.items(), begin + slice)};
}

void fold_slice(const Reduction& red, const void* const* ins, int n, void* const* outs, int nouts,
                Slice s, std::vector<unsigned char>& storage) {
  if (s.end <= s.begin) return;
  const std::size_t stride = red.stride();
  const std::size_t per_line = std::max<std::size_t>(1, kCacheLine / stride);
  const std::size_t chunk = std::max<std::size_t>(per_line, kChunkBytes / stride);
  // The accumulator starts on a cache line, as the slices do (predefined
  // ops only: its items are dense).
  storage.resize(std::min(chunk, s.end - s.begin) * stride + kCacheLine);
  void* acc = storage.data() + (kCacheLine - reinterpret_cast<std::uintptr_t>(storage.data()) %
                                                kCacheLine) % kCacheLine;
  for (std::size_t at = s.begin; at < s.end; at += chunk) {
    const std::size_t m = std::min(chunk, s.end - at);
    fold(red, ins, 0, n - 1, at, m, acc);
    // In place, an output is also an input: slice items are read (above)
    // before they are written, and only this member touches this slice.
    for (int k = 0; k < nouts; ++k) std::memcpy(red.at(outs[k], at - s.begin), acc, m * stride);
  }
}

// A peer whose count sent it down another path arrives on the other line,
// or on its arrival line for flat combining or the partitioned reducer: we
// look at both, and both members report the mismatch. Our own line is not
// read again after publishing: the peer's read may take it over (a
// migratory line), and reading it back would cost one more transfer
// (docs/perf-notes.md, "Two-member collectives").
const unsigned char* pair_receive(Round& r, const void* in, std::size_t bytes) {
  const int me = r.me();
  const int peer = 1 - me;
  const std::uint64_t s = r.seq();
  const std::int64_t ours = static_cast<std::int64_t>(bytes);
  const bool in_pair_line = in && bytes <= kPairDataBytes;
  // Our release store of s (half or line) pairs with the peer's acquire
  // loads below, and theirs with ours.
  const PairDataLine::Half& their_half = r.box().pair_data(s).half[peer];
  const Line& their_line = r.of(peer);
  bool peer_pair_line = false;
  r.wait_for(
      [&] {
        peer_pair_line = their_half.seq.load(std::memory_order_acquire) >= s;
        return peer_pair_line || their_line.seq.load(std::memory_order_acquire) >= s;
      },
      peer);
  const std::int64_t theirs = peer_pair_line ? their_half.check : their_line.check;
  if (theirs != ours) {  // the same words on both members
    if (in_pair_line) {  // a peer on its arrival line looks for our check there
      Line& mine = r.mine();
      mine.check = ours;
      mine.seq.store(s, std::memory_order_release);
      r.notify(peer);
    }
    const std::int64_t c0 = me == 0 ? ours : theirs;
    const std::int64_t c1 = me == 0 ? theirs : ours;
    const std::string message = count_mismatch("count", 1, c1, 0, c0);
    // The peer's count may have sent it down a path with a writer (member
    // 0) whose release it waits for: as member 0, release the error.
    if (me == 0) r.release_error(PURE_ERR_COUNT, message);
    fail_disagreement(r.comm(), PURE_ERR_COUNT, message);
  }
  // Our arrival line of the next round (the other parity): nobody reads it
  // before we publish it again, so ask for it exclusive now, and that store
  // will not wait for the line to come back from the peer. Not for staged
  // inputs, where it measured slower (docs/perf-notes.md).
  if (in && !in_pair_line) prefetch_for_write(&r.box().arrival(me, s + 1));
  return peer_pair_line ? their_half.data : their_line.payload.data;
}

namespace {

// Two members, predefined op, contiguous data: one exchange (above). Data
// that fits a line travels in it; bigger data (allreduce only, up to
// kPairStageBytes) is first copied to our stage in the Dropbox, and each
// member then folds straight from the other's stage: one exchange, where
// flat combining needs two (up to the writer, then back) and a copy-out.
void pair_reduce(Member& member, Comm& comm, const ReduceArgs& a, const Reduction& red, int root) {
  Round r(member, comm, a.call);
  const std::size_t bytes = red.bytes();
  const void* in = red.input_view(a.send ? a.send : a.recv, member.input);
  const bool staged = bytes > kPayloadBytes;
  if (staged) {
    // Inlined (LTO) into a program that reduces one small object, GCC does
    // not see that this branch needs bigger data, and warns that the copy
    // overreads the object (-Wstringop-overread). The empty asm hides where
    // the pointer came from; it emits nothing.
    asm("" : "+r"(in));
    std::memcpy(r.box().pair_stage(r.me(), r.seq()), in, bytes);
  }
  const void* other = pair_exchange(r, staged ? nullptr : in, bytes);
  if (staged) other = r.box().pair_stage(1 - r.me(), r.seq());
  if (root >= 0 && r.me() != root) return;
  // Our own line or stage is not read back (see pair_exchange). In
  // place, the output is our input: fold from a copy of it.
  alignas(16) unsigned char own[kPairStageBytes];
  if (!a.send) std::memcpy(own, in, bytes);
  const void* ins[2];
  ins[r.me()] = a.send ? in : own;
  ins[1 - r.me()] = other;
  fold(red, ins, 0, 1, 0, red.items(), red.output_view(a.recv, member.output));
}

void flat_combining(Member& member, Comm& comm, const ReduceArgs& a, const Reduction& red,
                    int root) {
  Round r(member, comm, a.call);
  Member& scratch = member;
  const bool inline_data = !red.user() && red.bytes() <= kPayloadBytes;
  const void* in = red.input_view(a.send ? a.send : a.recv, scratch.input);
  Line& mine = r.mine();
  mine.check = inline_data ? static_cast<std::int64_t>(red.bytes()) : r.tagged(red.bytes());
  if (inline_data) {
    std::memcpy(mine.payload.data, in, red.bytes());
  } else {
    mine.payload.p.in = in;
  }
  const int writer = root >= 0 ? root : 0;
  // Ranks sharing cores: the last to arrive at an allreduce folds it, so
  // nobody waits for the leader to be scheduled after the last arrival.
  const bool last_writes = root < 0 && !member.own_core();
  bool writing;
  if (last_writes) {
    writing = r.claim_writer();
  } else {
    r.arrive(writer);
    writing = r.me() == writer;
  }
  if (writing) {
    if (!last_writes) r.wait_all(r.seq());
    check_members(r, "count");
    std::vector<const void*> ins(static_cast<std::size_t>(r.size()));
    for (int k = 0; k < r.size(); ++k)
      ins[static_cast<std::size_t>(k)] =
          inline_data ? static_cast<const void*>(r.of(k).payload.data) : r.of(k).payload.p.in;
    if (root >= 0) {
      // Only the root needs the result: fold privately, then let the others go.
      void* acc = red.buffer(scratch.acc, red.items());
      fold(red, ins.data(), 0, r.size() - 1, 0, red.items(), acc);
      r.release();
      red.deliver(acc, a.recv);
      return;
    }
    // The writer waited for every arrival of this round, so nobody still
    // reads the release line or result buffer of round s-2 (same parity).
    void* result = inline_data ? static_cast<void*>(r.release_line().payload.data)
                               : red.buffer(r.box().result(r.seq()), red.items());
    fold(red, ins.data(), 0, r.size() - 1, 0, red.items(), result);
    r.release();
    red.deliver(result, a.recv);
    return;
  }
  r.wait_release();
  if (root >= 0) return;
  const void* result = inline_data ? static_cast<const void*>(r.release_line().payload.data)
                                   : red.view_of(r.box().result(r.seq()));
  red.deliver(result, a.recv);
}

}  // namespace

// Reduce with a root, small enough for a ring slot (ring.h): the others copy
// their input into their slot and leave; the root folds the slots in rank
// order and then tells the others their slots are free again. The
// contributor's half is inline (ring_reduce.h), for the flat API's path
// without a Reduction; these are the parts it calls.

void ring_wait_space(Member& member, Comm& comm, const char* call, int root, std::uint64_t t) {
  Dropbox& box = dropbox(comm);
  RingCursor& cursor = box.cursor(comm.rank());
  RingDone& done = box.reduce_done();
  const std::uint64_t need = t - kRingDepth;
  std::uint64_t seen = done.reduce_done.load(std::memory_order_acquire);
  if (seen < need) {
    // Count ourselves before the wait loop's re-check (ring.h).
    done.waiters.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    member.wait_until(
        [&] { return (seen = done.reduce_done.load(std::memory_order_acquire)) >= need; },
        collective_site(call, root, comm));
    done.waiters.fetch_sub(1, std::memory_order_relaxed);
  }
  cursor.reduce_free = seen;
}

void ring_reduce_root(Member& member, Comm& comm, const char* call, const void* in, void* recv,
                      const Reduction& red) {
  Dropbox& box = dropbox(comm);
  const int me = comm.rank();
  const int n = comm.size();
  const std::uint64_t t = ++box.cursor(me).reduces;
  RingDone& done = box.reduce_done();
  constexpr int kOnStack = 64;
  const void* on_stack[kOnStack];
  std::vector<const void*> on_heap;
  const void** ins = on_stack;
  if (n > kOnStack) {
    on_heap.resize(static_cast<std::size_t>(n));
    ins = on_heap.data();
  }
  std::string error;
  for (int k = 0; k < n; ++k) {
    if (k == me) {
      ins[k] = in;
      continue;
    }
    Line& slot = box.reduce_slot(k, t);
    if (slot.seq.load(std::memory_order_acquire) < t) {
      member.wait_until([&] { return slot.seq.load(std::memory_order_acquire) >= t; },
                        collective_site(call, k, comm));
    }
    if (slot.check != static_cast<std::int64_t>(red.bytes()) && error.empty())
      error = count_mismatch("count", k, slot.check, me, static_cast<long long>(red.bytes()));
    ins[k] = red.view_at(slot.payload.data);
    // The contributors run ahead of the root (that is what the ring is
    // for): their next slot is likely written already, so start fetching it.
    __builtin_prefetch(&box.reduce_slot(k, t + 1));
  }
  void* acc = red.buffer(member.acc, red.items());
  if (error.empty()) fold(red, ins, 0, n - 1, 0, red.items(), acc);
  // Published every kRingPublishBatch calls only (ring.h): contributors
  // that wait for it poll the line, and a store to it every call would
  // put a transfer before the fence below on every call.
  if (t % kRingPublishBatch == 0) {
    done.reduce_done.store(t, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (done.waiters.load(std::memory_order_relaxed) != 0) box.wake_others(me);
  }
  if (!error.empty()) fail_disagreement(comm, PURE_ERR_COUNT, error);
  red.deliver(acc, recv);
}

namespace {

void ring_reduce(Member& member, Comm& comm, const ReduceArgs& a, const Reduction& red, int root) {
  const void* in = red.input_view(a.send ? a.send : a.recv, member.input);
  if (comm.rank() != root) {
    ring_contribute(member, comm, a.call, root, static_cast<std::int64_t>(red.bytes()),
                    [&](unsigned char* slot) { red.copy(in, red.view_at(slot), red.items()); });
    return;
  }
  ring_reduce_root(member, comm, a.call, in, a.recv, red);
}

void partitioned(Member& member, Comm& comm, const ReduceArgs& a, const Reduction& red, int root) {
  Round r(member, comm, a.call);
  Member& scratch = member;
  const bool has_output = root < 0 || r.me() == root;
  Line& mine = r.mine();
  mine.check = r.tagged(red.bytes());
  mine.payload.p.in = red.input_view(a.send ? a.send : a.recv, scratch.input);
  void* out = has_output ? red.output_view(a.recv, scratch.output) : nullptr;
  mine.payload.p.out = out;
  const int writer = root >= 0 ? root : 0;
  r.arrive(writer == r.me() ? Round::kNobody : writer);
  if (r.me() == writer) {
    r.wait_all(r.seq());
    check_members(r, "count");
    r.release();
  } else {
    r.wait_release();
  }

  const int n = r.size();
  const Slice slice = partition_slice(red, n, r.me());
  std::vector<const void*> ins(static_cast<std::size_t>(n));
  std::vector<void*> outs;  // where our slice goes in each output
  for (int k = 0; k < n; ++k) {
    ins[static_cast<std::size_t>(k)] = r.of(k).payload.p.in;
    if (root < 0 || k == root) outs.push_back(red.at(r.of(k).payload.p.out, slice.begin));
  }
  fold_slice(red, ins.data(), n, outs.data(), static_cast<int>(outs.size()), slice, scratch.acc);
  r.next();
  r.barrier();  // every slice is written and nobody reads our buffers any more
  if (has_output) red.store_output(out, a.recv);
}

}  // namespace

void reduce(Member& member, Comm& comm, const ReduceArgs& a, int root) {
  std::optional<Reduction> own;
  const Reduction& red = a.checked ? *a.checked : own.emplace(a.op, *a.type, a.handle, a.count);
  if (comm.size() == 1) {
    local_copy(a);
    return;
  }
  if (root >= 0 && red.view_bytes() <= kPayloadBytes) {
    ring_reduce(member, comm, a, red, root);
  } else if (comm.size() == 2 && !red.user() && !red.packed() &&
             (red.bytes() <= kPayloadBytes ||
              (root < 0 && red.bytes() <= kPairStageBytes &&
               red.bytes() < member.shared().reduce_partition()))) {
    pair_reduce(member, comm, a, red, root);
  } else if (!red.user() && red.bytes() >= member.shared().reduce_partition()) {
    partitioned(member, comm, a, red, root);
  } else {
    flat_combining(member, comm, a, red, root);
  }
}

void scan(Member& member, Comm& comm, const ReduceArgs& a, bool exclusive) {
  Reduction red(a.op, *a.type, a.handle, a.count);
  if (comm.size() == 1) {
    if (!exclusive) local_copy(a);
    return;
  }
  Member& scratch = member;
  Round r(member, comm, a.call);
  Line& mine = r.mine();
  mine.check = r.tagged(red.bytes());
  mine.payload.p.in = red.input_view(a.send ? a.send : a.recv, scratch.input);
  r.arrive(r.me() == 0 ? Round::kNobody : 0);
  if (r.me() == 0) {
    r.wait_all(r.seq());
    check_members(r, "count");
    r.release();
  } else {
    r.wait_release();
  }
  const int hi = exclusive ? r.me() - 1 : r.me();
  void* result = nullptr;
  if (hi >= 0) {
    std::vector<const void*> ins(static_cast<std::size_t>(hi + 1));
    for (int k = 0; k <= hi; ++k) ins[static_cast<std::size_t>(k)] = r.of(k).payload.p.in;
    // Our receive buffer may be an input others still read (in place).
    result = red.buffer(scratch.acc, red.items());
    fold(red, ins.data(), 0, hi, 0, red.items(), result);
  }
  r.next();
  r.barrier();
  if (result) red.deliver(result, a.recv);
}

void reduce_scatter(Member& member, Comm& comm, const ReduceArgs& a, const int* recvcounts) {
  Reduction red(a.op, *a.type, a.handle, a.count);
  const int me = comm.rank();
  std::size_t first = 0;
  for (int k = 0; k < me; ++k) first += static_cast<std::size_t>(recvcounts[k]);
  const std::size_t mine_count = static_cast<std::size_t>(recvcounts[me]);
  if (comm.size() == 1) {
    local_copy(a);
    return;
  }
  Member& scratch = member;
  Round r(member, comm, a.call);
  Line& mine = r.mine();
  mine.check = r.tagged(red.bytes());
  mine.payload.p.in = red.input_view(a.send ? a.send : a.recv, scratch.input);
  r.arrive(r.me() == 0 ? Round::kNobody : 0);
  if (r.me() == 0) {
    r.wait_all(r.seq());
    check_members(r, "total count");
    r.release();
  } else {
    r.wait_release();
  }
  std::vector<const void*> ins(static_cast<std::size_t>(r.size()));
  for (int k = 0; k < r.size(); ++k) ins[static_cast<std::size_t>(k)] = r.of(k).payload.p.in;
  const std::size_t per_element = a.count == 0 ? 0 : red.items() / a.count;
  Reduction block(a.op, *a.type, a.handle, mine_count);
  void* result = block.buffer(scratch.acc, block.items());
  fold(red, ins.data(), 0, r.size() - 1, first * per_element, mine_count * per_element, result);
  r.next();
  r.barrier();
  block.deliver(result, a.recv);
}

std::size_t resolve_partition(std::size_t configured, bool shared_cores, bool fibers) {
  if (configured != kReducePartitionAuto) return configured;
  if (!shared_cores) return kPartitionOwnCores;
  return fibers ? kPartitionFibers : kPartitionSharedCores;
}

}  // namespace pure::coll
