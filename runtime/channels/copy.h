// copy_bytes: memcpy for the few bytes most messages carry, shared by
// the send side (endpoint.cpp) and the receive side (receive.cpp) of the
// Endpoint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pure {

// memcpy for the few bytes most messages carry: a library call costs more
// than the copy. Two possibly overlapping fixed-size moves cover 1..16 bytes.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  auto* s = static_cast<const unsigned char*>(src);
  if (n >= 8 && n <= 16) {
    std::uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    std::uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(d, &a, 4);
    std::memcpy(d + n - 4, &b, 4);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  } else {
    std::memcpy(d, s, n);
  }
}

}  // namespace pure
