// The "external32" data representation (MPI 3.1 section 13.5.2), for
// MPI_Pack_external: every basic element big-endian, in the standard's
// fixed size whatever the machine's (a long is 4 bytes, a long double an
// IEEE binary128 of 16, a wchar_t 2), elements back to back in type-map
// order. The type signature (signature.h) says which basic element comes
// next; the datatype's blocks say where it lives.
#pragma once

#include <cstddef>
#include <cstdint>

#include "types/base_type.h"
#include "types/datatype.h"

namespace pure {

// Bytes of one basic element in external32; 0 for BaseType::none.
std::size_t external32_size(BaseType base);
// Bytes of one element of `type` in external32.
std::uint64_t external32_size(const Datatype& type);

// (src, count, type) -> count * external32_size(type) bytes at `out`.
// A value the representation cannot hold (a long beyond 32 bits, a wide
// character beyond U+FFFF) is an Error of class PURE_ERR_CONVERSION naming
// it; `out` may then be partly written.
void pack_external32(const void* src, std::uint64_t count, const Datatype& type, void* out);
// count * external32_size(type) bytes at `in` -> (dst, count, type).
void unpack_external32(const void* in, void* dst, std::uint64_t count, const Datatype& type);

}  // namespace pure
