// multiproc_check datatypes: the newer datatypes between processes. A darray
// scatter and gather straight out of rank 0's global array; subarray columns
// in a ring; structs of absolute addresses sent and received with
// PURE_BOTTOM (eager and large, struct and contiguous), and used in
// collectives; basic elements of partial receives; the large-count calls;
// external32 bytes unpacked in another process; complex reductions. Ranks
// talk to neighbours in other processes whatever the placement.
#include <complex>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <vector>

#include "check.h"

namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

void darray_scatter_gather() {
  for (int cols : {3, 3001}) {
    const int rows = 2 * g_size + 1;
    const int gsizes[] = {rows, cols};
    const int distribs[] = {PURE_DISTRIBUTE_CYCLIC, PURE_DISTRIBUTE_NONE};
    const int dargs[] = {2, PURE_DISTRIBUTE_DFLT_DARG};
    const int psizes[] = {g_size, 1};
    auto type_of = [&](int r) {
      PURE_Datatype t;
      OK(pure_type_create_darray(g_size, r, 2, gsizes, distribs, dargs, psizes, PURE_ORDER_C,
                                 PURE_INT, &t));
      OK(pure_type_commit(&t));
      return t;
    };
    std::vector<int> expect;
    for (int i = 0; i < rows; ++i)
      if ((i / 2) % g_size == g_rank)
        for (int j = 0; j < cols; ++j) expect.push_back(i * cols + j);
    std::vector<int> own(expect.size(), -1);
    std::vector<PURE_Request> reqs;
    std::vector<PURE_Datatype> types;
    std::vector<int> global, back;
    if (g_rank == 0) {
      global.resize(static_cast<std::size_t>(rows * cols));
      std::iota(global.begin(), global.end(), 0);
      back.assign(global.size(), -1);
      for (int r = 0; r < g_size; ++r) {
        types.push_back(type_of(r));
        PURE_Request q;
        OK(pure_isend(global.data(), 1, types.back(), r, 1, W, &q));
        reqs.push_back(q);
        OK(pure_irecv(back.data(), 1, types.back(), r, 2, W, &q));
        reqs.push_back(q);
      }
    }
    OK(pure_recv(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 1, W,
                 PURE_STATUS_IGNORE));
    CHECK(own == expect, "darray share of %d columns differs", cols);
    OK(pure_send(own.data(), static_cast<int>(own.size()), PURE_INT, 0, 2, W));
    if (g_rank == 0) {
      OK(pure_waitall(static_cast<int>(reqs.size()), reqs.data(), PURE_STATUSES_IGNORE));
      CHECK(back == global, "darray gather of %d columns differs", cols);
      for (PURE_Datatype& t : types) OK(pure_type_free(&t));
    }
  }
}

void subarray_ring() {
  constexpr int kRows = 50, kCols = 4;
  std::vector<double> block(kRows * (kCols + 2), -1.0);
  for (int i = 0; i < kRows; ++i)
    for (int j = 1; j <= kCols; ++j)
      block[static_cast<std::size_t>(i * (kCols + 2) + j)] = g_rank * 1000 + i * 10 + j;
  const int sizes[] = {kRows, kCols + 2}, sub[] = {kRows, 1};
  auto column = [&](int j) {
    const int starts[] = {0, j};
    PURE_Datatype t;
    OK(pure_type_create_subarray(2, sizes, sub, starts, PURE_ORDER_C, PURE_DOUBLE, &t));
    OK(pure_type_commit(&t));
    return t;
  };
  PURE_Datatype last = column(kCols), ghost = column(0);
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  PURE_Status st;
  OK(pure_sendrecv(block.data(), 1, last, right, 3, block.data(), 1, ghost, left, 3, W, &st));
  for (int i = 0; i < kRows; ++i)
    CHECK(block[static_cast<std::size_t>(i * (kCols + 2))] == left * 1000 + i * 10 + kCols,
          "ghost row %d", i);
  int elements = -1;
  OK(pure_get_elements(&st, ghost, &elements));
  CHECK(elements == kRows, "elements %d", elements);
  OK(pure_type_free(&last));
  OK(pure_type_free(&ghost));
}

// A struct of three variables at absolute addresses, and a contiguous type
// of one array at its absolute address.
struct Scattered {
  int id = 0;
  std::vector<double> values;
  char tag[2] = {};
};

PURE_Datatype absolute(Scattered& s) {
  PURE_Aint addr[3];
  OK(pure_get_address(&s.id, &addr[0]));
  OK(pure_get_address(s.values.data(), &addr[1]));
  OK(pure_get_address(s.tag, &addr[2]));
  const int lengths[] = {1, static_cast<int>(s.values.size()), 2};
  const PURE_Datatype types[] = {PURE_INT, PURE_DOUBLE, PURE_CHAR};
  PURE_Datatype t;
  OK(pure_type_create_struct(3, lengths, addr, types, &t));
  OK(pure_type_commit(&t));
  return t;
}

void bottom_ring() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  for (std::size_t n : {std::size_t{5}, std::size_t{200000}}) {
    Scattered out, in;
    out.values.resize(n);
    in.values.assign(n, -1.0);
    out.id = g_rank;
    for (std::size_t i = 0; i < n; ++i) out.values[i] = g_rank + 0.5 * static_cast<double>(i);
    out.tag[0] = 'q';
    out.tag[1] = static_cast<char>('a' + g_rank % 26);
    PURE_Datatype st = absolute(out), rt = absolute(in);
    PURE_Request q;
    OK(pure_irecv(PURE_BOTTOM, 1, rt, from, 4, W, &q));
    OK(pure_send(PURE_BOTTOM, 1, st, to, 4, W));
    OK(pure_wait(&q, PURE_STATUS_IGNORE));
    CHECK(in.id == from && in.tag[1] == static_cast<char>('a' + from % 26), "id %d tag %c", in.id,
          in.tag[1]);
    for (std::size_t i = 0; i < n; ++i)
      CHECK(in.values[i] == from + 0.5 * static_cast<double>(i), "value %zu of %zu", i, n);
    OK(pure_type_free(&st));
    OK(pure_type_free(&rt));
    // One array at its absolute address: a contiguous type, which MPI
    // receives straight into place.
    std::vector<int> src(n, g_rank), dst(n, -1);
    PURE_Aint at_src, at_dst;
    OK(pure_get_address(src.data(), &at_src));
    OK(pure_get_address(dst.data(), &at_dst));
    const int len = static_cast<int>(n);
    PURE_Datatype cs, cd;
    OK(pure_type_create_hindexed(1, &len, &at_src, PURE_INT, &cs));
    OK(pure_type_create_hindexed(1, &len, &at_dst, PURE_INT, &cd));
    OK(pure_type_commit(&cs));
    OK(pure_type_commit(&cd));
    OK(pure_sendrecv(PURE_BOTTOM, 1, cs, to, 5, PURE_BOTTOM, 1, cd, from, 5, W,
                     PURE_STATUS_IGNORE));
    for (std::size_t i = 0; i < n; ++i) CHECK(dst[i] == from, "int %zu of %zu", i, n);
    OK(pure_type_free(&cs));
    OK(pure_type_free(&cd));
  }
  // Collectives on absolute addresses.
  int a = g_rank, b = -g_rank;
  PURE_Aint addr[2];
  OK(pure_get_address(&a, &addr[0]));
  OK(pure_get_address(&b, &addr[1]));
  const int ones[] = {1, 1};
  const PURE_Datatype ints[] = {PURE_INT, PURE_INT};
  PURE_Datatype ab;
  OK(pure_type_create_struct(2, ones, addr, ints, &ab));
  OK(pure_type_commit(&ab));
  std::vector<int> all(static_cast<std::size_t>(2 * g_size), 0);
  OK(pure_allgather(PURE_BOTTOM, 1, ab, all.data(), 2, PURE_INT, W));
  for (int r = 0; r < g_size; ++r)
    CHECK(all[static_cast<std::size_t>(2 * r)] == r && all[static_cast<std::size_t>(2 * r + 1)] == -r,
          "allgather from BOTTOM, rank %d", r);
  OK(pure_allreduce(PURE_IN_PLACE, PURE_BOTTOM, 1, ab, PURE_SUM, W));
  const int sum = g_size * (g_size - 1) / 2;
  CHECK(a == sum && b == -sum, "allreduce at BOTTOM: %d %d", a, b);
  OK(pure_type_free(&ab));
}

void partial_elements() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  auto int_and_chars = [](int chars) {
    const int lengths[] = {1, chars};
    const PURE_Aint displs[] = {0, 4};
    const PURE_Datatype types[] = {PURE_INT, PURE_CHAR};
    PURE_Datatype t;
    OK(pure_type_create_struct(2, lengths, displs, types, &t));
    OK(pure_type_commit(&t));
    return t;
  };
  PURE_Datatype big = int_and_chars(20000);
  std::vector<char> out(20004, 'x'), in(20004);
  for (int chars : {3, 19999}) {
    PURE_Datatype small = int_and_chars(chars);
    PURE_Status st;
    OK(pure_sendrecv(out.data(), 1, small, to, 6, in.data(), 1, big, from, 6, W, &st));
    int elements = -1, count = -1;
    OK(pure_get_elements(&st, big, &elements));
    OK(pure_get_count(&st, big, &count));
    CHECK(elements == chars + 1 && count == PURE_UNDEFINED, "%d chars: elements %d count %d",
          chars, elements, count);
    OK(pure_type_free(&small));
  }
  OK(pure_type_free(&big));
}

void large_counts() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  const PURE_Count n = 300000;
  std::vector<long long> out(static_cast<std::size_t>(n)), in(static_cast<std::size_t>(n));
  for (PURE_Count i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = g_rank * n + i;
  PURE_Status st;
  PURE_Request q;
  OK(pure_irecv_c(in.data(), n, PURE_LONG_LONG, from, 7, W, &q));
  OK(pure_send_c(out.data(), n, PURE_LONG_LONG, to, 7, W));
  OK(pure_wait(&q, &st));
  PURE_Count got = -1;
  OK(pure_get_count_c(&st, PURE_LONG_LONG, &got));
  CHECK(got == n, "count %lld", got);
  for (PURE_Count i = 0; i < n; ++i)
    CHECK(in[static_cast<std::size_t>(i)] == from * n + i, "long long %lld", i);
  long long mine = g_rank, total = 0;
  OK(pure_allreduce_c(&mine, &total, 1, PURE_LONG_LONG, PURE_SUM, W));
  CHECK(total == static_cast<long long>(g_size) * (g_size - 1) / 2, "allreduce_c %lld", total);
  std::vector<PURE_Count> counts(static_cast<std::size_t>(g_size), 1);
  std::vector<PURE_Aint> displs(static_cast<std::size_t>(g_size));
  std::iota(displs.begin(), displs.end(), 0);
  std::vector<int> send(static_cast<std::size_t>(g_size)), recv(static_cast<std::size_t>(g_size), -1);
  for (int r = 0; r < g_size; ++r) send[static_cast<std::size_t>(r)] = g_rank * 100 + r;
  OK(pure_alltoallv_c(send.data(), counts.data(), displs.data(), PURE_INT, recv.data(),
                      counts.data(), displs.data(), PURE_INT, W));
  for (int r = 0; r < g_size; ++r)
    CHECK(recv[static_cast<std::size_t>(r)] == r * 100 + g_rank, "alltoallv_c from %d", r);
}

void external32_between_processes() {
  const int to = (g_rank + 1) % g_size, from = (g_rank + g_size - 1) % g_size;
  struct Rec {
    long v;
    double d;
    std::complex<double> z;
  } rec{-123456L * (g_rank + 1), 0.25 * g_rank, {1.0 * g_rank, -2.0}};
  const int lengths[] = {1, 1, 1};
  const PURE_Aint displs[] = {offsetof(Rec, v), offsetof(Rec, d), offsetof(Rec, z)};
  const PURE_Datatype types[] = {PURE_LONG, PURE_DOUBLE, PURE_CXX_DOUBLE_COMPLEX};
  PURE_Datatype t;
  OK(pure_type_create_struct(3, lengths, displs, types, &t));
  OK(pure_type_commit(&t));
  PURE_Aint size = 0, pos = 0;
  OK(pure_pack_external_size("external32", 1, t, &size));
  CHECK(size == 4 + 8 + 16, "external32 size %td", size);
  std::vector<char> out(static_cast<std::size_t>(size)), in(static_cast<std::size_t>(size));
  OK(pure_pack_external("external32", &rec, 1, t, out.data(), size, &pos));
  OK(pure_sendrecv(out.data(), static_cast<int>(size), PURE_PACKED, to, 8, in.data(),
                   static_cast<int>(size), PURE_PACKED, from, 8, W, PURE_STATUS_IGNORE));
  Rec got{};
  pos = 0;
  OK(pure_unpack_external("external32", in.data(), size, &pos, &got, 1, t));
  CHECK(got.v == -123456L * (from + 1) && got.d == 0.25 * from && got.z.real() == from,
        "external32 record from %d: %ld %g", from, got.v, got.d);
  OK(pure_type_free(&t));
  // And a complex product over every process.
  std::complex<double> z(1.0, 0.1 * g_rank), prod;
  OK(pure_allreduce(&z, &prod, 1, PURE_CXX_DOUBLE_COMPLEX, PURE_PROD, W));
  std::complex<double> want(1.0, 0.0);
  for (int r = 0; r < g_size; ++r) want *= std::complex<double>(1.0, 0.1 * r);
  CHECK(std::abs(prod - want) <= 1e-12 * std::abs(want), "complex product %g%+gi", prod.real(),
        prod.imag());
}

}  // namespace

void run_datatypes() {
  darray_scatter_gather();
  subarray_ring();
  bottom_ring();
  partial_elements();
  large_counts();
  external32_between_processes();
}
