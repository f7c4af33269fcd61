// The symmetric heap of the PGAS API (pure/pgas.h): every rank's part is
// one block of the same size, the memory of one allocate window over the
// world (each rank's window rank is its world rank, displacements in
// bytes; across processes an MPI_Win_allocate, which MPI can place in
// shared memory) held in a lock_all epoch from creation to finalize. An object is
// named by its offset in the block, the same at every rank: SymAllocator
// hands out the same offsets everywhere because every rank runs it on the
// same sequence of collective calls.
//
// Within a process the heap reaches a target's part by address: a put is a
// store or a copy, an atomic one atomic instruction, and the target's
// Parker is notified after it (it may be parked in pure_*_wait_until). A
// put or get of 4 or 8 aligned bytes is one atomic store (release) or load
// (acquire): a flag written after data makes the data visible with it.
// When the world spans processes, puts and gets to other processes go
// through the window's MPI side (onesided/remote.h), and so does every
// atomic, whatever its target: MPI's atomicity holds only among MPI's own
// operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "onesided/window.h"
#include "types/datatype.h"

namespace pure::onesided {

class SymAllocator {
 public:
  static constexpr std::size_t kAlign = 64;
  explicit SymAllocator(std::size_t capacity);
  // The offset of a new block of `bytes` (> 0), first fit; -1 when none fits.
  std::int64_t allocate(std::size_t bytes);
  // Whether `offset` began a live block (which is now free).
  bool release(std::int64_t offset);
  std::size_t blocks() const { return used_.size(); }

 private:
  std::map<std::int64_t, std::size_t> free_;  // offset -> bytes, neighbours merged
  std::map<std::int64_t, std::size_t> used_;
};

enum class AtomicOp { fetch, set, add, swap, compare_swap, band, bor, bxor };

class SymHeap {
 public:
  // `window`: the heap's window, an allocate window of `bytes` per rank
  // created on the world (its memory is the heap; it goes with the
  // window); `int32`, `int64`, `byte`: the predefined types (for the MPI
  // side).
  SymHeap(std::unique_ptr<Window> window, std::size_t bytes, const Datatype& byte,
          const Datatype& int32, const Datatype& int64);
  SymHeap(const SymHeap&) = delete;
  SymHeap& operator=(const SymHeap&) = delete;
  ~SymHeap();

  Window& window() { return *window_; }
  SymAllocator& allocator() { return allocator_; }
  char* base() const { return base_; }
  std::size_t size() const { return size_; }
  bool spans_processes() const { return window_->spans_processes(); }
  bool contains(const void* p) const {
    const auto* c = static_cast<const char*>(p);
    return c >= base_ && c < base_ + size_;
  }
  // The offset of [p, p + bytes) in this rank's part; PURE_ERR_ARG naming
  // `what` and `call` when it is not inside it.
  std::int64_t offset_of(const void* p, std::size_t bytes, const char* what,
                         const char* call) const;
  // `pe`'s part, when it lives in this process; else nullptr.
  char* part_of(int pe) const { return parts_[static_cast<std::size_t>(pe)]; }

  // ---- data movement; `pe` checked by the caller; `nbi`: completed by quiet ----
  void put(void* dest, const void* source, std::size_t bytes, int pe, bool nbi, const char* call);
  void get(void* dest, const void* source, std::size_t bytes, int pe, bool nbi, const char* call);
  // Strided put (`is_put`) or get: `n` elements of `elem` bytes, strides in
  // elements (shmem_iput's convention); the symmetric side is dest for a
  // put, source for a get.
  void strided(bool is_put, void* dest, const void* source, std::ptrdiff_t dest_stride,
               std::ptrdiff_t source_stride, std::size_t elem, std::size_t n, int pe,
               const char* call);
  // The old value (compare_swap: stores `value` where it equals `compare`).
  template <class T>
  T atomic(AtomicOp op, T* dest, T value, T compare, int pe, const char* call);

  void quiet(const char* call);
  void fence(const char* call);

  // Collective: the window's lock_all ends and the window is freed.
  void free(const char* call);

 private:
  template <class T>
  T remote_atomic(AtomicOp op, std::int64_t offset, T value, T compare, int pe, const char* call);
  void notify(int pe) { window_->notify_member(pe); }

  std::unique_ptr<Window> window_;
  char* base_;
  std::size_t size_;
  std::vector<char*> parts_;  // by world rank; nullptr for other processes
  SymAllocator allocator_;
  const Datatype& byte_;
  const Datatype& int32_;
  const Datatype& int64_;
};

}  // namespace pure::onesided
