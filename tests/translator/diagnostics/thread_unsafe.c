/* C library calls with process-wide state and no per-rank form. */
#include <mpi.h>
#include <stdlib.h>

static void bye(void) {}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  setenv("MODE", "fast", 1);
  double x = drand48();
  atexit(bye);
  (void)x;
  MPI_Finalize();
  return 0;
}
