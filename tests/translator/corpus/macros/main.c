/* MPI calls inside the program's own macros, and an MPI_ macro name of the
 * program's own that must keep its name. */
#include <mpi.h>
#include <stdio.h>

#define WORLD MPI_COMM_WORLD
#define MPI_CALL(call)                                      \
  do {                                                      \
    int rc_ = (call);                                       \
    if (rc_ != MPI_SUCCESS) {                               \
      fprintf(stderr, "%s failed\n", #call);                \
      MPI_Abort(WORLD, rc_);                                \
    }                                                       \
  } while (0)
#define SUM_TO_ROOT(in, out) MPI_Reduce(&(in), &(out), 1, MPI_INT, MPI_SUM, 0, WORLD)
#define RANK_AND_SIZE(r, s) (MPI_Comm_rank(WORLD, &(r)), MPI_Comm_size(WORLD, &(s)))
#define BCAST_INT(x) MPI_Bcast(&(x), 1, MPI_INT, 0, WORLD)

#if MPI_VERSION >= 3
#define LABEL "mpi3"
#else
#define LABEL "old"
#endif

int main(int argc, char **argv) {
  int rank, size, total = 0, factor = 0;
  MPI_CALL(MPI_Init(&argc, &argv));
  MPI_CALL(RANK_AND_SIZE(rank, size));
  if (rank == 0) factor = 3;
  MPI_CALL(BCAST_INT(factor));
  int mine = (rank + 1) * factor;
  MPI_CALL(SUM_TO_ROOT(mine, total));
  if (rank == 0) printf("%s: total %d over %d ranks\n", LABEL, total, size);
  MPI_CALL(MPI_Barrier(WORLD));
  MPI_Finalize();
  return 0;
}
