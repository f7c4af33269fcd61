// Unit tests for the datatype engine. Expected sizes and bounds are worked
// out by hand from the MPI rules (the values Open MPI reports on x86-64);
// expected bytes are checked element by element against hand-picked indices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/handle.h"
#include "datatype_test_helpers.h"
#include "pure/pure.h"
#include "types/datatype.h"

namespace pure {
namespace {

struct DoubleInt { double v; int i; };
struct ShortInt { short v; int i; };
struct LongInt { long v; int i; };
struct LongDoubleInt { long double v; int i; };
struct IntDouble { int a; double b; };
struct DoubleChar { double d; char c; };

TEST(DatatypeEngine, PredefinedTableMatchesC) {
  struct Expect { PURE_Datatype h; std::size_t size; BaseType base; const char* name; };
  const Expect table[] = {
      {PURE_CHAR, 1, BaseType::char_, "PURE_CHAR"},
      {PURE_SIGNED_CHAR, 1, BaseType::schar, "PURE_SIGNED_CHAR"},
      {PURE_UNSIGNED_CHAR, 1, BaseType::uchar, "PURE_UNSIGNED_CHAR"},
      {PURE_BYTE, 1, BaseType::byte, "PURE_BYTE"},
      {PURE_WCHAR, sizeof(wchar_t), BaseType::wchar, "PURE_WCHAR"},
      {PURE_SHORT, sizeof(short), BaseType::short_, "PURE_SHORT"},
      {PURE_UNSIGNED_SHORT, sizeof(unsigned short), BaseType::ushort, "PURE_UNSIGNED_SHORT"},
      {PURE_INT, sizeof(int), BaseType::int_, "PURE_INT"},
      {PURE_UNSIGNED, sizeof(unsigned), BaseType::uint_, "PURE_UNSIGNED"},
      {PURE_LONG, sizeof(long), BaseType::long_, "PURE_LONG"},
      {PURE_UNSIGNED_LONG, sizeof(unsigned long), BaseType::ulong_, "PURE_UNSIGNED_LONG"},
      {PURE_LONG_LONG, sizeof(long long), BaseType::llong, "PURE_LONG_LONG_INT"},
      {PURE_UNSIGNED_LONG_LONG, sizeof(unsigned long long), BaseType::ullong,
       "PURE_UNSIGNED_LONG_LONG"},
      {PURE_FLOAT, sizeof(float), BaseType::float_, "PURE_FLOAT"},
      {PURE_DOUBLE, sizeof(double), BaseType::double_, "PURE_DOUBLE"},
      {PURE_LONG_DOUBLE, sizeof(long double), BaseType::ldouble, "PURE_LONG_DOUBLE"},
      {PURE_INT8_T, 1, BaseType::int8, "PURE_INT8_T"},
      {PURE_INT16_T, 2, BaseType::int16, "PURE_INT16_T"},
      {PURE_INT32_T, 4, BaseType::int32, "PURE_INT32_T"},
      {PURE_INT64_T, 8, BaseType::int64, "PURE_INT64_T"},
      {PURE_UINT8_T, 1, BaseType::uint8, "PURE_UINT8_T"},
      {PURE_UINT16_T, 2, BaseType::uint16, "PURE_UINT16_T"},
      {PURE_UINT32_T, 4, BaseType::uint32, "PURE_UINT32_T"},
      {PURE_UINT64_T, 8, BaseType::uint64, "PURE_UINT64_T"},
      {PURE_C_BOOL, sizeof(bool), BaseType::c_bool, "PURE_C_BOOL"},
      {PURE_C_COMPLEX, 2 * sizeof(float), BaseType::cfloat, "PURE_C_FLOAT_COMPLEX"},
      {PURE_C_DOUBLE_COMPLEX, 2 * sizeof(double), BaseType::cdouble, "PURE_C_DOUBLE_COMPLEX"},
      {PURE_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), BaseType::cldouble,
       "PURE_C_LONG_DOUBLE_COMPLEX"},
      {PURE_AINT, sizeof(PURE_Aint), BaseType::aint, "PURE_AINT"},
      {PURE_OFFSET, sizeof(PURE_Offset), BaseType::offset, "PURE_OFFSET"},
      {PURE_COUNT, sizeof(PURE_Count), BaseType::count, "PURE_COUNT"},
      {PURE_PACKED, 1, BaseType::packed, "PURE_PACKED"},
      {PURE_CXX_BOOL, sizeof(bool), BaseType::cxx_bool, "PURE_CXX_BOOL"},
      {PURE_CXX_FLOAT_COMPLEX, 2 * sizeof(float), BaseType::cfloat, "PURE_CXX_FLOAT_COMPLEX"},
      {PURE_CXX_DOUBLE_COMPLEX, 2 * sizeof(double), BaseType::cdouble,
       "PURE_CXX_DOUBLE_COMPLEX"},
      {PURE_CXX_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), BaseType::cldouble,
       "PURE_CXX_LONG_DOUBLE_COMPLEX"},
      {PURE_CHARACTER, 1, BaseType::char_, "PURE_CHARACTER"},
      {PURE_INTEGER, 4, BaseType::int32, "PURE_INTEGER"},
      {PURE_DOUBLE_PRECISION, 8, BaseType::double_, "PURE_DOUBLE_PRECISION"},
      {PURE_COMPLEX16, 16, BaseType::cdouble, "PURE_COMPLEX16"},
  };
  for (const Expect& e : table) {
    SCOPED_TRACE(e.name);
    const Datatype& t = T(e.h);
    EXPECT_EQ(t.size(), e.size);
    EXPECT_EQ(t.lb(), 0);
    EXPECT_EQ(t.extent(), static_cast<std::ptrdiff_t>(e.size));
    EXPECT_EQ(t.true_lb(), 0);
    EXPECT_EQ(t.true_extent(), static_cast<std::ptrdiff_t>(e.size));
    EXPECT_TRUE(t.contiguous());
    EXPECT_EQ(t.flattened(), B({{0, e.size}}));
    EXPECT_EQ(t.base(), e.base);
    EXPECT_STREQ(t.name(), e.name);
    EXPECT_TRUE(t.predefined());
    EXPECT_TRUE(t.committed());
  }
  // 39 and 64..95 are free slots of the table; derived types start at 96.
  for (int unused : {-1, 0, 39, 64, 95, 96, 255, 1 << 20}) {
    EXPECT_EQ(Datatype::predefined(unused), nullptr) << unused;
  }
}

TEST(DatatypeEngine, PairTypesHaveCStructLayout) {
  // struct {double; int;}: data 8+4 = 12, sizeof 16. The two members touch,
  // so the flattened map is one 12-byte block, but the extent keeps the tail
  // padding, so an array of them is not contiguous.
  const Datatype& di = T(PURE_DOUBLE_INT);
  EXPECT_EQ(di.size(), 12u);
  EXPECT_EQ(di.extent(), 16);
  EXPECT_EQ(di.true_extent(), 12);
  EXPECT_EQ(di.flattened(), B({{0, 12}}));
  EXPECT_FALSE(di.contiguous());
  EXPECT_EQ(di.base(), BaseType::double_int);

  // struct {int; int;} and struct {float; int;}: 8 bytes, no padding.
  EXPECT_EQ(T(PURE_2INT).size(), 8u);
  EXPECT_EQ(T(PURE_2INT).extent(), 8);
  EXPECT_TRUE(T(PURE_2INT).contiguous());
  EXPECT_EQ(T(PURE_2INT).base(), BaseType::two_int);
  EXPECT_TRUE(T(PURE_FLOAT_INT).contiguous());
  EXPECT_EQ(T(PURE_FLOAT_INT).base(), BaseType::float_int);

  // struct {short; int;}: short at 0, 2 bytes of hole, int at 4; size 6, extent 8.
  const Datatype& si = T(PURE_SHORT_INT);
  EXPECT_EQ(si.size(), 6u);
  EXPECT_EQ(si.extent(), 8);
  EXPECT_EQ(si.true_extent(), 8);
  EXPECT_EQ(si.flattened(), B({{0, 2}, {4, 4}}));
  EXPECT_EQ(si.base(), BaseType::short_int);

  // struct {long; int;}: 12 data bytes, sizeof 16.
  EXPECT_EQ(T(PURE_LONG_INT).size(), sizeof(long) + 4);
  EXPECT_EQ(T(PURE_LONG_INT).extent(), static_cast<std::ptrdiff_t>(sizeof(LongInt)));

  // struct {long double; int;}: on x86-64 16 + 4 = 20 data bytes, sizeof 32.
  const Datatype& ldi = T(PURE_LONG_DOUBLE_INT);
  EXPECT_EQ(ldi.size(), sizeof(long double) + sizeof(int));
  EXPECT_EQ(ldi.extent(), static_cast<std::ptrdiff_t>(sizeof(LongDoubleInt)));
  EXPECT_EQ(ldi.base(), BaseType::ldouble_int);

  // Real bytes: three {double, int} pack to 3 * 12 bytes without padding.
  DoubleInt src[3] = {{1.5, 10}, {2.5, 20}, {-3.5, 30}};
  std::vector<char> packed = pack_all(src, 3, di);
  ASSERT_EQ(packed.size(), 36u);
  EXPECT_EQ(read_at<double>(packed, 0), 1.5);
  EXPECT_EQ(read_at<int>(packed, 8), 10);
  EXPECT_EQ(read_at<double>(packed, 12), 2.5);
  EXPECT_EQ(read_at<int>(packed, 20), 20);
  EXPECT_EQ(read_at<double>(packed, 24), -3.5);
  EXPECT_EQ(read_at<int>(packed, 32), 30);

  // Unpacking must leave the padding bytes alone.
  std::vector<unsigned char> raw(sizeof(src), 0xAB);
  unpack(packed.data(), packed.size(), raw.data(), 3, di, 0);
  for (int k = 0; k < 3; ++k) {
    DoubleInt got;
    std::memcpy(&got, raw.data() + 16 * k, 12);
    EXPECT_EQ(got.v, src[k].v);
    EXPECT_EQ(got.i, src[k].i);
    for (int pad = 12; pad < 16; ++pad) EXPECT_EQ(raw[16 * k + pad], 0xAB);
  }

  // {short, int}: the hole is skipped, so packed ints start at byte 2.
  ShortInt pairs[2] = {{7, 70}, {-8, 80}};
  std::vector<char> sp = pack_all(pairs, 2, si);
  ASSERT_EQ(sp.size(), 12u);
  EXPECT_EQ(read_at<short>(sp, 0), 7);
  EXPECT_EQ(read_at<int>(sp, 2), 70);
  EXPECT_EQ(read_at<short>(sp, 6), -8);
  EXPECT_EQ(read_at<int>(sp, 8), 80);
}

TEST(DatatypeEngine, Contiguous) {
  auto c = Datatype::contiguous(1000, T(PURE_INT));
  EXPECT_EQ(c->flattened(), B({{0, 4000}}));
  EXPECT_EQ(c->size(), 4000u);
  EXPECT_EQ(c->extent(), 4000);
  EXPECT_TRUE(c->contiguous());
  EXPECT_EQ(c->base(), BaseType::int_);
  EXPECT_FALSE(c->predefined());
  EXPECT_FALSE(c->committed());
  EXPECT_STREQ(c->name(), "derived datatype");

  // 3 x {double, int}: each 12 data bytes every 16; extent 48, true extent
  // 32 + 12 = 44.
  auto c3 = Datatype::contiguous(3, T(PURE_DOUBLE_INT));
  EXPECT_EQ(c3->flattened(), B({{0, 12}, {16, 12}, {32, 12}}));
  EXPECT_EQ(c3->size(), 36u);
  EXPECT_EQ(c3->extent(), 48);
  EXPECT_EQ(c3->true_extent(), 44);
  EXPECT_EQ(c3->base(), BaseType::double_int);

  auto empty = Datatype::contiguous(0, T(PURE_INT));
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(empty->extent(), 0);
  EXPECT_TRUE(empty->flattened().empty());
  EXPECT_TRUE(empty->contiguous());

  // Real bytes: 2 elements of contiguous(2, SHORT_INT) = 4 pairs.
  ShortInt pairs[4] = {{1, 11}, {2, 22}, {3, 33}, {4, 44}};
  auto c2 = Datatype::contiguous(2, T(PURE_SHORT_INT));
  std::vector<char> packed = pack_all(pairs, 2, *c2);
  ASSERT_EQ(packed.size(), 24u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(read_at<short>(packed, 6 * k), pairs[k].v);
    EXPECT_EQ(read_at<int>(packed, 6 * k + 2), pairs[k].i);
  }
}

TEST(DatatypeEngine, Vector) {
  // vector(3, 2, 4, INT): ints {0,1}, {4,5}, {8,9}. Extent is
  // ((3-1)*4 + 2) * 4 = 40 bytes, as Open MPI reports.
  auto v = Datatype::vector(3, 2, 4, T(PURE_INT));
  EXPECT_EQ(v->flattened(), B({{0, 8}, {16, 8}, {32, 8}}));
  EXPECT_EQ(v->size(), 24u);
  EXPECT_EQ(v->lb(), 0);
  EXPECT_EQ(v->extent(), 40);
  EXPECT_EQ(v->true_extent(), 40);
  EXPECT_FALSE(v->contiguous());
  EXPECT_EQ(v->base(), BaseType::int_);

  std::vector<int> a = iota_ints(20);
  EXPECT_EQ(values_of<int>(pack_all(a.data(), 1, *v)),
            (std::vector<int>{100, 101, 104, 105, 108, 109}));
  // The second element starts one extent (10 ints) later.
  EXPECT_EQ(values_of<int>(pack_all(a.data(), 2, *v)),
            (std::vector<int>{100, 101, 104, 105, 108, 109, 110, 111, 114, 115, 118, 119}));

  // Into a different layout: vector(2, 3, 5, INT) puts 3 ints at 0 and at 5.
  auto w = Datatype::vector(2, 3, 5, T(PURE_INT));
  std::vector<int> b(10, -1);
  copy_range(a.data(), 1, *v, b.data(), 1, *w, 0, 24);
  EXPECT_EQ(b, (std::vector<int>{100, 101, 104, -1, -1, 105, 108, 109, -1, -1}));
  std::vector<int> b2(10, -1);
  unpack(pack_all(a.data(), 1, *v).data(), 24, b2.data(), 1, *w, 0);
  EXPECT_EQ(b2, b);

  // stride == blocklength: the blocks touch and merge into one.
  auto m = Datatype::vector(5, 3, 3, T(PURE_INT));
  EXPECT_EQ(m->flattened(), B({{0, 60}}));
  EXPECT_EQ(m->extent(), 60);
  EXPECT_TRUE(m->contiguous());

  auto vd = Datatype::vector(4, 1, 3, T(PURE_DOUBLE));
  EXPECT_EQ(vd->base(), BaseType::double_);
}

TEST(DatatypeEngine, NegativeStride) {
  // vector(3, 2, -4, INT): blocks at 0, -16, -32 bytes. lb = -32,
  // ub = 0 + 8 = 8, so extent 40; true lb -32, true extent 40.
  auto v = Datatype::vector(3, 2, -4, T(PURE_INT));
  EXPECT_EQ(v->flattened(), B({{0, 8}, {-16, 8}, {-32, 8}}));
  EXPECT_EQ(v->lb(), -32);
  EXPECT_EQ(v->extent(), 40);
  EXPECT_EQ(v->true_lb(), -32);
  EXPECT_EQ(v->true_extent(), 40);

  std::vector<int> a = iota_ints(20);
  const int* base = a.data() + 8;
  EXPECT_EQ(values_of<int>(pack_all(base, 1, *v)),
            (std::vector<int>{108, 109, 104, 105, 100, 101}));
  // Element 1 is 40 bytes (10 ints) further on.
  EXPECT_EQ(values_of<int>(pack_all(base, 2, *v)),
            (std::vector<int>{108, 109, 104, 105, 100, 101, 118, 119, 114, 115, 110, 111}));

  // And back: unpack reverses the order into a fresh buffer.
  std::vector<int> dense{1, 2, 3, 4, 5, 6};
  std::vector<int> out(12, 0);
  unpack(dense.data(), 24, out.data() + 8, 1, *v, 0);
  EXPECT_EQ(out, (std::vector<int>{5, 6, 0, 0, 3, 4, 0, 0, 1, 2, 0, 0}));

  // hvector(2, 1, -12, DOUBLE): doubles at 0 and -12; lb -12, ub 8, extent 20.
  auto h = Datatype::hvector(2, 1, -12, T(PURE_DOUBLE));
  EXPECT_EQ(h->flattened(), B({{0, 8}, {-12, 8}}));
  EXPECT_EQ(h->lb(), -12);
  EXPECT_EQ(h->extent(), 20);
  EXPECT_EQ(h->size(), 16u);
}

TEST(DatatypeEngine, Hvector) {
  // hvector(3, 2, 20 bytes, SHORT): shorts {0,1}, {10,11}, {20,21};
  // extent 40 + 4 = 44.
  auto h = Datatype::hvector(3, 2, 20, T(PURE_SHORT));
  EXPECT_EQ(h->flattened(), B({{0, 4}, {20, 4}, {40, 4}}));
  EXPECT_EQ(h->size(), 12u);
  EXPECT_EQ(h->extent(), 44);
  std::vector<short> s(24);
  std::iota(s.begin(), s.end(), short{0});
  EXPECT_EQ(values_of<short>(pack_all(s.data(), 1, *h)),
            (std::vector<short>{0, 1, 10, 11, 20, 21}));
}

TEST(DatatypeEngine, Indexed) {
  // indexed({2,1,3}, {5,0,10}, INT): ints 5-6, 0, 10-12 in that order.
  // lb 0, ub (10+3)*4 = 52.
  const std::int64_t bl[] = {2, 1, 3};
  const std::int64_t dis[] = {5, 0, 10};
  auto x = Datatype::indexed(3, bl, dis, T(PURE_INT));
  EXPECT_EQ(x->flattened(), B({{20, 8}, {0, 4}, {40, 12}}));
  EXPECT_EQ(x->size(), 24u);
  EXPECT_EQ(x->lb(), 0);
  EXPECT_EQ(x->extent(), 52);
  EXPECT_EQ(x->true_lb(), 0);
  EXPECT_EQ(x->true_extent(), 52);
  std::vector<int> a = iota_ints(13);
  EXPECT_EQ(values_of<int>(pack_all(a.data(), 1, *x)),
            (std::vector<int>{105, 106, 100, 110, 111, 112}));

  // Negative displacement: doubles at -2 and 3-4; lb -16, ub 40, extent 56.
  const std::int64_t bl2[] = {1, 2};
  const std::int64_t dis2[] = {-2, 3};
  auto y = Datatype::indexed(2, bl2, dis2, T(PURE_DOUBLE));
  EXPECT_EQ(y->flattened(), B({{-16, 8}, {24, 16}}));
  EXPECT_EQ(y->lb(), -16);
  EXPECT_EQ(y->extent(), 56);
  std::vector<double> d{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(values_of<double>(pack_all(d.data() + 2, 1, *y)),
            (std::vector<double>{0, 5, 6}));

  // A zero-length block has no entries in the type map, so it does not
  // stretch the bounds: lb 4, extent 8.
  const std::int64_t bl3[] = {0, 2};
  const std::int64_t dis3[] = {-100, 1};
  auto z = Datatype::indexed(2, bl3, dis3, T(PURE_INT));
  EXPECT_EQ(z->lb(), 4);
  EXPECT_EQ(z->extent(), 8);
  EXPECT_EQ(z->flattened(), B({{4, 8}}));
}

TEST(DatatypeEngine, IndexedBlock) {
  // indexed_block(3, 2, {4,0,-2}, SHORT): shorts 4-5, 0-1, -2..-1.
  // lb -4, ub 12, extent 16.
  const std::int64_t dis[] = {4, 0, -2};
  auto x = Datatype::indexed_block(3, 2, dis, T(PURE_SHORT));
  EXPECT_EQ(x->flattened(), B({{8, 4}, {0, 4}, {-4, 4}}));
  EXPECT_EQ(x->size(), 12u);
  EXPECT_EQ(x->lb(), -4);
  EXPECT_EQ(x->extent(), 16);
  std::vector<short> s(8);
  std::iota(s.begin(), s.end(), short{0});
  EXPECT_EQ(values_of<short>(pack_all(s.data() + 2, 1, *x)),
            (std::vector<short>{6, 7, 2, 3, 0, 1}));

  const std::int64_t touching[] = {0, 2};
  auto y = Datatype::indexed_block(2, 2, touching, T(PURE_SHORT));
  EXPECT_EQ(y->flattened(), B({{0, 8}}));
  EXPECT_TRUE(y->contiguous());
}

TEST(DatatypeEngine, Hindexed) {
  // hindexed({1,2}, {12,-8} bytes, INT): lb -8, ub 16, extent 24.
  const std::int64_t bl[] = {1, 2};
  const std::ptrdiff_t dis[] = {12, -8};
  auto x = Datatype::hindexed(2, bl, dis, T(PURE_INT));
  EXPECT_EQ(x->flattened(), B({{12, 4}, {-8, 8}}));
  EXPECT_EQ(x->size(), 12u);
  EXPECT_EQ(x->lb(), -8);
  EXPECT_EQ(x->extent(), 24);
  std::vector<int> a = iota_ints(12);
  EXPECT_EQ(values_of<int>(pack_all(a.data() + 4, 1, *x)),
            (std::vector<int>{107, 102, 103}));

  // Absolute addresses with a null base, as MPI_BOTTOM users write.
  int target = 4242;
  const std::int64_t one[] = {1};
  const std::ptrdiff_t where[] = {static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(&target))};
  auto abs = Datatype::hindexed(1, one, where, T(PURE_INT));
  int got = 0;
  pack(nullptr, 1, *abs, 0, &got, sizeof(got));
  EXPECT_EQ(got, 4242);
}

TEST(DatatypeEngine, Struct) {
  const Datatype* id_types[] = {&T(PURE_INT), &T(PURE_DOUBLE)};
  const std::int64_t ones[] = {1, 1};
  // struct {int a; double b;}: data 4 + 8 = 12, true extent 16, extent 16.
  const std::ptrdiff_t id_dis[] = {offsetof(IntDouble, a), offsetof(IntDouble, b)};
  auto s = Datatype::create_struct(2, ones, id_dis, id_types);
  EXPECT_EQ(s->flattened(), B({{0, 4}, {8, 8}}));
  EXPECT_EQ(s->size(), 12u);
  EXPECT_EQ(s->lb(), 0);
  EXPECT_EQ(s->extent(), 16);
  EXPECT_EQ(s->true_extent(), 16);
  EXPECT_EQ(s->base(), BaseType::none);
  EXPECT_EQ(s->alignment(), alignof(double));

  // struct {double d; char c;}: data ends at 9, but the extent is padded to
  // the 8-byte alignment of double: 16 = sizeof, as Open MPI and MPICH give.
  const Datatype* dc_types[] = {&T(PURE_DOUBLE), &T(PURE_CHAR)};
  const std::ptrdiff_t dc_dis[] = {offsetof(DoubleChar, d), offsetof(DoubleChar, c)};
  auto dc = Datatype::create_struct(2, ones, dc_dis, dc_types);
  EXPECT_EQ(dc->size(), 9u);
  EXPECT_EQ(dc->extent(), static_cast<std::ptrdiff_t>(sizeof(DoubleChar)));
  EXPECT_EQ(dc->true_extent(), 9);
  EXPECT_FALSE(dc->contiguous());

  // Only chars: alignment 1, no padding.
  const std::int64_t three[] = {3};
  const std::ptrdiff_t zero[] = {0};
  const Datatype* chars[] = {&T(PURE_CHAR)};
  EXPECT_EQ(Datatype::create_struct(1, three, zero, chars)->extent(), 3);

  // An explicit ub marker (from resized) wins over both the data and the
  // padding: ub = 12 even though a char sits at 12.
  auto r = Datatype::resized(T(PURE_DOUBLE), 0, 12);
  const Datatype* rc_types[] = {r.get(), &T(PURE_CHAR)};
  const std::ptrdiff_t rc_dis[] = {0, 12};
  auto rc = Datatype::create_struct(2, ones, rc_dis, rc_types);
  EXPECT_EQ(rc->extent(), 12);
  EXPECT_EQ(rc->true_extent(), 13);
  EXPECT_EQ(rc->size(), 9u);

  // Members given out of address order keep type-map order when packed.
  const std::ptrdiff_t rev_dis[] = {8, 0};
  const Datatype* di_types[] = {&T(PURE_DOUBLE), &T(PURE_INT)};
  auto rev = Datatype::create_struct(2, ones, rev_dis, di_types);
  EXPECT_EQ(rev->flattened(), B({{8, 8}, {0, 4}}));
  EXPECT_EQ(rev->extent(), 16);

  // Homogeneous members keep their basic type for reductions.
  const Datatype* dd[] = {&T(PURE_DOUBLE), &T(PURE_DOUBLE)};
  const std::ptrdiff_t dd_dis[] = {0, 16};
  EXPECT_EQ(Datatype::create_struct(2, ones, dd_dis, dd)->base(), BaseType::double_);
  const Datatype* pairs[] = {&T(PURE_DOUBLE_INT), &T(PURE_DOUBLE_INT)};
  const std::ptrdiff_t pair_dis[] = {0, 16};
  EXPECT_EQ(Datatype::create_struct(2, ones, pair_dis, pairs)->base(), BaseType::double_int);

  // Real bytes: IntDouble records into a layout with the members swapped:
  // {int at 8, double at 0}, which is struct {double b; int a;} in C.
  IntDouble src[3] = {{1, 1.25}, {2, 2.5}, {3, -3.75}};
  struct Swapped { double b; int a; };
  const std::ptrdiff_t sw_dis[] = {offsetof(Swapped, a), offsetof(Swapped, b)};
  auto sw = Datatype::create_struct(2, ones, sw_dis, id_types);
  EXPECT_EQ(sw->extent(), 16);
  Swapped dst[3] = {};
  copy_range(src, 3, *s, dst, 3, *sw, 0, 36);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(dst[k].a, src[k].a);
    EXPECT_EQ(dst[k].b, src[k].b);
  }
  std::vector<char> packed = pack_all(src, 3, *s);
  EXPECT_EQ(read_at<int>(packed, 12), 2);
  EXPECT_EQ(read_at<double>(packed, 16), 2.5);
}

TEST(DatatypeEngine, Resized) {
  // resized(INT, -4, 16): lb -4, extent 16; the data is untouched.
  auto r = Datatype::resized(T(PURE_INT), -4, 16);
  EXPECT_EQ(r->lb(), -4);
  EXPECT_EQ(r->extent(), 16);
  EXPECT_EQ(r->size(), 4u);
  EXPECT_EQ(r->true_lb(), 0);
  EXPECT_EQ(r->true_extent(), 4);
  EXPECT_FALSE(r->contiguous());
  EXPECT_EQ(r->base(), BaseType::int_);
  std::vector<int> a = iota_ints(12);
  EXPECT_EQ(values_of<int>(pack_all(a.data(), 3, *r)), (std::vector<int>{100, 104, 108}));

  // The markers are sticky: contiguous(3, r) has lb -4 and ub -4 + 3*16.
  auto c = Datatype::contiguous(3, *r);
  EXPECT_EQ(c->lb(), -4);
  EXPECT_EQ(c->extent(), 48);
  EXPECT_EQ(c->flattened(), B({{0, 4}, {16, 4}, {32, 4}}));

  // resized(INT, 0, 6) then contiguous(1): extent stays 6 (Open MPI #8092).
  auto r6 = Datatype::resized(T(PURE_INT), 0, 6);
  EXPECT_EQ(Datatype::contiguous(1, *r6)->extent(), 6);

  // Dropping the tail padding of {double, int} makes an array of them dense.
  auto tight = Datatype::resized(T(PURE_DOUBLE_INT), 0, 12);
  EXPECT_TRUE(tight->contiguous());
  EXPECT_EQ(tight->base(), BaseType::double_int);
  EXPECT_FALSE(tight->committed());
}

TEST(DatatypeEngine, DupAndCommit) {
  auto v = Datatype::vector(3, 2, -4, T(PURE_INT));
  auto d = Datatype::dup(*v);
  EXPECT_EQ(d->flattened(), v->flattened());
  EXPECT_EQ(d->size(), v->size());
  EXPECT_EQ(d->lb(), v->lb());
  EXPECT_EQ(d->extent(), v->extent());
  EXPECT_EQ(d->true_lb(), v->true_lb());
  EXPECT_FALSE(d->committed());
  v->commit();
  EXPECT_TRUE(v->committed());
  EXPECT_TRUE(Datatype::dup(*v)->committed());

  auto di = Datatype::dup(T(PURE_INT));
  EXPECT_FALSE(di->predefined());
  EXPECT_TRUE(di->committed());
  EXPECT_EQ(di->base(), BaseType::int_);
  EXPECT_STREQ(di->name(), "derived datatype");
  EXPECT_TRUE(di->contiguous());
}

TEST(DatatypeEngine, VectorOfStruct) {
  // s = struct {int; double;} (extent 16). vector(3, 1, 2, s) takes records
  // 0, 2, 4: blocks at 0/8, 32/40, 64/72; extent (2*2+1)*16 = 80.
  const Datatype* types[] = {&T(PURE_INT), &T(PURE_DOUBLE)};
  const std::int64_t ones[] = {1, 1};
  const std::ptrdiff_t dis[] = {offsetof(IntDouble, a), offsetof(IntDouble, b)};
  auto s = Datatype::create_struct(2, ones, dis, types);
  auto v = Datatype::vector(3, 1, 2, *s);
  EXPECT_EQ(v->flattened(), B({{0, 4}, {8, 8}, {32, 4}, {40, 8}, {64, 4}, {72, 8}}));
  EXPECT_EQ(v->size(), 36u);
  EXPECT_EQ(v->extent(), 80);
  EXPECT_EQ(v->true_extent(), 80);
  EXPECT_EQ(v->base(), BaseType::none);

  IntDouble recs[6];
  for (int k = 0; k < 6; ++k) recs[k] = {10 * k, 0.5 * k};
  IntDouble out[3] = {};
  auto dense = Datatype::contiguous(3, *s);
  copy_range(recs, 1, *v, out, 1, *dense, 0, 36);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(out[k].a, 20 * k);
    EXPECT_EQ(out[k].b, 1.0 * k);
  }
}

TEST(DatatypeEngine, IndexedOfVector) {
  // w = vector(2, 1, 3, INT): ints 0 and 3; extent (1*3+1)*4 = 16, size 8.
  // indexed({1,2}, {0,3}, w): one w at 0, two at 48 and 64:
  // ints 0, 3, 12, 15, 16, 19; ints 15 and 16 touch and merge.
  // lb 0, ub 48 + 2*16 = 80.
  auto w = Datatype::vector(2, 1, 3, T(PURE_INT));
  EXPECT_EQ(w->extent(), 16);
  const std::int64_t bl[] = {1, 2};
  const std::int64_t dis[] = {0, 3};
  auto x = Datatype::indexed(2, bl, dis, *w);
  EXPECT_EQ(x->flattened(), B({{0, 4}, {12, 4}, {48, 4}, {60, 8}, {76, 4}}));
  EXPECT_EQ(x->size(), 24u);
  EXPECT_EQ(x->lb(), 0);
  EXPECT_EQ(x->extent(), 80);
  EXPECT_EQ(x->true_extent(), 80);
  std::vector<int> a = iota_ints(20);
  EXPECT_EQ(values_of<int>(pack_all(a.data(), 1, *x)),
            (std::vector<int>{100, 103, 112, 115, 116, 119}));
}

TEST(DatatypeEngine, PartialPackMatchesSliceOfFullPack) {
  auto v = Datatype::vector(7, 3, -5, T(PURE_SHORT_INT));
  const std::size_t count = 9;
  const std::size_t span = static_cast<std::size_t>(v->extent()) * count;
  std::vector<char> buf(span);
  std::mt19937 rng(7);
  for (char& c : buf) c = static_cast<char>(rng());
  const char* base = buf.data() - v->lb();
  const std::vector<char> full = pack_all(base, count, *v);
  ASSERT_EQ(full, naive_pack(base, count, *v));
  for (std::size_t begin : {0u, 1u, 5u, 17u, 125u, 126u, 300u}) {
    for (std::size_t len : {1u, 3u, 6u, 64u, 77u}) {
      if (begin + len > full.size()) continue;
      std::vector<char> part(len);
      pack(base, count, *v, begin, part.data(), len);
      EXPECT_TRUE(std::equal(part.begin(), part.end(), full.begin() + begin))
          << begin << "+" << len;
    }
  }
}

// Source and destination with different non-contiguous layouts, negative
// strides and holes; one big message copied whole, then in random ranges in
// random order, then by several threads at once. All must agree byte for byte,
// gaps of the destination included.
TEST(DatatypeEngine, CopyRangeSplitsAgreeWithWholeCopy) {
  // A = indexed({2,1,3}, {4,0,9}, SHORT_INT): 6 pairs, 36 data bytes, extent 96.
  const std::int64_t bl[] = {2, 1, 3};
  const std::int64_t dis[] = {4, 0, 9};
  auto a_type = Datatype::indexed(3, bl, dis, T(PURE_SHORT_INT));
  ASSERT_EQ(a_type->size(), 36u);
  ASSERT_EQ(a_type->extent(), 96);
  // B = vector(4, 3, -5, INT): 48 data bytes; lb -60, ub 12, extent 72.
  auto b_type = Datatype::vector(4, 3, -5, T(PURE_INT));
  ASSERT_EQ(b_type->size(), 48u);
  ASSERT_EQ(b_type->lb(), -60);
  ASSERT_EQ(b_type->extent(), 72);

  const std::size_t scount = 4000, dcount = 3000;
  const std::size_t total = scount * a_type->size();
  ASSERT_EQ(total, dcount * b_type->size());

  std::vector<char> src(scount * 96);
  std::mt19937 rng(1234);
  for (char& c : src) c = static_cast<char>(rng());
  const std::size_t dspan = dcount * 72;
  auto fresh_dst = [&] { return std::vector<char>(dspan, 0x5A); };
  auto dbase = [](std::vector<char>& d) { return d.data() + 60; };

  std::vector<char> whole = fresh_dst();
  copy_range(src.data(), scount, *a_type, dbase(whole), dcount, *b_type, 0, total);
  // The packed stream of the destination must be the source's packed stream.
  ASSERT_EQ(naive_pack(dbase(whole), dcount, *b_type), naive_pack(src.data(), scount, *a_type));

  // Random cut points, including ranges of a single byte.
  std::vector<std::size_t> cuts{0, total};
  for (int k = 0; k < 2000; ++k) cuts.push_back(rng() % total);
  for (int k = 0; k < 50; ++k) {
    const std::size_t at = rng() % (total - 1);
    cuts.push_back(at);
    cuts.push_back(at + 1);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) ranges.push_back({cuts[k], cuts[k + 1]});
  std::shuffle(ranges.begin(), ranges.end(), rng);

  std::vector<char> split = fresh_dst();
  for (const auto& r : ranges) {
    copy_range(src.data(), scount, *a_type, dbase(split), dcount, *b_type, r.first, r.second);
  }
  EXPECT_TRUE(split == whole);

  for (int threads : {2, 3, 4}) {
    std::vector<char> par = fresh_dst();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (std::size_t k = static_cast<std::size_t>(t); k < ranges.size();
             k += static_cast<std::size_t>(threads)) {
          copy_range(src.data(), scount, *a_type, dbase(par), dcount, *b_type, ranges[k].first,
                     ranges[k].second);
        }
      });
    }
    for (auto& th : pool) th.join();
    EXPECT_TRUE(par == whole) << threads << " threads";
  }

  // Pack in pieces, then unpack in different pieces: same result again.
  std::vector<char> packed(total);
  for (const auto& r : ranges) {
    pack(src.data(), scount, *a_type, r.first, packed.data() + r.first, r.second - r.first);
  }
  std::vector<char> unpacked = fresh_dst();
  for (std::size_t at = 0; at < total;) {
    const std::size_t len = std::min<std::size_t>(1 + rng() % 997, total - at);
    unpack(packed.data() + at, len, dbase(unpacked), dcount, *b_type, at);
    at += len;
  }
  EXPECT_TRUE(unpacked == whole);
}

TEST(DatatypeEngine, ContiguousFastPathAndBounds) {
  std::vector<int> a = iota_ints(16);
  std::vector<int> b(16, 0);
  auto c4 = Datatype::contiguous(4, T(PURE_INT));
  // Packed bytes [8, 40) are ints 2..9 on both sides.
  copy_range(a.data(), 16, T(PURE_INT), b.data(), 4, *c4, 8, 40);
  for (int k = 0; k < 16; ++k) EXPECT_EQ(b[k], (k >= 2 && k < 10) ? 100 + k : 0) << k;

  EXPECT_THROW(copy_range(a.data(), 3, T(PURE_INT), b.data(), 16, T(PURE_INT), 0, 16),
               std::out_of_range);
  EXPECT_THROW(pack(a.data(), 1, *c4, 10, b.data(), 8), std::out_of_range);
  EXPECT_NO_THROW(copy_range(a.data(), 0, T(PURE_INT), b.data(), 0, T(PURE_INT), 0, 0));
}

}  // namespace
}  // namespace pure
