// Flat API: MPI-4's persistent collectives. pure_X_init checks its
// arguments and builds the schedule of pure_iX (collective_schedules.h)
// once, as an inactive request; every pure_start (or startall) runs it from
// its first round, and a wait or test finishes it, leaving it inactive
// again, until pure_request_free. The members initialise their persistent
// collectives in the same order as all their other collectives on the
// communicator, and start them in the same order too, as MPI-4 requires.
#include "api/collective_schedules.h"

using namespace pure;
using namespace pure::api;

extern "C" {

int pure_barrier_init(PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return ibarrier("pure_barrier_init", comm, Launch::later(info, request));
}

int pure_bcast_init(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm,
                    PURE_Info info, PURE_Request* request) {
  return ibcast("pure_bcast_init", buffer, count, datatype, root, comm,
                Launch::later(info, request));
}

int pure_bcast_init_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root,
                      PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return ibcast("pure_bcast_init_c", buffer, count, datatype, root, comm,
                Launch::later(info, request));
}

int pure_reduce_init(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                     PURE_Op op, int root, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return ireduce("pure_reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm,
                 Launch::later(info, request));
}

int pure_reduce_init_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                       PURE_Op op, int root, PURE_Comm comm, PURE_Info info,
                       PURE_Request* request) {
  return ireduce("pure_reduce_init_c", sendbuf, recvbuf, count, datatype, op, root, comm,
                 Launch::later(info, request));
}

int pure_allreduce_init(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                        PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iallreduce("pure_allreduce_init", sendbuf, recvbuf, count, datatype, op, comm,
                    Launch::later(info, request));
}

int pure_allreduce_init_c(const void* sendbuf, void* recvbuf, PURE_Count count,
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                          PURE_Request* request) {
  return iallreduce("pure_allreduce_init_c", sendbuf, recvbuf, count, datatype, op, comm,
                    Launch::later(info, request));
}

int pure_scan_init(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscan("pure_scan_init", sendbuf, recvbuf, count, datatype, op, false, comm,
               Launch::later(info, request));
}

int pure_scan_init_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                     PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscan("pure_scan_init_c", sendbuf, recvbuf, count, datatype, op, false, comm,
               Launch::later(info, request));
}

int pure_exscan_init(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                     PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscan("pure_exscan_init", sendbuf, recvbuf, count, datatype, op, true, comm,
               Launch::later(info, request));
}

int pure_exscan_init_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                       PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscan("pure_exscan_init_c", sendbuf, recvbuf, count, datatype, op, true, comm,
               Launch::later(info, request));
}

int pure_reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                   PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                   PURE_Info info, PURE_Request* request) {
  return ireduce_scatter_block("pure_reduce_scatter_block_init", sendbuf, recvbuf, recvcount,
                               datatype, op, comm, Launch::later(info, request));
}

int pure_reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                     PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                     PURE_Info info, PURE_Request* request) {
  return ireduce_scatter_block("pure_reduce_scatter_block_init_c", sendbuf, recvbuf, recvcount,
                               datatype, op, comm, Launch::later(info, request));
}

int pure_reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                             PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                             PURE_Request* request) {
  return ireduce_scatter("pure_reduce_scatter_init", sendbuf, recvbuf, recvcounts, datatype, op,
                         comm, Launch::later(info, request));
}

int pure_reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                               PURE_Request* request) {
  return ireduce_scatter("pure_reduce_scatter_init_c", sendbuf, recvbuf, recvcounts, datatype, op,
                         comm, Launch::later(info, request));
}

int pure_gatherv_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                      PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return igatherv("pure_gatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, Launch::later(info, request));
}

int pure_gatherv_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                        void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                        PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Info info,
                        PURE_Request* request) {
  return igatherv("pure_gatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                  recvtype, root, comm, Launch::later(info, request));
}

int pure_gather_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                     int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                     PURE_Info info, PURE_Request* request) {
  return igather("pure_gather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, Launch::later(info, request));
}

int pure_gather_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                       void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                       PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return igather("pure_gather_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, Launch::later(info, request));
}

int pure_scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                       PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                       int root, PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscatterv("pure_scatterv_init", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                   recvtype, root, comm, Launch::later(info, request));
}

int pure_scatterv_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                         const PURE_Aint displs[], PURE_Datatype sendtype, void* recvbuf,
                         PURE_Count recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                         PURE_Info info, PURE_Request* request) {
  return iscatterv("pure_scatterv_init_c", sendbuf, sendcounts, displs, sendtype, recvbuf,
                   recvcount, recvtype, root, comm, Launch::later(info, request));
}

int pure_scatter_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                      int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                      PURE_Info info, PURE_Request* request) {
  return iscatter("pure_scatter_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  root, comm, Launch::later(info, request));
}

int pure_scatter_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                        void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                        PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iscatter("pure_scatter_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  root, comm, Launch::later(info, request));
}

int pure_allgatherv_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                         PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iallgatherv("pure_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                     displs, recvtype, comm, Launch::later(info, request));
}

int pure_allgatherv_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                           void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                           PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                           PURE_Request* request) {
  return iallgatherv("pure_allgatherv_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                     displs, recvtype, comm, Launch::later(info, request));
}

int pure_allgather_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                        int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                        PURE_Request* request) {
  return iallgather("pure_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm, Launch::later(info, request));
}

int pure_allgather_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                          void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                          PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return iallgather("pure_allgather_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, comm, Launch::later(info, request));
}

int pure_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                        PURE_Request* request) {
  return ialltoallv("pure_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, Launch::later(info, request));
}

int pure_alltoallv_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                          const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                          const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                          PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                          PURE_Request* request) {
  return ialltoallv("pure_alltoallv_init_c", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, Launch::later(info, request));
}

int pure_alltoall_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                       int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                       PURE_Request* request) {
  return ialltoall("pure_alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, Launch::later(info, request));
}

int pure_alltoall_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                         void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                         PURE_Comm comm, PURE_Info info, PURE_Request* request) {
  return ialltoall("pure_alltoall_init_c", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, Launch::later(info, request));
}

int pure_alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                        PURE_Info info, PURE_Request* request) {
  return ialltoallw("pure_alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                    recvcounts, rdispls, recvtypes, comm, Launch::later(info, request));
}

int pure_alltoallw_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                          const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
                          const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                          const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Info info,
                          PURE_Request* request) {
  return ialltoallw("pure_alltoallw_init_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                    recvcounts, rdispls, recvtypes, comm, Launch::later(info, request));
}

}  // extern "C"
