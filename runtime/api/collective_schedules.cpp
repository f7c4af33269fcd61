// The collectives that run as schedules of point-to-point rounds
// (nonblocking/schedule.h) behind a request: their arguments are checked
// as for the blocking calls (collective_args.h), then the schedule is built
// and launched (collective_schedules.h).
#include "api/collective_schedules.h"

#include <memory>
#include <vector>

#include "api/collective_args.h"
#include "api/inter_collectives.h"
#include "api/requests.h"
#include "nonblocking/collectives.h"

namespace pure::api {

void launch_arg(Call& c, const Launch& to) {
  if (!to.request) fail(PURE_ERR_REQUEST, "null request pointer");
  if (to.persistent) info_arg(c, to.info, true);
}

std::unique_ptr<nbc::Schedule> schedule(Call& c, Comm& cm, const char* name, int tags) {
  return std::make_unique<nbc::Schedule>(c.rank.p2p(), cm, c.rank.process().tag_ub(), name, tags);
}

void launch(Call& c, Comm& cm, std::unique_ptr<nbc::Schedule> s, const Launch& to) {
  Endpoint& p2p = c.rank.p2p();
  *to.request = handle_of(to.persistent ? nbc::persistent(p2p, cm, std::move(s))
                                        : nbc::start(p2p, cm, std::move(s)));
}

void run_blocking(Call& c, Comm& cm, std::unique_ptr<nbc::Schedule> s) {
  Endpoint& p2p = c.rank.p2p();
  Request* r = nbc::start(p2p, cm, std::move(s));
  c.rank.wait_until([&] { return p2p.test(r); }, WaitSite{c.name, -1, -1, cm.spans_processes()});
  const int err = r->error;
  const std::string why = err ? r->op->error_text() : std::string();
  c.rank.free_request(r);
  if (err != PURE_SUCCESS) throw Error(err, why);
}

namespace {

// Every member's block of one side: at buf + displs[k] extents, counts[k]
// items.
std::vector<nbc::Block> blocks(const Side& side, int n) {
  std::vector<nbc::Block> all(static_cast<std::size_t>(n));
  if (!side.counts || !side.type.type) return all;  // a side this rank does not have
  const std::ptrdiff_t extent = side.type.type->extent();
  for (int k = 0; k < n; ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    all[i] = nbc::Block{static_cast<char*>(side.out()) + side.displs[i] * extent,
                        static_cast<std::size_t>(side.counts[i]), side.type};
  }
  return all;
}

// The one block of a side (buf nullptr: in place).
nbc::Block block(const Side& side) { return nbc::Block{side.out(), side.count, side.type}; }

nbc::ReduceSpec spec(const ReductionArgs& r) {
  return nbc::ReduceSpec{r.send, r.recv, r.count, r.type, r.handle, r.op};
}

// A reduction's schedule, once the op is known to apply to the type.
template <class Build>
void reduction(Call& c, Comm& cm, const char* name, const ReductionArgs& r, const Launch& to,
               Build&& build) {
  Reduction check(r.op, *r.type.type, r.handle, r.count);
  auto s = schedule(c, cm, name);
  build(*s, spec(r));
  launch(c, cm, std::move(s), to);
}

// alltoallw's blocks: byte displacements and a datatype per member.
template <class N, class D>
std::vector<nbc::Block> w_blocks(Call& c, const void* buf, const N* counts, const D* displs,
                                 const PURE_Datatype types[], int n, const char* which) {
  if (!counts || !displs) fail(PURE_ERR_ARG, "null %s counts or displacements", which);
  if (!types) fail(PURE_ERR_ARG, "null %s datatypes", which);
  std::vector<nbc::Block> all(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    const long long count = counts[i];
    if (count < 0) fail(PURE_ERR_COUNT, "invalid %s count %lld at index %d", which, count, k);
    all[i].type = type_arg(c, types[i]);
    all[i].count = static_cast<std::size_t>(count);
    all[i].buf = static_cast<char*>(const_cast<void*>(buf)) + displs[i];
    if (!buf && count > 0 && all[i].type.type->size() > 0)
      fail(PURE_ERR_BUFFER, "null %s buffer with %s count %lld for rank %d", which, which, count,
           k);
  }
  return all;
}

// The schedule of an alltoallw, checked.
template <class N, class D>
std::unique_ptr<nbc::Schedule> alltoallw(Call& c, Comm& cm, const char* name, const void* sendbuf,
                                         const N* sendcounts, const D* sdispls,
                                         const PURE_Datatype sendtypes[], void* recvbuf,
                                         const N* recvcounts, const D* rdispls,
                                         const PURE_Datatype recvtypes[]) {
  const int n = cm.size();
  if (in_place(recvbuf)) fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not the receive buffer");
  std::vector<nbc::Block> recvs =
      w_blocks(c, recvbuf, recvcounts, rdispls, recvtypes, n, "receive");
  std::vector<nbc::Block> sends;
  if (!in_place(sendbuf)) sends = w_blocks(c, sendbuf, sendcounts, sdispls, sendtypes, n, "send");
  auto s = schedule(c, cm, name);
  nbc::alltoall(*s, sends, recvs, in_place(sendbuf));
  return s;
}

// alltoallw on an intercommunicator: the other group's blocks, checked
// there (inter_collectives.h); `to` null: blocking.
template <class N, class D>
void inter_w(Call& c, Comm& ic, const void* sendbuf, const N* sendcounts, const D* sdispls,
             const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts, const D* rdispls,
             const PURE_Datatype recvtypes[], const Launch* to) {
  const int n = ic.peer_size();
  IntArray sc = counts_of(sendcounts, n, "sendcounts"), rc = counts_of(recvcounts, n, "recvcounts");
  std::vector<long long> sd(static_cast<std::size_t>(sdispls ? n : 0)),
      rd(static_cast<std::size_t>(rdispls ? n : 0));
  for (std::size_t k = 0; k < sd.size(); ++k) sd[k] = static_cast<long long>(sdispls[k]);
  for (std::size_t k = 0; k < rd.size(); ++k) rd[k] = static_cast<long long>(rdispls[k]);
  inter_api::alltoallw(c, ic, sendbuf, sc.data(), sdispls ? sd.data() : nullptr, sendtypes, recvbuf,
                       rc.data(), rdispls ? rd.data() : nullptr, recvtypes, to);
}

}  // namespace

int ibarrier(const char* name, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) return inter_api::barrier(c, cm, &to);
    launch_arg(c, to);
    auto s = schedule(c, cm, name);
    nbc::barrier(*s);
    launch(c, cm, std::move(s), to);
  });
}

template <class N, class D>
int ialltoallw(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts,
               const D* rdispls, const PURE_Datatype recvtypes[], PURE_Comm comm,
               const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_w(c, cm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, &to);
    launch_arg(c, to);
    launch(c, cm,
           alltoallw(c, cm, name, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                     rdispls, recvtypes),
           to);
  });
}

template <class N, class D>
int blocking_alltoallw(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
                       const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts,
                       const D* rdispls, const PURE_Datatype recvtypes[], PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_w(c, cm, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, nullptr);
    run_blocking(c, cm,
                 alltoallw(c, cm, name, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                           recvcounts, rdispls, recvtypes));
  });
}

int ibcast(const char* name, void* buffer, long long count, PURE_Datatype datatype, int root,
           PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::bcast(c, cm, buffer, int_count(count, "count"), datatype, root, &to);
    launch_arg(c, to);
    root_arg(cm, root);
    TypeRef t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
    buffer = rebase_bottom(buffer, t);
    auto s = schedule(c, cm, name);
    nbc::bcast(*s, buffer, static_cast<std::size_t>(count), t, root);
    launch(c, cm, std::move(s), to);
  });
}

int ireduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
            PURE_Datatype datatype, PURE_Op op, int root, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, name, sendbuf, recvbuf, int_count(count, "count"), datatype,
                               op, root, &to);
    launch_arg(c, to);
    ReductionArgs r = reduce_args(c, cm, sendbuf, recvbuf, count, datatype, op, root);
    reduction(c, cm, name, r, to,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::reduce(s, cm, a, root); });
  });
}

int iallreduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce(c, cm, name, sendbuf, recvbuf, int_count(count, "count"), datatype,
                               op, -1, &to);
    launch_arg(c, to);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    reduction(c, cm, name, r, to,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::reduce(s, cm, a, -1); });
  });
}

int iscan(const char* name, const void* sendbuf, void* recvbuf, long long count,
          PURE_Datatype datatype, PURE_Op op, bool exclusive, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) inter_api::no_scan(cm);
    launch_arg(c, to);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    reduction(c, cm, name, r, to,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::scan(s, a, exclusive); });
  });
}

int ireduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, long long recvcount,
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::reduce_scatter(c, cm, name, sendbuf, recvbuf,
                                       int_count(recvcount, "recvcount"), nullptr, datatype, op,
                                       &to);
    launch_arg(c, to);
    std::vector<int> counts;
    ReductionArgs r =
        reduce_scatter_block_args(c, cm, sendbuf, recvbuf, recvcount, datatype, op, &counts);
    reduction(c, cm, name, r, to, [&](nbc::Schedule& s, const nbc::ReduceSpec& a) {
      nbc::reduce_scatter(s, cm, a, counts);
    });
  });
}

template <class N>
int ireduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const N* recvcounts,
                    PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      IntArray counts = counts_of(recvcounts, cm.size(), "recvcounts");
      if (!recvcounts) fail(PURE_ERR_ARG, "null recvcounts");
      return inter_api::reduce_scatter(c, cm, name, sendbuf, recvbuf, 0, counts.data(), datatype,
                                       op, &to);
    }
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    launch_arg(c, to);
    ReductionArgs r =
        reduce_scatter_args(c, cm, sendbuf, recvbuf, recvcounts_ints.data(), datatype, op);
    std::vector<int> counts(recvcounts_ints.data(), recvcounts_ints.data() + cm.size());
    reduction(c, cm, name, r, to, [&](nbc::Schedule& s, const nbc::ReduceSpec& a) {
      nbc::reduce_scatter(s, cm, a, counts);
    });
  });
}

template <class N, class D>
int igatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
             void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype, int root,
             PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      IntArray counts =
          counts_of(root == PURE_ROOT ? recvcounts : nullptr, cm.peer_size(), "recvcounts");
      IntArray offsets = displs_of(root == PURE_ROOT ? displs : nullptr, cm.peer_size(), "displs");
      if (root == PURE_ROOT && (!recvcounts || !displs))
        fail(PURE_ERR_ARG, "null receive counts or displacements");
      return inter_api::gatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), sendtype,
                                recvbuf, 0, counts.data(), offsets.data(), recvtype, root, &to);
    }
    // Only the root's arrays count (and exist).
    const bool at_root = cm.rank() == root;
    IntArray recvcounts_ints = counts_of(at_root ? recvcounts : nullptr, cm.size(), "recvcounts");
    IntArray displs_ints = displs_of(at_root ? displs : nullptr, cm.size(), "displs");
    launch_arg(c, to);
    MovementArgs a = gatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts_ints.data(), displs_ints.data(), recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::gather(*s, root, block(a.send), blocks(a.recv, cm.size()));
    launch(c, cm, std::move(s), to);
  });
}

int igather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
            void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
            const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::gatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), sendtype,
                                recvbuf, int_count(recvcount, "recvcount"), nullptr, nullptr,
                                recvtype, root, &to);
    launch_arg(c, to);
    MovementArgs a =
        gather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::gather(*s, root, block(a.send), blocks(a.recv, cm.size()));
    launch(c, cm, std::move(s), to);
  });
}

template <class N, class D>
int iscatterv(const char* name, const void* sendbuf, const N* sendcounts, const D* displs,
              PURE_Datatype sendtype, void* recvbuf, N recvcount, PURE_Datatype recvtype, int root,
              PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      IntArray counts =
          counts_of(root == PURE_ROOT ? sendcounts : nullptr, cm.peer_size(), "sendcounts");
      IntArray offsets = displs_of(root == PURE_ROOT ? displs : nullptr, cm.peer_size(), "displs");
      if (root == PURE_ROOT && (!sendcounts || !displs))
        fail(PURE_ERR_ARG, "null send counts or displacements");
      return inter_api::scatterv(c, cm, name, sendbuf, 0, counts.data(), offsets.data(), sendtype,
                                 recvbuf, int_count(recvcount, "recvcount"), recvtype, root, &to);
    }
    // Only the root's arrays count (and exist).
    const bool at_root = cm.rank() == root;
    IntArray sendcounts_ints = counts_of(at_root ? sendcounts : nullptr, cm.size(), "sendcounts");
    IntArray displs_ints = displs_of(at_root ? displs : nullptr, cm.size(), "displs");
    launch_arg(c, to);
    MovementArgs a = scatterv_args(c, cm, sendbuf, sendcounts_ints.data(), displs_ints.data(),
                                   sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::scatter(*s, root, blocks(a.send, cm.size()), block(a.recv));
    launch(c, cm, std::move(s), to);
  });
}

int iscatter(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
             const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::scatterv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), nullptr,
                                 nullptr, sendtype, recvbuf, int_count(recvcount, "recvcount"),
                                 recvtype, root, &to);
    launch_arg(c, to);
    MovementArgs a =
        scatter_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::scatter(*s, root, blocks(a.send, cm.size()), block(a.recv));
    launch(c, cm, std::move(s), to);
  });
}

template <class N, class D>
int iallgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
                void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype,
                PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (!recvcounts || !displs) fail(PURE_ERR_ARG, "null receive counts or displacements");
      IntArray counts = counts_of(recvcounts, cm.peer_size(), "recvcounts");
      IntArray offsets = displs_of(displs, cm.peer_size(), "displs");
      return inter_api::allgatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"),
                                   sendtype, recvbuf, 0, counts.data(), offsets.data(), recvtype,
                                   &to);
    }
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray displs_ints = displs_of(displs, cm.size(), "displs");
    launch_arg(c, to);
    MovementArgs a = allgatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf,
                                     recvcounts_ints.data(), displs_ints.data(), recvtype);
    auto s = schedule(c, cm, name);
    nbc::allgather(*s, block(a.send), blocks(a.recv, cm.size()));
    launch(c, cm, std::move(s), to);
  });
}

int iallgather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
               void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
               const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::allgatherv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"),
                                   sendtype, recvbuf, int_count(recvcount, "recvcount"), nullptr,
                                   nullptr, recvtype, &to);
    launch_arg(c, to);
    MovementArgs a =
        allgather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    auto s = schedule(c, cm, name);
    nbc::allgather(*s, block(a.send), blocks(a.recv, cm.size()));
    launch(c, cm, std::move(s), to);
  });
}

template <class N, class D>
int ialltoallv(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               PURE_Datatype sendtype, void* recvbuf, const N* recvcounts, const D* rdispls,
               PURE_Datatype recvtype, PURE_Comm comm, const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter()) {
      if (!sendcounts || !sdispls || !recvcounts || !rdispls)
        fail(PURE_ERR_ARG, "null counts or displacements");
      IntArray sc = counts_of(sendcounts, cm.peer_size(), "sendcounts");
      IntArray sd = displs_of(sdispls, cm.peer_size(), "sdispls");
      IntArray rc = counts_of(recvcounts, cm.peer_size(), "recvcounts");
      IntArray rd = displs_of(rdispls, cm.peer_size(), "rdispls");
      return inter_api::alltoallv(c, cm, name, sendbuf, 0, sc.data(), sd.data(), sendtype, recvbuf,
                                  0, rc.data(), rd.data(), recvtype, &to);
    }
    // In place, the send arrays are ignored.
    const bool sends = !in_place(sendbuf);
    IntArray sendcounts_ints = counts_of(sends ? sendcounts : nullptr, cm.size(), "sendcounts");
    IntArray sdispls_ints = displs_of(sends ? sdispls : nullptr, cm.size(), "sdispls");
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray rdispls_ints = displs_of(rdispls, cm.size(), "rdispls");
    launch_arg(c, to);
    MovementArgs a =
        alltoallv_args(c, cm, sendbuf, sendcounts_ints.data(), sdispls_ints.data(), sendtype,
                       recvbuf, recvcounts_ints.data(), rdispls_ints.data(), recvtype);
    auto s = schedule(c, cm, name);
    nbc::alltoall(*s, blocks(a.send, cm.size()), blocks(a.recv, cm.size()), !a.send.buf);
    launch(c, cm, std::move(s), to);
  });
}

int ialltoall(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
              const Launch& to) {
  return collective(name, [&](Call& c) {
    Comm& cm = comm_arg(c, comm);
    if (cm.inter())
      return inter_api::alltoallv(c, cm, name, sendbuf, int_count(sendcount, "sendcount"), nullptr,
                                  nullptr, sendtype, recvbuf, int_count(recvcount, "recvcount"),
                                  nullptr, nullptr, recvtype, &to);
    launch_arg(c, to);
    MovementArgs a =
        alltoall_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    auto s = schedule(c, cm, name);
    nbc::alltoall(*s, blocks(a.send, cm.size()), blocks(a.recv, cm.size()), !a.send.buf);
    launch(c, cm, std::move(s), to);
  });
}

// The int forms and the large-count (_c) forms.
template int ialltoallw(const char*, const void*, const int*, const int*, const PURE_Datatype[],
                        void*, const int*, const int*, const PURE_Datatype[], PURE_Comm,
                        const Launch&);
template int ialltoallw(const char*, const void*, const PURE_Count*, const PURE_Aint*,
                        const PURE_Datatype[], void*, const PURE_Count*, const PURE_Aint*,
                        const PURE_Datatype[], PURE_Comm, const Launch&);
template int blocking_alltoallw(const char*, const void*, const int*, const int*,
                                const PURE_Datatype[], void*, const int*, const int*,
                                const PURE_Datatype[], PURE_Comm);
template int blocking_alltoallw(const char*, const void*, const PURE_Count*, const PURE_Aint*,
                                const PURE_Datatype[], void*, const PURE_Count*, const PURE_Aint*,
                                const PURE_Datatype[], PURE_Comm);
template int ireduce_scatter(const char*, const void*, void*, const int*, PURE_Datatype, PURE_Op,
                             PURE_Comm, const Launch&);
template int ireduce_scatter(const char*, const void*, void*, const PURE_Count*, PURE_Datatype,
                             PURE_Op, PURE_Comm, const Launch&);
template int igatherv(const char*, const void*, int, PURE_Datatype, void*, const int*, const int*,
                      PURE_Datatype, int, PURE_Comm, const Launch&);
template int igatherv(const char*, const void*, PURE_Count, PURE_Datatype, void*, const PURE_Count*,
                      const PURE_Aint*, PURE_Datatype, int, PURE_Comm, const Launch&);
template int iscatterv(const char*, const void*, const int*, const int*, PURE_Datatype, void*, int,
                       PURE_Datatype, int, PURE_Comm, const Launch&);
template int iscatterv(const char*, const void*, const PURE_Count*, const PURE_Aint*, PURE_Datatype,
                       void*, PURE_Count, PURE_Datatype, int, PURE_Comm, const Launch&);
template int iallgatherv(const char*, const void*, int, PURE_Datatype, void*, const int*,
                         const int*, PURE_Datatype, PURE_Comm, const Launch&);
template int iallgatherv(const char*, const void*, PURE_Count, PURE_Datatype, void*,
                         const PURE_Count*, const PURE_Aint*, PURE_Datatype, PURE_Comm,
                         const Launch&);
template int ialltoallv(const char*, const void*, const int*, const int*, PURE_Datatype, void*,
                        const int*, const int*, PURE_Datatype, PURE_Comm, const Launch&);
template int ialltoallv(const char*, const void*, const PURE_Count*, const PURE_Aint*,
                        PURE_Datatype, void*, const PURE_Count*, const PURE_Aint*, PURE_Datatype,
                        PURE_Comm, const Launch&);

}  // namespace pure::api
