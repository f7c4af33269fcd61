#include "api/inter_collectives.h"

#include <memory>
#include <vector>

#include "composite/intercomm.h"

namespace pure::api::inter_api {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// PURE_ROOT, PURE_PROC_NULL or a rank of the other group.
void root_arg(const Comm& ic, int root) {
  if (root == PURE_ROOT || root == PURE_PROC_NULL) return;
  if (root < 0 || root >= ic.remote_group().size())
    fail(PURE_ERR_ROOT,
         "invalid root %d on the intercommunicator %s (PURE_ROOT, PURE_PROC_NULL, or a rank of "
         "the other group, which has %d)",
         root, ic.name().c_str(), ic.remote_group().size());
}

void data_arg(const void* buf, int count, const Datatype& type, const char* which) {
  count_arg(count);
  if (buf == PURE_IN_PLACE)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s on an intercommunicator",
         which);
  buffer_arg(buf, count, type);
}

// n counts (cs, or `count` for each) and displacements (ds, or one block
// after the other).
struct Layout {
  std::vector<int> counts, displs;
  Layout(int n, int count, const int* cs, const int* ds, const char* which) {
    int next = 0;
    for (int i = 0; i < n; ++i) {
      const int k = cs ? cs[i] : count;
      if (k < 0) fail(PURE_ERR_COUNT, "invalid %s count %d at index %d", which, k, i);
      counts.push_back(k);
      displs.push_back(ds ? ds[i] : next);
      next += k;
    }
  }
};

void buffer_of(const void* buf, const Layout& l, const Datatype& type, const char* which) {
  if (buf == PURE_IN_PLACE)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s on an intercommunicator",
         which);
  bool any = false;
  for (int k : l.counts) any = any || k > 0;
  if (!buf && any && type.size() > 0) fail(PURE_ERR_BUFFER, "null %s", which);
}

coll::ReduceArgs reduce_args(Call& c, const char* name, const void* send, void* recv, int count,
                             PURE_Datatype datatype, PURE_Op op, TypeRef& t, OpRef& o,
                             std::unique_ptr<Reduction>& check) {
  count_arg(count);
  t = type_arg(c, datatype);
  o = op_arg(c, op);
  check = std::make_unique<Reduction>(o, *t.type, datatype, static_cast<std::size_t>(count));
  return coll::ReduceArgs{name, send, recv, static_cast<std::size_t>(count), t.type, datatype, o,
                          check.get()};
}

}  // namespace

void barrier(Call& c, Comm& ic) {
  Context cx = c.rank.context();
  inter::barrier(cx, ic, "pure_barrier");
}

void bcast(Call& c, Comm& ic, void* buffer, int count, PURE_Datatype datatype, int root) {
  root_arg(ic, root);
  if (root == PURE_PROC_NULL) return;
  TypeRef t = type_arg(c, datatype);
  data_arg(buffer, count, *t.type, "buffer");
  Context cx = c.rank.context();
  inter::bcast(cx, ic, "pure_bcast", buffer, at(count), t, root);
}

void reduce(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf, int count,
            PURE_Datatype datatype, PURE_Op op, int root) {
  if (root != -1) root_arg(ic, root);
  if (root == PURE_PROC_NULL) return;
  TypeRef t;
  OpRef o;
  std::unique_ptr<Reduction> check;
  coll::ReduceArgs a = reduce_args(c, name, sendbuf, recvbuf, count, datatype, op, t, o, check);
  if (root != PURE_ROOT) data_arg(sendbuf, count, *t.type, "send buffer");
  if (root == PURE_ROOT || root == -1) data_arg(recvbuf, count, *t.type, "receive buffer");
  Context cx = c.rank.context();
  inter::reduce(cx, ic, a, root);
}

void reduce_scatter(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf,
                    int recvcount, const int* recvcounts, PURE_Datatype datatype, PURE_Op op) {
  if (!recvcounts) count_arg(recvcount);
  Layout l(ic.size(), recvcount, recvcounts, nullptr, "receive");
  long long total = 0;
  for (int k : l.counts) total += k;
  if (total > 0x7fffffff) fail(PURE_ERR_COUNT, "the counts add up to more than 2^31-1");
  TypeRef t;
  OpRef o;
  std::unique_ptr<Reduction> check;
  coll::ReduceArgs a = reduce_args(c, name, sendbuf, recvbuf, static_cast<int>(total), datatype,
                                   op, t, o, check);
  data_arg(sendbuf, static_cast<int>(total), *t.type, "send buffer");
  data_arg(recvbuf, l.counts[at(ic.rank())], *t.type, "receive buffer");
  Context cx = c.rank.context();
  inter::reduce_scatter(cx, ic, a, l.counts.data());
}

void gatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
             PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
             const int* displs, PURE_Datatype recvtype, int root) {
  root_arg(ic, root);
  if (root == PURE_PROC_NULL) return;
  Context cx = c.rank.context();
  if (root == PURE_ROOT) {
    TypeRef rt = type_arg(c, recvtype);
    if (!rcounts) count_arg(rcount);
    else if (!displs) fail(PURE_ERR_ARG, "null receive counts or displacements");
    Layout l(ic.remote_group().size(), rcount, rcounts, displs, "receive");
    buffer_of(recvbuf, l, *rt.type, "receive buffer");
    inter::gatherv(cx, ic, name, nullptr, 0, TypeRef{}, recvbuf, l.counts.data(), l.displs.data(),
                   rt, root);
    return;
  }
  TypeRef st = type_arg(c, sendtype);
  data_arg(sendbuf, sendcount, *st.type, "send buffer");
  inter::gatherv(cx, ic, name, sendbuf, at(sendcount), st, nullptr, nullptr, nullptr, TypeRef{},
                 root);
}

void scatterv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
              const int* scounts, const int* displs, PURE_Datatype sendtype, void* recvbuf,
              int recvcount, PURE_Datatype recvtype, int root) {
  root_arg(ic, root);
  if (root == PURE_PROC_NULL) return;
  Context cx = c.rank.context();
  if (root == PURE_ROOT) {
    TypeRef st = type_arg(c, sendtype);
    if (!scounts) count_arg(scount);
    else if (!displs) fail(PURE_ERR_ARG, "null send counts or displacements");
    Layout l(ic.remote_group().size(), scount, scounts, displs, "send");
    buffer_of(sendbuf, l, *st.type, "send buffer");
    inter::scatterv(cx, ic, name, sendbuf, l.counts.data(), l.displs.data(), st, nullptr, 0,
                    TypeRef{}, root);
    return;
  }
  TypeRef rt = type_arg(c, recvtype);
  data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
  inter::scatterv(cx, ic, name, nullptr, nullptr, nullptr, TypeRef{}, recvbuf, at(recvcount), rt,
                  root);
}

void allgatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
                PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
                const int* displs, PURE_Datatype recvtype) {
  TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
  data_arg(sendbuf, sendcount, *st.type, "send buffer");
  if (!rcounts) count_arg(rcount);
  else if (!displs) fail(PURE_ERR_ARG, "null receive counts or displacements");
  Layout l(ic.remote_group().size(), rcount, rcounts, displs, "receive");
  buffer_of(recvbuf, l, *rt.type, "receive buffer");
  Context cx = c.rank.context();
  inter::allgatherv(cx, ic, name, sendbuf, at(sendcount), st, recvbuf, l.counts.data(),
                    l.displs.data(), rt);
}

void alltoallv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
               const int* scounts, const int* sdispls, PURE_Datatype sendtype, void* recvbuf,
               int rcount, const int* rcounts, const int* rdispls, PURE_Datatype recvtype) {
  TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
  const int n = ic.remote_group().size();
  if (!scounts) count_arg(scount);
  if (!rcounts) count_arg(rcount);
  if ((scounts && !sdispls) || (rcounts && !rdispls))
    fail(PURE_ERR_ARG, "null counts or displacements");
  Layout s(n, scount, scounts, sdispls, "send"), r(n, rcount, rcounts, rdispls, "receive");
  buffer_of(sendbuf, s, *st.type, "send buffer");
  buffer_of(recvbuf, r, *rt.type, "receive buffer");
  Context cx = c.rank.context();
  inter::alltoallv(cx, ic, name, sendbuf, s.counts.data(), s.displs.data(), st, recvbuf,
                   r.counts.data(), r.displs.data(), rt);
}

void no_scan(Comm& ic) {
  fail(PURE_ERR_COMM, "%s is an intercommunicator: scans are defined on intracommunicators only",
       ic.name().c_str());
}

}  // namespace pure::api::inter_api
