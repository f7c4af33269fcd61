// Collectives: every collective, every predefined op on representative
// types, user ops (commutative or not), in-place and v variants, sizes on
// both sides of the small/large switch, and long runs of mixed collectives
// (which catch round-parity bugs), on 2, 3, 4, 8 and 16 ranks. Test data are
// small integers, so even floating-point results are exact whatever the
// reduction order. (Bad input: collectives_errors_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "collectives_harness.h"
#include "pure/pure.h"

using coll_test::Affine;
using coll_test::affine_of;
using coll_test::compose;
using coll_test::fold_affine;
using coll_test::run_ranks;
using coll_test::run_ranks_capturing;

namespace {

// Counts on both sides of the inline (48 B) switch and of the partition
// threshold for ranks with a core each (2 KiB); CollectivesThreshold forces either
// path at every count.
const int kCounts[] = {0, 1, 5, 13, 100, 600, 3001};

// C's bool for PURE_C_BOOL (std::vector<bool> has no data()).
struct Bool {
  bool v = false;
  Bool() = default;
  Bool(int x) : v(x != 0) {}  // NOLINT: converts like bool
  friend bool operator==(Bool a, Bool b) { return a.v == b.v; }
  friend bool operator!=(Bool a, Bool b) { return a.v != b.v; }
  friend bool operator<(Bool a, Bool b) { return a.v < b.v; }
  friend int operator+(Bool a, Bool b) { return a.v + b.v; }
  friend int operator*(Bool a, Bool b) { return a.v * b.v; }
  friend int operator+(Bool a) { return a.v; }
};
static_assert(sizeof(Bool) == sizeof(bool));

template <class T> PURE_Datatype type_of();
template <> PURE_Datatype type_of<int>() { return PURE_INT; }
template <> PURE_Datatype type_of<unsigned>() { return PURE_UNSIGNED; }
template <> PURE_Datatype type_of<long long>() { return PURE_LONG_LONG; }
template <> PURE_Datatype type_of<short>() { return PURE_SHORT; }
template <> PURE_Datatype type_of<std::uint8_t>() { return PURE_UINT8_T; }
template <> PURE_Datatype type_of<double>() { return PURE_DOUBLE; }
template <> PURE_Datatype type_of<float>() { return PURE_FLOAT; }
template <> PURE_Datatype type_of<Bool>() { return PURE_C_BOOL; }

// The value rank r contributes at index i: small, so sums and products of up
// to 16 ranks stay exact in every type.
template <class T>
T value(PURE_Op op, int r, int i) {
  if (op == PURE_PROD) return static_cast<T>((i + r) % 7 == 0 ? 2 : 1);
  if (op == PURE_LAND || op == PURE_LOR || op == PURE_LXOR)
    return static_cast<T>((i * 3 + r) % 4 == 0 ? 0 : ((i + r) % 3 == 0 ? 1 : 1));
  if (op == PURE_BAND || op == PURE_BOR || op == PURE_BXOR)
    return static_cast<T>((i * 37 + r * 11) & 0x7F);
  return static_cast<T>((i * 13 + r * 7) % 41);
}

template <class T>
T apply(PURE_Op op, T a, T b) {
  if (op == PURE_SUM) return static_cast<T>(a + b);
  if (op == PURE_PROD) return static_cast<T>(a * b);
  if (op == PURE_MAX) return std::max(a, b);
  if (op == PURE_MIN) return std::min(a, b);
  if (op == PURE_LAND) return static_cast<T>((a != T(0)) && (b != T(0)));
  if (op == PURE_LOR) return static_cast<T>((a != T(0)) || (b != T(0)));
  if (op == PURE_LXOR) return static_cast<T>((a != T(0)) != (b != T(0)));
  if constexpr (std::is_integral_v<T>) {
    if (op == PURE_BAND) return static_cast<T>(a & b);
    if (op == PURE_BOR) return static_cast<T>(a | b);
    if (op == PURE_BXOR) return static_cast<T>(a ^ b);
  }
  ADD_FAILURE() << "no reference for op";
  return a;
}

// Reduction of ranks [lo, hi] at index i.
template <class T>
T expected(PURE_Op op, int lo, int hi, int i) {
  T acc = value<T>(op, hi, i);
  for (int r = hi - 1; r >= lo; --r) acc = apply(op, value<T>(op, r, i), acc);
  return acc;
}

template <class T>
std::vector<T> inputs(PURE_Op op, int r, int count) {
  std::vector<T> v(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = value<T>(op, r, i);
  return v;
}

// Compares element by element; reports only the first difference.
template <class T>
void expect_all(const std::vector<T>& got, const std::function<T(int)>& want, const std::string& what,
                int from = 0, int n = -1) {
  if (n < 0) n = static_cast<int>(got.size());
  for (int i = from; i < from + n; ++i) {
    if (!(got[static_cast<std::size_t>(i)] == want(i))) {
      ADD_FAILURE() << what << ": element " << i << " is " << +got[static_cast<std::size_t>(i)]
                    << ", expected " << +want(i);
      return;
    }
  }
}

class Collectives : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Collectives, pure_testing::rank_sweep({2, 3, 4, 8, 16}),
                         coll_test::rank_count_name);

template <class T>
void check_reductions(int rank, int size, PURE_Op op, const char* tname) {
  for (int count : kCounts) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      const std::string what = std::string(tname) + " op " + std::to_string(op & 0xFF) +
                               " count " + std::to_string(count) + (in_place ? " in place" : "");
      std::vector<T> in = inputs<T>(op, rank, count);
      std::vector<T> out(static_cast<std::size_t>(count), T(99));
      if (in_place) {
        out = in;
        EXPECT_PURE_OK(pure_allreduce(PURE_IN_PLACE, out.data(), count, type_of<T>(), op,
                                      PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(
            pure_allreduce(in.data(), out.data(), count, type_of<T>(), op, PURE_COMM_WORLD));
      }
      expect_all<T>(out, [&](int i) { return expected<T>(op, 0, size - 1, i); }, "allreduce " + what);

      const int root = (count + in_place) % size;
      out.assign(static_cast<std::size_t>(count), T(99));
      if (in_place && rank == root) {
        out = in;
        EXPECT_PURE_OK(pure_reduce(PURE_IN_PLACE, out.data(), count, type_of<T>(), op, root,
                                   PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_reduce(in.data(), out.data(), count, type_of<T>(), op, root,
                                   PURE_COMM_WORLD));
      }
      if (rank == root)
        expect_all<T>(out, [&](int i) { return expected<T>(op, 0, size - 1, i); }, "reduce " + what);
    }
  }
}

TEST_P(Collectives, AllreduceAndReduceEveryOpAndType) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    const PURE_Op arith[] = {PURE_SUM, PURE_PROD, PURE_MAX, PURE_MIN};
    const PURE_Op logic[] = {PURE_LAND, PURE_LOR, PURE_LXOR};
    const PURE_Op bits[] = {PURE_BAND, PURE_BOR, PURE_BXOR};
    for (PURE_Op op : arith) {
      check_reductions<int>(rank, size, op, "int");
      check_reductions<double>(rank, size, op, "double");
      check_reductions<float>(rank, size, op, "float");
      check_reductions<short>(rank, size, op, "short");
      check_reductions<unsigned>(rank, size, op, "unsigned");
    }
    for (PURE_Op op : logic) {
      check_reductions<int>(rank, size, op, "int");
      check_reductions<Bool>(rank, size, op, "bool");
    }
    for (PURE_Op op : bits) {
      check_reductions<long long>(rank, size, op, "long long");
      check_reductions<std::uint8_t>(rank, size, op, "uint8");
    }
  }));
}

// PURE_CHAR reduces as an integer, as under Open MPI and MPICH (MPI lists
// it as text, but programs reduce chars): sums wrap as char does, and the
// bitwise and logical ops apply.
TEST_P(Collectives, CharReducesAsAnInteger) {
  const int n = GetParam();
  EXPECT_EQ(0, run_ranks(n, [](int rank, int size) {
    const char mine[4] = {static_cast<char>(rank + 1), static_cast<char>(1 << (rank % 7)),
                          static_cast<char>(1), static_cast<char>(rank)};
    char sum[4], bor[4], land[4], maxv[4];
    EXPECT_PURE_OK(pure_allreduce(mine, sum, 4, PURE_CHAR, PURE_SUM, PURE_COMM_WORLD));
    EXPECT_PURE_OK(pure_allreduce(mine, bor, 4, PURE_CHAR, PURE_BOR, PURE_COMM_WORLD));
    EXPECT_PURE_OK(pure_allreduce(mine, land, 4, PURE_CHAR, PURE_LAND, PURE_COMM_WORLD));
    EXPECT_PURE_OK(pure_reduce(mine, maxv, 4, PURE_CHAR, PURE_MAX, 0, PURE_COMM_WORLD));
    int total = 0, bits = 0;
    for (int r = 0; r < size; ++r) {
      total += r + 1;
      bits |= 1 << (r % 7);
    }
    EXPECT_EQ(sum[0], static_cast<char>(total));
    EXPECT_EQ(bor[1], static_cast<char>(bits));
    EXPECT_EQ(land[2], 1) << "every rank passes 1";
    EXPECT_EQ(land[3], 0) << "rank 0 passes 0";
    if (rank == 0) {
      EXPECT_EQ(maxv[3], static_cast<char>(size - 1));
    }
  }));
}

TEST_P(Collectives, BarrierSeparatesPhases) {
  const int n = GetParam();
  std::vector<std::atomic<int>> phase(static_cast<std::size_t>(n));
  for (auto& p : phase) p.store(0);
  EXPECT_EQ(0, run_ranks(n, [&](int rank, int size) {
    for (int k = 1; k <= 300; ++k) {
      phase[static_cast<std::size_t>(rank)].store(k, std::memory_order_relaxed);
      EXPECT_PURE_OK(pure_barrier(PURE_COMM_WORLD));
      for (int r = 0; r < size; ++r) {
        const int seen = phase[static_cast<std::size_t>(r)].load(std::memory_order_relaxed);
        if (seen < k || seen > k + 1) {
          ADD_FAILURE() << "rank " << rank << " after barrier " << k << " sees rank " << r
                        << " in phase " << seen;
          return;
        }
      }
      EXPECT_PURE_OK(pure_barrier(PURE_COMM_WORLD));
    }
  }));
}

TEST_P(Collectives, BcastSizesRootsAndTypes) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int count : kCounts) {
      for (int root : {0, size - 1, size / 2}) {
        std::vector<int> buf(static_cast<std::size_t>(count), -1);
        if (rank == root)
          for (int i = 0; i < count; ++i) buf[static_cast<std::size_t>(i)] = i * 3 + root;
        EXPECT_PURE_OK(pure_bcast(buf.data(), count, PURE_INT, root, PURE_COMM_WORLD));
        expect_all<int>(buf, [&](int i) { return i * 3 + root; },
                        "bcast count " + std::to_string(count));
      }
    }
    // A strided type on the root, a contiguous one elsewhere: only the type
    // signatures must match.
    PURE_Datatype column;
    EXPECT_PURE_OK(pure_type_vector(700, 1, 2, PURE_DOUBLE, &column));
    EXPECT_PURE_OK(pure_type_commit(&column));
    std::vector<double> buf(1400, -1.0);
    if (rank == 1 % size) {
      for (int i = 0; i < 1400; ++i) buf[static_cast<std::size_t>(i)] = i;
      EXPECT_PURE_OK(pure_bcast(buf.data(), 1, column, 1 % size, PURE_COMM_WORLD));
    } else {
      EXPECT_PURE_OK(pure_bcast(buf.data(), 700, PURE_DOUBLE, 1 % size, PURE_COMM_WORLD));
      expect_all<double>(buf, [](int i) { return 2.0 * i; }, "strided bcast", 0, 700);
    }
    EXPECT_PURE_OK(pure_type_free(&column));
  }));
}

// Non-contiguous data in reductions: every other int of an array.
void check_strided(int rank, int size) {
  for (int count : {3, 40, 1500}) {
    PURE_Datatype every_other;
    EXPECT_PURE_OK(pure_type_vector(count, 1, 2, PURE_INT, &every_other));
    EXPECT_PURE_OK(pure_type_commit(&every_other));
    std::vector<int> in(static_cast<std::size_t>(2 * count)), out(in.size(), -7);
    for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(2 * i)] = i + rank;
    EXPECT_PURE_OK(pure_allreduce(in.data(), out.data(), 1, every_other, PURE_SUM, PURE_COMM_WORLD));
    const int base = size * (size - 1) / 2;
    for (int i = 0; i < count; ++i) {
      ASSERT_EQ(out[static_cast<std::size_t>(2 * i)], i * size + base) << "count " << count;
      ASSERT_EQ(out[static_cast<std::size_t>(2 * i + 1)], -7) << "a hole was written";
    }
    EXPECT_PURE_OK(pure_type_free(&every_other));
  }
}

TEST_P(Collectives, ReductionsOnStridedTypes) {
  EXPECT_EQ(0, run_ranks(GetParam(), check_strided));
}

template <class V>
struct Pair {
  V v;
  int i;
};

template <class V>
void check_loc(int rank, int size, PURE_Datatype type, int count) {
  std::vector<Pair<V>> in(static_cast<std::size_t>(count)), mn(in.size()), mx(in.size());
  // Value (i * 5 + rank * 3) % size: ties between ranks are common, and the
  // lowest index must win them.
  auto val = [&](int r, int i) { return static_cast<V>((i * 5 + r * 3) % size); };
  for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = {val(rank, i), rank};
  EXPECT_PURE_OK(pure_allreduce(in.data(), mn.data(), count, type, PURE_MINLOC, PURE_COMM_WORLD));
  EXPECT_PURE_OK(pure_allreduce(in.data(), mx.data(), count, type, PURE_MAXLOC, PURE_COMM_WORLD));
  for (int i = 0; i < count; ++i) {
    int best_min = 0, best_max = 0;
    for (int r = 1; r < size; ++r) {
      if (val(r, i) < val(best_min, i)) best_min = r;
      if (val(r, i) > val(best_max, i)) best_max = r;
    }
    const auto& a = mn[static_cast<std::size_t>(i)];
    const auto& b = mx[static_cast<std::size_t>(i)];
    if (a.v != val(best_min, i) || a.i != best_min || b.v != val(best_max, i) || b.i != best_max) {
      ADD_FAILURE() << "loc count " << count << " element " << i << ": minloc (" << +a.v << ","
                    << a.i << ") maxloc (" << +b.v << "," << b.i << ")";
      return;
    }
  }
}

TEST_P(Collectives, MinlocMaxlocOnPairTypes) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int count : {1, 3, 200, 1000}) {
      check_loc<double>(rank, size, PURE_DOUBLE_INT, count);
      check_loc<float>(rank, size, PURE_FLOAT_INT, count);
      check_loc<int>(rank, size, PURE_2INT, count);
      check_loc<short>(rank, size, PURE_SHORT_INT, count);
      check_loc<long>(rank, size, PURE_LONG_INT, count);
    }
  }));
}

// PURE_REDUCE_PARTITION at its extremes: 0 sends every reduction through the
// partitioned reducer (0 and 1 items included, so most members get an empty
// slice), 1G sends every one through the leader. Both must give the results
// the default mix gives. (With the default, ranks that share cores, as on a
// small CI machine, partition only from 128 KiB, so this is also where the
// other tests' sizes meet the partitioned reducer at more than 2 ranks.)
class CollectivesThreshold : public testing::TestWithParam<std::tuple<int, std::size_t>> {};
INSTANTIATE_TEST_SUITE_P(
    Extremes, CollectivesThreshold,
    testing::Combine(testing::Values(3, 8), testing::Values(std::size_t{0}, std::size_t{1} << 30)),
    [](const testing::TestParamInfo<std::tuple<int, std::size_t>>& info) {
      return "ranks" + std::to_string(std::get<0>(info.param)) +
             (std::get<1>(info.param) == 0 ? "_always_partitioned" : "_always_combined");
    });

TEST_P(CollectivesThreshold, AllreduceAndReduce) {
  pure::Config config;
  config.ranks = std::get<0>(GetParam());
  config.reduce_partition = std::get<1>(GetParam());
  EXPECT_EQ(0, run_ranks(config, [](int rank, int size) {
    for (PURE_Op op : {PURE_SUM, PURE_PROD, PURE_MAX, PURE_MIN}) {
      check_reductions<double>(rank, size, op, "double");
      check_reductions<int>(rank, size, op, "int");
    }
    check_reductions<short>(rank, size, PURE_SUM, "short");
    check_reductions<std::uint8_t>(rank, size, PURE_BXOR, "uint8");
    check_reductions<Bool>(rank, size, PURE_LOR, "bool");
    check_strided(rank, size);
    for (int count : {1, 3, 200, 1000}) {
      check_loc<double>(rank, size, PURE_DOUBLE_INT, count);
      check_loc<short>(rank, size, PURE_SHORT_INT, count);
    }
  }));
}

void int_sum(void* in, void* inout, int* len, PURE_Datatype*) {
  for (int k = 0; k < *len; ++k) static_cast<int*>(inout)[k] += static_cast<int*>(in)[k];
}

TEST_P(Collectives, UserOps) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    PURE_Datatype affine;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_LONG_LONG, &affine));
    EXPECT_PURE_OK(pure_type_commit(&affine));
    PURE_Op comp, sum;
    EXPECT_PURE_OK(pure_op_create(&compose, 0, &comp));
    EXPECT_PURE_OK(pure_op_create(&int_sum, 1, &sum));
    int commute = -1;
    EXPECT_PURE_OK(pure_op_commutative(comp, &commute));
    EXPECT_EQ(commute, 0);
    for (int count : {1, 4, 300}) {
      std::vector<Affine> in(static_cast<std::size_t>(count)), out(in.size());
      for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = affine_of(rank, i);
      auto same = [](const Affine& x, const Affine& y) { return x.a == y.a && x.b == y.b; };
      EXPECT_PURE_OK(pure_allreduce(in.data(), out.data(), count, affine, comp, PURE_COMM_WORLD));
      for (int i = 0; i < count; ++i)
        ASSERT_TRUE(same(out[static_cast<std::size_t>(i)], fold_affine(0, size - 1, i))) << i;
      out.assign(in.size(), Affine{0, 0});
      EXPECT_PURE_OK(pure_reduce(in.data(), out.data(), count, affine, comp, size - 1, PURE_COMM_WORLD));
      if (rank == size - 1) {
        for (int i = 0; i < count; ++i)
          ASSERT_TRUE(same(out[static_cast<std::size_t>(i)], fold_affine(0, size - 1, i))) << i;
      }
      EXPECT_PURE_OK(pure_scan(in.data(), out.data(), count, affine, comp, PURE_COMM_WORLD));
      for (int i = 0; i < count; ++i)
        ASSERT_TRUE(same(out[static_cast<std::size_t>(i)], fold_affine(0, rank, i))) << i;
      EXPECT_PURE_OK(pure_exscan(in.data(), out.data(), count, affine, comp, PURE_COMM_WORLD));
      if (rank > 0) {
        for (int i = 0; i < count; ++i)
          ASSERT_TRUE(same(out[static_cast<std::size_t>(i)], fold_affine(0, rank - 1, i))) << i;
      }

      std::vector<int> ints(static_cast<std::size_t>(count), rank + 1), isum(ints.size());
      EXPECT_PURE_OK(pure_allreduce(ints.data(), isum.data(), count, PURE_INT, sum, PURE_COMM_WORLD));
      expect_all<int>(isum, [&](int) { return size * (size + 1) / 2; }, "user sum");
    }
    EXPECT_PURE_OK(pure_op_free(&comp));
    EXPECT_EQ(comp, PURE_OP_NULL);
    EXPECT_PURE_OK(pure_op_free(&sum));
    EXPECT_PURE_OK(pure_type_free(&affine));
  }));
}

TEST_P(Collectives, ComplexSumAndReduceLocal) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int count : {1, 2, 500}) {
      std::vector<std::complex<double>> in(static_cast<std::size_t>(count)), out(in.size());
      for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = {double(rank + i), double(2 * rank - i)};
      EXPECT_PURE_OK(pure_allreduce(in.data(), out.data(), count, PURE_C_DOUBLE_COMPLEX, PURE_SUM, PURE_COMM_WORLD));
      const double rs = size * (size - 1) / 2.0;
      for (int i = 0; i < count; ++i) {
        ASSERT_EQ(out[static_cast<std::size_t>(i)].real(), rs + double(size) * i) << i;
        ASSERT_EQ(out[static_cast<std::size_t>(i)].imag(), 2 * rs - double(size) * i) << i;
      }
    }
    // reduce_local: predefined op on a strided type, and a user op.
    PURE_Datatype every_other;
    EXPECT_PURE_OK(pure_type_vector(3, 1, 2, PURE_INT, &every_other));
    EXPECT_PURE_OK(pure_type_commit(&every_other));
    int a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60};
    EXPECT_PURE_OK(pure_reduce_local(a, b, 1, every_other, PURE_SUM));
    const int want[6] = {11, 20, 33, 40, 55, 60};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(b[i], want[i]) << i;
    EXPECT_PURE_OK(pure_type_free(&every_other));
    PURE_Op comp;
    EXPECT_PURE_OK(pure_op_create(&compose, 0, &comp));
    Affine f{2, 3}, g{5, 7};
    PURE_Datatype affine;
    EXPECT_PURE_OK(pure_type_contiguous(2, PURE_LONG_LONG, &affine));
    EXPECT_PURE_OK(pure_type_commit(&affine));
    EXPECT_PURE_OK(pure_reduce_local(&f, &g, 1, affine, comp));
    EXPECT_EQ(g.a, 10);
    EXPECT_EQ(g.b, 17);  // f(g(x)) = 2(5x + 7) + 3
    EXPECT_PURE_OK(pure_op_free(&comp));
    EXPECT_PURE_OK(pure_type_free(&affine));
    (void)rank;
  }));
}

TEST_P(Collectives, ScanAndExscan) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    (void)size;
    for (int count : kCounts) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        std::vector<long long> in = inputs<long long>(PURE_SUM, rank, count), out(in.size(), -1);
        if (in_place) {
          out = in;
          EXPECT_PURE_OK(pure_scan(PURE_IN_PLACE, out.data(), count, PURE_LONG_LONG, PURE_SUM, PURE_COMM_WORLD));
        } else {
          EXPECT_PURE_OK(pure_scan(in.data(), out.data(), count, PURE_LONG_LONG, PURE_SUM, PURE_COMM_WORLD));
        }
        expect_all<long long>(out, [&](int i) { return expected<long long>(PURE_SUM, 0, rank, i); }, "scan");
        if (in_place) {
          out = in;
          EXPECT_PURE_OK(pure_exscan(PURE_IN_PLACE, out.data(), count, PURE_LONG_LONG, PURE_MAX, PURE_COMM_WORLD));
        } else {
          EXPECT_PURE_OK(pure_exscan(in.data(), out.data(), count, PURE_LONG_LONG, PURE_MAX, PURE_COMM_WORLD));
        }
        if (rank > 0)
          expect_all<long long>(out, [&](int i) { return expected<long long>(PURE_MAX, 0, rank - 1, i); }, "exscan");
      }
    }
  }));
}

TEST_P(Collectives, ReduceScatter) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int block : {0, 1, 7, 700}) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        const int total = block * size;
        std::vector<int> in = inputs<int>(PURE_SUM, rank, total), out(static_cast<std::size_t>(total), -1);
        if (in_place) {
          out = in;
          EXPECT_PURE_OK(pure_reduce_scatter_block(PURE_IN_PLACE, out.data(), block, PURE_INT, PURE_SUM, PURE_COMM_WORLD));
        } else {
          EXPECT_PURE_OK(pure_reduce_scatter_block(in.data(), out.data(), block, PURE_INT, PURE_SUM, PURE_COMM_WORLD));
        }
        expect_all<int>(out, [&](int i) { return expected<int>(PURE_SUM, 0, size - 1, rank * block + i); },
                        "reduce_scatter_block", 0, block);
      }
    }
    // Uneven counts, some zero.
    std::vector<int> counts(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) counts[static_cast<std::size_t>(r)] = (r % 3) * 301;
    const int total = std::accumulate(counts.begin(), counts.end(), 0);
    int first = 0;
    for (int r = 0; r < rank; ++r) first += counts[static_cast<std::size_t>(r)];
    for (int in_place = 0; in_place < 2; ++in_place) {
      std::vector<double> in = inputs<double>(PURE_MIN, rank, total), out(static_cast<std::size_t>(std::max(total, 1)), -1);
      if (in_place) {
        std::copy(in.begin(), in.end(), out.begin());
        EXPECT_PURE_OK(pure_reduce_scatter(PURE_IN_PLACE, out.data(), counts.data(), PURE_DOUBLE, PURE_MIN, PURE_COMM_WORLD));
      } else {
        EXPECT_PURE_OK(pure_reduce_scatter(in.data(), out.data(), counts.data(), PURE_DOUBLE, PURE_MIN, PURE_COMM_WORLD));
      }
      expect_all<double>(out, [&](int i) { return expected<double>(PURE_MIN, 0, size - 1, first + i); },
                         "reduce_scatter", 0, counts[static_cast<std::size_t>(rank)]);
    }
  }));
}

int item(int from, int to, int i) { return from * 100000 + to * 1000 + i; }

TEST_P(Collectives, GatherAndScatter) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int count : {0, 1, 9, 800}) {
      for (int root : {0, size - 1}) {
        for (int in_place = 0; in_place < 2; ++in_place) {
          const bool ip = in_place && rank == root;
          std::vector<int> mine(static_cast<std::size_t>(count));
          for (int i = 0; i < count; ++i) mine[static_cast<std::size_t>(i)] = item(rank, root, i);
          std::vector<int> all(static_cast<std::size_t>(count * size), -1);
          if (ip) std::copy(mine.begin(), mine.end(), all.begin() + rank * count);
          EXPECT_PURE_OK(pure_gather(ip ? PURE_IN_PLACE : mine.data(), count, PURE_INT, all.data(),
                                     count, PURE_INT, root, PURE_COMM_WORLD));
          if (rank == root)
            expect_all<int>(all, [&](int k) { return item(k / std::max(count, 1), root, k % std::max(count, 1)); }, "gather");
          // scatter it back
          std::vector<int> back(static_cast<std::size_t>(count), -1);
          if (ip) {
            EXPECT_PURE_OK(pure_scatter(all.data(), count, PURE_INT, PURE_IN_PLACE, count, PURE_INT, root, PURE_COMM_WORLD));
            back.assign(all.begin() + rank * count, all.begin() + (rank + 1) * count);
          } else {
            EXPECT_PURE_OK(pure_scatter(all.data(), count, PURE_INT, back.data(), count, PURE_INT, root, PURE_COMM_WORLD));
          }
          expect_all<int>(back, [&](int i) { return item(rank, root, i); }, "scatter");
        }
      }
    }
    // v variants: rank r sends r*37 % 101 ints, placed in reverse order with gaps.
    auto cnt = [](int r) { return (r * 37) % 101; };
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
    int at = 0;
    for (int r = size - 1; r >= 0; --r) {
      displs[static_cast<std::size_t>(r)] = at;
      counts[static_cast<std::size_t>(r)] = cnt(r);
      at += cnt(r) + 3;
    }
    for (int root : {0, size / 2}) {
      std::vector<int> mine(static_cast<std::size_t>(cnt(rank)));
      for (int i = 0; i < cnt(rank); ++i) mine[static_cast<std::size_t>(i)] = item(rank, root, i);
      std::vector<int> all(static_cast<std::size_t>(at), -1);
      EXPECT_PURE_OK(pure_gatherv(mine.data(), cnt(rank), PURE_INT, all.data(), counts.data(),
                                  displs.data(), PURE_INT, root, PURE_COMM_WORLD));
      if (rank == root) {
        for (int r = 0; r < size; ++r)
          expect_all<int>(all, [&](int k) { return item(r, root, k - displs[static_cast<std::size_t>(r)]); },
                          "gatherv", displs[static_cast<std::size_t>(r)], cnt(r));
      }
      std::vector<int> back(static_cast<std::size_t>(cnt(rank)), -1);
      EXPECT_PURE_OK(pure_scatterv(all.data(), counts.data(), displs.data(), PURE_INT, back.data(),
                                   cnt(rank), PURE_INT, root, PURE_COMM_WORLD));
      expect_all<int>(back, [&](int i) { return item(rank, root, i); }, "scatterv");
    }
  }));
}

TEST_P(Collectives, AllgatherAndAlltoall) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int count : {0, 1, 6, 700}) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        std::vector<int> mine(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i) mine[static_cast<std::size_t>(i)] = item(rank, 0, i);
        std::vector<int> all(static_cast<std::size_t>(count * size), -1);
        if (in_place) {
          std::copy(mine.begin(), mine.end(), all.begin() + rank * count);
          EXPECT_PURE_OK(pure_allgather(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, all.data(), count, PURE_INT, PURE_COMM_WORLD));
        } else {
          EXPECT_PURE_OK(pure_allgather(mine.data(), count, PURE_INT, all.data(), count, PURE_INT, PURE_COMM_WORLD));
        }
        expect_all<int>(all, [&](int k) { return item(k / std::max(count, 1), 0, k % std::max(count, 1)); }, "allgather");

        // alltoall: block j of rank r's send buffer goes to rank j.
        std::vector<int> send(static_cast<std::size_t>(count * size)), recv(send.size(), -1);
        for (int j = 0; j < size; ++j)
          for (int i = 0; i < count; ++i) send[static_cast<std::size_t>(j * count + i)] = item(rank, j, i);
        if (in_place) {
          recv = send;
          EXPECT_PURE_OK(pure_alltoall(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, recv.data(), count, PURE_INT, PURE_COMM_WORLD));
        } else {
          EXPECT_PURE_OK(pure_alltoall(send.data(), count, PURE_INT, recv.data(), count, PURE_INT, PURE_COMM_WORLD));
        }
        expect_all<int>(recv, [&](int k) { return item(k / std::max(count, 1), rank, k % std::max(count, 1)); }, "alltoall");
      }
    }
    // v variants with uneven counts: rank r sends (r + 2j) % 5 * 50 ints to j.
    auto cnt = [](int from, int to) { return (from + 2 * to) % 5 * 50; };
    std::vector<int> scounts(static_cast<std::size_t>(size)), sdispls(scounts.size()),
        rcounts(scounts.size()), rdispls(scounts.size());
    int sat = 0, rat = 0;
    for (int j = 0; j < size; ++j) {
      scounts[static_cast<std::size_t>(j)] = cnt(rank, j);
      sdispls[static_cast<std::size_t>(j)] = sat;
      sat += cnt(rank, j) + 1;
      rcounts[static_cast<std::size_t>(j)] = cnt(j, rank);
      rdispls[static_cast<std::size_t>(size - 1 - j)] = 0;
    }
    for (int j = size - 1; j >= 0; --j) {  // receive blocks in reverse order
      rdispls[static_cast<std::size_t>(j)] = rat;
      rat += cnt(j, rank) + 2;
    }
    std::vector<int> send(static_cast<std::size_t>(sat)), recv(static_cast<std::size_t>(rat), -1);
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < cnt(rank, j); ++i)
        send[static_cast<std::size_t>(sdispls[static_cast<std::size_t>(j)] + i)] = item(rank, j, i);
    EXPECT_PURE_OK(pure_alltoallv(send.data(), scounts.data(), sdispls.data(), PURE_INT, recv.data(),
                                  rcounts.data(), rdispls.data(), PURE_INT, PURE_COMM_WORLD));
    for (int j = 0; j < size; ++j)
      expect_all<int>(recv, [&](int k) { return item(j, rank, k - rdispls[static_cast<std::size_t>(j)]); },
                      "alltoallv", rdispls[static_cast<std::size_t>(j)], cnt(j, rank));
    // allgatherv: rank r contributes cnt(r, 0) ints; in place.
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    int at = 0;
    for (int r = 0; r < size; ++r) {
      counts[static_cast<std::size_t>(r)] = cnt(r, 0);
      displs[static_cast<std::size_t>(r)] = at;
      at += cnt(r, 0) + 1;
    }
    std::vector<int> all(static_cast<std::size_t>(at), -1);
    for (int i = 0; i < cnt(rank, 0); ++i) all[static_cast<std::size_t>(displs[static_cast<std::size_t>(rank)] + i)] = item(rank, 0, i);
    EXPECT_PURE_OK(pure_allgatherv(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, all.data(), counts.data(),
                                   displs.data(), PURE_INT, PURE_COMM_WORLD));
    for (int r = 0; r < size; ++r)
      expect_all<int>(all, [&](int k) { return item(r, 0, k - displs[static_cast<std::size_t>(r)]); },
                      "allgatherv", displs[static_cast<std::size_t>(r)], cnt(r, 0));
  }));
}

// Hundreds of mixed collectives back to back, with changing roots: any
// confusion between rounds of the same parity shows up as a wrong value.
TEST_P(Collectives, BackToBackMixed) {
  EXPECT_EQ(0, run_ranks(GetParam(), [](int rank, int size) {
    for (int k = 0; k < 400; ++k) {
      const int root = (k * 7) % size;
      long long x = rank + k, sum = -1;
      EXPECT_PURE_OK(pure_allreduce(&x, &sum, 1, PURE_LONG_LONG, PURE_SUM, PURE_COMM_WORLD));
      ASSERT_EQ(sum, static_cast<long long>(size) * (size - 1) / 2 + static_cast<long long>(size) * k) << k;
      int b[20];
      for (int i = 0; i < 20; ++i) b[i] = rank == root ? k * 20 + i : -1;
      const int bn = 1 + k % 20;  // inline and not
      EXPECT_PURE_OK(pure_bcast(b, bn, PURE_INT, root, PURE_COMM_WORLD));
      for (int i = 0; i < bn; ++i) ASSERT_EQ(b[i], k * 20 + i) << k;
      std::vector<int> big(k % 3 == 0 ? 1000 : 30, rank), bigsum(big.size());
      EXPECT_PURE_OK(pure_reduce(big.data(), bigsum.data(), static_cast<int>(big.size()), PURE_INT,
                                 PURE_MAX, root, PURE_COMM_WORLD));
      if (rank == root) {
        ASSERT_EQ(bigsum.back(), size - 1) << k;
      }
      if (k % 5 == 0) {
        EXPECT_PURE_OK(pure_barrier(PURE_COMM_WORLD));
      }
      int g[16];
      EXPECT_PURE_OK(pure_allgather(&x, 1, PURE_INT, g, 1, PURE_INT, PURE_COMM_WORLD));
      (void)g;
    }
  }));
}

// Two ranks, two paths to one exchange: for blocks of n doubles (each n of
// `ns`), 200 calls each, body(n, k, block, derived) runs one call, where
// `block` is the n doubles as one derived type and `derived` says whether
// this rank passes it (the general path) instead of n PURE_DOUBLE (the
// API's shortcut, coll::pair_*). The ranks swap roles every call.
template <class Body>
void pair_paths(int rank, std::initializer_list<int> ns, Body&& body) {
  for (int n : ns) {
    PURE_Datatype block;
    EXPECT_PURE_OK(pure_type_contiguous(n, PURE_DOUBLE, &block));
    EXPECT_PURE_OK(pure_type_commit(&block));
    for (int k = 0; k < 200 && !testing::Test::HasFatalFailure(); ++k)
      body(n, k, block, (rank + k) % 2 == 1);
    EXPECT_PURE_OK(pure_type_free(&block));
  }
}

// Allreduce: the two meet in one exchange, in either role and in place or
// not, on the shared line (8 and 16 B), on arrival lines (24 B), and
// through the stages (56 B to 2 KiB), and past the stages (2056 B, where
// both take the general path); both get the sum of rank 0's and rank 1's
// values.
TEST(CollectivesPair, ShortcutAndGeneralPathMeet) {
  EXPECT_EQ(0, run_ranks(2, [](int rank, int) {
    pair_paths(rank, {1, 2, 3, 7, 16, 64, 256, 257},
               [rank](int n, int k, PURE_Datatype block, bool derived) {
      const bool in_place = (k / 2) % 2 == 1;
      std::vector<double> in(static_cast<std::size_t>(n)), out(in.size());
      for (int i = 0; i < n; ++i) {
        in[i] = (rank + 1) * 100.0 + i + k;
        out[i] = in_place ? in[i] : -1;
      }
      const void* send = in_place ? PURE_IN_PLACE : static_cast<const void*>(in.data());
      if (derived)
        EXPECT_PURE_OK(pure_allreduce(send, out.data(), 1, block, PURE_SUM, PURE_COMM_WORLD));
      else
        EXPECT_PURE_OK(
            pure_allreduce(send, out.data(), n, PURE_DOUBLE, PURE_SUM, PURE_COMM_WORLD));
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[i], 300.0 + 2 * (i + k)) << "n " << n << " k " << k << " i " << i;
    });
  }));
}

// Alltoall: the two meet on the alltoall ring, in either role, for blocks
// of 8 to 48 bytes (inline) and 56 (by pointer, where both take the
// general path), and every block arrives.
TEST(CollectivesPair, AlltoallShortcutAndGeneralPathMeet) {
  EXPECT_EQ(0, run_ranks(2, [](int rank, int) {
    pair_paths(rank, {1, 2, 3, 4, 5, 6, 7}, [rank](int n, int k, PURE_Datatype block, bool derived) {
      double in[14], out[14];
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < n; ++i) {
          in[j * n + i] = rank * 1000.0 + j * 100.0 + i + k;
          out[j * n + i] = -1;
        }
      if (derived)
        EXPECT_PURE_OK(pure_alltoall(in, 1, block, out, 1, block, PURE_COMM_WORLD));
      else
        EXPECT_PURE_OK(pure_alltoall(in, n, PURE_DOUBLE, out, n, PURE_DOUBLE, PURE_COMM_WORLD));
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(out[j * n + i], j * 1000.0 + rank * 100.0 + i + k)
              << "n " << n << " k " << k << " from " << j << " i " << i;
    });
  }));
}

}  // namespace
