// The datatype engine's types of many pieces, kept as one period of blocks
// repeated (Datatype::reps): each compared with its block-by-block twin,
// and MPI's large-count case of a vector of 2^30 blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "datatype_test_helpers.h"
#include "pure/pure.h"
#include "types/datatype.h"

namespace pure {
namespace {

// The same type map, block by block (hindexed never repeats a period).
std::unique_ptr<Datatype> explicit_twin(const Datatype& t) {
  const std::vector<Block> all = t.flattened();
  std::vector<std::int64_t> lengths;
  std::vector<std::ptrdiff_t> displs;
  for (const Block& b : all) {
    lengths.push_back(static_cast<std::int64_t>(b.length));
    displs.push_back(b.offset);
  }
  auto twin = Datatype::hindexed(static_cast<std::int64_t>(all.size()), lengths.data(),
                                 displs.data(), T(PURE_BYTE));
  return Datatype::resized(*twin, t.lb(), t.extent());
}

// Everything the engine does with `t` agrees with its block-by-block twin:
// bounds, sizes, whole and partial packs (against the naive packer),
// unpacks, copies between the two and the addresses of packed bytes.
void expect_same_as_twin(const Datatype& t, std::size_t count) {
  auto twin = explicit_twin(t);
  EXPECT_EQ(t.size(), twin->size());
  EXPECT_EQ(t.lb(), twin->lb());
  EXPECT_EQ(t.extent(), twin->extent());
  EXPECT_EQ(t.true_lb(), twin->true_lb());
  EXPECT_EQ(t.true_extent(), twin->true_extent());
  // A buffer holding every byte the layout touches, with room below for
  // negative displacements.
  const std::ptrdiff_t below = std::max<std::ptrdiff_t>(0, -t.true_lb());
  const std::size_t span = static_cast<std::size_t>(
      below + t.true_lb() + t.true_extent() + static_cast<std::ptrdiff_t>(count - 1) * t.extent() + 64);
  std::vector<char> src(span), dst(span, 0), dst_twin(span, 0);
  for (std::size_t i = 0; i < span; ++i) src[i] = static_cast<char>(i * 131 + 7);
  const char* base = src.data() + below;
  const std::vector<char> want = naive_pack(base, count, *twin);
  ASSERT_EQ(want.size(), count * t.size());
  EXPECT_EQ(pack_all(base, count, t), want);
  std::mt19937 rng(7);
  const std::size_t total = want.size();
  for (int k = 0; k < 40; ++k) {
    std::size_t a = rng() % total, b = rng() % total;
    if (a > b) std::swap(a, b);
    if (a == b) ++b;
    std::vector<char> part(b - a);
    pack(base, count, t, a, part.data(), part.size());
    EXPECT_TRUE(std::equal(part.begin(), part.end(), want.begin() + static_cast<std::ptrdiff_t>(a)))
        << "pack of [" << a << ", " << b << ")";
    // Unpacked into both layouts, the same bytes land in the same places.
    unpack(part.data(), part.size(), dst.data() + below, count, t, a);
    unpack(part.data(), part.size(), dst_twin.data() + below, count, *twin, a);
    EXPECT_EQ(address_of(const_cast<char*>(base), count, t, a),
              address_of(const_cast<char*>(base), count, *twin, a));
  }
  EXPECT_EQ(dst, dst_twin);
  // Copies from the type into its twin, in pieces, put every byte where
  // its twin keeps it.
  std::vector<char> copied(span, 0);
  for (std::size_t at = 0; at < total; at += 997)
    copy_range(base, count, t, copied.data() + below, count, *twin, at, std::min(total, at + 997));
  std::vector<char> expected(span, 0);
  unpack(want.data(), total, expected.data() + below, count, *twin, 0);
  EXPECT_EQ(copied, expected);
}

TEST(DatatypeRepeat, ManyPiecesKeepOnePeriod) {
  auto four_ints = Datatype::contiguous(4, T(PURE_INT));
  auto v = Datatype::vector(5000, 1, 3, *four_ints);
  EXPECT_EQ(v->blocks().size(), 1u);
  EXPECT_EQ(v->reps(), 5000u);
  EXPECT_EQ(v->rep_stride(), 48);
  EXPECT_EQ(v->size(), 5000u * 16);
  EXPECT_EQ(v->true_extent(), 4999 * 48 + 16);
  expect_same_as_twin(*v, 2);
}

TEST(DatatypeRepeat, NegativeStridesAndGappedPieces) {
  auto down = Datatype::hvector(6000, 2, -40, T(PURE_INT));
  EXPECT_GT(down->reps(), 1u);
  EXPECT_EQ(down->true_lb(), -5999 * 40);
  expect_same_as_twin(*down, 2);
  // Pieces of a struct with a gap: the blocks that continue one another
  // inside a piece merge, the period is what one piece is.
  const std::int64_t ones[2] = {1, 1};
  const std::ptrdiff_t at[2] = {0, 8};
  const Datatype* parts[2] = {&T(PURE_INT), &T(PURE_DOUBLE)};
  auto id = Datatype::create_struct(2, ones, at, parts);
  auto gapped = Datatype::vector(3000, 2, 5, *id);
  EXPECT_EQ(gapped->reps(), 3000u);
  EXPECT_EQ(gapped->flattened().size(), 3000u * 3);
  expect_same_as_twin(*gapped, 3);
  auto runs = Datatype::contiguous(5000, *id);
  EXPECT_EQ(runs->reps(), 5000u);
  expect_same_as_twin(*runs, 2);
}

TEST(DatatypeRepeat, TypesBuiltOnARepeatedType) {
  auto v = Datatype::hvector(5000, 1, 12, T(PURE_INT));
  ASSERT_GT(v->reps(), 1u);
  // Resized, a struct member, a vector of it (few pieces, then many).
  auto r = Datatype::resized(*v, -8, v->extent() + 24);
  EXPECT_EQ(r->reps(), v->reps());
  expect_same_as_twin(*r, 3);
  const std::int64_t ones[2] = {1, 1};
  const std::ptrdiff_t at[2] = {0, v->extent() + 4};
  const Datatype* parts[2] = {v.get(), &T(PURE_SHORT)};
  auto s = Datatype::create_struct(2, ones, at, parts);
  expect_same_as_twin(*s, 2);
  auto few = Datatype::vector(3, 1, 2, *v);
  expect_same_as_twin(*few, 1);
  auto many = Datatype::contiguous(3, *r);
  expect_same_as_twin(*many, 2);
}

TEST(DatatypeRepeat, PiecesThatContinueOneAnotherAreOneBlock) {
  auto v = Datatype::vector(100000, 3, 3, T(PURE_INT));
  EXPECT_TRUE(v->contiguous());
  EXPECT_EQ(v->blocks(), B({{0, 1200000}}));
  EXPECT_EQ(v->reps(), 1u);
}

// MPI's large-count case: a vector of 2^30 - 1 blocks of 16 bytes at a
// stride of 48 is built at once and stays small; its bounds and sizes are
// exact and a packed byte near its end has the right address.
TEST(DatatypeRepeat, ABillionBlocksIsOnePeriod) {
  auto four_ints = Datatype::contiguous(4, T(PURE_INT));
  const std::int64_t n = INT32_MAX / 2;
  auto v = Datatype::vector(n, 1, 3, *four_ints);
  EXPECT_EQ(v->blocks().size(), 1u);
  EXPECT_EQ(v->size(), static_cast<std::size_t>(n) * 16);
  EXPECT_EQ(v->true_extent(), (n - 1) * 48 + 16);
  EXPECT_EQ(v->extent(), (n - 1) * 48 + 16);
  auto r = Datatype::resized(*v, INT32_MAX, -1024);
  EXPECT_EQ(r->size(), v->size());
  EXPECT_EQ(r->true_lb(), 0);
  EXPECT_EQ(r->true_extent(), v->true_extent());
  // Addresses only (nothing is read): byte 5 of block n-2.
  char* const base = reinterpret_cast<char*>(std::uintptr_t{1} << 40);
  const std::size_t offset = static_cast<std::size_t>(n - 2) * 16 + 5;
  EXPECT_EQ(address_of(base, 1, *v, offset), base + (n - 2) * 48 + 5);
}

}  // namespace
}  // namespace pure
