// Flat API: the nonblocking collectives, and blocking alltoallw, which is
// one of them waited for (collective_schedules.h builds them all).
#include "api/collective_schedules.h"

using namespace pure;
using namespace pure::api;

extern "C" {

int pure_ibarrier(PURE_Comm comm, PURE_Request* request) {
  return ibarrier("pure_ibarrier", comm, Launch::now(request));
}

int pure_ibcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm,
                PURE_Request* request) {
  return ibcast("pure_ibcast", buffer, count, datatype, root, comm, Launch::now(request));
}
int pure_ibcast_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root, PURE_Comm comm,
                  PURE_Request* request) {
  return ibcast("pure_ibcast_c", buffer, count, datatype, root, comm, Launch::now(request));
}

int pure_ireduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                 int root, PURE_Comm comm, PURE_Request* request) {
  return ireduce("pure_ireduce", sendbuf, recvbuf, count, datatype, op, root, comm,
                 Launch::now(request));
}
int pure_ireduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, int root, PURE_Comm comm, PURE_Request* request) {
  return ireduce("pure_ireduce_c", sendbuf, recvbuf, count, datatype, op, root, comm,
                 Launch::now(request));
}

int pure_iallreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                    PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iallreduce("pure_iallreduce", sendbuf, recvbuf, count, datatype, op, comm,
                    Launch::now(request));
}
int pure_iallreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                      PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iallreduce("pure_iallreduce_c", sendbuf, recvbuf, count, datatype, op, comm,
                    Launch::now(request));
}

int pure_iscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
               PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iscan", sendbuf, recvbuf, count, datatype, op, false, comm,
               Launch::now(request));
}
int pure_iscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                 PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iscan_c", sendbuf, recvbuf, count, datatype, op, false, comm,
               Launch::now(request));
}

int pure_iexscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                 PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iexscan", sendbuf, recvbuf, count, datatype, op, true, comm,
               Launch::now(request));
}
int pure_iexscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm, PURE_Request* request) {
  return iscan("pure_iexscan_c", sendbuf, recvbuf, count, datatype, op, true, comm,
               Launch::now(request));
}

int pure_ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                               PURE_Request* request) {
  return ireduce_scatter_block("pure_ireduce_scatter_block", sendbuf, recvbuf, recvcount, datatype,
                               op, comm, Launch::now(request));
}
int pure_ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                 PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                 PURE_Request* request) {
  return ireduce_scatter_block("pure_ireduce_scatter_block_c", sendbuf, recvbuf, recvcount,
                               datatype, op, comm, Launch::now(request));
}

int pure_ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                         PURE_Request* request) {
  return ireduce_scatter("pure_ireduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                         Launch::now(request));
}
int pure_ireduce_scatter_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                           PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                           PURE_Request* request) {
  return ireduce_scatter("pure_ireduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                         Launch::now(request));
}

int pure_igatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                  PURE_Comm comm, PURE_Request* request) {
  return igatherv("pure_igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, Launch::now(request));
}
int pure_igatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                    PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request) {
  return igatherv("pure_igatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, Launch::now(request));
}

int pure_igather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                 PURE_Request* request) {
  return igather("pure_igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, Launch::now(request));
}
int pure_igather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, void* recvbuf,
                   PURE_Count recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                   PURE_Request* request) {
  return igather("pure_igather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, Launch::now(request));
}

int pure_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                   int root, PURE_Comm comm, PURE_Request* request) {
  return iscatterv("pure_iscatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, Launch::now(request));
}
int pure_iscatterv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint displs[],
                     PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                     PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request) {
  return iscatterv("pure_iscatterv_c", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, Launch::now(request));
}

int pure_iscatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                  PURE_Request* request) {
  return iscatter("pure_iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                  comm, Launch::now(request));
}
int pure_iscatter_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                    PURE_Comm comm, PURE_Request* request) {
  return iscatter("pure_iscatter_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  root, comm, Launch::now(request));
}

int pure_iallgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                     PURE_Comm comm, PURE_Request* request) {
  return iallgatherv("pure_iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, comm, Launch::now(request));
}
int pure_iallgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                       void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                       PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return iallgatherv("pure_iallgatherv_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                     displs, recvtype, comm, Launch::now(request));
}

int pure_iallgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return iallgather("pure_iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, Launch::now(request));
}
int pure_iallgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                      void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                      PURE_Request* request) {
  return iallgather("pure_iallgather_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    comm, Launch::now(request));
}

int pure_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                    PURE_Request* request) {
  return ialltoallv("pure_ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                    rdispls, recvtype, comm, Launch::now(request));
}
int pure_ialltoallv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint sdispls[],
                      PURE_Datatype sendtype, void* recvbuf, const PURE_Count recvcounts[],
                      const PURE_Aint rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                      PURE_Request* request) {
  return ialltoallv("pure_ialltoallv_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, Launch::now(request));
}

int pure_ialltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request) {
  return ialltoall("pure_ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, Launch::now(request));
}
int pure_ialltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                     void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                     PURE_Request* request) {
  return ialltoall("pure_ialltoall_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, Launch::now(request));
}

int pure_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                    PURE_Request* request) {
  return ialltoallw("pure_ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                    rdispls, recvtypes, comm, Launch::now(request));
}
int pure_ialltoallw_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint sdispls[],
                      const PURE_Datatype sendtypes[], void* recvbuf, const PURE_Count recvcounts[],
                      const PURE_Aint rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                      PURE_Request* request) {
  return ialltoallw("pure_ialltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                    recvcounts, rdispls, recvtypes, comm, Launch::now(request));
}

int pure_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm) {
  return blocking_alltoallw("pure_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                            recvcounts, rdispls, recvtypes, comm);
}
int pure_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint sdispls[],
                     const PURE_Datatype sendtypes[], void* recvbuf, const PURE_Count recvcounts[],
                     const PURE_Aint rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm) {
  return blocking_alltoallw("pure_alltoallw_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                            recvcounts, rdispls, recvtypes, comm);
}

}  // extern "C"
