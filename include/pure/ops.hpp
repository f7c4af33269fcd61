// The typed C++ API's reduction operators (C++20).
//
//   comm.allreduce(x, std::plus<>{});                  // PURE_SUM
//   comm.allreduce(v, pure::max{});                     // PURE_MAX
//   comm.allreduce(std::pair{err, rank}, pure::minloc{});
//   comm.allreduce(m, [](const Mat& a, const Mat& b) { return a * b; });
//   comm.allreduce(x, pure::commutative([](int a, int b) { return a ^ b; }));
//
// std::plus, std::multiplies, the logical and bitwise function objects,
// pure::min/max and pure::minloc/maxloc are MPI's predefined operators where
// MPI defines them on the type, and take the flat API's fast paths; on other
// types they, and any other function object or lambda, become a user
// operator: op(a, b) combines a from a lower rank with b from a higher one,
// and must return the type. A user operator is taken as not commutative
// (the runtime then combines in rank order) unless wrapped in
// pure::commutative.
#pragma once

#include <complex>
#include <functional>
#include <type_traits>
#include <utility>

#include "pure/datatype.hpp"
#include "pure/error.hpp"

namespace pure {

struct min {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
struct max {
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
// On (value, index) pairs: the least (greatest) value, and of equal values
// the least index, as MPI_MINLOC (MPI_MAXLOC) defines it.
struct minloc {
  template <class V, class I>
  constexpr std::pair<V, I> operator()(const std::pair<V, I>& a, const std::pair<V, I>& b) const {
    if (a.first < b.first) return a;
    if (b.first < a.first) return b;
    return a.second < b.second ? a : b;
  }
};
struct maxloc {
  template <class V, class I>
  constexpr std::pair<V, I> operator()(const std::pair<V, I>& a, const std::pair<V, I>& b) const {
    if (b.first < a.first) return a;
    if (a.first < b.first) return b;
    return a.second < b.second ? a : b;
  }
};

// A function object declared commutative: the runtime may combine the
// ranks' values in any order.
template <class F>
struct commutative_op {
  F fn;
  template <class T>
  constexpr T operator()(const T& a, const T& b) const {
    return fn(a, b);
  }
};
template <class F>
commutative_op<F> commutative(F fn) {
  return {std::move(fn)};
}

namespace detail {

template <class T>
inline constexpr bool is_complex_v = false;
template <class V>
inline constexpr bool is_complex_v<std::complex<V>> = true;

// The kinds of basic type MPI defines its operators on.
template <class T>
inline constexpr bool mpi_integer = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                    !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t> &&
                                    !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
                                    !std::is_same_v<T, char32_t>;
template <class T>
inline constexpr bool mpi_number = mpi_integer<T> || std::is_floating_point_v<T> || is_complex_v<T>;
template <class T>
inline constexpr bool mpi_ordered = mpi_integer<T> || std::is_floating_point_v<T>;
template <class T>
inline constexpr bool mpi_logical = mpi_integer<T> || std::is_same_v<T, bool>;
template <class T>
inline constexpr bool mpi_bits = mpi_integer<T> || std::is_same_v<T, std::byte>;

template <class T>
inline constexpr bool is_loc_pair_v = false;
template <class V>
inline constexpr bool is_loc_pair_v<std::pair<V, int>> =
    predefined_type<std::pair<V, int>>::value != PURE_DATATYPE_NULL;

// MPI's predefined operator for (Op, T), or PURE_OP_NULL when Op on T is a
// user operator.
template <class Op, class T>
constexpr PURE_Op predefined_op() {
  using O = std::remove_cvref_t<Op>;
  if constexpr ((std::is_same_v<O, std::plus<>> || std::is_same_v<O, std::plus<T>>) &&
                mpi_number<T>)
    return PURE_SUM;
  else if constexpr ((std::is_same_v<O, std::multiplies<>> ||
                      std::is_same_v<O, std::multiplies<T>>) &&
                     mpi_number<T>)
    return PURE_PROD;
  else if constexpr (std::is_same_v<O, pure::min> && mpi_ordered<T>)
    return PURE_MIN;
  else if constexpr (std::is_same_v<O, pure::max> && mpi_ordered<T>)
    return PURE_MAX;
  else if constexpr (std::is_same_v<O, pure::minloc> && is_loc_pair_v<T>)
    return PURE_MINLOC;
  else if constexpr (std::is_same_v<O, pure::maxloc> && is_loc_pair_v<T>)
    return PURE_MAXLOC;
  else if constexpr ((std::is_same_v<O, std::logical_and<>> ||
                      std::is_same_v<O, std::logical_and<T>>) &&
                     mpi_logical<T>)
    return PURE_LAND;
  else if constexpr ((std::is_same_v<O, std::logical_or<>> ||
                      std::is_same_v<O, std::logical_or<T>>) &&
                     mpi_logical<T>)
    return PURE_LOR;
  else if constexpr ((std::is_same_v<O, std::bit_and<>> || std::is_same_v<O, std::bit_and<T>>) &&
                     mpi_bits<T>)
    return PURE_BAND;
  else if constexpr ((std::is_same_v<O, std::bit_or<>> || std::is_same_v<O, std::bit_or<T>>) &&
                     mpi_bits<T>)
    return PURE_BOR;
  else if constexpr ((std::is_same_v<O, std::bit_xor<>> || std::is_same_v<O, std::bit_xor<T>>) &&
                     mpi_bits<T>)
    return PURE_BXOR;
  else
    return PURE_OP_NULL;
}

template <class Op>
inline constexpr bool declared_commutative = false;
template <class F>
inline constexpr bool declared_commutative<commutative_op<F>> = true;

// inout[i] = op(in[i], inout[i]): the runtime hands a user operator whole
// elements at sizeof(T) strides (its datatype's extent).
template <class T, class Op>
void apply_op(const void* in, void* inout, PURE_Count count, void* state) {
  const Op& op = *static_cast<const Op*>(state);
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (PURE_Count i = 0; i < count; ++i) b[i] = op(a[i], b[i]);
}

// Op on T as the flat API takes it, for the length of one call (or of a
// nonblocking call's request): a predefined handle, or a user operator
// made from a copy of the function object and freed at the end.
template <class T, class Op>
class bound_op {
 public:
  explicit bound_op(Op op) : op_(std::move(op)) {
    require_datatype<T>();
    if constexpr (predefined_op<Op, T>() != PURE_OP_NULL) {
      handle_ = predefined_op<Op, T>();
    } else {
      static_assert(std::is_invocable_r_v<T, const Op&, const T&, const T&>,
                    "pure: a reduction operator takes two values of the reduced type and "
                    "returns one (T op(const T&, const T&))");
      check([&] { return op_create(&apply_op<T, Op>, &op_, declared_commutative<Op>, &handle_); });
    }
  }
  bound_op(const bound_op&) = delete;  // the runtime holds a pointer to op_
  bound_op& operator=(const bound_op&) = delete;
  ~bound_op() {
    if constexpr (predefined_op<Op, T>() == PURE_OP_NULL) pure_op_free(&handle_);
  }
  PURE_Op handle() const { return handle_; }

 private:
  Op op_;
  PURE_Op handle_ = PURE_OP_NULL;
};

}  // namespace detail
}  // namespace pure
