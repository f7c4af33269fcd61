// The typed C++ API's one-sided communication (C++20): MPI windows of T's,
// with access epochs as scoped objects.
//
//   pure::window<double> win(world, n);          // n doubles on every rank
//   win.local()[0] = 1.0;
//   win.fence();
//   win.put(std::span(row), right, /*offset=*/0);  // elements, not bytes
//   win.fence();
//   {
//     auto epoch = win.lock(0);                  // unlocked at scope end
//     const auto old = win.fetch_and_op(1L, 0, 3, std::plus<>{});
//   }
//
// Offsets and counts are in elements of T (the window's displacement unit
// is sizeof(T)). Accumulates take MPI's predefined operators on basic types
// (pure/ops.hpp) and pure::replace; a user operator does not compile, since
// MPI's one-sided accumulates allow none.
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <utility>

#include "pure/communicator.hpp"

namespace pure {

// Accumulate's MPI_REPLACE: the target's value becomes the origin's.
struct replace {
  template <class T>
  constexpr T operator()(const T&, const T& b) const {
    return b;
  }
};

enum class lock_kind { exclusive = PURE_LOCK_EXCLUSIVE, shared = PURE_LOCK_SHARED };

template <class T>
class window {
 public:
  // Collective over comm: every rank exposes `count` T's, allocated by the
  // runtime and value-initialised (zeros for numbers).
  window(const communicator& comm, std::size_t count) : count_(count) {
    detail::require_datatype<T>();
    type_ = datatype_handle<T>();
    void* base = nullptr;
    detail::check([&] {
      return pure_win_allocate(static_cast<PURE_Aint>(count * sizeof(T)), sizeof(T),
                               PURE_INFO_NULL, comm.native(), &base, &native_);
    });
    base_ = static_cast<T*>(base);
    for (std::size_t i = 0; i < count; ++i) new (base_ + i) T{};
    // Every rank's fill before anyone's access; a fence that opens no
    // epoch, so that the first epoch may be a fence's or a lock's.
    fence(PURE_MODE_NOPRECEDE | PURE_MODE_NOSUCCEED);
  }
  window(window&& other) noexcept
      : native_(std::exchange(other.native_, PURE_WIN_NULL)),
        base_(other.base_),
        count_(other.count_),
        type_(other.type_) {}
  window& operator=(window&&) = delete;
  window(const window&) = delete;
  // Collective, as MPI_Win_free.
  ~window() {
    if (native_ != PURE_WIN_NULL) pure_win_free(&native_);
  }

  std::span<T> local() { return {base_, count_}; }
  std::span<const T> local() const { return {base_, count_}; }
  PURE_Win native() const { return native_; }

  // ---- synchronisation ----
  void fence(int assertions = 0) {
    detail::check([&] { return pure_win_fence(assertions, native_); });
  }
  // A passive-target epoch: the lock is held until the object is destroyed
  // (or release() is called).
  class epoch {
   public:
    epoch(epoch&& other) noexcept
        : win_(std::exchange(other.win_, PURE_WIN_NULL)), target_(other.target_) {}
    epoch& operator=(epoch&&) = delete;
    epoch(const epoch&) = delete;
    ~epoch() {
      if (win_ != PURE_WIN_NULL) unlock();
    }
    // Completes this epoch's operations at the target (all targets).
    void flush() {
      detail::check([&] {
        return target_ == kAll ? pure_win_flush_all(win_) : pure_win_flush(target_, win_);
      });
    }
    void release() {
      if (win_ == PURE_WIN_NULL) return;
      const PURE_Win w = std::exchange(win_, PURE_WIN_NULL);
      detail::check([&] { return target_ == kAll ? pure_win_unlock_all(w) : pure_win_unlock(target_, w); });
    }

   private:
    friend class window;
    static constexpr int kAll = -1;
    epoch(PURE_Win win, int target) : win_(win), target_(target) {}
    void unlock() noexcept {
      // A destructor: a failure is reported by the window's error handler
      // (fatal by default), not thrown.
      if (target_ == kAll)
        pure_win_unlock_all(win_);
      else
        pure_win_unlock(target_, win_);
      win_ = PURE_WIN_NULL;
    }
    PURE_Win win_;
    int target_;
  };
  [[nodiscard]] epoch lock(int target, lock_kind kind = lock_kind::exclusive) {
    detail::check([&] { return pure_win_lock(static_cast<int>(kind), target, 0, native_); });
    return epoch(native_, target);
  }
  [[nodiscard]] epoch lock_all() {
    detail::check([&] { return pure_win_lock_all(0, native_); });
    return epoch(native_, epoch::kAll);
  }

  // ---- transfers: a value of T or a contiguous buffer of them ----
  template <class S>
  void put(const S& origin, int target, std::size_t offset) {
    const detail::view v = of_elements(origin);
    detail::check([&] {
      return pure_put_c(v.data, detail::big(v.count), v.type, target, disp(offset),
                        detail::big(v.count), type_, native_);
    });
  }
  template <class R>
  void get(R& origin, int target, std::size_t offset) {
    const detail::view v = of_elements(origin);
    detail::check([&] {
      return pure_get_c(v.data, detail::big(v.count), v.type, target, disp(offset),
                        detail::big(v.count), type_, native_);
    });
  }
  template <class S, class Op>
  void accumulate(const S& origin, int target, std::size_t offset, Op) {
    const detail::view v = of_elements(origin);
    const PURE_Op op = one_sided_op<Op>();
    detail::check([&] {
      return pure_accumulate_c(v.data, detail::big(v.count), v.type, target, disp(offset),
                               detail::big(v.count), type_, op, native_);
    });
  }
  // The target's element before op(value) was applied to it, atomically.
  // In a lock epoch (lock or lock_all): the value is complete when it
  // returns (a local flush, which MPI allows in those epochs only).
  template <class Op>
  T fetch_and_op(const T& value, int target, std::size_t offset, Op) {
    const PURE_Op op = one_sided_op<Op>();
    T old{};
    detail::check([&] {
      return pure_fetch_and_op(&value, &old, type_, target, disp(offset), op, native_);
    });
    detail::check([&] { return pure_win_flush_local(target, native_); });
    return old;
  }
  // Writes desired where the target's element equals expected; returns the
  // element as it was. In a lock epoch, as fetch_and_op.
  T compare_and_swap(const T& desired, const T& expected, int target, std::size_t offset) {
    T old{};
    detail::check([&] {
      return pure_compare_and_swap(&desired, &expected, &old, type_, target, disp(offset),
                                   native_);
    });
    detail::check([&] { return pure_win_flush_local(target, native_); });
    return old;
  }

 private:
  template <class B>
  detail::view of_elements(const B& buf) const {
    static_assert(std::is_same_v<detail::element_t<B>, T>,
                  "pure: a window's transfers move the window's own element type");
    return detail::view_of(buf);
  }
  template <class Op>
  static constexpr PURE_Op one_sided_op() {
    if constexpr (std::is_same_v<std::remove_cvref_t<Op>, pure::replace>) {
      return PURE_REPLACE;
    } else {
      static_assert(detail::predefined_op<Op, T>() != PURE_OP_NULL,
                    "pure: one-sided accumulates take MPI's predefined operators on basic types "
                    "only (std::plus<>, std::multiplies<>, pure::min, pure::max, the bitwise "
                    "and logical ones, pure::replace), as MPI allows no user operator there");
      return detail::predefined_op<Op, T>();
    }
  }
  static PURE_Aint disp(std::size_t offset) { return static_cast<PURE_Aint>(offset); }

  PURE_Win native_ = PURE_WIN_NULL;
  T* base_ = nullptr;
  std::size_t count_ = 0;
  PURE_Datatype type_ = PURE_DATATYPE_NULL;
};

}  // namespace pure
