/* MPI functions, constants and types become Pure's; status fields keep
 * their names; MPI_ names in #if and #ifdef lines are rewritten too. */
#include <stdio.h>
#include "mpi.h"

#if MPI_VERSION >= 3
#define HAVE_MPI3 1
#endif

static void report(MPI_Comm comm, const MPI_Status *status) {
  int count = 0;
  MPI_Get_count(status, MPI_INT, &count);
  printf("from %d tag %d count %d\n", status->MPI_SOURCE, status->MPI_TAG, count);
  (void)comm;
}

int main(int argc, char **argv) {
  int rank, provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status status;
  MPI_Datatype pair = MPI_DOUBLE_INT;
  MPI_Op op = MPI_MINLOC;
  MPI_Aint extent;
  int (*barrier)(MPI_Comm) = MPI_Barrier;
  int value = rank;
  MPI_Sendrecv_replace(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_ANY_SOURCE, MPI_ANY_TAG,
                       MPI_COMM_WORLD, &status);
  report(MPI_COMM_WORLD, &status);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  barrier(MPI_COMM_WORLD);
#ifdef MPI_MAX_PROCESSOR_NAME
  char name[MPI_MAX_PROCESSOR_NAME];
  int length;
  MPI_Get_processor_name(name, &length);
#endif
  (void)pair; (void)op; (void)extent;
  MPI_Finalize();
  return 0;
}
