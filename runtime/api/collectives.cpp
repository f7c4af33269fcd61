// Flat API: reduction ops and the collectives. Validates what one rank can
// see on its own (handles, counts, buffers, roots, where PURE_IN_PLACE is
// allowed, whether the op applies to the type) and hands over to
// runtime/collectives, which checks what only shows when the members'
// arguments meet.
//
// Each collective is one template over the count types of its int call and
// its MPI-4 large-count (_c) twin.
#include <climits>
#include <vector>

#include "api/call.h"
#include "api/collective_args.h"
#include "api/inter_collectives.h"
#include "composite/route.h"
#include "collectives/collectives.h"
#include "collectives/pair.h"
#include "collectives/ring_reduce.h"

using namespace pure;
using namespace pure::api;

namespace {

// The Reduction of checked arguments (which throws PURE_ERR_OP when the op
// does not apply to the type, before any round), handed to the collectives
// so that they need not build it again.
coll::ReduceArgs reduce_args_of(const char* name, const ReductionArgs& r, const Reduction& check) {
  return coll::ReduceArgs{name, r.send, r.recv, r.count, r.type.type, r.handle, r.op, &check};
}

int scan_call(const char* name, bool exclusive, const void* sendbuf, void* recvbuf,
              long long count, PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) inter_api::no_scan(cm);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::scan(c.rank.member(), cm, reduce_args_of(name, r, check), exclusive);
  });
}

int reduce_local(const char* name, const void* inbuf, void* inoutbuf, long long count,
                 PURE_Datatype datatype, PURE_Op op) {
  return call(name, [&](Call& c) {
    count_arg(count);
    TypeRef t = type_arg(c, datatype);
    OpRef o = op_arg(c, op);
    buffer_arg(inbuf, count, *t.type);
    buffer_arg(inoutbuf, count, *t.type);
    Reduction red(o, *t.type, datatype, static_cast<std::size_t>(count));
    coll::Member& s = c.rank.member();
    const void* in = red.input_view(inbuf, s.input);
    // A packed layout needs the current inout values packed, not just space.
    void* out = red.packed() ? const_cast<void*>(red.input_view(inoutbuf, s.output))
                             : red.output_view(inoutbuf, s.output);
    red.combine(in, out, red.items());
    red.store_output(out, inoutbuf);
  });
}

int bcast(const char* name, void* buffer, long long count, PURE_Datatype datatype, int root,
          PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::bcast(c, cm, buffer, int_count(count, "count"), datatype, root);
    root_arg(cm, root);
    TypeRef t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
    buffer = rebase_bottom(buffer, t);
    route::bcast(c.rank.member(), cm, name, buffer, static_cast<std::size_t>(count), *t.type,
                 root);
  });
}

int reduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
           PURE_Datatype datatype, PURE_Op op, int root, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, name, sendbuf, recvbuf, int_count(count, "count"), datatype,
                               op, root);
    // A predefined op and type whose data fits a ring slot: the ring
    // straight from the arguments, with no Reduction built at the
    // contributors. Anything else, every error included, takes the general path.
    if (coll::small_reduce(c.rank.member(), cm, name, sendbuf, recvbuf, count, datatype, op, root))
      return;
    ReductionArgs r = reduce_args(c, cm, sendbuf, recvbuf, count, datatype, op, root);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce(c.rank.member(), cm, reduce_args_of(name, r, check), root);
  });
}

int allreduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, name, sendbuf, recvbuf, int_count(count, "count"), datatype,
                               op, -1);
    // Two rank threads, a predefined op and type, data that fits a line:
    // the exchange straight from the arguments, with no Reduction built.
    // Anything else, every error included, takes the general path.
    if (count <= INT_MAX && coll::pair_allreduce(c.rank.member(), cm, sendbuf, recvbuf,
                                                 static_cast<int>(count), datatype, op))
      return;
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce(c.rank.member(), cm, reduce_args_of(name, r, check), -1);
  });
}

int reduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, long long recvcount,
                         PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce_scatter(c, cm, name, sendbuf, recvbuf,
                                       int_count(recvcount, "recvcount"), nullptr, datatype, op);
    std::vector<int> counts;
    ReductionArgs r = reduce_scatter_block_args(c, cm, sendbuf, recvbuf, recvcount, datatype, op,
                                                &counts);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce_scatter(c.rank.member(), cm, reduce_args_of(name, r, check), counts.data());
  });
}

template <class N>
int reduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const N* recvcounts,
                   PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
    IntArray counts = counts_of(recvcounts, cm.size(), "recvcounts");
    if (cm.inter())
      return inter_api::reduce_scatter(c, cm, name, sendbuf, recvbuf, 0, counts.data(), datatype,
                                       op);
    ReductionArgs r = reduce_scatter_args(c, cm, sendbuf, recvbuf, counts.data(), datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce_scatter(c.rank.member(), cm, reduce_args_of(name, r, check), counts.data());
  });
}

template <class N, class D>
int gatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
            void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype, int root,
            PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    // Only the root's (an intercommunicator's PURE_ROOT's) arrays count.
    const bool receives = cm.inter() ? root == PURE_ROOT : cm.rank() == root;
    IntArray counts = counts_of(receives ? recvcounts : nullptr, cm.peer_size(), "recvcounts");
    IntArray offsets = displs_of(receives ? displs : nullptr, cm.peer_size(), "displs");
    if (cm.inter()) {
      if (root == PURE_ROOT && (!recvcounts || !displs))
        fail(PURE_ERR_ARG, "null receive counts or displacements");
      return inter_api::gatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), sendtype,
                                recvbuf, 0, counts.data(), offsets.data(), recvtype, root);
    }
    MovementArgs a = gatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, counts.data(),
                                  offsets.data(), recvtype, root);
    route::gatherv(c.rank.member(), cm, name, a.send.buf, a.send.count, a.send.type.type,
                   a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type, root);
  });
}

int gather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
           void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::gatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), sendtype,
                                recvbuf, int_count(recvcount, "recvcount"), nullptr, nullptr,
                                recvtype, root);
    MovementArgs a =
        gather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    route::gatherv(c.rank.member(), cm, name, a.send.buf, a.send.count, a.send.type.type,
                   a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type, root);
  });
}

template <class N, class D>
int scatterv(const char* name, const void* sendbuf, const N* sendcounts, const D* displs,
             PURE_Datatype sendtype, void* recvbuf, N recvcount, PURE_Datatype recvtype, int root,
             PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const bool sends = cm.inter() ? root == PURE_ROOT : cm.rank() == root;
    IntArray counts = counts_of(sends ? sendcounts : nullptr, cm.peer_size(), "sendcounts");
    IntArray offsets = displs_of(sends ? displs : nullptr, cm.peer_size(), "displs");
    if (cm.inter()) {
      if (root == PURE_ROOT && (!sendcounts || !displs))
        fail(PURE_ERR_ARG, "null send counts or displacements");
      return inter_api::scatterv(c, cm, name, sendbuf, 0, counts.data(), offsets.data(), sendtype,
                                 recvbuf, int_count(recvcount, "recvcount"), recvtype, root);
    }
    MovementArgs a = scatterv_args(c, cm, sendbuf, counts.data(), offsets.data(), sendtype,
                                   recvbuf, recvcount, recvtype, root);
    route::scatterv(c.rank.member(), cm, name, a.send.buf, a.send.counts, a.send.displs,
                    a.send.type.type, a.recv.out(), a.recv.count, a.recv.type.type, root);
  });
}

int scatter(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
            void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::scatterv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), nullptr,
                                 nullptr, sendtype, recvbuf, int_count(recvcount, "recvcount"),
                                 recvtype, root);
    MovementArgs a =
        scatter_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    route::scatterv(c.rank.member(), cm, name, a.send.buf, a.send.counts, a.send.displs,
                    a.send.type.type, a.recv.out(), a.recv.count, a.recv.type.type, root);
  });
}

template <class N, class D>
int allgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
               void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype,
               PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    IntArray counts = counts_of(recvcounts, cm.peer_size(), "recvcounts");
    IntArray offsets = displs_of(displs, cm.peer_size(), "displs");
    if (cm.inter()) {
      if (!recvcounts || !displs) fail(PURE_ERR_ARG, "null receive counts or displacements");
      return inter_api::allgatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"),
                                   sendtype, recvbuf, 0, counts.data(), offsets.data(), recvtype);
    }
    MovementArgs a = allgatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, counts.data(),
                                     offsets.data(), recvtype);
    route::allgatherv(c.rank.member(), cm, name, a.send.buf, a.send.count, a.send.type.type,
                      a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type);
  });
}

int allgather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::allgatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"),
                                   sendtype, recvbuf, int_count(recvcount, "recvcount"), nullptr,
                                   nullptr, recvtype);
    MovementArgs a =
        allgather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    route::allgatherv(c.rank.member(), cm, name, a.send.buf, a.send.count, a.send.type.type,
                      a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type);
  });
}

template <class N, class D>
int alltoallv(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
              PURE_Datatype sendtype, void* recvbuf, const N* recvcounts, const D* rdispls,
              PURE_Datatype recvtype, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    const bool sends = !in_place(sendbuf);
    IntArray scounts = counts_of(sends ? sendcounts : nullptr, cm.peer_size(), "sendcounts");
    IntArray soffsets = displs_of(sends ? sdispls : nullptr, cm.peer_size(), "sdispls");
    IntArray rcounts = counts_of(recvcounts, cm.peer_size(), "recvcounts");
    IntArray roffsets = displs_of(rdispls, cm.peer_size(), "rdispls");
    if (cm.inter()) {
      if (!sendcounts || !sdispls || !recvcounts || !rdispls)
        fail(PURE_ERR_ARG, "null counts or displacements");
      return inter_api::alltoallv(c, cm, name, sendbuf, 0, scounts.data(), soffsets.data(),
                                  sendtype, recvbuf, 0, rcounts.data(), roffsets.data(), recvtype);
    }
    MovementArgs a = alltoallv_args(c, cm, sendbuf, scounts.data(), soffsets.data(), sendtype,
                                    recvbuf, rcounts.data(), roffsets.data(), recvtype);
    route::alltoallv(c.rank.member(), cm, name, a.send.buf, a.send.counts, a.send.displs,
                     a.send.type.type, a.recv.out(), a.recv.counts, a.recv.displs,
                     a.recv.type.type);
  });
}

int alltoall(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::alltoallv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"),
                                  nullptr, nullptr, sendtype, recvbuf,
                                  int_count(recvcount, "recvcount"), nullptr, nullptr, recvtype);
    if (sendcount <= INT_MAX && recvcount <= INT_MAX &&
        coll::pair_alltoall(c.rank.member(), cm, sendbuf, static_cast<int>(sendcount), sendtype,
                            recvbuf, static_cast<int>(recvcount), recvtype))
      return;
    MovementArgs a =
        alltoall_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    route::alltoallv(c.rank.member(), cm, name, a.send.buf, a.send.counts, a.send.displs,
                     a.send.type.type, a.recv.out(), a.recv.counts, a.recv.displs,
                     a.recv.type.type);
  });
}

}  // namespace

extern "C" {

int pure_op_create(PURE_User_function* user_fn, int commute, PURE_Op* op) {
  return call("pure_op_create", [&](Call& c) {
    if (!user_fn) fail(PURE_ERR_ARG, "null user function");
    if (!op) fail(PURE_ERR_ARG, "null op pointer");
    UserOp u;
    u.fn = user_fn;
    u.commute = commute != 0;
    *op = c.rank.handles().ops.add(u);
  });
}
int pure_op_create_c(PURE_User_function_c* user_fn, int commute, PURE_Op* op) {
  return call("pure_op_create_c", [&](Call& c) {
    if (!user_fn) fail(PURE_ERR_ARG, "null user function");
    if (!op) fail(PURE_ERR_ARG, "null op pointer");
    UserOp u;
    u.fn_c = user_fn;
    u.commute = commute != 0;
    *op = c.rank.handles().ops.add(u);
  });
}

int pure_op_free(PURE_Op* op) {
  return call("pure_op_free", [&](Call& c) {
    if (!op) fail(PURE_ERR_ARG, "null op pointer");
    OpRef ref = op_arg(c, *op);
    if (ref.predefined != 0) fail(PURE_ERR_OP, "the predefined op %s cannot be freed",
                                  op_name(ref.predefined));
    c.rank.handles().ops.remove(*op);
    *op = PURE_OP_NULL;
  });
}

int pure_op_commutative(PURE_Op op, int* commute) {
  return call("pure_op_commutative", [&](Call& c) {
    OpRef ref = op_arg(c, op);
    if (!commute) fail(PURE_ERR_ARG, "null result pointer");
    *commute = ref.predefined != 0 || ref.user.commute;
  });
}

int pure_reduce_local(const void* inbuf, void* inoutbuf, int count, PURE_Datatype datatype,
                      PURE_Op op) {
  return reduce_local("pure_reduce_local", inbuf, inoutbuf, count, datatype, op);
}
int pure_reduce_local_c(const void* inbuf, void* inoutbuf, PURE_Count count,
                        PURE_Datatype datatype, PURE_Op op) {
  return reduce_local("pure_reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}

int pure_barrier(PURE_Comm comm) {
  return collective("pure_barrier", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) return inter_api::barrier(c, cm);
    if (coll::pair_barrier(c.rank.member(), cm, "pure_barrier")) return;
    route::barrier(c.rank.member(), cm, "pure_barrier");
  });
}

int pure_bcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm) {
  return bcast("pure_bcast", buffer, count, datatype, root, comm);
}
int pure_bcast_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root,
                 PURE_Comm comm) {
  return bcast("pure_bcast_c", buffer, count, datatype, root, comm);
}

int pure_reduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                int root, PURE_Comm comm) {
  return reduce("pure_reduce", sendbuf, recvbuf, count, datatype, op, root, comm);
}
int pure_reduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                  PURE_Op op, int root, PURE_Comm comm) {
  return reduce("pure_reduce_c", sendbuf, recvbuf, count, datatype, op, root, comm);
}

int pure_allreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm) {
  return allreduce("pure_allreduce", sendbuf, recvbuf, count, datatype, op, comm);
}
int pure_allreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count,
                     PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return allreduce("pure_allreduce_c", sendbuf, recvbuf, count, datatype, op, comm);
}

int pure_scan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
              PURE_Comm comm) {
  return scan_call("pure_scan", false, sendbuf, recvbuf, count, datatype, op, comm);
}
int pure_scan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return scan_call("pure_scan_c", false, sendbuf, recvbuf, count, datatype, op, comm);
}

int pure_exscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return scan_call("pure_exscan", true, sendbuf, recvbuf, count, datatype, op, comm);
}
int pure_exscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                  PURE_Op op, PURE_Comm comm) {
  return scan_call("pure_exscan_c", true, sendbuf, recvbuf, count, datatype, op, comm);
}

int pure_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return reduce_scatter_block("pure_reduce_scatter_block", sendbuf, recvbuf, recvcount, datatype,
                              op, comm);
}
int pure_reduce_scatter_block_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return reduce_scatter_block("pure_reduce_scatter_block_c", sendbuf, recvbuf, recvcount,
                              datatype, op, comm);
}

int pure_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return reduce_scatter("pure_reduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm);
}
int pure_reduce_scatter_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return reduce_scatter("pure_reduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op,
                        comm);
}

int pure_gatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                 PURE_Comm comm) {
  return gatherv("pure_gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm);
}
int pure_gatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                   void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                   PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return gatherv("pure_gatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm);
}

int pure_gather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return gather("pure_gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                comm);
}
int pure_gather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                  void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                  PURE_Comm comm) {
  return gather("pure_gather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, comm);
}

int pure_scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                  int root, PURE_Comm comm) {
  return scatterv("pure_scatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
}
int pure_scatterv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint displs[],
                    PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                    PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return scatterv("pure_scatterv_c", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm);
}

int pure_scatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return scatter("pure_scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm);
}
int pure_scatter_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                   void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                   PURE_Comm comm) {
  return scatter("pure_scatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm);
}

int pure_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                    PURE_Comm comm) {
  return allgatherv("pure_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm);
}
int pure_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                      void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                      PURE_Datatype recvtype, PURE_Comm comm) {
  return allgatherv("pure_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm);
}

int pure_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return allgather("pure_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm);
}
int pure_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                     void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                     PURE_Comm comm) {
  return allgather("pure_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm);
}

int pure_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoallv("pure_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm);
}
int pure_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                     const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                     const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                     PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoallv("pure_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm);
}

int pure_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoall("pure_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm);
}
int pure_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                    PURE_Comm comm) {
  return alltoall("pure_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm);
}

}  // extern "C"
