// The flat API's collectives on intercommunicators: each collective of
// collectives.cpp and collective_schedules.cpp hands an intercommunicator
// to its function here, which checks the arguments as MPI defines them
// there (roots PURE_ROOT and PURE_PROC_NULL, counts of the other group) and
// runs it: blocking through composite/intercomm.h; nonblocking or
// persistent (`to` given) as a schedule on the bridge (nonblocking/, the
// inter_* schedules). Every member builds a schedule, PURE_PROC_NULL ones
// an empty one, so that all agree on the schedules' tags.
#pragma once

#include "api/call.h"
#include "api/collective_schedules.h"

namespace pure::api::inter_api {

void barrier(Call& c, Comm& ic, const Launch* to = nullptr);
void bcast(Call& c, Comm& ic, void* buffer, int count, PURE_Datatype datatype, int root,
           const Launch* to = nullptr);
// root -1: allreduce.
void reduce(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf, int count,
            PURE_Datatype datatype, PURE_Op op, int root, const Launch* to = nullptr);
// recvcounts nullptr: reduce_scatter_block with `recvcount` for every rank.
void reduce_scatter(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf,
                    int recvcount, const int* recvcounts, PURE_Datatype datatype, PURE_Op op,
                    const Launch* to = nullptr);
// rcounts nullptr: the non-v form, `rcount` from every member.
void gatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
             PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
             const int* displs, PURE_Datatype recvtype, int root, const Launch* to = nullptr);
void scatterv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
              const int* scounts, const int* displs, PURE_Datatype sendtype, void* recvbuf,
              int recvcount, PURE_Datatype recvtype, int root, const Launch* to = nullptr);
void allgatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
                PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
                const int* displs, PURE_Datatype recvtype, const Launch* to = nullptr);
void alltoallv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
               const int* scounts, const int* sdispls, PURE_Datatype sendtype, void* recvbuf,
               int rcount, const int* rcounts, const int* rdispls, PURE_Datatype recvtype,
               const Launch* to = nullptr);
// alltoallw: a datatype per block, byte displacements; nonblocking (or
// persistent) or, `to` null, waited for.
void alltoallw(Call& c, Comm& ic, const void* sendbuf, const int* scounts, const long long* sdispls,
               const PURE_Datatype* sendtypes, void* recvbuf, const int* rcounts,
               const long long* rdispls, const PURE_Datatype* recvtypes, const Launch* to);
// Scans are not defined on intercommunicators.
[[noreturn]] void no_scan(Comm& ic);

}  // namespace pure::api::inter_api
