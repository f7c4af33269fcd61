// Messages with the newer datatypes between rank threads: subarray and
// darray layouts on both sides, partial receives counted in basic elements,
// PURE_BOTTOM with absolute addresses in point-to-point calls, collectives
// and pack, reductions on the C++ complex and Fortran types, and the
// large-count (_c) calls. Every test runs at several rank counts, with more
// ranks than cores.
#include <algorithm>
#include <climits>
#include <complex>
#include <cstddef>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class DatatypeMessages : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(, DatatypeMessages, kRankCounts, rank_count_name);

// Every rank owns a cyclic(2) share of the rows of a global rows x cols
// array of ints (C order) on a grid of size x 1 processes. Rank 0 sends each
// rank its share straight out of the global array through that rank's
// darray type, and receives it back into a second array through the same
// type. Eager and rendezvous sizes.
TEST_P(DatatypeMessages, DarrayScatterAndGatherBack) {
  expect_clean_run(n(), [](int rank, int size) {
    for (int cols : {3, 301}) {
      const int rows = 2 * size + 3;
      const int gsizes[] = {rows, cols};
      const int distribs[] = {PURE_DISTRIBUTE_CYCLIC, PURE_DISTRIBUTE_NONE};
      const int dargs[] = {2, PURE_DISTRIBUTE_DFLT_DARG};
      const int psizes[] = {size, 1};
      auto type_of = [&](int r) {
        PURE_Datatype t;
        EXPECT_PURE_OK(pure_type_create_darray(size, r, 2, gsizes, distribs, dargs, psizes,
                                               PURE_ORDER_C, PURE_INT, &t));
        EXPECT_PURE_OK(pure_type_commit(&t));
        return t;
      };
      // The rows of rank r: blocks of 2 dealt round-robin.
      auto mine = [&](int r) {
        std::vector<int> out;
        for (int i = 0; i < rows; ++i)
          if ((i / 2) % size == r)
            for (int j = 0; j < cols; ++j) out.push_back(i * cols + j);
        return out;
      };
      const std::vector<int> expect = mine(rank);
      std::vector<int> own(expect.size(), -1);
      if (rank == 0) {
        std::vector<int> global(static_cast<std::size_t>(rows * cols));
        std::iota(global.begin(), global.end(), 0);
        std::vector<int> back(global.size(), -1);
        std::vector<PURE_Request> reqs;
        std::vector<PURE_Datatype> types;
        for (int r = 0; r < size; ++r) {
          types.push_back(type_of(r));
          PURE_Request q;
          EXPECT_PURE_OK(pure_isend(global.data(), 1, types.back(), r, 1, W, &q));
          reqs.push_back(q);
          EXPECT_PURE_OK(pure_irecv(back.data(), 1, types.back(), r, 2, W, &q));
          reqs.push_back(q);
        }
        EXPECT_PURE_OK(pure_recv(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 1, W,
                                 PURE_STATUS_IGNORE));
        EXPECT_EQ(own, expect);
        EXPECT_PURE_OK(pure_send(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 2, W));
        EXPECT_PURE_OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(),
                                    PURE_STATUSES_IGNORE));
        EXPECT_EQ(back, global);  // every element came back, once, to its place
        for (PURE_Datatype& t : types) EXPECT_PURE_OK(pure_type_free(&t));
      } else {
        EXPECT_PURE_OK(pure_recv(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 1, W,
                                 PURE_STATUS_IGNORE));
        EXPECT_EQ(own, expect);
        EXPECT_PURE_OK(pure_send(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 2, W));
      }
    }
  });
}

// A halo exchange of one column of a local 2-D block, described by a
// subarray on the sender and another on the receiver.
TEST_P(DatatypeMessages, SubarrayColumnsBetweenNeighbours) {
  expect_clean_run(n(), [](int rank, int size) {
    constexpr int kRows = 6, kCols = 5;  // with a ghost column on each side: 7 columns
    std::vector<double> block(kRows * (kCols + 2), -1.0);
    for (int i = 0; i < kRows; ++i)
      for (int j = 1; j <= kCols; ++j)
        block[static_cast<std::size_t>(i * (kCols + 2) + j)] = rank * 1000 + i * 10 + j;
    const int sizes[] = {kRows, kCols + 2}, sub[] = {kRows, 1};
    auto column = [&](int j) {
      const int starts[] = {0, j};
      PURE_Datatype t;
      EXPECT_PURE_OK(pure_type_create_subarray(2, sizes, sub, starts, PURE_ORDER_C, PURE_DOUBLE,
                                               &t));
      EXPECT_PURE_OK(pure_type_commit(&t));
      return t;
    };
    PURE_Datatype last = column(kCols), ghost_left = column(0);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    PURE_Status st;
    EXPECT_PURE_OK(pure_sendrecv(block.data(), 1, last, right, 7, block.data(), 1, ghost_left,
                                 left, 7, W, &st));
    for (int i = 0; i < kRows; ++i)
      EXPECT_EQ(block[static_cast<std::size_t>(i * (kCols + 2))], left * 1000 + i * 10 + kCols);
    int elements = -1;
    EXPECT_PURE_OK(pure_get_elements(&st, ghost_left, &elements));
    EXPECT_EQ(elements, kRows);
    EXPECT_PURE_OK(pure_type_free(&last));
    EXPECT_PURE_OK(pure_type_free(&ghost_left));
  });
}

// MPI_Get_elements after a receive of less than the receive type: the
// basic elements that arrived, PURE_UNDEFINED for the count.
TEST_P(DatatypeMessages, PartialReceivesCountBasicElements) {
  expect_clean_run(n(), [](int rank, int size) {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    auto int_and_chars = [](int chars) {
      const int lengths[] = {1, chars};
      const PURE_Aint displs[] = {0, sizeof(int)};
      const PURE_Datatype types[] = {PURE_INT, PURE_CHAR};
      PURE_Datatype t;
      EXPECT_PURE_OK(pure_type_create_struct(2, lengths, displs, types, &t));
      EXPECT_PURE_OK(pure_type_commit(&t));
      return t;
    };
    PURE_Datatype recv_type = int_and_chars(256);
    std::vector<char> out(1024), in(1024);
    for (int chars : {0, 5, 16, 17, 255}) {
      PURE_Datatype send_type = int_and_chars(chars);
      PURE_Request q;
      EXPECT_PURE_OK(pure_isend(out.data(), 1, send_type, to, chars, W, &q));
      PURE_Status st;
      EXPECT_PURE_OK(pure_recv(in.data(), 1, recv_type, from, chars, W, &st));
      EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
      int elements = -1, count = -1;
      EXPECT_PURE_OK(pure_get_elements(&st, recv_type, &elements));
      EXPECT_EQ(elements, chars + 1);
      EXPECT_PURE_OK(pure_get_count(&st, recv_type, &count));
      EXPECT_EQ(count, PURE_UNDEFINED);
      EXPECT_PURE_OK(pure_type_free(&send_type));
    }
    // Six bytes received as ints end inside the second int.
    PURE_Status st;
    EXPECT_PURE_OK(pure_sendrecv(out.data(), 6, PURE_BYTE, to, 99, in.data(), 4, PURE_INT, from,
                                 99, W, &st));
    int elements = 0;
    EXPECT_PURE_OK(pure_get_elements(&st, PURE_INT, &elements));
    EXPECT_EQ(elements, PURE_UNDEFINED);
    // A double, an int and a double received as two DOUBLE_INT pairs: 3.
    struct Three { double a; int b; double c; } three{1.5, 7, -2.5};
    const int ones[] = {1, 1, 1};
    const PURE_Aint at[] = {offsetof(Three, a), offsetof(Three, b), offsetof(Three, c)};
    const PURE_Datatype dtypes[] = {PURE_DOUBLE, PURE_INT, PURE_DOUBLE};
    PURE_Datatype did;
    EXPECT_PURE_OK(pure_type_create_struct(3, ones, at, dtypes, &did));
    EXPECT_PURE_OK(pure_type_commit(&did));
    struct { double v; int i; } pairs[2] = {};
    EXPECT_PURE_OK(pure_sendrecv(&three, 1, did, to, 98, pairs, 2, PURE_DOUBLE_INT, from, 98, W,
                                 &st));
    EXPECT_PURE_OK(pure_get_elements(&st, PURE_DOUBLE_INT, &elements));
    EXPECT_EQ(elements, 3);
    EXPECT_EQ(pairs[0].v, 1.5);
    EXPECT_EQ(pairs[0].i, 7);
    EXPECT_EQ(pairs[1].v, -2.5);
    EXPECT_PURE_OK(pure_type_free(&did));
    EXPECT_PURE_OK(pure_type_free(&recv_type));
  });
}

// Three unrelated variables described by one struct type of absolute
// addresses, sent and received with PURE_BOTTOM.
struct Scattered {
  int id = 0;
  double values[600] = {};  // 4.8 KB: above the eager limit below
  char tag[3] = {};
};

PURE_Datatype absolute_type(Scattered& s, int values) {
  PURE_Aint addr[3];
  EXPECT_PURE_OK(pure_get_address(&s.id, &addr[0]));
  EXPECT_PURE_OK(pure_get_address(s.values, &addr[1]));
  EXPECT_PURE_OK(pure_get_address(s.tag, &addr[2]));
  const int lengths[] = {1, values, 3};
  const PURE_Datatype types[] = {PURE_INT, PURE_DOUBLE, PURE_CHAR};
  PURE_Datatype t;
  EXPECT_PURE_OK(pure_type_create_struct(3, lengths, addr, types, &t));
  EXPECT_PURE_OK(pure_type_commit(&t));
  return t;
}

void fill(Scattered& s, int who, int values) {
  s.id = who;
  for (int i = 0; i < values; ++i) s.values[i] = who + i * 0.25;
  s.tag[0] = 'p';
  s.tag[1] = static_cast<char>('0' + who % 10);
  s.tag[2] = '!';
}

void expect_filled(const Scattered& s, int who, int values) {
  EXPECT_EQ(s.id, who);
  for (int i = 0; i < values; ++i) ASSERT_EQ(s.values[i], who + i * 0.25) << i;
  EXPECT_EQ(s.tag[1], static_cast<char>('0' + who % 10));
  EXPECT_EQ(s.tag[2], '!');
}

TEST_P(DatatypeMessages, BottomWithAbsoluteAddresses) {
  pure::Config config;
  config.eager_limit = 1024;  // 600 doubles go by rendezvous, 10 eagerly
  expect_clean_run(
      n(),
      [](int rank, int size) {
        const int to = (rank + 1) % size, from = (rank + size - 1) % size;
        for (int values : {10, 600}) {
          Scattered out, in;
          fill(out, rank, values);
          PURE_Datatype st = absolute_type(out, values), rt = absolute_type(in, values);
          PURE_Request q;
          EXPECT_PURE_OK(pure_isend(PURE_BOTTOM, 1, st, to, 1, W, &q));
          EXPECT_PURE_OK(pure_recv(PURE_BOTTOM, 1, rt, from, 1, W, PURE_STATUS_IGNORE));
          EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
          expect_filled(in, from, values);
          in = Scattered{};
          EXPECT_PURE_OK(pure_irecv(PURE_BOTTOM, 1, rt, from, 2, W, &q));
          EXPECT_PURE_OK(pure_ssend(PURE_BOTTOM, 1, st, to, 2, W));
          EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
          expect_filled(in, from, values);
          in = Scattered{};
          EXPECT_PURE_OK(pure_sendrecv(PURE_BOTTOM, 1, st, to, 3, PURE_BOTTOM, 1, rt, from, 3, W,
                                       PURE_STATUS_IGNORE));
          expect_filled(in, from, values);
          // Replace: the outgoing data leaves the same variables first.
          Scattered both;
          fill(both, rank, values);
          PURE_Datatype bt = absolute_type(both, values);
          EXPECT_PURE_OK(pure_sendrecv_replace(PURE_BOTTOM, 1, bt, to, 4, from, 4, W,
                                               PURE_STATUS_IGNORE));
          expect_filled(both, from, values);
          // Bcast from the last rank, then pack and unpack.
          Scattered b;
          if (rank == size - 1) fill(b, 77, values);
          PURE_Datatype btype = absolute_type(b, values);
          EXPECT_PURE_OK(pure_bcast(PURE_BOTTOM, 1, btype, size - 1, W));
          expect_filled(b, 77, values);
          std::vector<char> packed(8 * 1024);
          int pos = 0;
          EXPECT_PURE_OK(pure_pack(PURE_BOTTOM, 1, st, packed.data(), 8 * 1024, &pos, W));
          Scattered u;
          PURE_Datatype ut = absolute_type(u, values);
          int upos = 0;
          EXPECT_PURE_OK(pure_unpack(packed.data(), pos, &upos, PURE_BOTTOM, 1, ut, W));
          EXPECT_EQ(upos, pos);
          expect_filled(u, rank, values);
          for (PURE_Datatype* t : {&st, &rt, &bt, &btype, &ut}) EXPECT_PURE_OK(pure_type_free(t));
        }
      },
      config);
}

// Two ints at absolute addresses as one element of a struct type.
PURE_Datatype ints_at(int* x, int* y) {
  PURE_Aint addr[2];
  EXPECT_PURE_OK(pure_get_address(x, &addr[0]));
  EXPECT_PURE_OK(pure_get_address(y, &addr[1]));
  const int ones[] = {1, 1};
  const PURE_Datatype ints[] = {PURE_INT, PURE_INT};
  PURE_Datatype t;
  EXPECT_PURE_OK(pure_type_create_struct(2, ones, addr, ints, &t));
  EXPECT_PURE_OK(pure_type_commit(&t));
  return t;
}

TEST_P(DatatypeMessages, BottomInCollectives) {
  expect_clean_run(n(), [](int rank, int size) {
    int a = rank, b = 10 * rank;
    PURE_Datatype ab = ints_at(&a, &b);
    // Reduced in place at the two addresses.
    EXPECT_PURE_OK(pure_allreduce(PURE_IN_PLACE, PURE_BOTTOM, 1, ab, PURE_SUM, W));
    const int sum = size * (size - 1) / 2;
    EXPECT_EQ(a, sum);
    EXPECT_EQ(b, 10 * sum);
    // Gathered from them, and scattered to two others.
    a = rank;
    b = -rank;
    std::vector<int> all(static_cast<std::size_t>(2 * size), -1);
    EXPECT_PURE_OK(pure_gather(PURE_BOTTOM, 1, ab, all.data(), 2, PURE_INT, 0, W));
    if (rank == 0)
      for (int r = 0; r < size; ++r) {
        EXPECT_EQ(all[static_cast<std::size_t>(2 * r)], r);
        EXPECT_EQ(all[static_cast<std::size_t>(2 * r + 1)], -r);
      }
    int x = -1, y = -1;
    PURE_Datatype xy = ints_at(&x, &y);
    EXPECT_PURE_OK(pure_scatter(all.data(), 2, PURE_INT, PURE_BOTTOM, 1, xy, 0, W));
    EXPECT_EQ(x, rank);
    EXPECT_EQ(y, -rank);
    // Every rank's pair to every rank, into an array.
    std::vector<int> every(static_cast<std::size_t>(2 * size), -1);
    EXPECT_PURE_OK(pure_allgather(PURE_BOTTOM, 1, xy, every.data(), 2, PURE_INT, W));
    for (int r = 0; r < size; ++r) EXPECT_EQ(every[static_cast<std::size_t>(2 * r + 1)], -r);
    EXPECT_PURE_OK(pure_type_free(&ab));
    EXPECT_PURE_OK(pure_type_free(&xy));
  });
}

// SUM and PROD on the C++ complex types, logical ops on C++ bool and
// Fortran LOGICAL, MINLOC on Fortran's 2REAL.
TEST_P(DatatypeMessages, ReductionsOnTheCppAndFortranTypes) {
  expect_clean_run(n(), [](int rank, int size) {
    std::complex<long double> want_sum = 0, want_prod = 1;
    for (int r = 0; r < size; ++r) {
      want_sum += std::complex<long double>(r + 1, 0.5L);
      want_prod *= std::complex<long double>(1.0L + 0.01L * r, 0.02L);
    }
    auto close = [](std::complex<long double> got, std::complex<long double> want, double tol) {
      return std::abs(got - want) <= tol * std::abs(want);
    };
    {
      std::complex<float> in[2] = {{rank + 1.0f, 0.5f}, {1.0f + 0.01f * rank, 0.02f}}, out[2];
      EXPECT_PURE_OK(pure_allreduce(&in[0], &out[0], 1, PURE_CXX_FLOAT_COMPLEX, PURE_SUM, W));
      EXPECT_PURE_OK(pure_allreduce(&in[1], &out[1], 1, PURE_CXX_FLOAT_COMPLEX, PURE_PROD, W));
      EXPECT_TRUE(close(out[0], want_sum, 1e-6));
      EXPECT_TRUE(close(out[1], want_prod, 1e-5));
    }
    {
      std::complex<double> in[2] = {{rank + 1.0, 0.5}, {1.0 + 0.01 * rank, 0.02}}, out[2];
      EXPECT_PURE_OK(pure_allreduce(&in[0], &out[0], 1, PURE_CXX_DOUBLE_COMPLEX, PURE_SUM, W));
      EXPECT_PURE_OK(pure_allreduce(&in[1], &out[1], 1, PURE_CXX_DOUBLE_COMPLEX, PURE_PROD, W));
      EXPECT_TRUE(close(out[0], want_sum, 1e-12));
      EXPECT_TRUE(close(out[1], want_prod, 1e-12));
    }
    {
      std::complex<long double> in[2] = {{rank + 1.0L, 0.5L}, {1.0L + 0.01L * rank, 0.02L}},
                                out[2];
      EXPECT_PURE_OK(
          pure_allreduce(&in[0], &out[0], 1, PURE_CXX_LONG_DOUBLE_COMPLEX, PURE_SUM, W));
      EXPECT_PURE_OK(
          pure_allreduce(&in[1], &out[1], 1, PURE_CXX_LONG_DOUBLE_COMPLEX, PURE_PROD, W));
      EXPECT_TRUE(close(out[0], want_sum, 1e-15));
      EXPECT_TRUE(close(out[1], want_prod, 1e-15));
      // MAX is not defined on complex numbers.
      EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
      EXPECT_EQ(pure_allreduce(&in[0], &out[0], 1, PURE_CXX_DOUBLE_COMPLEX, PURE_MAX, W),
                PURE_ERR_OP);
      EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_ARE_FATAL));
    }
    {
      bool mine[2] = {true, rank == size - 1}, all[2];
      EXPECT_PURE_OK(pure_allreduce(&mine[0], &all[0], 1, PURE_CXX_BOOL, PURE_LAND, W));
      EXPECT_PURE_OK(pure_allreduce(&mine[1], &all[1], 1, PURE_CXX_BOOL, PURE_LOR, W));
      EXPECT_TRUE(all[0]);
      EXPECT_TRUE(all[1]);
      int logical[2] = {1, rank % 2}, land[2];
      EXPECT_PURE_OK(pure_allreduce(logical, land, 2, PURE_LOGICAL, PURE_LAND, W));
      EXPECT_EQ(land[0], 1);
      EXPECT_EQ(land[1], 0);
    }
    {
      // 2REAL: (value, index) floats; ties keep the smaller index.
      float pair[2] = {static_cast<float>((rank * 5) % 3), static_cast<float>(rank)}, min[2];
      EXPECT_PURE_OK(pure_allreduce(pair, min, 1, PURE_2REAL, PURE_MINLOC, W));
      EXPECT_EQ(min[0], 0.0f);
      EXPECT_EQ(min[1], 0.0f);
      double dpair[2] = {static_cast<double>(rank), static_cast<double>(rank)}, max[2];
      EXPECT_PURE_OK(pure_allreduce(dpair, max, 1, PURE_2DOUBLE_PRECISION, PURE_MAXLOC, W));
      EXPECT_EQ(max[0], size - 1.0);
      EXPECT_EQ(max[1], size - 1.0);
      int integer = rank, total = 0;
      EXPECT_PURE_OK(pure_allreduce(&integer, &total, 1, PURE_INTEGER, PURE_SUM, W));
      EXPECT_EQ(total, size * (size - 1) / 2);
    }
  });
}

void sum_long_long(void* in, void* inout, PURE_Count* len, PURE_Datatype*) {
  for (PURE_Count i = 0; i < *len; ++i)
    static_cast<long long*>(inout)[i] += static_cast<long long*>(in)[i];
}

// Every large-count call on counts an int could carry gives what its int
// twin gives.
TEST_P(DatatypeMessages, LargeCountCallsMatchTheirIntTwins) {
  expect_clean_run(n(), [](int rank, int size) {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    const PURE_Count k = 1000;
    std::vector<int> out(static_cast<std::size_t>(k)), in(static_cast<std::size_t>(k), -1);
    for (PURE_Count i = 0; i < k; ++i) out[static_cast<std::size_t>(i)] = rank * 100000 + static_cast<int>(i);
    auto expect_from = [&](int r, const std::vector<int>& v) {
      for (PURE_Count i = 0; i < k; ++i)
        ASSERT_EQ(v[static_cast<std::size_t>(i)], r * 100000 + static_cast<int>(i)) << i;
    };
    // Point-to-point.
    PURE_Status st;
    PURE_Request q;
    EXPECT_PURE_OK(pure_isend_c(out.data(), k, PURE_INT, to, 1, W, &q));
    EXPECT_PURE_OK(pure_recv_c(in.data(), k, PURE_INT, from, 1, W, &st));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    expect_from(from, in);
    PURE_Count got = -1;
    EXPECT_PURE_OK(pure_get_count_c(&st, PURE_INT, &got));
    EXPECT_EQ(got, k);
    EXPECT_PURE_OK(pure_irecv_c(in.data(), k, PURE_INT, from, 2, W, &q));
    EXPECT_PURE_OK(pure_ssend_c(out.data(), k, PURE_INT, to, 2, W));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_irecv_c(in.data(), k, PURE_INT, from, 3, W, &q));
    EXPECT_PURE_OK(pure_barrier(W));  // every receive is posted: ready sends may go
    EXPECT_PURE_OK(pure_rsend_c(out.data(), k, PURE_INT, to, 3, W));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    std::vector<char> attached(8 * k + PURE_BSEND_OVERHEAD);
    EXPECT_PURE_OK(pure_buffer_attach_c(attached.data(), static_cast<PURE_Count>(attached.size())));
    EXPECT_PURE_OK(pure_bsend_c(out.data(), k, PURE_INT, to, 4, W));
    EXPECT_PURE_OK(pure_recv_c(in.data(), k, PURE_INT, from, 4, W, PURE_STATUS_IGNORE));
    void* back = nullptr;
    PURE_Count back_size = 0;
    EXPECT_PURE_OK(pure_buffer_detach_c(&back, &back_size));
    EXPECT_EQ(back, attached.data());
    EXPECT_EQ(back_size, static_cast<PURE_Count>(attached.size()));
    EXPECT_PURE_OK(pure_ibsend_c(out.data(), 0, PURE_INT, PURE_PROC_NULL, 5, W, &q));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_issend_c(out.data(), k, PURE_INT, to, 6, W, &q));
    EXPECT_PURE_OK(pure_sendrecv_c(out.data(), 0, PURE_INT, PURE_PROC_NULL, 0, in.data(), k,
                                   PURE_INT, from, 6, W, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    expect_from(from, in);
    EXPECT_PURE_OK(pure_irsend_c(out.data(), 0, PURE_INT, PURE_PROC_NULL, 0, W, &q));
    EXPECT_PURE_OK(pure_wait(&q, PURE_STATUS_IGNORE));
    std::vector<int> both = out;
    EXPECT_PURE_OK(pure_sendrecv_replace_c(both.data(), k, PURE_INT, to, 7, from, 7, W,
                                           PURE_STATUS_IGNORE));
    expect_from(from, both);
    PURE_Datatype pair;
    EXPECT_PURE_OK(pure_type_contiguous_c(2, PURE_INT, &pair));
    EXPECT_PURE_OK(pure_type_commit(&pair));
    EXPECT_PURE_OK(pure_sendrecv_c(out.data(), k / 2, pair, to, 8, in.data(), k / 2, pair, from,
                                   8, W, PURE_STATUS_IGNORE));
    expect_from(from, in);
    EXPECT_PURE_OK(pure_type_free(&pair));

    // Reductions, with a large-count user op too.
    long long mine[3] = {rank, 1, -rank}, all[3] = {0, 0, 0};
    PURE_Op op;
    EXPECT_PURE_OK(pure_op_create_c(sum_long_long, 1, &op));
    EXPECT_PURE_OK(pure_allreduce_c(mine, all, 3, PURE_LONG_LONG, op, W));
    const long long total = static_cast<long long>(size) * (size - 1) / 2;
    EXPECT_EQ(all[0], total);
    EXPECT_EQ(all[1], size);
    EXPECT_EQ(all[2], -total);
    long long root_sum[3] = {0, 0, 0};
    EXPECT_PURE_OK(pure_reduce_c(mine, root_sum, 3, PURE_LONG_LONG, PURE_SUM, size - 1, W));
    if (rank == size - 1) { EXPECT_EQ(root_sum[1], size); }
    long long prefix[3], before[3] = {0, 0, 0};
    EXPECT_PURE_OK(pure_scan_c(mine, prefix, 3, PURE_LONG_LONG, op, W));
    EXPECT_EQ(prefix[1], rank + 1);
    EXPECT_PURE_OK(pure_exscan_c(mine, before, 3, PURE_LONG_LONG, PURE_SUM, W));
    if (rank > 0) { EXPECT_EQ(before[1], rank); }
    long long acc[3] = {1, 2, 3};
    EXPECT_PURE_OK(pure_reduce_local_c(mine, acc, 3, PURE_LONG_LONG, op));
    EXPECT_EQ(acc[0], 1 + rank);
    EXPECT_PURE_OK(pure_op_free(&op));
    std::vector<int> contrib(static_cast<std::size_t>(2 * size), 1), mine2(2, 0);
    EXPECT_PURE_OK(pure_reduce_scatter_block_c(contrib.data(), mine2.data(), 2, PURE_INT,
                                               PURE_SUM, W));
    EXPECT_EQ(mine2[0], size);
    std::vector<PURE_Count> rcounts(static_cast<std::size_t>(size), 2);
    mine2 = {0, 0};
    EXPECT_PURE_OK(pure_reduce_scatter_c(contrib.data(), mine2.data(), rcounts.data(), PURE_INT,
                                         PURE_SUM, W));
    EXPECT_EQ(mine2[1], size);

    // Data movement.
    int value = rank == 0 ? 4242 : -1;
    EXPECT_PURE_OK(pure_bcast_c(&value, 1, PURE_INT, 0, W));
    EXPECT_EQ(value, 4242);
    std::vector<int> gathered(static_cast<std::size_t>(2 * size), -1);
    const int two[2] = {rank, 2 * rank};
    EXPECT_PURE_OK(pure_gather_c(two, 2, PURE_INT, gathered.data(), 2, PURE_INT, 0, W));
    if (rank == 0) { EXPECT_EQ(gathered[static_cast<std::size_t>(2 * size - 1)], 2 * (size - 1)); }
    std::vector<PURE_Count> counts(static_cast<std::size_t>(size), 2);
    std::vector<PURE_Aint> displs(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r)
      displs[static_cast<std::size_t>(r)] = 2 * (size - 1 - r);  // reversed
    std::fill(gathered.begin(), gathered.end(), -1);
    EXPECT_PURE_OK(pure_gatherv_c(two, 2, PURE_INT, gathered.data(), counts.data(),
                                  displs.data(), PURE_INT, 0, W));
    if (rank == 0) { EXPECT_EQ(gathered[0], size - 1); }
    int got2[2] = {-1, -1};
    EXPECT_PURE_OK(pure_scatter_c(gathered.data(), 2, PURE_INT, got2, 2, PURE_INT, 0, W));
    if (rank == 0) { EXPECT_EQ(got2[0], size - 1); }
    EXPECT_PURE_OK(pure_scatterv_c(gathered.data(), counts.data(), displs.data(), PURE_INT, got2,
                                   2, PURE_INT, 0, W));
    EXPECT_EQ(got2[0], rank);  // reversed twice
    std::fill(gathered.begin(), gathered.end(), -1);
    EXPECT_PURE_OK(pure_allgather_c(two, 2, PURE_INT, gathered.data(), 2, PURE_INT, W));
    EXPECT_EQ(gathered[2], 1);  // rank 1's first value
    std::fill(gathered.begin(), gathered.end(), -1);
    EXPECT_PURE_OK(pure_allgatherv_c(two, 2, PURE_INT, gathered.data(), counts.data(),
                                     displs.data(), PURE_INT, W));
    EXPECT_EQ(gathered[0], size - 1);
    std::vector<int> sendall(static_cast<std::size_t>(size)), recvall(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) sendall[static_cast<std::size_t>(r)] = rank * 1000 + r;
    EXPECT_PURE_OK(pure_alltoall_c(sendall.data(), 1, PURE_INT, recvall.data(), 1, PURE_INT, W));
    for (int r = 0; r < size; ++r) EXPECT_EQ(recvall[static_cast<std::size_t>(r)], r * 1000 + rank);
    std::vector<PURE_Count> ones(static_cast<std::size_t>(size), 1);
    std::vector<PURE_Aint> at(static_cast<std::size_t>(size));
    std::iota(at.begin(), at.end(), 0);
    std::fill(recvall.begin(), recvall.end(), -1);
    EXPECT_PURE_OK(pure_alltoallv_c(sendall.data(), ones.data(), at.data(), PURE_INT,
                                    recvall.data(), ones.data(), at.data(), PURE_INT, W));
    for (int r = 0; r < size; ++r) EXPECT_EQ(recvall[static_cast<std::size_t>(r)], r * 1000 + rank);
  });
}

// The large-count forms of the persistent, matched-probe, send-receive and
// nonblocking calls move what their int twins move.
TEST_P(DatatypeMessages, NonblockingLargeCountCallsMatchTheirIntTwins) {
  expect_clean_run(n(), [](int rank, int size) {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    const PURE_Count k = 300;
    const std::size_t uk = static_cast<std::size_t>(k);
    std::vector<int> out(uk), in(uk, -1);
    for (std::size_t i = 0; i < uk; ++i) out[i] = rank * 1000 + static_cast<int>(i);
    auto from_rank = [&](int r, const std::vector<int>& v) {
      for (std::size_t i = 0; i < uk; ++i) ASSERT_EQ(v[i], r * 1000 + static_cast<int>(i)) << i;
    };
    PURE_Request q[2];
    EXPECT_PURE_OK(pure_recv_init_c(in.data(), k, PURE_INT, from, 1, W, &q[0]));
    EXPECT_PURE_OK(pure_send_init_c(out.data(), k, PURE_INT, to, 1, W, &q[1]));
    for (int round = 0; round < 2; ++round) {
      std::fill(in.begin(), in.end(), -1);
      EXPECT_PURE_OK(pure_startall(2, q));
      EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
      from_rank(from, in);
    }
    EXPECT_PURE_OK(pure_request_free(&q[0]));
    EXPECT_PURE_OK(pure_request_free(&q[1]));
    std::fill(in.begin(), in.end(), -1);
    EXPECT_PURE_OK(pure_isendrecv_c(out.data(), k, PURE_INT, to, 2, in.data(), k, PURE_INT, from,
                                    2, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    from_rank(from, in);
    std::vector<int> both = out;
    EXPECT_PURE_OK(pure_isendrecv_replace_c(both.data(), k, PURE_INT, to, 3, from, 3, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    from_rank(from, both);
    // Matched probes: the message taken by the probe, received by the _c call.
    EXPECT_PURE_OK(pure_isend_c(out.data(), k, PURE_INT, to, 4, W, &q[1]));
    PURE_Message m;
    PURE_Status st;
    EXPECT_PURE_OK(pure_mprobe(from, 4, W, &m, &st));
    std::fill(in.begin(), in.end(), -1);
    EXPECT_PURE_OK(pure_mrecv_c(in.data(), k, PURE_INT, &m, &st));
    from_rank(from, in);
    EXPECT_PURE_OK(pure_wait(&q[1], PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_isend_c(out.data(), k, PURE_INT, to, 5, W, &q[1]));
    EXPECT_PURE_OK(pure_mprobe(from, 5, W, &m, &st));
    std::fill(in.begin(), in.end(), -1);
    EXPECT_PURE_OK(pure_imrecv_c(in.data(), k, PURE_INT, &m, &q[0]));
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    from_rank(from, in);

    // Nonblocking collectives: each rank contributes rank + 1.
    const std::size_t n = static_cast<std::size_t>(size);
    long long mine[2] = {rank + 1, 1}, sum[2] = {0, 0};
    EXPECT_PURE_OK(pure_iallreduce_c(mine, sum, 2, PURE_LONG_LONG, PURE_SUM, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(sum[0], static_cast<long long>(size) * (size + 1) / 2);
    EXPECT_EQ(sum[1], size);
    long long root_sum[2] = {0, 0};
    EXPECT_PURE_OK(pure_ireduce_c(mine, root_sum, 2, PURE_LONG_LONG, PURE_SUM, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    if (rank == 0) {
      EXPECT_EQ(root_sum[1], size);
    }
    long long upto[2] = {0, 0}, before[2] = {0, 0};
    EXPECT_PURE_OK(pure_iscan_c(mine, upto, 2, PURE_LONG_LONG, PURE_SUM, W, &q[0]));
    EXPECT_PURE_OK(pure_iexscan_c(mine, before, 2, PURE_LONG_LONG, PURE_SUM, W, &q[1]));
    EXPECT_PURE_OK(pure_waitall(2, q, PURE_STATUSES_IGNORE));
    EXPECT_EQ(upto[1], rank + 1);
    if (rank > 0) {
      EXPECT_EQ(before[1], rank);
    }
    int value = rank == 0 ? 77 : -1;
    EXPECT_PURE_OK(pure_ibcast_c(&value, 1, PURE_INT, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(value, 77);
    // Every rank's block of two: {rank, rank}.
    std::vector<int> two{rank, rank}, all(2 * n, -1), got(2, -1);
    std::vector<PURE_Count> counts(n, 2);
    std::vector<PURE_Aint> displs(n);
    for (std::size_t r = 0; r < n; ++r) displs[r] = static_cast<PURE_Aint>(2 * r);
    auto each_block = [&](const std::vector<int>& v) {
      for (std::size_t i = 0; i < 2 * n; ++i) ASSERT_EQ(v[i], static_cast<int>(i / 2)) << i;
    };
    EXPECT_PURE_OK(pure_iallgather_c(two.data(), 2, PURE_INT, all.data(), 2, PURE_INT, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    each_block(all);
    std::fill(all.begin(), all.end(), -1);
    EXPECT_PURE_OK(pure_iallgatherv_c(two.data(), 2, PURE_INT, all.data(), counts.data(),
                                      displs.data(), PURE_INT, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    each_block(all);
    std::fill(all.begin(), all.end(), -1);
    EXPECT_PURE_OK(pure_igather_c(two.data(), 2, PURE_INT, all.data(), 2, PURE_INT, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    if (rank == 0) each_block(all);
    std::fill(all.begin(), all.end(), -1);
    EXPECT_PURE_OK(pure_igatherv_c(two.data(), 2, PURE_INT, all.data(), counts.data(),
                                   displs.data(), PURE_INT, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    if (rank == 0) each_block(all);
    // Scatter back what rank 0 gathered: each rank gets {rank, rank}.
    EXPECT_PURE_OK(pure_iscatter_c(all.data(), 2, PURE_INT, got.data(), 2, PURE_INT, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(got, two);
    std::fill(got.begin(), got.end(), -1);
    EXPECT_PURE_OK(pure_iscatterv_c(all.data(), counts.data(), displs.data(), PURE_INT, got.data(),
                                    2, PURE_INT, 0, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(got, two);
    // Alltoall of one's own rank: every rank receives {0, 0, 1, 1, ...}.
    std::vector<int> mine_to_all(2 * n, rank);
    std::fill(all.begin(), all.end(), -1);
    EXPECT_PURE_OK(pure_ialltoall_c(mine_to_all.data(), 2, PURE_INT, all.data(), 2, PURE_INT, W,
                                    &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    each_block(all);
    std::fill(all.begin(), all.end(), -1);
    EXPECT_PURE_OK(pure_ialltoallv_c(mine_to_all.data(), counts.data(), displs.data(), PURE_INT,
                                     all.data(), counts.data(), displs.data(), PURE_INT, W,
                                     &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    each_block(all);
    // Reduce-scatter of {1, 1, ...}: each rank's block sums to size.
    std::vector<long long> ones(2 * n, 1), block(2, 0);
    EXPECT_PURE_OK(pure_ireduce_scatter_block_c(ones.data(), block.data(), 2, PURE_LONG_LONG,
                                                PURE_SUM, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(block, (std::vector<long long>{size, size}));
    std::fill(block.begin(), block.end(), 0);
    EXPECT_PURE_OK(pure_ireduce_scatter_c(ones.data(), block.data(), counts.data(),
                                          PURE_LONG_LONG, PURE_SUM, W, &q[0]));
    EXPECT_PURE_OK(pure_wait(&q[0], PURE_STATUS_IGNORE));
    EXPECT_EQ(block, (std::vector<long long>{size, size}));
  });
}

}  // namespace
}  // namespace pure_testing
