// MpiLayout: a Pure layout -- `count` elements of a Datatype in a buffer --
// as an MPI datatype, for the one-sided calls of windows spanning processes
// (window_net.cpp). As bytes for puts and gets; as elements of the MPI type
// of the layout's basic type for the accumulates, which MPI applies element
// by element (MINLOC/MAXLOC pairs as MPI lays them out in memory, padding
// included, exactly as Pure's own pair types lie in memory). Frees the MPI
// datatype it made when it goes: MPI keeps a datatype alive for the
// operations that use it.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "types/datatype.h"

namespace pure {

// The MPI datatype of one element of basic type `base` as it lies in
// memory, or MPI_DATATYPE_NULL when MPI has none.
MPI_Datatype mpi_memory_type(BaseType base);

class MpiLayout {
 public:
  enum class Unit { bytes, elements };
  MpiLayout(std::size_t count, const Datatype& type, Unit unit);
  ~MpiLayout();
  MpiLayout(const MpiLayout&) = delete;
  MpiLayout& operator=(const MpiLayout&) = delete;

  // The layout is `count()` items of `type()` starting `offset()` bytes
  // from the buffer's address (or from the target displacement).
  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }
  MPI_Aint offset() const { return offset_; }

 private:
  // The MPI datatype of a non-contiguous layout, in bytes or in elements.
  void bytes_layout(std::size_t count, const Datatype& type);
  void elements_layout(std::size_t count, const Datatype& type, MPI_Datatype element,
                       std::size_t items, std::size_t item);

  int count_ = 0;
  MPI_Datatype type_ = MPI_BYTE;
  MPI_Aint offset_ = 0;
  bool owned_ = false;
};

}  // namespace pure
