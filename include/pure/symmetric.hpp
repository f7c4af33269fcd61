// The typed C++ API's PGAS calls (C++20), in the style of pure::window:
// arrays of T's on the symmetric heap (pure/pgas.h), owned by an object.
//
//   pure::symmetric<std::int64_t> counts(n);     // n on every rank; collective
//   counts.fetch_and_op(std::int64_t{1}, pe, i, std::plus<>{});
//   counts.put(std::span(row), right, /*offset=*/0);   // elements, not bytes
//   counts.wait_until(0, pure::compare::ne, std::int64_t{0});
//   pure::symmetric_lock lock;                   // collective
//   { auto held = lock.hold(); ... }             // pure_set_lock .. pure_clear_lock
//
// Offsets and counts are in elements of T. As in the flat PGAS calls, a
// transfer or atomic that fails (a PE out of range, a wait inside an active
// message handler) ends the job with a message naming the rank, the call and
// the value: these calls have no error code to throw. Constructing a
// symmetric array when the heap is full throws pure::error (PURE_ERR_NO_MEM).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "pure/communicator.hpp"
#include "pure/pgas.h"
#include "pure/window.hpp"

namespace pure {

// pure_int32_wait_until's comparisons.
enum class compare {
  eq = PURE_CMP_EQ,
  ne = PURE_CMP_NE,
  gt = PURE_CMP_GT,
  ge = PURE_CMP_GE,
  lt = PURE_CMP_LT,
  le = PURE_CMP_LE
};

namespace detail {

// The PGAS atomics are on 32- and 64-bit integers (pure/pgas.h).
template <class T>
concept pgas_word = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                    (sizeof(T) == 4 || sizeof(T) == 8);

template <class T>
using pgas_int_t = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;

}  // namespace detail

template <class T>
class symmetric {
  static_assert(std::is_trivially_copyable_v<T>,
                "pure: the symmetric heap holds plain data, moved as bytes: T must be "
                "trivially copyable");

 public:
  // Collective over PURE_COMM_WORLD, as pure_sym_malloc: every rank passes
  // the same count and gets `count` value-initialised T's at the same
  // offset of its part of the heap. Returns once every rank filled its own,
  // so that puts may follow at once.
  explicit symmetric(std::size_t count = 1) : count_(count) {
    void* p = pure_sym_malloc(count * sizeof(T));
    if (!p && count > 0)
      detail::throw_error(PURE_ERR_NO_MEM, "pure_sym_malloc",
                          std::to_string(count * sizeof(T)) +
                              " bytes do not fit in the symmetric heap (PURE_SYM_HEAP sets "
                              "its size)");
    base_ = static_cast<T*>(p);
    for (std::size_t i = 0; i < count; ++i) new (base_ + i) T{};
    pure_barrier_all();
  }
  symmetric(symmetric&& other) noexcept
      : base_(std::exchange(other.base_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  symmetric& operator=(symmetric&&) = delete;
  symmetric(const symmetric&) = delete;
  // Collective, as pure_sym_free.
  ~symmetric() {
    if (base_) pure_sym_free(base_);
  }

  // This rank's part.
  std::span<T> local() { return {base_, count_}; }
  std::span<const T> local() const { return {base_, count_}; }
  T& operator[](std::size_t i) { return base_[i]; }
  const T& operator[](std::size_t i) const { return base_[i]; }
  std::size_t size() const { return count_; }

  // ---- transfers: complete at return (put: the origin may be reused;
  // pure::quiet() completes it at the target) ----
  template <class S>
  void put(const S& origin, int pe, std::size_t offset) {
    const auto [data, bytes] = bytes_of(origin);
    pure_putmem(base_ + offset, data, bytes, pe);
  }
  template <class R>
  void get(R& origin, int pe, std::size_t offset) const {
    const auto [data, bytes] = bytes_of(origin);
    pure_getmem(data, base_ + offset, bytes, pe);
  }
  // One element of `pe`'s part.
  T get(int pe, std::size_t offset) const {
    T value;
    pure_getmem(&value, base_ + offset, sizeof(T), pe);
    return value;
  }
  // Nonblocking: complete after pure::quiet() (or barrier_all()).
  template <class S>
  void put_nbi(const S& origin, int pe, std::size_t offset) {
    const auto [data, bytes] = bytes_of(origin);
    pure_putmem_nbi(base_ + offset, data, bytes, pe);
  }
  template <class R>
  void get_nbi(R& origin, int pe, std::size_t offset) const {
    const auto [data, bytes] = bytes_of(origin);
    pure_getmem_nbi(data, base_ + offset, bytes, pe);
  }

  // ---- atomics on 32- and 64-bit integers ----
  T fetch(int pe, std::size_t offset) const
    requires detail::pgas_word<T>
  {
    if constexpr (sizeof(T) == 4)
      return static_cast<T>(pure_int32_atomic_fetch(word(offset), pe));
    else
      return static_cast<T>(pure_int64_atomic_fetch(word(offset), pe));
  }
  // The element before op(element, value) replaced it, atomically: op is
  // std::plus<>, std::bit_and<>, std::bit_or<>, std::bit_xor<> or
  // pure::replace (a swap), the operations the PGAS atomics have.
  template <class Op>
  T fetch_and_op(T value, int pe, std::size_t offset, Op)
    requires detail::pgas_word<T>
  {
    using O = std::remove_cvref_t<Op>;
    using I = detail::pgas_int_t<T>;
    const I v = static_cast<I>(value);
    I* at = word(offset);
    I old;
    if constexpr (std::is_same_v<O, std::plus<>> || std::is_same_v<O, std::plus<T>>) {
      if constexpr (sizeof(T) == 4) old = pure_int32_atomic_fetch_add(at, v, pe);
      else old = pure_int64_atomic_fetch_add(at, v, pe);
    } else if constexpr (std::is_same_v<O, std::bit_and<>> || std::is_same_v<O, std::bit_and<T>>) {
      if constexpr (sizeof(T) == 4) old = pure_int32_atomic_fetch_and(at, v, pe);
      else old = pure_int64_atomic_fetch_and(at, v, pe);
    } else if constexpr (std::is_same_v<O, std::bit_or<>> || std::is_same_v<O, std::bit_or<T>>) {
      if constexpr (sizeof(T) == 4) old = pure_int32_atomic_fetch_or(at, v, pe);
      else old = pure_int64_atomic_fetch_or(at, v, pe);
    } else if constexpr (std::is_same_v<O, std::bit_xor<>> || std::is_same_v<O, std::bit_xor<T>>) {
      if constexpr (sizeof(T) == 4) old = pure_int32_atomic_fetch_xor(at, v, pe);
      else old = pure_int64_atomic_fetch_xor(at, v, pe);
    } else if constexpr (std::is_same_v<O, pure::replace>) {
      if constexpr (sizeof(T) == 4) old = pure_int32_atomic_swap(at, v, pe);
      else old = pure_int64_atomic_swap(at, v, pe);
    } else {
      static_assert(detail::always_false<O>,
                    "pure: the PGAS atomics are add, and, or, xor and swap: pass std::plus<>, "
                    "std::bit_and<>, std::bit_or<>, std::bit_xor<> or pure::replace (for other "
                    "operators use a pure::window, or a pure::symmetric_lock around a get "
                    "and a put)");
    }
    return static_cast<T>(old);
  }
  // Writes desired where the element equals expected; returns the element
  // as it was, atomically.
  T compare_and_swap(T desired, T expected, int pe, std::size_t offset)
    requires detail::pgas_word<T>
  {
    using I = detail::pgas_int_t<T>;
    if constexpr (sizeof(T) == 4)
      return static_cast<T>(pure_int32_atomic_compare_swap(word(offset), static_cast<I>(expected),
                                                           static_cast<I>(desired), pe));
    else
      return static_cast<T>(pure_int64_atomic_compare_swap(word(offset), static_cast<I>(expected),
                                                           static_cast<I>(desired), pe));
  }
  // Waits (running task chunks and active messages meanwhile) until this
  // rank's element `offset` compares true against value.
  void wait_until(std::size_t offset, compare cmp, T value)
    requires detail::pgas_word<T>
  {
    using I = detail::pgas_int_t<T>;
    if constexpr (sizeof(T) == 4)
      pure_int32_wait_until(word(offset), static_cast<int>(cmp), static_cast<I>(value));
    else
      pure_int64_wait_until(word(offset), static_cast<int>(cmp), static_cast<I>(value));
  }

 private:
  struct bytes_view {
    void* data;
    std::size_t bytes;
  };
  template <class B>
  static bytes_view bytes_of(B& buf) {
    static_assert(std::is_same_v<detail::element_t<B>, T>,
                  "pure: a symmetric array's transfers move its own element type");
    using E = std::remove_cvref_t<B>;
    if constexpr (detail::contiguous_buffer<E>) {
      return {const_cast<void*>(static_cast<const void*>(std::data(buf))),
              static_cast<std::size_t>(std::size(buf)) * sizeof(T)};
    } else {
      return {const_cast<void*>(static_cast<const void*>(&buf)), sizeof(T)};
    }
  }
  detail::pgas_int_t<T>* word(std::size_t offset) const {
    return reinterpret_cast<detail::pgas_int_t<T>*>(base_ + offset);
  }

  T* base_ = nullptr;
  std::size_t count_ = 0;
};

// A distributed lock (pure_set_lock), itself a word of the symmetric heap;
// construction and destruction are collective.
class symmetric_lock {
 public:
  // Held until destroyed (or released).
  class held {
   public:
    held(held&& other) noexcept : lock_(std::exchange(other.lock_, nullptr)) {}
    held& operator=(held&&) = delete;
    held(const held&) = delete;
    ~held() { release(); }
    void release() {
      if (pure_lock_t* l = std::exchange(lock_, nullptr)) pure_clear_lock(l);
    }

   private:
    friend class symmetric_lock;
    explicit held(pure_lock_t* lock) : lock_(lock) {}
    pure_lock_t* lock_;
  };

  symmetric_lock() : word_(1) {}
  // Waits for the lock.
  [[nodiscard]] held hold() {
    pure_set_lock(&word_[0]);
    return held(&word_[0]);
  }
  // The lock if it is free now; an empty optional otherwise.
  [[nodiscard]] std::optional<held> try_hold() {
    if (pure_test_lock(&word_[0]) != 0) return std::nullopt;
    return held(&word_[0]);
  }

 private:
  symmetric<pure_lock_t> word_;
};

// Completes every put, get and atomic this rank issued, at their targets.
inline void quiet() { pure_quiet(); }
// quiet(), then a barrier of PURE_COMM_WORLD.
inline void barrier_all() { pure_barrier_all(); }

}  // namespace pure
