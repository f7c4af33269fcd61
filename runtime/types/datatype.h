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
#include <string>
#include <vector>

#include "types/base_type.h"
#include "types/signature.h"

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

struct TypeEnvelope;  // envelope.h

// Predefined datatypes have handle indices below this (pure.h, PURE_DT_);
// derived ones get the indices from here up.
constexpr int kPredefinedTypes = 96;

class Datatype {
 public:
  // Predefined types, indexed by the low bits of the PURE_* handle (pure.h:
  // PURE_DT_(n)). nullptr if n is not a predefined index. The table lives for
  // the whole program and is safe to read from any thread.
  static const Datatype* predefined(int index);

  // Derived constructors. Counts are the caller's to validate (not
  // negative, arrays present); each returns a new, uncommitted type. A
  // displacement times an extent that overflows is an Error (PURE_ERR_ARG).
  static std::unique_ptr<Datatype> contiguous(std::int64_t count, const Datatype& old);
  // stride in extents of old
  static std::unique_ptr<Datatype> vector(std::int64_t count, std::int64_t blocklength,
                                          std::int64_t stride, const Datatype& old);
  static std::unique_ptr<Datatype> hvector(std::int64_t count, std::int64_t blocklength,
                                           std::ptrdiff_t stride_bytes, const Datatype& old);
  // displs in extents of old
  static std::unique_ptr<Datatype> indexed(std::int64_t count, const std::int64_t* blocklengths,
                                           const std::int64_t* displs, const Datatype& old);
  static std::unique_ptr<Datatype> indexed_block(std::int64_t count, std::int64_t blocklength,
                                                 const std::int64_t* displs, const Datatype& old);
  static std::unique_ptr<Datatype> hindexed(std::int64_t count, const std::int64_t* blocklengths,
                                            const std::ptrdiff_t* displs_bytes,
                                            const Datatype& old);
  static std::unique_ptr<Datatype> hindexed_block(std::int64_t count, std::int64_t blocklength,
                                                  const std::ptrdiff_t* displs_bytes,
                                                  const Datatype& old);
  static std::unique_ptr<Datatype> create_struct(std::int64_t count,
                                                 const std::int64_t* blocklengths,
                                                 const std::ptrdiff_t* displs_bytes,
                                                 const Datatype* const* types);
  static std::unique_ptr<Datatype> resized(const Datatype& old, std::ptrdiff_t lb,
                                           std::ptrdiff_t extent);
  // Same layout and committed state; never predefined.
  static std::unique_ptr<Datatype> dup(const Datatype& old);

  // MPI_Type_create_subarray and MPI_Type_create_darray (array_types.cpp):
  // the type map of the section, in the array's storage order (order_c:
  // the last dimension varies fastest), lb 0 and the whole array as extent.
  // The arguments must have passed check_subarray / check_darray.
  enum class Order { c, fortran };
  static std::unique_ptr<Datatype> subarray(int ndims, const std::int64_t* sizes,
                                            const std::int64_t* subsizes,
                                            const std::int64_t* starts, Order order,
                                            const Datatype& old);
  enum class Distribution { block, cyclic, none };
  // darg <= 0 asks for the default (MPI_DISTRIBUTE_DFLT_DARG).
  struct DarrayDim {
    std::int64_t gsize;
    Distribution distribution;
    std::int64_t darg;
    int psize;
  };
  static std::unique_ptr<Datatype> darray(int size, int rank, int ndims, const DarrayDim* dims,
                                          Order order, const Datatype& old);

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
  // that continue one another merged and empty blocks dropped, is blocks()
  // repeated reps() times, copy k displaced by k * rep_stride() bytes: a
  // vector of a billion blocks keeps one period of them, not a billion
  // (most types have reps() 1; the constructors decide, see kRepeatAbove).
  const std::vector<Block>& blocks() const { return blocks_; }
  std::size_t reps() const { return reps_; }
  std::ptrdiff_t rep_stride() const { return rep_stride_; }
  // Calls f(block) for every block of one element's type map, in order,
  // offsets relative to the element's start.
  template <class F>
  void for_each_block(F&& f) const {
    for (std::size_t k = 0; k < reps_; ++k) {
      const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(k) * rep_stride_;
      for (const Block& b : blocks_) f(Block{at + b.offset, b.length});
    }
  }
  // The whole type map as a list (for_each_block's blocks), for tests and
  // small types.
  std::vector<Block> flattened() const;
  // The single basic type all data consists of, or none.
  BaseType base() const { return base_; }
  // The basic elements in type-map order (signature.h).
  const Signature& signature() const { return *signature_; }
  const SignatureRef& signature_ref() const { return signature_; }
  // Largest alignment of the basic types inside; decides struct padding.
  std::size_t alignment() const { return alignment_; }
  bool predefined() const { return predefined_; }
  bool committed() const { return committed_; }
  void commit() { committed_ = true; }
  // "PURE_INT" etc. for predefined types, "derived datatype" otherwise:
  // what error messages call the type.
  const char* name() const { return name_; }

  // How the type was built (envelope.h): nullptr for a predefined type.
  // Set once by whoever constructs the type, before it gets a handle.
  const TypeEnvelope* envelope() const { return envelope_.get(); }
  void set_envelope(std::shared_ptr<const TypeEnvelope> e) { envelope_ = std::move(e); }
  // The name pure_type_set_name gave it (empty: none). Like committed, only
  // the owning rank's thread reads or writes it.
  const std::string& label() const { return label_; }
  void set_label(std::string label) { label_ = std::move(label); }

  // Packed offset of blocks()[i] within one period (one repetition, above);
  // one extra entry holds the period's bytes, size() / reps(). Lets a
  // cursor find any packed byte with a division and a binary search.
  const std::vector<std::size_t>& block_starts() const { return block_starts_; }

 private:
  class Builder;
  Datatype();
  // Recomputes size, block starts, true bounds and contiguity from blocks_,
  // lb_ and ub_.
  void finalize();

  std::vector<Block> blocks_;
  std::vector<std::size_t> block_starts_;
  std::size_t reps_ = 1;
  std::ptrdiff_t rep_stride_ = 0;
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
  SignatureRef signature_ = Signature::empty();
  const char* name_ = "derived datatype";
  std::shared_ptr<const TypeEnvelope> envelope_;
  std::string label_;
};

// a * b and a + b for displacements, extents and spans: a result that does
// not fit an address is the caller's bad argument (Error, PURE_ERR_ARG,
// naming `what`), never a wrapped layout.
std::ptrdiff_t checked_mul(std::ptrdiff_t a, std::ptrdiff_t b, const char* what);
std::ptrdiff_t checked_add(std::ptrdiff_t a, std::ptrdiff_t b, const char* what);

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
