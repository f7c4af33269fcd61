// Must not compile: the PGAS atomics have no multiply.
#include <cstdint>
#include <functional>

#include "pure/pure.hpp"

std::int64_t f(pure::symmetric<std::int64_t>& counts) {
  return counts.fetch_and_op(2, 0, 0, std::multiplies<>{});
}
