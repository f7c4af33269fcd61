// Flat API: reduction ops and the collectives. Validates what one rank can
// see on its own (handles, counts, buffers, roots, where PURE_IN_PLACE is
// allowed, whether the op applies to the type) and hands over to
// runtime/collectives, which checks what only shows when the members'
// arguments meet.
#include <optional>
#include <vector>

#include "api/call.h"
#include "api/collective_args.h"
#include "api/route.h"
#include "collectives/collectives.h"
#include "collectives/pair.h"

using namespace pure;
using namespace pure::api;

namespace {

// The checks every reduction makes once the communicator is known; then
// body(c, cm, args), which checks the receive buffer as args.recv.
template <class Body>
void checked_reduction(Call& c, Comm& cm, const char* name, const void* sendbuf, void* recvbuf,
                       long long count, PURE_Datatype datatype, PURE_Op op, bool may_be_in_place,
                       Body&& body) {
  count_arg(count);
  TypeRef t = type_arg(c, datatype);
  OpRef o = op_arg(c, op);
  if (in_place(sendbuf) && !may_be_in_place)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the send buffer here");
  if (!in_place(sendbuf)) buffer_arg(sendbuf, count, *t.type);
  // Either buffer PURE_BOTTOM: both move with the shifted type.
  Bottom bottom;
  const Datatype* type = t.type;
  const std::ptrdiff_t by = bottom.shift(sendbuf && recvbuf ? sendbuf : nullptr, type);
  if (by != 0 && o.predefined == 0)
    fail(PURE_ERR_BUFFER,
         "PURE_BOTTOM with a user op is not supported (the op would be handed the data at "
         "another address than its datatype says)");
  const void* send = Bottom::moved(sendbuf, by);
  void* recv = Bottom::moved(recvbuf, by);
  // An op that does not apply fails here, before any round.
  Reduction check(o, *type, datatype, static_cast<std::size_t>(count));
  coll::ReduceArgs a{name, in_place(send) ? nullptr : send, recv,
                     static_cast<std::size_t>(count), type, datatype, o, &check};
  body(c, cm, a);
}

template <class Body>
int reduction(const char* name, const void* sendbuf, void* recvbuf, long long count,
              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, bool may_be_in_place,
              Body&& body) {
  return call(name, [&](Call& c) {
    checked_reduction(c, comm_arg(c, comm), name, sendbuf, recvbuf, count, datatype, op,
                      may_be_in_place, body);
  });
}

// ---- each collective once, over the count types of its int and _c calls ----

template <class N>
int reduce_local(const char* name, const void* inbuf, void* inoutbuf, N count,
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

template <class N>
int bcast(const char* name, void* buffer, N count, PURE_Datatype datatype, int root,
          PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    root_arg(cm, root);
    TypeRef t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
    Bottom bottom;
    const Datatype* type = t.type;
    bottom.rebase(buffer, type);
    route::bcast(c.rank, cm, name, buffer, static_cast<std::size_t>(count), *type, root);
  });
}

template <class N>
int reduce(const char* name, const void* sendbuf, void* recvbuf, N count, PURE_Datatype datatype,
           PURE_Op op, int root, PURE_Comm comm) {
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  // PURE_IN_PLACE is allowed at the root only; with an invalid root, report the root.
  const bool root_ok = cm && root >= 0 && root < cm->size();
  const bool may_be_in_place = !root_ok || cm->rank() == root;
  return reduction(name, sendbuf, recvbuf, count, datatype, op, comm, may_be_in_place,
                   [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     root_arg(comm_ref, root);
                     if (comm_ref.rank() == root) buffer_arg(a.recv, count, *a.type);
                     route::reduce(c.rank, comm_ref, a, root);
                   });
}

// An allreduce past the inline two-rank exchange.
void general_allreduce(Call& c, Comm& cm, const char* name, const void* sendbuf, void* recvbuf,
                       long long count, PURE_Datatype datatype, PURE_Op op) {
  checked_reduction(c, cm, name, sendbuf, recvbuf, count, datatype, op, true,
                    [&](Call& c2, Comm& cm2, coll::ReduceArgs& a) {
                      buffer_arg(a.recv, count, *a.type);
                      route::reduce(c2.rank, cm2, a, -1);
                    });
}

template <class N>
int scan(const char* name, const void* sendbuf, void* recvbuf, N count, PURE_Datatype datatype,
         PURE_Op op, PURE_Comm comm, bool exclusive) {
  return reduction(name, sendbuf, recvbuf, count, datatype, op, comm, true,
                   [&](Call& c, Comm& cm, coll::ReduceArgs& a) {
                     buffer_arg(a.recv, count, *a.type);
                     route::scan(c.rank, cm, a, exclusive);
                   });
}

template <class N>
int reduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, N recvcount,
                         PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  const int n = cm ? cm->size() : 1;
  long long total = 0;
  if (recvcount > 0 && __builtin_mul_overflow(static_cast<long long>(recvcount), n, &total))
    total = -1;  // reported below as an invalid count
  return reduction(name, sendbuf, recvbuf, recvcount < 0 ? recvcount : total, datatype, op, comm,
                   true, [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     count_arg(recvcount);
                     if (!a.send) buffer_arg(a.recv, total, *a.type);
                     buffer_arg(a.recv, recvcount, *a.type);
                     // Named: an int IntArray points into it rather than copying.
                     const std::vector<N> each(static_cast<std::size_t>(comm_ref.size()),
                                               recvcount);
                     IntArray counts = counts_of(each.data(), comm_ref.size(), "recvcount");
                     route::reduce_scatter(c.rank, comm_ref, a, counts.data());
                   });
}

template <class N>
int reduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const N* recvcounts,
                   PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  Rank* r = Rank::current();
  Comm* cm = r ? r->comm(comm) : nullptr;
  long long total = 0;
  if (cm && recvcounts)
    for (int i = 0; i < cm->size(); ++i) total += recvcounts[i] > 0 ? recvcounts[i] : 0;
  return reduction(name, sendbuf, recvbuf, total, datatype, op, comm, true,
                   [&](Call& c, Comm& comm_ref, coll::ReduceArgs& a) {
                     if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
                     for (int i = 0; i < comm_ref.size(); ++i)
                       if (recvcounts[i] < 0)
                         fail(PURE_ERR_COUNT, "invalid recvcounts[%d] = %lld", i,
                              static_cast<long long>(recvcounts[i]));
                     buffer_arg(a.recv, recvcounts[comm_ref.rank()], *a.type);
                     IntArray counts = counts_of(recvcounts, comm_ref.size(), "recvcounts");
                     route::reduce_scatter(c.rank, comm_ref, a, counts.data());
                   });
}

template <class N, class D>
int gatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
            void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype, int root,
            PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    if (!(at_root && in_place(sendbuf))) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    std::optional<IntArray> counts, offsets;
    if (at_root) {
      rt = type_arg(c, recvtype);
      counts_arg(recvcounts, displs, cm.size(), "receive");
      whole_buffer_arg(recvbuf, *rt.type, "receive");
      counts.emplace(counts_of(recvcounts, cm.size(), "recvcounts"));
      offsets.emplace(displs_of(displs, cm.size(), "displs"));
    }
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::gatherv(c.rank, cm, name, s.send, static_cast<std::size_t>(sendcount), s.stype, s.recv,
                   counts ? counts->data() : nullptr, offsets ? offsets->data() : nullptr,
                   s.rtype, root);
  });
}

template <class N>
int gather(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
           void* recvbuf, N recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    if (!(at_root && in_place(sendbuf))) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    std::optional<Blocks> b;
    if (at_root) {
      rt = type_arg(c, recvtype);
      count_arg(recvcount);
      if (in_place(recvbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the receive buffer");
      buffer_arg(recvbuf, recvcount, *rt.type);
      b.emplace(cm.size(), recvcount);
    }
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::gatherv(c.rank, cm, name, s.send, static_cast<std::size_t>(sendcount), s.stype, s.recv,
                   b ? b->counts.data() : nullptr, b ? b->displs.data() : nullptr, s.rtype, root);
  });
}

template <class N, class D>
int scatterv(const char* name, const void* sendbuf, const N* sendcounts, const D* displs,
             PURE_Datatype sendtype, void* recvbuf, N recvcount, PURE_Datatype recvtype, int root,
             PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    std::optional<IntArray> counts, offsets;
    if (at_root) {
      st = type_arg(c, sendtype);
      counts_arg(sendcounts, displs, cm.size(), "send");
      whole_buffer_arg(sendbuf, *st.type, "send");
      counts.emplace(counts_of(sendcounts, cm.size(), "sendcounts"));
      offsets.emplace(displs_of(displs, cm.size(), "displs"));
    }
    if (!(at_root && in_place(recvbuf))) {
      rt = type_arg(c, recvtype);
      data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    }
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::scatterv(c.rank, cm, name, s.send, counts ? counts->data() : nullptr,
                    offsets ? offsets->data() : nullptr, s.stype, s.recv,
                    static_cast<std::size_t>(recvcount), s.rtype, root);
  });
}

template <class N>
int scatter(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
            void* recvbuf, N recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    root_arg(cm, root);
    const bool at_root = cm.rank() == root;
    TypeRef st, rt;
    std::optional<Blocks> b;
    if (at_root) {
      st = type_arg(c, sendtype);
      count_arg(sendcount);
      if (in_place(sendbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the send buffer");
      buffer_arg(sendbuf, sendcount, *st.type);
      b.emplace(cm.size(), sendcount);
    }
    if (!(at_root && in_place(recvbuf))) {
      rt = type_arg(c, recvtype);
      data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    }
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::scatterv(c.rank, cm, name, s.send, b ? b->counts.data() : nullptr,
                    b ? b->displs.data() : nullptr, s.stype, s.recv,
                    static_cast<std::size_t>(recvcount), s.rtype, root);
  });
}

template <class N, class D>
int allgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
               void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype,
               PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    counts_arg(recvcounts, displs, cm.size(), "receive");
    whole_buffer_arg(recvbuf, *rt.type, "receive");
    IntArray counts = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray offsets = displs_of(displs, cm.size(), "displs");
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::allgatherv(c.rank, cm, name, s.send, static_cast<std::size_t>(sendcount), s.stype,
                      s.recv, counts.data(), offsets.data(), s.rtype);
  });
}

template <class N>
int allgather(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
              void* recvbuf, N recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    TypeRef st, rt = type_arg(c, recvtype);
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      data_arg(sendbuf, sendcount, *st.type, "send buffer");
    }
    data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
    Blocks b(cm.size(), recvcount);
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::allgatherv(c.rank, cm, name, s.send, static_cast<std::size_t>(sendcount), s.stype,
                      s.recv, b.counts.data(), b.displs.data(), s.rtype);
  });
}

template <class N, class D>
int alltoallv(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
              PURE_Datatype sendtype, void* recvbuf, const N* recvcounts, const D* rdispls,
              PURE_Datatype recvtype, PURE_Comm comm) {
  return call(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    TypeRef st, rt = type_arg(c, recvtype);
    std::optional<IntArray> scounts, soffsets;
    if (!in_place(sendbuf)) {
      st = type_arg(c, sendtype);
      counts_arg(sendcounts, sdispls, cm.size(), "send");
      whole_buffer_arg(sendbuf, *st.type, "send");
      scounts.emplace(counts_of(sendcounts, cm.size(), "sendcounts"));
      soffsets.emplace(displs_of(sdispls, cm.size(), "sdispls"));
    }
    counts_arg(recvcounts, rdispls, cm.size(), "receive");
    whole_buffer_arg(recvbuf, *rt.type, "receive");
    IntArray rcounts = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray roffsets = displs_of(rdispls, cm.size(), "rdispls");
    Sides s(sendbuf, st.type, recvbuf, rt.type);
    route::alltoallv(c.rank, cm, name, s.send, scounts ? scounts->data() : nullptr,
                     soffsets ? soffsets->data() : nullptr, s.stype, s.recv, rcounts.data(),
                     roffsets.data(), s.rtype);
  });
}

// An alltoall past the inline two-rank exchange.
void general_alltoall(Call& c, Comm& cm, const char* name, const void* sendbuf,
                      long long sendcount, PURE_Datatype sendtype, void* recvbuf,
                      long long recvcount, PURE_Datatype recvtype) {
  TypeRef st, rt = type_arg(c, recvtype);
  if (!in_place(sendbuf)) {
    st = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *st.type, "send buffer");
  }
  data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
  std::optional<Blocks> sb;
  if (!in_place(sendbuf)) sb.emplace(cm.size(), sendcount);
  Blocks rb(cm.size(), recvcount);
  Sides s(sendbuf, st.type, recvbuf, rt.type);
  route::alltoallv(c.rank, cm, name, s.send, sb ? sb->counts.data() : nullptr,
                   sb ? sb->displs.data() : nullptr, s.stype, s.recv, rb.counts.data(),
                   rb.displs.data(), s.rtype);
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
  return call("pure_barrier", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (coll::pair_barrier(c.rank.member(), cm, "pure_barrier")) return;
    route::barrier(c.rank, cm, "pure_barrier");
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
  return call("pure_allreduce", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    // Two rank threads, a predefined op and type, data that fits a line:
    // the exchange straight from the arguments, with no Reduction built.
    // Anything else, every error included, takes the general path.
    if (coll::pair_allreduce(c.rank.member(), cm, sendbuf, recvbuf, count, datatype, op)) return;
    general_allreduce(c, cm, "pure_allreduce", sendbuf, recvbuf, count, datatype, op);
  });
}
int pure_allreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count,
                     PURE_Datatype datatype, PURE_Op op, PURE_Comm comm) {
  return call("pure_allreduce_c", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    general_allreduce(c, cm, "pure_allreduce_c", sendbuf, recvbuf, count, datatype, op);
  });
}

int pure_scan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
              PURE_Comm comm) {
  return scan("pure_scan", sendbuf, recvbuf, count, datatype, op, comm, false);
}
int pure_scan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return scan("pure_scan_c", sendbuf, recvbuf, count, datatype, op, comm, false);
}

int pure_exscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm) {
  return scan("pure_exscan", sendbuf, recvbuf, count, datatype, op, comm, true);
}
int pure_exscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                  PURE_Op op, PURE_Comm comm) {
  return scan("pure_exscan_c", sendbuf, recvbuf, count, datatype, op, comm, true);
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
  return call("pure_alltoall", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (coll::pair_alltoall(c.rank.member(), cm, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                            recvtype))
      return;
    general_alltoall(c, cm, "pure_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype);
  });
}
int pure_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                    PURE_Comm comm) {
  return call("pure_alltoall_c", [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    general_alltoall(c, cm, "pure_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype);
  });
}

}  // extern "C"
