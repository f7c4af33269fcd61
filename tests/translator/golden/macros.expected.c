#include <pure/compat.h>
/* MPI names inside the user's own macros are rewritten where the macro is
 * written, whether or not it is used; the user's MPI_CHECK keeps its name. */
#include <pure/pure.h>
#include <stdio.h>

#define COMM PURE_COMM_WORLD
#define MPI_CHECK(call)                                      \
  do {                                                       \
    int err_ = (call);                                       \
    if (err_ != PURE_SUCCESS) pure_abort(PURE_COMM_WORLD, err_); \
  } while (0)
#define SEND_INT(v, to) pure_send(&(v), 1, PURE_INT, (to), 0, COMM)
#define SOURCE_OF(s) ((s).MPI_SOURCE)
#define UNUSED_MACRO pure_allreduce(PURE_IN_PLACE, 0, 0, PURE_BYTE, PURE_SUM, COMM)

int pure_main(int argc, char **argv) {
  int rank, value = 7;
  PURE_Status status;
  MPI_CHECK(pure_init(&argc, &argv));
  MPI_CHECK(pure_comm_rank(COMM, &rank));
  if (rank == 0) SEND_INT(value, 1);
  if (rank == 1) MPI_CHECK(pure_recv(&value, 1, PURE_INT, 0, 0, COMM, &status));
  if (rank == 1) pure_printf("%d from %d\n", value, SOURCE_OF(status));
  pure_finalize();
  return 0;
}
