// Communicators with a process topology (comm/process_topology.h): creating
// them. The neighbourhood collectives are schedules (nonblocking/), which
// send on the communicator's schedule twin, as every nonblocking collective.
//
// Reordering is left to MPI's discretion, and Pure keeps the ranks as they
// are: rank r of the old communicator is rank r of the new one.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "channels/request.h"
#include "comm/comm.h"
#include "composite/context.h"

namespace pure::topo {

// Collective over `old`: a communicator of its first `keep` ranks (the
// others get nullptr) with `topology` (this rank's).
std::unique_ptr<Comm> create(Context& cx, Comm& old, int keep,
                             std::shared_ptr<const ProcessTopology> topology, const char* call);
// MPI_Cart_sub: the grids of the dimensions kept, one per position in the
// dimensions dropped.
std::unique_ptr<Comm> cart_sub(Context& cx, Comm& cart, const int* remain, const char* call);
// MPI_Dist_graph_create: every rank names some edges (n sources, each
// with its degree's destinations and weights; weights may be nullptr when
// this rank names no edges, or when `weighted_here` is false: the program
// gave MPI_UNWEIGHTED). The graph is weighted unless every rank gave
// MPI_UNWEIGHTED. An allgather tells every rank its own in- and out-edges,
// in the order of the ranks that named them, then their order of naming.
std::unique_ptr<Comm> dist_graph(Context& cx, Comm& old, int n, const int* sources,
                                 const int* degrees, const int* destinations, const int* weights,
                                 bool weighted_here, const char* call);
// What MPI_Comm_dup carries over: the topology (shared; it never changes).
void copy_topology(const Comm& from, Comm& to);

}  // namespace pure::topo
