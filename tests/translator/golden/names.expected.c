#include <pure/compat.h>
/* MPI functions, constants and types become Pure's; status fields keep
 * their names; MPI_ names in #if and #ifdef lines are rewritten too. */
#include <stdio.h>
#include <pure/pure.h>

#if PURE_VERSION >= 3
#define HAVE_MPI3 1
#endif

static void report(PURE_Comm comm, const PURE_Status *status) {
  int count = 0;
  pure_get_count(status, PURE_INT, &count);
  pure_printf("from %d tag %d count %d\n", status->MPI_SOURCE, status->MPI_TAG, count);
  (void)comm;
}

int pure_main(int argc, char **argv) {
  int rank, provided;
  pure_init_thread(&argc, &argv, PURE_THREAD_MULTIPLE, &provided);
  pure_comm_rank(PURE_COMM_WORLD, &rank);
  PURE_Request requests[2] = {PURE_REQUEST_NULL, PURE_REQUEST_NULL};
  PURE_Status status;
  PURE_Datatype pair = PURE_DOUBLE_INT;
  PURE_Op op = PURE_MINLOC;
  PURE_Aint extent;
  int (*barrier)(PURE_Comm) = pure_barrier;
  int value = rank;
  pure_sendrecv_replace(&value, 1, PURE_INT, PURE_PROC_NULL, 0, PURE_ANY_SOURCE, PURE_ANY_TAG,
                       PURE_COMM_WORLD, &status);
  report(PURE_COMM_WORLD, &status);
  pure_waitall(2, requests, PURE_STATUSES_IGNORE);
  barrier(PURE_COMM_WORLD);
#ifdef PURE_MAX_PROCESSOR_NAME
  char name[PURE_MAX_PROCESSOR_NAME];
  int length;
  pure_get_processor_name(name, &length);
#endif
  (void)pair; (void)op; (void)extent;
  pure_finalize();
  return 0;
}
