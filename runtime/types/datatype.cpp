#include "types/datatype.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "base/error.h"
#include "base/handle.h"
#include "pure/pure.h"

namespace pure {

namespace {


std::ptrdiff_t as_signed(std::size_t v) { return static_cast<std::ptrdiff_t>(v); }

// Addresses are kept as integers: MPI lets a buffer be PURE_BOTTOM (null) with
// absolute displacements, or point outside the array with negative ones, and
// pointer arithmetic on either is undefined even if nothing is dereferenced.
std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
std::uintptr_t shifted(std::uintptr_t a, std::ptrdiff_t by) {
  return a + static_cast<std::uintptr_t>(by);
}

// Walks the packed bytes of (base, count, type) as a sequence of memory runs.
// A contiguous layout is one endless run, so a copy against it degenerates to
// one memcpy per block of the other side.
class LayoutCursor {
 public:
  // Positions at packed byte `offset`, which must be below the layout's total
  // size. Cost is O(log blocks), independent of `offset`, so a big message can
  // be cut into ranges cheaply.
  LayoutCursor(const void* base, const Datatype& type, std::size_t offset) {
    if (type.contiguous()) {
      addr_ = shifted(address(base), type.true_lb() + as_signed(offset));
      return;
    }
    blocks_ = type.blocks().data();
    block_count_ = type.blocks().size();
    extent_ = type.extent();
    reps_ = type.reps();
    rep_stride_ = type.rep_stride();
    const auto& starts = type.block_starts();
    const std::size_t period = starts.back();
    const std::size_t element = offset / type.size();
    std::size_t within = offset % type.size();
    rep_ = within / period;
    within %= period;
    block_ = static_cast<std::size_t>(
        std::upper_bound(starts.begin(), starts.end(), within) - starts.begin() - 1);
    const std::size_t into_block = within - starts[block_];
    element_ = shifted(address(base), as_signed(element) * extent_);
    period_ = shifted(element_, as_signed(rep_) * rep_stride_);
    addr_ = shifted(period_, blocks_[block_].offset + as_signed(into_block));
    run_ = blocks_[block_].length - into_block;
  }

  // A dense byte buffer, as pack and unpack see their packed side.
  explicit LayoutCursor(const void* dense) : addr_(address(dense)) {}

  void* ptr() const { return reinterpret_cast<void*>(addr_); }
  std::size_t run() const { return run_; }

  void advance(std::size_t n) {
    addr_ += n;
    run_ -= n;
    if (run_ != 0) return;
    if (++block_ == block_count_) {
      block_ = 0;
      if (++rep_ == reps_) {
        rep_ = 0;
        element_ = shifted(element_, extent_);
        period_ = element_;
      } else {
        period_ = shifted(period_, rep_stride_);
      }
    }
    addr_ = shifted(period_, blocks_[block_].offset);
    run_ = blocks_[block_].length;
  }

 private:
  std::uintptr_t addr_ = 0;
  std::size_t run_ = std::numeric_limits<std::size_t>::max();
  const Block* blocks_ = nullptr;
  std::size_t block_count_ = 0;
  std::size_t block_ = 0;
  std::size_t reps_ = 1;
  std::size_t rep_ = 0;
  std::ptrdiff_t rep_stride_ = 0;
  std::uintptr_t element_ = 0;  // the element's start
  std::uintptr_t period_ = 0;   // the current repetition's start
  std::ptrdiff_t extent_ = 0;
};

void transfer(LayoutCursor& from, LayoutCursor& to, std::size_t n) {
  while (n != 0) {
    const std::size_t chunk = std::min(n, std::min(from.run(), to.run()));
    copy_fixed(to.ptr(), from.ptr(), chunk);
    n -= chunk;
    if (n == 0) break;
    from.advance(chunk);
    to.advance(chunk);
  }
}

// A type of `count` pieces of `blocklength` copies of `old` keeps one piece
// repeated (Datatype::reps) rather than every block, once the blocks would
// number more than this: below it, blocks that continue one another across
// pieces merge, as they always did; above it, a type's memory no longer
// grows with its count (a vector of 2^30 blocks is one block and a count).
constexpr std::uint64_t kRepeatAbove = 4096;

bool repeat_pays(std::int64_t count, std::int64_t blocklength, const Datatype& old) {
  if (count <= 1 || old.size() == 0) return false;
  std::uint64_t per_piece = 1;
  if (!old.contiguous() &&
      __builtin_mul_overflow(static_cast<std::uint64_t>(blocklength),
                             static_cast<std::uint64_t>(old.blocks().size()) * old.reps(),
                             &per_piece))
    return true;
  std::uint64_t all;
  return __builtin_mul_overflow(per_piece, static_cast<std::uint64_t>(count), &all) ||
         all > kRepeatAbove;
}

// Written as a division so a huge count cannot overflow count * size.
void require_within(std::size_t end, std::size_t count, const Datatype& type,
                    const char* what) {
  const std::size_t size = type.size();
  const bool fits = size == 0 ? end == 0 : end / size + (end % size != 0) <= count;
  if (!fits) throw std::out_of_range(what);
}

}  // namespace

std::ptrdiff_t checked_mul(std::ptrdiff_t a, std::ptrdiff_t b, const char* what) {
  std::ptrdiff_t r;
  if (__builtin_mul_overflow(a, b, &r))
    fail(PURE_ERR_ARG, "%s: %td times %td overflows a displacement", what, a, b);
  return r;
}
std::ptrdiff_t checked_add(std::ptrdiff_t a, std::ptrdiff_t b, const char* what) {
  std::ptrdiff_t r;
  if (__builtin_add_overflow(a, b, &r))
    fail(PURE_ERR_ARG, "%s: %td plus %td overflows a displacement", what, a, b);
  return r;
}

// Accumulates the pieces of a derived type's type map. Each piece is `copies`
// consecutive elements of one type, the first at a byte displacement; every
// constructor is a sequence of such pieces.
class Datatype::Builder {
 public:
  Builder() : type_(new Datatype()) {}

  void add(std::ptrdiff_t displacement, std::size_t copies, const Datatype& t) {
    if (copies == 0) return;
    const bool has_data = t.size_ != 0;
    // A piece without data contributes only its markers: an empty type
    // nothing, MPI_LB its lower bound alone.
    if (!has_data && !t.explicit_lb_ && !t.explicit_ub_) return;
    type_->alignment_ = std::max(type_->alignment_, t.alignment_);
    const std::ptrdiff_t ext = t.extent();
    const std::ptrdiff_t span = checked_mul(as_signed(copies - 1), ext, "type extent");
    const std::ptrdiff_t piece_lb =
        checked_add(displacement, t.lb_ + std::min<std::ptrdiff_t>(0, span), "lower bound");
    const std::ptrdiff_t piece_ub =
        checked_add(displacement, t.ub_ + std::max<std::ptrdiff_t>(0, span), "upper bound");
    // MPI: if any lb marker is present, lb is the lowest marker and the data
    // is ignored; likewise for ub.
    if (t.explicit_lb_) {
      explicit_lb_value_ = has_explicit_lb_ ? std::min(explicit_lb_value_, piece_lb) : piece_lb;
      has_explicit_lb_ = true;
    } else if (has_data) {
      natural_lb_ = has_natural_lb_ ? std::min(natural_lb_, piece_lb) : piece_lb;
      has_natural_lb_ = true;
    }
    if (t.explicit_ub_) {
      explicit_ub_value_ = has_explicit_ub_ ? std::max(explicit_ub_value_, piece_ub) : piece_ub;
      has_explicit_ub_ = true;
    } else if (has_data) {
      natural_ub_ = has_natural_ub_ ? std::max(natural_ub_, piece_ub) : piece_ub;
      has_natural_ub_ = true;
    }
    if (!has_data) return;

    signature_.add(t.signature_, copies);
    if (!has_base_) {
      type_->base_ = t.base_;
      has_base_ = true;
    } else if (type_->base_ != t.base_) {
      type_->base_ = BaseType::none;
    }
    // A contiguous old type repeated is one run; this keeps contiguous(2^30,
    // PURE_BYTE) O(1) instead of a loop that merges a billion blocks.
    if (t.contiguous_) {
      append(displacement + t.true_lb_, copies * t.size_);
      return;
    }
    for (std::size_t c = 0; c < copies; ++c) {
      const std::ptrdiff_t at = displacement + as_signed(c) * ext;
      t.for_each_block([&](const Block& b) { append(at + b.offset, b.length); });
    }
  }

  // Everything added so far, repeated `count` times, copy k displaced by
  // k * stride bytes: kept as one period of blocks (Datatype::reps), or one
  // longer block where the copies continue one another. The last call.
  void repeat(std::size_t count, std::ptrdiff_t stride) {
    if (count <= 1) return;
    const std::ptrdiff_t span = checked_mul(as_signed(count - 1), stride, "type extent");
    const std::ptrdiff_t down = std::min<std::ptrdiff_t>(0, span);
    const std::ptrdiff_t up = std::max<std::ptrdiff_t>(0, span);
    // The copies' bounds and markers: the lowest and the highest of them.
    if (has_explicit_lb_) explicit_lb_value_ = checked_add(explicit_lb_value_, down, "lower bound");
    if (has_natural_lb_) natural_lb_ = checked_add(natural_lb_, down, "lower bound");
    if (has_explicit_ub_) explicit_ub_value_ = checked_add(explicit_ub_value_, up, "upper bound");
    if (has_natural_ub_) natural_ub_ = checked_add(natural_ub_, up, "upper bound");
    auto& blocks = type_->blocks_;
    if (blocks.empty()) return;
    const SignatureRef period = signature_.finish();
    signature_ = Signature::Builder();
    signature_.add(period, count);
    if (blocks.size() == 1 && stride == as_signed(blocks.front().length)) {
      blocks.front().length *= count;
    } else {
      type_->reps_ = count;
      type_->rep_stride_ = stride;
    }
  }

  // pad: round the extent up to the members' alignment, as a C compiler pads
  // a struct, so that an array of the struct can be sent with count > 1. MPI
  // calls this epsilon; like MPICH we apply it to struct types only, and only
  // when no explicit ub marker is present.
  std::unique_ptr<Datatype> finish(bool pad) {
    Datatype& t = *type_;
    t.explicit_lb_ = has_explicit_lb_;
    t.explicit_ub_ = has_explicit_ub_;
    if (has_explicit_lb_) {
      t.lb_ = explicit_lb_value_;
    } else if (has_natural_lb_) {
      t.lb_ = natural_lb_;
    }
    if (has_explicit_ub_) {
      t.ub_ = explicit_ub_value_;
    } else if (has_natural_ub_) {
      t.ub_ = natural_ub_;
    } else {
      t.ub_ = t.lb_;
    }
    if (pad && !has_explicit_ub_ && t.alignment_ > 1) {
      const std::ptrdiff_t align = as_signed(t.alignment_);
      const std::ptrdiff_t rem = (t.ub_ - t.lb_) % align;
      if (rem > 0) t.ub_ += align - rem;
    }
    t.signature_ = signature_.finish();
    t.finalize();
    return std::move(type_);
  }

 private:
  void append(std::ptrdiff_t offset, std::size_t length) {
    auto& blocks = type_->blocks_;
    if (!blocks.empty() && blocks.back().offset + as_signed(blocks.back().length) == offset) {
      blocks.back().length += length;
    } else {
      blocks.push_back({offset, length});
    }
  }

  std::unique_ptr<Datatype> type_;
  Signature::Builder signature_;
  bool has_base_ = false;
  bool has_natural_lb_ = false;
  bool has_natural_ub_ = false;
  bool has_explicit_lb_ = false;
  bool has_explicit_ub_ = false;
  std::ptrdiff_t natural_lb_ = 0;
  std::ptrdiff_t natural_ub_ = 0;
  std::ptrdiff_t explicit_lb_value_ = 0;
  std::ptrdiff_t explicit_ub_value_ = 0;
};

Datatype::Datatype() = default;
Datatype::~Datatype() = default;

void Datatype::finalize() {
  std::size_t period = 0;
  block_starts_.clear();
  block_starts_.reserve(blocks_.size() + 1);
  for (const Block& b : blocks_) {
    block_starts_.push_back(period);
    period += b.length;
  }
  block_starts_.push_back(period);
  size_ = period * reps_;
  if (blocks_.empty()) {
    true_lb_ = true_ub_ = 0;
  } else {
    true_lb_ = std::numeric_limits<std::ptrdiff_t>::max();
    true_ub_ = std::numeric_limits<std::ptrdiff_t>::min();
    for (const Block& b : blocks_) {
      true_lb_ = std::min(true_lb_, b.offset);
      true_ub_ = std::max(true_ub_, b.offset + as_signed(b.length));
    }
    const std::ptrdiff_t span = as_signed(reps_ - 1) * rep_stride_;
    true_lb_ += std::min<std::ptrdiff_t>(0, span);
    true_ub_ += std::max<std::ptrdiff_t>(0, span);
  }
  contiguous_ =
      size_ == 0 || (blocks_.size() == 1 && reps_ == 1 && as_signed(size_) == extent());
}

std::vector<Block> Datatype::flattened() const {
  std::vector<Block> all;
  for_each_block([&](const Block& b) { all.push_back(b); });
  return all;
}

const Datatype* Datatype::predefined(int index) {
  static const std::vector<std::unique_ptr<Datatype>> table = [] {
    std::vector<std::unique_ptr<Datatype>> t(kPredefinedTypes);
    auto basic = [&t](PURE_Datatype handle, std::size_t size, std::size_t align, BaseType base,
                      const char* name) {
      std::unique_ptr<Datatype> d(new Datatype());
      d->blocks_.push_back({0, size});
      d->ub_ = as_signed(size);
      d->alignment_ = align;
      d->base_ = base;
      d->signature_ = Signature::basic(base, size);
      d->name_ = name;
      d->predefined_ = true;
      d->committed_ = true;
      d->finalize();
      t[handle_index(handle)] = std::move(d);
    };
    // The pair types are the C structs MINLOC/MAXLOC users declare, so their
    // extent includes the compiler's tail padding and their data has a hole
    // where the compiler puts one (PURE_SHORT_INT).
    auto pair = [&t](PURE_Datatype handle, PURE_Datatype first, std::ptrdiff_t second_offset,
                     BaseType base, const char* name, PURE_Datatype second = PURE_INT) {
      Builder b;
      b.add(0, 1, *t[handle_index(first)]);
      b.add(second_offset, 1, *t[handle_index(second)]);
      std::unique_ptr<Datatype> d = b.finish(true);
      d->base_ = base;
      d->name_ = name;
      d->predefined_ = true;
      d->committed_ = true;
      t[handle_index(handle)] = std::move(d);
    };
    using B = BaseType;
    basic(PURE_CHAR, sizeof(char), alignof(char), B::char_, "PURE_CHAR");
    basic(PURE_SIGNED_CHAR, sizeof(signed char), alignof(signed char), B::schar,
          "PURE_SIGNED_CHAR");
    basic(PURE_UNSIGNED_CHAR, sizeof(unsigned char), alignof(unsigned char), B::uchar,
          "PURE_UNSIGNED_CHAR");
    basic(PURE_BYTE, 1, 1, B::byte, "PURE_BYTE");
    basic(PURE_WCHAR, sizeof(wchar_t), alignof(wchar_t), B::wchar, "PURE_WCHAR");
    basic(PURE_SHORT, sizeof(short), alignof(short), B::short_, "PURE_SHORT");
    basic(PURE_UNSIGNED_SHORT, sizeof(unsigned short), alignof(unsigned short), B::ushort,
          "PURE_UNSIGNED_SHORT");
    basic(PURE_INT, sizeof(int), alignof(int), B::int_, "PURE_INT");
    basic(PURE_UNSIGNED, sizeof(unsigned), alignof(unsigned), B::uint_, "PURE_UNSIGNED");
    basic(PURE_LONG, sizeof(long), alignof(long), B::long_, "PURE_LONG");
    basic(PURE_UNSIGNED_LONG, sizeof(unsigned long), alignof(unsigned long), B::ulong_,
          "PURE_UNSIGNED_LONG");
    basic(PURE_LONG_LONG_INT, sizeof(long long), alignof(long long), B::llong,
          "PURE_LONG_LONG_INT");
    basic(PURE_UNSIGNED_LONG_LONG, sizeof(unsigned long long), alignof(unsigned long long),
          B::ullong, "PURE_UNSIGNED_LONG_LONG");
    basic(PURE_FLOAT, sizeof(float), alignof(float), B::float_, "PURE_FLOAT");
    basic(PURE_DOUBLE, sizeof(double), alignof(double), B::double_, "PURE_DOUBLE");
    basic(PURE_LONG_DOUBLE, sizeof(long double), alignof(long double), B::ldouble,
          "PURE_LONG_DOUBLE");
    basic(PURE_INT8_T, 1, alignof(std::int8_t), B::int8, "PURE_INT8_T");
    basic(PURE_INT16_T, 2, alignof(std::int16_t), B::int16, "PURE_INT16_T");
    basic(PURE_INT32_T, 4, alignof(std::int32_t), B::int32, "PURE_INT32_T");
    basic(PURE_INT64_T, 8, alignof(std::int64_t), B::int64, "PURE_INT64_T");
    basic(PURE_UINT8_T, 1, alignof(std::uint8_t), B::uint8, "PURE_UINT8_T");
    basic(PURE_UINT16_T, 2, alignof(std::uint16_t), B::uint16, "PURE_UINT16_T");
    basic(PURE_UINT32_T, 4, alignof(std::uint32_t), B::uint32, "PURE_UINT32_T");
    basic(PURE_UINT64_T, 8, alignof(std::uint64_t), B::uint64, "PURE_UINT64_T");
    // C's _Bool and C++'s bool share size and alignment on every ABI we target.
    basic(PURE_C_BOOL, sizeof(bool), alignof(bool), B::c_bool, "PURE_C_BOOL");
    // std::complex<T> is layout-compatible with C's T _Complex; its alignment
    // is T's, which is what a C struct member of that type gets.
    basic(PURE_C_FLOAT_COMPLEX, sizeof(std::complex<float>), alignof(std::complex<float>),
          B::cfloat, "PURE_C_FLOAT_COMPLEX");
    basic(PURE_C_DOUBLE_COMPLEX, sizeof(std::complex<double>), alignof(std::complex<double>),
          B::cdouble, "PURE_C_DOUBLE_COMPLEX");
    basic(PURE_C_LONG_DOUBLE_COMPLEX, sizeof(std::complex<long double>),
          alignof(std::complex<long double>), B::cldouble, "PURE_C_LONG_DOUBLE_COMPLEX");
    basic(PURE_AINT, sizeof(PURE_Aint), alignof(PURE_Aint), B::aint, "PURE_AINT");
    basic(PURE_OFFSET, sizeof(PURE_Offset), alignof(PURE_Offset), B::offset, "PURE_OFFSET");
    basic(PURE_COUNT, sizeof(PURE_Count), alignof(PURE_Count), B::count, "PURE_COUNT");
    basic(PURE_PACKED, 1, 1, B::packed, "PURE_PACKED");
    basic(PURE_CXX_BOOL, sizeof(bool), alignof(bool), B::cxx_bool, "PURE_CXX_BOOL");
    // The C++ complex types are std::complex, which the C types above are
    // laid out as already: the same data, under the names C++ programs use.
    basic(PURE_CXX_FLOAT_COMPLEX, sizeof(std::complex<float>), alignof(std::complex<float>),
          B::cfloat, "PURE_CXX_FLOAT_COMPLEX");
    basic(PURE_CXX_DOUBLE_COMPLEX, sizeof(std::complex<double>), alignof(std::complex<double>),
          B::cdouble, "PURE_CXX_DOUBLE_COMPLEX");
    basic(PURE_CXX_LONG_DOUBLE_COMPLEX, sizeof(std::complex<long double>),
          alignof(std::complex<long double>), B::cldouble, "PURE_CXX_LONG_DOUBLE_COMPLEX");
    // MPI-1's bound markers: no data, an explicit lower or upper bound at 0,
    // which a struct member of this type moves to its displacement.
    auto marker = [&t](PURE_Datatype handle, bool lower, const char* name) {
      std::unique_ptr<Datatype> d(new Datatype());
      d->explicit_lb_ = lower;
      d->explicit_ub_ = !lower;
      d->name_ = name;
      d->predefined_ = true;
      d->committed_ = true;
      d->finalize();
      t[handle_index(handle)] = std::move(d);
    };
    marker(PURE_LB, true, "PURE_LB");
    marker(PURE_UB, false, "PURE_UB");
    // Fortran's types as C sees them (MPI 3.1 section 3.2.2), with the sizes
    // of gfortran's defaults: INTEGER, REAL and LOGICAL 4 bytes.
    basic(PURE_CHARACTER, 1, 1, B::char_, "PURE_CHARACTER");
    basic(PURE_LOGICAL, 4, 4, B::logical, "PURE_LOGICAL");
    basic(PURE_INTEGER, 4, 4, B::int32, "PURE_INTEGER");
    basic(PURE_REAL, 4, alignof(float), B::float_, "PURE_REAL");
    basic(PURE_DOUBLE_PRECISION, 8, alignof(double), B::double_, "PURE_DOUBLE_PRECISION");
    basic(PURE_COMPLEX, 8, alignof(float), B::cfloat, "PURE_COMPLEX");
    basic(PURE_DOUBLE_COMPLEX, 16, alignof(double), B::cdouble, "PURE_DOUBLE_COMPLEX");
    basic(PURE_INTEGER1, 1, 1, B::int8, "PURE_INTEGER1");
    basic(PURE_INTEGER2, 2, 2, B::int16, "PURE_INTEGER2");
    basic(PURE_INTEGER4, 4, 4, B::int32, "PURE_INTEGER4");
    basic(PURE_INTEGER8, 8, 8, B::int64, "PURE_INTEGER8");
    basic(PURE_REAL4, 4, alignof(float), B::float_, "PURE_REAL4");
    basic(PURE_REAL8, 8, alignof(double), B::double_, "PURE_REAL8");
    basic(PURE_COMPLEX8, 8, alignof(float), B::cfloat, "PURE_COMPLEX8");
    basic(PURE_COMPLEX16, 16, alignof(double), B::cdouble, "PURE_COMPLEX16");

    struct FloatInt { float v; int i; };
    struct DoubleInt { double v; int i; };
    struct LongInt { long v; int i; };
    struct TwoInt { int v; int i; };
    struct ShortInt { short v; int i; };
    struct LongDoubleInt { long double v; int i; };
    pair(PURE_FLOAT_INT, PURE_FLOAT, offsetof(FloatInt, i), B::float_int, "PURE_FLOAT_INT");
    pair(PURE_DOUBLE_INT, PURE_DOUBLE, offsetof(DoubleInt, i), B::double_int,
         "PURE_DOUBLE_INT");
    pair(PURE_LONG_INT, PURE_LONG, offsetof(LongInt, i), B::long_int, "PURE_LONG_INT");
    pair(PURE_2INT, PURE_INT, offsetof(TwoInt, i), B::two_int, "PURE_2INT");
    pair(PURE_SHORT_INT, PURE_SHORT, offsetof(ShortInt, i), B::short_int, "PURE_SHORT_INT");
    pair(PURE_LONG_DOUBLE_INT, PURE_LONG_DOUBLE, offsetof(LongDoubleInt, i), B::ldouble_int,
         "PURE_LONG_DOUBLE_INT");
    // Fortran's MINLOC/MAXLOC pairs: two of one type, the index as the value.
    pair(PURE_2INTEGER, PURE_INTEGER, 4, B::two_int, "PURE_2INTEGER", PURE_INTEGER);
    pair(PURE_2REAL, PURE_REAL, 4, B::two_real, "PURE_2REAL", PURE_REAL);
    pair(PURE_2DOUBLE_PRECISION, PURE_DOUBLE_PRECISION, 8, B::two_double,
         "PURE_2DOUBLE_PRECISION", PURE_DOUBLE_PRECISION);
    return t;
  }();
  if (index < 0 || static_cast<std::size_t>(index) >= table.size()) return nullptr;
  return table[static_cast<std::size_t>(index)].get();
}

std::unique_ptr<Datatype> Datatype::contiguous(std::int64_t count, const Datatype& old) {
  Builder b;
  if (repeat_pays(count, 1, old)) {
    b.add(0, 1, old);
    b.repeat(static_cast<std::size_t>(count), old.extent());
  } else {
    b.add(0, static_cast<std::size_t>(count), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::vector(std::int64_t count, std::int64_t blocklength,
                                           std::int64_t stride, const Datatype& old) {
  return hvector(count, blocklength, checked_mul(stride, old.extent(), "vector stride"), old);
}

std::unique_ptr<Datatype> Datatype::hvector(std::int64_t count, std::int64_t blocklength,
                                            std::ptrdiff_t stride_bytes, const Datatype& old) {
  Builder b;
  if (count > 0) checked_mul(count - 1, stride_bytes, "hvector stride");
  if (repeat_pays(count, blocklength, old)) {
    b.add(0, static_cast<std::size_t>(blocklength), old);
    b.repeat(static_cast<std::size_t>(count), stride_bytes);
    return b.finish(false);
  }
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(i * stride_bytes, static_cast<std::size_t>(blocklength), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::indexed(std::int64_t count, const std::int64_t* blocklengths,
                                            const std::int64_t* displs, const Datatype& old) {
  Builder b;
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(checked_mul(displs[i], old.extent(), "indexed displacement"),
          static_cast<std::size_t>(blocklengths[i]), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::indexed_block(std::int64_t count, std::int64_t blocklength,
                                                  const std::int64_t* displs,
                                                  const Datatype& old) {
  Builder b;
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(checked_mul(displs[i], old.extent(), "indexed displacement"),
          static_cast<std::size_t>(blocklength), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::hindexed(std::int64_t count, const std::int64_t* blocklengths,
                                             const std::ptrdiff_t* displs_bytes,
                                             const Datatype& old) {
  Builder b;
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(displs_bytes[i], static_cast<std::size_t>(blocklengths[i]), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::hindexed_block(std::int64_t count, std::int64_t blocklength,
                                                   const std::ptrdiff_t* displs_bytes,
                                                   const Datatype& old) {
  Builder b;
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(displs_bytes[i], static_cast<std::size_t>(blocklength), old);
  }
  return b.finish(false);
}

std::unique_ptr<Datatype> Datatype::create_struct(std::int64_t count,
                                                  const std::int64_t* blocklengths,
                                                  const std::ptrdiff_t* displs_bytes,
                                                  const Datatype* const* types) {
  Builder b;
  for (std::int64_t i = 0; i < count; ++i) {
    b.add(displs_bytes[i], static_cast<std::size_t>(blocklengths[i]), *types[i]);
  }
  return b.finish(true);
}

std::unique_ptr<Datatype> Datatype::resized(const Datatype& old, std::ptrdiff_t lb,
                                            std::ptrdiff_t extent) {
  std::unique_ptr<Datatype> d = dup(old);
  d->lb_ = lb;
  d->ub_ = checked_add(lb, extent, "resized bounds");
  d->explicit_lb_ = true;
  d->explicit_ub_ = true;
  d->committed_ = false;
  d->finalize();
  return d;
}

std::unique_ptr<Datatype> Datatype::dup(const Datatype& old) {
  std::unique_ptr<Datatype> d(new Datatype());
  d->blocks_ = old.blocks_;
  d->block_starts_ = old.block_starts_;
  d->reps_ = old.reps_;
  d->rep_stride_ = old.rep_stride_;
  d->size_ = old.size_;
  d->lb_ = old.lb_;
  d->ub_ = old.ub_;
  d->true_lb_ = old.true_lb_;
  d->true_ub_ = old.true_ub_;
  d->alignment_ = old.alignment_;
  d->explicit_lb_ = old.explicit_lb_;
  d->explicit_ub_ = old.explicit_ub_;
  d->contiguous_ = old.contiguous_;
  d->committed_ = old.committed_;
  d->base_ = old.base_;
  d->signature_ = old.signature_;
  return d;
}

void copy_range(const void* src, std::size_t scount, const Datatype& stype, void* dst,
                std::size_t dcount, const Datatype& dtype, std::size_t byte_begin,
                std::size_t byte_end) {
  if (byte_begin >= byte_end) return;
  require_within(byte_end, scount, stype, "copy_range: range beyond source");
  require_within(byte_end, dcount, dtype, "copy_range: range beyond destination");
  const std::size_t n = byte_end - byte_begin;
  if (stype.contiguous() && dtype.contiguous()) {
    const std::ptrdiff_t at = as_signed(byte_begin);
    std::memcpy(reinterpret_cast<void*>(shifted(address(dst), dtype.true_lb() + at)),
                reinterpret_cast<const void*>(shifted(address(src), stype.true_lb() + at)), n);
    return;
  }
  LayoutCursor from(src, stype, byte_begin);
  LayoutCursor to(dst, dtype, byte_begin);
  transfer(from, to, n);
}

void pack(const void* src, std::size_t count, const Datatype& type, std::size_t offset,
          void* out, std::size_t bytes) {
  if (bytes == 0) return;
  require_within(offset + bytes, count, type, "pack: range beyond source");
  if (type.contiguous()) {  // the common case: one copy, no cursors
    copy_fixed(out, static_cast<const char*>(src) + type.true_lb() + offset, bytes);
    return;
  }
  LayoutCursor from(src, type, offset);
  LayoutCursor to(out);
  transfer(from, to, bytes);
}

void unpack(const void* in, std::size_t bytes, void* dst, std::size_t count,
            const Datatype& type, std::size_t offset) {
  if (bytes == 0) return;
  require_within(offset + bytes, count, type, "unpack: range beyond destination");
  if (type.contiguous()) {
    copy_fixed(static_cast<char*>(dst) + type.true_lb() + offset, in, bytes);
    return;
  }
  LayoutCursor from(in);
  LayoutCursor to(dst, type, offset);
  transfer(from, to, bytes);
}

void* address_of(void* base, std::size_t count, const Datatype& type, std::size_t offset) {
  require_within(offset + 1, count, type, "address_of: offset beyond the layout");
  return LayoutCursor(base, type, offset).ptr();
}

}  // namespace pure
