/* Pure: an MPI-compatible runtime whose ranks are threads.
 *
 * The flat API. Naming rule (see DESIGN.md): every supported MPI function
 * MPI_Xxx_yyy has a counterpart pure_xxx_yyy with the same parameters, return
 * codes and semantics; MPI_FOO constants become PURE_FOO; MPI_Type becomes
 * PURE_Type.
 *
 * Handles for communicators, datatypes, ops, groups, error handlers, info
 * objects and attribute keys (keyvals) are integers whose top byte names
 * their kind, so that passing one kind where
 * another is expected is reported as an invalid handle, never misread.
 * Every null handle is 0, so a zero-initialised handle is a null one.
 * Requests are pointers to runtime-owned objects.
 */
#ifndef PURE_PURE_H
#define PURE_PURE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions and limits ---------------------------------------------- */
#define PURE_VERSION 3
#define PURE_SUBVERSION 1
#define PURE_MAX_PROCESSOR_NAME 256
#define PURE_MAX_ERROR_STRING 512
#define PURE_BSEND_OVERHEAD 64

/* ---- scalar types ------------------------------------------------------ */
typedef ptrdiff_t PURE_Aint;
typedef long long PURE_Offset;
typedef long long PURE_Count;

/* ---- handles ------------------------------------------------------------ */
typedef int PURE_Comm;
typedef int PURE_Datatype;
typedef int PURE_Op;
typedef int PURE_Group;
typedef int PURE_Errhandler;
typedef struct pure_request_s* PURE_Request;

#define PURE_HANDLE_KIND_COMM 0x1C000000
#define PURE_HANDLE_KIND_DATATYPE 0x2D000000
#define PURE_HANDLE_KIND_OP 0x3E000000
#define PURE_HANDLE_KIND_GROUP 0x4F000000
#define PURE_HANDLE_KIND_ERRHANDLER 0x5A000000

#define PURE_COMM_NULL ((PURE_Comm)0)
#define PURE_COMM_WORLD ((PURE_Comm)(PURE_HANDLE_KIND_COMM | 1))
#define PURE_COMM_SELF ((PURE_Comm)(PURE_HANDLE_KIND_COMM | 2))

#define PURE_GROUP_NULL ((PURE_Group)0)
#define PURE_GROUP_EMPTY ((PURE_Group)(PURE_HANDLE_KIND_GROUP | 1))

#define PURE_ERRHANDLER_NULL ((PURE_Errhandler)0)
#define PURE_ERRORS_ARE_FATAL ((PURE_Errhandler)(PURE_HANDLE_KIND_ERRHANDLER | 1))
#define PURE_ERRORS_RETURN ((PURE_Errhandler)(PURE_HANDLE_KIND_ERRHANDLER | 2))
/* MPI-4: an error aborts the communicator's processes, as MPI_Abort(comm)
 * does; in Pure that ends the job, as PURE_ERRORS_ARE_FATAL does. */
#define PURE_ERRORS_ABORT ((PURE_Errhandler)(PURE_HANDLE_KIND_ERRHANDLER | 3))

#define PURE_REQUEST_NULL ((PURE_Request)0)

/* Predefined reduction operations; user ops (pure_op_create) get indices
 * from 64 upwards. */
#define PURE_OP_NULL ((PURE_Op)0)
#define PURE_MAX ((PURE_Op)(PURE_HANDLE_KIND_OP | 1))
#define PURE_MIN ((PURE_Op)(PURE_HANDLE_KIND_OP | 2))
#define PURE_SUM ((PURE_Op)(PURE_HANDLE_KIND_OP | 3))
#define PURE_PROD ((PURE_Op)(PURE_HANDLE_KIND_OP | 4))
#define PURE_LAND ((PURE_Op)(PURE_HANDLE_KIND_OP | 5))
#define PURE_BAND ((PURE_Op)(PURE_HANDLE_KIND_OP | 6))
#define PURE_LOR ((PURE_Op)(PURE_HANDLE_KIND_OP | 7))
#define PURE_BOR ((PURE_Op)(PURE_HANDLE_KIND_OP | 8))
#define PURE_LXOR ((PURE_Op)(PURE_HANDLE_KIND_OP | 9))
#define PURE_BXOR ((PURE_Op)(PURE_HANDLE_KIND_OP | 10))
#define PURE_MINLOC ((PURE_Op)(PURE_HANDLE_KIND_OP | 11))
#define PURE_MAXLOC ((PURE_Op)(PURE_HANDLE_KIND_OP | 12))

/* A user reduction: inoutvec[i] = invec[i] op inoutvec[i] for i < *len. */
typedef void PURE_User_function(void* invec, void* inoutvec, int* len,
                                PURE_Datatype* datatype);

/* Predefined datatypes. The low bits index the runtime's table of basic
 * types (more below, in the datatypes section); derived types created at
 * run time get indices from 96 upwards. */
#define PURE_DATATYPE_NULL ((PURE_Datatype)0)
#define PURE_DT_(n) ((PURE_Datatype)(PURE_HANDLE_KIND_DATATYPE | (n)))
#define PURE_CHAR PURE_DT_(1)
#define PURE_SIGNED_CHAR PURE_DT_(2)
#define PURE_UNSIGNED_CHAR PURE_DT_(3)
#define PURE_BYTE PURE_DT_(4)
#define PURE_WCHAR PURE_DT_(5)
#define PURE_SHORT PURE_DT_(6)
#define PURE_UNSIGNED_SHORT PURE_DT_(7)
#define PURE_INT PURE_DT_(8)
#define PURE_UNSIGNED PURE_DT_(9)
#define PURE_LONG PURE_DT_(10)
#define PURE_UNSIGNED_LONG PURE_DT_(11)
#define PURE_LONG_LONG_INT PURE_DT_(12)
#define PURE_LONG_LONG PURE_LONG_LONG_INT
#define PURE_UNSIGNED_LONG_LONG PURE_DT_(13)
#define PURE_FLOAT PURE_DT_(14)
#define PURE_DOUBLE PURE_DT_(15)
#define PURE_LONG_DOUBLE PURE_DT_(16)
#define PURE_INT8_T PURE_DT_(17)
#define PURE_INT16_T PURE_DT_(18)
#define PURE_INT32_T PURE_DT_(19)
#define PURE_INT64_T PURE_DT_(20)
#define PURE_UINT8_T PURE_DT_(21)
#define PURE_UINT16_T PURE_DT_(22)
#define PURE_UINT32_T PURE_DT_(23)
#define PURE_UINT64_T PURE_DT_(24)
#define PURE_C_BOOL PURE_DT_(25)
#define PURE_C_FLOAT_COMPLEX PURE_DT_(26)
#define PURE_C_COMPLEX PURE_C_FLOAT_COMPLEX
#define PURE_C_DOUBLE_COMPLEX PURE_DT_(27)
#define PURE_C_LONG_DOUBLE_COMPLEX PURE_DT_(28)
#define PURE_AINT PURE_DT_(29)
#define PURE_OFFSET PURE_DT_(30)
#define PURE_COUNT PURE_DT_(31)
#define PURE_PACKED PURE_DT_(32)
#define PURE_CXX_BOOL PURE_DT_(33)
/* pair types for MINLOC / MAXLOC */
#define PURE_FLOAT_INT PURE_DT_(40)
#define PURE_DOUBLE_INT PURE_DT_(41)
#define PURE_LONG_INT PURE_DT_(42)
#define PURE_2INT PURE_DT_(43)
#define PURE_SHORT_INT PURE_DT_(44)
#define PURE_LONG_DOUBLE_INT PURE_DT_(45)

/* ---- special values ------------------------------------------------------ */
#define PURE_ANY_SOURCE (-1)
#define PURE_PROC_NULL (-2)
#define PURE_ANY_TAG (-1)
#define PURE_UNDEFINED (-32766)
#define PURE_IN_PLACE ((void*)1)
#define PURE_MAX_OBJECT_NAME 128

/* thread levels */
#define PURE_THREAD_SINGLE 0
#define PURE_THREAD_FUNNELED 1
#define PURE_THREAD_SERIALIZED 2
#define PURE_THREAD_MULTIPLE 3

/* results of comparisons */
#define PURE_IDENT 0
#define PURE_CONGRUENT 1
#define PURE_SIMILAR 2
#define PURE_UNEQUAL 3

/* ---- error classes (values as in MPI 3.1 / Open MPI) --------------------- */
#define PURE_SUCCESS 0
#define PURE_ERR_BUFFER 1
#define PURE_ERR_COUNT 2
#define PURE_ERR_TYPE 3
#define PURE_ERR_TAG 4
#define PURE_ERR_COMM 5
#define PURE_ERR_RANK 6
#define PURE_ERR_REQUEST 7
#define PURE_ERR_ROOT 8
#define PURE_ERR_GROUP 9
#define PURE_ERR_OP 10
#define PURE_ERR_TOPOLOGY 11
#define PURE_ERR_DIMS 12
#define PURE_ERR_ARG 13
#define PURE_ERR_UNKNOWN 14
#define PURE_ERR_TRUNCATE 15
#define PURE_ERR_OTHER 16
#define PURE_ERR_INTERN 17
#define PURE_ERR_IN_STATUS 18
#define PURE_ERR_PENDING 19
#define PURE_ERR_NOT_INITIALIZED 20
#define PURE_ERR_FINALIZED 21
#define PURE_ERR_LASTCODE 92

/* ---- status ---------------------------------------------------------------- */
typedef struct PURE_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  /* private: bytes received and the cancelled flag */
  int pure_cancelled;
  size_t pure_count;
} PURE_Status;

#define PURE_STATUS_IGNORE ((PURE_Status*)0)
#define PURE_STATUSES_IGNORE ((PURE_Status*)0)

/* ---- entry point ----------------------------------------------------------------
 * A Pure application defines pure_main; linking Pure::main supplies the
 * process's main, which runs pure_main on every rank thread. */
int pure_main(int argc, char** argv);

/* ---- environment ------------------------------------------------------------ */
int pure_init(int* argc, char*** argv);
int pure_init_thread(int* argc, char*** argv, int required, int* provided);
int pure_query_thread(int* provided);
int pure_is_thread_main(int* flag);
int pure_initialized(int* flag);
int pure_finalize(void);
int pure_finalized(int* flag);
int pure_abort(PURE_Comm comm, int errorcode);
double pure_wtime(void);
double pure_wtick(void);
int pure_get_version(int* version, int* subversion);
int pure_get_processor_name(char* name, int* resultlen);
int pure_error_string(int errorcode, char* string, int* resultlen);
int pure_error_class(int errorcode, int* errorclass);
int pure_comm_set_errhandler(PURE_Comm comm, PURE_Errhandler errhandler);
int pure_comm_get_errhandler(PURE_Comm comm, PURE_Errhandler* errhandler);
int pure_comm_get_attr(PURE_Comm comm, int keyval, void* attribute_val, int* flag);
int pure_get_address(const void* location, PURE_Aint* address);

/* ---- communicators and groups ---------------------------------------------- */
int pure_comm_rank(PURE_Comm comm, int* rank);
int pure_comm_size(PURE_Comm comm, int* size);
int pure_comm_dup(PURE_Comm comm, PURE_Comm* newcomm);
int pure_comm_split(PURE_Comm comm, int color, int key, PURE_Comm* newcomm);
int pure_comm_create(PURE_Comm comm, PURE_Group group, PURE_Comm* newcomm);
int pure_comm_free(PURE_Comm* comm);
int pure_comm_compare(PURE_Comm comm1, PURE_Comm comm2, int* result);
int pure_comm_group(PURE_Comm comm, PURE_Group* group);
int pure_comm_set_name(PURE_Comm comm, const char* comm_name);
int pure_comm_get_name(PURE_Comm comm, char* comm_name, int* resultlen);
int pure_group_size(PURE_Group group, int* size);
int pure_group_rank(PURE_Group group, int* rank);
int pure_group_incl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup);
int pure_group_excl(PURE_Group group, int n, const int ranks[], PURE_Group* newgroup);
int pure_group_translate_ranks(PURE_Group group1, int n, const int ranks1[], PURE_Group group2,
                               int ranks2[]);
int pure_group_compare(PURE_Group group1, PURE_Group group2, int* result);
int pure_group_free(PURE_Group* group);

/* ---- collectives ------------------------------------------------------------ */
int pure_op_create(PURE_User_function* user_fn, int commute, PURE_Op* op);
int pure_op_free(PURE_Op* op);
int pure_op_commutative(PURE_Op op, int* commute);
int pure_reduce_local(const void* inbuf, void* inoutbuf, int count, PURE_Datatype datatype,
                      PURE_Op op);
int pure_barrier(PURE_Comm comm);
int pure_bcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm);
int pure_reduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
                int root, PURE_Comm comm);
int pure_allreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm);
int pure_gather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm);
int pure_gatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                 PURE_Comm comm);
int pure_scatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm);
int pure_scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                  int root, PURE_Comm comm);
int pure_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm);
int pure_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                    PURE_Comm comm);
int pure_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, PURE_Comm comm);
int pure_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm);
int pure_scan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
              PURE_Comm comm);
int pure_exscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm);
int pure_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              PURE_Datatype datatype, PURE_Op op, PURE_Comm comm);
int pure_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        PURE_Datatype datatype, PURE_Op op, PURE_Comm comm);

/* ---- point-to-point ------------------------------------------------------------ */
int pure_send(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
              PURE_Comm comm);
int pure_ssend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm);
int pure_rsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm);
int pure_bsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm);
int pure_buffer_attach(void* buffer, int size);
int pure_buffer_detach(void* buffer_addr, int* size);
int pure_recv(void* buf, int count, PURE_Datatype datatype, int source, int tag,
              PURE_Comm comm, PURE_Status* status);
int pure_isend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
               PURE_Comm comm, PURE_Request* request);
int pure_issend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request);
int pure_irsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request);
int pure_ibsend(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm, PURE_Request* request);
int pure_irecv(void* buf, int count, PURE_Datatype datatype, int source, int tag,
               PURE_Comm comm, PURE_Request* request);
int pure_sendrecv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, int dest,
                  int sendtag, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                  int source, int recvtag, PURE_Comm comm, PURE_Status* status);
int pure_sendrecv_replace(void* buf, int count, PURE_Datatype datatype, int dest,
                          int sendtag, int source, int recvtag, PURE_Comm comm,
                          PURE_Status* status);

int pure_wait(PURE_Request* request, PURE_Status* status);
int pure_waitall(int count, PURE_Request requests[], PURE_Status statuses[]);
int pure_waitany(int count, PURE_Request requests[], int* index, PURE_Status* status);
int pure_waitsome(int incount, PURE_Request requests[], int* outcount, int indices[],
                  PURE_Status statuses[]);
int pure_test(PURE_Request* request, int* flag, PURE_Status* status);
int pure_testall(int count, PURE_Request requests[], int* flag, PURE_Status statuses[]);
int pure_testany(int count, PURE_Request requests[], int* index, int* flag,
                 PURE_Status* status);
int pure_testsome(int incount, PURE_Request requests[], int* outcount, int indices[],
                  PURE_Status statuses[]);
int pure_request_free(PURE_Request* request);
int pure_cancel(PURE_Request* request);
int pure_test_cancelled(const PURE_Status* status, int* flag);
int pure_probe(int source, int tag, PURE_Comm comm, PURE_Status* status);
int pure_iprobe(int source, int tag, PURE_Comm comm, int* flag, PURE_Status* status);
int pure_get_count(const PURE_Status* status, PURE_Datatype datatype, int* count);

/* The paper's spellings. */
int pure_send_msg(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm);
int pure_recv_msg(void* buf, int count, PURE_Datatype datatype, int source, int tag,
                  PURE_Comm comm, PURE_Status* status);

/* ---- nonblocking collectives (MPI-3) --------------------------------------------
 * Several may be in flight on one communicator; they complete in any order
 * through the wait and test calls, together with point-to-point requests,
 * and are matched across ranks by the order in which each rank starts
 * them. They never match point-to-point messages. */
int pure_ibarrier(PURE_Comm comm, PURE_Request* request);
int pure_ibcast(void* buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm,
                PURE_Request* request);
int pure_ireduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                 PURE_Op op, int root, PURE_Comm comm, PURE_Request* request);
int pure_iallreduce(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                    PURE_Op op, PURE_Comm comm, PURE_Request* request);
int pure_igather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                 int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                 PURE_Request* request);
int pure_igatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                  PURE_Comm comm, PURE_Request* request);
int pure_iscatter(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                  int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                  PURE_Request* request);
int pure_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   PURE_Datatype sendtype, void* recvbuf, int recvcount, PURE_Datatype recvtype,
                   int root, PURE_Comm comm, PURE_Request* request);
int pure_iallgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                    int recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                    PURE_Request* request);
int pure_iallgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                     PURE_Comm comm, PURE_Request* request);
int pure_ialltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype, void* recvbuf,
                   int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request);
int pure_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                    PURE_Request* request);
/* Displacements in bytes, a datatype per peer. */
int pure_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm);
int pure_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                    PURE_Request* request);
int pure_ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                               PURE_Request* request);
int pure_ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                         PURE_Request* request);
int pure_iscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype, PURE_Op op,
               PURE_Comm comm, PURE_Request* request);
int pure_iexscan(const void* sendbuf, void* recvbuf, int count, PURE_Datatype datatype,
                 PURE_Op op, PURE_Comm comm, PURE_Request* request);
/* *newcomm may be used once the request completed. */
int pure_comm_idup(PURE_Comm comm, PURE_Comm* newcomm, PURE_Request* request);

/* ---- persistent point-to-point ---------------------------------------------------
 * A persistent request is inactive until pure_start; a wait or test that
 * finds it complete makes it inactive again and leaves the handle valid
 * (a wait or test on an inactive request returns at once with an empty
 * status); pure_request_free ends it. */
int pure_send_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                   PURE_Comm comm, PURE_Request* request);
int pure_bsend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request);
int pure_ssend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request);
int pure_rsend_init(const void* buf, int count, PURE_Datatype datatype, int dest, int tag,
                    PURE_Comm comm, PURE_Request* request);
int pure_recv_init(void* buf, int count, PURE_Datatype datatype, int source, int tag,
                   PURE_Comm comm, PURE_Request* request);
int pure_start(PURE_Request* request);
int pure_startall(int count, PURE_Request array_of_requests[]);

/* ---- matched probe (MPI-3) -------------------------------------------------------
 * A matched probe takes the message out of matching: only a pure_mrecv or
 * pure_imrecv of its handle receives it. */
typedef int PURE_Message;
#define PURE_HANDLE_KIND_MESSAGE 0x71000000
#define PURE_MESSAGE_NULL ((PURE_Message)0)
/* What a matched probe of PURE_PROC_NULL returns; receiving it completes at
 * once with the status of PURE_PROC_NULL. */
#define PURE_MESSAGE_NO_PROC ((PURE_Message)(PURE_HANDLE_KIND_MESSAGE | 1))
int pure_mprobe(int source, int tag, PURE_Comm comm, PURE_Message* message, PURE_Status* status);
int pure_improbe(int source, int tag, PURE_Comm comm, int* flag, PURE_Message* message,
                 PURE_Status* status);
int pure_mrecv(void* buf, int count, PURE_Datatype datatype, PURE_Message* message,
               PURE_Status* status);
int pure_imrecv(void* buf, int count, PURE_Datatype datatype, PURE_Message* message,
                PURE_Request* request);

/* ---- more on requests: generalized requests, status, isendrecv (MPI-2, MPI-4) ---- */
typedef int PURE_Grequest_query_function(void* extra_state, PURE_Status* status);
typedef int PURE_Grequest_free_function(void* extra_state);
typedef int PURE_Grequest_cancel_function(void* extra_state, int complete);
int pure_grequest_start(PURE_Grequest_query_function* query_fn,
                        PURE_Grequest_free_function* free_fn,
                        PURE_Grequest_cancel_function* cancel_fn, void* extra_state,
                        PURE_Request* request);
/* May be called from any thread, also one that is not a rank. */
int pure_grequest_complete(PURE_Request request);
int pure_status_set_cancelled(PURE_Status* status, int flag);
/* (pure_status_set_elements: with the datatypes, by pure_get_elements) */
/* Like pure_test, but leaves the request as it is (not freed, not inactive). */
int pure_request_get_status(PURE_Request request, int* flag, PURE_Status* status);
int pure_isendrecv(const void* sendbuf, int sendcount, PURE_Datatype sendtype, int dest,
                   int sendtag, void* recvbuf, int recvcount, PURE_Datatype recvtype, int source,
                   int recvtag, PURE_Comm comm, PURE_Request* request);
int pure_isendrecv_replace(void* buf, int count, PURE_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, PURE_Comm comm, PURE_Request* request);

/* ---- datatypes ------------------------------------------------------------------- */
int pure_type_contiguous(int count, PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_vector(int count, int blocklength, int stride, PURE_Datatype oldtype,
                     PURE_Datatype* newtype);
int pure_type_create_hvector(int count, int blocklength, PURE_Aint stride,
                             PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_indexed(int count, const int blocklengths[], const int displacements[],
                      PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_create_indexed_block(int count, int blocklength, const int displacements[],
                                   PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_create_hindexed(int count, const int blocklengths[],
                              const PURE_Aint displacements[], PURE_Datatype oldtype,
                              PURE_Datatype* newtype);
int pure_type_create_struct(int count, const int blocklengths[],
                            const PURE_Aint displacements[], const PURE_Datatype types[],
                            PURE_Datatype* newtype);
int pure_type_create_resized(PURE_Datatype oldtype, PURE_Aint lb, PURE_Aint extent,
                             PURE_Datatype* newtype);
int pure_type_dup(PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_commit(PURE_Datatype* datatype);
int pure_type_free(PURE_Datatype* datatype);
int pure_type_get_extent(PURE_Datatype datatype, PURE_Aint* lb, PURE_Aint* extent);
int pure_type_get_true_extent(PURE_Datatype datatype, PURE_Aint* true_lb,
                              PURE_Aint* true_extent);
int pure_type_size(PURE_Datatype datatype, int* size);
int pure_pack(const void* inbuf, int incount, PURE_Datatype datatype, void* outbuf,
              int outsize, int* position, PURE_Comm comm);
int pure_unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                PURE_Datatype datatype, PURE_Comm comm);
int pure_pack_size(int incount, PURE_Datatype datatype, PURE_Comm comm, int* size);

/* ---- datatypes: more constructors, introspection, elements, external32 -----------
 * MPI 3.1 chapter 4 (and 13.5.2 for external32). Types built by any
 * constructor remember how (pure_type_get_envelope / pure_type_get_contents)
 * and the sequence of their basic elements (pure_get_elements). */
#define PURE_BOTTOM ((void*)0)
#define PURE_CXX_FLOAT_COMPLEX PURE_DT_(34)
#define PURE_CXX_DOUBLE_COMPLEX PURE_DT_(35)
#define PURE_CXX_LONG_DOUBLE_COMPLEX PURE_DT_(36)
/* MPI-1's bound markers (removed in MPI-3; for pure_type_struct in old codes) */
#define PURE_LB PURE_DT_(37)
#define PURE_UB PURE_DT_(38)
/* Fortran's types, as C sees them (gfortran's sizes: INTEGER, REAL, LOGICAL 4) */
#define PURE_CHARACTER PURE_DT_(46)
#define PURE_LOGICAL PURE_DT_(47)
#define PURE_INTEGER PURE_DT_(48)
#define PURE_REAL PURE_DT_(49)
#define PURE_DOUBLE_PRECISION PURE_DT_(50)
#define PURE_COMPLEX PURE_DT_(51)
#define PURE_DOUBLE_COMPLEX PURE_DT_(52)
#define PURE_2INTEGER PURE_DT_(53)
#define PURE_2REAL PURE_DT_(54)
#define PURE_2DOUBLE_PRECISION PURE_DT_(55)
#define PURE_INTEGER1 PURE_DT_(56)
#define PURE_INTEGER2 PURE_DT_(57)
#define PURE_INTEGER4 PURE_DT_(58)
#define PURE_INTEGER8 PURE_DT_(59)
#define PURE_REAL4 PURE_DT_(60)
#define PURE_REAL8 PURE_DT_(61)
#define PURE_COMPLEX8 PURE_DT_(62)
#define PURE_COMPLEX16 PURE_DT_(63)

/* combiners: how a datatype was built */
#define PURE_COMBINER_NAMED 1
#define PURE_COMBINER_DUP 2
#define PURE_COMBINER_CONTIGUOUS 3
#define PURE_COMBINER_VECTOR 4
#define PURE_COMBINER_HVECTOR 5
#define PURE_COMBINER_INDEXED 6
#define PURE_COMBINER_HINDEXED 7
#define PURE_COMBINER_INDEXED_BLOCK 8
#define PURE_COMBINER_HINDEXED_BLOCK 9
#define PURE_COMBINER_STRUCT 10
#define PURE_COMBINER_SUBARRAY 11
#define PURE_COMBINER_DARRAY 12
#define PURE_COMBINER_F90_REAL 13
#define PURE_COMBINER_F90_COMPLEX 14
#define PURE_COMBINER_F90_INTEGER 15
#define PURE_COMBINER_RESIZED 16
/* MPI-1's combiners of Fortran calls; C never produces them */
#define PURE_COMBINER_HVECTOR_INTEGER 17
#define PURE_COMBINER_HINDEXED_INTEGER 18
#define PURE_COMBINER_STRUCT_INTEGER 19

#define PURE_ORDER_C 0
#define PURE_ORDER_FORTRAN 1
#define PURE_DISTRIBUTE_BLOCK 0
#define PURE_DISTRIBUTE_CYCLIC 1
#define PURE_DISTRIBUTE_NONE 2
#define PURE_DISTRIBUTE_DFLT_DARG (-1)
#define PURE_TYPECLASS_INTEGER 1
#define PURE_TYPECLASS_REAL 2
#define PURE_TYPECLASS_COMPLEX 3
#define PURE_MAX_LIBRARY_VERSION_STRING 256
/* a value that external32 cannot hold (a long beyond 32 bits, ...) */
#define PURE_ERR_CONVERSION 25

int pure_type_create_hindexed_block(int count, int blocklength, const PURE_Aint displacements[],
                                    PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                              const int starts[], int order, PURE_Datatype oldtype,
                              PURE_Datatype* newtype);
int pure_type_create_darray(int size, int rank, int ndims, const int gsizes[],
                            const int distribs[], const int dargs[], const int psizes[],
                            int order, PURE_Datatype oldtype, PURE_Datatype* newtype);
/* MPI-1 names that MPI-3 removed, for old codes: their successors' meaning */
int pure_type_extent(PURE_Datatype datatype, PURE_Aint* extent);
int pure_type_lb(PURE_Datatype datatype, PURE_Aint* displacement);
int pure_type_ub(PURE_Datatype datatype, PURE_Aint* displacement);
int pure_type_hvector(int count, int blocklength, PURE_Aint stride, PURE_Datatype oldtype,
                      PURE_Datatype* newtype);
int pure_type_hindexed(int count, const int blocklengths[], const PURE_Aint displacements[],
                       PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_struct(int count, const int blocklengths[], const PURE_Aint displacements[],
                     const PURE_Datatype types[], PURE_Datatype* newtype);
int pure_address(const void* location, PURE_Aint* address);
PURE_Aint pure_aint_add(PURE_Aint base, PURE_Aint disp);
PURE_Aint pure_aint_diff(PURE_Aint addr1, PURE_Aint addr2);

int pure_type_get_envelope(PURE_Datatype datatype, int* num_integers, int* num_addresses,
                           int* num_datatypes, int* combiner);
int pure_type_get_contents(PURE_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int integers[], PURE_Aint addresses[],
                           PURE_Datatype datatypes[]);
int pure_type_set_name(PURE_Datatype datatype, const char* type_name);
int pure_type_get_name(PURE_Datatype datatype, char* type_name, int* resultlen);
int pure_type_match_size(int typeclass, int size, PURE_Datatype* datatype);
int pure_type_size_x(PURE_Datatype datatype, PURE_Count* size);
int pure_type_get_extent_x(PURE_Datatype datatype, PURE_Count* lb, PURE_Count* extent);
int pure_type_get_true_extent_x(PURE_Datatype datatype, PURE_Count* true_lb,
                                PURE_Count* true_extent);

int pure_get_elements(const PURE_Status* status, PURE_Datatype datatype, int* count);
int pure_get_elements_x(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count);
int pure_status_set_elements(PURE_Status* status, PURE_Datatype datatype, int count);
int pure_status_set_elements_x(PURE_Status* status, PURE_Datatype datatype, PURE_Count count);

/* datarep "external32" only */
int pure_pack_external(const char datarep[], const void* inbuf, int incount,
                       PURE_Datatype datatype, void* outbuf, PURE_Aint outsize,
                       PURE_Aint* position);
int pure_unpack_external(const char datarep[], const void* inbuf, PURE_Aint insize,
                         PURE_Aint* position, void* outbuf, int outcount, PURE_Datatype datatype);
int pure_pack_external_size(const char datarep[], int incount, PURE_Datatype datatype,
                            PURE_Aint* size);

int pure_get_library_version(char* version, int* resultlen);

/* ---- large counts (MPI-4.0 "_c" procedures) -----------------------------------------
 * The calls above with PURE_Count counts and displacements. A value a call
 * cannot carry is PURE_ERR_COUNT naming it: the v-collectives carry counts
 * and displacements up to INT_MAX each. */
typedef void PURE_User_function_c(void* invec, void* inoutvec, PURE_Count* len,
                                  PURE_Datatype* datatype);
int pure_send_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                PURE_Comm comm);
int pure_ssend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm);
int pure_rsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm);
int pure_bsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm);
int pure_isend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                 PURE_Comm comm, PURE_Request* request);
int pure_issend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request);
int pure_irsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request);
int pure_ibsend_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest, int tag,
                  PURE_Comm comm, PURE_Request* request);
int pure_recv_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                PURE_Comm comm, PURE_Status* status);
int pure_irecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                 PURE_Comm comm, PURE_Request* request);
int pure_sendrecv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                    int source, int recvtag, PURE_Comm comm, PURE_Status* status);
int pure_sendrecv_replace_c(void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, PURE_Comm comm,
                            PURE_Status* status);
int pure_buffer_attach_c(void* buffer, PURE_Count size);
int pure_buffer_detach_c(void* buffer_addr, PURE_Count* size);
int pure_get_count_c(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count);
int pure_get_elements_c(const PURE_Status* status, PURE_Datatype datatype, PURE_Count* count);

int pure_op_create_c(PURE_User_function_c* user_fn, int commute, PURE_Op* op);
int pure_reduce_local_c(const void* inbuf, void* inoutbuf, PURE_Count count,
                        PURE_Datatype datatype, PURE_Op op);
int pure_bcast_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root,
                 PURE_Comm comm);
int pure_reduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                  PURE_Op op, int root, PURE_Comm comm);
int pure_allreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count,
                     PURE_Datatype datatype, PURE_Op op, PURE_Comm comm);
int pure_scan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                PURE_Op op, PURE_Comm comm);
int pure_exscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                  PURE_Op op, PURE_Comm comm);
int pure_reduce_scatter_block_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                PURE_Datatype datatype, PURE_Op op, PURE_Comm comm);
int pure_reduce_scatter_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm);
int pure_gather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                  void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                  PURE_Comm comm);
int pure_gatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                   void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                   PURE_Datatype recvtype, int root, PURE_Comm comm);
int pure_scatter_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                   void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                   PURE_Comm comm);
int pure_scatterv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint displs[],
                    PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                    PURE_Datatype recvtype, int root, PURE_Comm comm);
int pure_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                     void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                     PURE_Comm comm);
int pure_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                      void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                      PURE_Datatype recvtype, PURE_Comm comm);
int pure_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                    PURE_Comm comm);
int pure_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                     const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                     const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                     PURE_Datatype recvtype, PURE_Comm comm);

int pure_type_contiguous_c(PURE_Count count, PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_vector_c(PURE_Count count, PURE_Count blocklength, PURE_Count stride,
                       PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_create_hvector_c(PURE_Count count, PURE_Count blocklength, PURE_Count stride,
                               PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_indexed_c(PURE_Count count, const PURE_Count blocklengths[],
                        const PURE_Count displacements[], PURE_Datatype oldtype,
                        PURE_Datatype* newtype);
int pure_type_create_hindexed_c(PURE_Count count, const PURE_Count blocklengths[],
                                const PURE_Count displacements[], PURE_Datatype oldtype,
                                PURE_Datatype* newtype);
int pure_type_create_indexed_block_c(PURE_Count count, PURE_Count blocklength,
                                     const PURE_Count displacements[], PURE_Datatype oldtype,
                                     PURE_Datatype* newtype);
int pure_type_create_hindexed_block_c(PURE_Count count, PURE_Count blocklength,
                                      const PURE_Count displacements[], PURE_Datatype oldtype,
                                      PURE_Datatype* newtype);
int pure_type_create_struct_c(PURE_Count count, const PURE_Count blocklengths[],
                              const PURE_Count displacements[], const PURE_Datatype types[],
                              PURE_Datatype* newtype);
int pure_type_create_subarray_c(int ndims, const PURE_Count sizes[], const PURE_Count subsizes[],
                                const PURE_Count starts[], int order, PURE_Datatype oldtype,
                                PURE_Datatype* newtype);
int pure_type_create_darray_c(int size, int rank, int ndims, const PURE_Count gsizes[],
                              const int distribs[], const int dargs[], const int psizes[],
                              int order, PURE_Datatype oldtype, PURE_Datatype* newtype);
int pure_type_create_resized_c(PURE_Datatype oldtype, PURE_Count lb, PURE_Count extent,
                               PURE_Datatype* newtype);
int pure_type_get_extent_c(PURE_Datatype datatype, PURE_Count* lb, PURE_Count* extent);
int pure_type_get_true_extent_c(PURE_Datatype datatype, PURE_Count* true_lb,
                                PURE_Count* true_extent);
int pure_type_size_c(PURE_Datatype datatype, PURE_Count* size);
int pure_type_get_envelope_c(PURE_Datatype datatype, PURE_Count* num_integers,
                             PURE_Count* num_addresses, PURE_Count* num_large_counts,
                             PURE_Count* num_datatypes, int* combiner);
int pure_type_get_contents_c(PURE_Datatype datatype, PURE_Count max_integers,
                             PURE_Count max_addresses, PURE_Count max_large_counts,
                             PURE_Count max_datatypes, int integers[], PURE_Aint addresses[],
                             PURE_Count large_counts[], PURE_Datatype datatypes[]);
int pure_pack_c(const void* inbuf, PURE_Count incount, PURE_Datatype datatype, void* outbuf,
                PURE_Count outsize, PURE_Count* position, PURE_Comm comm);
int pure_unpack_c(const void* inbuf, PURE_Count insize, PURE_Count* position, void* outbuf,
                  PURE_Count outcount, PURE_Datatype datatype, PURE_Comm comm);
int pure_pack_size_c(PURE_Count incount, PURE_Datatype datatype, PURE_Comm comm,
                     PURE_Count* size);
int pure_pack_external_c(const char datarep[], const void* inbuf, PURE_Count incount,
                         PURE_Datatype datatype, void* outbuf, PURE_Count outsize,
                         PURE_Count* position);
int pure_unpack_external_c(const char datarep[], const void* inbuf, PURE_Count insize,
                           PURE_Count* position, void* outbuf, PURE_Count outcount,
                           PURE_Datatype datatype);
int pure_pack_external_size_c(const char datarep[], PURE_Count incount, PURE_Datatype datatype,
                              PURE_Count* size);
/* the large-count forms of the persistent, matched-probe and nonblocking calls */
int pure_send_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                     int tag, PURE_Comm comm, PURE_Request* request);
int pure_bsend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                      int tag, PURE_Comm comm, PURE_Request* request);
int pure_ssend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                      int tag, PURE_Comm comm, PURE_Request* request);
int pure_rsend_init_c(const void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                      int tag, PURE_Comm comm, PURE_Request* request);
int pure_recv_init_c(void* buf, PURE_Count count, PURE_Datatype datatype, int source, int tag,
                     PURE_Comm comm, PURE_Request* request);
int pure_mrecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, PURE_Message* message,
                 PURE_Status* status);
int pure_imrecv_c(void* buf, PURE_Count count, PURE_Datatype datatype, PURE_Message* message,
                  PURE_Request* request);
int pure_isendrecv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype, int dest,
                     int sendtag, void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                     int source, int recvtag, PURE_Comm comm, PURE_Request* request);
int pure_isendrecv_replace_c(void* buf, PURE_Count count, PURE_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, PURE_Comm comm,
                             PURE_Request* request);
int pure_ibcast_c(void* buffer, PURE_Count count, PURE_Datatype datatype, int root,
                  PURE_Comm comm, PURE_Request* request);
int pure_ireduce_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, int root, PURE_Comm comm, PURE_Request* request);
int pure_iallreduce_c(const void* sendbuf, void* recvbuf, PURE_Count count,
                      PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Request* request);
int pure_iscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                 PURE_Op op, PURE_Comm comm, PURE_Request* request);
int pure_iexscan_c(const void* sendbuf, void* recvbuf, PURE_Count count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm, PURE_Request* request);
int pure_ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, PURE_Count recvcount,
                                 PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                 PURE_Request* request);
int pure_ireduce_scatter_c(const void* sendbuf, void* recvbuf, const PURE_Count recvcounts[],
                           PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                           PURE_Request* request);
int pure_igatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                    PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request);
int pure_igather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                   void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                   PURE_Comm comm, PURE_Request* request);
int pure_iscatterv_c(const void* sendbuf, const PURE_Count sendcounts[], const PURE_Aint displs[],
                     PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                     PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Request* request);
int pure_iscatter_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                    void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                    PURE_Comm comm, PURE_Request* request);
int pure_iallgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                       void* recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                       PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request);
int pure_iallgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                      void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                      PURE_Comm comm, PURE_Request* request);
int pure_ialltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                      const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                      const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                      PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request);
int pure_ialltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                     void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                     PURE_Request* request);
int pure_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                     const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
                     const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                     const PURE_Datatype recvtypes[], PURE_Comm comm);
int pure_ialltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                      const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void* recvbuf,
                      const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                      const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Request* request);

/* ==== communicators beyond the basics (MPI 3.1 chapters 6-8): group
 * algebra, creation by a group alone, intercommunicators, process
 * topologies and neighbourhood collectives, attribute caching, info
 * objects, user error handlers and error classes ==================== */

typedef int PURE_Info;
#define PURE_HANDLE_KIND_INFO 0x6B000000
#define PURE_HANDLE_KIND_KEYVAL 0x7C000000

#define PURE_INFO_NULL ((PURE_Info)0)
/* What the job was started with: command, argv, maxprocs, thread_level. */
#define PURE_INFO_ENV ((PURE_Info)(PURE_HANDLE_KIND_INFO | 1))
#define PURE_MAX_INFO_KEY 255
#define PURE_MAX_INFO_VAL 1024

/* more error classes (Open MPI's values) */
#define PURE_ERR_INFO_KEY 31
#define PURE_ERR_INFO_NOKEY 32
#define PURE_ERR_INFO_VALUE 33
#define PURE_ERR_INFO 34
#define PURE_ERR_KEYVAL 36

/* The root of an intercommunicator collective names itself PURE_ROOT; the
 * other members of its group pass PURE_PROC_NULL. */
#define PURE_ROOT (-3)

/* pure_comm_split_type: the ranks that share this rank's process; the
 * ranks that share the hardware resource named by the info key
 * "mpi_hw_resource_type" ("mpi_shared_memory", "NUMANode", "Core"); the
 * widest such resource smaller than the communicator (MPI-4). */
#define PURE_COMM_TYPE_SHARED 1
#define PURE_COMM_TYPE_HW_GUIDED 2
#define PURE_COMM_TYPE_HW_UNGUIDED 3

/* ---- partitioned communication (MPI-4) -------------------------------------------
 * One message of `partitions` partitions of `count` elements each, made
 * ready piece by piece (pure_pready) and seen arriving piece by piece
 * (pure_parrived), in rounds started by pure_start on persistent requests.
 * Inits match per source, tag and communicator in the order they are
 * called; no wildcards. The two sides may cut the message into different
 * partitions but hold the same bytes. Between ranks of one process; across
 * processes it is refused (PURE_ERR_UNSUPPORTED_OPERATION). */
int pure_psend_init(const void* buf, int partitions, PURE_Count count, PURE_Datatype datatype,
                    int dest, int tag, PURE_Comm comm, PURE_Info info, PURE_Request* request);
int pure_precv_init(void* buf, int partitions, PURE_Count count, PURE_Datatype datatype,
                    int source, int tag, PURE_Comm comm, PURE_Info info, PURE_Request* request);
int pure_pready(int partition, PURE_Request request);
int pure_pready_range(int partition_low, int partition_high, PURE_Request request);
int pure_pready_list(int length, const int array_of_partitions[], PURE_Request request);
int pure_parrived(PURE_Request request, int partition, int* flag);

/* ---- groups ---- */
int pure_group_union(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup);
int pure_group_intersection(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup);
int pure_group_difference(PURE_Group group1, PURE_Group group2, PURE_Group* newgroup);
int pure_group_range_incl(PURE_Group group, int n, int ranges[][3], PURE_Group* newgroup);
int pure_group_range_excl(PURE_Group group, int n, int ranges[][3], PURE_Group* newgroup);

/* ---- creating communicators ---- */
int pure_comm_create_group(PURE_Comm comm, PURE_Group group, int tag, PURE_Comm* newcomm);
int pure_comm_split_type(PURE_Comm comm, int split_type, int key, PURE_Info info,
                         PURE_Comm* newcomm);
int pure_comm_dup_with_info(PURE_Comm comm, PURE_Info info, PURE_Comm* newcomm);
int pure_comm_idup_with_info(PURE_Comm comm, PURE_Info info, PURE_Comm* newcomm,
                             PURE_Request* request);
/* Hints a communicator keeps: MPI 4's mpi_assert_no_any_tag,
 * mpi_assert_no_any_source, mpi_assert_exact_length and
 * mpi_assert_allow_overtaking ("true" or "false"); others are ignored. */
int pure_comm_set_info(PURE_Comm comm, PURE_Info info);
int pure_comm_get_info(PURE_Comm comm, PURE_Info* info_used);

/* ---- intercommunicators ---- */
int pure_comm_test_inter(PURE_Comm comm, int* flag);
int pure_comm_remote_size(PURE_Comm comm, int* size);
int pure_comm_remote_group(PURE_Comm comm, PURE_Group* group);
int pure_intercomm_create(PURE_Comm local_comm, int local_leader, PURE_Comm peer_comm,
                          int remote_leader, int tag, PURE_Comm* newintercomm);
int pure_intercomm_merge(PURE_Comm intercomm, int high, PURE_Comm* newintracomm);

/* ---- process topologies ---- */
#define PURE_GRAPH 1
#define PURE_CART 2
#define PURE_DIST_GRAPH 3
#define PURE_UNWEIGHTED ((int*)2)
#define PURE_WEIGHTS_EMPTY ((int*)3)

int pure_dims_create(int nnodes, int ndims, int dims[]);
int pure_cart_create(PURE_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, PURE_Comm* comm_cart);
int pure_cart_get(PURE_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int pure_cartdim_get(PURE_Comm comm, int* ndims);
int pure_cart_rank(PURE_Comm comm, const int coords[], int* rank);
int pure_cart_coords(PURE_Comm comm, int rank, int maxdims, int coords[]);
int pure_cart_shift(PURE_Comm comm, int direction, int disp, int* rank_source, int* rank_dest);
int pure_cart_sub(PURE_Comm comm, const int remain_dims[], PURE_Comm* newcomm);
int pure_cart_map(PURE_Comm comm, int ndims, const int dims[], const int periods[],
                  int* newrank);
int pure_graph_create(PURE_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, PURE_Comm* comm_graph);
int pure_graphdims_get(PURE_Comm comm, int* nnodes, int* nedges);
int pure_graph_get(PURE_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int pure_graph_neighbors_count(PURE_Comm comm, int rank, int* nneighbors);
int pure_graph_neighbors(PURE_Comm comm, int rank, int maxneighbors, int neighbors[]);
int pure_graph_map(PURE_Comm comm, int nnodes, const int index[], const int edges[],
                   int* newrank);
int pure_dist_graph_create_adjacent(PURE_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    PURE_Info info, int reorder, PURE_Comm* comm_dist_graph);
int pure_dist_graph_create(PURE_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], PURE_Info info,
                           int reorder, PURE_Comm* comm_dist_graph);
int pure_dist_graph_neighbors_count(PURE_Comm comm, int* indegree, int* outdegree,
                                    int* weighted);
int pure_dist_graph_neighbors(PURE_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[]);
int pure_topo_test(PURE_Comm comm, int* status);

/* Neighbourhood collectives (blocking). */
int pure_neighbor_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                            void* recvbuf, int recvcount, PURE_Datatype recvtype,
                            PURE_Comm comm);
int pure_neighbor_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             PURE_Datatype recvtype, PURE_Comm comm);
int pure_neighbor_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                           void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm);
int pure_neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm);
int pure_neighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                            const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                            void* recvbuf, const int recvcounts[], const PURE_Aint rdispls[],
                            const PURE_Datatype recvtypes[], PURE_Comm comm);

/* ---- attribute caching ----
 * A get stores the attribute's value (a void*) where attribute_val
 * points; for the predefined attributes that value points to an int. */
#define PURE_KEYVAL_INVALID 0
#define PURE_TAG_UB (PURE_HANDLE_KIND_KEYVAL | 1)
#define PURE_WTIME_IS_GLOBAL (PURE_HANDLE_KIND_KEYVAL | 2)
#define PURE_HOST (PURE_HANDLE_KIND_KEYVAL | 3)
#define PURE_IO (PURE_HANDLE_KIND_KEYVAL | 4)
#define PURE_APPNUM (PURE_HANDLE_KIND_KEYVAL | 5)
#define PURE_UNIVERSE_SIZE (PURE_HANDLE_KIND_KEYVAL | 6)
#define PURE_LASTUSEDCODE (PURE_HANDLE_KIND_KEYVAL | 7)

typedef int PURE_Comm_copy_attr_function(PURE_Comm oldcomm, int comm_keyval, void* extra_state,
                                         void* attribute_val_in, void* attribute_val_out,
                                         int* flag);
typedef int PURE_Comm_delete_attr_function(PURE_Comm comm, int comm_keyval, void* attribute_val,
                                           void* extra_state);
typedef int PURE_Type_copy_attr_function(PURE_Datatype oldtype, int type_keyval,
                                         void* extra_state, void* attribute_val_in,
                                         void* attribute_val_out, int* flag);
typedef int PURE_Type_delete_attr_function(PURE_Datatype datatype, int type_keyval,
                                           void* attribute_val, void* extra_state);
/* MPI-1 names */
typedef PURE_Comm_copy_attr_function PURE_Copy_function;
typedef PURE_Comm_delete_attr_function PURE_Delete_function;

/* Predefined callbacks: not copied, copied as is, nothing to delete. */
int pure_comm_null_copy_fn(PURE_Comm oldcomm, int comm_keyval, void* extra_state,
                           void* attribute_val_in, void* attribute_val_out, int* flag);
int pure_comm_dup_fn(PURE_Comm oldcomm, int comm_keyval, void* extra_state,
                     void* attribute_val_in, void* attribute_val_out, int* flag);
int pure_comm_null_delete_fn(PURE_Comm comm, int comm_keyval, void* attribute_val,
                             void* extra_state);
int pure_type_null_copy_fn(PURE_Datatype oldtype, int type_keyval, void* extra_state,
                           void* attribute_val_in, void* attribute_val_out, int* flag);
int pure_type_dup_fn(PURE_Datatype oldtype, int type_keyval, void* extra_state,
                     void* attribute_val_in, void* attribute_val_out, int* flag);
int pure_type_null_delete_fn(PURE_Datatype datatype, int type_keyval, void* attribute_val,
                             void* extra_state);
#define PURE_COMM_NULL_COPY_FN pure_comm_null_copy_fn
#define PURE_COMM_DUP_FN pure_comm_dup_fn
#define PURE_COMM_NULL_DELETE_FN pure_comm_null_delete_fn
#define PURE_TYPE_NULL_COPY_FN pure_type_null_copy_fn
#define PURE_TYPE_DUP_FN pure_type_dup_fn
#define PURE_TYPE_NULL_DELETE_FN pure_type_null_delete_fn
#define PURE_NULL_COPY_FN pure_comm_null_copy_fn
#define PURE_DUP_FN pure_comm_dup_fn
#define PURE_NULL_DELETE_FN pure_comm_null_delete_fn

int pure_comm_create_keyval(PURE_Comm_copy_attr_function* comm_copy_attr_fn,
                            PURE_Comm_delete_attr_function* comm_delete_attr_fn,
                            int* comm_keyval, void* extra_state);
int pure_comm_free_keyval(int* comm_keyval);
int pure_comm_set_attr(PURE_Comm comm, int comm_keyval, void* attribute_val);
int pure_comm_delete_attr(PURE_Comm comm, int comm_keyval);
int pure_type_create_keyval(PURE_Type_copy_attr_function* type_copy_attr_fn,
                            PURE_Type_delete_attr_function* type_delete_attr_fn,
                            int* type_keyval, void* extra_state);
int pure_type_free_keyval(int* type_keyval);
int pure_type_set_attr(PURE_Datatype datatype, int type_keyval, void* attribute_val);
int pure_type_get_attr(PURE_Datatype datatype, int type_keyval, void* attribute_val,
                       int* flag);
int pure_type_delete_attr(PURE_Datatype datatype, int type_keyval);
/* MPI-1 names for the communicator ones */
int pure_keyval_create(PURE_Copy_function* copy_fn, PURE_Delete_function* delete_fn,
                       int* keyval, void* extra_state);
int pure_keyval_free(int* keyval);
int pure_attr_put(PURE_Comm comm, int keyval, void* attribute_val);
int pure_attr_get(PURE_Comm comm, int keyval, void* attribute_val, int* flag);
int pure_attr_delete(PURE_Comm comm, int keyval);

/* ---- info objects ----
 * Each of these may also be called before pure_init and after pure_finalize
 * (MPI-4). */
int pure_info_create(PURE_Info* info);
int pure_info_create_env(int argc, char* argv[], PURE_Info* info);
int pure_info_set(PURE_Info info, const char* key, const char* value);
int pure_info_delete(PURE_Info info, const char* key);
/* value must hold valuelen + 1 characters. */
int pure_info_get(PURE_Info info, const char* key, int valuelen, char* value, int* flag);
int pure_info_get_valuelen(PURE_Info info, const char* key, int* valuelen, int* flag);
/* MPI 4: *buflen in, the space of value; out, the value's length + 1. */
int pure_info_get_string(PURE_Info info, const char* key, int* buflen, char* value, int* flag);
int pure_info_get_nkeys(PURE_Info info, int* nkeys);
int pure_info_get_nthkey(PURE_Info info, int n, char* key);
int pure_info_dup(PURE_Info info, PURE_Info* newinfo);
int pure_info_free(PURE_Info* info);

/* ---- error handlers and error classes ---- */
typedef void PURE_Comm_errhandler_function(PURE_Comm* comm, int* error_code, ...);
typedef PURE_Comm_errhandler_function PURE_Comm_errhandler_fn; /* the MPI-2 name */
int pure_comm_create_errhandler(PURE_Comm_errhandler_function* comm_errhandler_fn,
                                PURE_Errhandler* errhandler);
int pure_comm_call_errhandler(PURE_Comm comm, int errorcode);
int pure_errhandler_free(PURE_Errhandler* errhandler);
/* MPI-1's names (removed in MPI-3), for old codes: their successors' meaning */
typedef PURE_Comm_errhandler_function PURE_Handler_function;
int pure_errhandler_create(PURE_Handler_function* function, PURE_Errhandler* errhandler);
int pure_errhandler_set(PURE_Comm comm, PURE_Errhandler errhandler);
int pure_errhandler_get(PURE_Comm comm, PURE_Errhandler* errhandler);
/* User error classes and codes (per rank, as per MPI process) start after
 * PURE_ERR_LASTCODE; PURE_LASTUSEDCODE says how far they went. */
int pure_add_error_class(int* errorclass);
int pure_add_error_code(int errorclass, int* errorcode);
int pure_add_error_string(int errorcode, const char* string);

/* ---- persistent collectives (MPI-4) -------------------------------------------------
 * pure_X_init builds the collective once, as an inactive request that
 * pure_start runs again and again (each run finished by a wait or test);
 * members initialise them in the same order as their other collectives on
 * the communicator and start them in the same order too. */
int pure_barrier_init(PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_bcast_init(void *buffer, int count, PURE_Datatype datatype, int root, PURE_Comm comm,
                    PURE_Info info, PURE_Request *request);
int pure_bcast_init_c(void *buffer, PURE_Count count, PURE_Datatype datatype, int root,
                      PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_reduce_init(const void *sendbuf, void *recvbuf, int count, PURE_Datatype datatype,
                     PURE_Op op, int root, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_reduce_init_c(const void *sendbuf, void *recvbuf, PURE_Count count, PURE_Datatype datatype,
                       PURE_Op op, int root, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_allreduce_init(const void *sendbuf, void *recvbuf, int count, PURE_Datatype datatype,
                        PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_allreduce_init_c(const void *sendbuf, void *recvbuf, PURE_Count count,
                          PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                          PURE_Request *request);
int pure_scan_init(const void *sendbuf, void *recvbuf, int count, PURE_Datatype datatype,
                   PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_scan_init_c(const void *sendbuf, void *recvbuf, PURE_Count count, PURE_Datatype datatype,
                     PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_exscan_init(const void *sendbuf, void *recvbuf, int count, PURE_Datatype datatype,
                     PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_exscan_init_c(const void *sendbuf, void *recvbuf, PURE_Count count, PURE_Datatype datatype,
                       PURE_Op op, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                   PURE_Info info, PURE_Request *request);
int pure_reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, PURE_Count recvcount,
                                     PURE_Datatype datatype, PURE_Op op, PURE_Comm comm,
                                     PURE_Info info, PURE_Request *request);
int pure_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                             PURE_Request *request);
int pure_reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const PURE_Count recvcounts[],
                               PURE_Datatype datatype, PURE_Op op, PURE_Comm comm, PURE_Info info,
                               PURE_Request *request);
int pure_gatherv_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], PURE_Datatype recvtype, int root,
                      PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_gatherv_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                        void *recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                        PURE_Datatype recvtype, int root, PURE_Comm comm, PURE_Info info,
                        PURE_Request *request);
int pure_gather_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                     int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                     PURE_Info info, PURE_Request *request);
int pure_gather_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                       void *recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                       PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       PURE_Datatype sendtype, void *recvbuf, int recvcount, PURE_Datatype recvtype,
                       int root, PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_scatterv_init_c(const void *sendbuf, const PURE_Count sendcounts[],
                         const PURE_Aint displs[], PURE_Datatype sendtype, void *recvbuf,
                         PURE_Count recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                         PURE_Info info, PURE_Request *request);
int pure_scatter_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                      int recvcount, PURE_Datatype recvtype, int root, PURE_Comm comm,
                      PURE_Info info, PURE_Request *request);
int pure_scatter_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                        void *recvbuf, PURE_Count recvcount, PURE_Datatype recvtype, int root,
                        PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_allgatherv_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], PURE_Datatype recvtype,
                         PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_allgatherv_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                           void *recvbuf, const PURE_Count recvcounts[], const PURE_Aint displs[],
                           PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                           PURE_Request *request);
int pure_allgather_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                        int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                        PURE_Request *request);
int pure_allgather_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                          void *recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                          PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        PURE_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                        PURE_Request *request);
int pure_alltoallv_init_c(const void *sendbuf, const PURE_Count sendcounts[],
                          const PURE_Aint sdispls[], PURE_Datatype sendtype, void *recvbuf,
                          const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                          PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                          PURE_Request *request);
int pure_alltoall_init(const void *sendbuf, int sendcount, PURE_Datatype sendtype, void *recvbuf,
                       int recvcount, PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                       PURE_Request *request);
int pure_alltoall_init_c(const void *sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                         void *recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                         PURE_Comm comm, PURE_Info info, PURE_Request *request);
int pure_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const PURE_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const PURE_Datatype recvtypes[], PURE_Comm comm,
                        PURE_Info info, PURE_Request *request);
int pure_alltoallw_init_c(const void *sendbuf, const PURE_Count sendcounts[],
                          const PURE_Aint sdispls[], const PURE_Datatype sendtypes[], void *recvbuf,
                          const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                          const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Info info,
                          PURE_Request *request);

/* ---- neighbourhood collectives: large-count, nonblocking and persistent forms ----------- */
int pure_neighbor_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                              void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                              PURE_Comm comm);
int pure_ineighbor_allgather(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                             void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                             PURE_Request* request);
int pure_ineighbor_allgather_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                               void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                               PURE_Comm comm, PURE_Request* request);
int pure_neighbor_allgather_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                 void* recvbuf, int recvcount, PURE_Datatype recvtype,
                                 PURE_Comm comm, PURE_Info info, PURE_Request* request);
int pure_neighbor_allgather_init_c(const void* sendbuf, PURE_Count sendcount,
                                   PURE_Datatype sendtype, void* recvbuf, PURE_Count recvcount,
                                   PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                   PURE_Request* request);
int pure_neighbor_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                               void* recvbuf, const PURE_Count recvcounts[],
                               const PURE_Aint displs[], PURE_Datatype recvtype, PURE_Comm comm);
int pure_ineighbor_allgatherv(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request);
int pure_ineighbor_allgatherv_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                                void* recvbuf, const PURE_Count recvcounts[],
                                const PURE_Aint displs[], PURE_Datatype recvtype, PURE_Comm comm,
                                PURE_Request* request);
int pure_neighbor_allgatherv_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                  void* recvbuf, const int recvcounts[], const int displs[],
                                  PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                  PURE_Request* request);
int pure_neighbor_allgatherv_init_c(const void* sendbuf, PURE_Count sendcount,
                                    PURE_Datatype sendtype, void* recvbuf,
                                    const PURE_Count recvcounts[], const PURE_Aint displs[],
                                    PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                    PURE_Request* request);
int pure_neighbor_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                             void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                             PURE_Comm comm);
int pure_ineighbor_alltoall(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                            void* recvbuf, int recvcount, PURE_Datatype recvtype, PURE_Comm comm,
                            PURE_Request* request);
int pure_ineighbor_alltoall_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                              void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                              PURE_Comm comm, PURE_Request* request);
int pure_neighbor_alltoall_init(const void* sendbuf, int sendcount, PURE_Datatype sendtype,
                                void* recvbuf, int recvcount, PURE_Datatype recvtype,
                                PURE_Comm comm, PURE_Info info, PURE_Request* request);
int pure_neighbor_alltoall_init_c(const void* sendbuf, PURE_Count sendcount, PURE_Datatype sendtype,
                                  void* recvbuf, PURE_Count recvcount, PURE_Datatype recvtype,
                                  PURE_Comm comm, PURE_Info info, PURE_Request* request);
int pure_neighbor_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                              const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                              const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                              PURE_Datatype recvtype, PURE_Comm comm);
int pure_ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                             PURE_Request* request);
int pure_ineighbor_alltoallv_c(const void* sendbuf, const PURE_Count sendcounts[],
                               const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                               const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                               PURE_Datatype recvtype, PURE_Comm comm, PURE_Request* request);
int pure_neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 PURE_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                 const int rdispls[], PURE_Datatype recvtype, PURE_Comm comm,
                                 PURE_Info info, PURE_Request* request);
int pure_neighbor_alltoallv_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                                   const PURE_Aint sdispls[], PURE_Datatype sendtype, void* recvbuf,
                                   const PURE_Count recvcounts[], const PURE_Aint rdispls[],
                                   PURE_Datatype recvtype, PURE_Comm comm, PURE_Info info,
                                   PURE_Request* request);
int pure_neighbor_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                              const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                              void* recvbuf, const PURE_Count recvcounts[],
                              const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                              PURE_Comm comm);
int pure_ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const PURE_Aint sdispls[],
                             const PURE_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                             PURE_Comm comm, PURE_Request* request);
int pure_ineighbor_alltoallw_c(const void* sendbuf, const PURE_Count sendcounts[],
                               const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                               void* recvbuf, const PURE_Count recvcounts[],
                               const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                               PURE_Comm comm, PURE_Request* request);
int pure_neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                 const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                                 void* recvbuf, const int recvcounts[], const PURE_Aint rdispls[],
                                 const PURE_Datatype recvtypes[], PURE_Comm comm, PURE_Info info,
                                 PURE_Request* request);
int pure_neighbor_alltoallw_init_c(const void* sendbuf, const PURE_Count sendcounts[],
                                   const PURE_Aint sdispls[], const PURE_Datatype sendtypes[],
                                   void* recvbuf, const PURE_Count recvcounts[],
                                   const PURE_Aint rdispls[], const PURE_Datatype recvtypes[],
                                   PURE_Comm comm, PURE_Info info, PURE_Request* request);

/* ---- Pure Tasks ------------------------------------------------------------------
 * A task is a function run over chunks 0 .. chunks-1. pure_task_execute
 * publishes it so that ranks of this process waiting in any blocking call
 * (and helper threads, PURE_HELPERS) run some chunks; the caller runs the
 * rest and returns once every chunk has run exactly once. Each call of `fn`
 * gets an inclusive range [start, end] of chunk ids: one chunk, or several
 * consecutive ones under PURE_CHUNK_POLICY=guided. `args` is passed through
 * unchanged, `context` too. Chunks run concurrently on other threads (a
 * stolen chunk runs on another rank's thread or on a helper), so they must
 * not call Pure communication functions. Called inside a chunk, or on a rank
 * alone in its process without helpers, the task runs serially on the
 * calling thread, as one call over all chunks. */
typedef int64_t PURE_Chunk_id;
typedef void PURE_Task_function(PURE_Chunk_id start, PURE_Chunk_id end, void* args,
                                void* context);
/* `chunks` <= 0 asks for the default, PURE_MAX_TASK_CHUNKS; larger requests
 * are capped at it. */
int pure_task_execute(PURE_Task_function* fn, void* context, PURE_Chunk_id chunks, void* args);
/* Inside a chunk: the element range [*lo, *hi] (inclusive; *hi = *lo - 1 when
 * empty) of n elements that chunks [start, end] of the running task cover.
 * Over all chunks the ranges cover 0 .. n-1 exactly once, in order. The
 * aligned variant puts every boundary on a cache line (relative to element 0)
 * for elements of elem_size bytes. PURE_ERR_OTHER outside a chunk,
 * PURE_ERR_ARG for an invalid range; no error handler is called. */
int pure_task_idx_range(int64_t n, PURE_Chunk_id start, PURE_Chunk_id end, int64_t* lo,
                        int64_t* hi);
int pure_task_aligned_idx_range(int64_t n, size_t elem_size, PURE_Chunk_id start,
                                PURE_Chunk_id end, int64_t* lo, int64_t* hi);

/* Scheduler counters of one rank of this process, or of all helper threads
 * together (rank PURE_TASK_HELPERS). Read while the job runs. */
#define PURE_TASK_HELPERS (-1)
typedef struct PURE_Task_stats {
  long long tasks;         /* tasks this rank executed (nested ones included) */
  long long own_chunks;    /* chunks of its own tasks it ran itself */
  long long stolen_chunks; /* chunks of other ranks' tasks it ran while waiting */
} PURE_Task_stats;
int pure_task_get_stats(int rank, PURE_Task_stats* stats);

/* ---- one-sided communication: MPI RMA ---------------------------------------
 * Windows as MPI defines them. Between ranks of one process a put or get is
 * a copy straight into or out of the target's memory and an accumulate is
 * atomic instructions on it: no message, no help from the target. Across
 * processes a window is an MPI window of the MPI underneath.
 *
 * Info keys a window keeps (pure_win_get_info shows them, with their
 * defaults): no_locks, accumulate_ordering, accumulate_ops, same_size,
 * same_disp_unit, alloc_shared_noncontig. They are hints: every window
 * behaves as with the defaults, which is correct under any of them. */
typedef int PURE_Win;
#define PURE_HANDLE_KIND_WIN 0x0D000000
#define PURE_WIN_NULL ((PURE_Win)0)

/* Ops for the accumulate calls only. */
#define PURE_REPLACE ((PURE_Op)(PURE_HANDLE_KIND_OP | 13))
#define PURE_NO_OP ((PURE_Op)(PURE_HANDLE_KIND_OP | 14))

/* predefined attributes of every window (pure_win_get_attr) */
#define PURE_WIN_BASE (PURE_HANDLE_KIND_KEYVAL | 8)
#define PURE_WIN_SIZE (PURE_HANDLE_KIND_KEYVAL | 9)
#define PURE_WIN_DISP_UNIT (PURE_HANDLE_KIND_KEYVAL | 10)
#define PURE_WIN_CREATE_FLAVOR (PURE_HANDLE_KIND_KEYVAL | 11)
#define PURE_WIN_MODEL (PURE_HANDLE_KIND_KEYVAL | 12)

#define PURE_WIN_FLAVOR_CREATE 1
#define PURE_WIN_FLAVOR_ALLOCATE 2
#define PURE_WIN_FLAVOR_DYNAMIC 3
#define PURE_WIN_FLAVOR_SHARED 4
#define PURE_WIN_UNIFIED 0
#define PURE_WIN_SEPARATE 1

/* assertions of the synchronisation calls, and lock types */
#define PURE_MODE_NOCHECK 1
#define PURE_MODE_NOPRECEDE 2
#define PURE_MODE_NOPUT 4
#define PURE_MODE_NOSTORE 8
#define PURE_MODE_NOSUCCEED 16
#define PURE_LOCK_EXCLUSIVE 1
#define PURE_LOCK_SHARED 2

/* error classes of one-sided communication (values as in Open MPI) */
#define PURE_ERR_ASSERT 22
#define PURE_ERR_BASE 24
#define PURE_ERR_DISP 26
#define PURE_ERR_LOCKTYPE 37
#define PURE_ERR_NO_MEM 39
#define PURE_ERR_RMA_CONFLICT 46
#define PURE_ERR_RMA_SYNC 47
#define PURE_ERR_SIZE 49
#define PURE_ERR_UNSUPPORTED_OPERATION 52
#define PURE_ERR_WIN 53
#define PURE_ERR_RMA_RANGE 68
#define PURE_ERR_RMA_ATTACH 69
#define PURE_ERR_RMA_FLAVOR 70
#define PURE_ERR_RMA_SHARED 71

int pure_win_create(void* base, PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                    PURE_Win* win);
int pure_win_allocate(PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                      void* baseptr, PURE_Win* win);
int pure_win_allocate_shared(PURE_Aint size, int disp_unit, PURE_Info info, PURE_Comm comm,
                             void* baseptr, PURE_Win* win);
int pure_win_shared_query(PURE_Win win, int rank, PURE_Aint* size, int* disp_unit,
                          void* baseptr);
int pure_win_create_dynamic(PURE_Info info, PURE_Comm comm, PURE_Win* win);
int pure_win_attach(PURE_Win win, void* base, PURE_Aint size);
int pure_win_detach(PURE_Win win, const void* base);
int pure_win_free(PURE_Win* win);
int pure_win_get_attr(PURE_Win win, int win_keyval, void* attribute_val, int* flag);
int pure_win_get_group(PURE_Win win, PURE_Group* group);
int pure_win_set_name(PURE_Win win, const char* win_name);
int pure_win_get_name(PURE_Win win, char* win_name, int* resultlen);
int pure_win_set_info(PURE_Win win, PURE_Info info);
int pure_win_get_info(PURE_Win win, PURE_Info* info_used);

/* Error handlers of windows: set on a window, a handler made by
 * pure_win_create_errhandler (or a predefined one) applies to every error
 * of a call on that window. */
typedef void PURE_Win_errhandler_function(PURE_Win* win, int* error_code, ...);
typedef PURE_Win_errhandler_function PURE_Win_errhandler_fn; /* MPI-2's name */
int pure_win_create_errhandler(PURE_Win_errhandler_function* win_errhandler_fn,
                               PURE_Errhandler* errhandler);
int pure_win_set_errhandler(PURE_Win win, PURE_Errhandler errhandler);
int pure_win_get_errhandler(PURE_Win win, PURE_Errhandler* errhandler);
int pure_win_call_errhandler(PURE_Win win, int errorcode);

/* Attribute caching on windows: as on communicators. The delete callbacks
 * run when the window is freed, before its memory goes. */
typedef int PURE_Win_copy_attr_function(PURE_Win oldwin, int win_keyval, void* extra_state,
                                        void* attribute_val_in, void* attribute_val_out,
                                        int* flag);
typedef int PURE_Win_delete_attr_function(PURE_Win win, int win_keyval, void* attribute_val,
                                          void* extra_state);
int pure_win_null_copy_fn(PURE_Win oldwin, int win_keyval, void* extra_state,
                          void* attribute_val_in, void* attribute_val_out, int* flag);
int pure_win_dup_fn(PURE_Win oldwin, int win_keyval, void* extra_state, void* attribute_val_in,
                    void* attribute_val_out, int* flag);
int pure_win_null_delete_fn(PURE_Win win, int win_keyval, void* attribute_val,
                            void* extra_state);
#define PURE_WIN_NULL_COPY_FN pure_win_null_copy_fn
#define PURE_WIN_DUP_FN pure_win_dup_fn
#define PURE_WIN_NULL_DELETE_FN pure_win_null_delete_fn
int pure_win_create_keyval(PURE_Win_copy_attr_function* win_copy_attr_fn,
                           PURE_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval,
                           void* extra_state);
int pure_win_free_keyval(int* win_keyval);
int pure_win_set_attr(PURE_Win win, int win_keyval, void* attribute_val);
int pure_win_delete_attr(PURE_Win win, int win_keyval);

int pure_put(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
             int target_rank, PURE_Aint target_disp, int target_count,
             PURE_Datatype target_datatype, PURE_Win win);
int pure_get(void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
             int target_rank, PURE_Aint target_disp, int target_count,
             PURE_Datatype target_datatype, PURE_Win win);
int pure_accumulate(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
                    int target_rank, PURE_Aint target_disp, int target_count,
                    PURE_Datatype target_datatype, PURE_Op op, PURE_Win win);
int pure_get_accumulate(const void* origin_addr, int origin_count,
                        PURE_Datatype origin_datatype, void* result_addr, int result_count,
                        PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
                        int target_count, PURE_Datatype target_datatype, PURE_Op op,
                        PURE_Win win);
int pure_fetch_and_op(const void* origin_addr, void* result_addr, PURE_Datatype datatype,
                      int target_rank, PURE_Aint target_disp, PURE_Op op, PURE_Win win);
int pure_compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                          PURE_Datatype datatype, int target_rank, PURE_Aint target_disp,
                          PURE_Win win);
int pure_rput(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
              int target_rank, PURE_Aint target_disp, int target_count,
              PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request);
int pure_rget(void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
              int target_rank, PURE_Aint target_disp, int target_count,
              PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request);
int pure_raccumulate(const void* origin_addr, int origin_count, PURE_Datatype origin_datatype,
                     int target_rank, PURE_Aint target_disp, int target_count,
                     PURE_Datatype target_datatype, PURE_Op op, PURE_Win win,
                     PURE_Request* request);
int pure_rget_accumulate(const void* origin_addr, int origin_count,
                         PURE_Datatype origin_datatype, void* result_addr, int result_count,
                         PURE_Datatype result_datatype, int target_rank, PURE_Aint target_disp,
                         int target_count, PURE_Datatype target_datatype, PURE_Op op,
                         PURE_Win win, PURE_Request* request);

/* The calls above with PURE_Count counts and PURE_Aint displacement units
 * (MPI-4's large-count forms). */
int pure_put_c(const void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
               int target_rank, PURE_Aint target_disp, PURE_Count target_count,
               PURE_Datatype target_datatype, PURE_Win win);
int pure_get_c(void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
               int target_rank, PURE_Aint target_disp, PURE_Count target_count,
               PURE_Datatype target_datatype, PURE_Win win);
int pure_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                      PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
                      PURE_Count target_count, PURE_Datatype target_datatype, PURE_Op op,
                      PURE_Win win);
int pure_get_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                          PURE_Datatype origin_datatype, void* result_addr,
                          PURE_Count result_count, PURE_Datatype result_datatype,
                          int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                          PURE_Datatype target_datatype, PURE_Op op, PURE_Win win);
int pure_rput_c(const void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
                int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request);
int pure_rget_c(void* origin_addr, PURE_Count origin_count, PURE_Datatype origin_datatype,
                int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                PURE_Datatype target_datatype, PURE_Win win, PURE_Request* request);
int pure_raccumulate_c(const void* origin_addr, PURE_Count origin_count,
                       PURE_Datatype origin_datatype, int target_rank, PURE_Aint target_disp,
                       PURE_Count target_count, PURE_Datatype target_datatype, PURE_Op op,
                       PURE_Win win, PURE_Request* request);
int pure_rget_accumulate_c(const void* origin_addr, PURE_Count origin_count,
                           PURE_Datatype origin_datatype, void* result_addr,
                           PURE_Count result_count, PURE_Datatype result_datatype,
                           int target_rank, PURE_Aint target_disp, PURE_Count target_count,
                           PURE_Datatype target_datatype, PURE_Op op, PURE_Win win,
                           PURE_Request* request);
int pure_win_create_c(void* base, PURE_Aint size, PURE_Aint disp_unit, PURE_Info info,
                      PURE_Comm comm, PURE_Win* win);
int pure_win_allocate_c(PURE_Aint size, PURE_Aint disp_unit, PURE_Info info, PURE_Comm comm,
                        void* baseptr, PURE_Win* win);
int pure_win_allocate_shared_c(PURE_Aint size, PURE_Aint disp_unit, PURE_Info info,
                               PURE_Comm comm, void* baseptr, PURE_Win* win);
int pure_win_shared_query_c(PURE_Win win, int rank, PURE_Aint* size, PURE_Aint* disp_unit,
                            void* baseptr);

/* Memory for windows (and anything else): `size` bytes aligned to a cache
 * line, freed by pure_free_mem. */
int pure_alloc_mem(PURE_Aint size, PURE_Info info, void* baseptr);
int pure_free_mem(void* base);

int pure_win_fence(int assert, PURE_Win win);
int pure_win_start(PURE_Group group, int assert, PURE_Win win);
int pure_win_complete(PURE_Win win);
int pure_win_post(PURE_Group group, int assert, PURE_Win win);
int pure_win_wait(PURE_Win win);
int pure_win_test(PURE_Win win, int* flag);
int pure_win_lock(int lock_type, int rank, int assert, PURE_Win win);
int pure_win_unlock(int rank, PURE_Win win);
int pure_win_lock_all(int assert, PURE_Win win);
int pure_win_unlock_all(PURE_Win win);
int pure_win_flush(int rank, PURE_Win win);
int pure_win_flush_all(PURE_Win win);
int pure_win_flush_local(int rank, PURE_Win win);
int pure_win_flush_local_all(PURE_Win win);
int pure_win_sync(PURE_Win win);

/* ---- handles as Fortran integers (MPI 3.1 section 17.2.4) -----------------------
 * C code that keeps MPI handles in integers, or hands them to Fortran, uses
 * these; no Fortran compiler is involved. Every handle but a request is an
 * integer already, and converts to itself. A request gets a number of its
 * rank's (0 for PURE_REQUEST_NULL), which converts back while the request
 * lives. A status is PURE_F_STATUS_SIZE integers, its source, tag and error
 * at the indices PURE_F_SOURCE, PURE_F_TAG and PURE_F_ERROR. */
typedef int PURE_Fint;
#define PURE_F_STATUS_SIZE ((int)(sizeof(PURE_Status) / sizeof(PURE_Fint)))
#define PURE_F_SOURCE 0
#define PURE_F_TAG 1
#define PURE_F_ERROR 2
#define PURE_F_STATUS_IGNORE ((PURE_Fint*)0)
#define PURE_F_STATUSES_IGNORE ((PURE_Fint*)0)

PURE_Fint pure_comm_c2f(PURE_Comm comm);
PURE_Comm pure_comm_f2c(PURE_Fint comm);
PURE_Fint pure_type_c2f(PURE_Datatype datatype);
PURE_Datatype pure_type_f2c(PURE_Fint datatype);
PURE_Fint pure_group_c2f(PURE_Group group);
PURE_Group pure_group_f2c(PURE_Fint group);
PURE_Fint pure_op_c2f(PURE_Op op);
PURE_Op pure_op_f2c(PURE_Fint op);
PURE_Fint pure_info_c2f(PURE_Info info);
PURE_Info pure_info_f2c(PURE_Fint info);
PURE_Fint pure_errhandler_c2f(PURE_Errhandler errhandler);
PURE_Errhandler pure_errhandler_f2c(PURE_Fint errhandler);
PURE_Fint pure_win_c2f(PURE_Win win);
PURE_Win pure_win_f2c(PURE_Fint win);
PURE_Fint pure_message_c2f(PURE_Message message);
PURE_Message pure_message_f2c(PURE_Fint message);
PURE_Fint pure_request_c2f(PURE_Request request);
PURE_Request pure_request_f2c(PURE_Fint request);
int pure_status_c2f(const PURE_Status* c_status, PURE_Fint* f_status);
int pure_status_f2c(const PURE_Fint* f_status, PURE_Status* c_status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#include "pure/pgas.h"

#endif /* PURE_PURE_H */
