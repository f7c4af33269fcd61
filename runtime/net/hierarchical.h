// Collectives and communicator creation on communicators whose members live
// in several processes (comm.spans_processes()): a stage inside each process
// on the communicator's local view (collectives/collectives.h), one MPI
// collective among the processes' leaders, and a stage inside each process
// again (hierarchical.cpp says how each one goes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "collectives/collectives.h"
#include "comm/comm.h"

namespace pure {
class Cluster;
struct CommNet;
}

namespace pure::hier {

void barrier(coll::Member& member, Comm& comm, const char* call);
// A barrier whose processes meet on `among`'s MPI communicator instead of
// comm's: pure_finalize's, which no collective of the program may meet
// (then a program whose ranks call a collective against finalize ends in a
// deadlock report naming both calls, not in an error inside MPI).
void barrier_among(coll::Member& member, Comm& comm, const char* call, const CommNet& among);
void bcast(coll::Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root);
void reduce(coll::Member& member, Comm& comm, const coll::ReduceArgs& a, int root);
void scan(coll::Member& member, Comm& comm, const coll::ReduceArgs& a, bool exclusive);
void reduce_scatter(coll::Member& member, Comm& comm, const coll::ReduceArgs& a,
                    const int* recvcounts);
void gatherv(coll::Member& member, Comm& comm, const char* call, const void* send,
             std::size_t scount, const Datatype* stype, void* recv, const int* rcounts,
             const int* displs, const Datatype* rtype, int root);
void scatterv(coll::Member& member, Comm& comm, const char* call, const void* send,
              const int* scounts, const int* displs, const Datatype* stype, void* recv,
              std::size_t rcount, const Datatype* rtype, int root);
void allgatherv(coll::Member& member, Comm& comm, const char* call, const void* send,
                std::size_t scount, const Datatype* stype, void* recv, const int* rcounts,
                const int* displs, const Datatype* rtype);
void alltoallv(coll::Member& member, Comm& comm, const char* call, const void* send,
               const int* scounts, const int* sdispls, const Datatype* stype, void* recv,
               const int* rcounts, const int* rdispls, const Datatype* rtype);

// Communicator creation across processes (split.cpp), collective over
// `comm`, as coll::split; `cluster` is this process's part of the job.
NewComm split(coll::Member& member, Comm& comm, const char* call, int color, int key,
              const Cluster& cluster);

// The MPI side (a CommNet) of a communicator spanning processes that its
// members create alone (composite/create_among.h), made by the first of
// them in each process only: `members` in new rank order, `service` the
// runtime's own world communicator. `order` is the creation's place in
// the job's order of creations by members alone (composite/create_among.h):
// the MPI tag grows with it, so that a process's MPI library, which runs
// its concurrent creations lowest tag first, runs them in that order.
// Creations of the same order differ by their first member; the order
// wraps after MPI_TAG_UB / ranks creations.
std::shared_ptr<Comm::Part> create_among(const Group& members, const Comm& service,
                                         std::uint32_t order, const Cluster& cluster);

}  // namespace pure::hier
