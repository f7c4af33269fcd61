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

#include <cstddef>
#include <vector>

#include "types/datatype.h"
#include "pure/pure.h"

namespace pure::coll {

enum PredefinedOp : int {
  op_max = 1, op_min, op_sum, op_prod, op_land, op_band, op_lor, op_bor, op_lxor, op_bxor,
  op_minloc, op_maxloc
};
constexpr int kFirstUserOp = 64;

// inout[i] = in[i] op inout[i] for i < n; in and inout never overlap.
using Kernel = void (*)(const void* in, void* inout, std::size_t n);

struct UserOp {
  PURE_User_function* fn = nullptr;
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
  PURE_User_function* fn_ = nullptr;
  bool packed_ = false;
  std::size_t stride_ = 0;
  std::size_t items_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace pure::coll
