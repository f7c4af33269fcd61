// The argument checks of the collectives, shared by their blocking
// (collectives.cpp), nonblocking and persistent (nonblocking_collectives.cpp)
// forms: each validates what one rank can see on its own (handles, counts,
// buffers, roots, where PURE_IN_PLACE is allowed, whether the op applies to
// the type) and returns the arguments in the terms the layers take. Counts
// are 64-bit so that the int calls and their large-count (_c) twins share
// every check; a PURE_BOTTOM buffer (null, with a type at absolute
// addresses) comes back as a real buffer with a shifted type.
#pragma once

#include <climits>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "api/call.h"
#include "types/ops.h"

namespace pure::api {

inline bool in_place(const void* p) { return p == PURE_IN_PLACE; }

void root_arg(const Comm& comm, int root);
// A send or receive buffer that is not PURE_IN_PLACE.
void data_arg(const void* buf, long long count, const Datatype& type, const char* which);
// A root's (or an all- collective's) whole receive or send buffer: not
// PURE_IN_PLACE, and null only as PURE_BOTTOM.
void whole_buffer_arg(const void* buf, const Datatype& type, const char* which);
void counts_arg(const int* counts, const int* displs, int n, const char* which);

// PURE_BOTTOM in a collective. The layers read a null buffer as
// PURE_IN_PLACE, so data at absolute addresses goes in as a buffer at the
// lowest of them with a copy of the type shifted down by as much (kept
// alive by `type`): buffer plus displacement is the same address either way.
// Other buffers come back as they are.
const void* rebase_bottom(const void* buf, TypeRef& type);
inline void* rebase_bottom(void* buf, TypeRef& type) {
  return const_cast<void*>(rebase_bottom(static_cast<const void*>(buf), type));
}

// A count of a large-count call where the layers take an int (the
// intercommunicator collectives, the two-rank fast paths): PURE_ERR_COUNT
// naming it when it does not fit. Negative counts pass, for the usual check.
int int_count(long long count, const char* what);
// The counts and displacements of a v-collective as the layers carry them,
// ints: the int call's own array, or a large-count call's copied when every
// value fits (PURE_ERR_COUNT naming the first that does not).
class IntArray {
 public:
  IntArray(const int* values, int) : data_(values) {}
  template <class N>
  IntArray(const N* values, int n, const char* what, long long min) {
    own_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const long long v = values[i];
      if (v < min || v > INT_MAX)
        fail(PURE_ERR_COUNT,
             "%s[%d] = %lld is beyond what the v-collectives carry (%lld to %d per rank)", what,
             i, v, min, INT_MAX);
      own_[static_cast<std::size_t>(i)] = static_cast<int>(v);
    }
    data_ = n > 0 ? own_.data() : reinterpret_cast<const int*>(values);
  }
  const int* data() const { return data_; }

 private:
  std::vector<int> own_;
  const int* data_;
};
template <class N>
IntArray counts_of(const N* counts, int n, const char* what) {
  if constexpr (std::is_same_v<N, int>) return IntArray(counts, n);
  else return IntArray(counts, counts ? n : 0, what, 0);
}
template <class D>
IntArray displs_of(const D* displs, int n, const char* what) {
  if constexpr (std::is_same_v<D, int>) return IntArray(displs, n);
  else return IntArray(displs, displs ? n : 0, what, INT_MIN);
}

// Counts and displacements of equal blocks, or PURE_ERR_COUNT when the last
// block starts beyond an int.
struct Blocks {
  std::vector<int> counts, displs;
  Blocks() = default;
  Blocks(int n, long long count);
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

MovementArgs gatherv_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                          PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                          const int displs[], PURE_Datatype recvtype, int root);
MovementArgs gather_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                         PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                         PURE_Datatype recvtype, int root);
MovementArgs scatterv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                           const int displs[], PURE_Datatype sendtype, void* recvbuf,
                           long long recvcount, PURE_Datatype recvtype, int root);
MovementArgs scatter_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                          PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                          PURE_Datatype recvtype, int root);
MovementArgs allgatherv_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                             PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int displs[], PURE_Datatype recvtype);
MovementArgs allgather_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                            PURE_Datatype sendtype, void* recvbuf, long long recvcount,
                            PURE_Datatype recvtype);
MovementArgs alltoallv_args(Call& c, Comm& cm, const void* sendbuf, const int sendcounts[],
                            const int sdispls[], PURE_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int rdispls[], PURE_Datatype recvtype);
MovementArgs alltoall_args(Call& c, Comm& cm, const void* sendbuf, long long sendcount,
                           PURE_Datatype sendtype, void* recvbuf, long long recvcount,
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
ReductionArgs reduction_args(Call& c, const void* sendbuf, void* recvbuf, long long count,
                             PURE_Datatype datatype, PURE_Op op, bool may_be_in_place);
// Each reduction's whole checks (the receive buffer's size differs).
ReductionArgs reduce_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf, long long count,
                          PURE_Datatype datatype, PURE_Op op, int root);
// allreduce, scan, exscan.
ReductionArgs allreduce_args(Call& c, const void* sendbuf, void* recvbuf, long long count,
                             PURE_Datatype datatype, PURE_Op op);
// `counts` receives every member's count (recvcount each).
ReductionArgs reduce_scatter_block_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                        long long recvcount, PURE_Datatype datatype, PURE_Op op,
                                        std::vector<int>* counts);
ReductionArgs reduce_scatter_args(Call& c, Comm& cm, const void* sendbuf, void* recvbuf,
                                  const int recvcounts[], PURE_Datatype datatype, PURE_Op op);

}  // namespace pure::api
