// Flat API: the nonblocking collectives (and blocking alltoallw, which is
// one of them waited for). The arguments are checked as for the blocking
// calls (collective_args.h); the collective then runs as a schedule of
// point-to-point rounds (nonblocking/schedule.h) behind a request.
#include <memory>
#include <vector>

#include "api/call.h"
#include "api/collective_args.h"
#include "api/requests.h"
#include "nonblocking/collectives.h"

using namespace pure;
using namespace pure::api;

namespace {

// The communicator of a nonblocking collective: an intracommunicator. On
// an intercommunicator the schedules (nonblocking/) would need both groups'
// layout; until they have it, the call says so instead of misrouting.
Comm& schedule_comm_arg(Call& c, PURE_Comm handle) {
  Comm& comm = comm_arg(c, handle);
  if (comm.inter())
    fail(PURE_ERR_COMM,
         "%s is an intercommunicator: Pure runs %s on intracommunicators only (of the "
         "collectives, only the blocking forms other than alltoallw take intercommunicators)",
         comm.name().c_str(), c.name);
  return comm;
}

void request_arg(PURE_Request* request) {
  if (!request) fail(PURE_ERR_REQUEST, "null request pointer");
}

std::unique_ptr<nbc::Schedule> schedule(Call& c, Comm& cm, const char* name) {
  return std::make_unique<nbc::Schedule>(c.rank.p2p(), cm, c.rank.process().tag_ub(), name);
}

void start(Call& c, Comm& cm, std::unique_ptr<nbc::Schedule> s, PURE_Request* request) {
  *request = handle_of(nbc::start(c.rank.p2p(), cm, std::move(s)));
}

// Every member's block of one side: at buf + displs[k] extents, counts[k] items.
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
void reduction(Call& c, Comm& cm, const char* name, const ReductionArgs& r, PURE_Request* request,
               Build&& build) {
  Reduction check(r.op, *r.type.type, r.handle, r.count);
  auto s = schedule(c, cm, name);
  build(*s, spec(r));
  start(c, cm, std::move(s), request);
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

template <class N, class D>
int ialltoallw(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts,
               const D* rdispls, const PURE_Datatype recvtypes[], PURE_Comm comm,
               PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    start(c, cm,
          alltoallw(c, cm, name, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                    rdispls, recvtypes),
          request);
  });
}

template <class N, class D>
int blocking_alltoallw(const char* name, const void* sendbuf, const N* sendcounts,
                       const D* sdispls, const PURE_Datatype sendtypes[], void* recvbuf,
                       const N* recvcounts, const D* rdispls, const PURE_Datatype recvtypes[],
                       PURE_Comm comm) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    Endpoint& p2p = c.rank.p2p();
    Request* r = nbc::start(p2p, cm,
                            alltoallw(c, cm, name, sendbuf, sendcounts, sdispls, sendtypes,
                                      recvbuf, recvcounts, rdispls, recvtypes));
    c.rank.wait_until([&] { return p2p.test(r); }, WaitSite{name, -1, -1});
    const int err = r->error;
    const std::string why = err ? r->op->error_text() : std::string();
    c.rank.free_request(r);
    if (err != PURE_SUCCESS) throw Error(err, why);
  });
}

int ibcast(const char* name, void* buffer, long long count, PURE_Datatype datatype, int root,
           PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    root_arg(cm, root);
    TypeRef t = type_arg(c, datatype);
    data_arg(buffer, count, *t.type, "buffer");
    buffer = rebase_bottom(buffer, t);
    auto s = schedule(c, cm, name);
    nbc::bcast(*s, buffer, static_cast<std::size_t>(count), t, root);
    start(c, cm, std::move(s), request);
  });
}

int ireduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
            PURE_Datatype datatype, PURE_Op op, int root, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    ReductionArgs r = reduce_args(c, cm, sendbuf, recvbuf, count, datatype, op, root);
    reduction(c, cm, name, r, request,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::reduce(s, a, root); });
  });
}

int iallreduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    reduction(c, cm, name, r, request,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::reduce(s, a, -1); });
  });
}

int iscan(const char* name, const void* sendbuf, void* recvbuf, long long count,
          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    reduction(c, cm, name, r, request,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::scan(s, a, false); });
  });
}

int iexscan(const char* name, const void* sendbuf, void* recvbuf, long long count,
            PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    ReductionArgs r = allreduce_args(c, sendbuf, recvbuf, count, datatype, op);
    reduction(c, cm, name, r, request,
              [&](nbc::Schedule& s, const nbc::ReduceSpec& a) { nbc::scan(s, a, true); });
  });
}

int ireduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, long long recvcount,
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                          PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    std::vector<int> counts;
    ReductionArgs r =
        reduce_scatter_block_args(c, cm, sendbuf, recvbuf, recvcount, datatype, op, &counts);
    reduction(c, cm, name, r, request, [&](nbc::Schedule& s, const nbc::ReduceSpec& a) {
      nbc::reduce_scatter(s, a, counts);
    });
  });
}

template <class N>
int ireduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const N* recvcounts,
                    PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    request_arg(request);
    ReductionArgs r =
        reduce_scatter_args(c, cm, sendbuf, recvbuf, recvcounts_ints.data(), datatype, op);
    std::vector<int> counts(recvcounts_ints.data(), recvcounts_ints.data() + cm.size());
    reduction(c, cm, name, r, request, [&](nbc::Schedule& s, const nbc::ReduceSpec& a) {
      nbc::reduce_scatter(s, a, counts);
    });
  });
}

template <class N, class D>
int igatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
             void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype, int root,
             PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    // Only the root's arrays count (and exist).
    const bool at_root = cm.rank() == root;
    IntArray recvcounts_ints = counts_of(at_root ? recvcounts : nullptr, cm.size(), "recvcounts");
    IntArray displs_ints = displs_of(at_root ? displs : nullptr, cm.size(), "displs");
    request_arg(request);
    MovementArgs a = gatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts_ints.data(), displs_ints.data(), recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::gather(*s, root, block(a.send), blocks(a.recv, cm.size()));
    start(c, cm, std::move(s), request);
  });
}

int igather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
            void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
            PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    MovementArgs a =
        gather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::gather(*s, root, block(a.send), blocks(a.recv, cm.size()));
    start(c, cm, std::move(s), request);
  });
}

template <class N, class D>
int iscatterv(const char* name, const void* sendbuf, const N* sendcounts, const D* displs,
              PURE_Datatype sendtype, void* recvbuf, N recvcount, PURE_Datatype recvtype, int root,
              PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    // Only the root's arrays count (and exist).
    const bool at_root = cm.rank() == root;
    IntArray sendcounts_ints = counts_of(at_root ? sendcounts : nullptr, cm.size(), "sendcounts");
    IntArray displs_ints = displs_of(at_root ? displs : nullptr, cm.size(), "displs");
    request_arg(request);
    MovementArgs a = scatterv_args(c, cm, sendbuf, sendcounts_ints.data(), displs_ints.data(),
                                   sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::scatter(*s, root, blocks(a.send, cm.size()), block(a.recv));
    start(c, cm, std::move(s), request);
  });
}

int iscatter(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
             PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    MovementArgs a =
        scatter_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    auto s = schedule(c, cm, name);
    nbc::scatter(*s, root, blocks(a.send, cm.size()), block(a.recv));
    start(c, cm, std::move(s), request);
  });
}

template <class N, class D>
int iallgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
                void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype,
                PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray displs_ints = displs_of(displs, cm.size(), "displs");
    request_arg(request);
    MovementArgs a = allgatherv_args(c, cm, sendbuf, sendcount, sendtype, recvbuf,
                                     recvcounts_ints.data(), displs_ints.data(), recvtype);
    auto s = schedule(c, cm, name);
    nbc::allgather(*s, block(a.send), blocks(a.recv, cm.size()));
    start(c, cm, std::move(s), request);
  });
}

int iallgather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
               void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
               PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    MovementArgs a =
        allgather_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    auto s = schedule(c, cm, name);
    nbc::allgather(*s, block(a.send), blocks(a.recv, cm.size()));
    start(c, cm, std::move(s), request);
  });
}

template <class N, class D>
int ialltoallv(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               PURE_Datatype sendtype, void* recvbuf, const N* recvcounts, const D* rdispls,
               PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    // In place, the send arrays are ignored.
    const bool sends = !in_place(sendbuf);
    IntArray sendcounts_ints = counts_of(sends ? sendcounts : nullptr, cm.size(), "sendcounts");
    IntArray sdispls_ints = displs_of(sends ? sdispls : nullptr, cm.size(), "sdispls");
    IntArray recvcounts_ints = counts_of(recvcounts, cm.size(), "recvcounts");
    IntArray rdispls_ints = displs_of(rdispls, cm.size(), "rdispls");
    request_arg(request);
    MovementArgs a =
        alltoallv_args(c, cm, sendbuf, sendcounts_ints.data(), sdispls_ints.data(), sendtype,
                       recvbuf, recvcounts_ints.data(), rdispls_ints.data(), recvtype);
    auto s = schedule(c, cm, name);
    nbc::alltoall(*s, blocks(a.send, cm.size()), blocks(a.recv, cm.size()), !a.send.buf);
    start(c, cm, std::move(s), request);
  });
}

int ialltoall(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
              PURE_Request* request) {
  return collective(name, [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    MovementArgs a =
        alltoall_args(c, cm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    auto s = schedule(c, cm, name);
    nbc::alltoall(*s, blocks(a.send, cm.size()), blocks(a.recv, cm.size()), !a.send.buf);
    start(c, cm, std::move(s), request);
  });
}

}  // namespace

extern "C" {

int pure_ibarrier(PURE_Comm comm, PURE_Request* request) {
  return collective("pure_ibarrier", [&](Call& c) {
    Comm& cm = schedule_comm_arg(c, comm);
    request_arg(request);
    auto s = schedule(c, cm, "pure_ibarrier");
    nbc::barrier(*s);
    start(c, cm, std::move(s), request);
  });
}

int pure_ibcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm,
                PURE_Request* request) {
  return ibcast("pure_ibcast", buffer, count, datatype, root, comm, request);
}
int pure_ibcast_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root, PURE_Comm comm,
                  PURE_Request* request) {
  return ibcast("pure_ibcast_c", buffer, count, datatype, root, comm, request);
}

int pure_ireduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                 int root, PURE_Comm comm, PURE_Request* request) {
  return ireduce("pure_ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
int pure_ireduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, int root, PURE_Comm comm, PURE_Request* request) {
  return ireduce("pure_ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int pure_iallreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                    PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iallreduce("pure_iallreduce", sendbuf, recvbuf, count, datatype, op, comm, request);
}
int pure_iallreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                      PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iallreduce("pure_iallreduce_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int pure_iscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
               PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iscan", sendbuf, recvbuf, count, datatype, op, comm, request);
}
int pure_iscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                 PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iscan_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int pure_iexscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                 PURE_Comm comm, PURE_Request* request) {
  return iexscan("pure_iexscan", sendbuf, recvbuf, count, datatype, op, comm, request);
}
int pure_iexscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iexscan("pure_iexscan_c", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int pure_ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                               PURE_Request* request) {
  return ireduce_scatter_block("pure_ireduce_scatter_block", sendbuf, recvbuf, recvcount, datatype,
                               op, comm, request);
}
int pure_ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                 PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                 PURE_Request* request) {
  return ireduce_scatter_block("pure_ireduce_scatter_block_c", sendbuf, recvbuf, recvcount,
                               datatype, op, comm, request);
}

int pure_ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                         PURE_Request* request) {
  return ireduce_scatter("pure_ireduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                         request);
}
int pure_ireduce_scatter_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                           PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                           PURE_Request* request) {
  return ireduce_scatter("pure_ireduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                         request);
}

int pure_igatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                  PURE_Comm comm, PURE_Request* request) {
  return igatherv("pure_igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, request);
}
int pure_igatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                    PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request) {
  return igatherv("pure_igatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, request);
}

int pure_igather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                 PURE_Request* request) {
  return igather("pure_igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, request);
}
int pure_igather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, void* recvbuf,
                   PURE_Count recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                   PURE_Request* request) {
  return igather("pure_igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, request);
}

int pure_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                   int root, PURE_Comm comm, PURE_Request* request) {
  return iscatterv("pure_iscatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, request);
}
int pure_iscatterv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint displs[],
                     PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                     PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request) {
  return iscatterv("pure_iscatterv_c", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, request);
}

int pure_iscatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                  PURE_Request* request) {
  return iscatter("pure_iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                  comm, request);
}
int pure_iscatter_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                    PURE_Comm comm, PURE_Request* request) {
  return iscatter("pure_iscatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  root, comm, request);
}

int pure_iallgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                     PURE_Comm comm, PURE_Request* request) {
  return iallgatherv("pure_iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, comm, request);
}
int pure_iallgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                       void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                       PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return iallgatherv("pure_iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                     displs, recvtype, comm, request);
}

int pure_iallgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return iallgather("pure_iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, request);
}
int pure_iallgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                      void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                      PURE_Request* request) {
  return iallgather("pure_iallgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, request);
}

int pure_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                    PURE_Request* request) {
  return ialltoallv("pure_ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                    rdispls, recvtype, comm, request);
}
int pure_ialltoallv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint sdispls[],
                      PURE_Datatype sendtype, void* recvbuf, const PURE_Count recvcounts[],
                      const PURE_Aint rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                      PURE_Request* request) {
  return ialltoallv("pure_ialltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, request);
}

int pure_ialltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return ialltoall("pure_ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, request);
}
int pure_ialltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                     void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                     PURE_Request* request) {
  return ialltoall("pure_ialltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, request);
}

int pure_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                    PURE_Request* request) {
  return ialltoallw("pure_ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                    recvcounts, rdispls, recvtypes, comm, request);
}
int pure_ialltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                      const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
                      const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                      const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Request* request) {
  return ialltoallw("pure_ialltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                    recvcounts, rdispls, recvtypes, comm, request);
}

int pure_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm) {
  return blocking_alltoallw("pure_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                            recvcounts, rdispls, recvtypes, comm);
}
int pure_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                     const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
                     const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                     const PURE_Datatype recvtypes[], PURE_Comm comm) {
  return blocking_alltoallw("pure_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                            recvcounts, rdispls, recvtypes, comm);
}

}  // extern "C"
