// Process topologies: dims_create's balanced factorisations, Cartesian
// grids (coordinates, shifts with PURE_PROC_NULL at non-periodic edges,
// sub-grids, maps, more ranks than the grid), graphs (with repeated
// edges), distributed graphs (adjacent and general, weighted or not), the
// topology a dup keeps, and the neighbourhood collectives on each kind --
// including periodic dimensions of one and two ranks, where a rank is its
// own neighbour or both its neighbours are one rank. Bad arguments end in
// the error class MPI names.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "harness.h"

namespace pure_testing {
namespace {

class Topologies : public testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Ranks, Topologies, pure_testing::rank_sweep({2, 3, 4, 8, 16}), rank_count_name);

std::size_t at(int i) { return static_cast<std::size_t>(i); }

TEST(DimsCreate, BalancedFactorisations) {
  expect_clean_run(1, [](int, int) {
    struct Case {
      int nnodes;
      std::vector<int> given, expected;
    };
    const Case cases[] = {
        {6, {0, 0}, {3, 2}},
        {16, {0, 0, 0}, {4, 2, 2}},
        {72, {0, 0}, {9, 8}},             // greedy prime placement would give 12 x 6
        {180, {0, 0}, {15, 12}},
        {1323, {0, 0}, {49, 27}},
        {140472, {0, 0, 0}, {1951, 9, 8}},
        {140679, {0, 0, 0}, {77, 63, 29}},
        {1000000000, {0, 0, 0}, {1000, 1000, 1000}},
        {24, {0, 3, 0}, {4, 3, 2}},
        {7, {0, 0}, {7, 1}},
        {1, {0, 0, 0}, {1, 1, 1}},
        {32, {0, 16, 0, 2}, {1, 16, 1, 2}},
        {12, {2, 3, 2}, {2, 3, 2}},
    };
    for (const Case& c : cases) {
      std::vector<int> dims = c.given;
      EXPECT_PURE_OK(pure_dims_create(c.nnodes, static_cast<int>(dims.size()), dims.data()));
      EXPECT_EQ(dims, c.expected) << c.nnodes << " in " << dims.size() << " dimensions";
    }
    EXPECT_PURE_OK(pure_dims_create(1, 0, nullptr));
    EXPECT_PURE_OK(pure_comm_set_errhandler(PURE_COMM_WORLD, PURE_ERRORS_RETURN));
    int bad[2] = {2, 0};
    EXPECT_EQ(pure_dims_create(7, 2, bad), PURE_ERR_DIMS);
    int negative[2] = {-1, 0};
    EXPECT_EQ(pure_dims_create(4, 2, negative), PURE_ERR_DIMS);
    int full[2] = {2, 3};
    EXPECT_EQ(pure_dims_create(7, 2, full), PURE_ERR_DIMS);
    EXPECT_EQ(pure_dims_create(4, -1, full), PURE_ERR_DIMS);
  });
}

TEST_P(Topologies, CartesianGrid) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    int dims[2] = {0, 0};
    EXPECT_PURE_OK(pure_dims_create(size, 2, dims));
    const int periods[2] = {1, 0};
    PURE_Comm cart;
    EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, 2, dims, periods, 1, &cart));
    int status = -1, nd = -1, crank = -1;
    EXPECT_PURE_OK(pure_topo_test(cart, &status));
    EXPECT_EQ(status, PURE_CART);
    EXPECT_PURE_OK(pure_topo_test(PURE_COMM_WORLD, &status));
    EXPECT_EQ(status, PURE_UNDEFINED);
    EXPECT_PURE_OK(pure_cartdim_get(cart, &nd));
    EXPECT_EQ(nd, 2);
    EXPECT_PURE_OK(pure_comm_rank(cart, &crank));
    EXPECT_EQ(crank, rank);  // ranks are kept
    int gd[2], gp[2], gc[2];
    EXPECT_PURE_OK(pure_cart_get(cart, 2, gd, gp, gc));
    EXPECT_EQ(gd[0], dims[0]);
    EXPECT_EQ(gd[1], dims[1]);
    EXPECT_EQ(gp[0], 1);
    EXPECT_EQ(gp[1], 0);
    EXPECT_EQ(gc[0], rank / dims[1]);  // row-major
    EXPECT_EQ(gc[1], rank % dims[1]);
    for (int r = 0; r < size; ++r) {
      int c[2], back = -1;
      EXPECT_PURE_OK(pure_cart_coords(cart, r, 2, c));
      EXPECT_PURE_OK(pure_cart_rank(cart, c, &back));
      EXPECT_EQ(back, r);
    }
    // Periodic in dimension 0: coordinates wrap.
    int wrapped[2] = {gc[0] + dims[0], gc[1]}, w = -1;
    EXPECT_PURE_OK(pure_cart_rank(cart, wrapped, &w));
    EXPECT_EQ(w, rank);
    // Shifts: dimension 0 wraps, dimension 1 ends in PURE_PROC_NULL.
    int src = -1, dst = -1;
    EXPECT_PURE_OK(pure_cart_shift(cart, 0, 1, &src, &dst));
    EXPECT_EQ(src, ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1]);
    EXPECT_EQ(dst, ((gc[0] + 1) % dims[0]) * dims[1] + gc[1]);
    EXPECT_PURE_OK(pure_cart_shift(cart, 1, 1, &src, &dst));
    EXPECT_EQ(src, gc[1] == 0 ? PURE_PROC_NULL : rank - 1);
    EXPECT_EQ(dst, gc[1] == dims[1] - 1 ? PURE_PROC_NULL : rank + 1);
    EXPECT_PURE_OK(pure_cart_shift(cart, 1, -2, &src, &dst));
    EXPECT_EQ(src, gc[1] + 2 >= dims[1] ? PURE_PROC_NULL : rank + 2);
    EXPECT_EQ(dst, gc[1] < 2 ? PURE_PROC_NULL : rank - 2);
    // Sub-grids: the rows (dimension 1 kept) and the columns.
    const int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
    PURE_Comm row, col;
    EXPECT_PURE_OK(pure_cart_sub(cart, keep_row, &row));
    EXPECT_PURE_OK(pure_cart_sub(cart, keep_col, &col));
    int rs = -1, rr = -1, cs = -1, cr = -1;
    EXPECT_PURE_OK(pure_comm_size(row, &rs));
    EXPECT_PURE_OK(pure_comm_rank(row, &rr));
    EXPECT_PURE_OK(pure_comm_size(col, &cs));
    EXPECT_PURE_OK(pure_comm_rank(col, &cr));
    EXPECT_EQ(rs, dims[1]);
    EXPECT_EQ(rr, gc[1]);
    EXPECT_EQ(cs, dims[0]);
    EXPECT_EQ(cr, gc[0]);
    EXPECT_PURE_OK(pure_cartdim_get(row, &nd));
    EXPECT_EQ(nd, 1);
    int sum = -1;
    EXPECT_PURE_OK(pure_allreduce(&rank, &sum, 1, PURE_INT, PURE_SUM, row));
    EXPECT_EQ(sum, gc[0] * dims[1] * dims[1] + dims[1] * (dims[1] - 1) / 2);
    // Nothing kept: a grid of no dimensions, one rank.
    const int none[2] = {0, 0};
    PURE_Comm point;
    EXPECT_PURE_OK(pure_cart_sub(cart, none, &point));
    EXPECT_PURE_OK(pure_comm_size(point, &rs));
    EXPECT_PURE_OK(pure_cartdim_get(point, &nd));
    EXPECT_EQ(rs, 1);
    EXPECT_EQ(nd, 0);
    for (PURE_Comm* c : {&row, &col, &point}) EXPECT_PURE_OK(pure_comm_free(c));
    // A dup keeps the topology.
    PURE_Comm dup;
    EXPECT_PURE_OK(pure_comm_dup(cart, &dup));
    EXPECT_PURE_OK(pure_topo_test(dup, &status));
    EXPECT_EQ(status, PURE_CART);
    EXPECT_PURE_OK(pure_cart_coords(dup, rank, 2, gc));
    EXPECT_EQ(gc[1], rank % dims[1]);
    EXPECT_PURE_OK(pure_comm_free(&dup));
    EXPECT_PURE_OK(pure_comm_free(&cart));

    // A grid smaller than the communicator: the rest get PURE_COMM_NULL.
    const int line = size - 1, open = 0;
    EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, 1, &line, &open, 0, &cart));
    EXPECT_EQ(cart == PURE_COMM_NULL, rank == size - 1);
    int mapped = -2;
    EXPECT_PURE_OK(pure_cart_map(PURE_COMM_WORLD, 1, &line, &open, &mapped));
    EXPECT_EQ(mapped, rank == size - 1 ? PURE_UNDEFINED : rank);
    if (cart != PURE_COMM_NULL) {
      EXPECT_PURE_OK(pure_comm_free(&cart));
    }
  });
}

// Neighbourhood collectives on a grid: each block checked against the
// neighbour it comes from; PURE_PROC_NULL slots stay untouched.
void check_grid_neighbourhood(PURE_Comm cart, int rank, int ndims) {
  std::vector<int> nbr;
  for (int d = 0; d < ndims; ++d) {
    int s, t;
    EXPECT_PURE_OK(pure_cart_shift(cart, d, 1, &s, &t));
    nbr.push_back(s);
    nbr.push_back(t);
  }
  const int k = 2 * ndims;
  std::vector<int> got(at(k), -1);
  EXPECT_PURE_OK(pure_neighbor_allgather(&rank, 1, PURE_INT, got.data(), 1, PURE_INT, cart));
  for (int i = 0; i < k; ++i) EXPECT_EQ(got[at(i)], nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)]);
  // Alltoall: what a neighbour sends towards this rank is its block for
  // the opposite direction.
  std::vector<int> out(at(k)), in(at(k), -1);
  for (int j = 0; j < k; ++j) out[at(j)] = rank * 100 + j;
  EXPECT_PURE_OK(pure_neighbor_alltoall(out.data(), 1, PURE_INT, in.data(), 1, PURE_INT, cart));
  for (int i = 0; i < k; ++i)
    EXPECT_EQ(in[at(i)], nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)] * 100 + (i ^ 1))
        << "slot " << i;
  // v and w: block j has j+1 items, received with a gap of one.
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
  std::vector<int> vout(at(st)), vin(at(rt), -1);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i <= j; ++i) vout[at(sd[at(j)] + i)] = rank * 1000 + j * 10 + i;
  EXPECT_PURE_OK(pure_neighbor_alltoallv(vout.data(), sc.data(), sd.data(), PURE_INT, vin.data(),
                                         rc.data(), rd.data(), PURE_INT, cart));
  for (int i = 0; i < k; ++i) {
    EXPECT_EQ(vin[at(rd[at(i)] - 1)], -1);
    for (int e = 0; e < rc[at(i)]; ++e)
      EXPECT_EQ(vin[at(rd[at(i)] + e)],
                nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)] * 1000 + (i ^ 1) * 10 + e);
  }
  std::vector<PURE_Aint> sdb(at(k)), rdb(at(k));
  std::vector<PURE_Datatype> types(at(k), PURE_INT);
  for (int j = 0; j < k; ++j) {
    sdb[at(j)] = static_cast<PURE_Aint>(sd[at(j)] * sizeof(int));
    rdb[at(j)] = static_cast<PURE_Aint>(rd[at(j)] * sizeof(int));
  }
  std::fill(vin.begin(), vin.end(), -1);
  EXPECT_PURE_OK(pure_neighbor_alltoallw(vout.data(), sc.data(), sdb.data(), types.data(),
                                         vin.data(), rc.data(), rdb.data(), types.data(), cart));
  for (int i = 0; i < k; ++i)
    for (int e = 0; e < rc[at(i)]; ++e)
      EXPECT_EQ(vin[at(rd[at(i)] + e)],
                nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)] * 1000 + (i ^ 1) * 10 + e);
  // allgatherv: each neighbour's rank, twice, at displacement 3 * i.
  int two[2] = {rank, rank};
  std::vector<int> counts(at(k), 2), displs(at(k)), gv(at(3 * k), -1);
  for (int i = 0; i < k; ++i) displs[at(i)] = 3 * i;
  EXPECT_PURE_OK(pure_neighbor_allgatherv(two, 2, PURE_INT, gv.data(), counts.data(),
                                          displs.data(), PURE_INT, cart));
  for (int i = 0; i < k; ++i) {
    const int want = nbr[at(i)] == PURE_PROC_NULL ? -1 : nbr[at(i)];
    EXPECT_EQ(gv[at(3 * i)], want);
    EXPECT_EQ(gv[at(3 * i + 1)], want);
    EXPECT_EQ(gv[at(3 * i + 2)], -1);
  }
}

TEST_P(Topologies, NeighbourhoodCollectivesOnGrids) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    // A 2-d grid, periodic in one dimension; a ring; a ring with a
    // dimension of one rank (everyone its own neighbour there); and, with
    // two ranks, a periodic dimension of two (both neighbours one rank).
    int dims[2] = {0, 0};
    EXPECT_PURE_OK(pure_dims_create(size, 2, dims));
    struct Grid {
      std::vector<int> dims, periods;
    };
    const Grid grids[] = {{{dims[0], dims[1]}, {1, 0}},
                          {{size}, {1}},
                          {{size, 1}, {0, 1}},
                          {{1, size}, {1, 1}}};
    for (const Grid& g : grids) {
      PURE_Comm cart;
      EXPECT_PURE_OK(pure_cart_create(PURE_COMM_WORLD, static_cast<int>(g.dims.size()),
                                      g.dims.data(), g.periods.data(), 0, &cart));
      check_grid_neighbourhood(cart, rank, static_cast<int>(g.dims.size()));
      PURE_Comm dup;
      EXPECT_PURE_OK(pure_comm_dup(cart, &dup));
      check_grid_neighbourhood(dup, rank, static_cast<int>(g.dims.size()));
      EXPECT_PURE_OK(pure_comm_free(&dup));
      EXPECT_PURE_OK(pure_comm_free(&cart));
    }
  });
}

TEST_P(Topologies, GraphWithRepeatedEdges) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    // A ring: node r's neighbours are r-1 and r+1 (the same node when two).
    std::vector<int> index, edges;
    for (int r = 0; r < size; ++r) {
      edges.push_back((r + size - 1) % size);
      edges.push_back((r + 1) % size);
      index.push_back(static_cast<int>(edges.size()));
    }
    PURE_Comm graph;
    EXPECT_PURE_OK(pure_graph_create(PURE_COMM_WORLD, size, index.data(), edges.data(), 0, &graph));
    int status = -1, nnodes = -1, nedges = -1, count = -1;
    EXPECT_PURE_OK(pure_topo_test(graph, &status));
    EXPECT_EQ(status, PURE_GRAPH);
    EXPECT_PURE_OK(pure_graphdims_get(graph, &nnodes, &nedges));
    EXPECT_EQ(nnodes, size);
    EXPECT_EQ(nedges, 2 * size);
    std::vector<int> gi(at(size)), ge(at(2 * size));
    EXPECT_PURE_OK(pure_graph_get(graph, size, 2 * size, gi.data(), ge.data()));
    EXPECT_EQ(gi, index);
    EXPECT_EQ(ge, edges);
    EXPECT_PURE_OK(pure_graph_neighbors_count(graph, rank, &count));
    EXPECT_EQ(count, 2);
    int nbr[2];
    EXPECT_PURE_OK(pure_graph_neighbors(graph, rank, 2, nbr));
    EXPECT_EQ(nbr[0], (rank + size - 1) % size);
    EXPECT_EQ(nbr[1], (rank + 1) % size);
    // The neighbourhood collectives on this graph, in every form:
    // neighbour_forms_test.cpp (NeighbourForms.GraphWithRepeatedEdges).
    int mapped = -2;
    EXPECT_PURE_OK(pure_graph_map(PURE_COMM_WORLD, size, index.data(), edges.data(), &mapped));
    EXPECT_EQ(mapped, rank);
    EXPECT_PURE_OK(pure_comm_free(&graph));
  });
}

TEST_P(Topologies, DistributedGraphs) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    auto mod = [size](int r) { return ((r % size) + size) % size; };
    // Adjacent: in from r-1 and r-2, out to r+1 and r+2 (with two ranks,
    // r-2 is this rank itself), weighted.
    const int sources[2] = {mod(rank - 1), mod(rank - 2)}, sw[2] = {10, 20};
    const int dests[2] = {mod(rank + 1), mod(rank + 2)}, dw[2] = {30, 40};
    PURE_Comm dg;
    EXPECT_PURE_OK(pure_dist_graph_create_adjacent(PURE_COMM_WORLD, 2, sources, sw, 2, dests, dw,
                                                   PURE_INFO_NULL, 0, &dg));
    int status = -1, indeg = -1, outdeg = -1, weighted = -1;
    EXPECT_PURE_OK(pure_topo_test(dg, &status));
    EXPECT_EQ(status, PURE_DIST_GRAPH);
    EXPECT_PURE_OK(pure_dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
    EXPECT_EQ(indeg, 2);
    EXPECT_EQ(outdeg, 2);
    EXPECT_EQ(weighted, 1);
    int s[2], w1[2], d[2], w2[2];
    EXPECT_PURE_OK(pure_dist_graph_neighbors(dg, 2, s, w1, 2, d, w2));
    EXPECT_EQ(s[0], sources[0]);
    EXPECT_EQ(s[1], sources[1]);
    EXPECT_EQ(w1[1], 20);
    EXPECT_EQ(d[1], dests[1]);
    EXPECT_EQ(w2[0], 30);
    int out[2] = {rank * 10, rank * 10 + 1}, in[2] = {-1, -1};
    EXPECT_PURE_OK(pure_neighbor_alltoall(out, 1, PURE_INT, in, 1, PURE_INT, dg));
    EXPECT_EQ(in[0], sources[0] * 10 + 0);  // r-1 sends its block 0 to r
    EXPECT_EQ(in[1], sources[1] * 10 + 1);  // r-2 sends its block 1 to r
    EXPECT_PURE_OK(pure_comm_free(&dg));

    // General: rank r names the edge (r+1) -> (r+2) with weight r, so every
    // rank has one in-edge from r-1 and one out-edge to r+1; unweighted too.
    for (bool with_weights : {true, false}) {
      const int src = mod(rank + 1), degree = 1, dst = mod(rank + 2), weight = rank;
      EXPECT_PURE_OK(pure_dist_graph_create(PURE_COMM_WORLD, 1, &src, &degree, &dst,
                                            with_weights ? &weight : PURE_UNWEIGHTED,
                                            PURE_INFO_NULL, 1, &dg));
      EXPECT_PURE_OK(pure_dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
      EXPECT_EQ(indeg, 1);
      EXPECT_EQ(outdeg, 1);
      EXPECT_EQ(weighted, with_weights ? 1 : 0);
      int ws = -1, wd = -1;
      EXPECT_PURE_OK(pure_dist_graph_neighbors(dg, 1, s, &ws, 1, d, &wd));
      EXPECT_EQ(s[0], mod(rank - 1));
      EXPECT_EQ(d[0], mod(rank + 1));
      if (with_weights) {
        EXPECT_EQ(ws, mod(rank - 2));  // named by rank r-2
        EXPECT_EQ(wd, mod(rank - 1));
      }
      int got = -1;
      EXPECT_PURE_OK(pure_neighbor_allgather(&rank, 1, PURE_INT, &got, 1, PURE_INT, dg));
      EXPECT_EQ(got, mod(rank - 1));
      EXPECT_PURE_OK(pure_comm_free(&dg));
    }
    // No edges at all, weighted but empty.
    EXPECT_PURE_OK(pure_dist_graph_create_adjacent(PURE_COMM_WORLD, 0, nullptr,
                                                   PURE_WEIGHTS_EMPTY, 0, nullptr,
                                                   PURE_WEIGHTS_EMPTY, PURE_INFO_NULL, 0, &dg));
    EXPECT_PURE_OK(pure_neighbor_allgather(&rank, 1, PURE_INT, nullptr, 0, PURE_INT, dg));
    EXPECT_PURE_OK(pure_comm_free(&dg));
    // No edges through the general form. MPI: the graph is unweighted only
    // when PURE_UNWEIGHTED was given; null or PURE_WEIGHTS_EMPTY weights
    // (no edges to weigh) leave it weighted.
    const int* no_edges[] = {nullptr, PURE_WEIGHTS_EMPTY, PURE_UNWEIGHTED};
    for (const int* w : no_edges) {
      EXPECT_PURE_OK(
          pure_dist_graph_create(PURE_COMM_WORLD, 0, nullptr, nullptr, nullptr, w,
                                 PURE_INFO_NULL, 0, &dg));
      EXPECT_PURE_OK(pure_dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
      EXPECT_EQ(indeg, 0);
      EXPECT_EQ(outdeg, 0);
      EXPECT_EQ(weighted, w == PURE_UNWEIGHTED ? 0 : 1)
          << (w == nullptr ? "null" : w == PURE_WEIGHTS_EMPTY ? "PURE_WEIGHTS_EMPTY"
                                                                : "PURE_UNWEIGHTED")
          << " weights";
      EXPECT_PURE_OK(pure_comm_free(&dg));
    }
  });
}

TEST_P(Topologies, BadArgumentsAreRefused) {
  expect_clean_run(GetParam(), [](int rank, int size) {
    PURE_Comm comm;
    EXPECT_PURE_OK(pure_comm_dup(PURE_COMM_WORLD, &comm));
    EXPECT_PURE_OK(pure_comm_set_errhandler(comm, PURE_ERRORS_RETURN));
    PURE_Comm out = PURE_COMM_NULL;
    const int too_many = size + 1, periodic = 1, zero = 0;
    EXPECT_EQ(pure_cart_create(comm, 1, &too_many, &periodic, 0, &out), PURE_ERR_TOPOLOGY);
    EXPECT_EQ(pure_cart_create(comm, 1, &zero, &periodic, 0, &out), PURE_ERR_DIMS);
    EXPECT_EQ(pure_cart_create(comm, -1, &zero, &periodic, 0, &out), PURE_ERR_DIMS);
    int nd = 0, src = 0, dst = 0, count = 0;
    EXPECT_EQ(pure_cartdim_get(comm, &nd), PURE_ERR_TOPOLOGY);
    EXPECT_EQ(pure_graph_neighbors_count(comm, 0, &count), PURE_ERR_TOPOLOGY);
    EXPECT_EQ(pure_neighbor_allgather(&rank, 1, PURE_INT, &count, 1, PURE_INT, comm),
              PURE_ERR_TOPOLOGY);
    const int line = size, open = 0;
    PURE_Comm cart;
    EXPECT_PURE_OK(pure_cart_create(comm, 1, &line, &open, 0, &cart));
    EXPECT_PURE_OK(pure_comm_set_errhandler(cart, PURE_ERRORS_RETURN));
    EXPECT_EQ(pure_cart_shift(cart, 1, 1, &src, &dst), PURE_ERR_ARG);
    const int outside = size;
    EXPECT_EQ(pure_cart_rank(cart, &outside, &nd), PURE_ERR_ARG);
    EXPECT_EQ(pure_cart_coords(cart, size, 1, &nd), PURE_ERR_RANK);
    EXPECT_EQ(pure_dist_graph_neighbors_count(cart, &nd, &nd, &nd), PURE_ERR_TOPOLOGY);
    EXPECT_EQ(pure_neighbor_alltoall(PURE_IN_PLACE, 1, PURE_INT, &count, 1, PURE_INT, cart),
              PURE_ERR_BUFFER);
    EXPECT_PURE_OK(pure_comm_free(&cart));
    const int index[1] = {1}, edges[1] = {1};
    EXPECT_EQ(pure_graph_create(comm, 1, index, edges, 0, &out), PURE_ERR_ARG);
    const int bad_source = size;
    const int one = 1;
    EXPECT_EQ(pure_dist_graph_create_adjacent(comm, 1, &bad_source, PURE_UNWEIGHTED, 0, nullptr,
                                              PURE_UNWEIGHTED, PURE_INFO_NULL, 0, &out),
              PURE_ERR_RANK);
    EXPECT_EQ(pure_dist_graph_create(comm, 1, &rank, &one, &bad_source, PURE_UNWEIGHTED,
                                     PURE_INFO_NULL, 0, &out),
              PURE_ERR_RANK);
    EXPECT_PURE_OK(pure_comm_free(&comm));
  });
}

// Under PURE_ERRORS_ARE_FATAL the job ends naming the rank, the call and
// the bad value, with the error class as exit code.
TEST(TopologyErrors, FatalMessageNamesTheValue) {
  JobResult r = run_ranks_capturing(2, [](int rank, int) {
    const int dims[1] = {5}, periods[1] = {0};
    PURE_Comm cart;
    if (rank == 1) pure_cart_create(PURE_COMM_SELF, 1, dims, periods, 0, &cart);
  });
  EXPECT_EQ(r.code, PURE_ERR_TOPOLOGY);
  EXPECT_NE(r.err.find("rank 1: pure_cart_create: the grid has 5 ranks but PURE_COMM_SELF has "
                       "only 1"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace pure_testing
