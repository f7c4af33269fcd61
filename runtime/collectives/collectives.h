// The collectives inside one process, on any communicator whose members all
// live here, built on the communicator's Dropbox. (Communicators spanning
// processes: net/hierarchical.h, which runs these on their local views.) Arguments are already validated by the flat API
// (runtime/api/collectives.cpp); what only shows when the members' arguments
// meet (counts that differ between ranks) is checked here and reported as an
// Error on every member. `call` names the flat-API function for wait reports.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "collectives/dropbox.h"
#include "collectives/member.h"
#include "comm/comm.h"
#include "types/datatype.h"
#include "types/ops.h"

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

void barrier(Member& member, Comm& comm, const char* call);
void bcast(Member& member, Comm& comm, const char* call, void* buf, std::size_t count,
           const Datatype& type, int root);

// root < 0: allreduce.
void reduce(Member& member, Comm& comm, const ReduceArgs& a, int root);
// The two-member barrier, small allreduce and small alltoall, inline for
// the flat API: collectives/pair.h.
void scan(Member& member, Comm& comm, const ReduceArgs& a, bool exclusive);
// a.count is the total (the sum of recvcounts).
void reduce_scatter(Member& member, Comm& comm, const ReduceArgs& a, const int* recvcounts);

// The partitioned reducer's work, shared with the nonblocking reductions
// that meet in memory (nonblocking/direct_reduce.cpp): member `me` of `n`
// folds the items [begin, end) of its slice of every input, in rank order,
// and writes them to each of `outs` (each points at where item `begin`
// goes), through an accumulator the size of L1 kept in `acc`. Predefined
// ops only (dense items).
struct Slice {
  std::size_t begin, end;
};
// The text of an Error for members whose data sizes differ: `member`
// passes `bytes` (a check word, tagged or not) where `writer` passes
// `writer_bytes`; `what` is "count" or "total count".
std::string count_mismatch(const char* what, int member, long long bytes, int writer,
                           long long writer_bytes);
Slice partition_slice(const Reduction& red, int n, int me);
void fold_slice(const Reduction& red, const void* const* ins, int n, void* const* outs, int nouts,
                Slice s, std::vector<unsigned char>& acc);

// Data movement; displacements count extents of the side's datatype.
// `send` nullptr: in place (MPI_IN_PLACE at the root, or everywhere for the
// all- variants); for scatterv in place means recv is nullptr at the root.
void gatherv(Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
             const Datatype* stype, void* recv, const int* rcounts, const int* displs,
             const Datatype* rtype, int root);
void scatterv(Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
              const int* displs, const Datatype* stype, void* recv, std::size_t rcount,
              const Datatype* rtype, int root);
void allgatherv(Member& member, Comm& comm, const char* call, const void* send, std::size_t scount,
                const Datatype* stype, void* recv, const int* rcounts, const int* displs,
                const Datatype* rtype);
void alltoallv(Member& member, Comm& comm, const char* call, const void* send, const int* scounts,
               const int* sdispls, const Datatype* stype, void* recv, const int* rcounts,
               const int* rdispls, const Datatype* rtype);

// Communicator creation, collective over `comm`: members with the same
// colour (>= 0) form a new communicator ordered by (key, rank in comm);
// PURE_UNDEFINED gets none (context -1). With `remote_slots`, every new
// communicator gets a RemoteSlot (for net/hierarchical.cpp to fill).
NewComm split(Member& member, Comm& comm, const char* call, int color, int key,
              bool remote_slots = false);

// PURE_REDUCE_PARTITION resolved: `configured`, or for auto
// (kReducePartitionAuto) the threshold measured for how the ranks share
// cores -- each its own core, as fibers, or as threads.
std::size_t resolve_partition(std::size_t configured, bool shared_cores, bool fibers);


}  // namespace pure::coll
