// ElementOp: one predefined op applied to one basic element of window
// memory, atomically against every other accumulate on the same element --
// the atomicity MPI promises for MPI_Accumulate, MPI_Get_accumulate,
// MPI_Fetch_and_op and MPI_Compare_and_swap (per element, per predefined
// type; not against puts, gets or the target's own loads and stores).
//
// Elements of 1, 2, 4 or 8 bytes at an address aligned to their size are
// changed with one atomic instruction: fetch-add, -and, -or, -xor and
// exchange where the op is one, a compare-and-swap loop around the op's
// kernel (types/ops.h) otherwise. Larger elements (long double, the complex
// types, the MINLOC/MAXLOC pairs of more than 8 bytes) and misaligned ones
// take one of a table of mutexes chosen by address, held for the one
// element: every accumulate on a given element has the same size and
// alignment, so all of them take the same path.
//
// MPI asks accumulates to be atomic, not ordered: the synchronisation calls
// (fence, PSCW, unlock, flush) order them. They are acquire-release all the
// same (free on x86, where every locked instruction is a full barrier): a
// program that builds a lock of its own from compare-and-swap and flush --
// a common idiom -- then also has the happens-before that ThreadSanitizer
// can see, which does not model the flush's fence.
#pragma once

#include <cstddef>
#include <mutex>

#include "types/datatype.h"
#include "types/ops.h"

namespace pure::onesided {

class ElementOp {
 public:
  // `op` is a predefined op (op_max..op_no_op); `base` the basic type of
  // the elements. Throws PURE_ERR_OP when MPI does not define the op on the
  // type, naming both.
  ElementOp(int op, BaseType base, const char* type_name);

  // Bytes of one element (of its packed form for the pair types).
  std::size_t item() const { return item_; }
  int op() const { return op_; }

  // *target = *operand op *target (MPI_REPLACE: *operand; MPI_NO_OP: no
  // change), atomically; the old value goes to `fetched` when it is not
  // null. `operand` may be null for MPI_NO_OP.
  void apply(void* target, const void* operand, void* fetched) const;
  // apply on `items` consecutive elements from `target`, operands and old
  // values dense from `operands` and `fetched` (either may be null as for
  // apply): one dispatch for the run, then a loop of the same atomic
  // instructions where the op has one (integer sum, the bitwise ops,
  // replace) and the run is aligned; element by element otherwise.
  void apply_run(void* target, const void* operands, void* fetched, std::size_t items) const;

  // The element compare-and-swap of MPI_Compare_and_swap: the old value to
  // `fetched`, and `value` stored when the old one equals `compare`.
  static void compare_swap(void* target, const void* compare, const void* value, void* fetched,
                           std::size_t item);

  // Elements whose bytes are not one run of memory (pair types with padding
  // inside, as MPI_SHORT_INT): the caller holds lock_for(first byte),
  // gathers the element's packed form into `value`, applies the op with
  // combine and scatters it back.
  static std::mutex& lock_for(const void* element);
  void combine(void* value, const void* operand) const;

 private:
  int op_;
  BaseType base_;
  std::size_t item_;
  Kernel kernel_ = nullptr;  // nullptr for replace and no_op
  bool integer_ = false;     // fetch-add applies (an integer type, two's complement)
  bool bitwise_ = false;     // fetch-and/or/xor apply (integers and bytes)
};

// Whether MPI_Compare_and_swap takes elements of this basic type (integer,
// logical and byte types).
bool compare_swap_type(BaseType base);

}  // namespace pure::onesided
