// Checks of the typed C++ API (include/pure/communicator.hpp), shared by the
// in-process suite (tests/cxx_api_test.cpp) and the job of several processes
// (tests/multiproc/cxx_check.cpp). Each runs on every rank of a job of at
// least 2 ranks, checks every value it receives against what its sender must
// have sent (payloads are made from the sender's rank), and throws
// std::runtime_error naming the line on the first mismatch, which ends the
// job with a non-zero status.
#pragma once

#include <array>
#include <cstdio>
#include <atomic>
#include <complex>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "pure/pure.hpp"

namespace cxx_checks {

// Printed as well as thrown: a failed check inside a window's epoch unwinds
// through the window's collective free, which other ranks may never reach.
#define CXX_CHECK(cond)                                                                  \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      const std::string what = std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                               ": check failed: " #cond;                                 \
      std::fprintf(stderr, "%s\n", what.c_str());                                        \
      throw std::runtime_error(what);                                                    \
    }                                                                                    \
  } while (0)

// A struct with padding between and after its members.
struct Particle {
  double x = 0, y = 0;
  char kind = 0;
  std::int64_t id = 0;
  short charge = 0;
  bool operator==(const Particle&) const = default;
};

// 2x2 integer matrices modulo a prime: a non-commutative product.
struct Mat {
  std::int64_t a = 1, b = 0, c = 0, d = 1;
  bool operator==(const Mat&) const = default;
};

enum class Colour : std::uint8_t { red = 1, green = 2, blue = 3 };

}  // namespace cxx_checks

PURE_LAYOUT(cxx_checks::Particle, x, y, kind, id, charge);
PURE_LAYOUT(cxx_checks::Mat, a, b, c, d);

namespace cxx_checks {

inline constexpr std::int64_t kPrime = 1000003;

inline Mat multiply(const Mat& l, const Mat& r) {
  return {(l.a * r.a + l.b * r.c) % kPrime, (l.a * r.b + l.b * r.d) % kPrime,
          (l.c * r.a + l.d * r.c) % kPrime, (l.c * r.b + l.d * r.d) % kPrime};
}
inline Mat matrix_of(int rank) { return {rank + 2, 1, rank % 3, 1}; }
inline Particle particle_of(int rank) {
  return {rank * 1.5, -rank * 0.25, static_cast<char>('a' + rank % 26), 1000000000000LL + rank,
          static_cast<short>(-rank)};
}

inline int next(const pure::communicator& c) { return (c.rank() + 1) % c.size(); }
inline int prev(const pure::communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }

// Scalars of every deduced kind around a ring, with their statuses.
inline void deduced_types() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  const int from = prev(world);
  world.send(me * 3, next(world), 1);
  world.send(me + 0.5, next(world), 2);
  world.send(std::complex<double>(me, -me), next(world), 3);
  world.send(Colour::blue, next(world), 4);
  world.send(std::pair<double, int>(me * 2.0, me), next(world), 5);
  world.send(std::tuple<int, double, char>(me, me / 4.0, 'q'), next(world), 6);
  world.send(particle_of(me), next(world), 7);
  const std::vector<std::array<int, 3>> triples{{me, me + 1, me + 2}, {-me, 0, 7}};
  world.send(triples, next(world), 8);
  world.send(true, next(world), 9);

  pure::status s;
  CXX_CHECK(world.recv<int>(from, 1, &s) == from * 3);
  CXX_CHECK(s.source() == from && s.tag() == 1 && s.count() == 1);
  CXX_CHECK(world.recv<double>(from, 2) == from + 0.5);
  CXX_CHECK((world.recv<std::complex<double>>(from, 3) == std::complex<double>(from, -from)));
  CXX_CHECK(world.recv<Colour>(from, 4) == Colour::blue);
  CXX_CHECK((world.recv<std::pair<double, int>>(from, 5) == std::pair<double, int>(from * 2.0, from)));
  CXX_CHECK((world.recv<std::tuple<int, double, char>>(from, 6) ==
             std::tuple<int, double, char>(from, from / 4.0, 'q')));
  CXX_CHECK(world.recv<Particle>(from, 7, &s) == particle_of(from));
  CXX_CHECK(s.count() == 1 && s.count<std::byte>() == 8 + 8 + 1 + 8 + 2);
  std::vector<std::array<int, 3>> got;
  s = world.recv(got, from, 8);
  CXX_CHECK(got.size() == 2 && s.count() == 2);
  CXX_CHECK((got[0] == std::array<int, 3>{from, from + 1, from + 2}));
  CXX_CHECK((got[1] == std::array<int, 3>{-from, 0, 7}));
  CXX_CHECK(world.recv<bool>(from, 9));
}

// Receives into vectors and strings sized by a matched probe, with wildcards:
// rank 0 takes one message from every other rank in whatever order they come.
inline void sized_by_probe() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  if (me != 0) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(me * 100 + 1));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = me * 1000000 + static_cast<std::int64_t>(i);
    world.send(v, 0, me);
    world.send(std::string(static_cast<std::size_t>(me), static_cast<char>('A' + me % 26)), 0, 0);
    world.barrier();  // no rank's next check sends while rank 0 receives with wildcards
    return;
  }
  std::vector<bool> seen(static_cast<std::size_t>(world.size()), false);
  for (int k = 1; k < world.size(); ++k) {
    std::vector<std::int64_t> v;
    const pure::status s = world.recv(v, pure::any_source, pure::any_tag);
    const int src = s.source();
    CXX_CHECK(src > 0 && src < world.size() && !seen[static_cast<std::size_t>(src)]);
    seen[static_cast<std::size_t>(src)] = true;
    CXX_CHECK(s.tag() == src);
    CXX_CHECK(v.size() == static_cast<std::size_t>(src * 100 + 1));
    CXX_CHECK(s.count() == static_cast<long long>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
      CXX_CHECK(v[i] == src * 1000000 + static_cast<std::int64_t>(i));
    std::string text = "overwritten";
    world.recv(text, src, 0);
    CXX_CHECK(text == std::string(static_cast<std::size_t>(src), static_cast<char>('A' + src % 26)));
  }
  world.barrier();
}

// Nonblocking messages, request pools, wait_any / wait_some, test, cancel.
inline void requests() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  const int p = world.size();
  std::vector<std::vector<int>> in(static_cast<std::size_t>(p), std::vector<int>(16));
  std::vector<std::vector<int>> out(static_cast<std::size_t>(p));
  pure::request_pool pool;
  for (int r = 0; r < p; ++r) pool.push(world.irecv(in[static_cast<std::size_t>(r)], r, 11));
  for (int r = 0; r < p; ++r) {
    auto& o = out[static_cast<std::size_t>(r)];
    for (int i = 0; i < 16; ++i) o.push_back(me * 100 + r * 10 + i);
    pool.push(world.isend(o, r, 11));
  }
  const std::vector<pure::status> st = pool.wait_all_statuses();
  CXX_CHECK(st.size() == static_cast<std::size_t>(2 * p));
  for (int r = 0; r < p; ++r) {
    CXX_CHECK(st[static_cast<std::size_t>(r)].source() == r);
    CXX_CHECK(st[static_cast<std::size_t>(r)].count() == 16);
    for (int i = 0; i < 16; ++i) CXX_CHECK(in[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)] == r * 100 + me * 10 + i);
  }
  for (std::size_t i = 0; i < pool.size(); ++i) CXX_CHECK(!pool[i].active());
  pool.clear();

  // wait_any and wait_some over receives from the neighbours.
  std::array<double, 2> a{}, b{};
  std::array<pure::request, 2> two{world.irecv(a, prev(world), 12), world.irecv(b, next(world), 13)};
  const std::array<double, 2> to_next{me + 0.25, 1.0}, to_prev{me + 0.75, 2.0};
  world.send(to_next, next(world), 12);
  world.send(to_prev, prev(world), 13);
  auto [first, s1] = pure::wait_any(two);
  CXX_CHECK(first < 2 && !two[first].active());
  auto rest = pure::wait_some(two);
  CXX_CHECK(rest.size() == 1 && rest[0].first == 1 - first);
  CXX_CHECK(pure::wait_any(two).first == 2);  // none active
  CXX_CHECK(a[0] == prev(world) + 0.25 && b[0] == next(world) + 0.75);

  // wait_all without statuses, over an array.
  std::int64_t echo = -1;
  const std::int64_t sent = me * 1000 + 5;
  std::array<pure::request, 2> both{world.irecv(echo, me, 16), world.isend(sent, me, 16)};
  pure::wait_all(both);
  CXX_CHECK(echo == sent && !both[0].active() && !both[1].active());

  // test until done; cancel a receive nobody sends to.
  int token = -1;
  pure::request r = world.irecv(token, me, 14);
  CXX_CHECK(!r.test().has_value());
  world.send(me * 7, me, 14);
  std::optional<pure::status> done;
  while (!(done = r.test())) {
  }
  CXX_CHECK(token == me * 7 && done->source() == me && !r.active());
  int never = 0;
  pure::request c = world.irecv(never, me, 15);
  c.cancel();
  CXX_CHECK(c.wait().cancelled());
}

// Split, dup and their RAII: an object that owns its communicator frees it.
inline void communicators() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  PURE_Comm freed = PURE_COMM_NULL;
  {
    pure::communicator halves = world.split(me % 2, -me);
    CXX_CHECK(halves && halves.size() == (world.size() + 1 - me % 2) / 2);
    // Keys -me: ranks in reverse order.
    CXX_CHECK(halves.rank() == halves.size() - 1 - me / 2);
    const int sum = halves.allreduce(me, std::plus<>{});
    int expect = 0;
    for (int r = me % 2; r < world.size(); r += 2) expect += r;
    CXX_CHECK(sum == expect);
    pure::communicator copy = halves.dup();
    CXX_CHECK(copy.size() == halves.size() && copy.rank() == halves.rank());
    pure::communicator moved = std::move(copy);
    CXX_CHECK(!copy && moved);
    freed = moved.native();
    moved.barrier();
  }
  // The freed handle names nothing now: the flat call says so (as an
  // error code, world's handler set to return it).
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN);
  int size = 0;
  CXX_CHECK(pure_comm_size(freed, &size) == PURE_ERR_COMM);
  pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_ARE_FATAL);
  pure::communicator none = world.split(me == 0 ? 0 : pure::undefined);
  CXX_CHECK(static_cast<bool>(none) == (me == 0));
  { auto w = pure::communicator::world(); }  // never frees the world
  CXX_CHECK(world.size() > 1);
  world.barrier();
}

// Predefined operators take MPI's predefined ops; lambdas become user ops,
// a non-commutative one combining in rank order.
inline void reductions() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  const int p = world.size();
  CXX_CHECK(world.allreduce(me + 1, std::plus<>{}) == p * (p + 1) / 2);
  CXX_CHECK(world.allreduce(me + 1.0, std::multiplies<>{}) > 0);
  CXX_CHECK(world.allreduce(me, pure::max{}) == p - 1);
  CXX_CHECK(world.allreduce(-me * 1.5, pure::min{}) == -(p - 1) * 1.5);
  const auto loc = world.allreduce(std::pair<double, int>(me == p / 2 ? -1.0 : me, me), pure::minloc{});
  CXX_CHECK(loc.first == -1.0 && loc.second == p / 2);
  const auto hi = world.allreduce(std::pair<double, int>(1.0, me), pure::maxloc{});
  CXX_CHECK(hi.first == 1.0 && hi.second == 0);  // ties: the least index
  CXX_CHECK(world.allreduce(1u << (me % 32), std::bit_or<>{}) != 0);
  CXX_CHECK(world.allreduce(me != p, std::logical_and<>{}));
  CXX_CHECK(world.reduce(me, std::plus<>{}, p - 1) == (me == p - 1 ? p * (p - 1) / 2 : 0));

  // Element-wise over vectors, into another vector and in place.
  std::vector<std::int64_t> v{me, 2 * me, 1};
  std::vector<std::int64_t> sum(3);
  world.allreduce(v, sum, std::plus<>{});
  CXX_CHECK(sum[0] == p * (p - 1) / 2 && sum[1] == p * (p - 1) && sum[2] == p);
  world.allreduce_in_place(v, pure::max{});
  CXX_CHECK(v[0] == p - 1 && v[2] == 1);

  // A struct with a lambda (commutative, declared so) and a capturing lambda.
  const Particle mine = particle_of(me);
  const Particle total = world.allreduce(
      mine, pure::commutative([](const Particle& l, const Particle& r) {
        Particle s = l;
        s.x += r.x;
        s.id += r.id;
        return s;
      }));
  CXX_CHECK(total.x == 1.5 * p * (p - 1) / 2);
  const std::int64_t modulus = 7 + p % 2;  // a run-time value: captured
  const std::int64_t mod_sum =
      world.allreduce(std::int64_t{me}, [modulus](std::int64_t l, std::int64_t r) { return (l + r) % modulus; });
  CXX_CHECK(mod_sum == (static_cast<std::int64_t>(p) * (p - 1) / 2) % modulus);

  // Non-commutative: the ordered product M0 * M1 * ... * Mp-1.
  Mat expect;
  for (int r = 0; r < p; ++r) expect = multiply(expect, matrix_of(r));
  const auto product = [](const Mat& l, const Mat& r) { return multiply(l, r); };
  CXX_CHECK(world.allreduce(matrix_of(me), product) == expect);
  CXX_CHECK(world.reduce(matrix_of(me), product, 0) == (me == 0 ? expect : Mat{}));
  Mat prefix;
  for (int r = 0; r <= me; ++r) prefix = multiply(prefix, matrix_of(r));
  CXX_CHECK(world.scan(matrix_of(me), product) == prefix);
  Mat before;
  for (int r = 0; r < me; ++r) before = multiply(before, matrix_of(r));
  CXX_CHECK(world.exscan(matrix_of(me), product) == (me == 0 ? Mat{} : before));
  CXX_CHECK(world.exscan(me + 1, std::plus<>{}) == me * (me + 1) / 2);

  // Nonblocking, with the user operator kept alive by the request.
  std::vector<Mat> in{matrix_of(me), matrix_of(me + 1)}, out(2);
  pure::request r = world.iallreduce(in, out, product);
  r.wait();
  Mat second;
  for (int k = 0; k < p; ++k) second = multiply(second, matrix_of(k + 1));
  CXX_CHECK(out[0] == expect && out[1] == second);
}

// Data movement collectives into vectors.
inline void collectives() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  const int p = world.size();
  const int root = p - 1;
  std::vector<int> data;
  if (me == root) data = {5, 6, 7, 8, 9};
  world.bcast(data, root);
  CXX_CHECK((data == std::vector<int>{5, 6, 7, 8, 9}));
  std::string word = me == root ? "broadcast" : "";
  world.bcast(word, root);
  CXX_CHECK(word == "broadcast");
  double x = me == root ? 2.5 : 0.0;
  world.bcast(x, root);
  CXX_CHECK(x == 2.5);

  const std::vector<Particle> g = world.gather(particle_of(me), 0);
  CXX_CHECK(g.size() == (me == 0 ? static_cast<std::size_t>(p) : 0u));
  for (std::size_t r = 0; r < g.size(); ++r) CXX_CHECK(g[r] == particle_of(static_cast<int>(r)));
  const std::array<int, 2> pair{me, -me};
  const std::vector<int> all = world.allgather(pair);
  CXX_CHECK(all.size() == static_cast<std::size_t>(2 * p));
  for (int r = 0; r < p; ++r) CXX_CHECK(all[static_cast<std::size_t>(2 * r)] == r && all[static_cast<std::size_t>(2 * r + 1)] == -r);

  std::vector<std::int64_t> source;
  if (me == 0)
    for (int r = 0; r < p; ++r) source.push_back(r * 11);
  CXX_CHECK(world.scatter(source, 0) == me * 11);
  std::vector<std::int64_t> wide;
  if (me == 0)
    for (int i = 0; i < 3 * p; ++i) wide.push_back(i);
  std::array<std::int64_t, 3> mine{};
  world.scatter(wide, mine, 0);
  CXX_CHECK(mine[0] == 3 * me && mine[2] == 3 * me + 2);

  std::vector<int> to_each;
  for (int r = 0; r < p; ++r) to_each.insert(to_each.end(), {me * 100 + r, -r});
  const std::vector<int> from_each = world.alltoall(to_each);
  for (int r = 0; r < p; ++r) {
    CXX_CHECK(from_each[static_cast<std::size_t>(2 * r)] == r * 100 + me);
    CXX_CHECK(from_each[static_cast<std::size_t>(2 * r + 1)] == -me);
  }
  // Rank me sends (me + r) % 3 values to rank r, some of them none.
  std::vector<std::vector<double>> send(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < (me + r) % 3; ++i) send[static_cast<std::size_t>(r)].push_back(me + r / 100.0 + i);
  const auto got = world.alltoallv(send);
  CXX_CHECK(got.size() == static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const auto& v = got[static_cast<std::size_t>(r)];
    CXX_CHECK(v.size() == static_cast<std::size_t>((r + me) % 3));
    for (std::size_t i = 0; i < v.size(); ++i) CXX_CHECK(v[i] == r + me / 100.0 + static_cast<double>(i));
  }
  pure::request b = world.ibarrier();
  b.wait();
}

// Errors are pure::error exceptions with the class, the call and the rank,
// whatever the communicator's handler; the rank goes on after catching one.
inline void errors() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  try {
    world.send(1, world.size(), 0);
    CXX_CHECK(false);
  } catch (const pure::error& e) {
    CXX_CHECK(e.error_class() == PURE_ERR_RANK);
    CXX_CHECK(e.rank() == me);
    CXX_CHECK(e.call() == "pure_send");
    CXX_CHECK(std::string(e.what()).find("pure_send") != std::string::npos);
    CXX_CHECK(std::string(e.what()).find("rank " + std::to_string(me)) != std::string::npos);
  }
  // A message longer than a fixed buffer: truncation, from the receive.
  const std::array<int, 4> four{1, 2, 3, 4};
  world.send(four, me, 21);
  std::array<int, 2> two{};
  try {
    world.recv(two, me, 21);
    CXX_CHECK(false);
  } catch (const pure::error& e) {
    CXX_CHECK(e.error_class() == PURE_ERR_TRUNCATE && e.rank() == me);
  }
  // Typed checks of the API's own: buffers of different lengths.
  std::vector<int> in(3), out(2);
  try {
    world.allreduce(in, out, std::plus<>{});
    CXX_CHECK(false);
  } catch (const std::runtime_error& e) {  // pure::error is one
    CXX_CHECK(std::string(e.what()).find("pure_allreduce") != std::string::npos);
  }
  world.barrier();
}

// One-sided: a window of T's, fence epochs and scoped lock epochs.
inline void one_sided() {
  auto world = pure::communicator::world();
  const int me = world.rank();
  const int p = world.size();
  pure::window<std::int64_t> win(world, 8);
  for (std::int64_t v : win.local()) CXX_CHECK(v == 0);
  // Fence epoch: every rank puts 3 values into its right neighbour at 2..4,
  // and gets its left neighbour's element 0 (its own rank, written first).
  win.local()[0] = me;
  win.fence();
  const std::array<std::int64_t, 3> row{me * 10, me * 10 + 1, me * 10 + 2};
  win.put(row, next(world), 2);
  std::int64_t left0 = -1;
  win.get(left0, prev(world), 0);
  win.fence();
  CXX_CHECK(left0 == prev(world));
  for (int i = 0; i < 3; ++i) CXX_CHECK(win.local()[static_cast<std::size_t>(2 + i)] == prev(world) * 10 + i);

  // Lock epochs on rank 0: every rank adds, fetches and swaps there.
  {
    auto epoch = win.lock(0);
    win.accumulate(std::int64_t{me + 1}, 0, 5, std::plus<>{});
    epoch.flush();
    win.fetch_and_op(std::int64_t{1}, 0, 6, std::plus<>{});
  }
  world.barrier();
  {
    auto epoch = win.lock(0, pure::lock_kind::shared);
    std::array<std::int64_t, 2> got{};
    win.get(got, 0, 5);
    epoch.release();
    CXX_CHECK(got[0] == static_cast<std::int64_t>(p) * (p + 1) / 2 && got[1] == p);
  }
  world.barrier();
  // Compare-and-swap on the next rank's element 7: the first succeeds (it
  // was 0), the second, expecting 0 again, fails and returns what the
  // first wrote.
  {
    auto epoch = win.lock(next(world));
    CXX_CHECK(win.compare_and_swap(std::int64_t{me + 100}, 0, next(world), 7) == 0);
    CXX_CHECK(win.compare_and_swap(std::int64_t{-1}, 0, next(world), 7) == me + 100);
  }
  world.barrier();
  CXX_CHECK(win.local()[7] == prev(world) + 100);
  // Exactly one rank wins a contest on rank 0's element 1, from 0.
  std::int64_t won = 0;
  {
    auto epoch = win.lock_all();
    won = win.compare_and_swap(std::int64_t{me + 100}, 0, 0, 1) == 0;
  }
  CXX_CHECK(world.allreduce(won, std::plus<>{}) == 1);
  world.barrier();
  {
    auto epoch = win.lock(0);
    win.accumulate(std::int64_t{-5}, 0, 7, pure::replace{});
  }
  world.barrier();
  if (me == 0) CXX_CHECK(win.local()[7] == -5);
  world.barrier();
}

// PGAS: symmetric arrays, puts and gets of values and spans, the atomics as
// fetch_and_op, wait_until, and a scoped distributed lock.
inline void symmetric_heap() {
  struct Cell {
    std::int64_t count;
    double sum;
  };
  const int me = pure::communicator::world().rank();
  const int p = pure::communicator::world().size();
  pure::symmetric<Cell> cells(2);
  pure::symmetric<std::int32_t> ticket;
  pure::symmetric<std::int64_t> row(4);
  pure::symmetric<std::uint64_t> bits;
  pure::symmetric_lock lock;
  for (const Cell& c : cells.local()) CXX_CHECK(c.count == 0 && c.sum == 0.0);
  CXX_CHECK(row.size() == 4 && row[3] == 0);
  pure::barrier_all();  // every rank checked its zeros before anyone writes

  // A read-modify-write of rank 0's cell under the lock, 10 times per rank.
  for (int i = 0; i < 10; ++i) {
    auto held = lock.hold();
    Cell c = cells.get(0, 1);
    c.count += 1;
    c.sum += 0.5;
    cells.put(c, 0, 1);
    pure::quiet();
  }
  CXX_CHECK(ticket.fetch_and_op(1, 0, 0, std::plus<>{}) < p);
  bits.fetch_and_op(std::uint64_t{1} << me, 0, 0, std::bit_or<>{});
  // A row to the right neighbour's elements 1..3; the last element is the
  // flag its receiver waits on (puts to one PE arrive in order after
  // pure_fence, and the flag is written last).
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  const std::array<std::int64_t, 2> values{me * 10, me * 10 + 1};
  row.put(std::span(values), right, 1);
  pure_fence();
  row.put(std::int64_t{me + 1}, right, 3);
  row.wait_until(3, pure::compare::ne, 0);
  CXX_CHECK(row[1] == left * 10 && row[2] == left * 10 + 1 && row[3] == left + 1);
  std::array<std::int64_t, 2> back{};
  row.get(back, right, 1);
  CXX_CHECK(back[0] == me * 10 && back[1] == me * 10 + 1);
  pure::barrier_all();
  if (me == 0) {
    CXX_CHECK(cells[1].count == 10 * p && cells[1].sum == 5.0 * p);
    CXX_CHECK(ticket.fetch(0, 0) == p);
    CXX_CHECK(bits[0] == (p >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p) - 1));
    CXX_CHECK(ticket.fetch_and_op(-1, 0, 0, pure::replace{}) == p);
    CXX_CHECK(ticket.compare_and_swap(7, -1, 0, 0) == -1);
    CXX_CHECK(ticket.compare_and_swap(8, -1, 0, 0) == 7);
  }
  // try_hold: while rank 0 holds the lock, nobody else gets it.
  std::optional<pure::symmetric_lock::held> held;
  if (me == 0) held.emplace(lock.hold());
  pure::barrier_all();
  if (me != 0) CXX_CHECK(!lock.try_hold().has_value());
  pure::barrier_all();
  if (me == 0) held->release();
  pure::barrier_all();
}

// Tasks over an index range: every index once, per index and per run.
inline void tasks() {
  const std::int64_t n = 1000;
  std::vector<std::int64_t> hits(static_cast<std::size_t>(n), 0);
  pure::parallel_for<std::int64_t>(pure::index_range{0, n}, [&](std::int64_t i) { hits[static_cast<std::size_t>(i)] += 1; });
  std::atomic<std::int64_t> runs{0}, covered{0};
  pure::parallel_for<std::int64_t>(pure::index_range{10, n}, [&](pure::index_range r) {
    CXX_CHECK(r.begin >= 10 && r.end <= n && r.size() > 0);
    for (std::int64_t i = r.begin; i < r.end; ++i) hits[static_cast<std::size_t>(i)] += 2;
    runs.fetch_add(1);
    covered.fetch_add(r.size());
  });
  CXX_CHECK(covered.load() == n - 10 && runs.load() >= 1);
  for (std::int64_t i = 0; i < n; ++i) CXX_CHECK(hits[static_cast<std::size_t>(i)] == (i < 10 ? 1 : 3));
}

}  // namespace cxx_checks
