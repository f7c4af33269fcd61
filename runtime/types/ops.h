// Reduction operations: the predefined ops as typed, vectorisable kernels,
// user ops, and Reduction, which binds an op to a datatype and count and
// says how the data is laid out while it is being reduced.
//
// Predefined ops work on "dense items" (one basic element each, or one
// value-index record for MINLOC/MAXLOC): straight on the user's buffer when
// the datatype is contiguous, otherwise on a packed copy. User ops work on
// whole datatype elements in the user's own layout (MPI hands them buffers
// laid out by the datatype), addressed as base + i * extent.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/handle.h"

#include "types/datatype.h"
#include "pure/pure.h"

namespace pure {

enum PredefinedOp : int {
  op_max = 1, op_min, op_sum, op_prod, op_land, op_band, op_lor, op_bor, op_lxor, op_bxor,
  op_minloc, op_maxloc,
  // One-sided accumulates only (MPI_REPLACE, MPI_NO_OP): no reduction kernel.
  op_replace, op_no_op
};
constexpr int kFirstUserOp = 64;

// inout[i] = in[i] op inout[i] for i < n; in and inout never overlap.
using Kernel = void (*)(const void* in, void* inout, std::size_t n);

// A user op: a function of pure_op_create, whose length is an int, of
// pure_op_create_c, whose length is a PURE_Count, or a function object of
// the typed C++ API (pure/error.hpp, detail::op_create) called with its
// state; one of the three is set.
struct UserOp {
  PURE_User_function* fn = nullptr;
  PURE_User_function_c* fn_c = nullptr;
  void (*fn_state)(const void* in, void* inout, PURE_Count count, void* state) = nullptr;
  void* state = nullptr;
  bool commute = true;
};

// An op as a call sees it: predefined index, or the user function.
struct OpRef {
  int predefined = 0;  // 0 for a user op
  UserOp user;
};

// "PURE_SUM", ..., or "user op".
const char* op_name(int predefined);
// The kernel of a predefined op for a basic type, or nullptr when MPI does
// not define the op on that type.
Kernel predefined_kernel(int op, BaseType base);
// Bytes of one dense item of a basic type (a packed record for pair types).
std::size_t item_size(BaseType base);

// The index of a predefined datatype handle, or -1 for a derived type or a
// handle that is not a datatype at all.
inline int predefined_type_index(PURE_Datatype type) {
  return predefined_index(type, PURE_HANDLE_KIND_DATATYPE, kPredefinedTypes);
}

// A predefined op's kernel on a predefined datatype whose elements are its
// dense items (every basic type; not the MINLOC/MAXLOC pair types, whose
// records are packed): `item` bytes each. kernel is nullptr where that does
// not hold or MPI does not define the op on the type. Looked up straight
// from the handles, for the small collectives that the flat API runs inline
// (collectives/pair.h).
struct DenseKernel {
  Kernel kernel = nullptr;
  std::uint32_t item = 0;
};
using DenseKernelTable = std::array<std::array<DenseKernel, kPredefinedTypes>, op_maxloc + 1>;
extern const DenseKernelTable dense_kernels;

// Bytes of one element of each predefined datatype whose elements lie back
// to back with nothing between or before them (size == extent, lb 0): a
// block of count elements is count * size bytes at count * size * index.
// 0 for the others (the MINLOC/MAXLOC pair types, which have padding).
extern const std::array<std::uint32_t, kPredefinedTypes> dense_type_sizes;

// The size for a datatype handle, or 0 for a derived type, a pair type or
// a handle that is not valid at all.
inline std::size_t dense_type_size(PURE_Datatype type) {
  const int t = predefined_type_index(type);
  return t < 0 ? 0 : dense_type_sizes[static_cast<std::size_t>(t)];
}

// The predefined op of an op handle (op_max..op_no_op), or 0 for a user op
// or a handle that is not an op at all.
inline int predefined_op(PURE_Op op) {
  const int o = predefined_index(op, PURE_HANDLE_KIND_OP, op_no_op + 1);
  return o >= op_max ? o : 0;
}

// Whether a predefined op is one of the accumulate-only ones, which no
// collective takes.
inline bool accumulate_only(int predefined) {
  return predefined == op_replace || predefined == op_no_op;
}

// The entry for an op handle and a datatype handle, or nullptr for a user
// op, a derived type, or a handle that is not valid at all.
inline const DenseKernel* dense_kernel(PURE_Op op, PURE_Datatype type) {
  const int o = predefined_op(op);
  const int t = predefined_type_index(type);
  if (o == 0 || o > op_maxloc || t < 0) return nullptr;
  const DenseKernel& k = dense_kernels[static_cast<std::size_t>(o)][static_cast<std::size_t>(t)];
  return k.kernel ? &k : nullptr;
}

class Reduction {
 public:
  // Throws Error(PURE_ERR_OP) naming op and type when the op does not apply.
  Reduction(const OpRef& op, const Datatype& type, PURE_Datatype handle, std::size_t count);

  bool user() const { return kernel_ == nullptr; }
  bool packed() const { return packed_; }
  std::size_t items() const { return items_; }
  std::size_t stride() const { return stride_; }
  // Bytes of data (count * size of the type).
  std::size_t bytes() const { return bytes_; }

  void combine(const void* in, void* inout, std::size_t n) const;
  // Copies n items; both pointers address item 0 of the run.
  void copy(const void* from, void* to, std::size_t n) const;
  const void* at(const void* view, std::size_t i) const {
    return static_cast<const char*>(view) + i * stride_;
  }
  void* at(void* view, std::size_t i) const { return static_cast<char*>(view) + i * stride_; }

  // The items of a user buffer: the buffer itself, or a packed copy in
  // `scratch` (which must then stay untouched while others read it).
  const void* input_view(const void* buf, std::vector<unsigned char>& scratch) const;
  // Where results for `buf` may be written item by item; finish with
  // store_output.
  void* output_view(void* buf, std::vector<unsigned char>& scratch) const;
  void store_output(const void* view, void* buf) const;
  // Copies a complete result (a view of items()) into the user buffer.
  void deliver(const void* view, void* buf) const;
  // A view of n items held in `storage` (resized).
  void* buffer(std::vector<unsigned char>& storage, std::size_t n) const;
  // The view of `storage` as buffer() left it, for readers.
  const void* view_of(const std::vector<unsigned char>& storage) const;
  // The same for raw storage of at least view_bytes() bytes (a ring slot).
  const void* view_at(const void* storage) const;
  void* view_at(void* storage) const {
    return const_cast<void*>(view_at(static_cast<const void*>(storage)));
  }
  // Bytes of storage that a view of items() items needs.
  std::size_t view_bytes() const;

 private:
  const Datatype& type_;
  PURE_Datatype handle_;
  std::size_t count_;
  Kernel kernel_ = nullptr;
  UserOp user_;
  bool packed_ = false;
  std::size_t stride_ = 0;
  std::size_t items_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace pure
