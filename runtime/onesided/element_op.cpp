#include "onesided/element_op.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>

#include "base/cpu.h"
#include "base/error.h"

namespace pure::onesided {

namespace {

bool integer_type(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::char_: case B::schar: case B::uchar: case B::short_: case B::ushort: case B::int_:
    case B::uint_: case B::long_: case B::ulong_: case B::llong: case B::ullong: case B::int8:
    case B::int16: case B::int32: case B::int64: case B::uint8: case B::uint16: case B::uint32:
    case B::uint64: case B::aint: case B::offset: case B::count:
      return true;
    default:
      return false;
  }
}

// The mutexes of elements that no single instruction changes atomically,
// chosen by address: one element's accumulates always meet at the same one.
// A holder never waits for anything else while it holds one (one element's
// op), so ranks sharing a core as fibers cannot deadlock on them.
constexpr std::size_t kStripes = 256;
struct alignas(kCacheLine) Stripe {
  std::mutex m;
};
std::array<Stripe, kStripes>& stripes() {
  static std::array<Stripe, kStripes> table;
  return table;
}
std::mutex& stripe_of(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return stripes()[(a >> 4) % kStripes].m;
}

template <class U>
U load_bits(const void* p) {
  U v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Whether elements of `item` bytes at `p` change with one instruction.
bool lock_free(const void* p, std::size_t item) {
  if (item != 1 && item != 2 && item != 4 && item != 8) return false;
  return reinterpret_cast<std::uintptr_t>(p) % item == 0;
}

// The op on one element of U's size with atomic instructions.
template <class U>
void apply_atomic(U* t, const void* operand, void* fetched, int op, Kernel kernel, bool integer,
                  bool bitwise) {
  U old;
  if (op == op_no_op) {
    old = __atomic_load_n(t, __ATOMIC_ACQUIRE);
  } else if (op == op_replace) {
    const U v = load_bits<U>(operand);
    if (fetched) {
      old = __atomic_exchange_n(t, v, __ATOMIC_ACQ_REL);
    } else {
      __atomic_store_n(t, v, __ATOMIC_RELEASE);
      return;
    }
  } else if (integer && op == op_sum) {
    old = __atomic_fetch_add(t, load_bits<U>(operand), __ATOMIC_ACQ_REL);
  } else if (bitwise && op == op_band) {
    old = __atomic_fetch_and(t, load_bits<U>(operand), __ATOMIC_ACQ_REL);
  } else if (bitwise && op == op_bor) {
    old = __atomic_fetch_or(t, load_bits<U>(operand), __ATOMIC_ACQ_REL);
  } else if (bitwise && op == op_bxor) {
    old = __atomic_fetch_xor(t, load_bits<U>(operand), __ATOMIC_ACQ_REL);
  } else {
    // The op's own kernel on a copy of the bits, retried until no other
    // accumulate changed the element in between.
    old = __atomic_load_n(t, __ATOMIC_RELAXED);
    for (;;) {
      U next = old;
      kernel(operand, &next, 1);
      if (__atomic_compare_exchange_n(t, &old, next, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        break;
    }
  }
  if (fetched) std::memcpy(fetched, &old, sizeof old);
}

template <class U>
void cas_atomic(U* t, const void* compare, const void* value, void* fetched) {
  U expected = load_bits<U>(compare);
  __atomic_compare_exchange_n(t, &expected, load_bits<U>(value), false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  // On failure `expected` holds the element's value; on success it was that value.
  std::memcpy(fetched, &expected, sizeof expected);
}

}  // namespace

bool compare_swap_type(BaseType base) {
  return integer_type(base) || base == BaseType::byte || base == BaseType::c_bool ||
         base == BaseType::cxx_bool || base == BaseType::wchar;
}

ElementOp::ElementOp(int op, BaseType base, const char* type_name)
    : op_(op), base_(base), item_(item_size(base)) {
  if (base == BaseType::none || item_ == 0)
    fail(PURE_ERR_TYPE,
         "%s needs data of one predefined datatype (this datatype mixes basic types)",
         op_name(op));
  integer_ = integer_type(base);
  bitwise_ = integer_ || base == BaseType::byte;
  if (op == op_replace || op == op_no_op) return;
  kernel_ = predefined_kernel(op, base);
  if (!kernel_) fail(PURE_ERR_OP, "%s is not defined for datatype %s", op_name(op), type_name);
}

void ElementOp::apply(void* target, const void* operand, void* fetched) const {
  switch (lock_free(target, item_) ? item_ : 0) {
    case 1:
      return apply_atomic(static_cast<std::uint8_t*>(target), operand, fetched, op_, kernel_,
                          integer_, bitwise_);
    case 2:
      return apply_atomic(static_cast<std::uint16_t*>(target), operand, fetched, op_, kernel_,
                          integer_, bitwise_);
    case 4:
      return apply_atomic(static_cast<std::uint32_t*>(target), operand, fetched, op_, kernel_,
                          integer_, bitwise_);
    case 8:
      return apply_atomic(static_cast<std::uint64_t*>(target), operand, fetched, op_, kernel_,
                          integer_, bitwise_);
    default:
      break;
  }
  std::lock_guard<std::mutex> hold(stripe_of(target));
  if (fetched) std::memcpy(fetched, target, item_);
  if (op_ == op_no_op) return;
  if (op_ == op_replace) {
    std::memcpy(target, operand, item_);
    return;
  }
  kernel_(operand, target, 1);
}

namespace {

// The run's loop for an op that is one atomic instruction on U; false when
// the op is none of those (the caller goes element by element).
template <class U>
bool run_atomic(U* t, const unsigned char* operands, unsigned char* fetched, std::size_t n,
                int op, bool integer, bool bitwise) {
  auto operand = [&](std::size_t i) { return load_bits<U>(operands + i * sizeof(U)); };
  auto keep = [&](std::size_t i, U old) {
    if (fetched) std::memcpy(fetched + i * sizeof(U), &old, sizeof old);
  };
  if (op == op_replace && !fetched) {
    for (std::size_t i = 0; i < n; ++i) __atomic_store_n(t + i, operand(i), __ATOMIC_RELEASE);
  } else if (op == op_replace) {
    for (std::size_t i = 0; i < n; ++i) keep(i, __atomic_exchange_n(t + i, operand(i), __ATOMIC_ACQ_REL));
  } else if (integer && op == op_sum && !fetched) {
    // The result unused: one locked add per element, no exchange.
    for (std::size_t i = 0; i < n; ++i) __atomic_add_fetch(t + i, operand(i), __ATOMIC_ACQ_REL);
  } else if (integer && op == op_sum) {
    for (std::size_t i = 0; i < n; ++i) keep(i, __atomic_fetch_add(t + i, operand(i), __ATOMIC_ACQ_REL));
  } else if (bitwise && op == op_band) {
    for (std::size_t i = 0; i < n; ++i) keep(i, __atomic_fetch_and(t + i, operand(i), __ATOMIC_ACQ_REL));
  } else if (bitwise && op == op_bor) {
    for (std::size_t i = 0; i < n; ++i) keep(i, __atomic_fetch_or(t + i, operand(i), __ATOMIC_ACQ_REL));
  } else if (bitwise && op == op_bxor) {
    for (std::size_t i = 0; i < n; ++i) keep(i, __atomic_fetch_xor(t + i, operand(i), __ATOMIC_ACQ_REL));
  } else {
    return false;
  }
  return true;
}

}  // namespace

void ElementOp::apply_run(void* target, const void* operands, void* fetched,
                          std::size_t items) const {
  auto* t = static_cast<unsigned char*>(target);
  const auto* in = static_cast<const unsigned char*>(operands);
  auto* out = static_cast<unsigned char*>(fetched);
  if (in && op_ != op_no_op && lock_free(target, item_)) {
    bool done = false;
    switch (item_) {
      case 1: done = run_atomic(reinterpret_cast<std::uint8_t*>(t), in, out, items, op_, integer_, bitwise_); break;
      case 2: done = run_atomic(reinterpret_cast<std::uint16_t*>(t), in, out, items, op_, integer_, bitwise_); break;
      case 4: done = run_atomic(reinterpret_cast<std::uint32_t*>(t), in, out, items, op_, integer_, bitwise_); break;
      case 8: done = run_atomic(reinterpret_cast<std::uint64_t*>(t), in, out, items, op_, integer_, bitwise_); break;
      default: break;
    }
    if (done) return;
  }
  for (std::size_t k = 0; k < items; ++k)
    apply(t + k * item_, in ? in + k * item_ : nullptr, out ? out + k * item_ : nullptr);
}

std::mutex& ElementOp::lock_for(const void* element) { return stripe_of(element); }

void ElementOp::combine(void* value, const void* operand) const {
  if (op_ == op_no_op) return;
  if (op_ == op_replace) {
    std::memcpy(value, operand, item_);
    return;
  }
  kernel_(operand, value, 1);
}

void ElementOp::compare_swap(void* target, const void* compare, const void* value, void* fetched,
                             std::size_t item) {
  switch (lock_free(target, item) ? item : 0) {
    case 1: return cas_atomic(static_cast<std::uint8_t*>(target), compare, value, fetched);
    case 2: return cas_atomic(static_cast<std::uint16_t*>(target), compare, value, fetched);
    case 4: return cas_atomic(static_cast<std::uint32_t*>(target), compare, value, fetched);
    case 8: return cas_atomic(static_cast<std::uint64_t*>(target), compare, value, fetched);
    default: break;
  }
  std::lock_guard<std::mutex> hold(stripe_of(target));
  std::memcpy(fetched, target, item);
  if (std::memcmp(fetched, compare, item) == 0) std::memcpy(target, value, item);
}

}  // namespace pure::onesided
