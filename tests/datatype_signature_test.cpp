// Unit tests of the datatype engine's newer parts: type signatures (the
// basic elements a type holds, which MPI_Get_elements counts), subarray and
// darray layouts, the MPI-1 bound markers and the external32 representation.
// Subarray and darray layouts are checked against a reference computed the
// obvious way, index by index, from MPI 3.1 section 4.1.3-4.1.4.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <vector>

#include "base/error.h"
#include "base/handle.h"
#include "pure/pure.h"
#include "types/datatype.h"
#include "types/external32.h"

namespace pure {
namespace {

const Datatype& T(PURE_Datatype handle) { return *Datatype::predefined(handle_index(handle)); }

struct IntChars {
  int n;
  char text[16];
};

std::unique_ptr<Datatype> int_and_chars(std::int64_t chars) {
  const std::int64_t lengths[] = {1, chars};
  const std::ptrdiff_t displs[] = {0, sizeof(int)};
  const Datatype* types[] = {&T(PURE_INT), &T(PURE_CHAR)};
  return Datatype::create_struct(2, lengths, displs, types);
}

TEST(Signature, PredefinedTypesAreOneElement) {
  for (PURE_Datatype h : {PURE_INT, PURE_DOUBLE, PURE_LONG_DOUBLE, PURE_C_DOUBLE_COMPLEX,
                          PURE_CXX_FLOAT_COMPLEX, PURE_INTEGER, PURE_LOGICAL}) {
    EXPECT_EQ(T(h).signature().elements(), 1u) << T(h).name();
    EXPECT_EQ(T(h).signature().bytes(), T(h).size()) << T(h).name();
  }
}

TEST(Signature, PairTypesAreTwoElements) {
  // MPI counts a value-index pair as its two members.
  for (PURE_Datatype h : {PURE_FLOAT_INT, PURE_DOUBLE_INT, PURE_LONG_INT, PURE_2INT,
                          PURE_SHORT_INT, PURE_LONG_DOUBLE_INT, PURE_2REAL, PURE_2INTEGER,
                          PURE_2DOUBLE_PRECISION})
    EXPECT_EQ(T(h).signature().elements(), 2u) << T(h).name();
  // A double and its int: 12 bytes of data; 8 of them are one element.
  const Signature& s = T(PURE_DOUBLE_INT).signature();
  EXPECT_EQ(s.elements_in(8), std::optional<std::uint64_t>(1));
  EXPECT_EQ(s.elements_in(12), std::optional<std::uint64_t>(2));
  EXPECT_EQ(s.elements_in(20), std::optional<std::uint64_t>(3));
  EXPECT_EQ(s.elements_in(4), std::nullopt);
}

TEST(Signature, CountsBasicElementsOfPartialData) {
  auto t = int_and_chars(16);  // 1 int + 16 chars: 17 elements, 20 bytes
  const Signature& s = t->signature();
  EXPECT_EQ(s.elements(), 17u);
  EXPECT_EQ(s.bytes(), 20u);
  EXPECT_EQ(s.elements_in(0), std::optional<std::uint64_t>(0));
  EXPECT_EQ(s.elements_in(4), std::optional<std::uint64_t>(1));
  EXPECT_EQ(s.elements_in(9), std::optional<std::uint64_t>(6));
  EXPECT_EQ(s.elements_in(2), std::nullopt);  // inside the int
  EXPECT_EQ(s.elements_in(40), std::optional<std::uint64_t>(34));
  EXPECT_EQ(s.elements_in(42), std::nullopt);  // inside the second copy's int
  EXPECT_EQ(s.elements_in(47), std::optional<std::uint64_t>(38));
  // And back: the bytes of the first n elements.
  for (std::uint64_t n = 0; n < 60; ++n) {
    const std::uint64_t bytes = s.bytes_of(n);
    EXPECT_EQ(s.elements_in(bytes), std::optional<std::uint64_t>(n)) << n;
  }
}

TEST(Signature, RepeatsStayCompact) {
  // 2^30 copies of a struct of two basic types: two levels, not 2^31 runs.
  // The struct (an int and 4 chars) has no hole, so the flattened blocks
  // merge into one as well: the engine flattens a type's byte blocks, and
  // 2^30 copies of a struct with a hole would be 2^30 blocks.
  auto inner = int_and_chars(4);
  ASSERT_TRUE(inner->contiguous());
  auto big = Datatype::contiguous(std::int64_t{1} << 30, *inner);
  EXPECT_EQ(big->flattened().size(), 1u);
  const Signature& s = big->signature();
  EXPECT_EQ(s.runs().size(), 1u);
  EXPECT_EQ(s.elements(), 5ull << 30);
  EXPECT_EQ(s.bytes(), 8ull << 30);
  EXPECT_EQ(s.elements_in(8 * 1000 + 4 + 2), std::optional<std::uint64_t>(5 * 1000 + 1 + 2));
  EXPECT_EQ(s.elements_in(8 * 1000 + 2), std::nullopt);  // inside an int
  // Vectors of one basic type are one run of that type.
  auto v = Datatype::vector(1000, 3, 7, T(PURE_DOUBLE));
  ASSERT_EQ(v->signature().runs().size(), 1u);
  EXPECT_EQ(v->signature().runs()[0].repeat, 3000u);
  EXPECT_EQ(v->signature().runs()[0].inner, nullptr);
}

TEST(Signature, EmptyAndMarkerTypesHoldNoElements) {
  auto empty = Datatype::contiguous(0, T(PURE_INT));
  EXPECT_EQ(empty->signature().elements(), 0u);
  EXPECT_EQ(empty->signature().elements_in(0), std::optional<std::uint64_t>(0));
  EXPECT_EQ(empty->signature().elements_in(4), std::nullopt);
  EXPECT_EQ(T(PURE_LB).signature().elements(), 0u);
  EXPECT_EQ(T(PURE_UB).size(), 0u);
}

TEST(BoundMarkers, SetTheBoundsOfAStruct) {
  // MPI-1's struct {LB at -8, int at 0, UB at 24}: lb -8, extent 32.
  const std::int64_t ones[] = {1, 1, 1};
  const std::ptrdiff_t displs[] = {-8, 0, 24};
  const Datatype* types[] = {&T(PURE_LB), &T(PURE_INT), &T(PURE_UB)};
  auto t = Datatype::create_struct(3, ones, displs, types);
  EXPECT_EQ(t->lb(), -8);
  EXPECT_EQ(t->extent(), 32);
  EXPECT_EQ(t->size(), 4u);
  EXPECT_EQ(t->true_lb(), 0);
  EXPECT_EQ(t->true_extent(), 4);
  // An LB marker alone moves only the lower bound; the upper one is the
  // data's end, with the extent padded to the int's alignment (MPI-1's
  // epsilon): ub 4 + 2.
  const Datatype* lb_only[] = {&T(PURE_INT), &T(PURE_LB)};
  const std::ptrdiff_t at[] = {0, 2};
  auto u = Datatype::create_struct(2, ones, at, lb_only);
  EXPECT_EQ(u->lb(), 2);
  EXPECT_EQ(u->extent(), 4);
  // An LB marker beyond the data does not stretch the upper bound.
  const std::ptrdiff_t far[] = {0, 100};
  auto w = Datatype::create_struct(2, ones, far, lb_only);
  EXPECT_EQ(w->lb(), 100);
  EXPECT_EQ(w->lb() + w->extent(), 4);
  // Markers inside a member count for the outer struct as well.
  const Datatype* outer[] = {t.get(), &T(PURE_CHAR)};
  const std::ptrdiff_t outer_at[] = {100, 0};
  auto o = Datatype::create_struct(2, ones, outer_at, outer);
  EXPECT_EQ(o->lb(), 92);  // the LB marker, not the char at 0
  EXPECT_EQ(o->lb() + o->extent(), 124);
}

// ---- subarray and darray against a reference built index by index ----

// Linear indices (storage order) of the elements of an n-dimensional array
// of `sizes` whose index tuple satisfies `owned`, in storage order: the
// type map every section type must have.
template <class Owned>
std::vector<std::int64_t> reference(const std::vector<std::int64_t>& sizes, bool c_order,
                                    Owned&& owned) {
  const std::size_t n = sizes.size();
  std::int64_t total = 1;
  for (auto s : sizes) total *= s;
  std::vector<std::int64_t> out;
  std::vector<std::int64_t> idx(n);
  for (std::int64_t linear = 0; linear < total; ++linear) {
    std::int64_t rest = linear;
    for (std::size_t k = 0; k < n; ++k) {  // fastest dimension first
      const std::size_t d = c_order ? n - 1 - k : k;
      idx[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    if (owned(idx)) out.push_back(linear);
  }
  return out;
}

// The linear indices a type picks from an array of ints numbered 0..n-1.
std::vector<std::int64_t> picked(const Datatype& t, std::int64_t total) {
  std::vector<int> array(static_cast<std::size_t>(total));
  std::iota(array.begin(), array.end(), 0);
  std::vector<int> packed(t.size() / sizeof(int));
  pack(array.data(), 1, t, 0, packed.data(), t.size());
  return std::vector<std::int64_t>(packed.begin(), packed.end());
}

TEST(ArrayTypes, SubarrayInBothOrders) {
  const std::vector<std::vector<std::int64_t>> shapes = {{7}, {4, 5}, {3, 4, 5}, {2, 3, 2, 3}};
  for (const auto& sizes : shapes) {
    for (bool c_order : {true, false}) {
      const std::size_t n = sizes.size();
      std::vector<std::int64_t> sub(n), start(n);
      for (std::size_t d = 0; d < n; ++d) {
        sub[d] = std::max<std::int64_t>(1, sizes[d] - 1 - static_cast<std::int64_t>(d % 2));
        start[d] = sizes[d] - sub[d] - static_cast<std::int64_t>(d % 2 == 0 && sizes[d] > sub[d]);
      }
      auto t = Datatype::subarray(static_cast<int>(n), sizes.data(), sub.data(), start.data(),
                                  c_order ? Datatype::Order::c : Datatype::Order::fortran,
                                  T(PURE_INT));
      std::int64_t total = 1;
      for (auto s : sizes) total *= s;
      EXPECT_EQ(t->lb(), 0);
      EXPECT_EQ(t->extent(), total * 4);
      auto expect = reference(sizes, c_order, [&](const std::vector<std::int64_t>& i) {
        for (std::size_t d = 0; d < n; ++d)
          if (i[d] < start[d] || i[d] >= start[d] + sub[d]) return false;
        return true;
      });
      EXPECT_EQ(picked(*t, total), expect) << n << " dimensions, c order " << c_order;
    }
  }
}

TEST(ArrayTypes, EmptySubarrayKeepsTheArrayExtent) {
  const std::int64_t sizes[] = {4, 6}, sub[] = {0, 6}, start[] = {2, 0};
  auto t = Datatype::subarray(2, sizes, sub, start, Datatype::Order::c, T(PURE_DOUBLE));
  EXPECT_EQ(t->size(), 0u);
  EXPECT_EQ(t->extent(), 4 * 6 * 8);
}

struct DarrayCase {
  std::vector<std::int64_t> gsizes;
  std::vector<Datatype::Distribution> distribs;
  std::vector<std::int64_t> dargs;  // <= 0: default
  std::vector<int> psizes;
};

// Owner coordinate of index i of one dimension, straight from the
// definitions: a block distribution gives process p the block
// [p*b, (p+1)*b); a cyclic one deals blocks of b round-robin.
int owner(std::int64_t i, std::int64_t gsize, Datatype::Distribution d, std::int64_t darg, int p) {
  switch (d) {
    case Datatype::Distribution::none: return 0;
    case Datatype::Distribution::block: {
      const std::int64_t b = darg > 0 ? darg : (gsize + p - 1) / p;
      return static_cast<int>(i / b);
    }
    case Datatype::Distribution::cyclic: {
      const std::int64_t b = darg > 0 ? darg : 1;
      return static_cast<int>((i / b) % p);
    }
  }
  return -1;
}

TEST(ArrayTypes, DarrayCoversTheArrayOnceInStorageOrder) {
  using D = Datatype::Distribution;
  const std::vector<DarrayCase> cases = {
      {{10}, {D::block}, {0}, {3}},
      {{10}, {D::block}, {4}, {3}},
      {{10}, {D::cyclic}, {0}, {3}},
      {{11}, {D::cyclic}, {2}, {4}},
      {{6, 7}, {D::block, D::cyclic}, {0, 2}, {2, 3}},
      {{6, 7}, {D::none, D::block}, {0, 0}, {1, 4}},
      {{5, 4, 6}, {D::cyclic, D::block, D::cyclic}, {1, 0, 4}, {2, 2, 2}},
      {{9, 8}, {D::block, D::block}, {5, 3}, {2, 3}},  // the last process of dim 1 owns nothing
  };
  for (const DarrayCase& k : cases) {
    const int ndims = static_cast<int>(k.gsizes.size());
    int size = 1;
    for (int p : k.psizes) size *= p;
    std::int64_t total = 1;
    for (auto g : k.gsizes) total *= g;
    for (bool c_order : {true, false}) {
      std::vector<int> seen(static_cast<std::size_t>(total), 0);
      for (int rank = 0; rank < size; ++rank) {
        std::vector<Datatype::DarrayDim> dims;
        std::vector<int> coords(static_cast<std::size_t>(ndims));
        for (int d = ndims - 1, r = rank; d >= 0; --d) {
          coords[static_cast<std::size_t>(d)] = r % k.psizes[static_cast<std::size_t>(d)];
          r /= k.psizes[static_cast<std::size_t>(d)];
        }
        for (int d = 0; d < ndims; ++d) {
          const auto u = static_cast<std::size_t>(d);
          dims.push_back({k.gsizes[u], k.distribs[u], k.dargs[u], k.psizes[u]});
        }
        auto t = Datatype::darray(size, rank, ndims, dims.data(),
                                  c_order ? Datatype::Order::c : Datatype::Order::fortran,
                                  T(PURE_INT));
        EXPECT_EQ(t->lb(), 0);
        EXPECT_EQ(t->extent(), total * 4);
        auto expect = reference(k.gsizes, c_order, [&](const std::vector<std::int64_t>& i) {
          for (std::size_t d = 0; d < i.size(); ++d)
            if (owner(i[d], k.gsizes[d], k.distribs[d], k.dargs[d], k.psizes[d]) != coords[d])
              return false;
          return true;
        });
        const auto got = picked(*t, total);
        EXPECT_EQ(got, expect) << "rank " << rank << " of " << size << ", c order " << c_order;
        for (auto i : got) ++seen[static_cast<std::size_t>(i)];
      }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }))
          << "every element belongs to exactly one rank";
    }
  }
}

// ---- external32 ----

std::vector<unsigned char> ext(const void* src, std::uint64_t count, const Datatype& t) {
  std::vector<unsigned char> out(count * external32_size(t));
  pack_external32(src, count, t, out.data());
  return out;
}

TEST(External32, SizesAreTheStandardsWhateverTheMachine) {
  EXPECT_EQ(external32_size(T(PURE_LONG)), 4u);
  EXPECT_EQ(external32_size(T(PURE_UNSIGNED_LONG)), 4u);
  EXPECT_EQ(external32_size(T(PURE_LONG_DOUBLE)), 16u);
  EXPECT_EQ(external32_size(T(PURE_WCHAR)), 2u);
  EXPECT_EQ(external32_size(T(PURE_C_BOOL)), 1u);
  EXPECT_EQ(external32_size(T(PURE_CXX_BOOL)), 1u);
  EXPECT_EQ(external32_size(T(PURE_AINT)), 8u);
  EXPECT_EQ(external32_size(T(PURE_COUNT)), 8u);
  EXPECT_EQ(external32_size(T(PURE_C_LONG_DOUBLE_COMPLEX)), 32u);
  EXPECT_EQ(external32_size(T(PURE_LOGICAL)), 4u);
  // A pair is its members, without the C struct's padding.
  EXPECT_EQ(external32_size(T(PURE_DOUBLE_INT)), 12u);
  EXPECT_EQ(external32_size(T(PURE_LONG_INT)), 8u);
  EXPECT_EQ(external32_size(T(PURE_SHORT_INT)), 6u);
}

TEST(External32, IntegersAndRealsAreBigEndian) {
  const int i = 0x01020304;
  EXPECT_EQ(ext(&i, 1, T(PURE_INT)), (std::vector<unsigned char>{1, 2, 3, 4}));
  const short s = -2;
  EXPECT_EQ(ext(&s, 1, T(PURE_SHORT)), (std::vector<unsigned char>{0xFF, 0xFE}));
  const long l = -5;
  EXPECT_EQ(ext(&l, 1, T(PURE_LONG)), (std::vector<unsigned char>{0xFF, 0xFF, 0xFF, 0xFB}));
  const double d = 1.0;
  EXPECT_EQ(ext(&d, 1, T(PURE_DOUBLE)),
            (std::vector<unsigned char>{0x3F, 0xF0, 0, 0, 0, 0, 0, 0}));
  const float f = -2.0f;
  EXPECT_EQ(ext(&f, 1, T(PURE_FLOAT)), (std::vector<unsigned char>{0xC0, 0, 0, 0}));
  const bool b[2] = {true, false};
  EXPECT_EQ(ext(b, 2, T(PURE_C_BOOL)), (std::vector<unsigned char>{1, 0}));
}

TEST(External32, LongDoubleIsBinary128) {
  // 1.0: sign 0, exponent 0x3FFF, fraction 0. -0.75: 0xBFFE, fraction .1000...
  const long double v[2] = {1.0L, -0.75L};
  std::vector<unsigned char> expect(32, 0);
  expect[0] = 0x3F;
  expect[1] = 0xFF;
  expect[16] = 0xBF;
  expect[17] = 0xFE;
  expect[18] = 0x80;
  EXPECT_EQ(ext(v, 2, T(PURE_LONG_DOUBLE)), expect);
}

TEST(External32, RoundTripsEveryKindOfValue) {
  struct Mixed {
    char c;
    long l;
    long double ld;
    std::complex<double> z;
    wchar_t w;
    unsigned long ul;
    bool b;
  };
  const std::int64_t ones[] = {1, 1, 1, 1, 1, 1, 1};
  const std::ptrdiff_t displs[] = {offsetof(Mixed, c), offsetof(Mixed, l),  offsetof(Mixed, ld),
                                   offsetof(Mixed, z), offsetof(Mixed, w),  offsetof(Mixed, ul),
                                   offsetof(Mixed, b)};
  const Datatype* types[] = {&T(PURE_CHAR),           &T(PURE_LONG),  &T(PURE_LONG_DOUBLE),
                             &T(PURE_C_DOUBLE_COMPLEX), &T(PURE_WCHAR), &T(PURE_UNSIGNED_LONG),
                             &T(PURE_C_BOOL)};
  auto t = Datatype::create_struct(7, ones, displs, types);
  EXPECT_EQ(external32_size(*t), 1u + 4 + 16 + 16 + 2 + 4 + 1);
  std::vector<Mixed> in(3);
  const long double values[] = {3.14159265358979323846L, -1e-4000L, 1e4000L};
  for (int k = 0; k < 3; ++k) {
    Mixed& m = in[static_cast<std::size_t>(k)];
    std::memset(static_cast<void*>(&m), 0, sizeof m);  // the padding too
    m.c = static_cast<char>('x' + k);
    m.l = -2147483647L + k;
    m.ld = values[k];  // a subnormal-free but extreme exponent range
    m.z = {1.5 * k, -2.25};
    m.w = static_cast<wchar_t>(0x263A + k);
    m.ul = 4294967295UL - static_cast<unsigned long>(k);
    m.b = k % 2 == 0;
  }
  const std::vector<unsigned char> bytes = ext(in.data(), 3, *t);
  std::vector<Mixed> out(3);
  std::memset(static_cast<void*>(out.data()), 0, sizeof(Mixed) * 3);
  unpack_external32(bytes.data(), out.data(), 3, *t);
  for (int k = 0; k < 3; ++k) {
    const Mixed& a = in[static_cast<std::size_t>(k)];
    const Mixed& b = out[static_cast<std::size_t>(k)];
    EXPECT_EQ(a.c, b.c);
    EXPECT_EQ(a.l, b.l);
    EXPECT_EQ(a.ld, b.ld);
    EXPECT_EQ(a.z, b.z);
    EXPECT_EQ(a.w, b.w);
    EXPECT_EQ(a.ul, b.ul);
    EXPECT_EQ(a.b, b.b);
  }
}

TEST(External32, ValuesTheRepresentationCannotHoldAreConversionErrors) {
  const long big = 1L << 40;
  std::vector<unsigned char> out(4);
  try {
    pack_external32(&big, 1, T(PURE_LONG), out.data());
    ADD_FAILURE() << "a long of 2^40 packed into 4 bytes";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), PURE_ERR_CONVERSION);
    EXPECT_NE(std::string(e.what()).find("1099511627776"), std::string::npos) << e.what();
  }
  const wchar_t emoji = 0x1F600;
  EXPECT_THROW(pack_external32(&emoji, 1, T(PURE_WCHAR), out.data()), Error);
}

TEST(External32, NonzeroBytesOfATruthValueAreTrue) {
  const unsigned char in[3] = {0, 7, 0x80};
  bool out[3] = {true, false, false};
  unpack_external32(in, out, 3, T(PURE_CXX_BOOL));
  EXPECT_FALSE(out[0]);
  EXPECT_TRUE(out[1]);
  EXPECT_TRUE(out[2]);
}

TEST(External32, LongerThanOneBatch) {
  // More than the 64 KiB scratch batch, through a non-contiguous type.
  auto v = Datatype::vector(3, 1, 2, T(PURE_INT));
  const std::uint64_t count = 20000;
  std::vector<int> in(static_cast<std::size_t>(count * 6));
  std::iota(in.begin(), in.end(), -1000);
  const std::vector<unsigned char> bytes = ext(in.data(), count, *v);
  ASSERT_EQ(bytes.size(), count * 12);
  std::vector<int> out(in.size(), 0);
  unpack_external32(bytes.data(), out.data(), count, *v);
  for (std::size_t i = 0; i < in.size(); ++i) {
    // Element e takes ints 0, 2 and 4 of the 5 from 5e on (the extent).
    const std::size_t e = i / 5, k = i % 5;
    ASSERT_EQ(out[i], e < count && k % 2 == 0 ? in[i] : 0) << i;
  }
}

}  // namespace
}  // namespace pure
