// The typed C++ API's datatypes: which PURE_Datatype describes a C++ type,
// deduced at compile time (C++20).
//
//   struct Particle { double x, y, z; int id; };
//   PURE_LAYOUT(Particle, x, y, z, id);      // once, at namespace scope
//
// Deduced: arithmetic types, std::byte, enums (as their underlying type),
// std::complex, std::pair and std::tuple of deducible types, std::array of
// them, and structs whose layout is declared with PURE_LAYOUT. Arithmetic
// types, std::complex and the pairs MPI names for MINLOC/MAXLOC (a value
// and an int) are predefined datatypes and cost nothing; the others are
// derived datatypes built once per rank, on first use, and kept for the
// rank's life.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "pure/pure.h"

namespace pure {

// Declared by PURE_LAYOUT: the data members of T, as member pointers.
template <class T>
struct layout;

namespace detail {

template <class T>
struct predefined_type {
  static constexpr PURE_Datatype value = PURE_DATATYPE_NULL;
};
#define PURE_DETAIL_PREDEFINED(T, handle)            \
  template <>                                        \
  struct predefined_type<T> {                        \
    static constexpr PURE_Datatype value = (handle); \
  }
PURE_DETAIL_PREDEFINED(char, PURE_CHAR);
PURE_DETAIL_PREDEFINED(signed char, PURE_SIGNED_CHAR);
PURE_DETAIL_PREDEFINED(unsigned char, PURE_UNSIGNED_CHAR);
PURE_DETAIL_PREDEFINED(wchar_t, PURE_WCHAR);
PURE_DETAIL_PREDEFINED(char8_t, PURE_UINT8_T);
PURE_DETAIL_PREDEFINED(char16_t, PURE_UINT16_T);
PURE_DETAIL_PREDEFINED(char32_t, PURE_UINT32_T);
PURE_DETAIL_PREDEFINED(short, PURE_SHORT);
PURE_DETAIL_PREDEFINED(unsigned short, PURE_UNSIGNED_SHORT);
PURE_DETAIL_PREDEFINED(int, PURE_INT);
PURE_DETAIL_PREDEFINED(unsigned, PURE_UNSIGNED);
PURE_DETAIL_PREDEFINED(long, PURE_LONG);
PURE_DETAIL_PREDEFINED(unsigned long, PURE_UNSIGNED_LONG);
PURE_DETAIL_PREDEFINED(long long, PURE_LONG_LONG);
PURE_DETAIL_PREDEFINED(unsigned long long, PURE_UNSIGNED_LONG_LONG);
PURE_DETAIL_PREDEFINED(float, PURE_FLOAT);
PURE_DETAIL_PREDEFINED(double, PURE_DOUBLE);
PURE_DETAIL_PREDEFINED(long double, PURE_LONG_DOUBLE);
PURE_DETAIL_PREDEFINED(bool, PURE_CXX_BOOL);
PURE_DETAIL_PREDEFINED(std::byte, PURE_BYTE);
PURE_DETAIL_PREDEFINED(std::complex<float>, PURE_C_FLOAT_COMPLEX);
PURE_DETAIL_PREDEFINED(std::complex<double>, PURE_C_DOUBLE_COMPLEX);
PURE_DETAIL_PREDEFINED(std::complex<long double>, PURE_C_LONG_DOUBLE_COMPLEX);
// MINLOC/MAXLOC's pair types are C structs { T value; int index; }, which
// is std::pair<T, int>'s layout.
template <class V>
using loc_pair = std::pair<V, int>;
PURE_DETAIL_PREDEFINED(loc_pair<float>, PURE_FLOAT_INT);
PURE_DETAIL_PREDEFINED(loc_pair<double>, PURE_DOUBLE_INT);
PURE_DETAIL_PREDEFINED(loc_pair<long>, PURE_LONG_INT);
PURE_DETAIL_PREDEFINED(loc_pair<int>, PURE_2INT);
PURE_DETAIL_PREDEFINED(loc_pair<short>, PURE_SHORT_INT);
PURE_DETAIL_PREDEFINED(loc_pair<long double>, PURE_LONG_DOUBLE_INT);
#undef PURE_DETAIL_PREDEFINED

template <class T>
struct is_pair_or_tuple : std::false_type {};
template <class A, class B>
struct is_pair_or_tuple<std::pair<A, B>> : std::true_type {};
template <class... E>
struct is_pair_or_tuple<std::tuple<E...>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
concept has_layout = requires { layout<T>::members; };

}  // namespace detail

// The types the typed API sends, receives and reduces.
template <class T>
struct is_datatype;
// The datatype of T (below).
template <class T>
PURE_Datatype datatype_handle();

namespace detail {
template <class T>
constexpr bool members_are_datatypes() {
  if constexpr (has_layout<T>) {
    return std::apply(
        [](auto... m) {
          return (is_datatype<std::remove_cvref_t<decltype(std::declval<T&>().*m)>>::value &&
                  ...);
        },
        layout<T>::members);
  } else if constexpr (is_pair_or_tuple<T>::value) {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (is_datatype<std::tuple_element_t<I, T>>::value && ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else if constexpr (is_std_array<T>::value) {
    return is_datatype<typename T::value_type>::value;
  } else {
    return false;
  }
}
}  // namespace detail

template <class T>
struct is_datatype
    : std::bool_constant<!std::is_const_v<T> && !std::is_volatile_v<T> &&
                         !std::is_reference_v<T> &&
                         (detail::predefined_type<T>::value != PURE_DATATYPE_NULL ||
                          std::is_enum_v<T> || detail::members_are_datatypes<T>())> {};

template <class T>
concept datatype = is_datatype<T>::value;

namespace detail {

// The message for a type that has no datatype, as a compile-time error.
template <class T>
constexpr void require_datatype() {
  static_assert(!std::is_reference_v<T> && !std::is_const_v<T>,
                "pure: a buffer's element type must be a plain object type");
  static_assert(datatype<T> || !std::is_class_v<T> || std::is_trivially_copyable_v<T>,
                "pure: this element type is not trivially copyable, so its bytes are not its "
                "value (it owns memory, as std::string or std::vector do); send its parts "
                "(a std::vector's data, a std::string's characters) or serialise it");
  static_assert(datatype<T> || !std::is_class_v<T> || !std::is_trivially_copyable_v<T>,
                "pure: this struct has no declared layout; declare it once, at namespace "
                "scope: PURE_LAYOUT(Type, member1, member2, ...)");
  static_assert(datatype<T> || std::is_class_v<T>, "pure: this type has no datatype (see pure/datatype.hpp for the "
                             "types the typed API sends)");
}

// Builds the derived datatype of a composite type: a struct of its members'
// datatypes at their offsets in `sample`, resized to sizeof(T), committed.
template <class T, class... M>
PURE_Datatype build_struct(const T& sample, const M&... member) {
  constexpr int n = sizeof...(M);
  int lengths[n];
  PURE_Aint displacements[n];
  PURE_Datatype types[n];
  const auto* base = reinterpret_cast<const unsigned char*>(&sample);
  int i = 0;
  auto add = [&](const auto& m) {
    lengths[i] = 1;
    displacements[i] = reinterpret_cast<const unsigned char*>(&m) - base;
    types[i] = datatype_handle<std::remove_cvref_t<decltype(m)>>();
    ++i;
  };
  (add(member), ...);
  PURE_Datatype record = PURE_DATATYPE_NULL;
  PURE_Datatype resized = PURE_DATATYPE_NULL;
  pure_type_create_struct(n, lengths, displacements, types, &record);
  pure_type_create_resized(record, 0, static_cast<PURE_Aint>(sizeof(T)), &resized);
  pure_type_free(&record);
  pure_type_commit(&resized);
  return resized;
}

template <class T>
PURE_Datatype build_type() {
  if constexpr (has_layout<T>) {
    static_assert(std::is_default_constructible_v<T>,
                  "pure: a type with a PURE_LAYOUT must be default-constructible");
    const T sample{};
    return std::apply([&](auto... m) { return build_struct(sample, (sample.*m)...); },
                      layout<T>::members);
  } else if constexpr (is_pair_or_tuple<T>::value) {
    const T sample{};
    return std::apply([&](const auto&... e) { return build_struct(sample, e...); }, sample);
  } else {
    // std::array<E, N>: N E's back to back.
    PURE_Datatype block = PURE_DATATYPE_NULL;
    pure_type_contiguous(static_cast<int>(std::tuple_size_v<T>),
                         datatype_handle<typename T::value_type>(), &block);
    pure_type_commit(&block);
    return block;
  }
}

// One rank's derived datatype for T: built by its first use on the rank.
// Every rank is a thread of its own for the job's life (its fiber carries
// its thread-locals), and datatype handles belong to a rank.
template <class T>
inline thread_local PURE_Datatype rank_type = PURE_DATATYPE_NULL;

}  // namespace detail

// The datatype of T: a constant for predefined types.
template <class T>
PURE_Datatype datatype_handle() {
  detail::require_datatype<T>();
  if constexpr (!datatype<T>) {
    return PURE_DATATYPE_NULL;  // not reached: the assertions above stop the compilation
  } else if constexpr (detail::predefined_type<T>::value != PURE_DATATYPE_NULL) {
    return detail::predefined_type<T>::value;
  } else if constexpr (std::is_enum_v<T>) {
    return datatype_handle<std::underlying_type_t<T>>();
  } else {
    PURE_Datatype& t = detail::rank_type<T>;
    if (t == PURE_DATATYPE_NULL) [[unlikely]]
      t = detail::build_type<T>();
    return t;
  }
}

}  // namespace pure

// Declares the layout of struct `Type` (its data members, by name), so that
// the typed API sends, receives and reduces it. At namespace scope, once.
#define PURE_LAYOUT(Type, ...)                                                 \
  template <>                                                                  \
  struct pure::layout<Type> {                                                  \
    static constexpr auto members =                                            \
        std::make_tuple(PURE_DETAIL_MEMBERS(Type, __VA_ARGS__));               \
  }

// PURE_DETAIL_MEMBERS(T, a, b, c) -> &T::a, &T::b, &T::c (up to 16 members).
#define PURE_DETAIL_M1(T, a) &T::a
#define PURE_DETAIL_M2(T, a, ...) &T::a, PURE_DETAIL_M1(T, __VA_ARGS__)
#define PURE_DETAIL_M3(T, a, ...) &T::a, PURE_DETAIL_M2(T, __VA_ARGS__)
#define PURE_DETAIL_M4(T, a, ...) &T::a, PURE_DETAIL_M3(T, __VA_ARGS__)
#define PURE_DETAIL_M5(T, a, ...) &T::a, PURE_DETAIL_M4(T, __VA_ARGS__)
#define PURE_DETAIL_M6(T, a, ...) &T::a, PURE_DETAIL_M5(T, __VA_ARGS__)
#define PURE_DETAIL_M7(T, a, ...) &T::a, PURE_DETAIL_M6(T, __VA_ARGS__)
#define PURE_DETAIL_M8(T, a, ...) &T::a, PURE_DETAIL_M7(T, __VA_ARGS__)
#define PURE_DETAIL_M9(T, a, ...) &T::a, PURE_DETAIL_M8(T, __VA_ARGS__)
#define PURE_DETAIL_M10(T, a, ...) &T::a, PURE_DETAIL_M9(T, __VA_ARGS__)
#define PURE_DETAIL_M11(T, a, ...) &T::a, PURE_DETAIL_M10(T, __VA_ARGS__)
#define PURE_DETAIL_M12(T, a, ...) &T::a, PURE_DETAIL_M11(T, __VA_ARGS__)
#define PURE_DETAIL_M13(T, a, ...) &T::a, PURE_DETAIL_M12(T, __VA_ARGS__)
#define PURE_DETAIL_M14(T, a, ...) &T::a, PURE_DETAIL_M13(T, __VA_ARGS__)
#define PURE_DETAIL_M15(T, a, ...) &T::a, PURE_DETAIL_M14(T, __VA_ARGS__)
#define PURE_DETAIL_M16(T, a, ...) &T::a, PURE_DETAIL_M15(T, __VA_ARGS__)
#define PURE_DETAIL_NTH(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
                        name, ...)                                                         \
  name
#define PURE_DETAIL_MEMBERS(T, ...)                                                           \
  PURE_DETAIL_NTH(__VA_ARGS__, PURE_DETAIL_M16, PURE_DETAIL_M15, PURE_DETAIL_M14,            \
                  PURE_DETAIL_M13, PURE_DETAIL_M12, PURE_DETAIL_M11, PURE_DETAIL_M10,        \
                  PURE_DETAIL_M9, PURE_DETAIL_M8, PURE_DETAIL_M7, PURE_DETAIL_M6,            \
                  PURE_DETAIL_M5, PURE_DETAIL_M4, PURE_DETAIL_M3, PURE_DETAIL_M2,            \
                  PURE_DETAIL_M1)                                                            \
  (T, __VA_ARGS__)
