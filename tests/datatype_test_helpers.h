// Helpers of the datatype engine's unit tests (datatype_engine_test.cpp,
// datatype_repeat_test.cpp): predefined types by handle, a whole pack, and
// a packer written the obvious way to check the engine against.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <numeric>
#include <vector>

#include "base/handle.h"
#include "pure/pure.h"
#include "types/datatype.h"

namespace pure {

inline const Datatype& T(PURE_Datatype handle) {
  const Datatype* t = Datatype::predefined(pure::handle_index(handle));
  EXPECT_NE(t, nullptr);
  return *t;
}

inline std::vector<char> pack_all(const void* buf, std::size_t count, const Datatype& t) {
  std::vector<char> out(count * t.size());
  pack(buf, count, t, 0, out.data(), out.size());
  return out;
}

template <typename V>
inline std::vector<V> values_of(const std::vector<char>& bytes) {
  std::vector<V> out(bytes.size() / sizeof(V));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(V));
  return out;
}

template <typename V>
inline V read_at(const std::vector<char>& bytes, std::size_t at) {
  V v;
  std::memcpy(&v, bytes.data() + at, sizeof(V));
  return v;
}

inline std::vector<int> iota_ints(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 100);
  return v;
}

inline std::vector<Block> B(std::initializer_list<Block> blocks) { return blocks; }

// A packer written the obvious way, to check the cursor-based engine against.
inline std::vector<char> naive_pack(const char* base, std::size_t count, const Datatype& t) {
  std::vector<char> out;
  for (std::size_t e = 0; e < count; ++e) {
    for (const Block& b : t.flattened()) {
      const char* p = base + static_cast<std::ptrdiff_t>(e) * t.extent() + b.offset;
      out.insert(out.end(), p, p + b.length);
    }
  }
  return out;
}

}  // namespace pure
