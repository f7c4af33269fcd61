/* MPI names inside the user's own macros are rewritten where the macro is
 * written, whether or not it is used; the user's MPI_CHECK keeps its name. */
#include <mpi.h>
#include <stdio.h>

#define COMM MPI_COMM_WORLD
#define MPI_CHECK(call)                                      \
  do {                                                       \
    int err_ = (call);                                       \
    if (err_ != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, err_); \
  } while (0)
#define SEND_INT(v, to) MPI_Send(&(v), 1, MPI_INT, (to), 0, COMM)
#define SOURCE_OF(s) ((s).MPI_SOURCE)
#define UNUSED_MACRO MPI_Allreduce(MPI_IN_PLACE, 0, 0, MPI_BYTE, MPI_SUM, COMM)

int main(int argc, char **argv) {
  int rank, value = 7;
  MPI_Status status;
  MPI_CHECK(MPI_Init(&argc, &argv));
  MPI_CHECK(MPI_Comm_rank(COMM, &rank));
  if (rank == 0) SEND_INT(value, 1);
  if (rank == 1) MPI_CHECK(MPI_Recv(&value, 1, MPI_INT, 0, 0, COMM, &status));
  if (rank == 1) printf("%d from %d\n", value, SOURCE_OF(status));
  MPI_Finalize();
  return 0;
}
