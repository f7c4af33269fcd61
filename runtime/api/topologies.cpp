// Flat API: process topologies -- Cartesian grids, graphs, distributed
// graphs (comm/process_topology.h, composite/topologies.h). The
// neighbourhood collectives on them are in neighbour_collectives.cpp.
#include <climits>
#include <vector>

#include "api/call.h"
#include "api/comms.h"
#include "composite/topologies.h"

using namespace pure;
using namespace pure::api;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// The communicator's topology, of `kind` unless any kind will do.
const ProcessTopology& topology_arg(Comm& comm, const char* what, const ProcessTopology::Kind* kind = nullptr) {
  const ProcessTopology* t = comm.topology();
  if (!t || (kind && t->kind() != *kind))
    fail(PURE_ERR_TOPOLOGY, "%s has no %s topology", comm.name().c_str(), what);
  return *t;
}
const ProcessTopology& cart_arg(Comm& comm) {
  const ProcessTopology::Kind k = ProcessTopology::Kind::cart;
  return topology_arg(comm, "Cartesian", &k);
}
const ProcessTopology& graph_arg(Comm& comm) {
  const ProcessTopology::Kind k = ProcessTopology::Kind::graph;
  return topology_arg(comm, "graph", &k);
}
const ProcessTopology& dist_graph_arg(Comm& comm) {
  const ProcessTopology::Kind k = ProcessTopology::Kind::dist_graph;
  return topology_arg(comm, "distributed graph", &k);
}

// A grid's dimensions; returns the number of ranks in it.
long long grid_arg(int ndims, const int* dims, const int* periods, bool need_periods) {
  if (ndims < 0) fail(PURE_ERR_DIMS, "invalid number of dimensions %d", ndims);
  if (ndims > 0 && (!dims || (need_periods && !periods)))
    fail(PURE_ERR_ARG, "null dims or periods array with ndims = %d", ndims);
  long long size = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) fail(PURE_ERR_DIMS, "dims[%d] = %d (each must be > 0)", d, dims[d]);
    size *= dims[d];
    if (size > INT_MAX) fail(PURE_ERR_DIMS, "the grid has more than %d ranks", INT_MAX);
  }
  return size;
}

void fits_arg(const Comm& comm, long long ranks, const char* what) {
  if (ranks > comm.size())
    fail(PURE_ERR_TOPOLOGY, "the %s has %lld ranks but %s has only %d", what, ranks,
         comm.name().c_str(), comm.size());
}

// A graph's index and edges (nnodes nodes).
void graph_shape_arg(int nnodes, const int* index, const int* edges) {
  if (nnodes < 0) fail(PURE_ERR_ARG, "invalid number of nodes %d", nnodes);
  if (nnodes > 0 && !index) fail(PURE_ERR_ARG, "null index array with nnodes = %d", nnodes);
  int previous = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < previous)
      fail(PURE_ERR_ARG, "index[%d] = %d is below index[%d] = %d (index holds running degree "
                         "totals)",
           i, index[i], i - 1, previous);
    previous = index[i];
  }
  if (previous > 0 && !edges) fail(PURE_ERR_ARG, "null edges array with %d edges", previous);
  for (int e = 0; e < previous; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      fail(PURE_ERR_ARG, "edges[%d] = %d is not a node of the graph (0 to %d)", e, edges[e],
           nnodes - 1);
}

void rank_arg(const Comm& comm, int rank) {
  if (rank < 0 || rank >= comm.size())
    fail(PURE_ERR_RANK, "invalid rank %d (%s has %d ranks)", rank, comm.name().c_str(),
         comm.size());
}

void room_arg(int room, int needed, const char* what) {
  if (room < needed)
    fail(PURE_ERR_ARG, "%s is %d, but %d entries are needed", what, room, needed);
}

// Neighbours and their weights for dist_graph_create_adjacent.
void adjacency_arg(const Comm& comm, int degree, const int* ranks, const int* weights,
                   const char* which) {
  if (degree < 0) fail(PURE_ERR_ARG, "invalid %sdegree %d", which, degree);
  if (degree > 0 && !ranks) fail(PURE_ERR_ARG, "null %s neighbour array", which);
  for (int i = 0; i < degree; ++i) rank_arg(comm, ranks[i]);
  if (degree > 0 && (!weights || weights == PURE_WEIGHTS_EMPTY))
    fail(PURE_ERR_ARG, "null %s weights with degree %d (PURE_UNWEIGHTED for none)", which,
         degree);
}

std::vector<int> weights_of(const int* weights, int n) {
  if (weights == PURE_UNWEIGHTED || weights == PURE_WEIGHTS_EMPTY || !weights)
    return std::vector<int>(at(n), 1);
  return std::vector<int>(weights, weights + n);
}

}  // namespace

extern "C" {

int pure_dims_create(int nnodes, int ndims, int dims[]) {
  return call("pure_dims_create", [&](Call&) {
    if (nnodes <= 0) fail(PURE_ERR_ARG, "invalid number of nodes %d (must be > 0)", nnodes);
    if (ndims < 0) fail(PURE_ERR_DIMS, "invalid number of dimensions %d", ndims);
    if (ndims > 0 && !dims) fail(PURE_ERR_ARG, "null dims array with ndims = %d", ndims);
    long long fixed = 1;
    for (int d = 0; d < ndims; ++d) {
      if (dims[d] < 0) fail(PURE_ERR_DIMS, "dims[%d] = %d (must be >= 0)", d, dims[d]);
      if (dims[d] > 0) fixed *= dims[d];
      if (fixed > nnodes) break;
    }
    if (!dims_create(nnodes, ndims, dims))
      fail(PURE_ERR_DIMS, "the dimensions given multiply to %lld, which does not divide %d",
           fixed, nnodes);
  });
}

int pure_cart_create(PURE_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, PURE_Comm* comm_cart) {
  (void)reorder;  // ranks are kept (composite/topologies.h)
  return call("pure_cart_create", [&](Call& c) {
    Comm& cm = intra_arg(c, comm_old);
    const long long ranks = grid_arg(ndims, dims, periods, true);
    fits_arg(cm, ranks, "grid");
    if (!comm_cart) fail(PURE_ERR_ARG, "null comm_cart pointer");
    auto topology = ProcessTopology::cart(std::vector<int>(dims, dims + ndims),
                                   std::vector<int>(periods, periods + ndims));
    Context cx = c.rank.context();
    *comm_cart = install(c, cm,
                         topo::create(cx, cm, static_cast<int>(ranks), std::move(topology),
                                      "pure_cart_create"));
  });
}

int pure_cart_get(PURE_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  return call("pure_cart_get", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = cart_arg(cm);
    room_arg(maxdims, t.ndims(), "maxdims");
    if (t.ndims() > 0 && (!dims || !periods || !coords))
      fail(PURE_ERR_ARG, "null dims, periods or coords array");
    for (int d = 0; d < t.ndims(); ++d) {
      dims[d] = t.dims()[at(d)];
      periods[d] = t.periods()[at(d)];
    }
    if (t.ndims() > 0) t.coords(cm.rank(), coords);
  });
}

int pure_cartdim_get(PURE_Comm comm, int* ndims) {
  return call("pure_cartdim_get", [&](Call& c) {
    const ProcessTopology& t = cart_arg(comm_arg(c, comm));
    if (!ndims) fail(PURE_ERR_ARG, "null ndims pointer");
    *ndims = t.ndims();
  });
}

int pure_cart_rank(PURE_Comm comm, const int coords[], int* rank) {
  return call("pure_cart_rank", [&](Call& c) {
    const ProcessTopology& t = cart_arg(comm_arg(c, comm));
    if (!rank || (t.ndims() > 0 && !coords)) fail(PURE_ERR_ARG, "null coords or rank pointer");
    int bad = -1;
    const int r = t.rank_at(coords, &bad);
    if (r < 0)
      fail(PURE_ERR_ARG, "coords[%d] = %d is outside the non-periodic dimension of %d", bad,
           coords[bad], t.dims()[at(bad)]);
    *rank = r;
  });
}

int pure_cart_coords(PURE_Comm comm, int rank, int maxdims, int coords[]) {
  return call("pure_cart_coords", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = cart_arg(cm);
    rank_arg(cm, rank);
    room_arg(maxdims, t.ndims(), "maxdims");
    if (t.ndims() > 0 && !coords) fail(PURE_ERR_ARG, "null coords array");
    t.coords(rank, coords);
  });
}

int pure_cart_shift(PURE_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  return call("pure_cart_shift", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = cart_arg(cm);
    if (direction < 0 || direction >= t.ndims())
      fail(PURE_ERR_ARG, "invalid direction %d (the grid has %d dimensions)", direction,
           t.ndims());
    if (!rank_source || !rank_dest) fail(PURE_ERR_ARG, "null rank_source or rank_dest pointer");
    auto [source, dest] = t.shift(cm.rank(), direction, disp);
    *rank_source = source;
    *rank_dest = dest;
  });
}

int pure_cart_sub(PURE_Comm comm, const int remain_dims[], PURE_Comm* newcomm) {
  return call("pure_cart_sub", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = cart_arg(cm);
    if (t.ndims() > 0 && !remain_dims) fail(PURE_ERR_ARG, "null remain_dims array");
    if (!newcomm) fail(PURE_ERR_ARG, "null newcomm pointer");
    Context cx = c.rank.context();
    *newcomm = install(c, cm, topo::cart_sub(cx, cm, remain_dims, "pure_cart_sub"));
  });
}

int pure_cart_map(PURE_Comm comm, int ndims, const int dims[], const int periods[],
                  int* newrank) {
  return call("pure_cart_map", [&](Call& c) {
    Comm& cm = intra_arg(c, comm);
    const long long ranks = grid_arg(ndims, dims, periods, false);
    fits_arg(cm, ranks, "grid");
    if (!newrank) fail(PURE_ERR_ARG, "null newrank pointer");
    *newrank = cm.rank() < ranks ? cm.rank() : PURE_UNDEFINED;
  });
}

int pure_graph_create(PURE_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, PURE_Comm* comm_graph) {
  (void)reorder;
  return call("pure_graph_create", [&](Call& c) {
    Comm& cm = intra_arg(c, comm_old);
    graph_shape_arg(nnodes, index, edges);
    fits_arg(cm, nnodes, "graph");
    if (!comm_graph) fail(PURE_ERR_ARG, "null comm_graph pointer");
    const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    auto topology = ProcessTopology::graph(std::vector<int>(index, index + nnodes),
                                    std::vector<int>(edges, edges + nedges));
    Context cx = c.rank.context();
    *comm_graph = install(c, cm, topo::create(cx, cm, nnodes, std::move(topology),
                                              "pure_graph_create"));
  });
}

int pure_graphdims_get(PURE_Comm comm, int* nnodes, int* nedges) {
  return call("pure_graphdims_get", [&](Call& c) {
    const ProcessTopology& t = graph_arg(comm_arg(c, comm));
    if (!nnodes || !nedges) fail(PURE_ERR_ARG, "null nnodes or nedges pointer");
    *nnodes = t.nnodes();
    *nedges = static_cast<int>(t.edges().size());
  });
}

int pure_graph_get(PURE_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  return call("pure_graph_get", [&](Call& c) {
    const ProcessTopology& t = graph_arg(comm_arg(c, comm));
    room_arg(maxindex, t.nnodes(), "maxindex");
    room_arg(maxedges, static_cast<int>(t.edges().size()), "maxedges");
    if ((t.nnodes() > 0 && !index) || (!t.edges().empty() && !edges))
      fail(PURE_ERR_ARG, "null index or edges array");
    for (std::size_t i = 0; i < t.index().size(); ++i) index[i] = t.index()[i];
    for (std::size_t e = 0; e < t.edges().size(); ++e) edges[e] = t.edges()[e];
  });
}

int pure_graph_neighbors_count(PURE_Comm comm, int rank, int* nneighbors) {
  return call("pure_graph_neighbors_count", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = graph_arg(cm);
    rank_arg(cm, rank);
    if (!nneighbors) fail(PURE_ERR_ARG, "null nneighbors pointer");
    *nneighbors = t.degree(rank);
  });
}

int pure_graph_neighbors(PURE_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  return call("pure_graph_neighbors", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const ProcessTopology& t = graph_arg(cm);
    rank_arg(cm, rank);
    room_arg(maxneighbors, t.degree(rank), "maxneighbors");
    if (t.degree(rank) > 0 && !neighbors) fail(PURE_ERR_ARG, "null neighbors array");
    for (int i = 0; i < t.degree(rank); ++i) neighbors[i] = t.neighbors(rank)[i];
  });
}

int pure_graph_map(PURE_Comm comm, int nnodes, const int index[], const int edges[],
                   int* newrank) {
  return call("pure_graph_map", [&](Call& c) {
    Comm& cm = intra_arg(c, comm);
    graph_shape_arg(nnodes, index, edges);
    fits_arg(cm, nnodes, "graph");
    if (!newrank) fail(PURE_ERR_ARG, "null newrank pointer");
    *newrank = cm.rank() < nnodes ? cm.rank() : PURE_UNDEFINED;
  });
}

int pure_dist_graph_create_adjacent(PURE_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    PURE_Info info, int reorder, PURE_Comm* comm_dist_graph) {
  (void)reorder;
  return call("pure_dist_graph_create_adjacent", [&](Call& c) {
    Comm& cm = intra_arg(c, comm_old);
    info_arg(c, info, true);
    adjacency_arg(cm, indegree, sources, sourceweights, "in");
    adjacency_arg(cm, outdegree, destinations, destweights, "out");
    if ((sourceweights == PURE_UNWEIGHTED) != (destweights == PURE_UNWEIGHTED))
      fail(PURE_ERR_ARG, "one of sourceweights and destweights is PURE_UNWEIGHTED and the "
                         "other is not");
    if (!comm_dist_graph) fail(PURE_ERR_ARG, "null comm_dist_graph pointer");
    auto topology = ProcessTopology::dist_graph(
        std::vector<int>(sources, sources + indegree), weights_of(sourceweights, indegree),
        std::vector<int>(destinations, destinations + outdegree),
        weights_of(destweights, outdegree), sourceweights != PURE_UNWEIGHTED);
    Context cx = c.rank.context();
    *comm_dist_graph = install(c, cm, topo::create(cx, cm, cm.size(), std::move(topology),
                                                   "pure_dist_graph_create_adjacent"));
  });
}

int pure_dist_graph_create(PURE_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], PURE_Info info,
                           int reorder, PURE_Comm* comm_dist_graph) {
  (void)reorder;
  return call("pure_dist_graph_create", [&](Call& c) {
    Comm& cm = intra_arg(c, comm_old);
    info_arg(c, info, true);
    if (n < 0) fail(PURE_ERR_ARG, "invalid number of sources %d", n);
    if (n > 0 && (!sources || !degrees)) fail(PURE_ERR_ARG, "null sources or degrees array");
    int edges = 0;
    for (int i = 0; i < n; ++i) {
      rank_arg(cm, sources[i]);
      if (degrees[i] < 0) fail(PURE_ERR_ARG, "invalid degrees[%d] = %d", i, degrees[i]);
      edges += degrees[i];
    }
    if (edges > 0 && !destinations) fail(PURE_ERR_ARG, "null destinations array");
    for (int e = 0; e < edges; ++e) rank_arg(cm, destinations[e]);
    if (edges > 0 && (!weights || weights == PURE_WEIGHTS_EMPTY))
      fail(PURE_ERR_ARG, "null weights with %d edges (PURE_UNWEIGHTED for none)", edges);
    if (!comm_dist_graph) fail(PURE_ERR_ARG, "null comm_dist_graph pointer");
    Context cx = c.rank.context();
    // Weighted unless PURE_UNWEIGHTED, as MPI defines the flag: a null array
    // or PURE_WEIGHTS_EMPTY with no edges here is still weighted.
    const bool weighted = weights != PURE_UNWEIGHTED;
    *comm_dist_graph = install(
        c, cm, topo::dist_graph(cx, cm, n, sources, degrees, destinations,
                                weighted ? weights : nullptr, weighted, "pure_dist_graph_create"));
  });
}

int pure_dist_graph_neighbors_count(PURE_Comm comm, int* indegree, int* outdegree,
                                    int* weighted) {
  return call("pure_dist_graph_neighbors_count", [&](Call& c) {
    const ProcessTopology& t = dist_graph_arg(comm_arg(c, comm));
    if (!indegree || !outdegree || !weighted)
      fail(PURE_ERR_ARG, "null indegree, outdegree or weighted pointer");
    *indegree = static_cast<int>(t.sources().size());
    *outdegree = static_cast<int>(t.destinations().size());
    *weighted = t.weighted();
  });
}

int pure_dist_graph_neighbors(PURE_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[]) {
  return call("pure_dist_graph_neighbors", [&](Call& c) {
    const ProcessTopology& t = dist_graph_arg(comm_arg(c, comm));
    const int in = static_cast<int>(t.sources().size());
    const int out = static_cast<int>(t.destinations().size());
    room_arg(maxindegree, in, "maxindegree");
    room_arg(maxoutdegree, out, "maxoutdegree");
    if ((in > 0 && !sources) || (out > 0 && !destinations))
      fail(PURE_ERR_ARG, "null sources or destinations array");
    const bool w = t.weighted();
    for (int i = 0; i < in; ++i) {
      sources[i] = t.sources()[at(i)];
      if (w && sourceweights && sourceweights != PURE_UNWEIGHTED)
        sourceweights[i] = t.source_weights()[at(i)];
    }
    for (int j = 0; j < out; ++j) {
      destinations[j] = t.destinations()[at(j)];
      if (w && destweights && destweights != PURE_UNWEIGHTED)
        destweights[j] = t.dest_weights()[at(j)];
    }
  });
}

int pure_topo_test(PURE_Comm comm, int* status) {
  return call("pure_topo_test", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!status) fail(PURE_ERR_ARG, "null status pointer");
    const ProcessTopology* t = cm.topology();
    *status = !t                                         ? PURE_UNDEFINED
              : t->kind() == ProcessTopology::Kind::cart       ? PURE_CART
              : t->kind() == ProcessTopology::Kind::graph      ? PURE_GRAPH
                                                        : PURE_DIST_GRAPH;
  });
}

}  // extern "C"
