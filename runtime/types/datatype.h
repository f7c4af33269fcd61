// The datatype engine: MPI type maps flattened into byte blocks, and the one
// copy primitive every transfer between two layouts goes through.
//
// A Datatype is immutable once built, except for the committed flag, so a
// receiving rank may read the sender's type while copying without locks; the
// owner must keep it alive until every transfer that names it has finished.
#ifndef PURE_RUNTIME_DATATYPE_H
#define PURE_RUNTIME_DATATYPE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace pure {

// One contiguous run of bytes inside one element of a datatype, relative to
// the element's start address.
struct Block {
  std::ptrdiff_t offset;
  std::size_t length;
};

// Copies n bytes. The sizes of one to a few basic elements (4, 8, 16 and 32
// bytes) compile to moves instead of a call into libc: the common blocks of
// non-contiguous types and the payloads of small collectives. Always
// inlined: GCC would otherwise call it from big callers, and the call
// costs what it saves.
[[gnu::always_inline]] inline void copy_fixed(void* to, const void* from, std::size_t n) {
  switch (n) {
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    case 16: std::memcpy(to, from, 16); return;
    case 32: std::memcpy(to, from, 32); return;
    default: std::memcpy(to, from, n); return;
  }
}

inline bool operator==(const Block& a, const Block& b) {
  return a.offset == b.offset && a.length == b.length;
}

// The basic element type, used by reductions. `none` for types that mix
// basic types.
enum class BaseType : std::uint8_t {
  none, char_, schar, uchar, byte, wchar, short_, ushort, int_, uint_, long_, ulong_,
  llong, ullong, float_, double_, ldouble, int8, int16, int32, int64, uint8, uint16,
  uint32, uint64, c_bool, cfloat, cdouble, cldouble, aint, offset, count, packed,
  cxx_bool, float_int, double_int, long_int, two_int, short_int, ldouble_int
};

class Datatype {
 public:
  // Predefined types, indexed by the low bits of the PURE_* handle (pure.h:
  // PURE_DT_(n)). nullptr if n is not a predefined index. The table lives for
  // the whole program and is safe to read from any thread.
  static const Datatype* predefined(int index);

  // Derived constructors. Counts are the caller's to validate; each returns
  // a new, uncommitted type.
  static std::unique_ptr<Datatype> contiguous(int count, const Datatype& old);
  // stride in extents of old
  static std::unique_ptr<Datatype> vector(int count, int blocklength, int stride,
                                          const Datatype& old);
  static std::unique_ptr<Datatype> hvector(int count, int blocklength,
                                           std::ptrdiff_t stride_bytes, const Datatype& old);
  // displs in extents of old
  static std::unique_ptr<Datatype> indexed(int count, const int* blocklengths,
                                           const int* displs, const Datatype& old);
  static std::unique_ptr<Datatype> indexed_block(int count, int blocklength,
                                                 const int* displs, const Datatype& old);
  static std::unique_ptr<Datatype> hindexed(int count, const int* blocklengths,
                                            const std::ptrdiff_t* displs_bytes,
                                            const Datatype& old);
  static std::unique_ptr<Datatype> create_struct(int count, const int* blocklengths,
                                                 const std::ptrdiff_t* displs_bytes,
                                                 const Datatype* const* types);
  static std::unique_ptr<Datatype> resized(const Datatype& old, std::ptrdiff_t lb,
                                           std::ptrdiff_t extent);
  // Same layout and committed state; never predefined.
  static std::unique_ptr<Datatype> dup(const Datatype& old);

  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  ~Datatype();

  std::size_t size() const { return size_; }
  std::ptrdiff_t lb() const { return lb_; }
  std::ptrdiff_t extent() const { return ub_ - lb_; }
  std::ptrdiff_t true_lb() const { return true_lb_; }
  std::ptrdiff_t true_extent() const { return true_ub_ - true_lb_; }
  // The data of `count` consecutive elements is one run of count*size() bytes
  // starting at buf + true_lb().
  bool contiguous() const { return contiguous_; }
  // The flattened type map of one element, in type-map order, with blocks
  // that continue one another merged and empty blocks dropped.
  const std::vector<Block>& blocks() const { return blocks_; }
  // The single basic type all data consists of, or none.
  BaseType base() const { return base_; }
  // Largest alignment of the basic types inside; decides struct padding.
  std::size_t alignment() const { return alignment_; }
  bool predefined() const { return predefined_; }
  bool committed() const { return committed_; }
  void commit() { committed_ = true; }
  // "PURE_INT" etc. for predefined types, "derived datatype" otherwise.
  const char* name() const { return name_; }

  // Packed offset of blocks()[i] within one element; one extra entry holds
  // size(). Lets a cursor find any packed byte with a binary search.
  const std::vector<std::size_t>& block_starts() const { return block_starts_; }

 private:
  class Builder;
  Datatype();
  // Recomputes size, block starts, true bounds and contiguity from blocks_,
  // lb_ and ub_.
  void finalize();

  std::vector<Block> blocks_;
  std::vector<std::size_t> block_starts_;
  std::size_t size_ = 0;
  std::ptrdiff_t lb_ = 0;
  std::ptrdiff_t ub_ = 0;
  std::ptrdiff_t true_lb_ = 0;
  std::ptrdiff_t true_ub_ = 0;
  std::size_t alignment_ = 1;
  // Set by resized and inherited through constructors, as MPI's lb/ub
  // markers are: an explicit bound wins over the data and suppresses padding.
  bool explicit_lb_ = false;
  bool explicit_ub_ = false;
  bool contiguous_ = true;
  bool predefined_ = false;
  bool committed_ = false;
  BaseType base_ = BaseType::none;
  const char* name_ = "derived datatype";
};

// Copy packed bytes [byte_begin, byte_end) of the source layout into the same
// packed byte range of the destination layout. "Packed bytes" are the data of
// (buf, count, type) laid out densely in type-map order. Disjoint ranges of
// one transfer may be copied by different threads at once.
// Throws std::out_of_range if byte_end exceeds either layout's total size.
void copy_range(const void* src, std::size_t scount, const Datatype& stype, void* dst,
                std::size_t dcount, const Datatype& dtype, std::size_t byte_begin,
                std::size_t byte_end);

// Layout -> dense bytes: `bytes` bytes starting at packed offset `offset`.
void pack(const void* src, std::size_t count, const Datatype& type, std::size_t offset,
          void* out, std::size_t bytes);
// Dense bytes -> layout: `bytes` bytes into packed offset `offset` onwards.
void unpack(const void* in, std::size_t bytes, void* dst, std::size_t count,
            const Datatype& type, std::size_t offset);

// The address of packed byte `offset` of (base, count, type): where a
// one-sided accumulate finds the element it locks (onesided/element_op.h).
// `offset` must be below count * type.size().
void* address_of(void* base, std::size_t count, const Datatype& type, std::size_t offset);

}  // namespace pure

#endif  // PURE_RUNTIME_DATATYPE_H
