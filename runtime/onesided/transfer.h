// The data movement of one-sided calls whose target memory is in this
// process: plain copies for put and get, element-wise atomic updates for
// the accumulates (element_op.h). Every side is a layout (buffer, count,
// datatype) of the datatype engine; the caller has checked that the target
// layout lies inside the window and that the sides' sizes agree.
#pragma once

#include <cstddef>

#include "onesided/element_op.h"
#include "types/datatype.h"

namespace pure::onesided {

struct Layout {
  void* base;
  std::size_t count;
  const Datatype* type;
  std::size_t bytes() const { return count * type->size(); }
};

struct ConstLayout {
  const void* base;
  std::size_t count;
  const Datatype* type;
  std::size_t bytes() const { return count * type->size(); }
};

// Copies origin into target (put) or target into origin (get).
void copy(const ConstLayout& from, const Layout& to);

// target = origin op target, element by element, each element atomically;
// with `result`, the old target elements are stored there first
// (MPI_Get_accumulate). `origin.base` is ignored for MPI_NO_OP.
void accumulate(const ElementOp& op, const ConstLayout& origin, const Layout& target,
                const Layout* result);

}  // namespace pure::onesided
