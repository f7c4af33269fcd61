// Every blocking collective on one communicator (coll_on), with predefined
// and user ops (a non-commutative one folded in rank order), derived
// datatypes and in-place forms, with peers in this process and in others;
// every byte is checked. Mode coll runs it on the world, mode comm
// (multiproc_check.cpp) on communicators split, duplicated and created.
#include <pure/pure.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "check.h"

namespace {

struct DoubleInt {
  double value;
  int index;
};

// A non-commutative op: 2x2 integer matrix product, in rank order.
void matmul(void* in, void* inout, int* len, PURE_Datatype*) {
  auto* a = static_cast<long long*>(in);
  auto* b = static_cast<long long*>(inout);
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    long long c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                      a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
    std::memcpy(b, c, sizeof c);
  }
}
// Each rank's matrix: [[1, r+1], [0, 1]] (their product in any order is
// [[1, sum]], so also try [[r+1, 1], [1, 0]], whose product depends on order).
void rank_matrix(int r, long long* m) {
  m[0] = r % 3 + 1;
  m[1] = 1;
  m[2] = 1;
  m[3] = r % 2;
}
void ordered_product(int lo, int hi, long long* out) {  // M_lo * ... * M_hi
  long long acc[4] = {1, 0, 0, 1};
  for (int r = lo; r <= hi; ++r) {
    long long m[4];
    rank_matrix(r, m);
    long long c[4] = {acc[0] * m[0] + acc[1] * m[2], acc[0] * m[1] + acc[1] * m[3],
                      acc[2] * m[0] + acc[3] * m[2], acc[2] * m[1] + acc[3] * m[3]};
    std::memcpy(acc, c, sizeof c);
  }
  std::memcpy(out, acc, sizeof acc);
}

}  // namespace

void coll_on(PURE_Comm comm, int salt) {
  int me, n;
  pure_comm_rank(comm, &me);
  pure_comm_size(comm, &n);
  OK(pure_barrier(comm));

  // bcast: every root, small and large, contiguous and strided.
  for (int root = 0; root < n; ++root) {
    for (std::size_t size : {std::size_t{8}, std::size_t{3000}, std::size_t{300000}}) {
      std::vector<unsigned char> b = me == root ? message(root, salt, static_cast<int>(size), size)
                                                : std::vector<unsigned char>(size, 0);
      OK(pure_bcast(b.data(), static_cast<int>(size), PURE_BYTE, root, comm));
      check_message(b.data(), root, salt, static_cast<int>(size), size, "bcast");
    }
  }
  PURE_Datatype every_other;
  OK(pure_type_vector(10, 1, 2, PURE_DOUBLE, &every_other));
  OK(pure_type_commit(&every_other));
  std::vector<double> v(20, -1.0);
  if (me == n - 1)
    for (int i = 0; i < 20; i += 2) v[static_cast<std::size_t>(i)] = salt + i * 0.5;
  OK(pure_bcast(v.data(), 1, every_other, n - 1, comm));
  for (int i = 0; i < 20; ++i)
    CHECK(v[static_cast<std::size_t>(i)] == (i % 2 ? -1.0 : salt + i * 0.5), "strided bcast: %d", i);

  // allreduce and reduce, predefined ops, several sizes.
  for (int count : {1, 100, 40000}) {
    std::vector<long long> x(static_cast<std::size_t>(count)), s(x.size()), mx(x.size());
    for (int i = 0; i < count; ++i) x[static_cast<std::size_t>(i)] = me * 3 + i + salt;
    OK(pure_allreduce(x.data(), s.data(), count, PURE_LONG_LONG, PURE_SUM, comm));
    OK(pure_allreduce(x.data(), mx.data(), count, PURE_LONG_LONG, PURE_MAX, comm));
    for (int i = 0; i < count; ++i) {
      CHECK(s[static_cast<std::size_t>(i)] == 3LL * n * (n - 1) / 2 + static_cast<long long>(n) * (i + salt),
            "allreduce sum [%d] = %lld", i, s[static_cast<std::size_t>(i)]);
      CHECK(mx[static_cast<std::size_t>(i)] == (n - 1) * 3 + i + salt, "allreduce max [%d]", i);
    }
    std::vector<double> d(static_cast<std::size_t>(count), me + 1.0), prod(d.size(), 0.0);
    const int root = (salt + count) % n;
    OK(pure_reduce(d.data(), prod.data(), count, PURE_DOUBLE, PURE_PROD, root, comm));
    if (me == root) {
      double want = 1.0;
      for (int r = 1; r <= n; ++r) want *= r;
      for (int i = 0; i < count; ++i) CHECK(prod[static_cast<std::size_t>(i)] == want, "reduce prod [%d]", i);
    }
    // In place.
    std::vector<long long> inplace = x;
    OK(pure_allreduce(PURE_IN_PLACE, inplace.data(), count, PURE_LONG_LONG, PURE_SUM, comm));
    CHECK(inplace == s, "allreduce in place differs");
  }
  // MINLOC / MAXLOC on DOUBLE_INT.
  DoubleInt mine{static_cast<double>((me * 7 + salt) % n), me}, lo{}, hi{};
  OK(pure_allreduce(&mine, &lo, 1, PURE_DOUBLE_INT, PURE_MINLOC, comm));
  OK(pure_allreduce(&mine, &hi, 1, PURE_DOUBLE_INT, PURE_MAXLOC, comm));
  {
    DoubleInt wl{1e300, 0}, wh{-1e300, 0};
    for (int r = 0; r < n; ++r) {
      const double val = (r * 7 + salt) % n;
      if (val < wl.value) wl = {val, r};
      if (val > wh.value) wh = {val, r};
    }
    CHECK(lo.value == wl.value && lo.index == wl.index, "minloc: %g at %d", lo.value, lo.index);
    CHECK(hi.value == wh.value && hi.index == wh.index, "maxloc: %g at %d", hi.value, hi.index);
  }
  // A non-commutative user op on a derived type, reduce and allreduce, and scans.
  PURE_Datatype mat;
  OK(pure_type_contiguous(4, PURE_LONG_LONG, &mat));
  OK(pure_type_commit(&mat));
  PURE_Op op;
  OK(pure_op_create(matmul, 0, &op));
  long long m[4], res[4], want[4];
  rank_matrix(me, m);
  OK(pure_allreduce(m, res, 1, mat, op, comm));
  ordered_product(0, n - 1, want);
  CHECK(std::memcmp(res, want, sizeof want) == 0, "non-commutative allreduce: %lld %lld %lld %lld", res[0],
        res[1], res[2], res[3]);
  OK(pure_scan(m, res, 1, mat, op, comm));
  ordered_product(0, me, want);
  CHECK(std::memcmp(res, want, sizeof want) == 0, "non-commutative scan");
  long long ex[4] = {-5, -5, -5, -5};
  OK(pure_exscan(m, ex, 1, mat, op, comm));
  if (me > 0) {
    ordered_product(0, me - 1, want);
    CHECK(std::memcmp(ex, want, sizeof want) == 0, "non-commutative exscan");
  } else {
    CHECK(ex[0] == -5 && ex[3] == -5, "exscan touched rank 0's buffer");
  }
  OK(pure_op_free(&op));
  OK(pure_type_free(&mat));
  int one = me + 1, prefix = 0;
  OK(pure_scan(&one, &prefix, 1, PURE_INT, PURE_SUM, comm));
  CHECK(prefix == (me + 1) * (me + 2) / 2, "scan sum: %d", prefix);
  // A predefined op on three elements, exclusive: 1..me summed, me*(me+1)/2
  // times 1, 2 and 3.
  int three[3] = {one, 2 * one, 3 * one}, before[3] = {-7, -7, -7};
  OK(pure_exscan(three, before, 3, PURE_INT, PURE_SUM, comm));
  for (int i = 0; me > 0 && i < 3; ++i)
    CHECK(before[i] == (i + 1) * me * (me + 1) / 2, "exscan sum [%d]: %d", i, before[i]);
  CHECK(me > 0 || before[0] == -7, "exscan touched rank 0's buffer");

  // reduce_scatter(_block).
  {
    std::vector<int> counts(static_cast<std::size_t>(n));
    int total = 0;
    for (int r = 0; r < n; ++r) total += counts[static_cast<std::size_t>(r)] = 1 + (r + salt) % 3;
    std::vector<int> in(static_cast<std::size_t>(total)), out(static_cast<std::size_t>(counts[static_cast<std::size_t>(me)]));
    for (int i = 0; i < total; ++i) in[static_cast<std::size_t>(i)] = i * (me + 1);
    OK(pure_reduce_scatter(in.data(), out.data(), counts.data(), PURE_INT, PURE_SUM, comm));
    int first = 0;
    for (int r = 0; r < me; ++r) first += counts[static_cast<std::size_t>(r)];
    for (int i = 0; i < counts[static_cast<std::size_t>(me)]; ++i)
      CHECK(out[static_cast<std::size_t>(i)] == (first + i) * n * (n + 1) / 2, "reduce_scatter [%d]", i);
    std::vector<int> blk(static_cast<std::size_t>(2 * n)), two(2);
    for (int i = 0; i < 2 * n; ++i) blk[static_cast<std::size_t>(i)] = i + me;
    OK(pure_reduce_scatter_block(blk.data(), two.data(), 2, PURE_INT, PURE_SUM, comm));
    for (int i = 0; i < 2; ++i)
      CHECK(two[static_cast<std::size_t>(i)] == (2 * me + i) * n + n * (n - 1) / 2, "reduce_scatter_block");
  }

  // gather(v), scatter(v), allgather(v), alltoall(v): uneven counts.
  auto cnt = [&](int r) { return 1 + (r * 5 + salt) % 4; };
  std::vector<int> rc(static_cast<std::size_t>(n)), rd(static_cast<std::size_t>(n));
  int total = 0;
  for (int r = 0; r < n; ++r) {
    rc[static_cast<std::size_t>(r)] = cnt(r);
    rd[static_cast<std::size_t>(r)] = total;  // a gap of one after each block
    total += cnt(r) + 1;
  }
  std::vector<int> mydata(static_cast<std::size_t>(cnt(me)));
  for (int i = 0; i < cnt(me); ++i) mydata[static_cast<std::size_t>(i)] = me * 100 + i + salt;
  auto check_gathered = [&](const std::vector<int>& g, const char* what) {
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < cnt(r); ++i)
        CHECK(g[static_cast<std::size_t>(rd[static_cast<std::size_t>(r)] + i)] == r * 100 + i + salt,
              "%s: block %d item %d", what, r, i);
  };
  for (int root = 0; root < n; root += std::max(1, n / 3)) {
    std::vector<int> g(static_cast<std::size_t>(total), -1);
    OK(pure_gatherv(mydata.data(), cnt(me), PURE_INT, g.data(), rc.data(), rd.data(), PURE_INT, root, comm));
    if (me == root) check_gathered(g, "gatherv");
    std::vector<int> back(static_cast<std::size_t>(cnt(me)), -1);
    OK(pure_scatterv(g.data(), rc.data(), rd.data(), PURE_INT, back.data(), cnt(me), PURE_INT, root, comm));
    if (me == root) CHECK(back == mydata, "scatterv at the root");
    else {
      // Only the root's buffer was filled: others got its gathered data.
      std::vector<int> want(static_cast<std::size_t>(cnt(me)));
      for (int i = 0; i < cnt(me); ++i) want[static_cast<std::size_t>(i)] = me * 100 + i + salt;
      CHECK(back == want, "scatterv");
    }
    std::vector<int> eq(static_cast<std::size_t>(3 * n), -1);
    int three[3] = {me, me * 2, me * 3};
    OK(pure_gather(three, 3, PURE_INT, eq.data(), 3, PURE_INT, root, comm));
    if (me == root)
      for (int r = 0; r < n; ++r)
        CHECK(eq[static_cast<std::size_t>(3 * r + 2)] == 3 * r, "gather: %d", r);
    int got3[3] = {-1, -1, -1};
    OK(pure_scatter(eq.data(), 3, PURE_INT, got3, 3, PURE_INT, root, comm));
    CHECK(got3[0] == me && got3[1] == 2 * me && got3[2] == 3 * me, "scatter");
  }
  {
    std::vector<int> g(static_cast<std::size_t>(total), -1);
    OK(pure_allgatherv(mydata.data(), cnt(me), PURE_INT, g.data(), rc.data(), rd.data(), PURE_INT, comm));
    check_gathered(g, "allgatherv");
    std::vector<int> inplace(static_cast<std::size_t>(total), -1);
    for (int i = 0; i < cnt(me); ++i)
      inplace[static_cast<std::size_t>(rd[static_cast<std::size_t>(me)] + i)] = mydata[static_cast<std::size_t>(i)];
    OK(pure_allgatherv(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, inplace.data(), rc.data(), rd.data(), PURE_INT, comm));
    check_gathered(inplace, "allgatherv in place");
    std::vector<long long> all(static_cast<std::size_t>(n));
    long long val = me * 11LL + salt;
    OK(pure_allgather(&val, 1, PURE_LONG_LONG, all.data(), 1, PURE_LONG_LONG, comm));
    for (int r = 0; r < n; ++r) CHECK(all[static_cast<std::size_t>(r)] == r * 11LL + salt, "allgather %d", r);
  }
  for (int block : {1, 1000}) {
    std::vector<int> s(static_cast<std::size_t>(n * block)), r(s.size(), -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < block; ++i) s[static_cast<std::size_t>(j * block + i)] = me * 1000000 + j * 1000 + i % 1000 + salt;
    OK(pure_alltoall(s.data(), block, PURE_INT, r.data(), block, PURE_INT, comm));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < block; ++i)
        CHECK(r[static_cast<std::size_t>(j * block + i)] == j * 1000000 + me * 1000 + i % 1000 + salt,
              "alltoall block %d from %d item %d", block, j, i);
    OK(pure_alltoall(PURE_IN_PLACE, 0, PURE_DATATYPE_NULL, s.data(), block, PURE_INT, comm));
    CHECK(s == r, "alltoall in place (block %d)", block);
  }
  {
    auto c2 = [&](int from, int to) { return (from * 3 + to * 5 + salt) % 4; };
    std::vector<int> sc(static_cast<std::size_t>(n)), sd(sc.size()), rcv(sc.size()), rdv(sc.size());
    int sat = 0, rat = 0;
    for (int j = 0; j < n; ++j) {
      sc[static_cast<std::size_t>(j)] = c2(me, j);
      sd[static_cast<std::size_t>(j)] = sat;
      sat += c2(me, j);
      rcv[static_cast<std::size_t>(j)] = c2(j, me);
      rdv[static_cast<std::size_t>(j)] = rat;
      rat += c2(j, me) + 1;
    }
    std::vector<int> s(static_cast<std::size_t>(sat) + 1), r(static_cast<std::size_t>(rat) + 1, -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < c2(me, j); ++i) s[static_cast<std::size_t>(sd[static_cast<std::size_t>(j)] + i)] = me * 100 + j * 10 + i;
    OK(pure_alltoallv(s.data(), sc.data(), sd.data(), PURE_INT, r.data(), rcv.data(), rdv.data(), PURE_INT, comm));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < c2(j, me); ++i)
        CHECK(r[static_cast<std::size_t>(rdv[static_cast<std::size_t>(j)] + i)] == j * 100 + me * 10 + i,
              "alltoallv from %d item %d", j, i);
  }
  OK(pure_type_free(&every_other));
  OK(pure_barrier(comm));
}

void run_coll() {
  for (int salt = 0; salt < 3; ++salt) coll_on(PURE_COMM_WORLD, salt);
}
