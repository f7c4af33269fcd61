// Derived datatypes on the send and the receive side of real transfers (eager
// and rendezvous), pack/unpack, and the datatype queries, through the flat
// API from rank threads. The datatype engine itself has its own unit tests
// (datatype_engine_test); these check that point-to-point uses it right.
#include <cstddef>
#include <cstring>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

constexpr PURE_Comm W = PURE_COMM_WORLD;

class Datatypes : public testing::TestWithParam<int> {
 protected:
  int n() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(, Datatypes, kRankCounts, rank_count_name);

// A struct with holes: 1 + 7 padding + 8 + 4 + 2 + 2 padding bytes.
struct Particle {
  char kind;
  double x;
  int id;
  short charge;
};
static_assert(sizeof(Particle) == 24, "the layout the test expects");

PURE_Datatype particle_type() {
  const int lengths[4] = {1, 1, 1, 1};
  const PURE_Aint displs[4] = {offsetof(Particle, kind), offsetof(Particle, x),
                               offsetof(Particle, id), offsetof(Particle, charge)};
  const PURE_Datatype types[4] = {PURE_CHAR, PURE_DOUBLE, PURE_INT, PURE_SHORT};
  PURE_Datatype t = PURE_DATATYPE_NULL;
  EXPECT_PURE_OK(pure_type_create_struct(4, lengths, displs, types, &t));
  EXPECT_PURE_OK(pure_type_commit(&t));
  return t;
}

Particle particle(int rank, int i) {
  Particle p;
  std::memset(&p, 0xCD, sizeof p);  // holes hold garbage on the sending side
  p.kind = static_cast<char>('a' + (rank + i) % 26);
  p.x = rank * 1e6 + i * 0.5;
  p.id = rank * 100000 + i;
  p.charge = static_cast<short>(i % 7 - 3);
  return p;
}

struct DoubleInt {
  double value;
  int index;
};

void expect_extent(PURE_Datatype t, PURE_Aint lb, PURE_Aint extent, PURE_Aint true_lb,
                   PURE_Aint true_extent, int size) {
  PURE_Aint a = -1, b = -1;
  EXPECT_PURE_OK(pure_type_get_extent(t, &a, &b));
  EXPECT_EQ(a, lb);
  EXPECT_EQ(b, extent);
  EXPECT_PURE_OK(pure_type_get_true_extent(t, &a, &b));
  EXPECT_EQ(a, true_lb);
  EXPECT_EQ(b, true_extent);
  int s = -1;
  EXPECT_PURE_OK(pure_type_size(t, &s));
  EXPECT_EQ(s, size);
}

TEST_P(Datatypes, SizesAndExtents) {
  expect_clean_run(n(), [&](int, int) {
    expect_extent(PURE_CHAR, 0, 1, 0, 1, 1);
    expect_extent(PURE_INT, 0, 4, 0, 4, 4);
    expect_extent(PURE_DOUBLE, 0, 8, 0, 8, 8);
    expect_extent(PURE_INT64_T, 0, 8, 0, 8, 8);
    expect_extent(PURE_FLOAT_INT, 0, 8, 0, 8, 8);
    expect_extent(PURE_DOUBLE_INT, 0, 16, 0, 12, 12);
    expect_extent(PURE_LONG_INT, 0, 16, 0, 12, 12);
    expect_extent(PURE_2INT, 0, 8, 0, 8, 8);
    expect_extent(PURE_SHORT_INT, 0, 8, 0, 8, 6);  // short at 0, int at 4

    PURE_Datatype v;
    EXPECT_PURE_OK(pure_type_vector(3, 2, 4, PURE_INT, &v));  // xx..xx..xx
    expect_extent(v, 0, 40, 0, 40, 24);
    PURE_Datatype r;
    EXPECT_PURE_OK(pure_type_create_resized(PURE_INT, -4, 16, &r));
    expect_extent(r, -4, 16, 0, 4, 4);
    PURE_Datatype c;
    EXPECT_PURE_OK(pure_type_contiguous(0, PURE_DOUBLE, &c));
    expect_extent(c, 0, 0, 0, 0, 0);
    PURE_Datatype p = particle_type();
    expect_extent(p, 0, 24, 0, 22, 15);
    PURE_Datatype d;
    EXPECT_PURE_OK(pure_type_dup(p, &d));
    expect_extent(d, 0, 24, 0, 22, 15);
    for (PURE_Datatype* t : {&v, &r, &c, &p, &d}) {
      EXPECT_PURE_OK(pure_type_free(t));
      EXPECT_EQ(*t, PURE_DATATYPE_NULL);
    }
  });
}

// A matrix column (vector) sent, received as contiguous doubles; and the
// other way round, with the untouched columns checked.
TEST_P(Datatypes, VectorToContiguousAndBack) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    constexpr int kCols = 3;
    for (int rows : {100, 200000}) {  // 800 B eager, 1.6 MB rendezvous
      const size_t cells = static_cast<size_t>(rows) * kCols;
      std::vector<double> matrix(cells);
      for (size_t i = 0; i < cells; ++i) matrix[i] = rank * 1e7 + static_cast<double>(i);
      PURE_Datatype column;
      EXPECT_PURE_OK(pure_type_vector(rows, 1, kCols, PURE_DOUBLE, &column));
      EXPECT_PURE_OK(pure_type_commit(&column));

      // Column 1 out, contiguous in.
      std::vector<double> in(static_cast<size_t>(rows), -1);
      PURE_Request req;
      EXPECT_PURE_OK(pure_isend(matrix.data() + 1, 1, column, right, 1, W, &req));
      PURE_Status st;
      EXPECT_PURE_OK(pure_recv(in.data(), rows, PURE_DOUBLE, left, 1, W, &st));
      EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));
      int count = -1;
      EXPECT_PURE_OK(pure_get_count(&st, column, &count));
      EXPECT_EQ(count, 1);
      size_t bad = 0;
      for (int i = 0; i < rows; ++i)
        bad += in[static_cast<size_t>(i)] != left * 1e7 + static_cast<double>(i * kCols + 1);
      EXPECT_EQ(bad, 0u) << rows << " rows";

      // Contiguous out, column 2 in; columns 0 and 1 keep their sentinel.
      std::vector<double> out(static_cast<size_t>(rows));
      for (int i = 0; i < rows; ++i) out[static_cast<size_t>(i)] = rank + i * 0.25;
      std::vector<double> target(cells, -1);
      EXPECT_PURE_OK(pure_sendrecv(out.data(), rows, PURE_DOUBLE, right, 2, target.data() + 2, 1,
                                   column, left, 2, W, &st));
      bad = 0;
      for (size_t i = 0; i < cells; ++i) {
        const int row = static_cast<int>(i / kCols);
        const double want = i % kCols == 2 ? left + row * 0.25 : -1;
        bad += target[i] != want;
      }
      EXPECT_EQ(bad, 0u) << rows << " rows";
      EXPECT_PURE_OK(pure_type_free(&column));
    }
  });
}

// Structs with holes: only the members travel, the receiver's holes are
// never written.
TEST_P(Datatypes, StructWithHoles) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const PURE_Datatype ptype = particle_type();
    for (int count : {50, 3000}) {  // 750 B eager, 45 KB rendezvous
      std::vector<Particle> out;
      for (int i = 0; i < count; ++i) out.push_back(particle(rank, i));
      std::vector<Particle> in(static_cast<size_t>(count));
      std::memset(in.data(), 0xAB, in.size() * sizeof(Particle));
      PURE_Status st;
      EXPECT_PURE_OK(pure_sendrecv(out.data(), count, ptype, right, 3, in.data(), count, ptype,
                                   left, 3, W, &st));
      int got = -1;
      EXPECT_PURE_OK(pure_get_count(&st, ptype, &got));
      EXPECT_EQ(got, count);
      EXPECT_PURE_OK(pure_get_count(&st, PURE_BYTE, &got));
      EXPECT_EQ(got, count * 15);
      size_t bad_fields = 0, bad_holes = 0;
      for (int i = 0; i < count; ++i) {
        const Particle want = particle(left, i);
        const Particle& p = in[static_cast<size_t>(i)];
        bad_fields += p.kind != want.kind || p.x != want.x || p.id != want.id ||
                      p.charge != want.charge;
        const auto* bytes = reinterpret_cast<const unsigned char*>(&p);
        for (size_t b = 1; b < 8; ++b) bad_holes += bytes[b] != 0xAB;
        for (size_t b = 22; b < 24; ++b) bad_holes += bytes[b] != 0xAB;
      }
      EXPECT_EQ(bad_fields, 0u) << count << " particles";
      EXPECT_EQ(bad_holes, 0u) << count << " particles";

      // Received as plain bytes: the packed member sequence.
      std::vector<char> packed(static_cast<size_t>(count) * 15);
      EXPECT_PURE_OK(pure_sendrecv(out.data(), count, ptype, right, 4, packed.data(),
                                   static_cast<int>(packed.size()), PURE_BYTE, left, 4, W, &st));
      const Particle want = particle(left, count - 1);
      const char* last = packed.data() + (count - 1) * 15;
      EXPECT_EQ(last[0], want.kind);
      double x;
      std::memcpy(&x, last + 1, 8);
      EXPECT_EQ(x, want.x);
      int id;
      std::memcpy(&id, last + 9, 4);
      EXPECT_EQ(id, want.id);
    }
    PURE_Datatype t = ptype;
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

TEST_P(Datatypes, DoubleIntArrays) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int count : {10, 20000}) {  // 160 B eager, 320 KB rendezvous
      std::vector<DoubleInt> out(static_cast<size_t>(count)), in(static_cast<size_t>(count));
      for (int i = 0; i < count; ++i) out[static_cast<size_t>(i)] = {rank + i * 1.5, rank * count + i};
      PURE_Request reqs[2];
      EXPECT_PURE_OK(pure_irecv(in.data(), count, PURE_DOUBLE_INT, left, 5, W, &reqs[0]));
      EXPECT_PURE_OK(pure_isend(out.data(), count, PURE_DOUBLE_INT, right, 5, W, &reqs[1]));
      PURE_Status sts[2];
      EXPECT_PURE_OK(pure_waitall(2, reqs, sts));
      int got = -1;
      EXPECT_PURE_OK(pure_get_count(&sts[0], PURE_DOUBLE_INT, &got));
      EXPECT_EQ(got, count);
      size_t bad = 0;
      for (int i = 0; i < count; ++i) {
        const DoubleInt& d = in[static_cast<size_t>(i)];
        bad += d.value != left + i * 1.5 || d.index != left * count + i;
      }
      EXPECT_EQ(bad, 0u) << count << " pairs";
    }
  });
}

// Indexed on the receive side, and a type freed while an operation that
// uses it is still pending (MPI allows that; the operation keeps it alive).
TEST_P(Datatypes, IndexedReceiveAndFreeWhilePending) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const int lengths[3] = {2, 3, 1};
    const int displs[3] = {0, 5, 12};
    PURE_Datatype idx;
    EXPECT_PURE_OK(pure_type_indexed(3, lengths, displs, PURE_INT, &idx));
    EXPECT_PURE_OK(pure_type_commit(&idx));
    std::vector<int> in(13, -1);
    PURE_Request req;
    EXPECT_PURE_OK(pure_irecv(in.data(), 1, idx, left, 6, W, &req));
    EXPECT_PURE_OK(pure_type_free(&idx));
    EXPECT_EQ(idx, PURE_DATATYPE_NULL);
    const int out[6] = {rank, rank + 1, rank + 2, rank + 3, rank + 4, rank + 5};
    EXPECT_PURE_OK(pure_send(out, 6, PURE_INT, right, 6, W));
    EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));
    const std::vector<int> want = {left,     left + 1, -1, -1, -1, left + 2, left + 3,
                                   left + 4, -1,       -1, -1, -1, left + 5};
    EXPECT_EQ(in, want);

    // The same on the sending side, for a rendezvous-sized strided send: the
    // type is freed while the send is still waiting for its receiver.
    constexpr int kInts = 100000;
    std::vector<int> strided(2 * kInts);
    for (int i = 0; i < 2 * kInts; ++i) strided[static_cast<size_t>(i)] = i % 2 ? -1 : rank + i;
    PURE_Datatype every_other;
    EXPECT_PURE_OK(pure_type_vector(kInts, 1, 2, PURE_INT, &every_other));
    EXPECT_PURE_OK(pure_type_commit(&every_other));
    PURE_Request sreq;
    EXPECT_PURE_OK(pure_isend(strided.data(), 1, every_other, right, 7, W, &sreq));
    EXPECT_PURE_OK(pure_type_free(&every_other));
    std::vector<int> dense(kInts, -2);
    EXPECT_PURE_OK(pure_recv(dense.data(), kInts, PURE_INT, left, 7, W, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&sreq, PURE_STATUS_IGNORE));
    size_t bad = 0;
    for (int i = 0; i < kInts; ++i) bad += dense[static_cast<size_t>(i)] != left + 2 * i;
    EXPECT_EQ(bad, 0u);
  });
}

TEST_P(Datatypes, PackUnpackRoundTripThroughAMessage) {
  expect_clean_run(n(), [&](int rank, int size) {
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const PURE_Datatype ptype = particle_type();
    int ints[5];
    for (int i = 0; i < 5; ++i) ints[i] = rank * 10 + i;
    Particle ps[3] = {particle(rank, 0), particle(rank, 1), particle(rank, 2)};
    double d = rank + 0.125;

    int s1 = -1, s2 = -1, s3 = -1;
    EXPECT_PURE_OK(pure_pack_size(5, PURE_INT, W, &s1));
    EXPECT_PURE_OK(pure_pack_size(3, ptype, W, &s2));
    EXPECT_PURE_OK(pure_pack_size(1, PURE_DOUBLE, W, &s3));
    EXPECT_EQ(s1, 20);
    EXPECT_EQ(s2, 45);
    EXPECT_EQ(s3, 8);
    const int total = s1 + s2 + s3;
    std::vector<char> packed(static_cast<size_t>(total));
    int position = 0;
    EXPECT_PURE_OK(pure_pack(ints, 5, PURE_INT, packed.data(), total, &position, W));
    EXPECT_EQ(position, 20);
    EXPECT_PURE_OK(pure_pack(ps, 3, ptype, packed.data(), total, &position, W));
    EXPECT_EQ(position, 65);
    EXPECT_PURE_OK(pure_pack(&d, 1, PURE_DOUBLE, packed.data(), total, &position, W));
    EXPECT_EQ(position, total);

    PURE_Request req;
    EXPECT_PURE_OK(pure_isend(packed.data(), position, PURE_PACKED, right, 7, W, &req));
    PURE_Status st;
    EXPECT_PURE_OK(pure_probe(left, 7, W, &st));
    int bytes = -1;
    EXPECT_PURE_OK(pure_get_count(&st, PURE_PACKED, &bytes));
    EXPECT_EQ(bytes, total);
    std::vector<char> in(static_cast<size_t>(bytes));
    EXPECT_PURE_OK(pure_recv(in.data(), bytes, PURE_PACKED, left, 7, W, PURE_STATUS_IGNORE));
    EXPECT_PURE_OK(pure_wait(&req, PURE_STATUS_IGNORE));

    int got_ints[5] = {};
    Particle got_ps[3];
    std::memset(got_ps, 0xAB, sizeof got_ps);
    double got_d = 0;
    position = 0;
    EXPECT_PURE_OK(pure_unpack(in.data(), bytes, &position, got_ints, 5, PURE_INT, W));
    EXPECT_PURE_OK(pure_unpack(in.data(), bytes, &position, got_ps, 3, ptype, W));
    EXPECT_PURE_OK(pure_unpack(in.data(), bytes, &position, &got_d, 1, PURE_DOUBLE, W));
    EXPECT_EQ(position, total);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(got_ints[i], left * 10 + i);
    for (int i = 0; i < 3; ++i) {
      const Particle want = particle(left, i);
      EXPECT_EQ(got_ps[i].kind, want.kind);
      EXPECT_EQ(got_ps[i].x, want.x);
      EXPECT_EQ(got_ps[i].id, want.id);
      EXPECT_EQ(got_ps[i].charge, want.charge);
      EXPECT_EQ(reinterpret_cast<const unsigned char*>(&got_ps[i])[3], 0xAB) << "a hole was written";
    }
    EXPECT_EQ(got_d, left + 0.125);

    // Packing past the end of the output is an error, not an overrun.
    EXPECT_PURE_OK(pure_comm_set_errhandler(W, PURE_ERRORS_RETURN));
    char small[8];
    position = 4;
    EXPECT_EQ(PURE_ERR_TRUNCATE, pure_pack(ints, 2, PURE_INT, small, 8, &position, W));
    EXPECT_EQ(position, 4);
    position = 0;
    EXPECT_EQ(PURE_ERR_TRUNCATE, pure_unpack(small, 8, &position, got_ints, 3, PURE_INT, W));
    PURE_Datatype t = ptype;
    EXPECT_PURE_OK(pure_type_free(&t));
  });
}

}  // namespace
}  // namespace pure_testing
