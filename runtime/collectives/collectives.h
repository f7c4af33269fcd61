// The collectives inside one process, on any communicator, built on the
// communicator's Dropbox. Arguments are already validated by the flat API
// (runtime/api/collectives.cpp); what only shows when the members' arguments
// meet (counts that differ between ranks) is checked here and reported as an
// Error on every member. `call` names the flat-API function for wait reports.
#pragma once

#include <cstddef>

#include "collectives/dropbox.h"
#include "types/ops.h"
#include "comm/comm.h"
#include "types/datatype.h"
#include "job/rank.h"

namespace pure::coll {

struct ReduceArgs {
  const char* call;
  const void* send;  // nullptr: in place, the input is in recv
  void* recv;
  std::size_t count;
  const Datatype* type;
  PURE_Datatype handle;
  OpRef op;
  // The Reduction of exactly these arguments, when the caller built one
  // already (the API does, to check the op against the type): reduce()
  // then does not build it again.
  const Reduction* checked = nullptr;
};

void barrier(Rank& rank, Comm& comm, const char* call);
void bcast(Rank& rank, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root);

// root < 0: allreduce.
void reduce(Rank& rank, Comm& comm, const ReduceArgs& a, int root);
// The two-member barrier, small allreduce and small alltoall, inline for
// the flat API: collectives/pair.h.
void scan(Rank& rank, Comm& comm, const ReduceArgs& a, bool exclusive);
// a.count is the total (the sum of recvcounts).
void reduce_scatter(Rank& rank, Comm& comm, const ReduceArgs& a, const int* recvcounts);

// Data movement; displacements count extents of the side's datatype.
// `send` nullptr: in place (MPI_IN_PLACE at the root, or everywhere for the
// all- variants); for scatterv in place means recv is nullptr at the root.
void gatherv(Rank& rank, Comm& comm, const char* call, const void* send, std::size_t scount,
             const Datatype* stype, void* recv, const int* rcounts, const int* displs,
             const Datatype* rtype, int root);
void scatterv(Rank& rank, Comm& comm, const char* call, const void* send, const int* scounts,
              const int* displs, const Datatype* stype, void* recv, std::size_t rcount,
              const Datatype* rtype, int root);
void allgatherv(Rank& rank, Comm& comm, const char* call, const void* send, std::size_t scount,
                const Datatype* stype, void* recv, const int* rcounts, const int* displs,
                const Datatype* rtype);
void alltoallv(Rank& rank, Comm& comm, const char* call, const void* send, const int* scounts,
               const int* sdispls, const Datatype* stype, void* recv, const int* rcounts,
               const int* rdispls, const Datatype* rtype);

// Communicator creation, collective over `comm`: members with the same
// colour (>= 0) form a new communicator ordered by (key, rank in comm);
// PURE_UNDEFINED gets none (context -1).
NewComm split(Rank& rank, Comm& comm, const char* call, int color, int key);

// The same collectives on communicators whose members live in several
// processes (comm.net() set); the functions above hand over to these.
namespace hier {
void barrier(Rank& rank, Comm& comm, const char* call);
void bcast(Rank& rank, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root);
void reduce(Rank& rank, Comm& comm, const ReduceArgs& a, int root);
void scan(Rank& rank, Comm& comm, const ReduceArgs& a, bool exclusive);
void reduce_scatter(Rank& rank, Comm& comm, const ReduceArgs& a, const int* recvcounts);
void gatherv(Rank& rank, Comm& comm, const char* call, const void* send, std::size_t scount,
             const Datatype* stype, void* recv, const int* rcounts, const int* displs,
             const Datatype* rtype, int root);
void scatterv(Rank& rank, Comm& comm, const char* call, const void* send, const int* scounts,
              const int* displs, const Datatype* stype, void* recv, std::size_t rcount,
              const Datatype* rtype, int root);
void allgatherv(Rank& rank, Comm& comm, const char* call, const void* send, std::size_t scount,
                const Datatype* stype, void* recv, const int* rcounts, const int* displs,
                const Datatype* rtype);
void alltoallv(Rank& rank, Comm& comm, const char* call, const void* send, const int* scounts,
               const int* sdispls, const Datatype* stype, void* recv, const int* rcounts,
               const int* rdispls, const Datatype* rtype);
NewComm split(Rank& rank, Comm& comm, const char* call, int color, int key);
}  // namespace hier

}  // namespace pure::coll
