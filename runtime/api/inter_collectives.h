// The flat API's collectives on intercommunicators: each collective of
// collectives.cpp hands an intercommunicator to its function here, which
// checks the arguments as MPI defines them there (roots PURE_ROOT and
// PURE_PROC_NULL, counts of the other group) and calls composite/intercomm.h.
#pragma once

#include "api/call.h"

namespace pure::api::inter_api {

void barrier(Call& c, Comm& ic);
void bcast(Call& c, Comm& ic, void* buffer, int count, PURE_Datatype datatype, int root);
// root -1: allreduce.
void reduce(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf, int count,
            PURE_Datatype datatype, PURE_Op op, int root);
// recvcounts nullptr: reduce_scatter_block with `recvcount` for every rank.
void reduce_scatter(Call& c, Comm& ic, const char* name, const void* sendbuf, void* recvbuf,
                    int recvcount, const int* recvcounts, PURE_Datatype datatype, PURE_Op op);
// rcounts nullptr: the non-v form, `rcount` from every member.
void gatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
             PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
             const int* displs, PURE_Datatype recvtype, int root);
void scatterv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
              const int* scounts, const int* displs, PURE_Datatype sendtype, void* recvbuf,
              int recvcount, PURE_Datatype recvtype, int root);
void allgatherv(Call& c, Comm& ic, const char* name, const void* sendbuf, int sendcount,
                PURE_Datatype sendtype, void* recvbuf, int rcount, const int* rcounts,
                const int* displs, PURE_Datatype recvtype);
void alltoallv(Call& c, Comm& ic, const char* name, const void* sendbuf, int scount,
               const int* scounts, const int* sdispls, PURE_Datatype sendtype, void* recvbuf,
               int rcount, const int* rcounts, const int* rdispls, PURE_Datatype recvtype);
// Scans are not defined on intercommunicators.
[[noreturn]] void no_scan(Comm& ic);

}  // namespace pure::api::inter_api
