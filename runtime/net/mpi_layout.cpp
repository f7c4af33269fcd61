#include "net/mpi_layout.h"

#include <climits>
#include <vector>

#include "base/error.h"
#include "net/cluster.h"
#include "types/ops.h"

namespace pure {

MPI_Datatype mpi_memory_type(BaseType b) {
  switch (b) {
    case BaseType::char_: return MPI_CHAR;
    case BaseType::schar: return MPI_SIGNED_CHAR;
    case BaseType::uchar: return MPI_UNSIGNED_CHAR;
    case BaseType::byte: return MPI_BYTE;
    case BaseType::wchar: return MPI_WCHAR;
    case BaseType::short_: return MPI_SHORT;
    case BaseType::ushort: return MPI_UNSIGNED_SHORT;
    case BaseType::int_: return MPI_INT;
    case BaseType::uint_: return MPI_UNSIGNED;
    case BaseType::long_: return MPI_LONG;
    case BaseType::ulong_: return MPI_UNSIGNED_LONG;
    case BaseType::llong: return MPI_LONG_LONG;
    case BaseType::ullong: return MPI_UNSIGNED_LONG_LONG;
    case BaseType::float_: return MPI_FLOAT;
    case BaseType::double_: return MPI_DOUBLE;
    case BaseType::ldouble: return MPI_LONG_DOUBLE;
    case BaseType::int8: return MPI_INT8_T;
    case BaseType::int16: return MPI_INT16_T;
    case BaseType::int32: return MPI_INT32_T;
    case BaseType::int64: return MPI_INT64_T;
    case BaseType::uint8: return MPI_UINT8_T;
    case BaseType::uint16: return MPI_UINT16_T;
    case BaseType::uint32: return MPI_UINT32_T;
    case BaseType::uint64: return MPI_UINT64_T;
    case BaseType::c_bool: return MPI_C_BOOL;
    case BaseType::cfloat: return MPI_C_FLOAT_COMPLEX;
    case BaseType::cdouble: return MPI_C_DOUBLE_COMPLEX;
    case BaseType::cldouble: return MPI_C_LONG_DOUBLE_COMPLEX;
    case BaseType::aint: return MPI_AINT;
    case BaseType::offset: return MPI_OFFSET;
    case BaseType::count: return MPI_COUNT;
    case BaseType::cxx_bool: return MPI_CXX_BOOL;
    case BaseType::float_int: return MPI_FLOAT_INT;
    case BaseType::double_int: return MPI_DOUBLE_INT;
    case BaseType::long_int: return MPI_LONG_INT;
    case BaseType::two_int: return MPI_2INT;
    case BaseType::short_int: return MPI_SHORT_INT;
    case BaseType::ldouble_int: return MPI_LONG_DOUBLE_INT;
    default: return MPI_DATATYPE_NULL;
  }
}

namespace {
int int_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX))
    fail(PURE_ERR_COUNT, "%zu %s in one operation between processes is over MPI's limit of %d", n,
         what, INT_MAX);
  return static_cast<int>(n);
}

// `items` of `element` (`item` bytes each) back to back, past MPI's int
// count: one datatype of whole chunks of 2^20 items, then the rest, which an
// MPI-3 library moves in one operation (MPI_Put_c and its kin are MPI-4's).
MPI_Datatype long_run(std::size_t items, MPI_Datatype element, std::size_t item) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  MPI_Datatype chunk = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_contiguous(static_cast<int>(kChunk), element, &chunk), "MPI_Type_contiguous");
  int lengths[2] = {int_count(items / kChunk, "chunks of 2^20 items"),
                    static_cast<int>(items % kChunk)};
  MPI_Aint displs[2] = {0, static_cast<MPI_Aint>(items / kChunk * kChunk * item)};
  MPI_Datatype types[2] = {chunk, element};
  MPI_Datatype out = MPI_DATATYPE_NULL;
  mpi_check(MPI_Type_create_struct(lengths[1] != 0 ? 2 : 1, lengths, displs, types, &out),
            "MPI_Type_create_struct");
  mpi_check(MPI_Type_free(&chunk), "MPI_Type_free");
  return out;
}
}  // namespace

MpiLayout::MpiLayout(std::size_t count, const Datatype& type, Unit unit) {
  const std::size_t bytes = count * type.size();
  const bool over_int = bytes > static_cast<std::size_t>(INT_MAX);
  if (unit == Unit::bytes) {
    if (type.contiguous() && !over_int) {
      count_ = static_cast<int>(bytes);
      offset_ = type.true_lb();
      return;
    }
    if (type.contiguous()) {
      type_ = long_run(bytes, MPI_BYTE, 1);
      offset_ = type.true_lb();
    } else {
      bytes_layout(count, type);
    }
  } else {
    const MPI_Datatype element = mpi_memory_type(type.base());
    if (element == MPI_DATATYPE_NULL)
      fail(PURE_ERR_TYPE, "the MPI underneath has no datatype for the elements of %s",
           type.name());
    const std::size_t item = item_size(type.base());
    const std::size_t items = item ? bytes / item : 0;
    if (type.contiguous() && items <= static_cast<std::size_t>(INT_MAX)) {
      type_ = element;
      count_ = static_cast<int>(items);
      offset_ = type.true_lb();
      return;
    }
    if (type.contiguous()) {
      type_ = long_run(items, element, item);
      offset_ = type.true_lb();
    } else {
      elements_layout(count, type, element, items, item);
    }
  }
  mpi_check(MPI_Type_commit(&type_), "MPI_Type_commit");
  owned_ = true;
  count_ = 1;
}

void MpiLayout::bytes_layout(std::size_t count, const Datatype& type) {
  // Every memory run of the layout, relative to its buffer.
  std::vector<int> lengths;
  std::vector<MPI_Aint> displs;
  for (std::size_t e = 0; e < count; ++e)
    type.for_each_block([&](const Block& b) {
      lengths.push_back(int_count(b.length, "bytes"));
      displs.push_back(static_cast<MPI_Aint>(e) * type.extent() + b.offset);
    });
  mpi_check(MPI_Type_create_hindexed(int_count(lengths.size(), "blocks"), lengths.data(),
                                     displs.data(), MPI_BYTE, &type_),
            "MPI_Type_create_hindexed");
}

void MpiLayout::elements_layout(std::size_t count, const Datatype& type, MPI_Datatype element,
                                std::size_t items, std::size_t item) {
  // Each element where it starts, relative to the buffer.
  std::vector<MPI_Aint> displs(items);
  for (std::size_t k = 0; k < items; ++k)
    displs[k] = reinterpret_cast<MPI_Aint>(address_of(nullptr, count, type, k * item));
  mpi_check(MPI_Type_create_hindexed_block(int_count(items, "elements"), 1, displs.data(),
                                           element, &type_),
            "MPI_Type_create_hindexed_block");
}

MpiLayout::~MpiLayout() {
  if (owned_) mpi_check(MPI_Type_free(&type_), "MPI_Type_free", MpiFailure::report);
}

}  // namespace pure
