// The reduce ring (ring.h) for a reduce whose data fits a line: each
// contributor writes its input into its slot and leaves; the root folds the
// slots in rank order (reduce.cpp).
//
// The contributor's half is inline, and so is small_reduce, the flat API's
// path for a predefined op on a predefined type: it goes from the
// arguments straight to the slot, with no Reduction built and none of the
// general argument checks, as pair_allreduce does for the two-member
// allreduce (pair.h says why that matters: the software between one call's
// store and the next is what a contributor's rate is made of). Both paths
// run the same protocol, so members may mix them.
#pragma once

#include <atomic>
#include <cstdint>

#include "collectives/call_log.h"
#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "collectives/ring.h"
#include "comm/comm.h"
#include "pure/pure.h"
#include "types/datatype.h"
#include "types/ops.h"

namespace pure::coll {

// Out of line (reduce.cpp): a contributor of call `t` whose slot may still
// be unread waits until the root published it is done with call t - kRingDepth.
void ring_wait_space(Member& member, Comm& comm, const char* call, int root, std::uint64_t t);
// The root's half of its next call: waits for every slot, folds them with
// its own input `in` (a view of red's items) and delivers the result to `recv`.
void ring_reduce_root(Member& member, Comm& comm, const char* call, const void* in, void* recv,
                      const Reduction& red);

// A contributor's half: `copy(slot)` writes its input into the slot's
// payload; `check` is its byte count, which the root compares with its own.
template <class Copy>
[[gnu::always_inline]] inline void ring_contribute(Member& member, Comm& comm, const char* call,
                                                   int root, std::int64_t check, Copy&& copy) {
  Dropbox& box = dropbox(comm);
  RingCursor& cursor = box.cursor(comm.rank());
  const std::uint64_t t = ++cursor.reduces;
  if (t > kRingDepth && cursor.reduce_free < t - kRingDepth)
    ring_wait_space(member, comm, call, root, t);
  Line& slot = box.reduce_slot(comm.rank(), t);
  slot.check = check;
  copy(slot.payload.data);
  // Pairs with the root's acquire load of the slot's seq: the check and
  // the data are visible once the seq is.
  slot.seq.store(t, std::memory_order_release);
  box.wake(root);
}

// The reduce of a predefined op on a predefined type whose data fits a
// slot, on a communicator of this process, straight from the flat API's
// arguments. Returns false, having done nothing, for anything else,
// including every argument the general path reports an error for (it then
// takes that path).
[[gnu::always_inline]] inline bool small_reduce(Member& member, Comm& comm, const char* call,
                                                const void* send, void* recv, long long count,
                                                PURE_Datatype datatype, PURE_Op op, int root) {
  const int n = comm.size();
  if (n < 2 || comm.spans_processes() || root < 0 || root >= n || count <= 0 ||
      count > static_cast<long long>(kPayloadBytes))
    return false;
  const DenseKernel* k = dense_kernel(op, datatype);
  if (!k) return false;
  const std::size_t items = static_cast<std::size_t>(count);
  const std::size_t bytes = items * k->item;
  if (bytes > kPayloadBytes) return false;
  const bool at_root = comm.rank() == root;
  const bool in_place = send == PURE_IN_PLACE;
  if (!send || (in_place && !at_root) || (at_root && (!recv || recv == PURE_IN_PLACE)))
    return false;
  // As in pair_allreduce: hides from GCC where the pointers came from, so
  // that it does not warn about copy_fixed's bigger cases; emits nothing.
  asm("" : "+r"(recv), "+r"(send));
  record_call(comm, call);
  if (!at_root) {
    ring_contribute(member, comm, call, root, static_cast<std::int64_t>(bytes),
                    [&](unsigned char* slot) { copy_fixed(slot, send, bytes); });
    return true;
  }
  OpRef ref;
  ref.predefined = predefined_op(op);
  const Reduction red(ref, *Datatype::predefined(predefined_type_index(datatype)), datatype, items);
  ring_reduce_root(member, comm, call, in_place ? recv : send, recv, red);
  return true;
}

}  // namespace pure::coll
