// The argument checks of the collectives, shared by their blocking
// (collectives.cpp), nonblocking and persistent (nonblocking_collectives.cpp)
// forms: each validates what one rank can see on its own (handles, counts,
// buffers, roots, where PURE_IN_PLACE is allowed, whether the op applies to
// the type) and returns the arguments in the terms the layers take.
#pragma once

#include <cstddef>
#include <vector>

#include "api/call.h"
#include "types/ops.h"

namespace pure::api {

inline bool in_place(const void* p) { return p == PURE_IN_PLACE; }

void root_arg(const Comm& comm, int root);
// A send or receive buffer that is not PURE_IN_PLACE.
void data_arg(const void* buf, int count, const Datatype& type, const char* which);
void counts_arg(const int* counts, const int* displs, int n, const char* which);

// Counts and displacements of equal blocks.
struct Blocks {
  std::vector<int> counts, displs;
  Blocks() = default;
  Blocks(int n, int count) : counts(static_cast<std::size_t>(n), count), displs(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) displs[static_cast<std::size_t>(i)] = i * count;
  }
};

// One side of a data-moving collective: a buffer and, per member, a count
// and a displacement in extents of the type. `equal` holds the counts and
// displacements of the calls without a v (gather, not gatherv); moving the
// struct keeps the pointers into it valid.
struct Side {
  const void* buf = nullptr;  // nullptr: in place (or not used at this rank)
  TypeRef type;
  std::size_t count = 0;      // the one block of the calls with one (gather's send)
  const int* counts = nullptr;
  const int* displs = nullptr;
  Blocks equal;
  void* out() const { return const_cast<void*>(buf); }
};

struct MovementArgs {
  Side send, recv;
  int root = -1;
};

MovementArgs gatherv_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                          PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                          const int displs[], PURE_Datatype recvtype, int root);
MovementArgs gather_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                         PURE_Datatype sendtype, void* recvbuf, int recvcount,
                         PURE_Datatype recvtype, int root);
MovementArgs scatterv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                           const int displs[], PURE_Datatype sendtype, void* recvbuf,
                           int recvcount, PURE_Datatype recvtype, int root);
MovementArgs scatter_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                          PURE_Datatype sendtype, void* recvbuf, int recvcount,
                          PURE_Datatype recvtype, int root);
MovementArgs allgatherv_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                             PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int displs[], PURE_Datatype recvtype);
MovementArgs allgather_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                            PURE_Datatype sendtype, void* recvbuf, int recvcount,
                            PURE_Datatype recvtype);
MovementArgs alltoallv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                            const int sdispls[], PURE_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int rdispls[], PURE_Datatype recvtype);
MovementArgs alltoall_args(Call& c, Comm& cm, const void* sendbuf, int sendcount,
                           PURE_Datatype sendtype, void* recvbuf, int recvcount,
                           PURE_Datatype recvtype);

// A reduction's checked arguments.
struct ReductionArgs {
  const void* send = nullptr;  // nullptr: in place, the input is in recv
  void* recv = nullptr;
  std::size_t count = 0;
  TypeRef type;
  PURE_Datatype handle = PURE_DATATYPE_NULL;
  OpRef op;
};

// The checks every reduction makes: count, type, op and the send buffer
// (or PURE_IN_PLACE where `may_be_in_place`). Whether the op applies to
// the type is checked by building the Reduction, which the caller does.
ReductionArgs reduction_args(Call& c, const void* sendbuf, void* recvbuf, int count,
                             PURE_Datatype datatype, PURE_Op op, bool may_be_in_place);
// Each reduction's whole checks (the receive buffer's size differs).
ReductionArgs reduce_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf, int count,
                          PURE_Datatype datatype, PURE_Op op, int root);
// allreduce, scan, exscan.
ReductionArgs allreduce_args(Call& c, const void* sendbuf, void* recvbuf, int count,
                             PURE_Datatype datatype, PURE_Op op);
// `counts` receives every member's count (recvcount each).
ReductionArgs reduce_scatter_block_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                        int recvcount, PURE_Datatype datatype, PURE_Op op,
                                        std::vector<int>* counts);
ReductionArgs reduce_scatter_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                  const int recvcounts[], PURE_Datatype datatype, PURE_Op op);

}  // namespace pure::api
