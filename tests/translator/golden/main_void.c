/* main(void) becomes pure_main(int, char **), pure.h's prototype, with the
 * parameters marked used; main's implicit return 0 is made explicit. */
#include <mpi.h>

int main(void) {
  MPI_Init(NULL, NULL);
  MPI_Finalize();
}
