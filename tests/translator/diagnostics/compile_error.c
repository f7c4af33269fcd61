/* A compiler error in a translated file must name the original file and
 * line: purecc's translated copy starts with #line. */
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  undeclared_function_here(rank);
  MPI_Finalize();
  return 0;
}
