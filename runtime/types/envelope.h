// How a derived datatype was built: the combiner and the arguments of its
// constructor, as MPI_Type_get_envelope and MPI_Type_get_contents hand them
// back (MPI 3.1 section 4.1.13). The flat API records it when it builds a
// type; the engine never reads it.
#pragma once

#include <memory>
#include <vector>

#include "pure/pure.h"
#include "types/datatype.h"

namespace pure {

// A datatype argument of a constructor: a predefined handle, or the derived
// type itself, kept alive so that contents can hand out a new handle to it
// after the program freed its own.
struct TypeArg {
  PURE_Datatype predefined = PURE_DATATYPE_NULL;
  std::shared_ptr<Datatype> derived;
};

struct TypeEnvelope {
  int combiner = PURE_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<PURE_Aint> aints;
  // The counts of a large-count (MPI-4 _c) constructor, which keep every
  // count and displacement here instead of in ints and aints.
  std::vector<PURE_Count> counts;
  std::vector<TypeArg> types;
};

}  // namespace pure
