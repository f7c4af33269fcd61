#include "types/ops.h"

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "base/error.h"

namespace pure {

namespace {

// One loop per (op, type): plain indexed loops over restrict-qualified typed
// pointers, which GCC and Clang vectorise at -O2 -ftree-vectorize / -O3.
template <class T, class F>
void apply(const void* in, void* inout, std::size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] = F::f(a[i], b[i]);
}

template <class T> struct Max { static T f(T a, T b) { return b < a ? a : b; } };
template <class T> struct Min { static T f(T a, T b) { return a < b ? a : b; } };
template <class T> struct Sum { static T f(T a, T b) { return static_cast<T>(a + b); } };
template <class T> struct Prod { static T f(T a, T b) { return static_cast<T>(a * b); } };
template <class T> struct Land { static T f(T a, T b) { return static_cast<T>((a != T(0)) & (b != T(0))); } };
template <class T> struct Lor { static T f(T a, T b) { return static_cast<T>((a != T(0)) | (b != T(0))); } };
template <class T> struct Lxor { static T f(T a, T b) { return static_cast<T>((a != T(0)) != (b != T(0))); } };
template <class T> struct Band { static T f(T a, T b) { return static_cast<T>(a & b); } };
template <class T> struct Bor { static T f(T a, T b) { return static_cast<T>(a | b); } };
template <class T> struct Bxor { static T f(T a, T b) { return static_cast<T>(a ^ b); } };

// MINLOC/MAXLOC on dense records: the value, then its index right behind it
// (the packed form of the pair types; for FLOAT_INT and 2INT also the C
// struct). The index is an int, or for Fortran's 2REAL and
// 2DOUBLE_PRECISION of the value's type. Ties keep the smaller index, as
// MPI specifies.
template <class V, bool kMin, class I = int>
void pair_apply(const void* in, void* inout, std::size_t n) {
  constexpr std::size_t rec = sizeof(V) + sizeof(I);
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < n; ++i, a += rec, b += rec) {
    V va, vb;
    I ia, ib;
    std::memcpy(&va, a, sizeof(V));
    std::memcpy(&vb, b, sizeof(V));
    std::memcpy(&ia, a + sizeof(V), sizeof(I));
    std::memcpy(&ib, b + sizeof(V), sizeof(I));
    const bool better = kMin ? va < vb : vb < va;
    if (better) {
      std::memcpy(b, a, rec);
    } else if (!(va < vb) && !(vb < va) && ia < ib) {
      std::memcpy(b + sizeof(V), &ia, sizeof(I));
    }
  }
}

enum class Category { none, integer, floating, complex, logical, byte, pair };

Category category(BaseType b) {
  using B = BaseType;
  switch (b) {
    // char too: MPI names it a text type, but Open MPI and MPICH reduce it as
    // an integer and programs rely on that.
    case B::char_:
    case B::schar: case B::uchar: case B::short_: case B::ushort: case B::int_: case B::uint_:
    case B::long_: case B::ulong_: case B::llong: case B::ullong: case B::int8: case B::int16:
    case B::int32: case B::int64: case B::uint8: case B::uint16: case B::uint32: case B::uint64:
    case B::aint: case B::offset: case B::count:
      return Category::integer;
    case B::float_: case B::double_: case B::ldouble: return Category::floating;
    case B::cfloat: case B::cdouble: case B::cldouble: return Category::complex;
    case B::c_bool: case B::cxx_bool: case B::logical: return Category::logical;
    case B::byte: return Category::byte;
    case B::float_int: case B::double_int: case B::long_int: case B::two_int:
    case B::short_int: case B::ldouble_int: case B::two_real: case B::two_double:
      return Category::pair;
    default: return Category::none;
  }
}

template <template <class> class F>
Kernel integer_kernel(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::char_: return &apply<char, F<char>>;
    case B::schar: return &apply<signed char, F<signed char>>;
    case B::uchar: return &apply<unsigned char, F<unsigned char>>;
    case B::short_: return &apply<short, F<short>>;
    case B::ushort: return &apply<unsigned short, F<unsigned short>>;
    case B::int_: return &apply<int, F<int>>;
    case B::uint_: return &apply<unsigned, F<unsigned>>;
    case B::long_: return &apply<long, F<long>>;
    case B::ulong_: return &apply<unsigned long, F<unsigned long>>;
    case B::llong: case B::offset: case B::count: return &apply<long long, F<long long>>;
    case B::ullong: return &apply<unsigned long long, F<unsigned long long>>;
    case B::int8: return &apply<std::int8_t, F<std::int8_t>>;
    case B::int16: return &apply<std::int16_t, F<std::int16_t>>;
    case B::int32: return &apply<std::int32_t, F<std::int32_t>>;
    case B::int64: return &apply<std::int64_t, F<std::int64_t>>;
    case B::uint8: return &apply<std::uint8_t, F<std::uint8_t>>;
    case B::uint16: return &apply<std::uint16_t, F<std::uint16_t>>;
    case B::uint32: return &apply<std::uint32_t, F<std::uint32_t>>;
    case B::uint64: return &apply<std::uint64_t, F<std::uint64_t>>;
    case B::aint: return &apply<std::ptrdiff_t, F<std::ptrdiff_t>>;
    default: return nullptr;
  }
}

template <template <class> class F>
Kernel floating_kernel(BaseType b) {
  switch (b) {
    case BaseType::float_: return &apply<float, F<float>>;
    case BaseType::double_: return &apply<double, F<double>>;
    case BaseType::ldouble: return &apply<long double, F<long double>>;
    default: return nullptr;
  }
}

template <template <class> class F>
Kernel complex_kernel(BaseType b) {
  switch (b) {
    case BaseType::cfloat: return &apply<std::complex<float>, F<std::complex<float>>>;
    case BaseType::cdouble: return &apply<std::complex<double>, F<std::complex<double>>>;
    case BaseType::cldouble:
      return &apply<std::complex<long double>, F<std::complex<long double>>>;
    default: return nullptr;
  }
}

// C's _Bool and C++'s bool are one byte; Fortran's LOGICAL is an int whose
// truth is "not zero" (the result is 0 or 1, gfortran's .false. and .true.).
template <template <class> class F>
Kernel logical_kernel(BaseType b) {
  if (b == BaseType::logical) return &apply<std::int32_t, F<std::int32_t>>;
  return &apply<bool, F<bool>>;
}

template <bool kMin>
Kernel pair_kernel(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::float_int: return &pair_apply<float, kMin>;
    case B::double_int: return &pair_apply<double, kMin>;
    case B::long_int: return &pair_apply<long, kMin>;
    case B::two_int: return &pair_apply<int, kMin>;
    case B::short_int: return &pair_apply<short, kMin>;
    case B::ldouble_int: return &pair_apply<long double, kMin>;
    case B::two_real: return &pair_apply<float, kMin, float>;
    case B::two_double: return &pair_apply<double, kMin, double>;
    default: return nullptr;
  }
}

template <template <class> class F>
Kernel arithmetic(Category c, BaseType b) {
  if (c == Category::integer) return integer_kernel<F>(b);
  if (c == Category::floating) return floating_kernel<F>(b);
  return nullptr;
}

}  // namespace

const char* op_name(int op) {
  static const char* const names[] = {"user op",   "PURE_MAX",  "PURE_MIN",  "PURE_SUM",
                                      "PURE_PROD", "PURE_LAND", "PURE_BAND", "PURE_LOR",
                                      "PURE_BOR",  "PURE_LXOR", "PURE_BXOR", "PURE_MINLOC",
                                      "PURE_MAXLOC", "PURE_REPLACE", "PURE_NO_OP"};
  return op >= 0 && op <= op_no_op ? names[op] : "unknown op";
}

Kernel predefined_kernel(int op, BaseType b) {
  const Category c = category(b);
  switch (op) {
    case op_max: return arithmetic<Max>(c, b);
    case op_min: return arithmetic<Min>(c, b);
    case op_sum:
      return c == Category::complex ? complex_kernel<Sum>(b) : arithmetic<Sum>(c, b);
    case op_prod:
      return c == Category::complex ? complex_kernel<Prod>(b) : arithmetic<Prod>(c, b);
    case op_land:
      return c == Category::integer ? integer_kernel<Land>(b)
             : c == Category::logical ? logical_kernel<Land>(b) : nullptr;
    case op_lor:
      return c == Category::integer ? integer_kernel<Lor>(b)
             : c == Category::logical ? logical_kernel<Lor>(b) : nullptr;
    case op_lxor:
      return c == Category::integer ? integer_kernel<Lxor>(b)
             : c == Category::logical ? logical_kernel<Lxor>(b) : nullptr;
    case op_band:
      return c == Category::integer ? integer_kernel<Band>(b)
             : c == Category::byte ? &apply<unsigned char, Band<unsigned char>> : nullptr;
    case op_bor:
      return c == Category::integer ? integer_kernel<Bor>(b)
             : c == Category::byte ? &apply<unsigned char, Bor<unsigned char>> : nullptr;
    case op_bxor:
      return c == Category::integer ? integer_kernel<Bxor>(b)
             : c == Category::byte ? &apply<unsigned char, Bxor<unsigned char>> : nullptr;
    case op_minloc: return pair_kernel<true>(b);
    case op_maxloc: return pair_kernel<false>(b);
    default: return nullptr;
  }
}

static_assert(handle_index(PURE_COMPLEX16) < kPredefinedTypes,
              "every predefined datatype has a row in dense_kernels");

const DenseKernelTable dense_kernels = [] {
  DenseKernelTable table{};
  for (int t = 0; t < kPredefinedTypes; ++t) {
    const Datatype* type = Datatype::predefined(t);
    if (!type || !type->contiguous() || item_size(type->base()) != type->size()) continue;
    for (int op = op_max; op <= op_maxloc; ++op) {
      DenseKernel& k = table[static_cast<std::size_t>(op)][static_cast<std::size_t>(t)];
      k.kernel = predefined_kernel(op, type->base());
      k.item = static_cast<std::uint32_t>(type->size());
    }
  }
  return table;
}();

const std::array<std::uint32_t, kPredefinedTypes> dense_type_sizes = [] {
  std::array<std::uint32_t, kPredefinedTypes> sizes{};
  for (int t = 0; t < kPredefinedTypes; ++t) {
    const Datatype* type = Datatype::predefined(t);
    if (type && type->contiguous() && type->lb() == 0 && type->true_lb() == 0 &&
        type->extent() == static_cast<std::ptrdiff_t>(type->size()))
      sizes[static_cast<std::size_t>(t)] = static_cast<std::uint32_t>(type->size());
  }
  return sizes;
}();

std::size_t item_size(BaseType b) {
  using B = BaseType;
  switch (b) {
    case B::char_: case B::schar: case B::uchar: case B::byte: case B::int8: case B::uint8:
    case B::packed:
      return 1;
    case B::wchar: return sizeof(wchar_t);
    case B::short_: case B::ushort: return sizeof(short);
    case B::int16: case B::uint16: return 2;
    case B::int_: case B::uint_: return sizeof(int);
    case B::int32: case B::uint32: return 4;
    case B::long_: case B::ulong_: return sizeof(long);
    case B::llong: case B::ullong: case B::offset: case B::count: return sizeof(long long);
    case B::int64: case B::uint64: return 8;
    case B::aint: return sizeof(std::ptrdiff_t);
    case B::float_: return sizeof(float);
    case B::double_: return sizeof(double);
    case B::ldouble: return sizeof(long double);
    case B::c_bool: case B::cxx_bool: return sizeof(bool);
    case B::logical: return 4;
    case B::cfloat: return sizeof(std::complex<float>);
    case B::cdouble: return sizeof(std::complex<double>);
    case B::cldouble: return sizeof(std::complex<long double>);
    case B::float_int: return sizeof(float) + sizeof(int);
    case B::double_int: return sizeof(double) + sizeof(int);
    case B::long_int: return sizeof(long) + sizeof(int);
    case B::two_int: return 2 * sizeof(int);
    case B::short_int: return sizeof(short) + sizeof(int);
    case B::ldouble_int: return sizeof(long double) + sizeof(int);
    case B::two_real: return 2 * sizeof(float);
    case B::two_double: return 2 * sizeof(double);
    case B::none: return 0;
  }
  return 0;
}

Reduction::Reduction(const OpRef& op, const Datatype& type, PURE_Datatype handle,
                     std::size_t count)
    : type_(type), handle_(handle), count_(count), bytes_(count * type.size()) {
  if (op.predefined == 0) {
    user_ = op.user;
    if (type.extent() <= 0 && count > 0)
      fail(PURE_ERR_TYPE, "a user op needs a datatype with a positive extent (%s has extent %td)",
           type.name(), type.extent());
    stride_ = static_cast<std::size_t>(type.extent());
    items_ = count;
    return;
  }
  if (accumulate_only(op.predefined))
    fail(PURE_ERR_OP, "%s is only for one-sided accumulates (pure_accumulate and friends)",
         op_name(op.predefined));
  kernel_ = predefined_kernel(op.predefined, type.base());
  if (!kernel_) {
    if (type.predefined())
      fail(PURE_ERR_OP, "%s is not defined for datatype %s", op_name(op.predefined), type.name());
    fail(PURE_ERR_OP,
         "%s is not defined for this derived datatype (predefined ops need a derived type built "
         "from one basic type the op applies to)",
         op_name(op.predefined));
  }
  stride_ = item_size(type.base());
  items_ = bytes_ / stride_;
  packed_ = !type.contiguous();
}

void Reduction::combine(const void* in, void* inout, std::size_t n) const {
  if (n == 0) return;
  if (kernel_) {
    kernel_(in, inout, n);
    return;
  }
  if (user_.fn_state) {
    user_.fn_state(in, inout, static_cast<PURE_Count>(n), user_.state);
    return;
  }
  PURE_Datatype handle = handle_;
  if (user_.fn_c) {
    PURE_Count len = static_cast<PURE_Count>(n);
    user_.fn_c(const_cast<void*>(in), inout, &len, &handle);
    return;
  }
  // An int-length op gets the run in pieces that fit its length.
  for (std::size_t done = 0; done < n;) {
    const std::size_t piece = std::min<std::size_t>(n - done, INT_MAX);
    int len = static_cast<int>(piece);
    user_.fn(const_cast<char*>(static_cast<const char*>(in)) + done * stride_,
             static_cast<char*>(inout) + done * stride_, &len, &handle);
    done += piece;
  }
}

void Reduction::copy(const void* from, void* to, std::size_t n) const {
  if (n == 0) return;
  if (kernel_) {
    std::memcpy(to, from, n * stride_);
    return;
  }
  copy_range(from, n, type_, to, n, type_, 0, n * type_.size());
}

const void* Reduction::input_view(const void* buf, std::vector<unsigned char>& scratch) const {
  if (!kernel_) return buf;
  if (packed_) {
    scratch.resize(bytes_);
    pack(buf, count_, type_, 0, scratch.data(), bytes_);
    return scratch.data();
  }
  return static_cast<const char*>(buf) + type_.true_lb();
}

void* Reduction::output_view(void* buf, std::vector<unsigned char>& scratch) const {
  if (!kernel_) return buf;
  if (packed_) {
    scratch.resize(bytes_);
    return scratch.data();
  }
  return static_cast<char*>(buf) + type_.true_lb();
}

void Reduction::store_output(const void* view, void* buf) const {
  if (kernel_ && packed_) unpack(view, bytes_, buf, count_, type_, 0);
}

void Reduction::deliver(const void* view, void* buf) const {
  if (!kernel_) {
    copy(view, buf, items_);
  } else if (packed_) {
    unpack(view, bytes_, buf, count_, type_, 0);
  } else if (bytes_ != 0) {
    std::memcpy(static_cast<char*>(buf) + type_.true_lb(), view, bytes_);
  }
}

void* Reduction::buffer(std::vector<unsigned char>& storage, std::size_t n) const {
  if (kernel_) {
    storage.resize(std::max<std::size_t>(1, n * stride_));
    return storage.data();
  }
  // Item i's data lies at [i * extent + true_lb, ... + true_extent).
  const std::size_t span =
      n == 0 ? 1 : (n - 1) * stride_ + static_cast<std::size_t>(type_.true_extent());
  storage.resize(std::max<std::size_t>(1, span));
  return const_cast<void*>(view_of(storage));
}

const void* Reduction::view_of(const std::vector<unsigned char>& storage) const {
  return view_at(storage.data());
}

const void* Reduction::view_at(const void* storage) const {
  if (kernel_) return storage;
  return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(storage) -
                                       static_cast<std::uintptr_t>(type_.true_lb()));
}

std::size_t Reduction::view_bytes() const {
  if (kernel_) return items_ * stride_;
  return items_ == 0 ? 0 : (items_ - 1) * stride_ + static_cast<std::size_t>(type_.true_extent());
}

}  // namespace pure
