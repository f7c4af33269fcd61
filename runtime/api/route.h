// Where a collective runs: on a communicator whose members all live in this
// process, in collectives/; on one spanning processes, in net/ (hierarchical).
#pragma once

#include <cstddef>

#include "collectives/collectives.h"
#include "job/rank.h"
#include "net/hierarchical.h"

namespace pure::api::route {
inline void barrier(Rank& rank, Comm& comm, const char* call) {
  if (comm.spans_processes()) return hier::barrier(rank.member(), comm, call);
  coll::barrier(rank.member(), comm, call);
}
inline void bcast(Rank& rank, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root) {
  if (comm.spans_processes()) return hier::bcast(rank.member(), comm, call, buf, count, type, root);
  coll::bcast(rank.member(), comm, call, buf, count, type, root);
}
inline void reduce(Rank& rank, Comm& comm, const coll::ReduceArgs& a, int root) {
  if (comm.spans_processes()) return hier::reduce(rank.member(), comm, a, root);
  coll::reduce(rank.member(), comm, a, root);
}
inline void scan(Rank& rank, Comm& comm, const coll::ReduceArgs& a, bool exclusive) {
  if (comm.spans_processes()) return hier::scan(rank.member(), comm, a, exclusive);
  coll::scan(rank.member(), comm, a, exclusive);
}
inline void reduce_scatter(Rank& rank, Comm& comm, const coll::ReduceArgs& a, const int* recvcounts) {
  if (comm.spans_processes()) return hier::reduce_scatter(rank.member(), comm, a, recvcounts);
  coll::reduce_scatter(rank.member(), comm, a, recvcounts);
}
template <class... Args>
void gatherv(Rank& rank, Comm& comm, Args... args) {
  if (comm.spans_processes()) return hier::gatherv(rank.member(), comm, args...);
  coll::gatherv(rank.member(), comm, args...);
}
template <class... Args>
void scatterv(Rank& rank, Comm& comm, Args... args) {
  if (comm.spans_processes()) return hier::scatterv(rank.member(), comm, args...);
  coll::scatterv(rank.member(), comm, args...);
}
template <class... Args>
void allgatherv(Rank& rank, Comm& comm, Args... args) {
  if (comm.spans_processes()) return hier::allgatherv(rank.member(), comm, args...);
  coll::allgatherv(rank.member(), comm, args...);
}
template <class... Args>
void alltoallv(Rank& rank, Comm& comm, Args... args) {
  if (comm.spans_processes()) return hier::alltoallv(rank.member(), comm, args...);
  coll::alltoallv(rank.member(), comm, args...);
}
}  // namespace pure::api::route
