#include "api/inter_collectives.h"

#include <memory>
#include <vector>

#include "composite/intercomm.h"
#include "nonblocking/collectives.h"

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
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s on an intercommunicator", which);
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
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s on an intercommunicator", which);
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
  return coll::ReduceArgs{name,   send,     recv, static_cast<std::size_t>(count),
                          t.type, datatype, o,    check.get()};
}

// Where the groups sit in the bridge, on which the schedules run.
nbc::Sides sides(const Comm& ic) {
  return nbc::Sides{ic.rank(), ic.size(), ic.remote_group().size(), ic.local_first()};
}

// The nonblocking or persistent form: the schedule `build` appends to, on
// the intercommunicator's bridge, launched as `to` says.
template <class Build>
void scheduled(Call& c, Comm& ic, const Launch& to, Build&& build) {
  auto s =
      std::make_unique<nbc::Schedule>(c.rank.p2p(), ic.bridge(), c.rank.process().tag_ub(), c.name);
  build(*s, sides(ic));
  launch(c, ic, std::move(s), to);
}

// The blocks of a layout of the other group's members in `buf`.
std::vector<nbc::Block> blocks(void* buf, const Layout& l, const TypeRef& type) {
  std::vector<nbc::Block> b;
  for (std::size_t k = 0; k < l.counts.size(); ++k)
    b.push_back(nbc::Block{
        static_cast<char*>(buf) + static_cast<long long>(l.displs[k]) * type.type->extent(),
        at(l.counts[k]), type});
  return b;
}

nbc::ReduceSpec spec(const coll::ReduceArgs& a, const TypeRef& t) {
  return nbc::ReduceSpec{a.send, a.recv, a.count, t, a.handle, a.op};
}

}  // namespace

void barrier(Call& c, Comm& ic, const Launch* to) {
  if (to) {
    launch_arg(c, *to);
    return scheduled(c, ic, *to,
                     [&](nbc::Schedule& s, const nbc::Sides& g) { nbc::inter_barrier(s, g); });
  }
  Context cx = c.rank.context();
  inter::barrier(cx, ic, "pure_barrier");
}

void bcast(Call& c, Comm& ic, void* buffer, int count, PURE_Datatype datatype, int root,
           const Launch* to) {
  if (to) launch_arg(c, *to);
  root_arg(ic, root);
  TypeRef t;
  if (root != PURE_PROC_NULL) {
    t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
  }
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_bcast(s, g, buffer, at(count), t, root);
    });
  if (root == PURE_PROC_NULL) return;
  Context cx = c.rank.context();
  inter::bcast(cx, ic, "pure_bcast", buffer, at(count), t, root);
}

void reduce(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf, int count,
            PURE_Datatype datatype, PURE_Op op, int root, const Launch* to) {
  if (to) launch_arg(c, *to);
  if (root != -1) root_arg(ic, root);
  if (root == PURE_PROC_NULL) {
    if (to) scheduled(c, ic, *to, [](nbc::Schedule& s, const nbc::Sides&) { s.round(); });
    return;
  }
  TypeRef t;
  OpRef o;
  std::unique_ptr<Reduction> check;
  coll::ReduceArgs a = reduce_args(c, name, sendbuf, recvbuf, count, datatype, op, t, o, check);
  if (root != PURE_ROOT) data_arg(sendbuf, count, *t.type, "send buffer");
  if (root == PURE_ROOT || root == -1) data_arg(recvbuf, count, *t.type, "receive buffer");
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_reduce(s, g, spec(a, t), root == -1 ? nbc::kEveryMember : root);
    });
  Context cx = c.rank.context();
  inter::reduce(cx, ic, a, root);
}

void reduce_scatter(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf,
                    int recvcount, const int* recvcounts, PURE_Datatype datatype, PURE_Op op,
                    const Launch* to) {
  if (to) launch_arg(c, *to);
  if (!recvcounts) count_arg(recvcount);
  Layout l(ic.size(), recvcount, recvcounts, nullptr, "receive");
  long long total = 0;
  for (int k : l.counts) total += k;
  if (total > 0x7fffffff) fail(PURE_ERR_COUNT, "the counts add up to more than 2^31-1");
  TypeRef t;
  OpRef o;
  std::unique_ptr<Reduction> check;
  coll::ReduceArgs a =
      reduce_args(c, name, sendbuf, recvbuf, static_cast<int>(total), datatype, op, t, o, check);
  data_arg(sendbuf, static_cast<int>(total), *t.type, "send buffer");
  data_arg(recvbuf, l.counts[at(ic.rank())], *t.type, "receive buffer");
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_reduce_scatter(s, g, spec(a, t), l.counts);
    });
  Context cx = c.rank.context();
  inter::reduce_scatter(cx, ic, a, l.counts.data());
}

void gatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
             PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
             const int* displs, PURE_Datatype recvtype, int root, const Launch* to) {
  if (to) launch_arg(c, *to);
  root_arg(ic, root);
  Context cx = c.rank.context();
  if (root == PURE_ROOT) {
    TypeRef rt = type_arg(c, recvtype);
    if (!rcounts)
      count_arg(rcount);
    else if (!displs)
      fail(PURE_ERR_ARG, "null receive counts or displacements");
    Layout l(ic.remote_group().size(), rcount, rcounts, displs, "receive");
    buffer_of(recvbuf, l, *rt.type, "receive buffer");
    if (to)
      return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
        nbc::inter_gather(s, g, root, nbc::Block{}, blocks(recvbuf, l, rt));
      });
    inter::gatherv(cx, ic, name, nullptr, 0, TypeRef{}, recvbuf, l.counts.data(), l.displs.data(),
                   rt, root);
    return;
  }
  TypeRef st;
  if (root != PURE_PROC_NULL) {
    st = type_arg(c, sendtype);
    data_arg(sendbuf, sendcount, *st.type, "send buffer");
  }
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_gather(s, g, root, nbc::Block{const_cast<void*>(sendbuf), at(sendcount), st}, {});
    });
  if (root == PURE_PROC_NULL) return;
  inter::gatherv(cx, ic, name, sendbuf, at(sendcount), st, nullptr, nullptr, nullptr, TypeRef{},
                 root);
}

void scatterv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
              const int* scounts, const int* displs, PURE_Datatype sendtype, void* recvbuf,
              int recvcount, PURE_Datatype recvtype, int root, const Launch* to) {
  if (to) launch_arg(c, *to);
  root_arg(ic, root);
  Context cx = c.rank.context();
  if (root == PURE_ROOT) {
    TypeRef st = type_arg(c, sendtype);
    if (!scounts)
      count_arg(scount);
    else if (!displs)
      fail(PURE_ERR_ARG, "null send counts or displacements");
    Layout l(ic.remote_group().size(), scount, scounts, displs, "send");
    buffer_of(sendbuf, l, *st.type, "send buffer");
    if (to)
      return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
        nbc::inter_scatter(s, g, root, blocks(const_cast<void*>(sendbuf), l, st), nbc::Block{});
      });
    inter::scatterv(cx, ic, name, sendbuf, l.counts.data(), l.displs.data(), st, nullptr, 0,
                    TypeRef{}, root);
    return;
  }
  TypeRef rt;
  if (root != PURE_PROC_NULL) {
    rt = type_arg(c, recvtype);
    data_arg(recvbuf, recvcount, *rt.type, "receive buffer");
  }
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_scatter(s, g, root, {}, nbc::Block{recvbuf, at(recvcount), rt});
    });
  if (root == PURE_PROC_NULL) return;
  inter::scatterv(cx, ic, name, nullptr, nullptr, nullptr, TypeRef{}, recvbuf, at(recvcount), rt,
                  root);
}

void allgatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
                PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
                const int* displs, PURE_Datatype recvtype, const Launch* to) {
  if (to) launch_arg(c, *to);
  TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
  data_arg(sendbuf, sendcount, *st.type, "send buffer");
  if (!rcounts)
    count_arg(rcount);
  else if (!displs)
    fail(PURE_ERR_ARG, "null receive counts or displacements");
  Layout l(ic.remote_group().size(), rcount, rcounts, displs, "receive");
  buffer_of(recvbuf, l, *rt.type, "receive buffer");
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& s, const nbc::Sides& g) {
      nbc::inter_allgather(s, g, nbc::Block{const_cast<void*>(sendbuf), at(sendcount), st},
                           blocks(recvbuf, l, rt));
    });
  Context cx = c.rank.context();
  inter::allgatherv(cx, ic, name, sendbuf, at(sendcount), st, recvbuf, l.counts.data(),
                    l.displs.data(), rt);
}

void alltoallv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
               const int* scounts, const int* sdispls, PURE_Datatype sendtype, void* recvbuf,
               int rcount, const int* rcounts, const int* rdispls, PURE_Datatype recvtype,
               const Launch* to) {
  if (to) launch_arg(c, *to);
  TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
  const int n = ic.remote_group().size();
  if (!scounts) count_arg(scount);
  if (!rcounts) count_arg(rcount);
  if ((scounts && !sdispls) || (rcounts && !rdispls))
    fail(PURE_ERR_ARG, "null counts or displacements");
  Layout s(n, scount, scounts, sdispls, "send"), r(n, rcount, rcounts, rdispls, "receive");
  buffer_of(sendbuf, s, *st.type, "send buffer");
  buffer_of(recvbuf, r, *rt.type, "receive buffer");
  if (to)
    return scheduled(c, ic, *to, [&](nbc::Schedule& sc, const nbc::Sides& g) {
      nbc::inter_alltoall(sc, g, blocks(const_cast<void*>(sendbuf), s, st), blocks(recvbuf, r, rt));
    });
  Context cx = c.rank.context();
  inter::alltoallv(cx, ic, name, sendbuf, s.counts.data(), s.displs.data(), st, recvbuf,
                   r.counts.data(), r.displs.data(), rt);
}

void alltoallw(Call& c, Comm& ic, const void* sendbuf, const int* scounts, const long long* sdispls,
               const PURE_Datatype* sendtypes, void* recvbuf, const int* rcounts,
               const long long* rdispls, const PURE_Datatype* recvtypes, const Launch* to) {
  if (to) launch_arg(c, *to);
  const int n = ic.remote_group().size();
  if (n > 0 && (!scounts || !sdispls || !sendtypes || !rcounts || !rdispls || !recvtypes))
    fail(PURE_ERR_ARG, "null counts, displacements or datatypes");
  if (sendbuf == PURE_IN_PLACE || recvbuf == PURE_IN_PLACE)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed on an intercommunicator");
  std::vector<nbc::Block> sends, recvs;
  for (int j = 0; j < n; ++j) {
    count_arg(scounts[j]);
    count_arg(rcounts[j]);
    TypeRef st = type_arg(c, sendtypes[j]), rt = type_arg(c, recvtypes[j]);
    if (!sendbuf && scounts[j] > 0 && st.type->size() > 0)
      fail(PURE_ERR_BUFFER, "null send buffer with send count %d for rank %d", scounts[j], j);
    if (!recvbuf && rcounts[j] > 0 && rt.type->size() > 0)
      fail(PURE_ERR_BUFFER, "null receive buffer with receive count %d for rank %d", rcounts[j], j);
    sends.push_back(nbc::Block{const_cast<char*>(static_cast<const char*>(sendbuf)) + sdispls[j],
                               at(scounts[j]), st});
    recvs.push_back(nbc::Block{static_cast<char*>(recvbuf) + rdispls[j], at(rcounts[j]), rt});
  }
  auto s =
      std::make_unique<nbc::Schedule>(c.rank.p2p(), ic.bridge(), c.rank.process().tag_ub(), c.name);
  nbc::inter_alltoall(*s, sides(ic), sends, recvs);
  if (to)
    launch(c, ic, std::move(s), *to);
  else
    run_blocking(c, ic, std::move(s));
}

void no_scan(Comm& ic) {
  fail(PURE_ERR_COMM, "%s is an intercommunicator: scans are defined on intracommunicators only",
       ic.name().c_str());
}

}  // namespace pure::api::inter_api
