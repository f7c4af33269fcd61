// Flat API: reduction ops and the collectives. Validates what one rank can
// see on its own (handles, counts, buffers, roots, where PURE_IN_PLACE is
// allowed, whether the op applies to the type) and hands over to
// runtime/collectives, which checks what only shows when the members'
// arguments meet.
#include <vector>

#include "api/call.h"
#include "api/collective_args.h"
#include "api/inter_collectives.h"
#include "composite/route.h"
#include "collectives/collectives.h"
#include "collectives/pair.h"

using namespace pure;
using namespace pure::api;

namespace {

// The Reduction of checked arguments (which throws PURE_ERR_OP when the op
// does not apply to the type, before any round), handed to the collectives
// so that they need not build it again.
coll::ReduceArgs reduce_args_of(const char* name, const ReductionArgs& r, const Reduction& check) {
  return coll::ReduceArgs{name, r.send, r.recv, r.count, r.type.type, r.handle, r.op, &check};
}

int scan_call(const char* name, bool exclusive, const void* sendbuf, void* recvbuf, int count,
              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) inter_api::no_scan(cm);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::scan(c.rank.member(), cm, reduce_args_of(name, r, check), exclusive);
  });
}

}  // namespace

extern "C" {

int pure_op_create(PURE_User_function* user_fn, int commute, PURE_Op* op) {
  return call("pure_op_create", [&](Call& c) {
    if (!user_fn) fail(PURE_ERR_ARG, "null user function");
    if (!op) fail(PURE_ERR_ARG, "null op pointer");
    *op = c.rank.handles().ops.add(UserOp{user_fn, commute != 0});
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
  return call("pure_reduce_local", [&](Call& c) {
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

int pure_barrier(PURE_Comm comm) {
  return collective("pure_barrier", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) return inter_api::barrier(c, cm);
    if (coll::pair_barrier(c.rank.member(), cm, "pure_barrier")) return;
    route::barrier(c.rank.member(), cm, "pure_barrier");
  });
}

int pure_bcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm) {
  return collective("pure_bcast", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) return inter_api::bcast(c, cm, buffer, count, datatype, root);
    root_arg(cm, root);
    TypeRef t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
    route::bcast(c.rank.member(), cm, "pure_bcast", buffer, static_cast<std::size_t>(count), *t.type, root);
  });
}

int pure_reduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                int root, PURE_Comm comm) {
  return collective("pure_reduce", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, "pure_reduce", sendbuf, recvbuf, count, datatype, op, root);
    ReductionArgs r = reduce_args(c, cm, sendbuf, recvbuf, count, datatype, op, root);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce(c.rank.member(), cm, reduce_args_of("pure_reduce", r, check), root);
  });
}

int pure_allreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm) {
  return collective("pure_allreduce", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, "pure_allreduce", sendbuf, recvbuf, count, datatype, op,
                               -1);
    // Two rank threads, a predefined op and type, data that fits a line:
    // the exchange straight from the arguments, with no Reduction built.
    // Anything else, every error included, takes the general path.
    if (coll::pair_allreduce(c.rank.member(), cm, sendbuf, recvbuf, count, datatype, op)) return;
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce(c.rank.member(), cm, reduce_args_of("pure_allreduce", r, check), -1);
  });
}

int pure_scan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
              PURE_Comm comm) {
  return scan_call("pure_scan", false, sendbuf, recvbuf, count, datatype, op, comm);
}

int pure_exscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return scan_call("pure_exscan", true, sendbuf, recvbuf, count, datatype, op, comm);
}

int pure_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective("pure_reduce_scatter_block", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce_scatter(c, cm, "pure_reduce_scatter_block", sendbuf, recvbuf,
                                       recvcount, nullptr, datatype, op);
    std::vector<int> counts;
    ReductionArgs r = reduce_scatter_block_args(c, cm, sendbuf, recvbuf, recvcount, datatype, op,
                                                &counts);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce_scatter(c.rank.member(), cm, reduce_args_of("pure_reduce_scatter_block", r, check),
                          counts.data());
  });
}

int pure_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return collective("pure_reduce_scatter", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
      return inter_api::reduce_scatter(c, cm, "pure_reduce_scatter", sendbuf, recvbuf, 0,
                                       recvcounts, datatype, op);
    }
    ReductionArgs r = reduce_scatter_args(c, cm, sendbuf, recvbuf, recvcounts, datatype, op);
    Reduction check(r.op, *r.type.type, datatype, r.count);
    route::reduce_scatter(c.rank.member(), cm, reduce_args_of("pure_reduce_scatter", r, check),
                          recvcounts);
  });
}

int pure_gatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                 PURE_Comm comm) {
  return collective("pure_gatherv", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (root == PURE_ROOT && (!recvcounts || !displs))
        fail(PURE_ERR_ARG, "null receive counts or displacements");
      return inter_api::gatherv(c, cm, "pure_gatherv", sendbuf, sendcount, sendtype, recvbuf, 0,
                                recvcounts, displs, recvtype, root);
    }
    MovementArgs a = gatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root);
    route::gatherv(c.rank.member(), cm, "pure_gatherv", a.send.buf, a.send.count, a.send.type.type,
                   a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type, root);
  });
}

int pure_gather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective("pure_gather", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::gatherv(c, cm, "pure_gather", sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, nullptr, nullptr, recvtype, root);
    MovementArgs a =
        gather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    route::gatherv(c.rank.member(), cm, "pure_gather", a.send.buf, a.send.count, a.send.type.type,
                   a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type, root);
  });
}

int pure_scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                  int root, PURE_Comm comm) {
  return collective("pure_scatterv", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (root == PURE_ROOT && (!sendcounts || !displs))
        fail(PURE_ERR_ARG, "null send counts or displacements");
      return inter_api::scatterv(c, cm, "pure_scatterv", sendbuf, 0, sendcounts, displs, sendtype,
                                 recvbuf, recvcount, recvtype, root);
    }
    MovementArgs a = scatterv_args(c, cm, sendbuf, sendcounts, displs, sendtype, recvbuf,
                                   recvcount, recvtype, root);
    route::scatterv(c.rank.member(), cm, "pure_scatterv", a.send.buf, a.send.counts, a.send.displs,
                    a.send.type.type, a.recv.out(), a.recv.count, a.recv.type.type, root);
  });
}

int pure_scatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective("pure_scatter", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::scatterv(c, cm, "pure_scatter", sendbuf, sendcount, nullptr, nullptr,
                                 sendtype, recvbuf, recvcount, recvtype, root);
    MovementArgs a =
        scatter_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    route::scatterv(c.rank.member(), cm, "pure_scatter", a.send.buf, a.send.counts, a.send.displs,
                    a.send.type.type, a.recv.out(), a.recv.count, a.recv.type.type, root);
  });
}

int pure_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                    PURE_Comm comm) {
  return collective("pure_allgatherv", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (!recvcounts || !displs) fail(PURE_ERR_ARG, "null receive counts or displacements");
      return inter_api::allgatherv(c, cm, "pure_allgatherv", sendbuf, sendcount, sendtype,
                                   recvbuf, 0, recvcounts, displs, recvtype);
    }
    MovementArgs a = allgatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                     displs, recvtype);
    route::allgatherv(c.rank.member(), cm, "pure_allgatherv", a.send.buf, a.send.count, a.send.type.type,
                      a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type);
  });
}

int pure_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return collective("pure_allgather", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::allgatherv(c, cm, "pure_allgather", sendbuf, sendcount, sendtype,
                                   recvbuf, recvcount, nullptr, nullptr, recvtype);
    MovementArgs a =
        allgather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    route::allgatherv(c.rank.member(), cm, "pure_allgather", a.send.buf, a.send.count, a.send.type.type,
                      a.recv.out(), a.recv.counts, a.recv.displs, a.recv.type.type);
  });
}

int pure_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm) {
  return collective("pure_alltoallv", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (!sendcounts || !sdispls || !recvcounts || !rdispls)
        fail(PURE_ERR_ARG, "null counts or displacements");
      return inter_api::alltoallv(c, cm, "pure_alltoallv", sendbuf, 0, sendcounts, sdispls,
                                  sendtype, recvbuf, 0, recvcounts, rdispls, recvtype);
    }
    MovementArgs a = alltoallv_args(c, cm, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                    recvcounts, rdispls, recvtype);
    route::alltoallv(c.rank.member(), cm, "pure_alltoallv", a.send.buf, a.send.counts, a.send.displs,
                     a.send.type.type, a.recv.out(), a.recv.counts, a.recv.displs,
                     a.recv.type.type);
  });
}

int pure_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return collective("pure_alltoall", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::alltoallv(c, cm, "pure_alltoall", sendbuf, sendcount, nullptr, nullptr,
                                  sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype);
    if (coll::pair_alltoall(c.rank.member(), cm, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype))
      return;
    MovementArgs a =
        alltoall_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    route::alltoallv(c.rank.member(), cm, "pure_alltoall", a.send.buf, a.send.counts, a.send.displs,
                     a.send.type.type, a.recv.out(), a.recv.counts, a.recv.displs,
                     a.recv.type.type);
  });
}

}  // extern "C"
