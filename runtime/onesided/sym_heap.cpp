#include "onesided/sym_heap.h"

#include <atomic>
#include <cstring>
#include <iterator>

#include "base/error.h"
#include "types/ops.h"

namespace pure::onesided {

// ---- SymAllocator ----

SymAllocator::SymAllocator(std::size_t capacity) {
  if (capacity > 0) free_.emplace(0, capacity);
}

std::int64_t SymAllocator::allocate(std::size_t bytes) {
  const std::size_t need = (bytes + kAlign - 1) / kAlign * kAlign;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const std::int64_t at = it->first;
    const std::size_t left = it->second - need;
    free_.erase(it);
    if (left > 0) free_.emplace(at + static_cast<std::int64_t>(need), left);
    used_.emplace(at, need);
    return at;
  }
  return -1;
}

bool SymAllocator::release(std::int64_t offset) {
  auto used = used_.find(offset);
  if (used == used_.end()) return false;
  std::int64_t at = offset;
  std::size_t bytes = used->second;
  used_.erase(used);
  // Merge with the free neighbours on both sides.
  auto next = free_.lower_bound(at);
  if (next != free_.end() && next->first == at + static_cast<std::int64_t>(bytes)) {
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + static_cast<std::int64_t>(prev->second) == at) {
      at = prev->first;
      bytes += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(at, bytes);
  return true;
}

// ---- SymHeap ----

SymHeap::SymHeap(std::unique_ptr<Window> window, std::size_t bytes, const Datatype& byte,
                 const Datatype& int32, const Datatype& int64)
    : window_(std::move(window)),
      base_(static_cast<char*>(window_->base_attr())),
      size_(bytes),
      parts_(static_cast<std::size_t>(window_->size()), nullptr),
      allocator_(bytes),
      byte_(byte),
      int32_(int32),
      int64_(int64) {
  window_->set_name("the symmetric heap");
  for (int pe = 0; pe < window_->size(); ++pe)
    parts_[static_cast<std::size_t>(pe)] = window_->local_base(pe);
}

SymHeap::~SymHeap() = default;

std::int64_t SymHeap::offset_of(const void* p, std::size_t bytes, const char* what,
                                const char* call) const {
  const auto* c = static_cast<const char*>(p);
  if (c < base_ || c >= base_ + size_ || bytes > static_cast<std::size_t>(base_ + size_ - c))
    fail(PURE_ERR_ARG,
         "%s %p (%zu bytes) is not in this rank's part of the symmetric heap [%p, %p): "
         "memory other ranks reach must come from pure_sym_malloc (%s)",
         what, p, bytes, static_cast<void*>(base_), static_cast<void*>(base_ + size_), call);
  return c - base_;
}

namespace {

// 4 and 8 aligned bytes are one atomic access, so that a flag is never torn
// and orders what the writer stored before it (the header).
bool word(const void* at, std::size_t bytes) {
  return (bytes == 8 || bytes == 4) && reinterpret_cast<std::uintptr_t>(at) % bytes == 0;
}

void store(char* to, const void* from, std::size_t bytes) {
  if (word(to, bytes)) {
    if (bytes == 8) {
      std::uint64_t v;
      std::memcpy(&v, from, 8);
      __atomic_store_n(reinterpret_cast<std::uint64_t*>(to), v, __ATOMIC_RELEASE);
    } else {
      std::uint32_t v;
      std::memcpy(&v, from, 4);
      __atomic_store_n(reinterpret_cast<std::uint32_t*>(to), v, __ATOMIC_RELEASE);
    }
    return;
  }
  std::memcpy(to, from, bytes);
}

void load(void* to, const char* from, std::size_t bytes) {
  if (word(from, bytes)) {
    if (bytes == 8) {
      const std::uint64_t v =
          __atomic_load_n(reinterpret_cast<const std::uint64_t*>(from), __ATOMIC_ACQUIRE);
      std::memcpy(to, &v, 8);
    } else {
      const std::uint32_t v =
          __atomic_load_n(reinterpret_cast<const std::uint32_t*>(from), __ATOMIC_ACQUIRE);
      std::memcpy(to, &v, 4);
    }
    return;
  }
  std::memcpy(to, from, bytes);
}

}  // namespace

void SymHeap::put(void* dest, const void* source, std::size_t bytes, int pe, bool nbi,
                  const char* call) {
  const std::int64_t off = offset_of(dest, bytes, "destination", call);
  if (bytes == 0) return;
  if (char* part = part_of(pe)) {
    store(part + off, source, bytes);
    notify(pe);
    return;
  }
  window_->put(ConstLayout{source, bytes, &byte_}, pe, off, bytes, byte_, call);
  // A blocking put returns once the source may be reused.
  if (!nbi) window_->flush(pe, true, call);
}

void SymHeap::get(void* dest, const void* source, std::size_t bytes, int pe, bool nbi,
                  const char* call) {
  const std::int64_t off = offset_of(source, bytes, "source", call);
  if (bytes == 0) return;
  if (const char* part = part_of(pe)) {
    load(dest, part + off, bytes);
    return;
  }
  window_->get(Layout{dest, bytes, &byte_}, pe, off, bytes, byte_, call);
  if (!nbi) window_->flush(pe, false, call);
}

void SymHeap::strided(bool is_put, void* dest, const void* source, std::ptrdiff_t dest_stride,
                      std::ptrdiff_t source_stride, std::size_t elem, std::size_t n, int pe,
                      const char* call) {
  if (n == 0 || elem == 0) return;
  auto* d = static_cast<char*>(dest);
  const auto* s = static_cast<const char*>(source);
  const std::ptrdiff_t ds = dest_stride * static_cast<std::ptrdiff_t>(elem);
  const std::ptrdiff_t ss = source_stride * static_cast<std::ptrdiff_t>(elem);
  // Both ends of the symmetric side's span lie in the heap.
  const char* sym = is_put ? d : s;
  const std::ptrdiff_t last = (is_put ? ds : ss) * static_cast<std::ptrdiff_t>(n - 1);
  offset_of(sym, elem, is_put ? "destination" : "source", call);
  offset_of(sym + last, elem, is_put ? "destination's last element" : "source's last element",
            call);
  for (std::size_t i = 0; i < n; ++i) {
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(i);
    if (is_put)
      put(d + ds * at, s + ss * at, elem, pe, true, call);
    else
      get(d + ds * at, s + ss * at, elem, pe, true, call);
  }
  // Blocking, as a put (the source may be reused) or a get (the data is here).
  if (!part_of(pe)) window_->flush(pe, is_put, call);
}

template <class T>
T SymHeap::atomic(AtomicOp op, T* dest, T value, T compare, int pe, const char* call) {
  const std::int64_t off = offset_of(dest, sizeof(T), "atomic's target", call);
  if (off % static_cast<std::int64_t>(sizeof(T)) != 0)
    fail(PURE_ERR_ARG, "atomic's target %p is not aligned to its %zu bytes",
         static_cast<void*>(dest), sizeof(T));
  char* part = part_of(pe);
  if (!part || spans_processes()) return remote_atomic(op, off, value, compare, pe, call);
  T* at = reinterpret_cast<T*>(part + off);
  T old = 0;
  switch (op) {
    case AtomicOp::fetch:
      return __atomic_load_n(at, __ATOMIC_ACQUIRE);
    case AtomicOp::set:
      __atomic_store_n(at, value, __ATOMIC_RELEASE);
      break;
    case AtomicOp::add:
      old = __atomic_fetch_add(at, value, __ATOMIC_ACQ_REL);
      break;
    case AtomicOp::swap:
      old = __atomic_exchange_n(at, value, __ATOMIC_ACQ_REL);
      break;
    case AtomicOp::compare_swap:
      old = compare;
      __atomic_compare_exchange_n(at, &old, value, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
      break;
    case AtomicOp::band:
      old = __atomic_fetch_and(at, value, __ATOMIC_ACQ_REL);
      break;
    case AtomicOp::bor:
      old = __atomic_fetch_or(at, value, __ATOMIC_ACQ_REL);
      break;
    case AtomicOp::bxor:
      old = __atomic_fetch_xor(at, value, __ATOMIC_ACQ_REL);
      break;
  }
  notify(pe);
  return old;
}

template <class T>
T SymHeap::remote_atomic(AtomicOp op, std::int64_t offset, T value, T compare, int pe,
                         const char* call) {
  const Datatype& type = sizeof(T) == 4 ? int32_ : int64_;
  T old = 0;
  if (op == AtomicOp::compare_swap) {
    window_->compare_and_swap(&value, &compare, &old, type, pe, offset, call);
  } else {
    int mpi_op = op_no_op;
    switch (op) {
      case AtomicOp::fetch:
        mpi_op = op_no_op;
        break;
      case AtomicOp::set:
      case AtomicOp::swap:
        mpi_op = op_replace;
        break;
      case AtomicOp::add:
        mpi_op = op_sum;
        break;
      case AtomicOp::band:
        mpi_op = op_band;
        break;
      case AtomicOp::bor:
        mpi_op = op_bor;
        break;
      case AtomicOp::bxor:
        mpi_op = op_bxor;
        break;
      case AtomicOp::compare_swap:
        break;
    }
    const Layout result{&old, 1, &type};
    window_->accumulate(mpi_op, ConstLayout{&value, 1, &type}, pe, offset, 1, type, &result, call);
  }
  window_->flush(pe, false, call);
  if (part_of(pe)) notify(pe);
  return old;
}

template std::int32_t SymHeap::atomic(AtomicOp, std::int32_t*, std::int32_t, std::int32_t, int,
                                      const char*);
template std::int64_t SymHeap::atomic(AtomicOp, std::int64_t*, std::int64_t, std::int64_t, int,
                                      const char*);

void SymHeap::quiet(const char* call) {
  if (spans_processes()) window_->flush(-1, false, call);
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void SymHeap::fence(const char* call) {
  // MPI does not order puts to one target: across processes, completing
  // them is the only way to order them.
  if (spans_processes()) window_->flush(-1, false, call);
  std::atomic_thread_fence(std::memory_order_release);
}

void SymHeap::free(const char* call) {
  window_->unlock_all(call);
  window_->free(call);
}

}  // namespace pure::onesided
