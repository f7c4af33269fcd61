// Flat API: reduction ops and the collectives. Validates what one rank can
// see on its own (handles, counts, buffers, roots, where PURE_IN_PLACE is
// allowed, whether the op applies to the type) and hands over to
// runtime/collectives, which checks what only shows when the members'
// arguments meet.
#include <vector>

#include "api/call.h"
#include "api/inter_collectives.h"
#include "composite/route.h"
#include "collectives/collectives.h"
#include "collectives/pair.h"

using namespace pure;
using namespace pure::api;

namespace {

bool in_place(const void* p) { return p == PURE_IN_PLACE; }


void root_arg(const Comm& comm, int root) {
  if (root < 0 || root >= comm.size())
    fail(PURE_ERR_ROOT, "invalid root %d (%s has %d ranks)", root, comm.name().c_str(),
         comm.size());
}

// A send or receive buffer that is not PURE_IN_PLACE.
void data_arg(const void* buf, int count, const Datatype& type, const char* which) {
  count_arg(count);
  if (in_place(buf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s here", which);
  buffer_arg(buf, count, type);
}

void counts_arg(const int* counts, const int* displs, int n, const char* which) {
  if (!counts || !displs) fail(PURE_ERR_ARG, "null %s counts or displacements", which);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0) fail(PURE_ERR_COUNT, "invalid %s count %d at index %d", which, counts[i], i);
}

// Counts and displacements of equal blocks.
struct Blocks {
  std::vector<int> counts, displs;
  Blocks(int n, int count) : counts(static_cast<std::size_t>(n), count), displs(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) displs[static_cast<std::size_t>(i)] = i * count;
  }
};

// The checks every reduction makes once the communicator is known; then
// body(c, cm, args).
template <class Body>
void checked_reduction(Call& c, Comm& cm, const char* name, const void* sendbuf, void* recvbuf,
                       int count, PURE_Datatype datatype, PURE_Op op, bool may_be_in_place,
                       Body&& body) {
  count_arg(count);
  TypeRef t = type_arg(c, datatype);
  OpRef o = op_arg(c, op);
  if (in_place(sendbuf) && !may_be_in_place)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the send buffer here");
  if (!in_place(sendbuf)) buffer_arg(sendbuf, count, *t.type);
  // An op that does not apply fails here, before any round.
  Reduction check(o, *t.type, datatype, static_cast<std::size_t>(count));
  coll::ReduceArgs a{name, in_place(sendbuf) ? nullptr : sendbuf, recvbuf,
                     static_cast<std::size_t>(count), t.type, datatype, o, &check};
  body(c, cm, a);
}

template <class Body>
int reduction(const char* name, const void* sendbuf, void* recvbuf, int count,
              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, bool may_be_in_place,
              Body&& body) {
  return collective(name, [&](Call& c) {
    checked_reduction(c, comm_arg(c, comm), name, sendbuf, recvbuf, count, datatype, op,
                      may_be_in_place, body);
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
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  if (cm && cm->inter())
    return collective("pure_reduce", [&](Call& c) {
      inter_api::reduce(c, comm_arg(c, comm), "pure_reduce", sendbuf, recvbuf, count, datatype,
                        op, root);
    });
  // PURE_IN_PLACE is allowed at the root only; with an invalid root, report the root.
  const bool root_ok = cm && root >= 0 && root < cm->size();
  const bool may_be_in_place = !root_ok || cm->rank() == root;
  return reduction("pure_reduce", sendbuf, recvbuf, count, datatype, op, comm, may_be_in_place,
                   [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     root_arg(comm_ref, root);
                     if (comm_ref.rank() == root) buffer_arg(recvbuf, count, *a.type);
                     route::reduce(c.rank.member(), comm_ref, a, root);
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
    checked_reduction(c, cm, "pure_allreduce", sendbuf, recvbuf, count, datatype, op, true,
                      [&](Call& c2, Comm& cm2, coll::ReduceArgs& a) {
                        buffer_arg(recvbuf, count, *a.type);
                        route::reduce(c2.rank.member(), cm2, a, -1);
                      });
  });
}

int pure_scan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
              PURE_Comm comm) {
  return reduction("pure_scan", sendbuf, recvbuf, count, datatype, op, comm, true,
                   [&](Call& c, Comm& cm, coll::ReduceArgs& a) {
                     if (cm.inter()) inter_api::no_scan(cm);
                     buffer_arg(recvbuf, count, *a.type);
                     route::scan(c.rank.member(), cm, a, false);
                   });
}

int pure_exscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return reduction("pure_exscan", sendbuf, recvbuf, count, datatype, op, comm, true,
                   [&](Call& c, Comm& cm, coll::ReduceArgs& a) {
                     if (cm.inter()) inter_api::no_scan(cm);
                     buffer_arg(recvbuf, count, *a.type);
                     route::scan(c.rank.member(), cm, a, true);
                   });
}

int pure_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  if (cm && cm->inter())
    return collective("pure_reduce_scatter_block", [&](Call& c) {
      inter_api::reduce_scatter(c, comm_arg(c, comm), "pure_reduce_scatter_block", sendbuf,
                                recvbuf, recvcount, nullptr, datatype, op);
    });
  const int n = cm ? cm->size() : 1;
  const long long total = static_cast<long long>(recvcount) * n;
  return reduction("pure_reduce_scatter_block", sendbuf, recvbuf,
                   total > 0x7fffffff ? -1 : static_cast<int>(total), datatype, op, comm, true,
                   [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     count_arg(recvcount);
                     if (!a.send) buffer_arg(recvbuf, static_cast<int>(total), *a.type);
                     buffer_arg(recvbuf, recvcount, *a.type);
                     std::vector<int> counts(static_cast<std::size_t>(comm_ref.size()), recvcount);
                     route::reduce_scatter(c.rank.member(), comm_ref, a, counts.data());
                   });
}

int pure_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  if (cm && cm->inter())
    return collective("pure_reduce_scatter", [&](Call& c) {
      if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
      inter_api::reduce_scatter(c, comm_arg(c, comm), "pure_reduce_scatter", sendbuf, recvbuf, 0,
                                recvcounts, datatype, op);
    });
  long long total = 0;
  if (cm && recvcounts)
    for (int i = 0; i < cm->size(); ++i) total += recvcounts[i] > 0 ? recvcounts[i] : 0;
  return reduction("pure_reduce_scatter", sendbuf, recvbuf,
                   total > 0x7fffffff ? -1 : static_cast<int>(total), datatype, op, comm, true,
                   [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
                     for (int i = 0; i < comm_ref.size(); ++i)
                       if (recvcounts[i] < 0)
                         fail(PURE_ERR_COUNT, "invalid recvcounts[%d] = %d", i, recvcounts[i]);
                     buffer_arg(recvbuf, recvcounts[comm_ref.rank()], *a.type);
                     route::reduce_scatter(c.rank.member(), comm_ref, a, recvcounts);
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
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    if (!(at_root && in_place(sendbuf))) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    if (at_root) {
      rt = type_arg(c, recvtype);
      counts_arg(recvcounts, displs, cm.size(), "receive");
      if (in_place(recvbuf) || (!recvbuf && rt.type->size() > 0))
        fail(PURE_ERR_BUFFER, "invalid receive buffer at the root");
    }
    route::gatherv(c.rank.member(), cm, "pure_gatherv", in_place(sendbuf) ? nullptr : sendbuf,
                  static_cast<std::size_t>(sendcount), st.type, recvbuf, recvcounts, displs,
                  rt.type, root);
  });
}

int pure_gather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective("pure_gather", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::gatherv(c, cm, "pure_gather", sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, nullptr, nullptr, recvtype, root);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    if (!(at_root && in_place(sendbuf))) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    Blocks b(cm.size(), recvcount);
    if (at_root) {
      rt = type_arg(c, recvtype);
      count_arg(recvcount);
      if (in_place(recvbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the receive buffer");
      buffer_arg(recvbuf, recvcount, *rt.type);
    }
    route::gatherv(c.rank.member(), cm, "pure_gather", in_place(sendbuf) ? nullptr : sendbuf,
                  static_cast<std::size_t>(sendcount), st.type, recvbuf, b.counts.data(),
                  b.displs.data(), rt.type, root);
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
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    if (at_root) {
      st = type_arg(c, sendtype);
      counts_arg(sendcounts, displs, cm.size(), "send");
      if (in_place(sendbuf) || (!sendbuf && st.type->size() > 0))
        fail(PURE_ERR_BUFFER, "invalid send buffer at the root");
    }
    if (!(at_root && in_place(recvbuf))) {
      rt = type_arg(c, recvtype);
      data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    }
    route::scatterv(c.rank.member(), cm, "pure_scatterv", sendbuf, sendcounts, displs, st.type,
                   in_place(recvbuf) ? nullptr : recvbuf, static_cast<std::size_t>(recvcount),
                   rt.type, root);
  });
}

int pure_scatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return collective("pure_scatter", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::scatterv(c, cm, "pure_scatter", sendbuf, sendcount, nullptr, nullptr,
                                 sendtype, recvbuf, recvcount, recvtype, root);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    Blocks b(cm.size(), sendcount);
    if (at_root) {
      st = type_arg(c, sendtype);
      count_arg(sendcount);
      if (in_place(sendbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the send buffer");
      buffer_arg(sendbuf, sendcount, *st.type);
    }
    if (!(at_root && in_place(recvbuf))) {
      rt = type_arg(c, recvtype);
      data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    }
    route::scatterv(c.rank.member(), cm, "pure_scatter", sendbuf, b.counts.data(), b.displs.data(), st.type,
                   in_place(recvbuf) ? nullptr : recvbuf, static_cast<std::size_t>(recvcount),
                   rt.type, root);
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
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    counts_arg(recvcounts, displs, cm.size(), "receive");
    if (in_place(recvbuf) || (!recvbuf && rt.type->size() > 0))
      fail(PURE_ERR_BUFFER, "invalid receive buffer");
    route::allgatherv(c.rank.member(), cm, "pure_allgatherv", in_place(sendbuf) ? nullptr : sendbuf,
                     static_cast<std::size_t>(sendcount), st.type, recvbuf, recvcounts, displs,
                     rt.type);
  });
}

int pure_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return collective("pure_allgather", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::allgatherv(c, cm, "pure_allgather", sendbuf, sendcount, sendtype,
                                   recvbuf, recvcount, nullptr, nullptr, recvtype);
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    Blocks b(cm.size(), recvcount);
    route::allgatherv(c.rank.member(), cm, "pure_allgather", in_place(sendbuf) ? nullptr : sendbuf,
                     static_cast<std::size_t>(sendcount), st.type, recvbuf, b.counts.data(),
                     b.displs.data(), rt.type);
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
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      counts_arg(sendcounts, sdispls, cm.size(), "send");
      if (!sendbuf && st.type->size() > 0) fail(PURE_ERR_BUFFER, "null send buffer");
    }
    counts_arg(recvcounts, rdispls, cm.size(), "receive");
    if (in_place(recvbuf) || (!recvbuf && rt.type->size() > 0))
      fail(PURE_ERR_BUFFER, "invalid receive buffer");
    route::alltoallv(c.rank.member(), cm, "pure_alltoallv", in_place(sendbuf) ? nullptr : sendbuf,
                    sendcounts, sdispls, st.type, recvbuf, recvcounts, rdispls, rt.type);
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
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    Blocks s(cm.size(), sendcount), r(cm.size(), recvcount);
    route::alltoallv(c.rank.member(), cm, "pure_alltoall", in_place(sendbuf) ? nullptr : sendbuf,
                    s.counts.data(), s.displs.data(), st.type, recvbuf, r.counts.data(),
                    r.displs.data(), rt.type);
  });
}

}  // extern "C"
