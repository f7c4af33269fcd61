// The neighbourhood collectives in every form -- blocking, nonblocking
// (pure_ineighbor_X), persistent (pure_neighbor_X_init, run twice) and the
// large-count (_c) twin of each -- on Cartesian grids (periodic dimensions
// of one and two ranks included, where a rank is a neighbour twice) and on
// a graph with repeated edges, at 2 to 16 rank threads; several in flight
// at once on one communicator, completed in reverse order. Every block is
// checked against the neighbour it comes from. (The topologies themselves:
// topology_test.cpp.)
#include <functional>
#include <string>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

std::size_t at(long long i) { return static_cast<std::size_t>(i); }

enum class Form { blocking, blocking_c, nonblocking, nonblocking_c, persistent, persistent_c };
const Form kForms[] = {Form::blocking,      Form::blocking_c, Form::nonblocking,
                       Form::nonblocking_c, Form::persistent, Form::persistent_c};
const char* name(Form f) {
  switch (f) {
    case Form::blocking:
      return "blocking";
    case Form::blocking_c:
      return "blocking _c";
    case Form::nonblocking:
      return "nonblocking";
    case Form::nonblocking_c:
      return "nonblocking _c";
    case Form::persistent:
      return "persistent";
    case Form::persistent_c:
      return "persistent _c";
  }
  return "";
}
bool persistent(Form f) { return f == Form::persistent || f == Form::persistent_c; }

// Completes the request a call of form `f` made (none for the blocking forms).
void complete(Form f, PURE_Request r, const std::function<void()>& reset) {
  if (f == Form::blocking || f == Form::blocking_c) return;
  complete_request(persistent(f), r, reset);
}

std::vector<PURE_Count> counts_c(const std::vector<int>& v) {
  return std::vector<PURE_Count>(v.begin(), v.end());
}
std::vector<PURE_Aint> aints(const std::vector<int>& v) {
  return std::vector<PURE_Aint>(v.begin(), v.end());
}

void allgather(Form f, const int* out, int* in, PURE_Comm comm,
               const std::function<void()>& reset) {
  PURE_Request r = PURE_REQUEST_NULL;
  const PURE_Datatype I = PURE_INT;
  reset();
  switch (f) {
    case Form::blocking:
      EXPECT_PURE_OK(pure_neighbor_allgather(out, 1, I, in, 1, I, comm));
      break;
    case Form::blocking_c:
      EXPECT_PURE_OK(pure_neighbor_allgather_c(out, 1, I, in, 1, I, comm));
      break;
    case Form::nonblocking:
      EXPECT_PURE_OK(pure_ineighbor_allgather(out, 1, I, in, 1, I, comm, &r));
      break;
    case Form::nonblocking_c:
      EXPECT_PURE_OK(pure_ineighbor_allgather_c(out, 1, I, in, 1, I, comm, &r));
      break;
    case Form::persistent:
      EXPECT_PURE_OK(pure_neighbor_allgather_init(out, 1, I, in, 1, I, comm, PURE_INFO_NULL, &r));
      break;
    case Form::persistent_c:
      EXPECT_PURE_OK(pure_neighbor_allgather_init_c(out, 1, I, in, 1, I, comm, PURE_INFO_NULL, &r));
      break;
  }
  complete(f, r, reset);
}

void alltoall(Form f, const int* out, int* in, PURE_Comm comm, const std::function<void()>& reset) {
  PURE_Request r = PURE_REQUEST_NULL;
  const PURE_Datatype I = PURE_INT;
  reset();
  switch (f) {
    case Form::blocking:
      EXPECT_PURE_OK(pure_neighbor_alltoall(out, 1, I, in, 1, I, comm));
      break;
    case Form::blocking_c:
      EXPECT_PURE_OK(pure_neighbor_alltoall_c(out, 1, I, in, 1, I, comm));
      break;
    case Form::nonblocking:
      EXPECT_PURE_OK(pure_ineighbor_alltoall(out, 1, I, in, 1, I, comm, &r));
      break;
    case Form::nonblocking_c:
      EXPECT_PURE_OK(pure_ineighbor_alltoall_c(out, 1, I, in, 1, I, comm, &r));
      break;
    case Form::persistent:
      EXPECT_PURE_OK(pure_neighbor_alltoall_init(out, 1, I, in, 1, I, comm, PURE_INFO_NULL, &r));
      break;
    case Form::persistent_c:
      EXPECT_PURE_OK(pure_neighbor_alltoall_init_c(out, 1, I, in, 1, I, comm, PURE_INFO_NULL, &r));
      break;
  }
  complete(f, r, reset);
}

void allgatherv(Form f, const int* out, int n, int* in, const std::vector<int>& counts,
                const std::vector<int>& displs, PURE_Comm comm,
                const std::function<void()>& reset) {
  PURE_Request r = PURE_REQUEST_NULL;
  const PURE_Datatype I = PURE_INT;
  const std::vector<PURE_Count> cc = counts_c(counts);
  const std::vector<PURE_Aint> dc = aints(displs);
  reset();
  switch (f) {
    case Form::blocking:
      EXPECT_PURE_OK(
          pure_neighbor_allgatherv(out, n, I, in, counts.data(), displs.data(), I, comm));
      break;
    case Form::blocking_c:
      EXPECT_PURE_OK(pure_neighbor_allgatherv_c(out, n, I, in, cc.data(), dc.data(), I, comm));
      break;
    case Form::nonblocking:
      EXPECT_PURE_OK(
          pure_ineighbor_allgatherv(out, n, I, in, counts.data(), displs.data(), I, comm, &r));
      break;
    case Form::nonblocking_c:
      EXPECT_PURE_OK(pure_ineighbor_allgatherv_c(out, n, I, in, cc.data(), dc.data(), I, comm, &r));
      break;
    case Form::persistent:
      EXPECT_PURE_OK(pure_neighbor_allgatherv_init(out, n, I, in, counts.data(), displs.data(), I,
                                                   comm, PURE_INFO_NULL, &r));
      break;
    case Form::persistent_c:
      EXPECT_PURE_OK(pure_neighbor_allgatherv_init_c(out, n, I, in, cc.data(), dc.data(), I, comm,
                                                     PURE_INFO_NULL, &r));
      break;
  }
  complete(f, r, reset);
}

void alltoallv(Form f, const int* out, const std::vector<int>& sc, const std::vector<int>& sd,
               int* in, const std::vector<int>& rc, const std::vector<int>& rd, PURE_Comm comm,
               const std::function<void()>& reset) {
  PURE_Request r = PURE_REQUEST_NULL;
  const PURE_Datatype I = PURE_INT;
  const std::vector<PURE_Count> scc = counts_c(sc), rcc = counts_c(rc);
  const std::vector<PURE_Aint> sdc = aints(sd), rdc = aints(rd);
  reset();
  switch (f) {
    case Form::blocking:
      EXPECT_PURE_OK(
          pure_neighbor_alltoallv(out, sc.data(), sd.data(), I, in, rc.data(), rd.data(), I, comm));
      break;
    case Form::blocking_c:
      EXPECT_PURE_OK(pure_neighbor_alltoallv_c(out, scc.data(), sdc.data(), I, in, rcc.data(),
                                               rdc.data(), I, comm));
      break;
    case Form::nonblocking:
      EXPECT_PURE_OK(pure_ineighbor_alltoallv(out, sc.data(), sd.data(), I, in, rc.data(),
                                              rd.data(), I, comm, &r));
      break;
    case Form::nonblocking_c:
      EXPECT_PURE_OK(pure_ineighbor_alltoallv_c(out, scc.data(), sdc.data(), I, in, rcc.data(),
                                                rdc.data(), I, comm, &r));
      break;
    case Form::persistent:
      EXPECT_PURE_OK(pure_neighbor_alltoallv_init(out, sc.data(), sd.data(), I, in, rc.data(),
                                                  rd.data(), I, comm, PURE_INFO_NULL, &r));
      break;
    case Form::persistent_c:
      EXPECT_PURE_OK(pure_neighbor_alltoallv_init_c(out, scc.data(), sdc.data(), I, in, rcc.data(),
                                                    rdc.data(), I, comm, PURE_INFO_NULL, &r));
      break;
  }
  complete(f, r, reset);
}

// Displacements in bytes, a type per block.
void alltoallw(Form f, const int* out, const std::vector<int>& sc, const std::vector<PURE_Aint>& sd,
               int* in, const std::vector<int>& rc, const std::vector<PURE_Aint>& rd,
               PURE_Comm comm, const std::function<void()>& reset) {
  PURE_Request r = PURE_REQUEST_NULL;
  const std::vector<PURE_Datatype> st(sc.size(), PURE_INT), rt(rc.size(), PURE_INT);
  const std::vector<PURE_Count> scc = counts_c(sc), rcc = counts_c(rc);
  reset();
  switch (f) {
    case Form::blocking:
      EXPECT_PURE_OK(pure_neighbor_alltoallw(out, sc.data(), sd.data(), st.data(), in, rc.data(),
                                             rd.data(), rt.data(), comm));
      break;
    case Form::blocking_c:
      EXPECT_PURE_OK(pure_neighbor_alltoallw_c(out, scc.data(), sd.data(), st.data(), in,
                                               rcc.data(), rd.data(), rt.data(), comm));
      break;
    case Form::nonblocking:
      EXPECT_PURE_OK(pure_ineighbor_alltoallw(out, sc.data(), sd.data(), st.data(), in, rc.data(),
                                              rd.data(), rt.data(), comm, &r));
      break;
    case Form::nonblocking_c:
      EXPECT_PURE_OK(pure_ineighbor_alltoallw_c(out, scc.data(), sd.data(), st.data(), in,
                                                rcc.data(), rd.data(), rt.data(), comm, &r));
      break;
    case Form::persistent:
      EXPECT_PURE_OK(pure_neighbor_alltoallw_init(out, sc.data(), sd.data(), st.data(), in,
                                                  rc.data(), rd.data(), rt.data(), comm,
                                                  PURE_INFO_NULL, &r));
      break;
    case Form::persistent_c:
      EXPECT_PURE_OK(pure_neighbor_alltoallw_init_c(out, scc.data(), sd.data(), st.data(), in,
                                                    rcc.data(), rd.data(), rt.data(), comm,
                                                    PURE_INFO_NULL, &r));
      break;
  }
  complete(f, r, reset);
}

// On a grid: block j goes towards neighbour j (per dimension, behind then
// ahead), and what a neighbour sends towards this rank is its block for the
// opposite direction (j ^ 1). PURE_PROC_NULL slots stay untouched.
void check_grid(Form f, PURE_Comm cart, int rank, int ndims) {
  SCOPED_TRACE(name(f));
  std::vector<int> nbr;
  for (int d = 0; d < ndims; ++d) {
    int s, t;
    EXPECT_PURE_OK(pure_cart_shift(cart, d, 1, &s, &t));
    nbr.push_back(s);
    nbr.push_back(t);
  }
  const int k = 2 * ndims;
  auto from = [&](int i, int value) { return nbr[at(i)] == PURE_PROC_NULL ? -1 : value; };
  std::vector<int> got(at(k));
  allgather(f, &rank, got.data(), cart, [&] { std::fill(got.begin(), got.end(), -1); });
  for (int i = 0; i < k; ++i) EXPECT_EQ(got[at(i)], from(i, nbr[at(i)])) << "allgather slot " << i;

  std::vector<int> out(at(k)), in(at(k));
  for (int j = 0; j < k; ++j) out[at(j)] = rank * 100 + j;
  alltoall(f, out.data(), in.data(), cart, [&] { std::fill(in.begin(), in.end(), -1); });
  for (int i = 0; i < k; ++i)
    EXPECT_EQ(in[at(i)], from(i, nbr[at(i)] * 100 + (i ^ 1))) << "alltoall slot " << i;

  // v and w: block j has j + 1 items, received with a gap of one before it.
  std::vector<int> sc(at(k)), sd(at(k)), rc(at(k)), rd(at(k));
  int st = 0, rt = 0;
  for (int j = 0; j < k; ++j) {
    sc[at(j)] = j + 1;
    sd[at(j)] = st;
    st += j + 1;
    rc[at(j)] = (j ^ 1) + 1;
    rd[at(j)] = rt + 1;
    rt += (j ^ 1) + 2;
  }
  std::vector<int> vout(at(st)), vin(at(rt));
  for (int j = 0; j < k; ++j)
    for (int i = 0; i <= j; ++i) vout[at(sd[at(j)] + i)] = rank * 1000 + j * 10 + i;
  auto clear_vin = [&] { std::fill(vin.begin(), vin.end(), -1); };
  auto check_v = [&](const char* what) {
    for (int i = 0; i < k; ++i) {
      EXPECT_EQ(vin[at(rd[at(i)] - 1)], -1) << what << " gap " << i;
      for (int e = 0; e < rc[at(i)]; ++e)
        EXPECT_EQ(vin[at(rd[at(i)] + e)], from(i, nbr[at(i)] * 1000 + (i ^ 1) * 10 + e))
            << what << " slot " << i;
    }
  };
  alltoallv(f, vout.data(), sc, sd, vin.data(), rc, rd, cart, clear_vin);
  check_v("alltoallv");
  std::vector<PURE_Aint> sdb(at(k)), rdb(at(k));
  for (int j = 0; j < k; ++j) {
    sdb[at(j)] = static_cast<PURE_Aint>(sd[at(j)] * sizeof(int));
    rdb[at(j)] = static_cast<PURE_Aint>(rd[at(j)] * sizeof(int));
  }
  alltoallw(f, vout.data(), sc, sdb, vin.data(), rc, rdb, cart, clear_vin);
  check_v("alltoallw");

  // allgatherv: each neighbour's rank, twice, at displacement 3 * i.
  int two[2] = {rank, rank};
  std::vector<int> counts(at(k), 2), displs(at(k)), gv(at(3 * k));
  for (int i = 0; i < k; ++i) displs[at(i)] = 3 * i;
  allgatherv(f, two, 2, gv.data(), counts, displs, cart,
             [&] { std::fill(gv.begin(), gv.end(), -1); });
  for (int i = 0; i < k; ++i) {
    EXPECT_EQ(gv[at(3 * i)], from(i, nbr[at(i)])) << "allgatherv slot " << i;
    EXPECT_EQ(gv[at(3 * i + 1)], from(i, nbr[at(i)])) << "allgatherv slot " << i;
    EXPECT_EQ(gv[at(3 * i + 2)], -1) << "allgatherv gap " << i;
  }
}

class NeighbourForms : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, NeighbourForms, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

TEST_P(NeighbourForms, EveryFormOnGrids) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    int dims[2] = {0, 0};
    EXPECT_PURE_OK(pure_dims_create(size, 2, dims));
    struct Grid {
      std::vector<int> dims, periods;
    };
    // A 2-d grid periodic in one dimension; a ring; a dimension of one rank
    // (everyone its own neighbour twice); a periodic dimension of `size`
    // beside one of one rank.
    const Grid grids[] = {
        {{dims[0], dims[1]}, {1, 0}}, {{size}, {1}}, {{size, 1}, {0, 1}}, {{1, size}, {1, 1}}};
    for (const Grid& g : grids) {
      PURE_Comm cart;
      EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, static_cast<int>(g.dims.size()),
                                      g.dims.data(), g.periods.data(), 0, &cart));
      for (Form f : kForms) check_grid(f, cart, rank, static_cast<int>(g.dims.size()));
      EXPECT_PURE_OK(pure_comm_free(&cart));
    }
  });
}

// A ring as a graph: node r's neighbours are r-1 and r+1 (one node twice
// with two ranks); the k-th edge between two nodes pairs with the k-th edge
// back.
TEST_P(NeighbourForms, GraphWithRepeatedEdges) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    std::vector<int> index, edges;
    for (int r = 0; r < size; ++r) {
      edges.push_back((r + size - 1) % size);
      edges.push_back((r + 1) % size);
      index.push_back(static_cast<int>(edges.size()));
    }
    PURE_Comm graph;
    EXPECT_PURE_OK(pure_graph_create(PURE_COMM_WORLD, size, index.data(), edges.data(), 0, &graph));
    const int nbr[2] = {(rank + size - 1) % size, (rank + 1) % size};
    for (Form f : kForms) {
      SCOPED_TRACE(name(f));
      int out[2] = {rank * 10, rank * 10 + 1}, in[2];
      alltoall(f, out, in, graph, [&] { in[0] = in[1] = -1; });
      for (int i = 0; i < 2; ++i) {
        const int q = nbr[i];
        int seen = 0;
        for (int j = 0; j < i; ++j) seen += nbr[j] == q;
        const int qn[2] = {(q + size - 1) % size, (q + 1) % size};
        int slot = -1;
        for (int j = 0; j < 2; ++j)
          if (qn[j] == rank && seen-- == 0) {
            slot = j;
            break;
          }
        EXPECT_EQ(in[i], q * 10 + slot) << "slot " << i;
      }
      int all[2];
      allgather(f, &rank, all, graph, [&] { all[0] = all[1] = -1; });
      EXPECT_EQ(all[0], nbr[0]);
      EXPECT_EQ(all[1], nbr[1]);
    }
    EXPECT_PURE_OK(pure_comm_free(&graph));
  });
}

// Three nonblocking neighbourhood collectives and a persistent one in flight
// together on one grid with a rank that is its own neighbour twice, with a
// nonblocking allreduce between them; completed in reverse order.
TEST_P(NeighbourForms, SeveralInFlightCompletedInReverseOrder) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    const int dims[2] = {size, 1}, periods[2] = {1, 1};
    PURE_Comm cart;
    EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, 2, dims, periods, 0, &cart));
    int behind, ahead;
    EXPECT_PURE_OK(pure_cart_shift(cart, 0, 1, &behind, &ahead));
    const int nbr[4] = {behind, ahead, rank, rank};
    constexpr int kCalls = 3;
    int out[kCalls][4], in[kCalls][4], pin[4];
    PURE_Request reqs[kCalls + 2], persistent;
    for (int c = 0; c < kCalls; ++c) {
      for (int j = 0; j < 4; ++j) {
        out[c][j] = rank * 1000 + c * 10 + j;
        in[c][j] = -1;
      }
      EXPECT_PURE_OK(
          pure_ineighbor_alltoall(out[c], 1, PURE_INT, in[c], 1, PURE_INT, cart, &reqs[c]));
    }
    long long one = 1, total = 0;
    EXPECT_PURE_OK(pure_iallreduce(&one, &total, 1, PURE_LONG_LONG, PURE_SUM, cart, &reqs[kCalls]));
    EXPECT_PURE_OK(pure_neighbor_alltoall_init(out[0], 1, PURE_INT, pin, 1, PURE_INT, cart,
                                               PURE_INFO_NULL, &persistent));
    std::fill(pin, pin + 4, -1);
    reqs[kCalls + 1] = persistent;
    EXPECT_PURE_OK(pure_start(&reqs[kCalls + 1]));
    for (int c = kCalls + 2; c-- > 0;) EXPECT_PURE_OK(pure_wait(&reqs[c], PURE_STATUS_IGNORE));
    EXPECT_EQ(total, size);
    for (int c = 0; c < kCalls; ++c)
      for (int i = 0; i < 4; ++i)
        EXPECT_EQ(in[c][i], nbr[i] * 1000 + c * 10 + (i ^ 1)) << "call " << c << " slot " << i;
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(pin[i], nbr[i] * 1000 + (i ^ 1)) << "persistent slot " << i;
    EXPECT_PURE_OK(pure_request_free(&reqs[kCalls + 1]));
    EXPECT_PURE_OK(pure_comm_free(&cart));
  });
}

TEST(NeighbourFormsErrors, RefusedArguments) {
  expect_clean_run(2, [](int rank, int) {
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    int x = rank, y[2];
    PURE_Request r;
    // No topology.
    EXPECT_EQ(pure_ineighbor_allgather(&x, 1, PURE_INT, y, 1, PURE_INT, PURE_COMM_WORLD, &r),
              PURE_ERR_TOPOLOGY);
    const int dims[1] = {2}, periods[1] = {1};
    PURE_Comm ring;
    EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, 1, dims, periods, 0, &ring));
    EXPECT_PURE_OK(pure_comm_set_errhandler(ring, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_ineighbor_allgather(&x, 1, PURE_INT, y, 1, PURE_INT, ring, nullptr),
              PURE_ERR_REQUEST);
    EXPECT_EQ(pure_neighbor_alltoall_c(&x, -1, PURE_INT, y, 1, PURE_INT, ring), PURE_ERR_COUNT);
    EXPECT_EQ(pure_neighbor_allgather_init(PURE_IN_PLACE, 1, PURE_INT, y, 1, PURE_INT, ring,
                                           PURE_INFO_NULL, &r),
              PURE_ERR_BUFFER);
    EXPECT_EQ(pure_neighbor_allgather_init(&x, 1, PURE_INT, y, 1, PURE_INT, ring, 12345, &r),
              PURE_ERR_INFO);
    EXPECT_PURE_OK(pure_comm_free(&ring));
  });
}

}  // namespace
}  // namespace pure_testing
