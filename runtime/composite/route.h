// Where a collective runs: on a communicator whose members all live in this
// process, in collectives/; on one spanning processes, in net/ (hierarchical).
// The same for creating a communicator from one (split, and dup and create
// expressed as splits).
//
// Every collective that runs here is recorded first as the member's next
// call on the communicator (collectives/call_log.h), once its arguments
// passed the checks a rank makes alone: a call refused there never met the
// others. The two-member paths of the flat API record in collectives/pair.h.
#pragma once

#include <cstddef>

#include "collectives/call_log.h"
#include "collectives/collectives.h"
#include "collectives/member.h"
#include "net/hierarchical.h"

namespace pure::route {
// The movement collectives' first argument after the communicator is the call.
template <class... Args>
void record_first(Comm& comm, const char* call, Args...) {
  coll::record_call(comm, call);
}
inline void barrier(coll::Member& member, Comm& comm, const char* call) {
  coll::record_call(comm, call);
  if (comm.spans_processes()) return hier::barrier(member, comm, call);
  coll::barrier(member, comm, call);
}
inline void bcast(coll::Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
                  const Datatype& type, int root) {
  coll::record_call(comm, call);
  if (comm.spans_processes()) return hier::bcast(member, comm, call, buf, count, type, root);
  coll::bcast(member, comm, call, buf, count, type, root);
}
inline void reduce(coll::Member& member, Comm& comm, const coll::ReduceArgs& a, int root) {
  coll::record_call(comm, a.call);
  if (comm.spans_processes()) return hier::reduce(member, comm, a, root);
  coll::reduce(member, comm, a, root);
}
inline void scan(coll::Member& member, Comm& comm, const coll::ReduceArgs& a, bool exclusive) {
  coll::record_call(comm, a.call);
  if (comm.spans_processes()) return hier::scan(member, comm, a, exclusive);
  coll::scan(member, comm, a, exclusive);
}
inline void reduce_scatter(coll::Member& member, Comm& comm, const coll::ReduceArgs& a,
                           const int* recvcounts) {
  coll::record_call(comm, a.call);
  if (comm.spans_processes()) return hier::reduce_scatter(member, comm, a, recvcounts);
  coll::reduce_scatter(member, comm, a, recvcounts);
}
template <class... Args>
void gatherv(coll::Member& member, Comm& comm, Args... args) {
  record_first(comm, args...);
  if (comm.spans_processes()) return hier::gatherv(member, comm, args...);
  coll::gatherv(member, comm, args...);
}
template <class... Args>
void scatterv(coll::Member& member, Comm& comm, Args... args) {
  record_first(comm, args...);
  if (comm.spans_processes()) return hier::scatterv(member, comm, args...);
  coll::scatterv(member, comm, args...);
}
template <class... Args>
void allgatherv(coll::Member& member, Comm& comm, Args... args) {
  record_first(comm, args...);
  if (comm.spans_processes()) return hier::allgatherv(member, comm, args...);
  coll::allgatherv(member, comm, args...);
}
template <class... Args>
void alltoallv(coll::Member& member, Comm& comm, Args... args) {
  record_first(comm, args...);
  if (comm.spans_processes()) return hier::alltoallv(member, comm, args...);
  coll::alltoallv(member, comm, args...);
}
// `cluster` is this process's part of a job of several processes (nullptr
// in a one-process job, where no communicator spans processes).
inline NewComm split(coll::Member& member, const Cluster* cluster, Comm& comm, const char* call,
                     int color, int key) {
  coll::record_call(comm, call);
  if (comm.spans_processes()) return hier::split(member, comm, call, color, key, *cluster);
  return coll::split(member, comm, call, color, key);
}
}  // namespace pure::route
