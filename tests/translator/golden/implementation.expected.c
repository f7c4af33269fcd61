#include <pure/compat.h>
/* The translated program is compiled against Pure, where OPEN_MPI and
 * MPICH are not defined: code under them is dead and is not reported, but
 * the live branch is translated. */
#include <pure/pure.h>
#include <stdio.h>

static void describe(void) {
#if defined(OPEN_MPI) && OPEN_MPI
  MPI_T_cvar_handle handle;
  MPI_T_finalize();
  (void)handle;
#elif defined(MPICH)
  MPIX_Comm_failure_ack(MPI_COMM_WORLD);
#else
  pure_printf("MPI %d.%d\n", PURE_VERSION, PURE_SUBVERSION);
#endif
}

int pure_main(int argc, char **argv) {
  pure_init(&argc, &argv);
  describe();
  pure_finalize();
  return 0;
}
