// The basic element types of MPI's predefined datatypes, as the datatype
// engine, the reductions and the external32 representation tell them apart.
#pragma once

#include <cstdint>

namespace pure {

// `none` for types that mix basic types. The pair types (float_int, ...)
// are a value and an int; as elements of a type signature they are their
// two members.
enum class BaseType : std::uint8_t {
  none, char_, schar, uchar, byte, wchar, short_, ushort, int_, uint_, long_, ulong_,
  llong, ullong, float_, double_, ldouble, int8, int16, int32, int64, uint8, uint16,
  uint32, uint64, c_bool, cfloat, cdouble, cldouble, aint, offset, count, packed,
  cxx_bool, float_int, double_int, long_int, two_int, short_int, ldouble_int,
  // Fortran's LOGICAL (an int-sized truth value) and the MINLOC/MAXLOC
  // pairs of Fortran reals, whose index has the value's type.
  logical, two_real, two_double
};

}  // namespace pure
