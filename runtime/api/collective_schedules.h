// The collectives that run as a schedule of point-to-point rounds
// (nonblocking/schedule.h) behind a request. One builder per collective
// checks the arguments and builds the schedule; `Launch` says what becomes
// of it: started at once (the nonblocking pure_iX), or kept as an inactive
// persistent request that pure_start runs, as often as the program starts
// it (MPI-4's persistent collectives, pure_X_init). The blocking forms of
// alltoallw and of the neighbourhood collectives run the same schedule and
// wait for it.
//
// Every member builds its schedules in the order it calls the collectives
// (for persistent ones, the order of the _init calls), which is how their
// messages find each other (Schedule's tags).
#pragma once

#include <memory>

#include "api/call.h"
#include "nonblocking/schedule.h"
#include "pure/pure.h"

namespace pure::api {

struct Launch {
  PURE_Request* request;
  bool persistent;
  PURE_Info info;  // a persistent collective's: checked, and no key changes anything

  static Launch now(PURE_Request* request) { return {request, false, PURE_INFO_NULL}; }
  static Launch later(PURE_Info info, PURE_Request* request) { return {request, true, info}; }
};

// ---- the pieces, for builders elsewhere (neighbourhood and intercommunicator ones) ----
// The request pointer and, for a persistent collective, its info.
void launch_arg(Call& c, const Launch& to);
// An empty schedule on `cm` for the calling function, with `tags` tags.
std::unique_ptr<nbc::Schedule> schedule(Call& c, Comm& cm, const char* name, int tags = 1);
void launch(Call& c, Comm& cm, std::unique_ptr<nbc::Schedule> s, const Launch& to);
// Runs `s` to completion in the wait loop; throws the error it ended with.
void run_blocking(Call& c, Comm& cm, std::unique_ptr<nbc::Schedule> s);

// ---- the builders: each is a whole flat-API call named `name` ----
int ibarrier(const char* name, PURE_Comm comm, const Launch& to);
int ibcast(const char* name, void* buffer, long long count, PURE_Datatype datatype, int root,
           PURE_Comm comm, const Launch& to);
int ireduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
            PURE_Datatype datatype, PURE_Op op, int root, PURE_Comm comm, const Launch& to);
int iallreduce(const char* name, const void* sendbuf, void* recvbuf, long long count,
               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to);
// exclusive: exscan.
int iscan(const char* name, const void* sendbuf, void* recvbuf, long long count,
          PURE_Datatype datatype, PURE_Op op, bool exclusive, PURE_Comm comm, const Launch& to);
int ireduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, long long recvcount,
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to);
int igather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
            void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
            const Launch& to);
int iscatter(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
             void* recvbuf, long long recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
             const Launch& to);
int iallgather(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
               void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
               const Launch& to);
int ialltoall(const char* name, const void* sendbuf, long long sendcount, PURE_Datatype sendtype,
              void* recvbuf, long long recvcount, PURE_Datatype recvtype, PURE_Comm comm,
              const Launch& to);

// N, D: int and int (the int calls) or PURE_Count and PURE_Aint (the _c
// calls); instantiated for those two in collective_schedules.cpp.
template <class N>
int ireduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const N* recvcounts,
                    PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, const Launch& to);
template <class N, class D>
int igatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
             void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype, int root,
             PURE_Comm comm, const Launch& to);
template <class N, class D>
int iscatterv(const char* name, const void* sendbuf, const N* sendcounts, const D* displs,
              PURE_Datatype sendtype, void* recvbuf, N recvcount, PURE_Datatype recvtype, int root,
              PURE_Comm comm, const Launch& to);
template <class N, class D>
int iallgatherv(const char* name, const void* sendbuf, N sendcount, PURE_Datatype sendtype,
                void* recvbuf, const N* recvcounts, const D* displs, PURE_Datatype recvtype,
                PURE_Comm comm, const Launch& to);
template <class N, class D>
int ialltoallv(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               PURE_Datatype sendtype, void* recvbuf, const N* recvcounts, const D* rdispls,
               PURE_Datatype recvtype, PURE_Comm comm, const Launch& to);
template <class N, class D>
int ialltoallw(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
               const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts,
               const D* rdispls, const PURE_Datatype recvtypes[], PURE_Comm comm, const Launch& to);
template <class N, class D>
int blocking_alltoallw(const char* name, const void* sendbuf, const N* sendcounts, const D* sdispls,
                       const PURE_Datatype sendtypes[], void* recvbuf, const N* recvcounts,
                       const D* rdispls, const PURE_Datatype recvtypes[], PURE_Comm comm);

}  // namespace pure::api
