// Flat API: the neighbourhood collectives on communicators with a process
// topology (comm/process_topology.h), in their blocking, nonblocking
// (pure_ineighbor_X), persistent (pure_neighbor_X_init) and large-count
// (_c) forms. Each is one schedule (nonblocking/collectives.h, neighbours):
// a message per edge, tagged so that a rank that is a neighbour twice (a
// periodic dimension of one or two ranks) gets each block in its slot. The
// blocking forms run it and wait.
#include <vector>

#include "api/collective_schedules.h"
#include "nonblocking/collectives.h"

using namespace pure;
using namespace pure::api;

namespace {

std::size_t at(long long i) { return static_cast<std::size_t>(i); }

struct Neighbourhood {
  Comm* comm;
  const ProcessTopology* topology;
  int in, out;  // degrees
};

Neighbourhood neighbourhood_arg(Call& c, PURE_Comm handle) {
  Comm& cm = intra_arg(c, handle);
  const ProcessTopology* t = cm.topology();
  if (!t) fail(PURE_ERR_TOPOLOGY, "%s has no process topology", cm.name().c_str());
  std::vector<int> in, out;
  t->neighbourhood(cm.rank(), in, out);
  return {&cm, t, static_cast<int>(in.size()), static_cast<int>(out.size())};
}

void data_arg(const void* buf, long long count, const TypeRef& t, const char* which) {
  count_arg(count);
  if (buf == PURE_IN_PLACE)
    fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed as the %s of a neighbourhood collective",
         which);
  buffer_arg(buf, count, *t.type);
}

void* shifted(const void* buf, long long bytes) {
  return const_cast<char*>(static_cast<const char*>(buf)) + bytes;
}

// n blocks of (counts[i] or count) items of `type` at displacements of
// displs[i] or i * count extents.
template <class N, class D>
std::vector<nbc::Block> blocks(const void* buf, int n, long long count, const N* counts,
                               const D* displs, const TypeRef& type) {
  std::vector<nbc::Block> b;
  const long long extent = static_cast<long long>(type.type->extent());
  for (int i = 0; i < n; ++i) {
    const long long k = counts ? static_cast<long long>(counts[i]) : count;
    const long long d = displs ? static_cast<long long>(displs[i]) : i * count;
    b.push_back(nbc::Block{shifted(buf, d * extent), at(k), type});
  }
  return b;
}

template <class N, class D>
void counts_arg(const N* counts, const D* displs, int n, const char* which) {
  if (n > 0 && (!counts || !displs)) fail(PURE_ERR_ARG, "null %s counts or displacements", which);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0)
      fail(PURE_ERR_COUNT, "invalid %s count %lld at index %d", which,
           static_cast<long long>(counts[i]), i);
}

// Runs the exchange of `out` and `in` on n's communicator: now and waited
// for when `to` is null, else launched as `to` says.
void exchange(Call& c, const Neighbourhood& n, const std::vector<nbc::Block>& out,
              const std::vector<nbc::Block>& in, const Launch* to) {
  auto s = schedule(c, *n.comm, c.name, n.topology->tags());
  nbc::neighbours(*s, *n.topology, out, in);
  if (to)
    launch(c, *n.comm, std::move(s), *to);
  else
    run_blocking(c, *n.comm, std::move(s));
}

Neighbourhood checked_neighbourhood(Call& c, PURE_Comm comm, const Launch* to) {
  Neighbourhood n = neighbourhood_arg(c, comm);
  if (to) launch_arg(c, *to);
  return n;
}

int allgather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
              const Launch* to) {
  return collective(name, [&](Call& c) {
    Neighbourhood n = checked_neighbourhood(c, comm, to);
    TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
    data_arg(sendbuf, sendcount, st, "send buffer");
    data_arg(recvbuf, recvcount, rt, "receive buffer");
    std::vector<nbc::Block> out(at(n.out),
                                nbc::Block{const_cast<void*>(sendbuf), at(sendcount), st});
    exchange(c, n, out, blocks<int, int>(recvbuf, n.in, recvcount, nullptr, nullptr, rt), to);
  });
}

template <class N, class D>
int allgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
               void* recvbuf, const N recvcounts[], const D displs[], PURE_Datatype recvtype,
               PURE_Comm comm, const Launch* to) {
  return collective(name, [&](Call& c) {
    Neighbourhood n = checked_neighbourhood(c, comm, to);
    TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
    data_arg(sendbuf, sendcount, st, "send buffer");
    counts_arg(recvcounts, displs, n.in, "receive");
    if (recvbuf == PURE_IN_PLACE) data_arg(recvbuf, 0, rt, "receive buffer");
    std::vector<nbc::Block> out(at(n.out),
                                nbc::Block{const_cast<void*>(sendbuf), at(sendcount), st});
    exchange(c, n, out, blocks(recvbuf, n.in, 0, recvcounts, displs, rt), to);
  });
}

int alltoall(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
             const Launch* to) {
  return collective(name, [&](Call& c) {
    Neighbourhood n = checked_neighbourhood(c, comm, to);
    TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
    data_arg(sendbuf, sendcount, st, "send buffer");
    data_arg(recvbuf, recvcount, rt, "receive buffer");
    exchange(c, n, blocks<int, int>(sendbuf, n.out, sendcount, nullptr, nullptr, st),
             blocks<int, int>(recvbuf, n.in, recvcount, nullptr, nullptr, rt), to);
  });
}

template <class N, class D>
int alltoallv(const char* name, const void* sendbuf, const N sendcounts[], const D sdispls[],
              PURE_Datatype sendtype, void* recvbuf, const N recvcounts[], const D rdispls[],
              PURE_Datatype recvtype, PURE_Comm comm, const Launch* to) {
  return collective(name, [&](Call& c) {
    Neighbourhood n = checked_neighbourhood(c, comm, to);
    TypeRef st = type_arg(c, sendtype), rt = type_arg(c, recvtype);
    counts_arg(sendcounts, sdispls, n.out, "send");
    counts_arg(recvcounts, rdispls, n.in, "receive");
    if (sendbuf == PURE_IN_PLACE) data_arg(sendbuf, 0, st, "send buffer");
    if (recvbuf == PURE_IN_PLACE) data_arg(recvbuf, 0, rt, "receive buffer");
    exchange(c, n, blocks(sendbuf, n.out, 0, sendcounts, sdispls, st),
             blocks(recvbuf, n.in, 0, recvcounts, rdispls, rt), to);
  });
}

template <class N>
int alltoallw(const char* name, const void* sendbuf, const N sendcounts[],
              const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
              const N recvcounts[], const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
              PURE_Comm comm, const Launch* to) {
  return collective(name, [&](Call& c) {
    Neighbourhood n = checked_neighbourhood(c, comm, to);
    if ((n.out > 0 && (!sendcounts || !sdispls || !sendtypes)) ||
        (n.in > 0 && (!recvcounts || !rdispls || !recvtypes)))
      fail(PURE_ERR_ARG, "null counts, displacements or types array");
    if (sendbuf == PURE_IN_PLACE || recvbuf == PURE_IN_PLACE)
      fail(PURE_ERR_BUFFER, "PURE_IN_PLACE is not allowed in a neighbourhood collective");
    std::vector<nbc::Block> out, in;
    for (int j = 0; j < n.out; ++j) {
      count_arg(sendcounts[j]);
      out.push_back(
          nbc::Block{shifted(sendbuf, sdispls[j]), at(sendcounts[j]), type_arg(c, sendtypes[j])});
    }
    for (int i = 0; i < n.in; ++i) {
      count_arg(recvcounts[i]);
      in.push_back(
          nbc::Block{shifted(recvbuf, rdispls[i]), at(recvcounts[i]), type_arg(c, recvtypes[i])});
    }
    exchange(c, n, out, in, to);
  });
}

// The three forms of each call: blocking (no launch), nonblocking, persistent.
Launch now(PURE_Request* request) { return Launch::now(request); }
Launch later(PURE_Info info, PURE_Request* request) { return Launch::later(info, request); }

}  // namespace

extern "C" {

// ---- allgather ----
int pure_neighbor_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                            void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return allgather("pure_neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, nullptr);
}
int pure_neighbor_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                              void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                              PURE_Comm comm) {
  return allgather("pure_neighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, nullptr);
}
int pure_ineighbor_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                             void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                             PURE_Request* request) {
  const Launch to = now(request);
  return allgather("pure_ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, &to);
}
int pure_ineighbor_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                               void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                               PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return allgather("pure_ineighbor_allgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, &to);
}
int pure_neighbor_allgather_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                 void* recvbuf, int recvcount, PURE_Datatype recvtype,
                                 PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  const Launch to = later(info, request);
  return allgather("pure_neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, &to);
}
int pure_neighbor_allgather_init_c(const void* sendbuf, PURE_Count sendcount,
                                   PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                                   PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                   PURE_Request* request) {
  const Launch to = later(info, request);
  return allgather("pure_neighbor_allgather_init_c", sendbuf, sendcount, sendtype, recvbuf,
                   recvcount, recvtype, comm, &to);
}

// ---- allgatherv ----
int pure_neighbor_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             PURE_Datatype recvtype, PURE_Comm comm) {
  return allgatherv("pure_neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, nullptr);
}
int pure_neighbor_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                               void* recvbuf, const PURE_Count recvcounts[],
                               const PURE_Aint displs[], PURE_Datatype recvtype, PURE_Comm comm) {
  return allgatherv("pure_neighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, nullptr);
}
int pure_ineighbor_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return allgatherv("pure_ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, &to);
}
int pure_ineighbor_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                                void* recvbuf, const PURE_Count recvcounts[],
                                const PURE_Aint displs[], PURE_Datatype recvtype, PURE_Comm comm,
                                PURE_Request* request) {
  const Launch to = now(request);
  return allgatherv("pure_ineighbor_allgatherv_c", sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype, comm, &to);
}
int pure_neighbor_allgatherv_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                  PURE_Request* request) {
  const Launch to = later(info, request);
  return allgatherv("pure_neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype, comm, &to);
}
int pure_neighbor_allgatherv_init_c(const void* sendbuf, PURE_Count sendcount,
                                    PURE_Datatype sendtype, void* recvbuf,
                                    const PURE_Count recvcounts[], const PURE_Aint displs[],
                                    PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                    PURE_Request* request) {
  const Launch to = later(info, request);
  return allgatherv("pure_neighbor_allgatherv_init_c", sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype, comm, &to);
}

// ---- alltoall ----
int pure_neighbor_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                           void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoall("pure_neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, nullptr);
}
int pure_neighbor_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                             void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                             PURE_Comm comm) {
  return alltoall("pure_neighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, nullptr);
}
int pure_ineighbor_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                            void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                            PURE_Request* request) {
  const Launch to = now(request);
  return alltoall("pure_ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, &to);
}
int pure_ineighbor_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                              void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                              PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return alltoall("pure_ineighbor_alltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, &to);
}
int pure_neighbor_alltoall_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                void* recvbuf, int recvcount, PURE_Datatype recvtype,
                                PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoall("pure_neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, &to);
}
int pure_neighbor_alltoall_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                                  void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                                  PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoall("pure_neighbor_alltoall_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, &to);
}

// ---- alltoallv ----
int pure_neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoallv("pure_neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, nullptr);
}
int pure_neighbor_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                              const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                              const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                              PURE_Datatype recvtype, PURE_Comm comm) {
  return alltoallv("pure_neighbor_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, nullptr);
}
int pure_ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                             PURE_Request* request) {
  const Launch to = now(request);
  return alltoallv("pure_ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, &to);
}
int pure_ineighbor_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                               const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                               const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                               PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return alltoallv("pure_ineighbor_alltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, &to);
}
int pure_neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                 const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                                 PURE_Info info, PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoallv("pure_neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, &to);
}
int pure_neighbor_alltoallv_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                                   const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                                   const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                                   PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                   PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoallv("pure_neighbor_alltoallv_init_c", sendbuf, sendcounts, sdispls, sendtype,
                   recvbuf, recvcounts, rdispls, recvtype, comm, &to);
}

// ---- alltoallw ----
int pure_neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const PURE_Aint sdispls[],
                            const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                            PURE_Comm comm) {
  return alltoallw("pure_neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, nullptr);
}
int pure_neighbor_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                              const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                              void* recvbuf, const PURE_Count recvcounts[],
                              const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                              PURE_Comm comm) {
  return alltoallw("pure_neighbor_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, nullptr);
}
int pure_ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const PURE_Aint sdispls[],
                             const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                             PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return alltoallw("pure_ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, &to);
}
int pure_ineighbor_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                               const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                               void* recvbuf, const PURE_Count recvcounts[],
                               const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                               PURE_Comm comm, PURE_Request* request) {
  const Launch to = now(request);
  return alltoallw("pure_ineighbor_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, &to);
}
int pure_neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                 const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                                 void* recvbuf, const int recvcounts[], const PURE_Aint rdispls[],
                                 const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Info info,
                                 PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoallw("pure_neighbor_alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, &to);
}
int pure_neighbor_alltoallw_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                                   const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                                   void* recvbuf, const PURE_Count recvcounts[],
                                   const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                                   PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  const Launch to = later(info, request);
  return alltoallw("pure_neighbor_alltoallw_init_c", sendbuf, sendcounts, sdispls, sendtypes,
                   recvbuf, recvcounts, rdispls, recvtypes, comm, &to);
}

}  // extern "C"
